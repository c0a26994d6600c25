"""Features of a position for evaluations: the leaves of the turn search, MCTS's evaluator.

Every feature is from the point of view of the player to move:

``distance``
    (steps to the goal it defends) - (steps to the goal it attacks);
``attack``
    minus the steps to the goal it attacks;
``mobility``
    the free steps at the ball;
``bounce``
    the free steps at the ball onto an already marked field node (each lets the mover go on:
    the thesis's bounces).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["FEATURES", "DEFAULT_WEIGHTS", "leaf_value"]

FEATURES = ("distance", "attack", "mobility", "bounce")
DEFAULT_WEIGHTS = np.array([1, 0, 0, 0], np.int64)
DEFAULT_WEIGHTS.setflags(write=False)


@njit(cache=True, inline="always")
def leaf_value(marks, ball, player, exists, neighbour, goal, distance, weights):
    """The static value of ``ball`` for ``player`` (to move): ``sum_k weights[k] * f_k`` over
    :data:`FEATURES`; ``weights`` has one entry per feature (int64 or float64). The board's
    arrays come one by one (a kernel takes them out of its bundle once, outside its loops)."""
    attack = distance[player - 1, ball]
    value = weights[0] * (distance[2 - player, ball] - attack) - weights[1] * attack
    if weights[2] != 0 or weights[3] != 0:
        free = exists[ball] & ~marks[ball]
        mobility = 0
        bounce = 0
        for d in range(8):
            if (free >> d) & 1:
                mobility += 1
                m = neighbour[ball, d]
                if goal[m] == 0 and marks[m] != 0:
                    bounce += 1
        value += weights[2] * mobility + weights[3] * bounce
    return value
