"""Compiled leaf evaluators for MCTS: what a new leaf of the tree is worth.

OpenSpiel's MCTS takes an evaluator apart from the tree policy; here an evaluator is an
:class:`Evaluator` bundle that :func:`evaluate` dispatches on:

``PLAYOUT``
    a random playout to the end of the game (:func:`fepaper._core.playout.playout`): 1, 1/2
    or 0 for player 1;
``FEATURES``
    no playout: the logistic of the weighted features of the position
    (:func:`fepaper._core.features.leaf_value` with float weights), read as the mover's
    chance to win.

A learned evaluation is one more kind over the same bundle.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .features import leaf_value
from .playout import playout

__all__ = ["PLAYOUT", "FEATURES", "EVALUATORS", "Evaluator", "evaluate", "score_of_winner"]

PLAYOUT, FEATURES = 0, 1
EVALUATORS = ("playout", "features")


class Evaluator(NamedTuple):
    """``kind`` (:data:`PLAYOUT` or :data:`FEATURES`), the playouts' ``stop_probability``
    (optional bounce), the feature ``weights`` (float64, one per feature; empty for
    playouts) and ``no_record``, an empty int8 array (the playouts record no steps; made
    once, so that evaluating allocates nothing)."""

    kind: int
    stop_probability: float
    weights: np.ndarray
    no_record: np.ndarray


@njit(cache=True, inline="always")
def score_of_winner(winner):
    """Player 1's score of a winner code (1, 2, or 0 / 3 for a draw)."""
    return 1.0 if winner == 1 else (0.0 if winner == 2 else 0.5)


# Called once per MCTS iteration: no allocation and no reference counting (_nrt=False).
@njit(cache=True, _nrt=False)
def evaluate(ev, marks, ball, mover, turns_played, board, flags, state):
    """``(score for player 1 in [0, 1], playout steps)`` of a turn-start position with
    ``mover`` to move. ``marks`` may be changed (a playout plays on it)."""
    if ev.kind == PLAYOUT:
        winner, steps, _ = playout(marks, ball, mover, turns_played, board, flags, ev.stop_probability, state,
                                   ev.no_record)
        return score_of_winner(winner), steps
    v = leaf_value(marks, ball, mover, board, ev.weights)
    p = 1.0 / (1.0 + math.exp(-min(max(v, -50.0), 50.0)))
    return (p if mover == 1 else 1.0 - p), 0
