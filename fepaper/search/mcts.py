"""Monte Carlo tree search over distinct turns (:func:`mcts_search`): UCB1, MCTS-Solver, a
pluggable evaluator.

The Connect Four report describes MCTS: a tree of nodes holding visits and
wins, UCB1 selection, expansion, random playouts and backpropagation. The tree policy and
the solver are compiled in :mod:`fepaper._core.mcts`; what a new leaf is worth is an
evaluator's business (:mod:`fepaper._core.evaluate`): a random playout (the default) or
the logistic of weighted position features, split the way OpenSpiel's ``MCTSBot`` takes
an evaluator. Each edge of the tree is one distinct turn.
"""

from __future__ import annotations

import math
import time

import numpy as np

from .._core import mcts as kernel
from .._core.bundles import new_budget
from .._core.evaluate import EVALUATORS, Evaluator
from .._core.features import FEATURES
from .._core.picks import new_picks
from .._core.turns import new_keyset
from ..game import Game
from .budget import reserve, time_to_grow, tree_room, warm_once
from .playouts import choose_turns, random_state
from .result import SearchResult

__all__ = ["mcts_search", "feature_weights", "EVALUATORS", "FEATURES", "MAX_TREE_BYTES"]

#: The most memory a search's tree takes (its arrays; a growth copies them, so the peak is half as
#: much again): a tree that would grow past it ends the search with the tree it has. Without it,
#: ``iterations`` 10**9 took 3.0 GB in 40 s and went on growing.
MAX_TREE_BYTES = 1 << 30


def feature_weights(weights, owner: str = "mcts") -> tuple[float, ...] | None:
    """The features evaluator's weights, one per feature of :data:`FEATURES` in that order, from
    ``{feature: number}`` (missing features weigh 0); ``None`` for ``None``.

    Raises
    ------
    ValueError
        Naming ``owner``, the valid features and the range of a weight.
    """
    if weights is None:
        return None
    if not isinstance(weights, dict) or sorted(set(weights) - set(FEATURES)):
        raise ValueError(f"{owner}: weights must be a dict {{feature: number}} over {list(FEATURES)}, "
                         f"got {weights!r}")
    out = []
    for f in FEATURES:
        w = weights.get(f, 0.0)
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or abs(w) > 100:
            raise ValueError(f"{owner}: the weight of {f!r} must be a finite number in [-100, 100], "
                             f"got {w!r}")
        out.append(float(w))
    return tuple(out)


