"""The position a user holds: :class:`Game`, its steps, turns, result and records.

A *step* moves the ball over one unmarked edge; a *turn* is the steps of one
player, written as a string of direction digits (``0`` up, then clockwise); a
game's record is its turns separated by spaces (docs/rules.md).

Examples
--------
>>> game = Game("thesis")
>>> game.turns().count()
6
>>> game.play("0 54")
>>> game.ball, game.player
((4, 9), 1)
>>> game.step(0)
Traceback (most recent call last):
...
fepaper.game.IllegalStep: direction 0 (up) from (4, 9) runs along an edge already marked
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.turns import KIND_NAMES, make_step, unmake_step
from .board import DIRECTION_NAMES, NO_NODE, TOP, Board
from .jsonio import JSONInputError, loads
from .rules import Rules
from .walks import iter_turns

__all__ = ["Game", "Turn", "Result", "TurnView", "IllegalStep", "IllegalTurn", "InvalidRecord"]


class IllegalStep(ValueError):
    """A step that the rules do not allow here; the game is left as it was."""


class IllegalTurn(ValueError):
    """A turn (or a record of turns) that is not legal; says which turn and step."""


class InvalidRecord(ValueError):
    """A game record that cannot be read (malformed JSON, unknown fields, bad characters)."""


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winner`` is 1, 2 or ``None`` (a draw)."""

    winner: int | None
    reason: str  # "goal", "own goal", "blocked" or "turn limit" (an environment's forfeit: "illegal action")

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"player {self.winner} wins"
        return f"{who} ({self.reason})"


@dataclass(frozen=True)
class Turn:
    """One distinct turn: its steps, the node it ends on and how it ends.

    ``kind`` is ``"end"`` (landed on an unmarked node), ``"stop"`` (stopped after
    a bounce), ``"goal"`` (landed in a goal) or ``"blocked"`` (a mandatory bounce
    with no way on). ``str(turn)`` is the step string.
    """

    steps: str
    end: tuple[int, int]
    kind: str

    def __str__(self) -> str:
        return self.steps


def _parse_direction(d: Any) -> int:
    if isinstance(d, str) and len(d) == 1 and d in "01234567":
        return int(d)
    if isinstance(d, (int, np.integer)) and not isinstance(d, bool) and 0 <= d <= 7:
        return int(d)
    raise IllegalStep(f"{d!r} is not a direction: expected a digit 0 (up) to 7 (up-left), clockwise")


