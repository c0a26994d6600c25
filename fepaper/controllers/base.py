"""What every controller is: declared parameters, a spec, and ``decide(game) -> SearchResult``.

A controller class declares its parameters once (``PARAMS``, a tuple of
:class:`~fepaper.controllers.params.Param`); the constructor checks them, sets them as
attributes and calls :meth:`Controller.setup`; :attr:`Controller.spec` writes them back
as the JSON-able spec that :func:`make` rebuilds it from, e.g.
``{"name": "alphabeta", "variant": "dynamic", "depth": 3}``. Tournaments, GA
individuals, data files and the CLI pass specs around, so any game in ``data/`` can be
replayed. :meth:`Controller.choose_turn` returns the step string of one legal turn and
records each decision's :class:`~fepaper.search.result.SearchResult`.
"""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from typing import Any, ClassVar

import numpy as np

from ..game import Game
from ..game.jsonio import JSONInputError, loads
from ..search.budget import collector_off
from ..search.result import SearchResult
from .params import Float, Gene, Int, Param, SpecError

__all__ = ["Controller", "SpecError", "REGISTRY", "register", "make", "spec_of", "checked_spec", "genes_of"]

#: The parameters every controller has.
COMMON: tuple[Param, ...] = (
    Int("seed", None, 0, 2**63 - 1, shown="set", doc="seeds the controller's own random generator"),
    Float("time_limit", None, 0.0, 86_400.0, open_low=True, shown="set",
          doc="seconds per decision, for controllers that search within a time budget"),
)


class Controller:
    """Base class: subclasses set ``name`` and ``PARAMS`` and implement :meth:`decide`.

    Every controller takes ``seed`` (its own ``numpy.random.Generator``, ``self.rng``) and
    ``time_limit`` (seconds per decision; controllers that search keep it, wall clock,
    fepaper's own overhead included; Python's garbage collector is off during a timed decision).
    """

    name: ClassVar[str] = ""
    PARAMS: ClassVar[tuple[Param, ...]] = ()
    #: The smallest ``time_limit`` the controller keeps within 10 % (in CPU time, ``fepaper bench
    #: clock``); a smaller one is refused rather than overrun.
    MIN_TIME_LIMIT: ClassVar[float] = 0.0
    #: How :meth:`warm_up` shrinks the spec to a small decision that still runs every kernel of the
    #: controller's decisions (e.g. ``{"iterations": 8}``); None: it has no kernels to warm.
    WARM: ClassVar[dict[str, Any] | None] = None

    def __init__(self, **values: Any) -> None:
        declared = self.declared()
        unknown = sorted(set(values) - set(declared))
        if unknown:
            raise SpecError(f"{self.name}: unknown parameter(s) {unknown}; "
                            f"valid parameters: {sorted(declared)}")
        resolved = {name: values.get(name, p.default) for name, p in declared.items()}
        for name, p in declared.items():
            if p.applies is not None and not p.applies(resolved):
                if values.get(name) is not None:
                    raise SpecError(f"{self.name}: {name} does not apply here ({self._context(resolved)})")
                resolved[name] = None
            else:
                resolved[name] = p.check(resolved[name], self.name)
        limit = resolved.get("time_limit")
        if limit is not None and limit < self.MIN_TIME_LIMIT:
            raise SpecError(f"{self.name}: time_limit {limit:g} s is below {self.MIN_TIME_LIMIT:g} s, the "
                            "least budget it keeps within 10 % (fepaper bench clock); give at least that")
        self._values = resolved
        for name, value in resolved.items():
            setattr(self, name, value)
        self.rng = np.random.default_rng(self.seed)
        self.decisions: list[SearchResult] = []
        self.setup()

    @classmethod
    def declared(cls) -> dict[str, Param]:
        """Every parameter of this controller by name: its own, then ``seed`` and ``time_limit``."""
        return {p.name: p for p in (*cls.PARAMS, *COMMON)}

    def _context(self, values: dict) -> str:
        shown = {k: values[k] for k in ("variant", "system") if k in values}
        return ", ".join(f"{k}={v!r}" for k, v in shown.items()) or self.name

    def setup(self) -> None:
        """Work done once after the parameters are set (derived arrays, cross-checks)."""

    @property
    def spec(self) -> dict[str, Any]:
        """The JSON-able spec that rebuilds this controller with :func:`make`."""
        out: dict[str, Any] = {"name": self.name}
        for name, p in self.declared().items():
            value = self._values[name]
            if (p.applies is None or p.applies(self._values)) and p.in_spec(value):
                out[name] = p.to_spec(value)
        return out

    def decide(self, game: Game) -> SearchResult:
        """The search behind :meth:`choose_turn`; ``game`` must not be changed (work on a copy)."""
        raise NotImplementedError

    def choose_turn(self, game: Game) -> str:
        """The step string of one legal turn for the player to move in ``game``."""
        if game.is_over:
            raise ValueError(f"{self.name}: the game is over ({game.result})")
        if game.current:
            raise ValueError(f"{self.name}: choose_turn is called at the start of a turn")
        timed = self.time_limit is not None
        if timed:
            self.warm_up(game.rules)  # the compiler's time is not the decision's
        start = time.perf_counter()
        with collector_off() if timed else nullcontext():  # nor the garbage collector's
            result = self.decide(game)
        self.decisions.append(result.timed(time.perf_counter() - start))
        return result.turn

    def warm_up(self, rules) -> float:
        """Compile this controller's kernels (or load them from numba's cache) before a clock
        runs: one small decision from the kick-off of ``rules`` by a twin without a time limit,
        once per process, spec and rules. The controller's own state and random generator are
        not touched. Returns the seconds it took (0.0 when already warm).

        :meth:`choose_turn` calls it when the controller has a ``time_limit``, so that its first
        decision searches for its whole budget instead of compiling through it.
        """
        if self.WARM is None:
            return 0.0
        spec = {**self.spec, **self.WARM, "time_limit": None, "seed": 0}
        key = (json.dumps(spec, sort_keys=True), json.dumps(Game(rules).rules.to_dict(), sort_keys=True))
        if key in _WARM:
            return 0.0
        start = time.perf_counter()
        make(spec).decide(Game(rules))
        _WARM.add(key)
        return time.perf_counter() - start

    @property
    def last(self) -> SearchResult | None:
        """The last decision's result (``seconds``: its wall time)."""
        return self.decisions[-1] if self.decisions else None

    def __repr__(self) -> str:
        return f"make({json.dumps(self.spec)})"


