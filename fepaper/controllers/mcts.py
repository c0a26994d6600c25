"""Monte Carlo tree search over distinct turns: UCB1, random playouts, MCTS-Solver.

Seed 002 describes MCTS for Connect Four: a tree of nodes holding visits and wins,
UCB1 selection, expansion, random playouts and backpropagation. Here each edge of
the tree is one **distinct turn** (RULES.md: same end node, same marked edges), so
a bounce never makes a level of the tree; the side to move is asked at every node
(its ``mover``), never assumed to alternate.

The whole search runs in the compiled core. The tree is a set of node arrays
(parent, children range, visits, player-1 score, the node's turn as an offset into
one step buffer, proven value); a node holds no position: an iteration copies the
root's marks and replays the turns along its path. A node's children are generated
when it is first selected after its own playout, with the compiled turn walk,
keeping at most ``max_children`` turns: every winning turn, then a uniform random
sample of the others (a reservoir), in random order. The playout is the kernel of
:mod:`fepaper._core.playout` (uniform steps, stop on a bounce with probability
``stop_probability``).

MCTS-Solver (Winands, Björnsson and Saito 2008): a turn that ends the game is a
proven node; a node with a child that is a proven win for its mover is a proven
win (and is chosen at once); a node whose children are all proven, and whose
children are *all* its turns (not a sample), is worth the best of them for its
mover (a draw if any draw, else a loss). Selection skips proven losses and stops at
proven nodes, backing up their value instead of a playout. A win scores 1, a draw
1/2, a loss 0.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from .._core.playout import (
    DRAW,
    LOSS,
    RANDOM,
    WIN,
    apply_turn,
    collect_turns,
    fresh_table,
    new_workspace,
    playout,
    random_state,
)
from ..game.game import Game
from .base import Controller, SpecError, register

__all__ = ["MCTS", "mcts_search"]

# Columns of the int32 node array.
PARENT, FIRST, NCHILD, OFF, LEN, MOVER, PROVEN, OUTCOME, COMPLETE, VISITS = range(10)
_FIELDS = 10
# ctl: nodes used, steps used, iterations, playout steps, expansions
_GROW, _DONE, _PROVEN = 1, 0, 2


@njit(cache=True, inline="always")
def _score1(code):
    """Player 1's score of a result code (1: player 1 wins, 2: player 2 wins, 3: draw)."""
    return 1.0 if code == 1 else (0.0 if code == 2 else 0.5)


@njit(cache=True)
def _update_proven(tree, node):
    """MCTS-Solver at ``node`` (not yet proven); True if it became proven."""
    m = tree[node, MOVER]
    first = tree[node, FIRST]
    n = tree[node, NCHILD]
    if n <= 0:
        return False
    all_proven = True
    any_draw = False
    for c in range(first, first + n):
        p = tree[c, PROVEN]
        if p == m:
            tree[node, PROVEN] = m
            return True
        if p == 0:
            all_proven = False
        elif p == 3:
            any_draw = True
    if all_proven and tree[node, COMPLETE] == 1:
        tree[node, PROVEN] = 3 if any_draw else 3 - m
        return True
    return False


