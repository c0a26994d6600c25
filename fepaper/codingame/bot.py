"""Speak the CodinGame Paper Soccer protocol on stdin/stdout, so fepaper can meet other engines.

The referee sends the player id first (``0`` attacks the top goal, as fepaper's
player 1; ``1`` the bottom goal); then, before each of the bot's turns, a line with
the number of steps in the opponent's last turn and a line with that turn's digits
(``1`` and ``-`` before the first move of the game). The bot answers each with one
line holding its whole turn, bounces included. Steps use fepaper's digits (docs/rules.md:
``0`` up, clockwise).
"""

from __future__ import annotations

import sys
from typing import TextIO

from ..controllers import make, spec_of
from ..game.game import Game, IllegalTurn, InvalidRecord

__all__ = ["ProtocolError", "run_bot"]


class ProtocolError(ValueError):
    """The referee sent something the protocol does not allow (the message names the input line)."""


class _Lines:
    """The referee's lines, numbered, so every error can say which line was wrong."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.number = 0

    def next(self, what: str) -> str | None:
        """The next line stripped, or ``None`` at the end of input."""
        try:
            text = self.stream.readline()
        except UnicodeDecodeError as exc:
            line = self.number + 1
            raise ProtocolError(f"input line {line} ({what}): not UTF-8 text: {exc.reason}") from None
        if text == "":
            return None
        self.number += 1
        if "\x00" in text:
            raise ProtocolError(f"input line {self.number} ({what}): NUL character")
        return text.strip()


def _opponent_turn(game: Game, lines: _Lines, count: str) -> None:
    """Read the opponent's turn after its step ``count`` and play it on ``game``."""
    digits = lines.next("turn")
    if digits is None:
        raise ProtocolError(f"input line {lines.number}: a step count without the turn line after it")
    if digits == "-":
        if game.history:
            turns = len(game.history)
            raise ProtocolError(f"input line {lines.number}: '-' (no move yet) after {turns} turns")
        return
    if not count.isdigit() or int(count) != len(digits):
        raise ProtocolError(f"input line {lines.number - 1}: step count {count!r} does not match the turn "
                            f"{digits!r}")
    try:
        game.push(digits)
    except (IllegalTurn, InvalidRecord) as exc:
        raise ProtocolError(f"input line {lines.number}: the opponent's turn {digits!r} is not legal here: "
                            f"{exc}") from None


def run_bot(spec, rules="codingame", ms_first: int = 1000, ms: int = 100,
            stdin: TextIO | None = None, stdout: TextIO | None = None) -> Game:
    """Play one game over the protocol with the controller ``spec``; return the final game.

    Raises
    ------
    ProtocolError
        For input the protocol does not allow, naming the input line.
    SpecError
        For a bad ``spec`` (before any input is read).
    ValueError
        For time limits that are not positive.
    """
    for name, value in (("ms_first", ms_first), ("ms", ms)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive number of milliseconds, got {value!r}")
    base = spec_of(spec)
    game = Game(rules)
    lines = _Lines(stdin or sys.stdin)
    stdout = stdout or sys.stdout
    first = lines.next("player id")
    if first not in ("0", "1"):
        raise ProtocolError(f"input line 1: the player id must be 0 or 1, got {first!r}")
    me = 1 if first == "0" else 2
    for moves_made in range(10**6):
        count = lines.next("step count")
        if count is None:
            break
        _opponent_turn(game, lines, count)
        if game.is_over:
            break
        if game.player != me:
            raise ProtocolError(f"input line {lines.number}: it is player {game.player}'s turn, but this bot "
                                f"plays {me}")
        limit = (ms_first if moves_made == 0 else ms) / 1000
        turn = make({**base, "time_limit": limit}).choose_turn(game)
        print(turn, file=stdout, flush=True)
        game.push(turn)
        if game.is_over:
            break
    return game

