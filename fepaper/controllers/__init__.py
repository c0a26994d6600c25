"""Controllers: one module per family, all built from JSON-able specs via :func:`make`.

>>> from fepaper.controllers import make
>>> sorted(make({"name": "random", "seed": 1}).spec)
['mode', 'name', 'seed', 'stop_probability']
"""

# Importing a family's module registers its controllers.
from . import aco, alphabeta, baselines, foo, mcts, turnsearch  # noqa: F401
from .base import REGISTRY, Controller, Decision, SpecError, make, register, spec_of

__all__ = ["REGISTRY", "Controller", "Decision", "SpecError", "make", "register", "spec_of"]