@njit(cache=True)
def _select(tree, score1, node, c_explore, solver):
    """UCB1 for the mover at ``node``: its first unvisited child (children are in random
    order), else the best mean score plus ``c * sqrt(ln N / n)``; proven losses skipped."""
    m = tree[node, MOVER]
    first = tree[node, FIRST]
    log_n = math.log(max(tree[node, VISITS], 1))
    best = -1
    best_score = -1e300
    for c in range(first, first + tree[node, NCHILD]):
        if solver and tree[c, PROVEN] == 3 - m:
            continue
        v = tree[c, VISITS]
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
def mcts_run(tree, score1, stepbuf, ctl, root_marks, root_ball, root_turns, exists, neighbour,
             edge_index, goal, distance, edge_keys, node_keys, optional, blocked_loss, max_turns,
             c_explore, solver, max_children, max_states, stop_probability, state, n_iter,
             ws, table, marks, path):
    """Run up to ``n_iter`` iterations on the tree; resumable.

    Returns ``(iterations, status, table)``: status 0 when ``n_iter`` ran, 1 when the
    node or step arrays need to grow first, 2 when the root is proven.
    """
    cap = tree.shape[0]
    cap_steps = stepbuf.shape[0]
    longest = edge_keys.shape[0] + 1
    none = np.zeros(0, np.int8)
    s_steps, s_len, s_out, result = ws[10], ws[11], ws[13], ws[14]
    done = 0
    while done < n_iter:
        if solver and tree[0, PROVEN] != 0:
            return done, _PROVEN, table
        if ctl[0] + max_children > cap or ctl[1] + max_children * longest > cap_steps:
            return done, _GROW, table
        marks[:] = root_marks
        ball = root_ball
        node = 0
        depth = 0
        path[0] = 0
        while True:
            if (solver and tree[node, PROVEN] != 0) or tree[node, OUTCOME] != 0:
                break
            if tree[node, NCHILD] < 0:
                if node != 0 and tree[node, VISITS] == 0:
                    break  # a new leaf: play it out first
                mover = tree[node, MOVER]
                kept, total, truncated, table = collect_turns(
                    marks, ball, mover, root_turns + depth, exists, neighbour, edge_index, goal,
                    distance, edge_keys, node_keys, optional, blocked_loss, max_turns, RANDOM,
                    max_children, max_states, solver, state, ws, table)
                first = ctl[0]
                for i in range(kept):
                    s = result[i]
                    ch = first + i
                    length = s_len[s]
                    tree[ch, PARENT] = node
                    tree[ch, FIRST] = -1
                    tree[ch, NCHILD] = -1
                    tree[ch, OFF] = ctl[1]
                    tree[ch, LEN] = length
                    for j in range(length):
                        stepbuf[ctl[1] + j] = s_steps[s, j]
                    ctl[1] += length
                    tree[ch, MOVER] = 3 - mover
                    out = s_out[s]
                    code = mover if out == WIN else (3 - mover if out == LOSS else (3 if out == DRAW else 0))
                    tree[ch, OUTCOME] = code
                    tree[ch, PROVEN] = code if solver else 0
                    tree[ch, COMPLETE] = 0
                    tree[ch, VISITS] = 0
                    score1[ch] = 0.0
                ctl[0] += kept
                ctl[4] += 1
                tree[node, FIRST] = first
                tree[node, NCHILD] = kept
                tree[node, COMPLETE] = 1 if (not truncated and total <= max_children) else 0
                if kept == 0 or (solver and _update_proven(tree, node)):
                    break
            child = _select(tree, score1, node, c_explore, solver)
            ball = apply_turn(marks, neighbour, ball, stepbuf[tree[child, OFF]:], tree[child, LEN])
            node = child
            depth += 1
            path[depth] = node
        if solver and tree[node, PROVEN] != 0:
            code = tree[node, PROVEN]
        elif tree[node, OUTCOME] != 0:
            code = tree[node, OUTCOME]
        else:
            winner, steps, _w = playout(marks, ball, tree[node, MOVER], root_turns + depth, exists,
                                        neighbour, goal, optional, blocked_loss, max_turns,
                                        stop_probability, state, none)
            ctl[3] += steps
            code = winner if winner != 0 else 3
        r1 = _score1(code)
        changed = solver and tree[node, PROVEN] != 0
        for i in range(depth, -1, -1):
            n = path[i]
            tree[n, VISITS] += 1
            score1[n] += r1
            if changed and i < depth:
                changed = tree[n, PROVEN] == 0 and _update_proven(tree, n)
        done += 1
        ctl[2] += 1
    return done, _DONE, table


