"""Speak the CodinGame Paper Soccer protocol on stdin/stdout, so fepaper can meet other engines.

The referee sends the player id first (``0`` attacks the top goal, as fepaper's
player 1; ``1`` the bottom goal); then, before each of the bot's turns, a line with
the number of steps in the opponent's last turn and a line with that turn's digits
(``1`` and ``-`` before the first move of the game). The bot answers each with one
line holding its whole turn, bounces included. Steps use fepaper's digits (docs/rules.md:
``0`` up, clockwise).

**The clock.** A turn's time starts when its first input line arrives. The controller is
given what is left of the budget after reading and playing the opponent's turn, less a
``margin`` for the bot's own work after the search (building the answer, printing it)
and for the pipe; it keeps its own time limit (fepaper's controllers count their own
overhead in it). Before it reads its id two controllers of the same spec play three turns from
the starting position (:func:`warm_up`), so that loading compiled code does not fall on the
clock (a tree kept between decisions is first taken up at a third), and the bot
collects garbage after each answer, while the opponent thinks, rather than during a search.
One controller plays the whole game (its seeded generator goes on from turn to turn).

**Openings.** ``opening`` is a record of turns played before the protocol starts (see
:mod:`fepaper.engines.referee`): the bot plays them first, then reads its id as usual;
its first input is then the opponent's last turn (or ``1`` and ``-`` if it moves next
and the referee has nothing new to tell).
"""

from __future__ import annotations

import gc
import sys
import time
from typing import TextIO

from ..controllers import REGISTRY, make, spec_of
from ..game.game import Game, IllegalTurn, InvalidRecord

__all__ = ["ProtocolError", "run_bot", "MARGIN", "MIN_MARGIN_MS", "MAX_LINE"]

#: The share of each turn's budget kept back for the bot's own work (with at least
#: :data:`MIN_MARGIN_MS`).
MARGIN = 0.08
MIN_MARGIN_MS = 4.0


class ProtocolError(ValueError):
    """The referee sent something the protocol does not allow (the message names the input line)."""


#: The longest input line the bot reads (a turn has at most one step per edge of the board).
MAX_LINE = 4096


def _shown(text: str, width: int = 60) -> str:
    """``repr(text)`` cut to ``width`` characters: an input line is named, never echoed whole."""
    shown = repr(text)
    return shown if len(shown) <= width else shown[: width - 3] + "..."


class _Lines:
    """The referee's lines, numbered, so every error can say which line was wrong."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.number = 0

    def next(self, what: str) -> str | None:
        """The next line stripped, or ``None`` at the end of input. A line is read up to
        :data:`MAX_LINE` characters: a longer one is refused before the rest is read."""
        try:
            text = self.stream.readline(MAX_LINE + 1)
        except UnicodeDecodeError as exc:
            line = self.number + 1
            raise ProtocolError(f"input line {line} ({what}): not UTF-8 text: {exc.reason}") from None
        if text == "":
            return None
        self.number += 1
        if len(text) > MAX_LINE and not text.endswith("\n"):
            raise ProtocolError(f"input line {self.number} ({what}): longer than {MAX_LINE} characters "
                                f"({_shown(text)})")
        if "\x00" in text:
            raise ProtocolError(f"input line {self.number} ({what}): NUL character")
        return text.strip()


def _opponent_turn(game: Game, lines: _Lines, count: str, first: bool, me: int) -> None:
    """Read the opponent's turn after its step ``count`` and play it on ``game`` (``me``: the
    bot's player, who must not be the one to move)."""
    if not (count.isascii() and count.isdigit()):
        raise ProtocolError(f"input line {lines.number}: a step count is a number, got {_shown(count)}")
    digits = lines.next("turn")
    if digits is None:
        raise ProtocolError(f"input line {lines.number}: a step count without the turn line after it")
    if digits == "-":
        if not first:
            turns = len(game.history)
            raise ProtocolError(f"input line {lines.number}: '-' (no move yet) after {turns} turns")
        return
    if int(count) != len(digits):
        raise ProtocolError(f"input line {lines.number - 1}: step count {_shown(count)} does not match the "
                            f"turn {_shown(digits)}")
    if game.player == me:
        raise ProtocolError(f"input line {lines.number}: the opponent's turn {_shown(digits)}, but player "
                            f"{me} (this bot) is to move")
    try:
        game.push(digits)
    except (IllegalTurn, InvalidRecord) as exc:
        raise ProtocolError(f"input line {lines.number}: the opponent's turn {_shown(digits)} is not legal "
                            f"here: {exc}") from None


def margin_ms(budget_ms: float, margin: float = MARGIN) -> float:
    """The milliseconds of a turn's budget kept back for the bot's own work."""
    return max(MIN_MARGIN_MS, margin * budget_ms)