class Game:
    """A game of paper soccer in progress.

    Parameters
    ----------
    rules : Rules, str or dict, default "thesis"
        Anything :meth:`Rules.from_spec` accepts.
    moves : str, optional
        A record to play from the start, e.g. ``"0 54"``.

    Notes
    -----
    :meth:`step`, :meth:`stop` and :meth:`play` check legality and raise
    :class:`IllegalStep` / :class:`IllegalTurn` leaving the game unchanged;
    :meth:`undo` takes back one step (or one stop).
    """

    def __init__(self, rules: Rules | str | dict = "thesis", moves: str = "") -> None:
        self.rules = Rules.from_spec(rules)
        self.board = Board.of(self.rules)
        b = self.board
        self.marks = b.initial_marks.copy()
        self.owner = np.where(b.is_wall, 3, 0).astype(np.int8)  # 0 free, 1/2 player, 3 wall
        self.ball_index = b.kickoff_index
        self.player = 1
        self.history: list[str] = []
        self.current = ""  # steps of the turn in progress
        self.result: Result | None = None
        self.key = np.uint64(0)  # Zobrist key of the marks made in play
        self._undo: list[tuple] = []
        if moves:
            self.play(moves)

    # -- state --------------------------------------------------------------------
    @property
    def ball(self) -> tuple[int, int]:
        return self.board.nodes[self.ball_index]

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def bouncing(self) -> bool:
        """Whether the ball has bounced and the player to move goes on moving."""
        return self.current != "" and not self.is_over

    @property
    def can_stop(self) -> bool:
        """Whether the player may end the turn here (a bounce under optional bounce)."""
        return self.bouncing and self.rules.flags.optional

    @property
    def moves(self) -> str:
        """The record: completed turns, then the turn in progress, separated by spaces."""
        return " ".join(self.history + ([self.current] if self.current else []))

    @property
    def turn_number(self) -> int:
        """The 1-based number of the turn being played (or last played, when over)."""
        return len(self.history) + (0 if self.is_over and not self.current else 1)

    def free_mask(self, index: int | None = None) -> int:
        i = self.ball_index if index is None else index
        return int(self.board.exists[i] & ~self.marks[i])

    def legal_steps(self) -> list[int]:
        """The directions the ball can step in now (none once the game is over)."""
        if self.is_over:
            return []
        free = self.free_mask()
        return [d for d in range(8) if free >> d & 1]

    def position_key(self) -> int:
        """A 64-bit key of the position: marks, ball and player to move."""
        return int(self.key ^ self.board.node_keys[self.ball_index] ^ np.uint64(self.player))

    # -- steps ----------------------------------------------------------------------
    def explain_step(self, d: Any) -> str | None:
        """Why step ``d`` is illegal here, or ``None`` if it is legal."""
        try:
            d = _parse_direction(d)
        except IllegalStep as exc:
            return str(exc)
        if self.is_over:
            return f"the game is over: {self.result}"
        b, n = self.board, self.ball_index
        where = f"direction {d} ({DIRECTION_NAMES[d]}) from {self.ball}"
        m = b.neighbour[n, d]
        if m == NO_NODE:
            return f"{where} leaves the field"
        if self.marks[n] >> d & 1:
            e = b.edge_index[n, d]
            if self.owner[e] == 3:
                u, v = b.edges[e]
                if b.rules.middle_line and u[1] == v[1] == b.rules.height // 2:
                    return f"{where} runs along the middle line"
                return f"{where} runs along the wall"
            return f"{where} runs along an edge already marked"
        return None

    def step(self, d: int | str) -> None:
        """Move the ball one step in direction ``d`` (0..7 or its digit).

        Raises
        ------
        IllegalStep
            If the game is over or the edge is missing or marked; nothing changes.
        """
        why = self.explain_step(d)
        if why is not None:
            raise IllegalStep(why)
        d = int(d)
        b, n = self.board, self.ball_index
        m = int(b.neighbour[n, d])
        e = int(b.edge_index[n, d])
        bounced = self.marks[m] != 0
        self._undo.append(("step", d, n, self.player, self.current, len(self.history), self.result))
        make_step(self.marks, b.neighbour, n, d)
        self.owner[e] = self.player
        self.key ^= b.edge_keys[e]
        self.ball_index = m
        self.current += str(d)
        if b.goal[m]:
            scorer = 1 if b.goal[m] == TOP else 2
            self.result = Result(scorer, "goal" if scorer == self.player else "own goal")
            self._finish_turn(switch=False)
        elif not bounced:
            self._finish_turn()
        elif not self.free_mask():
            if self.rules.flags.dead_end_blocked:
                self._finish_turn(switch=False)
                self._blocked()
            else:
                self._finish_turn()  # stopped on a dead end: the opponent is blocked

    def stop(self) -> None:
        """End the turn on a bounce (only under optional bounce)."""
        if not self.can_stop:
            if self.is_over:
                raise IllegalStep(f"the game is over: {self.result}")
            if not self.current:
                raise IllegalStep("cannot stop before the first step of a turn")
            raise IllegalStep(f"cannot stop at {self.ball}: the bounce is mandatory")
        self._undo.append(("stop", -1, self.ball_index, self.player, self.current, len(self.history),
                           self.result))
        self._finish_turn()

    def _finish_turn(self, switch: bool = True) -> None:
        self.history.append(self.current)
        self.current = ""
        if not switch:
            return
        self.player = 3 - self.player
        if self.rules.max_turns is not None and len(self.history) >= self.rules.max_turns:
            self.result = Result(None, "turn limit")
        elif not self.free_mask():
            self._blocked()

    def _blocked(self) -> None:
        """The player to move cannot step."""
        winner = 3 - self.player if self.rules.flags.blocked_loss else None
        self.result = Result(winner, "blocked")

    def undo(self) -> None:
        """Take back the last step (or stop).

        Raises
        ------
        IndexError
            If there is nothing to undo.
        """
        if not self._undo:
            raise IndexError("nothing to undo")
        kind, d, n, player, current, n_turns, result = self._undo.pop()
        if kind == "step":
            b = self.board
            e = int(b.edge_index[n, d])
            unmake_step(self.marks, b.neighbour, n, d)
            self.owner[e] = 0
            self.key ^= b.edge_keys[e]
            self.ball_index = n
        self.player, self.current, self.result = player, current, result
        del self.history[n_turns:]

    def undo_turn(self) -> None:
        """Take back steps up to the start of the current (or else the last) turn."""
        if not self._undo:
            raise IndexError("nothing to undo")
        target = len(self.history) - (0 if self.current else 1)
        while self._undo and (len(self.history) > target or self.current):
            self.undo()

    # -- turns ----------------------------------------------------------------------
    def play(self, moves: str) -> None:
        """Play a record of whole turns, e.g. ``"0 54"``.

        A turn that ends on a bounce stops there (optional bounce). Raises
        :class:`IllegalTurn` naming the turn and step, or :class:`InvalidRecord`
        for characters that are not step digits; the game is then as it was.
        """
        if not isinstance(moves, str):
            raise InvalidRecord(f"moves must be a string of step digits, got {type(moves).__name__}")
        if self.current:
            raise IllegalTurn(f"turn {self.turn_number} is in progress ({self.current!r}); "
                              "finish it with step() or stop() first")
        tokens = moves.split()
        for k, token in enumerate(tokens):
            bad = [c for c in token if c not in "01234567"]
            if bad:
                raise InvalidRecord(f"turn {len(self.history) + k + 1}: {bad[0]!r} in {token!r} "
                                    "is not a step digit 0..7")
        depth = len(self._undo)
        try:
            for token in tokens:
                self._play_turn(token)
        except IllegalTurn:
            while len(self._undo) > depth:
                self.undo()
            raise

    def _play_turn(self, token: str) -> None:
        number = len(self.history) + 1
        for s, c in enumerate(token, start=1):
            if s > 1 and not self.current:
                if self.is_over:
                    why = f"the game ended after step {s - 1}: {self.result}"
                else:
                    why = f"the turn ended after step {s - 1} on the unmarked node {self.ball}"
                raise IllegalTurn(f"turn {number}, step {s}: {why}")
            refused = self.explain_step(c)
            if refused is not None:
                raise IllegalTurn(f"turn {number}, step {s}: {refused}")
            self.step(c)
        if self.current:
            if not self.can_stop:
                raise IllegalTurn(f"turn {number}: ends on a bounce at {self.ball}, "
                                  "but the bounce is mandatory")
            self.stop()

    def push(self, turn: str | Turn) -> None:
        """Play one whole turn (a step string or a :class:`Turn`)."""
        if not isinstance(turn, (str, Turn)):
            raise IllegalTurn(f"a turn is a string of step digits or a Turn, "
                              f"got {type(turn).__name__} {turn!r}")
        steps = str(turn)
        if not steps or any(c.isspace() for c in steps):
            raise IllegalTurn(f"a turn is a non-empty string of step digits, got {steps!r}")
        self.play(steps)

    def turns(self) -> "TurnView":
        """The distinct turns from here, as a lazy view (see :class:`TurnView`)."""
        return TurnView(self)

    # -- copies, records, views ---------------------------------------------------------
    def copy(self) -> "Game":
        """An independent copy (its undo history included)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.marks = self.marks.copy()
        other.owner = self.owner.copy()
        other.history = list(self.history)
        other._undo = list(self._undo)
        return other

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "moves": self.moves}

    def to_json(self) -> str:
        """The record as JSON: ``{"rules": {...}, "moves": "0 54 ..."}``."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, record: str | dict) -> "Game":
        """Replay a JSON record (text or dict)."""
        if isinstance(record, str):
            try:
                record = loads(record, "record")
            except JSONInputError as exc:
                raise InvalidRecord(str(exc)) from None
        if not isinstance(record, dict) or "moves" not in record:
            raise InvalidRecord('a record is a JSON object {"rules": ..., "moves": "..."}')
        extra = sorted(set(record) - {"rules", "moves"})
        if extra:
            raise InvalidRecord(f"unknown record field(s) {extra}; expected 'rules' and 'moves'")
        try:
            rules = Rules.from_spec(record.get("rules", "thesis"))
        except (ValueError, TypeError) as exc:
            raise InvalidRecord(f"record rules: {exc}") from None
        game = cls(rules)
        moves = record["moves"]
        game.play(moves)
        if game.current:
            raise InvalidRecord("record ends inside a turn")
        return game

    @property
    def graph(self):
        """The board graph with this game's marks: edges get ``"marked"`` and ``"player"``
        (0 unmarked, 1 or 2, 3 a wall); the graph attribute ``"ball"`` is the ball's node."""
        g = self.board.graph.copy()
        g.graph["ball"] = self.ball
        for _u, _v, data in g.edges(data=True):
            owner = int(self.owner[data["index"]])
            data["player"] = owner
            data["marked"] = owner != 0
        return g

    def __repr__(self) -> str:
        rules = self.rules.name or self.rules.to_dict()
        return f"Game({rules!r}, {self.moves!r})" if self.moves else f"Game({rules!r})"

    def _repr_svg_(self) -> str:
        from .render import svg

        return svg(self)


