"""The rules of paper soccer as one frozen value.

Every rule on which the thesis and the game as commonly played differ is a field
of :class:`Rules`; nothing else in fepaper is hard-coded to one board. The
presets are those of ``docs/rules.md``: ``thesis`` (10 x 16, middle line, optional
bounce), ``standard`` (8 x 10, mandatory bounce) and ``foo`` (8 x 8, a blocked
player draws), plus ``codingame`` (``standard`` with CodinGame's turn limit).
:attr:`Rules.flags` is the one place where rules become the flags the compiled
kernels read.

Examples
--------
>>> Rules.preset("thesis").width
10
>>> Rules.from_spec({"preset": "thesis", "bounce": "mandatory"}).bounce
'mandatory'
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from .._core.bundles import RuleFlags
from .jsonio import loads

__all__ = ["Rules", "PRESETS", "BOUNCE_VALUES", "BLOCKED_VALUES", "DEAD_END_VALUES", "MAX_SIDE"]

BOUNCE_VALUES = ("optional", "mandatory")
BLOCKED_VALUES = ("loss", "draw")
DEAD_END_VALUES = ("blocked", "stop")
#: The largest width or height (in squares) of a board: 100 x 100 squares is 10,201 field
#: nodes and about 40,000 edges, built in well under a second.
MAX_SIDE = 100
#: The largest turn limit: every turn marks an edge, so no game on a board of MAX_SIDE lasts this long.
MAX_TURNS = 1_000_000


@dataclass(frozen=True)
class Rules:
    """The rules of one variant of paper soccer.

    Parameters
    ----------
    width, height : int
        Squares across and down the field; both even and at least 2.
    goal_width : int
        Squares across each goal mouth; even, at least 2, at most ``width``.
    middle_line : bool
        Whether the horizontal edges on ``y = height / 2`` are marked from the start.
    bounce : {"optional", "mandatory"}
        Whether a player who lands on a marked node may stop there.
    blocked : {"loss", "draw"}
        What happens to a player who must step and cannot.
    dead_end : {"blocked", "stop"}
        Under optional bounce, what a step onto a marked node with no free edge does:
        ``"blocked"`` (thesis) the player who made it is blocked there (and so loses, or
        draws under ``blocked="draw"``); ``"stop"`` the player stops there and the
        opponent, who cannot move, is blocked. Under mandatory bounce the mover is always
        blocked, and ``"stop"`` is refused.
    max_turns : int or None
        Turns after which an unfinished game is drawn (CodinGame plays 66); ``None``
        means no limit.

    Raises
    ------
    ValueError
        Naming the field and the values it allows.
    """

    width: int = 10
    height: int = 16
    goal_width: int = 2
    middle_line: bool = True
    bounce: str = "optional"
    blocked: str = "loss"
    dead_end: str = "blocked"
    max_turns: int | None = None

    def __post_init__(self) -> None:
        for name in ("width", "height", "goal_width"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"Rules.{name} must be an even integer, got {value!r}")
            if value < 2 or value % 2 or value > MAX_SIDE:
                raise ValueError(f"Rules.{name} must be an even integer from 2 to {MAX_SIDE}, got {value}")
        if self.goal_width > self.width:
            raise ValueError(
                f"Rules.goal_width must be at most width ({self.width}), got {self.goal_width}"
            )
        if not isinstance(self.middle_line, bool):
            raise ValueError(f"Rules.middle_line must be True or False, got {self.middle_line!r}")
        if self.bounce not in BOUNCE_VALUES:
            raise ValueError(f"Rules.bounce must be one of {BOUNCE_VALUES}, got {self.bounce!r}")
        if self.blocked not in BLOCKED_VALUES:
            raise ValueError(f"Rules.blocked must be one of {BLOCKED_VALUES}, got {self.blocked!r}")
        if self.dead_end not in DEAD_END_VALUES:
            raise ValueError(f"Rules.dead_end must be one of {DEAD_END_VALUES}, got {self.dead_end!r}")
        if self.dead_end == "stop" and self.bounce == "mandatory":
            raise ValueError('Rules.dead_end="stop" needs bounce="optional": under mandatory bounce a '
                             'player who lands on a dead end is blocked')
        if self.max_turns is not None and (
            isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int)
            or not 1 <= self.max_turns <= MAX_TURNS
        ):
            text = repr(self.max_turns)
            raise ValueError(f"Rules.max_turns must be an integer from 1 to {MAX_TURNS} or None, got "
                             f"{text if len(text) <= 40 else text[:37] + '...'}")

    @property
    def flags(self) -> RuleFlags:
        """The rules as the compiled kernels read them: the only way a rule reaches a kernel."""
        optional = self.bounce == "optional"
        return RuleFlags(optional, not optional or self.dead_end == "blocked", self.blocked == "loss",
                         self.max_turns or 0)

    # -- construction -------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> "Rules":
        """The preset called ``name`` (one of :data:`PRESETS`)."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown rules preset {name!r}; expected one of {sorted(PRESETS)}") from None

    @classmethod
    def from_spec(cls, spec: "Rules | str | dict[str, Any]") -> "Rules":
        """Rules from a preset name, a JSON text, or a dict of fields.

        A dict may name a ``"preset"`` to start from; its other keys override
        that preset's fields.
        """
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            text = spec.strip()
            if not text.startswith("{"):
                return cls.preset(text)
            spec = loads(text, "rules")
        if not isinstance(spec, dict):
            raise ValueError(f"rules must be a preset name or a dict of fields, got {type(spec).__name__}")
        fields = dict(spec)
        preset = fields.pop("preset", None)
        if preset is not None and not isinstance(preset, str):
            raise ValueError(f"rules preset must be a name, one of {sorted(PRESETS)}, got {preset!r}")
        base = cls.preset(preset) if preset is not None else cls()
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise ValueError(
                f"unknown Rules field(s) {unknown}; expected some of {sorted(known)} or 'preset'"
            )
        return dataclasses.replace(base, **fields)

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (JSON-able)."""
        return dataclasses.asdict(self)

    @property
    def name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None

    def __str__(self) -> str:
        return self.name or json.dumps(self.to_dict())


PRESETS: dict[str, Rules] = {
    "thesis": Rules(10, 16, 2, True, "optional", "loss", "blocked"),
    "standard": Rules(8, 10, 2, False, "mandatory", "loss", "blocked"),
    "foo": Rules(8, 8, 2, False, "mandatory", "draw", "blocked"),
    "codingame": Rules(8, 10, 2, False, "mandatory", "loss", "blocked", max_turns=66),
}
