"""Compiled ant walks: one colony's iterations over the arrays of a position.

The ants of :class:`~fepaper.controllers.aco.AntColony` walk from the ball toward
the opponent's goal over the edges that are not marked in the position, never
entering a node they have already visited (their taboo list) nor their own goal.
An ant that has no step left dies: it does not return and cannot be the best ant
(the deposits it made on the way stay, as the thesis deposits while walking).

Everything the colony keeps is per edge: ``tau`` (the pheromone after the last
evaporation) and ``tau_new`` (deposited since). A step's *cost* is 1 when it lands
on a marked node or in a goal (a bounce: the turn goes on) and ``turn_cost`` when
it lands on an unmarked node (the turn ends and the opponent moves). Its deposit
is ``w_cost / cost + w_dist / max(d_opp, 1) + w_rival * cost * d_own`` where
``d_opp`` and ``d_own`` are the landing node's steps to the opponent's and one's
own goal (the thesis's base colony is ``w_cost = 1``, the others 0).

The probability of a step is ``(tau + tau_new) ** alpha * cost ** -beta``
normalised over the free, non-taboo steps (``tau`` alone when the decision tables
are updated once per cycle), then multiplied by ``1 / (1 + heuristic * (d - d_min))``
(``d`` the landing node's distance to the opponent's goal, ``d_min`` the least
among the candidates) and normalised again; the step is drawn by roulette.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

__all__ = ["AS", "MMAS", "RANK", "SYSTEMS", "Colony", "run_colony", "step_cost", "step_deposit", "evaporate"]

#: Ant systems: the thesis's Ant System, MAX-MIN Ant System, rank-based Ant System.
AS, MMAS, RANK = 0, 1, 2
SYSTEMS = ("as", "mmas", "rank")



class Colony(NamedTuple):
    """The parameters of one colony (see :class:`fepaper.controllers.aco.AntColony`):
    ``system`` is :data:`AS`, :data:`MMAS` or :data:`RANK`."""

    n_ants: int
    iterations: int
    alpha: float
    beta: float
    rho: float
    heuristic: float
    turn_cost: float
    w_cost: float
    w_dist: float
    w_rival: float
    system: int
    once_per_cycle: bool
    rank_w: int
    tau_ratio: float


# States of an ant during an iteration.
_WALKING, _ARRIVED, _DEAD = 0, 1, 2


@njit(cache=True, inline="always")
def step_cost(marks, goal, m, turn_cost):
    """The cost of a step landing on ``m``: 1 for a bounce or a goal, else ``turn_cost``."""
    if marks[m] != 0 or goal[m] != 0:
        return 1.0
    return turn_cost


@njit(cache=True, inline="always")
def step_deposit(cost, d_opp, d_own, w_cost, w_dist, w_rival):
    """The pheromone one ant leaves on one step (on the way and on the way back)."""
    return w_cost / cost + w_dist / max(d_opp, 1) + w_rival * cost * d_own


@njit(cache=True)
def evaporate(tau, tau_new, rho, clamp, tau_min, tau_max):
    """``tau = tau * (1 - rho) + tau_new``; ``tau_new = 0``; clamp to the bounds if asked."""
    keep = 1.0 - rho
    for e in range(tau.shape[0]):
        t = tau[e] * keep + tau_new[e]
        if clamp:
            t = min(max(t, tau_min), tau_max)
        tau[e] = t
        tau_new[e] = 0.0


@njit(cache=True)
def _deposit_path(tau_new, nodes, dirs, length, weight, marks, board, dist_opp, dist_own, col):
    """Add ``weight`` times each step's deposit along one ant's path; return the largest deposit."""
    largest = 0.0
    for i in range(length):
        n = nodes[i]
        m = nodes[i + 1]
        c = step_cost(marks, board.goal, m, col.turn_cost)
        dep = step_deposit(c, dist_opp[m], dist_own[m], col.w_cost, col.w_dist, col.w_rival)
        tau_new[board.edge_index[n, dirs[i]]] += weight * dep
        largest = max(largest, dep)
    return largest


@njit(cache=True)
def run_colony(marks, board, ball, player, col, seed):
    """Run ``col.iterations`` cycles of ``col.n_ants`` ants from ``ball`` toward the goal
    ``player`` attacks; return the pheromone.

    Parameters
    ----------
    marks : uint8 array
        The position's marks (not changed).
    board : BoardArrays
    ball, player : int
        The ball's node and the player (1 or 2) whose colony this is.
    col : Colony
        The colony's parameters; its ``system`` is
        :data:`AS` (every ant deposits on the way and on the way back, the best
        ant twice), :data:`MMAS` (only the iteration's best ant deposits, on the
        way back; the pheromone is clamped to ``[tau_ratio * tau_max, tau_max]``
        with ``tau_max`` = its largest step deposit / ``rho``) or :data:`RANK` (on
        the way back the ant ranked ``r < rank_w`` deposits ``rank_w - r`` times,
        the best-so-far ant ``rank_w`` times).
    seed : int
        Seeds numba's generator (the ants' roulette).

    Returns
    -------
    tau : float64 array (n_edges,)
        The pheromone after the last evaporation.
    steps : int
        Ant steps walked (the decision's "nodes").
    arrived : int
        Ants that reached the goal, summed over the iterations.
    nodes, dirs, lengths, states : arrays
        The last iteration's paths (``nodes[a, :lengths[a] + 1]``), for inspection;
        ``states`` is 1 for an ant that arrived, 2 for one that died.
    """
    np.random.seed(seed)
    exists, neighbour, edge_index, goal = board.exists, board.neighbour, board.edge_index, board.goal
    dist_opp, dist_own = board.distance[player - 1], board.distance[2 - player]
    target, own = (1, 2) if player == 1 else (2, 1)  # the goal codes: TOP is the one player 1 attacks
    n_ants, iterations, alpha, beta, rho, heuristic = col.n_ants, col.iterations, col.alpha, col.beta, \
        col.rho, col.heuristic
    turn_cost, system, once_per_cycle, rank_w = col.turn_cost, col.system, col.once_per_cycle, col.rank_w
    n_nodes = marks.shape[0]
    n_edges = board.edge_keys.shape[0]
    tau = np.ones(n_edges)
    tau_new = np.zeros(n_edges)
    cost_factor_end = turn_cost ** -beta
    nodes = np.zeros((n_ants, n_nodes + 1), np.int32)
    dirs = np.zeros((n_ants, n_nodes), np.int8)
    lengths = np.zeros(n_ants, np.int32)
    states = np.zeros(n_ants, np.int8)
    costs = np.zeros(n_ants)
    visited = np.zeros((n_ants, n_nodes), np.bool_)
    bsf_nodes = np.zeros(n_nodes + 1, np.int32)
    bsf_dirs = np.zeros(n_nodes, np.int8)
    bsf_len = -1
    bsf_cost = np.inf
    weights = np.zeros(8)
    forward = system == AS
    steps = 0
    arrived = 0
    for _ in range(iterations):
        visited[:, :] = False
        for a in range(n_ants):
            nodes[a, 0] = ball
            visited[a, ball] = True
            lengths[a] = 0
            states[a] = _WALKING
            costs[a] = 0.0
        walking = n_ants
        while walking > 0:
            for a in range(n_ants):  # the ants move at the same time: one step each per round
                if states[a] != _WALKING:
                    continue
                n = nodes[a, lengths[a]]
                free = exists[n] & ~marks[n]
                total = 0.0
                d_min = 1 << 30
                for d in range(8):
                    weights[d] = 0.0
                    if (free >> d) & 1 == 0:
                        continue
                    m = neighbour[n, d]
                    if visited[a, m] or goal[m] == own:
                        continue
                    e = edge_index[n, d]
                    t = tau[e] if once_per_cycle else tau[e] + tau_new[e]
                    w = t ** alpha
                    if marks[m] == 0 and goal[m] == 0:
                        w *= cost_factor_end
                    weights[d] = max(w, 1e-300)
                    total += weights[d]
                    d_min = min(d_min, dist_opp[m])
                if total == 0.0:
                    states[a] = _DEAD
                    walking -= 1
                    continue
                total2 = 0.0
                for d in range(8):
                    if weights[d] > 0.0:
                        m = neighbour[n, d]
                        weights[d] = weights[d] / total / (1.0 + heuristic * (dist_opp[m] - d_min))
                        total2 += weights[d]
                r = np.random.random() * total2
                chosen = -1
                acc = 0.0
                for d in range(8):
                    if weights[d] > 0.0:
                        chosen = d
                        acc += weights[d]
                        if r < acc:
                            break
                m = neighbour[n, chosen]
                c = step_cost(marks, goal, m, turn_cost)
                k = lengths[a]
                dirs[a, k] = chosen
                nodes[a, k + 1] = m
                lengths[a] = k + 1
                visited[a, m] = True
                costs[a] += c
                steps += 1
                if forward:
                    tau_new[edge_index[n, chosen]] += step_deposit(c, dist_opp[m], dist_own[m],
                                                                   col.w_cost, col.w_dist, col.w_rival)
                if goal[m] == target:
                    states[a] = _ARRIVED
                    walking -= 1
                    arrived += 1
        best = -1
        for a in range(n_ants):
            if states[a] == _ARRIVED and (best < 0 or costs[a] < costs[best]):
                best = a
        if best >= 0 and costs[best] < bsf_cost:
            bsf_cost = costs[best]
            bsf_len = lengths[best]
            bsf_nodes[: bsf_len + 1] = nodes[best, : bsf_len + 1]
            bsf_dirs[:bsf_len] = dirs[best, :bsf_len]
        clamp = False
        tau_max = np.inf
        if system == AS:
            for a in range(n_ants):
                if states[a] == _ARRIVED:
                    _deposit_path(tau_new, nodes[a], dirs[a], lengths[a], 2.0 if a == best else 1.0,
                                  marks, board, dist_opp, dist_own, col)
        elif system == MMAS:
            if best >= 0:
                largest = _deposit_path(tau_new, nodes[best], dirs[best], lengths[best], 1.0, marks, board,
                                        dist_opp, dist_own, col)
                clamp = True
                tau_max = largest / rho
        else:
            keyed = costs.copy()
            for a in range(n_ants):
                if states[a] != _ARRIVED:
                    keyed[a] = np.inf
            order = np.argsort(keyed, kind="mergesort")
            for r in range(min(rank_w - 1, n_ants)):
                a = order[r]
                if states[a] != _ARRIVED:
                    break
                _deposit_path(tau_new, nodes[a], dirs[a], lengths[a], float(rank_w - 1 - r), marks, board,
                              dist_opp, dist_own, col)
            if bsf_len >= 0:
                _deposit_path(tau_new, bsf_nodes, bsf_dirs, bsf_len, float(rank_w), marks, board, dist_opp,
                              dist_own, col)
        evaporate(tau, tau_new, rho, clamp, col.tau_ratio * tau_max, tau_max)
    return tau, steps, arrived, nodes, dirs, lengths, states
