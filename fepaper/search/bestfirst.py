"""Beyond the thesis: best-first minimax over complete turns with tactics and a value network
(:func:`bestfirst_search`).

The search (:mod:`fepaper._core.bestfirst`) is Cohen-Solal's unbounded best-first minimax
("Unbounded Minimax", arXiv 2012.10700) over distinct turns, as the QtPaperSoccer engine
plays it: it keeps extending the line both players prefer, backing values up as minimax.
Every new position is valued when it is created: a turn that ends the game is a proven
result, a turn after which the opponent scores at once is a proven loss (an exact search
over bounce nodes), and anything else is valued by the evaluator: by default a value network
(``"net"``; the default network, ``value_engines25w2.npz``, the one fepaper ships, fitted by
``fepaper net fit --referee`` on games against the public engines), or a slope over the turn
distances to the two goals (``"distance"``). The defaults are the best configuration measured
against the public engines (docs/interpretation.md, "the defaults of bestfirst"). A node whose
listing was cut (the cap, the
states or the clock) and whose listed turns all lose is not counted a proven loss. Each
node lists at most ``max_children`` turns (those ending nearest the goal its mover attacks
first, and at once any winning turn), so memory and time per node stay bounded however
many turns a position has. :func:`bestfirst_tree` also returns the tree, so that a search can
go on from the last one's (the controller's ``reuse``): when the game went on along it (the
turn chosen, then a reply the tree holds), the search starts from that reply's subtree
(``details["reused"]`` counts the positions taken over). The turn played is the best valued
(Korf and Chickering's best-first minimax), or with ``choice_margin`` the one searched most
among those valued within it of the best and not proven lost (Cohen-Solal's "safest action"); a
proven win is always played.

A search reads its settings as one :class:`BestFirstConfig`, whose defaults are declared here;
the controller ``bestfirst`` (:class:`fepaper.controllers.bestfirst.BestFirst`) declares each
one's range, GA bounds and meaning and checks a spec against them. The evaluators are the
kernel's (:mod:`fepaper._core.evaluate`, as MCTS's are).

Examples
--------
>>> from fepaper.game import Game
>>> result = bestfirst_search(Game("codingame"), 50, evaluator="distance")
>>> result.turn in Game("codingame").turns()
True
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from .._core import bestfirst as kernel
from .._core.bitgrid import grid_of, new_masks
from .._core.bundles import new_budget
from .._core.evaluate import VALUE_EVALUATORS, ValueEvaluator
from .._core.picks import new_picks
from .._core.playout import apply_turn
from .._core.tactics import new_scratch
from .._core.turns import new_keyset
from ..game import Game
from .budget import reserve, time_to_grow, tree_room, warm_once
from .playouts import any_turn, choose_turns, random_state
from .result import SearchResult
from .valuefile import load_value_net, network_path, null_net

__all__ = ["bestfirst_search", "bestfirst_tree", "BestFirstConfig", "Kept", "VALUE_EVALUATORS"]


class BestFirstConfig(NamedTuple):
    """The settings one search reads, at their defaults: the best configuration measured against
    the public engines (docs/interpretation.md, "the defaults of bestfirst"). Their ranges and
    meanings are the controller's (:attr:`fepaper.controllers.bestfirst.BestFirst.PARAMS`), which
    builds one from a checked spec."""

    evaluator: str = "net"
    net: str | None = None
    c: float = 0.0
    alpha: float = 1.0
    max_children: int = 400
    max_states: int = 200_000
    scale: float = 0.5
    steps: float = 0.0
    max_nodes: int = 2_000_000
    choice_margin: float = 0.0
    cutoff: float = 0.0


def bestfirst_search(game: Game, iterations: int | None = None, time_limit: float | None = None, *,
                     seed=None, chunk: int = 64, **settings) -> SearchResult:
    """Search ``game``'s position (not changed) by best-first minimax.

    Parameters
    ----------
    iterations : int, optional
        Iterations (one expansion each) at most; with neither this nor ``time_limit``, 1,000.
    time_limit : float, optional
        Seconds, wall clock, the wrap-up included.
    seed : int, numpy Generator or None
        Breaks ties among equally near turns when a listing is cut.
    chunk : int
        Iterations between two looks at the tree's room.
    **settings
        Any field of :class:`BestFirstConfig` (``evaluator``, ``net``, ``c``, ``alpha``, ...), the
        others at their defaults; taken as given (a controller's spec is checked by
        :attr:`fepaper.controllers.bestfirst.BestFirst.PARAMS`).

    Returns
    -------
    SearchResult
        ``turn``: the child of the root chosen (``choice_margin``); ``value``: the root's value for
        the mover (a proven win is ``2 - plies / 1000``, a loss its negation); ``nodes``:
        positions in the tree; ``depth``: the deepest turn of the principal line;
        ``details``: ``iterations``, ``expansions``, ``evaluations``, ``proven`` (the root
        is proven or searched out), ``values`` (root turn -> value for the mover),
        ``stopped`` (the clock ran out), ``reused`` (positions taken over from the last
        decision's tree: 0 here), ``line`` (the principal line: the turns both players
        prefer, from the turn chosen).

    Raises
    ------
    ValueError
        If the game is over or a turn is in progress, or a setting is not a field of
        :class:`BestFirstConfig`.
    """
    unknown = sorted(set(settings) - set(BestFirstConfig._fields))
    if unknown:
        raise ValueError(f"bestfirst: unknown setting(s) {unknown}; valid settings: "
                         f"{list(BestFirstConfig._fields)}")
    return bestfirst_tree(game, iterations, time_limit, BestFirstConfig(**settings), seed, chunk)[0]


class Kept(NamedTuple):
    """A decision's tree, kept for the next one: the root's ``history`` (turns), ``marks`` and
    ``ball``, the ``tree`` and the root's child that was played (``chosen``)."""

    history: tuple
    marks: np.ndarray
    ball: int
    tree: kernel.Tree
    chosen: int


