"""Compiled best-first minimax over complete turns (Cohen-Solal's unbounded best-first minimax).

The tree's edges are distinct turns. Every node holds a value for the player to move there,
in (-1, 1) for an evaluated position, or a *proven* value: ``2 - plies / 1000`` for a win in
``plies`` turns (``-`` that for a loss), 0 for a draw. An iteration walks from the root to a
leaf, at each node to the child best for the mover (see "Selection" below), skipping proven
children; it *expands* the leaf: lists its turns (:func:`fepaper._core.picks.collect_turns`:
at most ``max_children``, nearest the attacked goal first, stopping at a winning turn) and
values each new child at once (:func:`child_value`): a turn that ends the game is proven; a
turn after which the opponent can score at once (the goal it attacks 0 turns away: what
:func:`fepaper._core.tactics.goal_in_one` finds) is a proven loss; any other is valued by the
evaluator, and with ``cutoff`` > 0 moved toward a loss for a side cut off from the goal it
attacks while the other is not (:func:`fepaper._core.tactics.cut_off`). The values are then
backed up to the root as minimax: each node on the path takes the best of its children. A
node is *closed* (searched no further) when one child is a proven win for its mover, or when
all its children are closed; its value is then proven if its list held all its turns, else
it is the best of the turns listed.

Selection. A child is worth, to the mover choosing it, ``alpha * minimax + (1 - alpha) * mean``
plus ``c * sqrt(ln N / (n + 1))`` when exploring (``N``, ``n``: the iterations through the
node and through the child). ``minimax`` is the child's backed-up value; ``mean`` the mean of
its value when created and of the values each iteration through it backed up (the value of
the leaf it expanded, as the child's mover sees it): Lanctot, Winands, Pepels and Sturtevant's
"implicit minimax backups" (IEEE CIG 2014), which smooths a noisy evaluator's single best
line. ``alpha = 1``, ``c = 0`` is pure best-first minimax.

The evaluators live apart from the search (:mod:`fepaper._core.evaluate`: a
:class:`~fepaper._core.evaluate.ValueEvaluator` in the settings, read by
:func:`~fepaper._core.evaluate.position_value`); the search computes the turn distances its
tactics need and hands them over.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .bitgrid import Grid, bit_distances, fill_masks, play_masks
from .bundles import Budget, RuleFlags
from .clock import late, now, tick
from .evaluate import NET, ValueEvaluator, position_value
from .picks import CONTINUE, LOSS, NEAREST, WIN, collect_turns
from .playout import apply_turn
from .tactics import goal_distance, goal_of, turn_distances
from .valuenet import shared_sums

__all__ = [
    "PROVEN",
    "Tree",
    "Settings",
    "Work",
    "new_tree",
    "grow_tree",
    "subtree_size",
    "reroot",
    "find_child",
    "child_value",
    "run",
    "RUNNING",
    "GROW",
    "FULL",
    "SOLVED",
    "OUT_OF_TIME",
]

#: |value| above this is proven.
PROVEN = 1.5
# What run returns.
RUNNING, GROW, FULL, SOLVED, OUT_OF_TIME = 0, 1, 2, 3, 4


class Tree(NamedTuple):
    """Node arrays (``parent``, ``first`` child (-1: a leaf), ``count`` of children, the
    node's turn at ``off``/``length`` in ``steps``, ``value`` for its mover, ``closed`` (1:
    proven or searched out), ``visits``, ``total`` (its value when created plus the values
    its iterations backed up, for its mover: ``total / (visits + 1)`` is the mean), ``cut``
    (1: its listing did not hold all its turns: the cap, the states or the clock stopped it))
    and ``ctl``: ``[nodes, steps used, expansions, evaluations, iterations]``."""

    parent: np.ndarray
    first: np.ndarray
    count: np.ndarray
    off: np.ndarray
    length: np.ndarray
    value: np.ndarray
    closed: np.ndarray
    visits: np.ndarray
    total: np.ndarray
    cut: np.ndarray
    steps: np.ndarray
    ctl: np.ndarray


class Settings(NamedTuple):
    """What a search reads: the board, the rules, ``max_children`` per node, ``max_states`` per
    listing, exploration ``c``, ``alpha`` (the minimax value's weight against the mean in
    selection), the ``evaluator`` (a :class:`~fepaper._core.evaluate.ValueEvaluator`),
    ``turns_played`` before the root, the ``budget`` and the board's ``grid``
    (:mod:`fepaper._core.bitgrid`: the turn distances of the children, a row of bits at a
    time)."""

    board: object
    flags: RuleFlags
    max_children: int
    max_states: int
    c: float
    alpha: float
    evaluator: ValueEvaluator
    turns_played: int
    budget: Budget
    grid: Grid


class Work(NamedTuple):
    """Workspace: the listing's (``picks``, ``table``, ``state``), the turn distances'
    (``dist``, ``queue``), the network's (``active`` inputs, ``h1``, ``h2``, and
    ``base``: the first layer's sums that the children of the node being expanded share),
    ``child`` marks, the iteration's ``path``, and the bit grid's masks (``free``, ``bounce``)
    of the node being expanded and of its child (``child_free``, ``child_bounce``)."""

    picks: object
    table: np.ndarray
    state: np.ndarray
    dist: np.ndarray
    queue: np.ndarray
    active: np.ndarray
    h1: np.ndarray
    h2: np.ndarray
    base: np.ndarray
    child: np.ndarray
    path: np.ndarray
    free: np.ndarray
    bounce: np.ndarray
    child_free: np.ndarray
    child_bounce: np.ndarray


def new_tree(capacity: int = 1 << 14, steps: int = 1 << 17) -> Tree:
    """A tree holding its root (a leaf) only."""
    tree = Tree(
        np.full(capacity, -1, np.int32),
        np.full(capacity, -1, np.int32),
        np.zeros(capacity, np.int32),
        np.zeros(capacity, np.int64),
        np.zeros(capacity, np.int32),
        np.zeros(capacity, np.float64),
        np.zeros(capacity, np.int8),
        np.zeros(capacity, np.int32),
        np.zeros(capacity, np.float64),
        np.zeros(capacity, np.int8),
        np.zeros(steps, np.int8),
        np.zeros(5, np.int64),
    )
    tree.ctl[0] = 1
    return tree


def grow_tree(tree: Tree, nodes: int, steps: int) -> Tree:
    """The same tree with room for at least ``nodes`` nodes and ``steps`` steps."""

    def grow(a, size, fill=0):
        if a.shape[0] >= size:
            return a
        b = np.full(max(size, 2 * a.shape[0]), fill, a.dtype)
        b[: a.shape[0]] = a
        return b

    return Tree(
        grow(tree.parent, nodes, -1),
        grow(tree.first, nodes, -1),
        grow(tree.count, nodes),
        grow(tree.off, nodes),
        grow(tree.length, nodes),
        grow(tree.value, nodes),
        grow(tree.closed, nodes),
        grow(tree.visits, nodes),
        grow(tree.total, nodes),
        grow(tree.cut, nodes),
        grow(tree.steps, steps),
        tree.ctl,
    )


@njit(cache=True)
def subtree_size(tree, node):
    """``(nodes, steps)`` of the subtree under ``node``, ``node`` included."""
    nodes, steps = 0, 0
    stack = [node]
    while len(stack) > 0:
        n = stack.pop()
        nodes += 1
        steps += tree.length[n]
        if tree.first[n] >= 0:
            for c in range(tree.first[n], tree.first[n] + tree.count[n]):
                stack.append(c)
    return nodes, steps


@njit(cache=True)
def reroot(tree, node, out):
    """Copy the subtree under ``node`` into the empty tree ``out`` (room for
    :func:`subtree_size`), ``node`` as its root: the search goes on from a position it has
    already searched. Children stay contiguous (breadth first); values, closures, visits,
    totals and cuts are kept (a node's value and total are for its own mover, and a proven
    value counts turns from the node, so none depends on the root)."""
    order = np.empty(out.parent.shape[0], np.int64)
    order[0] = node
    out.parent[0] = -1
    out.off[0] = 0
    out.length[0] = 0
    used, steps, head = 1, 0, 0
    while head < used:
        old = order[head]
        out.value[head] = tree.value[old]
        out.closed[head] = tree.closed[old]
        out.visits[head] = tree.visits[old]
        out.total[head] = tree.total[old]
        out.cut[head] = tree.cut[old]
        if tree.first[old] < 0:
            out.first[head] = -1
            out.count[head] = 0
        else:
            n = tree.count[old]
            out.first[head] = used
            out.count[head] = n
            for i in range(n):
                c = tree.first[old] + i
                order[used + i] = c
                out.parent[used + i] = head
                length = tree.length[c]
                out.off[used + i] = steps
                out.length[used + i] = length
                out.steps[steps : steps + length] = tree.steps[tree.off[c] : tree.off[c] + length]
                steps += length
            used += n
        head += 1
    out.ctl[:] = 0
    out.ctl[0] = used
    out.ctl[1] = steps


@njit(cache=True)
def find_child(tree, node, marks, ball, neighbour, target, target_ball, scratch):
    """The child of ``node`` (at ``marks``, ``ball``) whose turn reaches the position
    ``target``, ``target_ball`` (-1 if none): the position, not the step string, since one
    distinct turn can be drawn along several paths."""
    if tree.first[node] < 0:
        return -1
    for c in range(tree.first[node], tree.first[node] + tree.count[node]):
        scratch[:] = marks
        end = apply_turn(scratch, neighbour, ball, tree.steps[tree.off[c] :], tree.length[c])
        if end == target_ball and np.array_equal(scratch, target):
            return c
    return -1


@njit(cache=True)
def child_value(marks, ball, mover, turns_played, cfg, work, start, steps, length):
    """The value for ``mover`` (to move at ``ball``) of a turn-start position that is not over,
    reached by the turn ``steps[:length]`` from ``start``: a proven win if it can score at
    once, else the evaluator's value in (-1, 1) (:func:`fepaper._core.evaluate.position_value`).
    It can score at once when the goal it attacks is 0 turns away: a path through bounce nodes
    steps into it, what :func:`~fepaper._core.tactics.goal_in_one` searches for
    (tests/test_tactics.py), so the turn distances the evaluators read answer it too. On a
    board with a grid, they come from ``work.free`` and ``work.bounce``, the masks of the
    position before the turn (:func:`fill_masks`). The network reads ``work.base``, the sums
    its siblings share (:func:`fepaper._core.valuenet.shared_sums` of the position before the
    turn)."""
    b = cfg.board
    if cfg.grid.usable:
        work.child_free[:] = work.free
        work.child_bounce[:] = work.bounce
        play_masks(work.child_free, work.child_bounce, b, cfg.grid, start, steps, length)
        bit_distances(work.child_free, work.child_bounce, ball, cfg.grid, work.dist)
    else:
        turn_distances(marks, ball, b, work.dist, work.queue)
    attack = goal_distance(work.dist, b, goal_of(mover))
    if attack == 0:
        return 2.0 - 0.001
    left = -1 if cfg.flags.max_turns <= 0 else cfg.flags.max_turns - turns_played
    return position_value(cfg.evaluator, b, work.dist, attack, ball, mover, left, start, steps, length,
                          work.base, work.active, work.h1, work.h2)


@njit(cache=True)
def _expand(tree, node, marks, ball, mover, depth, cfg, work):
    """Give ``node`` (``mover`` to move at ``ball``, ``depth`` turns below the root) its children,
    each valued; returns the table (the listing may grow it). If the clock runs out first, a
    node below the root stays a leaf (a tree kept for the next decision then holds no node
    listed in part), and the root keeps the turns valued so far."""
    played = cfg.turns_played + depth
    kept, total, truncated, table = collect_turns(
        marks,
        ball,
        mover,
        played,
        cfg.board,
        cfg.flags,
        NEAREST,
        cfg.max_children,
        cfg.max_states,
        True,
        work.state,
        work.picks,
        work.table,
        cfg.budget,
    )
    picks = work.picks
    first = tree.ctl[0]
    steps_before = tree.ctl[1]
    deadline = cfg.budget.deadline
    if depth > 0 and cfg.budget.ctl[1] != 0:
        return table  # the clock cut the listing: the node stays a leaf (see below)
    if cfg.evaluator.kind == NET:  # the first layer's sums of the edges every child shares, once
        shared_sums(cfg.evaluator.net, marks, 3 - mover, cfg.board, work.active, work.base)
    if cfg.grid.usable:  # the masks every child's are made from, once
        fill_masks(marks, cfg.board, cfg.grid, work.free, work.bounce)
    listed = kept
    for i in range(listed):
        if i > 0 and late(deadline):  # a child can take a millisecond to value
            if depth > 0:  # out of time below the root: the node stays a leaf, never half listed
                tree.ctl[1] = steps_before
                return table
            kept = i  # out of time at the root: keep the turns valued so far (the nearest the goal)
            truncated = True
            break
        s = picks.order[i]
        ch = first + i
        n = picks.lengths[s]
        tree.parent[ch] = node
        tree.first[ch] = -1
        tree.count[ch] = 0
        tree.off[ch] = tree.ctl[1]
        tree.length[ch] = n
        tree.steps[tree.ctl[1] : tree.ctl[1] + n] = picks.steps[s, :n]
        tree.ctl[1] += n
        tree.visits[ch] = 0
        out = picks.outcomes[s]
        if out != CONTINUE:  # the value for the child's mover, the opponent
            tree.value[ch] = -2.0 if out == WIN else (2.0 if out == LOSS else 0.0)
            tree.total[ch] = _sample(tree.value[ch])
            tree.closed[ch] = 1
            continue
        child = work.child
        child[:] = marks
        end = apply_turn(child, cfg.board.neighbour, ball, picks.steps[s], n)
        v = child_value(child, end, 3 - mover, played + 1, cfg, work, ball, picks.steps[s], n)
        tree.value[ch] = v
        tree.total[ch] = _sample(v)
        tree.closed[ch] = 1 if v > PROVEN else 0
        tree.ctl[3] += 1
    tree.ctl[0] += kept
    tree.ctl[2] += 1
    tree.first[node] = first
    tree.count[node] = kept
    tree.cut[node] = 1 if (truncated or total > kept) else 0
    return table


@njit(cache=True, inline="always")
def _sample(v):
    """A value as the mean counts it: a proven result as a sure win or loss."""
    return min(max(v, -1.0), 1.0)


@njit(cache=True, inline="always")
def _backed(v):
    """A child's value as its parent's mover sees it (a proven result one turn further)."""
    if v > PROVEN:
        return -v + 0.001
    if v < -PROVEN:
        return -v - 0.001
    return -v


@njit(cache=True)
def _update(tree, node):
    """Minimax at ``node`` from its children; closes it when proven or searched out.

    A node whose listing was cut and whose listed turns all lose is not a proven loss (a turn
    not listed may save it): it is worth the worst unproven value instead."""
    first, n = tree.first[node], tree.count[node]
    if n == 0:  # no turn listed (a cut listing): nothing to search
        tree.closed[node] = 1
        return
    best = -1e9
    all_closed = True
    for c in range(first, first + n):
        v = _backed(tree.value[c])
        if v > best:
            best = v
        if tree.closed[c] == 0:
            all_closed = False
    if best < -PROVEN and tree.cut[node]:
        best = -0.999
    tree.value[node] = best
    if best > PROVEN or all_closed:
        tree.closed[node] = 1


@njit(cache=True)
def _select(tree, node, c_explore, alpha):
    """The open child best for the mover at ``node`` (-1 if none): module text, "Selection"."""
    first, n = tree.first[node], tree.count[node]
    log_n = math.log(tree.visits[node] + 1.0)
    best, pick = -1e18, -1
    for c in range(first, first + n):
        if tree.closed[c]:
            continue
        s = -tree.value[c]
        if alpha < 1.0:
            s = alpha * s - (1.0 - alpha) * tree.total[c] / (tree.visits[c] + 1.0)
        if c_explore > 0:
            s += c_explore * math.sqrt(log_n / (tree.visits[c] + 1.0))
        if s > best:
            best, pick = s, c
    return pick


@njit(cache=True)
def run(tree, root_marks, root_ball, root_mover, cfg, work, max_iterations):
    """Iterate until ``max_iterations``, the budget, a proven root or a full tree.

    Returns ``(status, table)``: :data:`RUNNING` (iterations done), :data:`GROW` (the
    arrays need room first: :func:`grow_tree`), :data:`SOLVED`, :data:`OUT_OF_TIME`.
    """
    marks = root_marks.copy()
    longest = cfg.board.edge_keys.shape[0] + 1
    deadline = cfg.budget.deadline
    table = work.table
    for _ in range(max_iterations):
        if tree.closed[0]:
            return SOLVED, table
        if tick(cfg.budget) or (deadline > 0.0 and now() > deadline):
            cfg.budget.ctl[1] = 1
            return OUT_OF_TIME, table
        if (
            tree.ctl[0] + cfg.max_children > tree.parent.shape[0]
            or tree.ctl[1] + cfg.max_children * longest > tree.steps.shape[0]
        ):
            return GROW, table
        marks[:] = root_marks
        ball = root_ball
        mover = root_mover
        node = 0
        depth = 0
        work.path[0] = 0
        while tree.first[node] >= 0:
            child = _select(tree, node, cfg.c, cfg.alpha)
            if child < 0:
                break
            ball = apply_turn(
                marks, cfg.board.neighbour, ball, tree.steps[tree.off[child] :], tree.length[child]
            )
            node = child
            mover = 3 - mover
            depth += 1
            work.path[depth] = node
        if tree.first[node] < 0 and tree.closed[node] == 0:
            table = _expand(tree, node, marks, ball, mover, depth, cfg, work)
        sample = 0.0
        for i in range(depth, -1, -1):
            n = work.path[i]
            tree.visits[n] += 1
            if tree.first[n] >= 0:
                _update(tree, n)
            if i == depth:  # the leaf's value (expanded: the best of its children) is the sample
                sample = _sample(tree.value[n])
            tree.total[n] += sample if (depth - i) % 2 == 0 else -sample
        tree.ctl[4] += 1
    return RUNNING, table