def _grow(tree, score1, stepbuf, ctl, max_children, longest):
    while ctl[0] + max_children > tree.shape[0]:
        tree = np.concatenate([tree, np.zeros_like(tree)])
        score1 = np.concatenate([score1, np.zeros_like(score1)])
    while ctl[1] + max_children * longest > stepbuf.shape[0]:
        stepbuf = np.concatenate([stepbuf, np.zeros_like(stepbuf)])
    return tree, score1, stepbuf


def mcts_search(game: Game, iterations: int | None = 10_000, time_limit: float | None = None,
                c: float = math.sqrt(2), max_children: int = 64, solver: bool = True,
                stop_probability: float = 0.5, max_states: int = 200_000, seed=None,
                chunk: int = 1024) -> tuple[str, dict]:
    """Search ``game``'s position (not changed) and return ``(turn, stats)``.

    Parameters
    ----------
    iterations : int or None
        Iterations to run at most; ``None`` with a ``time_limit``: as many as fit.
    time_limit : float or None
        Seconds to search at most (checked every ``chunk`` iterations).
    c : float
        UCB1 exploration constant.
    max_children : int
        Turns kept per expanded node (every winning turn, then a random sample).
    solver : bool
        MCTS-Solver: prove wins, losses and draws.
    stop_probability : float
        Playouts stop on a bounce with this probability (optional bounce).
    max_states : int
        A node's turn walk stops after this many states (0: no limit); the node's
        children are then a sample of the turns seen and it is never proven lost.
    seed : int, numpy Generator or None

    Returns
    -------
    turn : str
        A proven win if there is one, else the most visited turn not proven lost
        (ties: the better mean score).
    stats : dict
        ``iterations``, ``nodes``, ``playout_steps``, ``expansions``, ``seconds``,
        ``proven`` (the root's value for its mover: 1, 0.5, 0, or ``None``),
        ``visits`` and ``values`` per root turn.
    """
    if game.is_over:
        raise ValueError(f"mcts: the game is over ({game.result})")
    if game.current:
        raise ValueError(f"mcts: a turn is in progress ({game.current!r})")
    if iterations is None and time_limit is None:
        raise ValueError("mcts needs iterations or a time_limit")
    start = time.perf_counter()
    b, rules = game.board, game.rules
    longest = b.n_edges + 1
    tree = np.zeros((4096, _FIELDS), np.int32)
    score1 = np.zeros(4096, np.float64)
    stepbuf = np.zeros(1 << 16, np.int8)
    ctl = np.zeros(5, np.int64)
    tree[0, FIRST], tree[0, NCHILD], tree[0, MOVER] = -1, -1, game.player
    ctl[0] = 1
    state = random_state(seed)
    ws = new_workspace(b.n_nodes, b.n_edges, max_children)
    table = fresh_table()
    marks = game.marks.copy()
    path = np.zeros(b.n_nodes + 2, np.int64)
    args = (game.marks, game.ball_index, len(game.history), b.exists, b.neighbour, b.edge_index, b.goal,
            b.distance, b.edge_keys, b.node_keys, rules.bounce == "optional", rules.blocked == "loss",
            -1 if rules.max_turns is None else rules.max_turns, float(c), bool(solver),
            int(max_children), int(max_states), float(stop_probability), state)
    total = 0
    while iterations is None or total < iterations:
        n = chunk if iterations is None else min(chunk, iterations - total)
        done, status, table = mcts_run(tree, score1, stepbuf, ctl, *args, n, ws, table, marks, path)
        total += done
        if status == _PROVEN:
            break
        if status == _GROW:
            tree, score1, stepbuf = _grow(tree, score1, stepbuf, ctl, max_children, longest)
        if time_limit is not None and time.perf_counter() - start >= time_limit:
            break
    m = game.player
    first, n_children = int(tree[0, FIRST]), int(tree[0, NCHILD])
    children = range(first, first + max(n_children, 0))
    root_proven = int(tree[0, PROVEN]) if solver else 0
    if root_proven:
        candidates = [ch for ch in children if tree[ch, PROVEN] == root_proven]
    else:
        candidates = [ch for ch in children if not (solver and tree[ch, PROVEN] == 3 - m)]
    candidates = candidates or list(children)

    def mean(ch):
        v = tree[ch, VISITS]
        q = score1[ch] / v if v else 0.5
        return q if m == 1 else 1.0 - q

    def turn(ch):
        off, length = tree[ch, OFF], tree[ch, LEN]
        return (stepbuf[off:off + length] + 48).tobytes().decode()

    if not candidates:  # no turn kept (a walk cut before its first turn): play at random
        from .._core.playout import choose_turns
        best_turn = choose_turns(game, 1, "random", seed=state)[0][0][0]
    else:
        best = max(candidates, key=lambda ch: (tree[ch, VISITS], mean(ch)))
        best_turn = turn(best)
    value = {m: 1.0, 3 - m: 0.0, 3: 0.5}.get(root_proven)
    stats = {
        "iterations": total, "nodes": int(ctl[0]), "playout_steps": int(ctl[3]),
        "expansions": int(ctl[4]), "seconds": time.perf_counter() - start, "proven": value,
        "visits": {turn(ch): int(tree[ch, VISITS]) for ch in children},
        "values": {turn(ch): mean(ch) for ch in children},
    }
    return best_turn, stats