def _go_on(game: Game, kept: Kept | None, room: int):
    """The part of ``kept``'s tree under ``game``'s position (two turns on: the one chosen and
    the opponent's reply), as a tree of its own with ``room`` nodes more; ``None`` if the game
    left the tree."""
    if kept is None or kept.chosen < 0:
        return None
    n = len(kept.history)
    if len(game.history) != n + 2 or tuple(game.history[:n]) != kept.history:
        return None
    tree, b = kept.tree, game.board
    off, length = int(tree.off[kept.chosen]), int(tree.length[kept.chosen])
    if (tree.steps[off : off + length] + 48).tobytes().decode() != game.history[n]:
        return None
    marks = kept.marks.copy()
    ball = apply_turn(marks, b.arrays.neighbour, kept.ball, tree.steps[off:], length)
    node = kernel.find_child(tree, kept.chosen, marks, ball, b.arrays.neighbour, game.marks, game.ball_index,
                             np.empty_like(marks))
    if node < 0 or tree.first[node] < 0:
        return None
    nodes, steps = kernel.subtree_size(tree, node)
    out = kernel.new_tree(nodes + room, max(8 * room, 2 * steps))
    kernel.reroot(tree, node, out)
    return out


def _warm_up(rules, config: BestFirstConfig) -> None:
    """Every kernel a search of ``config`` may call: a search, one going on from its tree, the
    nearest turn under a clock, :func:`any_turn` (:func:`~fepaper.search.budget.warm_once`)."""
    game = Game(rules)
    result, kept = bestfirst_tree(game, 4, None, config, 0)
    game.push(result.turn)
    if not game.is_over:
        bestfirst_tree(game, 4, None, config, 0, kept=kept)
    choose_turns(Game(rules), 1, "nearest", seed=0, max_states=config.max_states, stop_at_win=True,
                 time_limit=1.0)
    any_turn(Game(rules))


