"""Controller parameters, declared once: type, range, default, place in the spec, GA bounds.

A controller class lists its parameters as :class:`Param` values (``PARAMS``); from that
one declaration come the constructor's checks, the spec (:attr:`Controller.spec`), the
error messages, ``fepaper`` help texts, and the genes a genetic algorithm may tune.
Checks are strict: a boolean is ``True`` or ``False`` (not ``"false"``), a number is
finite and in range and never a boolean, a seed is an integer from 0 to 2**63 - 1.

Examples
--------
>>> depth = Int("depth", 3, 1, 64, gene=(1, 4), doc="turns to search")
>>> depth.check(5, "turnsearch")
5
>>> depth.check(True, "turnsearch")
Traceback (most recent call last):
...
fepaper.controllers.params.SpecError: turnsearch: depth must be an integer from 1 to 64, got True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["SpecError", "Param", "Gene", "Int", "Float", "Bool", "Choice", "Custom", "check_seed",
           "spec_check"]


class SpecError(ValueError):
    """A controller spec with an unknown name or parameter, or a bad value."""


@dataclass(frozen=True)
class Gene:
    """A number a genetic algorithm may tune: ``name`` in the spec (``"weights.distance"``
    for a part of a structured parameter), its bounds and whether it is an integer."""

    name: str
    low: float
    high: float
    integer: bool


@dataclass(frozen=True)
class Param:
    """One declared parameter of a controller.

    Parameters
    ----------
    name, default, doc
    kind : {"int", "float", "bool", "choice", "custom"}
    low, high : number, optional
        The range (inclusive unless ``open_low``/``open_high``).
    choices : tuple
        The allowed values of a ``"choice"``.
    nullable : bool
        Whether ``None`` is allowed (it is always allowed as a default).
    shown : {"always", "changed", "set", "never"}
        When the parameter appears in the spec: always; only when it differs from the
        default; only when it is not ``None``; never (an alias resolved at build time).
    applies : callable, optional
        ``applies(values) -> bool`` on the other parameters' values: a parameter that does
        not apply (an ant colony's ``w_rival`` for the base variant) must not be given and
        is left out of the spec.
    gene : (low, high), optional
        Bounds within which a GA may tune the parameter.
    convert : callable, optional
        For ``"custom"``: ``convert(value, owner) -> value`` that checks and normalises.
    canonical : callable, optional
        For ``"custom"``: the JSON-able form shown in the spec.
    genes : callable, optional
        For ``"custom"``: ``genes(param) -> list[Gene]`` (parts of a structured value).
    """

    name: str
    default: Any
    kind: str
    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False
    choices: tuple = ()
    nullable: bool = False
    shown: str = "always"
    applies: Callable[[Mapping[str, Any]], bool] | None = field(default=None, compare=False)
    gene: tuple[float, float] | None = None
    convert: Callable[[Any, str], Any] | None = field(default=None, compare=False)
    canonical: Callable[[Any], Any] | None = field(default=None, compare=False)
    genes: Callable[[Param], list[Gene]] | None = field(default=None, compare=False)
    doc: str = ""

    # -- checks ---------------------------------------------------------------------------
    def _range(self) -> str:
        lo = "(" if self.open_low else "["
        hi = ")" if self.open_high else "]"
        return f"{lo}{self.low:g}, {self.high:g}{hi}"

    def _in_range(self, value) -> bool:
        if self.low is not None and (value <= self.low if self.open_low else value < self.low):
            return False
        return not (self.high is not None and (value >= self.high if self.open_high else value > self.high))

    def check(self, value: Any, owner: str) -> Any:
        """``value`` checked and normalised, or :class:`SpecError` naming ``owner``, the
        parameter and what it allows."""
        if value is None and (self.nullable or self.default is None):
            return None
        if self.kind == "custom":
            return self.convert(value, owner)
        if self.kind == "bool":
            if not isinstance(value, (bool, np.bool_)):
                raise SpecError(f"{owner}: {self.name} must be true or false, got {value!r}")
            return bool(value)
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise SpecError(f"{owner}: {self.name} must be one of {list(self.choices)}, got {value!r}")
            return value
        is_number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_))
        if self.kind == "int":
            whole = is_number and (isinstance(value, (int, np.integer))
                                   or (math.isfinite(value) and float(value).is_integer()))
            if not whole or not self._in_range(value):
                span = (f"from {int(self.low)} to {int(self.high)}" if self.high is not None
                        else f">= {int(self.low)}")
                raise SpecError(f"{owner}: {self.name} must be an integer {span}, got {value!r}")
            return int(value)
        if not is_number or not math.isfinite(value) or not self._in_range(value):
            raise SpecError(f"{owner}: {self.name} must be a finite number in {self._range()}, got {value!r}")
        return float(value)

    def in_spec(self, value: Any) -> bool:
        """Whether ``value`` is written into the spec."""
        return (self.shown == "always" or (self.shown == "changed" and value != self.default)
                or (self.shown == "set" and value is not None))

    def to_spec(self, value: Any) -> Any:
        return self.canonical(value) if (self.canonical and value is not None) else value

    def all_genes(self) -> list[Gene]:
        """The genes of this parameter (none if it is not tunable)."""
        if self.genes is not None:
            return self.genes(self)
        if self.gene is None:
            return []
        return [Gene(self.name, float(self.gene[0]), float(self.gene[1]), self.kind == "int")]


# -- constructors -------------------------------------------------------------------------------
def Int(name: str, default: int | None, low: int, high: int | None = None, **kw) -> Param:  # noqa: N802
    return Param(name, default, "int", low=low, high=high, **kw)


def Float(name: str, default: float | None, low: float, high: float, **kw) -> Param:  # noqa: N802
    return Param(name, default, "float", low=low, high=high, **kw)


def Bool(name: str, default: bool, **kw) -> Param:  # noqa: N802
    return Param(name, default, "bool", **kw)


def Choice(name: str, default: str, choices: tuple[str, ...], **kw) -> Param:  # noqa: N802
    return Param(name, default, "choice", choices=tuple(choices), **kw)


def Custom(name: str, default: Any, convert: Callable[[Any, str], Any], **kw) -> Param:  # noqa: N802
    return Param(name, default, "custom", convert=convert, **kw)


def check_seed(value: Any, owner: str = "seed") -> int:
    """A seed: an integer from 0 to 2**63 - 1 (never a boolean)."""
    return Int("seed", None, 0, 2**63 - 1).check(value, owner)


def spec_check(convert: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """A search's own check of a structured setting, ``convert(value, owner)`` raising
    ``ValueError`` (the weights of :mod:`fepaper.search.turnsearch` and :mod:`fepaper.search.mcts`),
    as a custom parameter's ``convert``: its error a :class:`SpecError`, the message kept."""

    def check(value: Any, owner: str) -> Any:
        try:
            return convert(value, owner)
        except SpecError:
            raise
        except ValueError as exc:
            raise SpecError(str(exc)) from None

    return check