class TurnView:
    """The distinct turns of a game's position, enumerated lazily by the compiled core.

    Like python-chess's legal-move view: iterating yields :class:`Turn` objects a chunk
    at a time (memory is the set of 64-bit keys of the states seen, not the turns),
    ``bool()`` answers at once, ``in`` replays one turn, and ``count()`` and ``tally()``
    count without building any turn nor remembering any state; nothing walks every turn
    unless asked to. In the middle of a turn (after a bounce) the view holds the ways to
    finish it (steps relative to the ball now), plus ``""`` when the player may stop.
    """

    def __init__(self, game: Game) -> None:
        self.game = game

    def count(self, limit: int | None = None, seconds: float | None = None) -> int:
        """The number of distinct turns (0 once the game is over), or -1 when cut short.

        The count walks the tree of canonical steps (:mod:`fepaper._core.canonical`): its
        memory is a few kB whatever the count, so a count without ``limit`` cannot run out
        of memory, only take long (late positions hold 10^8 turns and more: about 10^7
        turns a second). With ``limit`` (turns) or ``seconds`` (wall time), a walk that
        passes them gives up and returns -1; :meth:`tally` says how many it found.
        """
        tally = self.tally(limit, seconds)
        return tally.turns if tally.exact else -1

    def tally(self, limit: int | None = None, seconds: float | None = None, progress: bool = False):
        """The distinct turns counted, by kind and end node: a
        :class:`~fepaper.game.counts.TurnTally` (a lower bound, flagged, when cut short)."""
        from .counts import tally_turns

        return tally_turns(self.game, limit=limit, seconds=seconds, progress=progress)

    def __bool__(self) -> bool:
        """Whether there is a turn to play: any unfinished game has one."""
        g = self.game
        return not g.is_over and (g.can_stop or g.free_mask() != 0)

    def __iter__(self) -> Iterator[Turn]:
        g = self.game
        if g.is_over:
            return
        if g.can_stop:
            yield Turn("", g.ball, "stop")
        nodes = g.board.nodes
        for steps, kind, end in iter_turns(g.marks, g.ball_index, g.board, g.rules):
            yield Turn(steps, nodes[end], KIND_NAMES[kind])

    def __contains__(self, turn: object) -> bool:
        g = self.game
        steps = str(turn)
        if g.is_over:
            return False
        if not steps:
            return g.can_stop
        trial, played = g.copy(), len(g.history)
        for c in steps:
            if len(trial.history) > played or trial.explain_step(c) is not None:
                return False
            trial.step(c)
        return len(trial.history) > played or trial.can_stop

    def __repr__(self) -> str:
        return f"<TurnView of {self.game!r}>"
