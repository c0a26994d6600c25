"""The shortest path of the ball to a goal over the edges still free: A* over the board's arrays.

The thesis's alpha-beta tried it as its evaluation (§4.1: "also the A* algorithm was tried with
identical results and much greater run time"), and the compiled evaluation programs read it as two
of their features (:mod:`fepaper._core.programs`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["astar_distance"]


@njit(cache=True, _nrt=False)
def astar_distance(exists, neighbour, goal, marks, start, target, heuristic, scratch, heap):
    """Steps of the shortest path from ``start`` to a node of goal ``target`` over the edges
    free in ``marks``, found by A* with ``heuristic`` (admissible: the plain distance, over the
    edges that are not walls); a path never passes through a goal node. Returns the number of
    nodes (more than any path) when no path exists. ``scratch`` (int32, 2 x n_nodes + 1: best
    known steps per node, a visit stamp per node and the last stamp) and ``heap`` (int64, at
    least 8 x n_nodes + 1 keys) are work arrays; the stamps spare clearing them between calls."""
    n_nodes = exists.shape[0]
    if goal[start] == target:
        return 0
    stamp = scratch[2 * n_nodes] + 1
    if stamp > 2_000_000_000:
        scratch[n_nodes:] = 0
        stamp = 1
    scratch[2 * n_nodes] = stamp
    g = scratch[:n_nodes]
    seen = scratch[n_nodes:2 * n_nodes]
    size = 0
    shift = np.int64(1) << 24
    g[start] = 0
    seen[start] = stamp
    heap[0] = np.int64(heuristic[start]) * shift + start
    size = 1
    while size > 0:
        top = heap[0]
        size -= 1
        last = heap[size]
        i = 0
        while True:  # sift the last key down from the root
            c = 2 * i + 1
            if c >= size:
                break
            if c + 1 < size and heap[c + 1] < heap[c]:
                c += 1
            if heap[c] >= last:
                break
            heap[i] = heap[c]
            i = c
        if size > 0:
            heap[i] = last
        u = np.int64(top % shift)
        f = top // shift
        if f != g[u] + heuristic[u]:
            continue  # a stale key: u was reached more cheaply since
        if goal[u] == target:
            return g[u]
        if goal[u] != 0:
            continue  # the other goal ends a path
        free = exists[u] & ~marks[u]
        for d in range(8):
            if ((free >> d) & 1) == 0:
                continue
            w = np.int64(neighbour[u, d])
            cost = g[u] + 1
            if seen[w] == stamp and g[w] <= cost:
                continue
            g[w] = cost
            seen[w] = stamp
            key = np.int64(cost + heuristic[w]) * shift + w
            i = size
            size += 1
            while i > 0:  # sift the new key up
                p = (i - 1) // 2
                if heap[p] <= key:
                    break
                heap[i] = heap[p]
                i = p
            heap[i] = key
    return n_nodes
