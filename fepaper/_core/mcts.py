"""Compiled Monte Carlo tree search over distinct turns: tree policy (UCB1) and MCTS-Solver.

Each edge of the tree is one **distinct turn**, so a bounce never makes a level of the
tree; the side to move is stored at every node (its ``MOVER``), never assumed to
alternate. What a new leaf is worth is the evaluator's business
(:mod:`fepaper._core.evaluate`: a random playout, or features), as in OpenSpiel's
``MCTSBot(game, uct_c, max_simulations, evaluator)``.

The tree is a :class:`Tree` of node rows (parent, children range, visits, player-1
score, the node's turn as an offset into one step buffer, proven value); a node holds no
position: an iteration copies the root's marks and replays the turns along its path. A
node's children are generated when it is first selected after its own evaluation, with
:func:`fepaper._core.picks.collect_turns`, keeping at most ``max_children`` turns: every
winning turn, then a uniform random sample of the others, in random order.

MCTS-Solver (Winands, Björnsson and Saito 2008): a turn that ends the game is a proven
node; a node with a child that is a proven win for its mover is a proven win; a node
whose children are all proven, and whose children are *all* its turns (not a sample),
is worth the best of them for its mover (a draw if any draw, else a loss). Selection
skips proven losses and stops at proven nodes, backing up their value instead of an
evaluation. A win scores 1, a draw 1/2, a loss 0.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .clock import CHECK_EVERY, check
from .evaluate import evaluate, score_of_winner
from .picks import DRAW, LOSS, RANDOM, WIN, collect_turns
from .playout import apply_turn

__all__ = ["PARENT", "FIRST", "NCHILD", "OFF", "LEN", "MOVER", "PROVEN", "OUTCOME", "COMPLETE", "VISITS",
           "GROW", "DONE", "PROVEN_ROOT", "OUT_OF_BUDGET", "CHECK_ITERATIONS", "Tree", "MCTSConfig",
           "new_tree", "grow_tree", "mcts_run"]

# Columns of the int32 node rows.
PARENT, FIRST, NCHILD, OFF, LEN, MOVER, PROVEN, OUTCOME, COMPLETE, VISITS = range(10)
_FIELDS = 10
# What mcts_run returns as its status.
DONE, GROW, PROVEN_ROOT, OUT_OF_BUDGET = 0, 1, 2, 3
#: Iterations between two looks at the clock at most (an iteration in a late position, a long
#: listing and playout, can take a millisecond: 64 of them once overran a 1 s budget by 22 %).
CHECK_ITERATIONS = 8


class Tree(NamedTuple):
    """``nodes`` (int32 rows of the columns above), ``score1`` (player 1's summed score per
    node), ``steps`` (the turns' steps, one buffer) and ``ctl``: ``[nodes used, steps used,
    iterations, playout steps, expansions]``."""

    nodes: np.ndarray
    score1: np.ndarray
    steps: np.ndarray
    ctl: np.ndarray


class MCTSConfig(NamedTuple):
    """``c`` (UCB1 exploration), ``solver``, ``max_children`` (turns kept per node) and
    ``max_states`` (states one node's listing may walk; 0: no cap)."""

    c: float
    solver: bool
    max_children: int
    max_states: int


def new_tree(mover: int, capacity: int = 4096, steps: int = 1 << 16) -> Tree:
    """A tree holding only its root, with ``mover`` to move."""
    tree = Tree(np.zeros((capacity, _FIELDS), np.int32), np.zeros(capacity, np.float64),
                np.zeros(steps, np.int8), np.zeros(5, np.int64))
    tree.nodes[0, FIRST], tree.nodes[0, NCHILD], tree.nodes[0, MOVER] = -1, -1, mover
    tree.ctl[0] = 1
    return tree


def grow_tree(tree: Tree, max_children: int, longest: int) -> Tree:
    """A tree with room for one more expansion (the same nodes, twice the arrays as needed)."""
    nodes, score1, steps = tree.nodes, tree.score1, tree.steps
    while tree.ctl[0] + max_children > nodes.shape[0]:
        nodes = np.concatenate([nodes, np.zeros_like(nodes)])
        score1 = np.concatenate([score1, np.zeros_like(score1)])
    while tree.ctl[1] + max_children * longest > steps.shape[0]:
        steps = np.concatenate([steps, np.zeros_like(steps)])
    return Tree(nodes, score1, steps, tree.ctl)


@njit(cache=True)
def _update_proven(t, node):
    """MCTS-Solver at ``node`` (not yet proven); True if it became proven."""
    m = t[node, MOVER]
    first = t[node, FIRST]
    n = t[node, NCHILD]
    if n <= 0:
        return False
    all_proven = True
    any_draw = False
    for c in range(first, first + n):
        p = t[c, PROVEN]
        if p == m:
            t[node, PROVEN] = m
            return True
        if p == 0:
            all_proven = False
        elif p == 3:
            any_draw = True
    if all_proven and t[node, COMPLETE] == 1:
        t[node, PROVEN] = 3 if any_draw else 3 - m
        return True
    return False


@njit(cache=True)
def _select(t, score1, node, c_explore, solver):
    """UCB1 for the mover at ``node``: its first unvisited child (children are in random
    order), else the best mean score plus ``c * sqrt(ln N / n)``; proven losses skipped."""
    m = t[node, MOVER]
    first = t[node, FIRST]
    log_n = math.log(max(t[node, VISITS], 1))
    best = -1
    best_score = -1e300
    for c in range(first, first + t[node, NCHILD]):
        if solver and t[c, PROVEN] == 3 - m:
            continue
        v = t[c, VISITS]
        if v == 0:
            return c
        q = score1[c] / v
        if m == 2:
            q = 1.0 - q
        s = q + c_explore * math.sqrt(log_n / v)
        if s > best_score:
            best, best_score = c, s
    return first if best < 0 else best


@njit(cache=True)
def _expand(tree, node, marks, ball, turns_played, board, flags, cfg, state, picks, table, budget):
    """Give ``node`` its children (at most ``cfg.max_children`` turns); returns the table."""
    t, ctl, tree_steps, score1 = tree.nodes, tree.ctl, tree.steps, tree.score1
    p_order, p_lengths, p_steps, p_outcomes = picks.order, picks.lengths, picks.steps, picks.outcomes
    mover = t[node, MOVER]
    kept, total, truncated, table = collect_turns(marks, ball, mover, turns_played, board, flags, RANDOM,
                                                  cfg.max_children, cfg.max_states, cfg.solver, state,
                                                  picks, table, budget)
    first = ctl[0]
    for i in range(kept):
        s = p_order[i]
        ch = first + i
        length = p_lengths[s]
        t[ch, PARENT] = node
        t[ch, FIRST] = -1
        t[ch, NCHILD] = -1
        t[ch, OFF] = ctl[1]
        t[ch, LEN] = length
        for j in range(length):
            tree_steps[ctl[1] + j] = p_steps[s, j]
        ctl[1] += length
        t[ch, MOVER] = 3 - mover
        out = p_outcomes[s]
        code = mover if out == WIN else (3 - mover if out == LOSS else (3 if out == DRAW else 0))
        t[ch, OUTCOME] = code
        t[ch, PROVEN] = code if cfg.solver else 0
        t[ch, COMPLETE] = 0
        t[ch, VISITS] = 0
        score1[ch] = 0.0
    ctl[0] += kept
    ctl[4] += 1
    t[node, FIRST] = first
    t[node, NCHILD] = kept
    t[node, COMPLETE] = 1 if (not truncated and total <= cfg.max_children) else 0
    return table


@njit(cache=True)
def mcts_run(tree, root_marks, root_ball, root_turns, board, flags, cfg, ev, state, picks, table, n_iter,
             budget):
    """Run up to ``n_iter`` iterations on ``tree``; resumable.

    Returns ``(iterations, status, table)``: status ``DONE`` when ``n_iter`` ran, ``GROW``
    when the tree's arrays need to grow first (:func:`grow_tree`), ``PROVEN_ROOT`` when the
    root is proven, ``OUT_OF_BUDGET`` when the budget is spent (looked at every
    :data:`CHECK_ITERATIONS` iterations, sooner when the playouts since the last look took
    :data:`~fepaper._core.clock.CHECK_EVERY` steps, and inside the listings of new nodes: a budget
    a listing found spent ends the run before the next iteration).
    """
    # every array out of its bundle once: a field read inside the loop costs a reference count
    t, score1, ctl, tree_steps = tree.nodes, tree.score1, tree.ctl, tree.steps
    neighbour = board.neighbour
    longest = board.edge_keys.shape[0] + 1
    marks = root_marks.copy()
    path = np.zeros(board.exists.shape[0] + 2, np.int64)
    done = 0
    bctl = budget.ctl
    until_check = CHECK_ITERATIONS
    while done < n_iter:
        if cfg.solver and t[0, PROVEN] != 0:
            return done, PROVEN_ROOT, table
        room = ctl[1] + cfg.max_children * longest <= tree_steps.shape[0]
        if ctl[0] + cfg.max_children > t.shape[0] or not room:
            return done, GROW, table
        if bctl[1] != 0:  # spent, seen by a listing: not one more iteration
            return done, OUT_OF_BUDGET, table
        until_check -= 1
        if until_check == 0 or bctl[0] >= bctl[3]:  # iterations, or the work of long playouts
            bctl[3] = bctl[0] + CHECK_EVERY
            if check(budget, CHECK_ITERATIONS - until_check):
                return done, OUT_OF_BUDGET, table
            until_check = CHECK_ITERATIONS
        marks[:] = root_marks
        ball = root_ball
        node = 0
        depth = 0
        path[0] = 0
        while True:
            if (cfg.solver and t[node, PROVEN] != 0) or t[node, OUTCOME] != 0:
                break
            if t[node, NCHILD] < 0:
                if node != 0 and t[node, VISITS] == 0:
                    break  # a new leaf: evaluate it first
                table = _expand(tree, node, marks, ball, root_turns + depth, board, flags, cfg, state, picks,
                                table, budget)
                if cfg.solver and _update_proven(t, node):
                    break
            if t[node, NCHILD] == 0:
                break  # no turn listed (never for a live position: collect_turns keeps one)
            child = _select(t, score1, node, cfg.c, cfg.solver)
            ball = apply_turn(marks, neighbour, ball, tree_steps[t[child, OFF]:], t[child, LEN])
            node = child
            depth += 1
            path[depth] = node
        if cfg.solver and t[node, PROVEN] != 0:
            r1 = score_of_winner(t[node, PROVEN])
        elif t[node, OUTCOME] != 0:
            r1 = score_of_winner(t[node, OUTCOME])
        else:
            r1, steps = evaluate(ev, marks, ball, t[node, MOVER], root_turns + depth, board, flags, state)
            ctl[3] += steps
            bctl[0] += steps
        changed = cfg.solver and t[node, PROVEN] != 0
        for i in range(depth, -1, -1):
            n = path[i]
            t[n, VISITS] += 1
            score1[n] += r1
            if changed and i < depth:
                changed = t[n, PROVEN] == 0 and _update_proven(t, n)
        done += 1
        ctl[2] += 1
    return done, DONE, table