REGISTRY: dict[str, type[Controller]] = {}

#: The (spec, rules) pairs :meth:`Controller.warm_up` has run in this process.
_WARM: set[tuple[str, str]] = set()


def register(cls: type[Controller]) -> type[Controller]:
    """Class decorator: make ``cls`` buildable from specs with ``{"name": cls.name, ...}``."""
    if not cls.name:
        raise TypeError(f"{cls.__name__} needs a name")
    REGISTRY[cls.name] = cls
    return cls


def _load_spec(text: str) -> Any:
    try:
        return loads(text, "controller spec")
    except JSONInputError as exc:
        raise SpecError(str(exc)) from None


def make(spec: dict[str, Any] | str | Controller) -> Controller:
    """Build a controller from a spec (a dict, its JSON text, or a bare name).

    Raises
    ------
    SpecError
        Listing the valid names, or the valid parameters of the named controller.
    """
    if isinstance(spec, Controller):
        return spec
    if isinstance(spec, str):
        text = spec.strip()
        spec = _load_spec(text) if text.startswith("{") else {"name": text}
    if not isinstance(spec, dict) or "name" not in spec:
        raise SpecError(f'a controller spec is a dict with a "name"; valid names: {sorted(REGISTRY)}')
    fields = dict(spec)
    name = fields.pop("name")
    if not isinstance(name, str) or name not in REGISTRY:
        raise SpecError(f"unknown controller {name!r}; valid names: {sorted(REGISTRY)}")
    return REGISTRY[name](**fields)


def spec_of(controller_or_spec) -> dict[str, Any]:
    """The plain (canonical) spec of a controller or spec."""
    return make(controller_or_spec).spec


def checked_spec(value, where: str) -> dict[str, Any]:
    """The canonical spec of ``value`` (a name or a dict read from outside: a config, a command
    line), or a ValueError naming ``where`` and what was wrong."""
    if not isinstance(value, (str, dict)):
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise ValueError(f"{where}: a controller spec is a name or a JSON object, got {shown}")
    try:
        return make(value).spec
    except (ValueError, TypeError) as exc:  # TypeError: a value of a JSON type the spec does not take
        raise ValueError(f"{where}: {exc}") from None


def genes_of(spec: dict[str, Any] | str) -> list[Gene]:
    """The genes a genetic algorithm may tune in ``spec``: every tunable parameter that
    applies to it and that the spec does not fix.

    Examples
    --------
    >>> [g.name for g in genes_of({"name": "aco", "variant": "base", "n_ants": 20})]
    ['iterations', 'alpha', 'beta', 'rho', 'heuristic']
    """
    controller = make(spec)
    given = spec if isinstance(spec, dict) else _load_spec(spec) if spec.strip().startswith("{") else {}
    out = []
    for name, p in controller.declared().items():
        if name in given or (p.applies is not None and not p.applies(controller._values)):
            continue
        out += p.all_genes()
    return out

