"""Compiled evaluators: what a new position of a search's tree is worth, apart from the search.

OpenSpiel's MCTS takes an evaluator apart from the tree policy; here an evaluator is a bundle
that a dispatch function reads, so a search names its evaluator and never its insides.

MCTS's leaf evaluators (an :class:`Evaluator`, :func:`evaluate`: a score for player 1 in [0, 1]):

``PLAYOUT``
    a random playout to the end of the game (:func:`fepaper._core.playout.playout`): 1, 1/2
    or 0 for player 1;
``FEATURES``
    no playout: the logistic of the weighted features of the position
    (:func:`fepaper._core.features.leaf_value` with float weights), read as the mover's
    chance to win.

Best-first minimax's evaluators (a :class:`ValueEvaluator`, :func:`position_value`: a value for
the player to move in (-1, 1), from the turn distances the search computed for its tactics):

``DISTANCE``
    a slope over the turn distances to the two goals, with a finer grain from the ball's step
    distances;
``NET``
    a value network (:class:`~fepaper._core.valuenet.ValueNet`).

Either may then be moved toward a loss for a side cut off from the goal it attacks
(``cutoff``, :func:`fepaper._core.tactics.cut_off`). A learned evaluation is one more kind over
the same bundle.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .features import leaf_value
from .playout import playout
from .tactics import cut_off, goal_distance, goal_of
from .valuenet import ValueNet, child_net_value

__all__ = ["PLAYOUT", "FEATURES", "EVALUATORS", "Evaluator", "evaluate", "score_of_winner",
           "DISTANCE", "NET", "VALUE_EVALUATORS", "ValueEvaluator", "position_value"]

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
    v = leaf_value(marks, ball, mover, board.exists, board.neighbour, board.goal, board.distance, ev.weights)
    p = 1.0 / (1.0 + math.exp(-min(max(v, -50.0), 50.0)))
    return (p if mover == 1 else 1.0 - p), 0


# -- best-first minimax's evaluators --------------------------------------------------------
DISTANCE, NET = 0, 1
VALUE_EVALUATORS = ("distance", "net")


class ValueEvaluator(NamedTuple):
    """``kind`` (:data:`DISTANCE` or :data:`NET`), the ``net`` (an empty network for
    ``DISTANCE``), the distance evaluator's ``scale`` (its slope) and ``steps`` (its weight of
    the ball's step distances to the goals, walls only), and ``cutoff`` (the weight of a
    one-sided cut-off in a value, 0: none)."""

    kind: int
    net: ValueNet
    scale: float
    steps: float
    cutoff: float


@njit(cache=True)
def position_value(ev, board, dist, attack, ball, mover, left, start, steps, length, base, active, h1, h2):
    """The value in (-1, 1), for ``mover`` (to move at ``ball``, ``left`` turns left or -1), of
    a turn-start position reached by the turn ``steps[:length]`` from ``start``, that cannot
    score at once: ``dist`` holds its turn distances and ``attack`` the distance to the goal
    the mover attacks (> 0). The network reads ``base``, the first layer's sums the position
    shares with its siblings (:func:`fepaper._core.valuenet.shared_sums`), and its scratch
    ``active``, ``h1``, ``h2``."""
    need = ev.kind != NET or ev.cutoff > 0.0
    defend = goal_distance(dist, board, goal_of(3 - mover)) if need else 0
    if ev.kind == NET:
        v = child_net_value(ev.net, base, dist, ball, mover, left, board, start, steps, length, active, h1,
                            h2)
    else:
        grain = 0.0
        if ev.steps != 0.0:  # step distances on the empty field: the attacked goal's code minus 1 is its row
            away = board.distance[goal_of(3 - mover) - 1, ball] - board.distance[goal_of(mover) - 1, ball]
            grain = ev.steps * away / board.distance.shape[1] ** 0.5
        v = math.tanh(ev.scale * (min(defend, 12) - min(attack, 12)) + grain)
    if ev.cutoff > 0.0:
        v = cut_off(v, attack, defend, ev.cutoff)
    return min(max(v, -0.999), 0.999)