def mcts_search(game: Game, iterations: int | None = 10_000, time_limit: float | None = None,
                c: float = math.sqrt(2), max_children: int = 64, solver: bool = True,
                evaluator: str = "playout", stop_probability: float = 0.5, weights=None,
                max_states: int = 200_000, seed=None, chunk: int = 1024) -> SearchResult:
    """Search ``game``'s position (not changed).

    Parameters
    ----------
    iterations : int or None
        Iterations to run at most; ``None`` with a ``time_limit``: as many as fit.
    time_limit : float or None
        Seconds to search at most (wall clock; the listings of new nodes included).
    c : float
        UCB1 exploration constant.
    max_children : int
        Turns kept per expanded node (every winning turn, then a random sample).
    solver : bool
        MCTS-Solver: prove wins, losses and draws.
    evaluator : {"playout", "features"}
        How a new leaf is valued: a random playout, or the logistic of ``weights`` times
        the position's features (:data:`fepaper._core.features.FEATURES`).
    stop_probability : float
        Playouts stop on a bounce with this probability (optional bounce).
    weights : dict, optional
        ``{feature: number}`` for the ``features`` evaluator (default ``{"distance": 1}``).
    max_states : int
        A node's turn walk stops after this many states (0: no limit); the node's
        children are then a sample of the turns seen and it is never proven lost.
    seed : int, numpy Generator or None

    Returns
    -------
    SearchResult
        ``turn``: a proven win if there is one, else the most visited turn not proven lost
        (ties: the better mean score); ``value``: the root's proven value for its mover (1,
        0.5, 0) or its mean score; ``nodes``: the tree's nodes; ``details``: ``iterations``,
        ``playout_steps``, ``expansions``, ``proven`` (or ``None``), ``visits`` and
        ``values`` per root turn, ``stopped``: ``"memory"`` when the tree reached
        :data:`MAX_TREE_BYTES` before the iterations asked for, else ``None``.
    """
    if game.is_over:
        raise ValueError(f"mcts: the game is over ({game.result})")
    if game.current:
        raise ValueError(f"mcts: a turn is in progress ({game.current!r})")
    if iterations is None and time_limit is None:
        raise ValueError("mcts needs iterations or a time_limit")
    if evaluator not in EVALUATORS:
        raise ValueError(f"mcts: evaluator must be one of {EVALUATORS}, got {evaluator!r}")
    def warm_up():  # every kernel a search may call, loaded before its clock starts
        mcts_search(Game(game.rules), 64, None, c, max_children, solver, evaluator, stop_probability,
                    weights, max_states, 0, chunk)
        choose_turns(Game(game.rules), 1, "random", seed=0)

    warm_once(("mcts", game.rules, evaluator), warm_up)
    start = time.perf_counter()
    b = game.board
    longest = b.n_edges + 1
    # room for what the time can fill (up to 64 nodes an expansion: some 2 to 4 million a second): a tree
    # that must grow late would end the search early
    room = tree_room(time_limit, rate=4e6)
    tree = kernel.new_tree(game.player, room, 16 * room)
    state = random_state(seed)
    w = np.array(feature_weights(weights) or (1.0, 0.0, 0.0, 0.0), np.float64) if evaluator == "features" \
        else np.zeros(0, np.float64)
    ev = Evaluator(EVALUATORS.index(evaluator), float(stop_probability), w, np.zeros(0, np.int8))
    cfg = kernel.MCTSConfig(float(c), bool(solver), int(max_children), int(max_states))
    picks = new_picks(b.n_nodes, b.n_edges, int(max_children))
    table = new_keyset(32)
    budget = new_budget(None if time_limit is None else time_limit - reserve(time_limit), 0, start)
    total = 0
    stopped = None
    while iterations is None or total < iterations:
        n = chunk if iterations is None else min(chunk, iterations - total)
        done, status, table = kernel.mcts_run(tree, game.marks, game.ball_index, len(game.history), b.arrays,
                                              game.rules.flags, cfg, ev, state, picks, table, n, budget)
        total += done
        if status in (kernel.PROVEN_ROOT, kernel.OUT_OF_BUDGET):
            break
        if status == kernel.GROW:
            if not time_to_grow(budget.deadline, tree):
                break
            if 2 * sum(a.nbytes for a in tree) > MAX_TREE_BYTES:  # a growth doubles the arrays
                stopped = "memory"
                break
            tree = kernel.grow_tree(tree, int(max_children), longest)
    t, m = tree.nodes, game.player
    first, n_children = int(t[0, kernel.FIRST]), int(t[0, kernel.NCHILD])
    children = range(first, first + max(n_children, 0))
    root_proven = int(t[0, kernel.PROVEN]) if solver else 0
    if root_proven:
        candidates = [ch for ch in children if t[ch, kernel.PROVEN] == root_proven]
    else:
        candidates = [ch for ch in children if not (solver and t[ch, kernel.PROVEN] == 3 - m)]
    candidates = candidates or list(children)

    def mean(ch):
        v = t[ch, kernel.VISITS]
        q = tree.score1[ch] / v if v else 0.5
        return q if m == 1 else 1.0 - q

    def turn(ch):
        off, length = t[ch, kernel.OFF], t[ch, kernel.LEN]
        return (tree.steps[off:off + length] + 48).tobytes().decode()

    if not candidates:  # no turn kept (a walk cut before its first turn): play one at random
        best_turn = choose_turns(game, 1, "random", seed=state)[0][0][0]
    else:
        best_turn = turn(max(candidates, key=lambda ch: (t[ch, kernel.VISITS], mean(ch))))
    proven = {m: 1.0, 3 - m: 0.0, 3: 0.5}.get(root_proven)
    root_visits = max(int(t[0, kernel.VISITS]), 1)
    value = proven if proven is not None else (tree.score1[0] / root_visits if m == 1
                                               else 1.0 - tree.score1[0] / root_visits)
    details = {"iterations": total, "playout_steps": int(tree.ctl[3]), "expansions": int(tree.ctl[4]),
               "proven": proven, "visits": {turn(ch): int(t[ch, kernel.VISITS]) for ch in children},
               "values": {turn(ch): mean(ch) for ch in children}, "stopped": stopped}
    return SearchResult(best_turn, float(value), int(tree.ctl[0]), time.perf_counter() - start, 0, details)