@register
class MCTS(Controller):
    """Monte Carlo tree search over distinct turns (see the module text).

    Parameters
    ----------
    iterations : int, optional
        Iterations per decision; default 10,000 unless a ``time_limit`` is given.
    c : float, default sqrt(2)
        UCB1 exploration constant.
    max_children : int, default 64
        Turns kept per node; a position with more gets a random sample (winning
        turns always kept).
    solver : bool, default True
        MCTS-Solver.
    stop_probability : float, default 0.5
        Chance that a playout stops on a bounce (optional bounce).
    max_states : int, default 200,000
        Cap on the states of one node's turn walk.
    seed, time_limit
        As for every controller; each decision draws its playout seed from ``self.rng``.
    """

    name = "mcts"

    def __init__(self, iterations: int | None = None, c: float = math.sqrt(2), max_children: int = 64,
                 solver: bool = True, stop_probability: float = 0.5, max_states: int = 200_000,
                 **kw) -> None:
        super().__init__(**kw)
        if iterations is None and self.time_limit is None:
            iterations = 10_000
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)
                                       or iterations < 1):
            raise SpecError(f"mcts: iterations must be a positive integer, got {iterations!r}")
        if not (isinstance(c, (int, float)) and c >= 0):
            raise SpecError(f"mcts: c must be a number >= 0, got {c!r}")
        if isinstance(max_children, bool) or not isinstance(max_children, int) or max_children < 1:
            raise SpecError(f"mcts: max_children must be a positive integer, got {max_children!r}")
        if not 0 <= stop_probability <= 1:
            raise SpecError(f"mcts: stop_probability must be in [0, 1], got {stop_probability!r}")
        if isinstance(max_states, bool) or not isinstance(max_states, int) or not (
                max_states == 0 or max_states >= 1000):
            raise SpecError(f"mcts: max_states must be 0 (no cap) or >= 1000, got {max_states!r}")
        self.iterations, self.c, self.max_children = iterations, float(c), max_children
        self.solver, self.stop_probability, self.max_states = bool(solver), stop_probability, max_states
        self._params = {"iterations": iterations, "c": self.c, "max_children": max_children,
                        "solver": self.solver, "stop_probability": stop_probability,
                        "max_states": max_states}
        self.last_stats: dict | None = None

    def decide(self, game: Game) -> tuple[str, int]:
        turn, stats = mcts_search(game, self.iterations, self.time_limit, self.c, self.max_children,
                                  self.solver, self.stop_probability, self.max_states,
                                  seed=int(self.rng.integers(2**63)))
        self.last_stats = stats
        return turn, stats["nodes"]
