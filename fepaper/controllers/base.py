"""What every controller is: built from a JSON-able spec, answers ``choose_turn(game)``.

A controller returns the step string of one legal turn and records what each
decision cost (:class:`Decision`: nodes and seconds). Specs are plain dicts such
as ``{"name": "alphabeta", "variant": "dynamic", "depth": 3}``; tournaments, GA
individuals, data files and the CLI pass them around, so any game in ``data/``
can be replayed.
"""

from __future__ import annotations

import inspect
import json
import time
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..game.game import Game

__all__ = ["Controller", "Decision", "SpecError", "REGISTRY", "register", "make", "spec_of"]


class SpecError(ValueError):
    """A controller spec with an unknown name or parameter, or a bad value."""


@dataclass(frozen=True)
class Decision:
    """What one call of ``choose_turn`` chose and spent."""

    turn: str
    nodes: int
    seconds: float


class Controller:
    """Base class: subclasses set ``name`` and implement :meth:`decide`.

    Parameters
    ----------
    seed : int, optional
        Seeds the controller's own ``numpy.random.Generator`` (``self.rng``).
    time_limit : float, optional
        Seconds per decision that a controller with a time budget should respect.
    """

    name: ClassVar[str] = ""

    def __init__(self, *, seed: int | None = None, time_limit: float | None = None) -> None:
        if time_limit is not None and not time_limit > 0:
            raise SpecError(f"{self.name}: time_limit must be a positive number of seconds, "
                            f"got {time_limit!r}")
        self.seed = seed
        self.time_limit = time_limit
        self.rng = np.random.default_rng(seed)
        self.decisions: list[Decision] = []
        self._params: dict[str, Any] = {}

    @property
    def spec(self) -> dict[str, Any]:
        """The JSON-able spec that rebuilds this controller with :func:`make`."""
        out = {"name": self.name, **self._params}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.time_limit is not None:
            out["time_limit"] = self.time_limit
        return out

    def decide(self, game: Game) -> tuple[str, int]:
        """Return ``(turn, nodes)``; ``game`` must not be changed (work on a copy)."""
        raise NotImplementedError

    def choose_turn(self, game: Game) -> str:
        """The step string of one legal turn for the player to move in ``game``."""
        if game.is_over:
            raise ValueError(f"{self.name}: the game is over ({game.result})")
        if game.current:
            raise ValueError(f"{self.name}: choose_turn is called at the start of a turn")
        start = time.perf_counter()
        turn, nodes = self.decide(game)
        self.decisions.append(Decision(turn, int(nodes), time.perf_counter() - start))
        return turn

    @property
    def last(self) -> Decision | None:
        return self.decisions[-1] if self.decisions else None

    def __repr__(self) -> str:
        return f"make({json.dumps(self.spec)})"


REGISTRY: dict[str, type[Controller]] = {}


def register(cls: type[Controller]) -> type[Controller]:
    """Class decorator: make ``cls`` buildable from specs with ``{"name": cls.name, ...}``."""
    if not cls.name:
        raise TypeError(f"{cls.__name__} needs a name")
    REGISTRY[cls.name] = cls
    return cls


def _parameters(cls: type[Controller]) -> dict[str, inspect.Parameter]:
    params = {}
    for klass in reversed(cls.__mro__):
        if "__init__" in vars(klass):
            for p in inspect.signature(klass.__init__).parameters.values():
                if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                    params[p.name] = p
    return params


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
        if text.startswith("{"):
            try:
                spec = json.loads(text)
            except json.JSONDecodeError as exc:
                raise SpecError(f"controller spec is not valid JSON: {exc}") from None
        else:
            spec = {"name": text}
    if not isinstance(spec, dict) or "name" not in spec:
        raise SpecError(f'a controller spec is a dict with a "name"; valid names: {sorted(REGISTRY)}')
    fields = dict(spec)
    name = fields.pop("name")
    if name not in REGISTRY:
        raise SpecError(f"unknown controller {name!r}; valid names: {sorted(REGISTRY)}")
    cls = REGISTRY[name]
    valid = _parameters(cls)
    unknown = sorted(set(fields) - set(valid))
    if unknown:
        raise SpecError(f"{name}: unknown parameter(s) {unknown}; valid parameters: {sorted(valid)}")
    try:
        return cls(**fields)
    except SpecError:
        raise
    except (TypeError, ValueError) as exc:
        raise SpecError(f"{name}: {exc}") from None


def spec_of(controller_or_spec) -> dict[str, Any]:
    """The plain spec of a controller or spec."""
    return make(controller_or_spec).spec