def run_bot(spec, rules="codingame", ms_first: int = 1000, ms: int = 100,
            stdin: TextIO | None = None, stdout: TextIO | None = None, opening: str = "",
            margin: float = MARGIN, warm: bool = True) -> Game:
    """Play one game over the protocol with the controller ``spec``; return the final game.

    Parameters
    ----------
    opening : str
        Turns played before the protocol starts (a record, e.g. ``"2 0"``).
    margin : float
        The share of each turn's budget kept back (at least :data:`MIN_MARGIN_MS`).
    warm : bool
        Warm the controller's compiled code up (:func:`warm_up`) before reading the id.

    Raises
    ------
    ProtocolError
        For input the protocol does not allow, naming the input line.
    SpecError
        For a bad ``spec`` (before any input is read).
    ValueError
        For time limits that are not positive, a bad margin or an illegal opening.
    """
    for name, value in (("ms_first", ms_first), ("ms", ms)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive number of milliseconds, got {value!r}")
    if not (isinstance(margin, (int, float)) and 0 <= margin < 1):
        raise ValueError(f"margin must be a fraction in [0, 1), got {margin!r}")
    base = spec_of(spec)
    try:
        game = Game(rules, opening)
    except (IllegalTurn, InvalidRecord) as exc:
        raise ValueError(f"opening {opening!r}: {exc}") from None
    if game.is_over:
        raise ValueError(f"opening {opening!r}: the game is over ({game.result})")
    controller = make({**base, "time_limit": ms / 1000})
    if warm:
        warm_up(base, game)
    lines = _Lines(stdin or sys.stdin)
    stdout = stdout or sys.stdout
    first = lines.next("player id")
    if first not in ("0", "1"):
        raise ProtocolError(f"input line 1: the player id must be 0 or 1, got {_shown(first)}")
    me = 1 if first == "0" else 2
    for moves_made in range(10**6):
        count = lines.next("step count")
        arrived = time.perf_counter()
        if count is None:
            break
        _opponent_turn(game, lines, count, moves_made == 0, me)
        if game.is_over:
            break
        if game.player != me:
            raise ProtocolError(f"input line {lines.number}: it is player {game.player}'s turn, but this bot "
                                f"plays {me}")
        budget = ms_first if moves_made == 0 else ms
        left = budget - margin_ms(budget, margin) - (time.perf_counter() - arrived) * 1000
        controller.time_limit = max(left / 1000, 0.001, controller.MIN_TIME_LIMIT)
        gc.disable()
        try:
            turn = controller.choose_turn(game)
            print(turn, file=stdout, flush=True)
        finally:
            gc.enable()
        game.push(turn)
        gc.collect()  # while the opponent thinks
        if game.is_over:
            break
    return game


#: Rounds of :func:`warm_up` at most: two at ``seconds``, then twice the seconds each (0.1, 0.1,
#: 0.2, 0.4 s a decision by default).
WARM_UP_ROUNDS = 4


def _took_up(player) -> bool:
    """Whether the last decision of ``player`` took a kept tree up (always, for a controller
    that keeps none, or when the game ended before its third turn)."""
    return len(player.decisions) < 2 or player.decisions[-1].details.get("reused", 1) > 0


def warm_up(spec: dict, game: Game, seconds: float = 0.1) -> tuple:
    """Let two controllers of ``spec`` play three turns from ``game`` (not changed), the first
    controller the first and the third, ``seconds`` each, so that their compiled code is
    loaded before the clock runs, including what only a later decision runs: a tree kept
    from the decision before last (``bestfirst`` with ``reuse``) is taken up at the third.
    Compiling that on the clock took 3 s, past the referee's hard limit, and a program ended
    there never writes its compiled code to the cache, so every game forfeited again. Twice,
    with new controllers: from a fresh copy of fepaper the first decision spends its seconds
    compiling and keeps no tree, so the first three turns take nothing up, and the game
    forfeited at its second decision. Returns the two controllers of the second time (their
    ``decisions`` show what ran); the bot plays with a controller of its own, which starts
    with nothing kept. On a loaded machine ``seconds`` may not grow a tree that holds the
    reply played: then the three turns are played again with twice the seconds, at most
    :data:`WARM_UP_ROUNDS` times in all."""
    for attempt in range(WARM_UP_ROUNDS):
        players = [make({**spec, "time_limit": seconds * 2 ** max(0, attempt - 1)}) for _ in range(2)]
        here = game.copy()
        for k in (0, 1, 0):
            if here.is_over:
                break
            here.push(players[k].choose_turn(here))
        if attempt >= 1 and _took_up(players[0]):
            break
    # and what only a decision left with a millisecond runs (best-first's answer before its root is
    # listed): loading it on the clock took 24 ms of a 5 ms turn
    least = REGISTRY[spec["name"]].MIN_TIME_LIMIT  # a controller refuses budgets below what it keeps
    make({**spec, "time_limit": max(0.001, least)}).choose_turn(game)
    make({**spec, "time_limit": max(1e-6, least)}).choose_turn(game)
    gc.collect()
    gc.freeze()
    return tuple(players)