def bestfirst_tree(game: Game, iterations: int | None, time_limit: float | None, config: BestFirstConfig,
                   seed, chunk: int = 64, kept: Kept | None = None) -> tuple[SearchResult, Kept]:
    """:func:`bestfirst_search` with ``config``, going on from ``kept``'s tree (the last search's)
    if the game went on along it; returns the result and the tree to keep for the next search.
    Its clock starts after the kernels are loaded (:func:`~fepaper.search.budget.warm_once`)."""
    if game.is_over:
        raise ValueError(f"bestfirst: the game is over ({game.result})")
    if game.current:
        raise ValueError(f"bestfirst: a turn is in progress ({game.current!r})")
    warm_once(("bestfirst", game.rules, config.evaluator, config.net), lambda: _warm_up(game.rules, config))
    start = time.perf_counter()
    if iterations is None and time_limit is None:
        iterations = 1000
    b = game.board
    net = load_value_net(network_path(config.net), game.rules) if config.evaluator == "net" else null_net(b)
    budget = new_budget(None if time_limit is None else time_limit - reserve(time_limit, 0.03), 0, start)
    evaluator = ValueEvaluator(VALUE_EVALUATORS.index(config.evaluator), net, float(config.scale),
                               float(config.steps), float(config.cutoff))
    cfg = kernel.Settings(b.arrays, game.rules.flags, int(config.max_children), int(config.max_states),
                          float(config.c), float(config.alpha), evaluator, len(game.history), budget,
                          grid_of(b))
    dist, queue = new_scratch(b.n_nodes)
    hidden1, hidden2 = net.b1.shape[0], net.b2.shape[0]
    work = kernel.Work(
        new_picks(b.n_nodes, b.n_edges, int(config.max_children)),
        new_keyset(32),
        random_state(seed),
        dist,
        queue,
        np.zeros(2 * b.n_nodes + b.n_edges + 2, np.int64),
        np.zeros(hidden1, np.float32),
        np.zeros(hidden2, np.float32),
        np.zeros(hidden1, np.float32),
        np.zeros(b.n_nodes, np.uint8),
        np.zeros(128, np.int64),
        *new_masks(),
        *new_masks(),
    )
    max_children, max_nodes = config.max_children, config.max_nodes
    room = tree_room(time_limit, max_nodes)
    tree = _go_on(game, kept, room)
    reused = 0 if tree is None else int(tree.ctl[0])
    tree = kernel.new_tree(room, 8 * room) if tree is None else tree
    longest = b.n_edges + 1
    done = 0
    status = kernel.RUNNING
    while iterations is None or done < iterations:
        n = chunk if iterations is None else min(chunk, iterations - done)
        before = int(tree.ctl[4])
        status, table = kernel.run(tree, game.marks, game.ball_index, game.player, cfg, work, n)
        work = work._replace(table=table)
        done += int(tree.ctl[4]) - before
        if status == kernel.GROW:
            if tree.ctl[0] + max_children > max_nodes:
                break
            if not time_to_grow(budget.deadline, tree):
                status = kernel.OUT_OF_TIME
                break
            tree = kernel.grow_tree(
                tree, int(tree.ctl[0]) + max_children, int(tree.ctl[1]) + max_children * longest
            )
        elif status != kernel.RUNNING:
            break
    result, chosen = _answer(game, tree, cfg, status, start, seed, reused, config.choice_margin)
    return result, Kept(tuple(game.history), game.marks.copy(), game.ball_index, tree, chosen)


def _chosen(seen: np.ndarray, visits: np.ndarray, choice_margin: float) -> int:
    """The index of the root turn chosen among values ``seen`` (for the mover, a proven result
    as :func:`_answer` shifts it) and the iterations through each: the best valued, or with
    ``choice_margin`` > 0 and no proven win, the most searched of those within ``choice_margin``
    of the best and not proven lost (ties: the better valued, then the first)."""
    best = int(np.argmax(seen))
    if choice_margin <= 0.0 or seen[best] > kernel.PROVEN:
        return best
    near = np.flatnonzero((seen >= seen[best] - choice_margin) & (seen > -kernel.PROVEN))
    if near.size == 0:
        return best
    return int(near[np.lexsort((-np.arange(near.size), seen[near], visits[near]))[-1]])


def _answer(game: Game, tree, cfg, status, start, seed, reused,
            choice_margin=0.0) -> tuple[SearchResult, int]:
    first, count = int(tree.first[0]), int(tree.count[0])

    def turn(ch):
        off, length = int(tree.off[ch]), int(tree.length[ch])
        return (tree.steps[off : off + length] + 48).tobytes().decode()

    if count <= 0:  # not even the root listed: the nearest turn found in the time left, else any turn
        deadline = cfg.budget.deadline
        left = None if deadline <= 0 else deadline - time.perf_counter()
        found = []
        if left is None or left > 0:
            found = choose_turns(game, 1, "nearest", seed=seed, max_states=cfg.max_states, stop_at_win=True,
                                 time_limit=left)[0]
        chosen = found[0][0] if found else any_turn(game)
        return SearchResult(
            chosen,
            None,
            1,
            time.perf_counter() - start,
            0,
            {"iterations": int(tree.ctl[4]), "stopped": True, "reused": reused, "line": [chosen]},
        ), -1
    children = range(first, first + count)
    seen = -tree.value[first : first + count]
    proven = np.abs(seen) > kernel.PROVEN
    seen = np.where(proven, seen - np.sign(seen) * 0.001, seen)
    best = first + _chosen(seen, tree.visits[first : first + count], choice_margin)
    line, node = [], 0
    while tree.first[node] >= 0 and tree.count[node] > 0:  # the principal line
        kids = range(tree.first[node], tree.first[node] + tree.count[node])
        node = best if node == 0 else max(kids, key=lambda k: -tree.value[k])
        line.append(turn(node))
    depth = len(line)
    values = {turn(ch): float(v) for ch, v in zip(children, seen)} if count <= 2000 else {}
    details = {
        "iterations": int(tree.ctl[4]),
        "expansions": int(tree.ctl[2]),
        "evaluations": int(tree.ctl[3]),
        "proven": bool(tree.closed[0]),
        "values": values,
        "stopped": status == kernel.OUT_OF_TIME,
        "reused": reused,
        "line": line,
    }
    return SearchResult(
        turn(best), float(tree.value[0]), int(tree.ctl[0]), time.perf_counter() - start, depth, details
    ), best
