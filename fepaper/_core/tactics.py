"""Compiled tactics of a turn-start position: turn distances, a goal in one, a cut-off.

A turn moves the ball over free edges through *bounce* nodes (field nodes with a marked
edge, where the player must, or may, go on) and ends on a *fresh* node (no marked edge),
in a goal, or blocked. So within one turn the mover reaches exactly the nodes joined to
the ball by a path whose inner nodes are bounce nodes; a breadth-first search over them
is exact (a shortest path never uses an edge twice, so no edge it needs is marked by the
path itself). Counting each fresh landing as one more turn gives the 0-1 breadth-first
*turn distance* of every node from the ball (the feature both public engines' networks
read, docs of ``fepaper.search.bestfirst``): 0 for a node the mover reaches this turn
through bounces, 1 for a fresh node it can land on, and so on, each later turn counted
the same whoever plays it (the marks a turn makes are not taken into account beyond the
first).

* :func:`turn_distances` fills the distances of every node (goal nodes included);
* :func:`goal_in_one` says whether the mover can score this turn (exact);
* :func:`goal_distance` reads a goal's distance from them: :data:`UNREACHED` when no path of
  free edges leads the ball there, so the player attacking that goal is *cut off* and can
  never score (exact: marks are never taken back, so a side cut off stays cut off);
* :func:`cut_off` moves a value toward the result a one-sided cut-off foretells.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["UNREACHED", "turn_distances", "goal_of", "goal_in_one", "goal_distance", "cut_off", "new_scratch"]

#: The distance of a node that no sequence of turns reaches.
UNREACHED = 1 << 20


def new_scratch(n_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """``(dist, queue)`` workspace of :func:`turn_distances` for a board of ``n_nodes`` nodes."""
    return np.empty(n_nodes, np.int32), np.empty(2 * n_nodes + 2, np.int32)


@njit(cache=True)
def turn_distances(marks, ball, board, dist, queue):
    """The turn distance of every node from ``ball`` into ``dist`` (:data:`UNREACHED` if none).

    A 0-1 breadth-first search on a deque of ``queue``'s room: a step onto a bounce node
    costs 0, onto a fresh node 1, into a goal 0 (the goal is reached by the turn that steps
    in). Returns the largest finite distance.
    """
    # the arrays out of their bundle once: a field read inside the loop costs a reference count
    exists, neighbour, goal = board.exists, board.neighbour, board.goal
    n = dist.shape[0]
    for i in range(n):
        dist[i] = UNREACHED
    size = queue.shape[0]
    head = n + 1  # the deque lives in queue[head:tail], pushed at either end
    tail = head
    dist[ball] = 0
    queue[tail] = ball
    tail += 1
    far = 0
    while head != tail:
        u = queue[head]
        head += 1
        if head == size:
            head = 0
        du = dist[u]
        if goal[u] != 0:
            continue
        free = exists[u] & ~marks[u]
        for d in range(8):
            if not (free >> d) & 1:
                continue
            v = neighbour[u, d]
            cost = 0 if (goal[v] != 0 or marks[v] != 0) else 1
            dv = du + cost
            if dv < dist[v]:
                dist[v] = dv
                if dv > far:
                    far = dv
                if cost == 0:
                    head -= 1
                    if head < 0:
                        head = size - 1
                    queue[head] = v
                else:
                    queue[tail] = v
                    tail += 1
                    if tail == size:
                        tail = 0
    return far


@njit(cache=True, inline="always")
def goal_of(player):
    """The goal ``player`` attacks: 1 (the top) for player 1, 2 (the bottom) for player 2."""
    return 1 if player == 1 else 2


@njit(cache=True)
def goal_in_one(marks, ball, board, goal, seen, stack):
    """Whether the player to move from ``ball`` can step into the goal ``goal`` (1 top, 2
    bottom) this turn: a search over bounce nodes, exact. ``seen`` (uint8, one per node) and
    ``stack`` (int32, one per node) are workspace."""
    exists, neighbour, goals = board.exists, board.neighbour, board.goal
    seen[:] = 0
    top = 0
    stack[top] = ball
    top += 1
    seen[ball] = 1
    while top > 0:
        top -= 1
        u = stack[top]
        free = exists[u] & ~marks[u]
        for d in range(8):
            if not (free >> d) & 1:
                continue
            v = neighbour[u, d]
            g = goals[v]
            if g != 0:
                if g == goal:
                    return True
                continue
            if marks[v] != 0 and seen[v] == 0:
                seen[v] = 1
                stack[top] = v
                top += 1
    return False


@njit(cache=True)
def goal_distance(dist, board, goal):
    """The turn distance of goal ``goal`` (1 top, 2 bottom): the least of its nodes' in
    ``dist`` (:func:`turn_distances`), :data:`UNREACHED` if the player attacking it is cut off."""
    best = UNREACHED
    for n in range(dist.shape[0]):
        if board.goal[n] == goal and dist[n] < best:
            best = dist[n]
    return best


@njit(cache=True, inline="always")
def cut_off(value, attack, defend, weight):
    """``value`` (in (-1, 1), for the player to move, whose attacked goal is ``attack`` turns
    away and whose own goal is ``defend`` turns away: :func:`goal_distance`) when neither side
    or both are cut off; when only the mover is, ``(1 - weight) * value - weight``, and when
    only the opponent is, ``(1 - weight) * value + weight``: near the loss (the win) that a
    one-sided cut-off foretells, the order among such positions still ``value``'s."""
    if (attack >= UNREACHED) == (defend >= UNREACHED):
        return value
    return (1.0 - weight) * value + (weight if defend >= UNREACHED else -weight)
