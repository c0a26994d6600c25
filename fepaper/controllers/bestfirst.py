"""Beyond the thesis: best-first minimax over complete turns with tactics and a value network.

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
many turns a position has. With ``reuse`` the controller keeps its tree from one decision
to the next: when the game went on along it (the turn chosen, then a reply the tree holds),
the search starts from that reply's subtree (``details["reused"]`` counts the positions
taken over). The turn played is the best valued (Korf and Chickering's best-first minimax), or
with ``choice_margin`` the one searched most among those valued within it of the best and not
proven lost (Cohen-Solal's "safest action"); a proven win is always played.

Every parameter is declared once, in :attr:`BestFirst.PARAMS` (its type, range, default, GA
bounds and meaning): the controller, :func:`bestfirst_search` and the GA read them there, and
the search reads them as one :class:`BestFirstConfig`. The evaluators are the kernel's
(:mod:`fepaper._core.evaluate`, as MCTS's are).

Examples
--------
>>> from fepaper.game import Game
>>> result = make({"name": "bestfirst", "iterations": 50, "evaluator": "distance"}).decide(Game("codingame"))
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
from ..search.budget import reserve, time_to_grow, tree_room
from ..search.playouts import any_turn, choose_turns, random_state
from ..search.result import SearchResult
from ..search.valuefile import DEFAULT_NET, SHIPPED_NETS, load_value_net, network_path, null_net
from .base import Controller, make, register  # noqa: F401 (make: the doctest)
from .params import Bool, Choice, Custom, Float, Int, SpecError

__all__ = ["BestFirst", "BestFirstConfig", "bestfirst_search", "DEFAULT_NET", "SHIPPED_NETS", "network_path"]

class BestFirstConfig(NamedTuple):
    """The parameters one search reads, as :attr:`BestFirst.PARAMS` declares and checks them
    (the controller builds it: :attr:`BestFirst.config`)."""

    evaluator: str
    net: str | None
    c: float
    alpha: float
    max_children: int
    max_states: int
    scale: float
    steps: float
    max_nodes: int
    choice_margin: float
    cutoff: float


def bestfirst_search(game: Game, iterations: int | None = None, time_limit: float | None = None, *,
                     seed=None, chunk: int = 64, **params) -> SearchResult:
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
    **params
        Any of :attr:`BestFirst.PARAMS` (``evaluator``, ``net``, ``c``, ``alpha``, ...), checked
        there; the others at their defaults there.

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
    """
    searcher = BestFirst(iterations=iterations, time_limit=time_limit, **params)
    return _search(game, searcher.iterations, searcher.time_limit, searcher.config, seed, chunk)[0]


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


def _search(game: Game, iterations: int | None, time_limit: float | None, config: BestFirstConfig, seed,
            chunk: int, kept: Kept | None = None) -> tuple[SearchResult, Kept]:
    """:func:`bestfirst_search` with ``config`` (checked by :attr:`BestFirst.PARAMS`), going on
    from ``kept``'s tree if the game went on along it; returns the result and the tree to keep."""
    if game.is_over:
        raise ValueError(f"bestfirst: the game is over ({game.result})")
    if game.current:
        raise ValueError(f"bestfirst: a turn is in progress ({game.current!r})")
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


def _net_path(value, owner: str) -> str:
    if not isinstance(value, str) or not value.endswith(".npz"):
        raise SpecError(f"{owner}: net must be the path of a .npz file, got {value!r}")
    return value


@register
class BestFirst(Controller):
    """Best-first minimax over complete turns with tactics and a value network (module text).

    Its parameters, each with its type, range, default and meaning, are :attr:`PARAMS` (the one
    place they are declared); ``seed`` and ``time_limit`` as for every controller.
    """

    name = "bestfirst"
    PARAMS = (
        Int("iterations", None, 1, 10**9, doc="expansions per decision (default 1,000 without a time limit)"),
        Choice("evaluator", "net", VALUE_EVALUATORS,
               doc="how a new position is valued: a value network or the turn distances to the goals"),
        Custom(
            "net", None, lambda v, owner: _net_path(v, owner), shown="set",
            doc="another network .npz: a path, or a bare name (network_path: the one fepaper ships, or one "
                "of the repository's data/strength/networks/), e.g. value_engines25.npz; default DEFAULT_NET"
        ),
        Float("c", 0.0, 0.0, 10.0, gene=(0.0, 1.0), doc="exploration (0: pure best-first)"),
        Float("alpha", 1.0, 0.0, 1.0, gene=(0.0, 1.0), shown="changed",
              doc="selection's weight of the minimax value against the mean backed up (1: minimax only)"),
        Int("max_children", 400, 1, 100_000, gene=(50, 2000), doc="turns listed per node"),
        Int("max_states", 200_000, 1000, 10**9, doc="states one node's listing may walk"),
        Float("scale", 0.5, 0.0, 10.0, gene=(0.05, 2.0),
              doc="the distance evaluator's slope: tanh(scale * (own goal's distance - attacked goal's))"),
        Float("steps", 0.0, -10.0, 10.0, gene=(-1.0, 1.0),
              doc="the distance evaluator's weight of the ball's step distances to the goals (on the empty "
                  "field, over the square root of the nodes): a finer grain than whole turns"),
        Int("max_nodes", 2_000_000, 1000, 10**9,
            doc="positions the tree may hold (its memory: about 40 bytes a node and its turn's steps)"),
        Float("choice_margin", 0.0, 0.0, 4.0, gene=(0.0, 0.5), shown="changed",
              doc="the turn searched most within this of the best value, not proven lost (0: the best)"),
        Float("cutoff", 0.0, 0.0, 0.99, gene=(0.0, 0.99), shown="changed",
              doc="a one-sided cut-off's weight in a value: near a loss for the side cut off (0: none)"),
        Bool("reuse", False, shown="changed",
             doc="go on from the last decision's tree when the game went on along it"),
    )

    def setup(self) -> None:
        if self.evaluator == "net" or self.net is not None:
            try:
                load_value_net(network_path(self.net), None)
            except (OSError, ValueError) as exc:
                raise SpecError(f"bestfirst: net: {exc}") from None
        self.config = BestFirstConfig(**{name: getattr(self, name) for name in BestFirstConfig._fields})
        self._kept: Kept | None = None

    def decide(self, game: Game) -> SearchResult:
        seed = int(self.rng.integers(2**63))
        result, kept = _search(game, self.iterations, self.time_limit, self.config, seed, 64, self._kept)
        self._kept = kept if self.reuse else None
        return result
