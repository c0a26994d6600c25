"""Reference MCTS: slow, obviously correct Monte Carlo tree search (UCB1, uniform random
playouts, optionally MCTS-Solver) over the small ``State`` of :mod:`fepaper.search.reference.gametree`.

Every node keeps its own :meth:`State.clone` and the side to move is asked at every node,
never assumed to alternate. The compiled MCTS (:mod:`fepaper._core.mcts`) is tested against it.

Examples
--------
>>> from fepaper.games.toygames import TicTacToe
>>> result = mcts(TicTacToe([0, 3, 1, 4]), 100, 0, seed=1)
>>> result.turn, result.details["proven"]
(2, 1.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable

import numpy as np

from ..result import SearchResult
from .gametree import State

__all__ = ["mcts"]


class _Node:
    """A tree node: its state, per-player reward sums and, with the solver, its proven value."""

    __slots__ = ("state", "mover", "children", "untried", "visits", "totals", "proven")

    def __init__(self, state):
        self.state = state
        self.mover = state.current_player()
        self.children: dict[Hashable, _Node] = {}
        self.untried = [] if state.is_terminal() else list(state.legal_actions())
        self.visits = 0
        self.totals = [0.0, 0.0]
        self.proven: list[float] | None = None  # the returns the game is proven to end with


def _generator(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _ucb_child(node: _Node, c: float, solver: bool) -> _Node:
    """UCB1 for the side to move at ``node``; with the solver, proven losses are skipped."""
    m = node.mover
    log_n = math.log(node.visits)
    best, best_score = None, -math.inf
    for child in node.children.values():
        if solver and child.proven is not None and child.proven[m] < 0:
            continue
        score = child.totals[m] / child.visits + c * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


def _update_proven(node: _Node) -> None:
    """MCTS-Solver: a child that is a proven win for the mover proves the node a win; once
    every child is proven, the node is worth the best of them (all losses: a loss)."""
    if node.proven is not None:
        return
    if node.state.is_terminal():
        node.proven = list(node.state.returns())
        return
    m = node.mover
    proven = [ch.proven for ch in node.children.values() if ch.proven is not None]
    wins = [p for p in proven if p[m] > 0]
    if wins:
        node.proven = wins[0]
    elif not node.untried and len(proven) == len(node.children):
        node.proven = max(proven, key=lambda p: p[m])


def mcts(state: State, iterations: int, player: int, seed=None, c: float = math.sqrt(2),
         solver: bool = True) -> SearchResult:
    """Monte Carlo tree search with UCB1 and uniform random playouts, optionally MCTS-Solver.

    Each iteration selects by UCB1 (mean reward of the side to move at each node, asked
    at every node, plus ``c * sqrt(ln N / n)``; the rewards are the game's ``returns()``),
    expands one untried action chosen at random, plays uniformly at random to the end,
    and adds the returns to every node on the path.

    With ``solver`` (Winands, Björnsson and Saito's MCTS-Solver) finished games are
    proven; a node with a child that is a proven win for its mover is a proven win; a
    node whose children are all proven is worth the best of them for its mover (all
    losses: a proven loss). Selection skips proven losses, stops at proven nodes (their
    proven returns are backed up instead of a playout), and the search stops once the
    root is proven. A win is a return > 0: the solver assumes all wins are equal, as with
    returns of +-1 and 0.

    Parameters
    ----------
    state : State
        The position; it is not modified. ``player`` must be to move.
    iterations : int
        Iterations to run (>= 1).
    player : int
        The side to move, for whom the action is chosen.
    seed : int, numpy.random.Generator or None
        Source of all randomness; the same seed gives the same tree.
    c : float
        UCB1 exploration constant.
    solver : bool
        Whether to prove wins and losses.

    Returns
    -------
    SearchResult
        ``turn``: a proven win if there is one; otherwise the most visited root action
        among those not proven lost (ties: the earlier expanded). ``value``: the root's
        proven value for ``player`` if the solver proved it, else its mean reward;
        ``nodes``: nodes in the tree, the root included; ``details``: ``iterations``,
        ``playout_plies``, ``proven`` (or ``None``), ``visits`` and ``values`` (mean
        reward for ``player``) of each expanded root action, in expansion order.
    """
    if state.is_terminal():
        raise ValueError(f"mcts needs an unfinished game, got {state!r}")
    if state.current_player() != player:
        raise ValueError(f"mcts chooses for the side to move: player {player} was given but "
                         f"player {state.current_player()} is to move")
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    rng = _generator(seed)
    start = time.perf_counter()
    stats = {"iterations": 0, "nodes": 1, "playout_plies": 0, "proven": None}
    root = _Node(state.clone())
    for _ in range(iterations):
        if solver and root.proven is not None:
            break
        stats["iterations"] += 1
        node, path = root, [root]
        # selection: down fully expanded, unfinished, unproven nodes
        while (not node.untried and node.children
               and not (solver and node.proven is not None)):
            node = _ucb_child(node, c, solver)
            path.append(node)
        # expansion
        if node.untried and not (solver and node.proven is not None):
            action = node.untried.pop(int(rng.integers(len(node.untried))))
            child_state = node.state.clone()
            child_state.apply_action(action)
            child = _Node(child_state)
            node.children[action] = child
            stats["nodes"] += 1
            node, path = child, path + [child]
            if solver and child_state.is_terminal():
                child.proven = list(child_state.returns())
        # simulation
        if solver and node.proven is not None:
            reward = node.proven
        else:
            playout = node.state.clone()
            while not playout.is_terminal():
                actions = playout.legal_actions()
                playout.apply_action(actions[int(rng.integers(len(actions)))])
                stats["playout_plies"] += 1
            reward = playout.returns()
        # backpropagation
        for n in reversed(path):
            n.visits += 1
            n.totals[0] += reward[0]
            n.totals[1] += reward[1]
            if solver:
                _update_proven(n)

    m = root.mover
    if solver and root.proven is not None:
        candidates = [a for a, ch in root.children.items()
                      if ch.proven is not None and ch.proven[m] == root.proven[m]]
        stats["proven"] = float(root.proven[player])
    else:
        candidates = [a for a, ch in root.children.items()
                      if not (solver and ch.proven is not None and ch.proven[m] < 0)]
        candidates = candidates or list(root.children)
    best_action = max(candidates, key=lambda a: root.children[a].visits)
    value = stats["proven"] if stats["proven"] is not None else root.totals[player] / root.visits
    details = {"iterations": stats["iterations"], "playout_plies": stats["playout_plies"],
               "proven": stats["proven"], "visits": {a: ch.visits for a, ch in root.children.items()},
               "values": {a: ch.totals[player] / ch.visits for a, ch in root.children.items()}}
    return SearchResult(best_action, value, stats["nodes"], time.perf_counter() - start, 0, details)
