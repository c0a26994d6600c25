"""One game loop for the games on the State interface: Aboyne, Connect Four, tic-tac-toe and
OpenSpiel's own states (``current_player``, ``legal_actions``, ``apply_action``,
``is_terminal``), as OpenSpiel's ``evaluate_bots`` is for its bots. Paper soccer's ``Game`` has
its own loop over whole turns, :func:`fepaper.play.arena.play_out`.

A player is anything with ``choose_action(state) -> action`` (:class:`StatePlayer`);
:class:`RandomStatePlayer` picks uniformly among the legal actions.

Examples
--------
>>> import random
>>> from fepaper.games.toygames import TicTacToe
>>> state = TicTacToe()
>>> player = RandomStatePlayer(random.Random(1))
>>> play_state(state, {0: player, 1: player}), state.is_terminal()
(9, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

__all__ = ["StatePlayer", "RandomStatePlayer", "play_state"]


class StatePlayer(Protocol):
    def choose_action(self, state) -> Any:
        """The action to play in ``state`` (one of ``state.legal_actions()``)."""


class RandomStatePlayer:
    """Uniformly among the legal actions, from ``rng``: a :class:`random.Random` (its ``choice``) or
    a numpy Generator (an index drawn with its ``integers``)."""

    def __init__(self, rng: random.Random | np.random.Generator):
        self.rng = rng

    def choose_action(self, state) -> Any:
        legal = state.legal_actions()
        if isinstance(self.rng, random.Random):
            return self.rng.choice(legal)
        return legal[self.rng.integers(len(legal))]


def play_state(state, players: Mapping[int, StatePlayer], max_moves: int | None = None,
               before: Callable[[Any], None] | None = None) -> int:
    """Play ``state`` on to its end (or ``max_moves`` more moves), ``players[p]`` choosing player
    ``p``'s actions; ``before(state)`` is called at each position before its move. Returns the
    moves played."""
    moves = 0
    while not state.is_terminal() and (max_moves is None or moves < max_moves):
        if before is not None:
            before(state)
        state.apply_action(players[state.current_player()].choose_action(state))
        moves += 1
    return moves
