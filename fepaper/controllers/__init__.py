"""Controllers: one module per family, all built from JSON-able specs via :func:`make`.

Each controller declares its parameters once (:mod:`fepaper.controllers.params`); its spec,
checks and GA genes come from that declaration, and every decision is a
:class:`~fepaper.search.result.SearchResult`. A controller that searches is a thin adapter of
its algorithm in :mod:`fepaper.search` (``alphabeta``, ``turnsearch``, ``minimax``, ``mcts``,
``bestfirst``, ``gp``); the ant colonies, Foo's machines and the baselines still play in their modules.

>>> from fepaper.controllers import make
>>> sorted(make({"name": "random", "seed": 1}).spec)
['mode', 'name', 'seed', 'stop_probability']
"""

# Importing a family's module registers its controllers.
from . import aco, alphabeta, baselines, bestfirst, foo, gp, mcts, turnsearch  # noqa: F401
from .base import REGISTRY, Controller, checked_spec, genes_of, make, register, spec_of
from .params import Gene, Param, SpecError

__all__ = ["REGISTRY", "Controller", "Gene", "Param", "SpecError", "checked_spec", "genes_of", "make",
           "register", "spec_of"]
