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
from ..game.game import Game

__all__ = ["ProtocolError", "run_bot"]


class ProtocolError(ValueError):
    """The referee sent something the protocol does not allow."""


def _line(stream: TextIO, what: str) -> str | None:
    text = stream.readline()
    if text == "":
        return None
    return text.strip()


def run_bot(spec, rules="codingame", ms_first: int = 1000, ms: int = 100,
            stdin: TextIO | None = None, stdout: TextIO | None = None) -> Game:
    """Play one game over the protocol with the controller ``spec``; return the final game."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    first = _line(stdin, "player id")
    if first not in ("0", "1"):
        raise ProtocolError(f"first line must be the player id 0 or 1, got {first!r}")
    me = 1 if first == "0" else 2
    game = Game(rules)
    base = spec_of(spec)
    for moves_made in range(10**6):
        count = _line(stdin, "step count")
        if count is None:
            break
        digits = _line(stdin, "turn")
        if digits is None:
            raise ProtocolError("the referee sent a step count without the turn line")
        if digits != "-":
            if not count.isdigit() or int(count) != len(digits):
                raise ProtocolError(f"step count {count!r} does not match the turn {digits!r}")
            game.push(digits)
        if game.is_over:
            break
        if game.player != me:
            raise ProtocolError(f"it is player {game.player}'s turn, but this bot plays {me}")
        limit = (ms_first if moves_made == 0 else ms) / 1000
        controller = make({**base, "time_limit": limit})
        turn = controller.choose_turn(game)
        print(turn, file=stdout, flush=True)
        game.push(turn)
        if game.is_over:
            break
    return game

