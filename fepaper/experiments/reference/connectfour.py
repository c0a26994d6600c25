"""Connect Four searched as the Connect Four report did, to set its Table 2 beside fepaper's numbers.

The Connect Four report (Clascà Ramírez and Ferrer Sagarra, 2022; ``docs/references.md``)
measured, §4.1, the nodes and milliseconds per turn of minimax and alpha-beta at depths 2
to 6 (its Table 2). :func:`connect_four_scaling` repeats the measurement with the reference
search of :mod:`fepaper.search.reference` (pure Python) and the report's evaluation
(:class:`fepaper.games.toygames.ConnectFour`); :func:`compare_with_report` sets the two side by
side. The report's minimax counts more "nodes" than a full 7-wide tree holds, so it counts
something else: :func:`node_definitions` counts the candidates (:data:`DEFINITIONS`) on the
positions of the report's games and :func:`definition_verdicts` says which reproduces its table
(docs/interpretation.md, entry 135). :func:`search_memory` measures what one search holds. The
paper-soccer half of the measurement is :mod:`fepaper.experiments.complexity.scaling`.

Examples
--------
>>> table = connect_four_scaling([1, 2], settings=("start",))
>>> table.set_index(["algorithm", "depth"]).nodes.to_dict()[("minimax", 2)]
57.0
"""

from __future__ import annotations

import math
import time
import tracemalloc

import numpy as np
import pandas as pd

from ...games.toygames import ConnectFour
from ...play.states import play_state
from ...search.reference import SearchStats, alphabeta, evaluation_order, minimax

__all__ = [
    "CONNECT_FOUR_ALGORITHMS",
    "REPORT_TABLE_2",
    "DEFINITIONS",
    "DEFINITION_FACTOR",
    "connect_four_scaling",
    "compare_with_report",
    "report_game",
    "search_counts",
    "node_definitions",
    "full_tree",
    "definition_verdicts",
    "search_memory",
]

CONNECT_FOUR_ALGORITHMS = ("minimax", "alphabeta-unordered", "alphabeta-ordered")

#: Table 2 of the Connect Four report (§4.1, "Comparison between MiniMax and
#: Alpha beta"), QUOTED FROM THE REPORT for comparison only: per turn, averaged over the
#: turns of one game "when playing against each other" at each depth, C++ on the authors'
#: machine. Alpha Beta there orders children by their evaluation. ``None``: "When using a
#: depth of 6, MiniMax was not able to end".
REPORT_TABLE_2 = pd.DataFrame(
    [
        ("minimax", 2, 1.23882, 45), ("alphabeta-ordered", 2, 1.11335, 42),
        ("minimax", 3, 8.81459, 518), ("alphabeta-ordered", 3, 6.70318, 213),
        ("minimax", 4, 119.105, 7799), ("alphabeta-ordered", 4, 44.9473, 1686),
        ("minimax", 5, 836.713, 51878), ("alphabeta-ordered", 5, 223.231, 5810),
        ("minimax", 6, None, None), ("alphabeta-ordered", 6, 493.205, 15776),
    ],
    columns=["algorithm", "depth", "ms_per_turn", "nodes_per_turn"],
)


def _check(algorithms, depths) -> tuple[list[str], list[int]]:
    algorithms = list(algorithms)
    unknown = [a for a in algorithms if a not in CONNECT_FOUR_ALGORITHMS]
    if unknown:
        raise ValueError(f"unknown algorithm(s) {unknown}; expected some of {list(CONNECT_FOUR_ALGORITHMS)}")
    depths = sorted(set(int(d) for d in depths))
    if not depths or depths[0] < 1:
        raise ValueError(f"depths must be positive integers, got {depths}")
    return algorithms, depths


class _Capped(Exception):
    """Raised from inside a reference search when its time is up."""


def _capped_evaluate(deadline: float, stats: SearchStats | None = None, node_cap: int = 0):
    def evaluate(state, player):
        if deadline and time.perf_counter() > deadline:
            raise _Capped
        if node_cap and stats is not None and stats.nodes > node_cap:
            raise _Capped
        return state.evaluate(player)

    return evaluate


def _c4_search(state: ConnectFour, algorithm: str, depth: int,
               time_cap: float | None, node_cap: int = 0) -> tuple[int, float, bool, list]:
    """(nodes, seconds, completed, best actions) of one reference search for the side to move."""
    stats = SearchStats()
    start = time.perf_counter()
    evaluate = _capped_evaluate(0.0 if time_cap is None else start + time_cap, stats, node_cap)
    player = state.current_player()
    try:
        if algorithm == "minimax":
            best = minimax(state, depth, player, evaluate, stats=stats).details["best"]
        elif algorithm == "alphabeta-unordered":
            best = alphabeta(state, depth, player, evaluate, stats=stats).details["best"]
        else:
            best = alphabeta(state, depth, player, evaluate, order=evaluation_order(evaluate),
                             stats=stats).details["best"]
    except _Capped:
        return stats.nodes, time.perf_counter() - start, False, []
    return stats.nodes, time.perf_counter() - start, True, best


class _Side:
    """One side of the report's game: each of its ``algorithms`` searches every position (those
    stopped by a cap are left out from then on, in ``capped``; the others' counts go to ``samples``)
    and the side plays the first completed search's first best move, or ordered alpha-beta's."""

    def __init__(self, algorithms, depth: int, time_cap, node_cap: int, samples: dict, capped: set):
        self.algorithms, self.depth, self.time_cap, self.node_cap = algorithms, depth, time_cap, node_cap
        self.samples, self.capped = samples, capped

    def choose_action(self, state: ConnectFour):
        move = None
        for algorithm in self.algorithms:
            if algorithm in self.capped:
                continue
            nodes, seconds, completed, best = _c4_search(state, algorithm, self.depth, self.time_cap,
                                                         self.node_cap)
            if completed:
                self.samples[algorithm].append((nodes, seconds))
                move = best[0] if move is None else move
            else:
                self.capped.add(algorithm)
        if move is None:
            move = _c4_search(state, "alphabeta-ordered", self.depth, None)[3][0]
        return move


def connect_four_scaling(depths, algorithms=CONNECT_FOUR_ALGORITHMS, time_cap: float | None = None,
                         settings=("start", "game"), node_cap: int = 0) -> pd.DataFrame:
    """Nodes and time per turn of the reference searches on Connect Four, per depth.

    ``"start"``: one search from the empty board. ``"game"``: as the report measured its
    Table 2, "how they were performing in a game ... when playing against each other":
    at each depth, one game between minimax (x, first to move; the report does not say
    who started) and alpha-beta with evaluation ordering (o); each engine's nodes and
    time are averaged over its own turns. Alpha-beta without ordering is measured on
    alpha-beta's turns (the same positions as the ordered one). Both engines play the
    first of the best actions, which :func:`fepaper.search.reference.alphabeta` gives exactly as
    :func:`fepaper.search.reference.minimax` does, so the game is the same whoever plays it; when
    an engine is stopped by the cap, the ordered alpha-beta (uncapped) plays for it.

    Parameters
    ----------
    depths : iterable of int
        Plies.
    algorithms : iterable of str
        Some of :data:`CONNECT_FOUR_ALGORITHMS`.
    time_cap : float or None
        Seconds per turn; a search that passes it is abandoned, the algorithm is marked
        not completed at that depth (its turns after that are not measured) and is not
        run deeper in that setting.
    settings : iterable of {"start", "game"}
    node_cap : int
        States per turn (0: none), the deterministic twin of ``time_cap``: a search that
        visits more is abandoned as one past the time cap is.

    Returns
    -------
    pandas.DataFrame
        ``setting``, ``algorithm``, ``depth``, ``turns`` (searches measured),
        ``nodes`` and ``seconds`` (mean per turn; nodes count every state visited, the
        root included, as :class:`fepaper.search.SearchStats` does), ``ms`` (the same in
        milliseconds), ``completed``.
    """
    algorithms, depths = _check(algorithms, depths)
    for algorithm in algorithms:  # a warm-up: the first search of a process pays for Python's caches
        _c4_search(ConnectFour(), algorithm, 1, None)
    bad = [s for s in settings if s not in ("start", "game")]
    if bad:
        raise ValueError(f"settings must be some of ('start', 'game'), got {bad}")
    rows = []

    def add(setting, algorithm, depth, samples, completed):
        nodes = float(np.mean([s[0] for s in samples])) if samples else math.nan
        seconds = float(np.mean([s[1] for s in samples])) if samples else math.nan
        rows.append(dict(setting=setting, algorithm=algorithm, depth=depth, turns=len(samples), nodes=nodes,
                         seconds=seconds, ms=seconds * 1000, completed=completed))

    if "start" in settings:
        for algorithm in algorithms:
            for depth in depths:
                nodes, seconds, completed, _ = _c4_search(ConnectFour(), algorithm, depth, time_cap, node_cap)
                add("start", algorithm, depth, [(nodes, seconds)] if completed else [], completed)
                if not completed:
                    break
    if "game" in settings:
        sides = {0: [a for a in algorithms if a == "minimax"],
                 1: [a for a in algorithms if a != "minimax"]}
        running = set(algorithms)
        for depth in depths:
            samples = {a: [] for a in running}
            capped = set()
            side = {p: _Side([a for a in sides[p] if a in running], depth, time_cap, node_cap, samples,
                             capped) for p in (0, 1)}
            play_state(ConnectFour(), side)
            for algorithm in algorithms:
                if algorithm in running:
                    add("game", algorithm, depth, samples[algorithm], algorithm not in capped)
            running -= capped
    return pd.DataFrame(rows, columns=["setting", "algorithm", "depth", "turns", "nodes", "seconds", "ms",
                                       "completed"])


def compare_with_report(table: pd.DataFrame, setting: str = "game") -> pd.DataFrame:
    """The Connect Four report's Table 2 beside this library's numbers from :func:`connect_four_scaling`.

    Returns
    -------
    pandas.DataFrame
        Per (algorithm, depth) of either table: ``report_ms``, ``report_nodes`` (the report's,
        quoted), ``ours_ms``, ``ours_nodes`` (mean per turn, ``setting`` rows; NaN where not
        completed), and ``nodes_ratio`` = ours / the report's.
    """
    ours = table[(table.setting == setting) & table.completed][["algorithm", "depth", "ms", "nodes"]]
    ours = ours.rename(columns={"ms": "ours_ms", "nodes": "ours_nodes"})
    quoted = REPORT_TABLE_2.rename(columns={"ms_per_turn": "report_ms", "nodes_per_turn": "report_nodes"})
    out = quoted.merge(ours, on=["algorithm", "depth"], how="outer")
    out["nodes_ratio"] = out.ours_nodes / out.report_nodes
    return out.sort_values(["depth", "algorithm"], ignore_index=True)


# --- what the report counted as a node ------------------------------------------------------

#: The candidate readings of the report's "nodes per turn", each counted per search
#: (docs/interpretation.md, entry 135).
DEFINITIONS = {
    "visited": "states visited, the root included (fepaper's count)",
    "visited, no root": "states visited, the root left out",
    "children": "children generated: every child of every expanded state, pruned ones included (its vector "
    "or multimap holds them all before the first is searched)",
    "children and root": "children generated, and the root",
    "evaluations": "calls of the evaluation: the leaves, and the children alpha-beta scores to order them",
    "one level more": "states visited by a search one ply deeper (a wrapper doing the first level, then a "
    "search of the full depth from every child)",
    "running total": "states visited, with a counter never reset between turns: the mean of its running "
    "total",
}
#: A definition reproduces the report's table when each of its node counts is within this factor.
DEFINITION_FACTOR = 2.0


class _Counted:
    """A Connect Four state that counts, in ``tally``, the children listed at every expanded state and
    the evaluations; the searches see it as the state it wraps."""

    def __init__(self, inner: ConnectFour, tally: dict):
        self.inner, self.tally = inner, tally

    def current_player(self) -> int:
        return self.inner.current_player()

    def legal_actions(self) -> list[int]:
        actions = self.inner.legal_actions()
        self.tally["children"] += len(actions)
        return actions

    def apply_action(self, action: int) -> None:
        self.inner.apply_action(action)

    def clone(self) -> _Counted:
        return _Counted(self.inner.clone(), self.tally)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    def evaluate(self, player: int) -> float:
        self.tally["evaluations"] += 1
        return self.inner.evaluate(player)

    def __repr__(self) -> str:
        return repr(self.inner)


def _search(state, algorithm: str, depth: int, stats: SearchStats):
    player = state.current_player()
    if algorithm == "minimax":
        return minimax(state, depth, player, stats=stats)
    order = evaluation_order() if algorithm == "alphabeta-ordered" else None
    return alphabeta(state, depth, player, order=order, stats=stats)


def search_counts(state: ConnectFour, algorithm: str, depth: int) -> dict[str, int]:
    """The counts of one search (``algorithm``: one of :data:`CONNECT_FOUR_ALGORITHMS`) from ``state`` under
    every definition of :data:`DEFINITIONS` but the running total."""
    tally = {"children": 0, "evaluations": 0}
    stats = SearchStats()
    _search(_Counted(state, tally), algorithm, depth, stats)
    deeper = SearchStats()
    _search(state, algorithm, depth + 1, deeper)
    return {
        "visited": stats.nodes,
        "visited, no root": stats.nodes - 1,
        "children": tally["children"],
        "children and root": tally["children"] + 1,
        "evaluations": tally["evaluations"],
        "one level more": deeper.nodes,
    }


def report_game(depth: int) -> list[ConnectFour]:
    """The positions of the report's game at ``depth``, as :func:`connect_four_scaling` plays it:
    minimax (x) against ordered alpha-beta (o), each playing the first of its best moves. Both return
    the same best moves, so ordered alpha-beta, the cheaper, picks them for both sides."""
    positions = []
    ordered = _Ordered(depth)
    play_state(ConnectFour(), {0: ordered, 1: ordered}, before=lambda state: positions.append(state.clone()))
    return positions


class _Ordered:
    """Ordered alpha-beta at ``depth``, playing the first of its best moves."""

    def __init__(self, depth: int):
        self.depth = depth

    def choose_action(self, state: ConnectFour):
        return _search(state, "alphabeta-ordered", self.depth, SearchStats()).details["best"][0]


def node_definitions(depths) -> pd.DataFrame:
    """Every definition of :data:`DEFINITIONS` counted on the report's games (:func:`report_game`):
    minimax on x's turns, ordered alpha-beta on o's, at each depth where the report gives a count.

    Returns
    -------
    pandas.DataFrame
        ``algorithm``, ``depth``, ``definition``, ``turns``, ``nodes`` (the mean per turn) and
        ``report_nodes`` (quoted), ``ratio`` = nodes / the report's.
    """
    quoted = REPORT_TABLE_2.dropna().set_index(["algorithm", "depth"]).nodes_per_turn
    rows = []
    for depth in sorted(set(int(d) for d in depths)):
        positions = report_game(depth)
        for side, algorithm in enumerate(("minimax", "alphabeta-ordered")):
            if (algorithm, depth) not in quoted.index:
                continue
            per_turn = pd.DataFrame([search_counts(p, algorithm, depth) for p in positions[side::2]])
            means = per_turn.mean().to_dict()
            means["running total"] = float(per_turn["visited"].cumsum().mean())
            for definition in DEFINITIONS:
                rows.append({"algorithm": algorithm, "depth": depth, "definition": definition,
                             "turns": len(per_turn), "nodes": float(means[definition]),
                             "report_nodes": float(quoted[(algorithm, depth)])})
    out = pd.DataFrame(rows, columns=["algorithm", "depth", "definition", "turns", "nodes", "report_nodes"])
    out["ratio"] = out.nodes / out.report_nodes
    return out


def full_tree(depth: int, definition: str, width: int = 7) -> float:
    """The largest count a minimax search of ``depth`` can give under ``definition`` (a tree where
    every state has ``width`` moves and no game ends); NaN for the running total, which grows with
    the game."""
    visited = sum(width**k for k in range(depth + 1))
    return {
        "visited": visited,
        "visited, no root": visited - 1,
        "children": visited - 1,
        "children and root": visited,
        "evaluations": width**depth,
        "one level more": visited + width ** (depth + 1),
    }.get(definition, math.nan)


def definition_verdicts(counts: pd.DataFrame, factor: float = DEFINITION_FACTOR) -> pd.DataFrame:
    """Per definition of :func:`node_definitions`: the smallest and largest ratio to the report's
    counts, the counts within ``factor``, the depths where the report's minimax exceeds the largest
    count the definition allows (:func:`full_tree`), and the verdict: ``reproduces`` when every count is
    within ``factor`` of the report's and no count of the report's minimax exceeds what the definition
    allows, else ``ruled out``."""
    rows = []
    for definition, part in counts.groupby("definition", sort=False):
        within = (part.ratio >= 1 / factor) & (part.ratio <= factor)
        mm = part[part.algorithm == "minimax"]
        over = [int(r.depth) for r in mm.itertuples() if r.report_nodes > full_tree(int(r.depth), definition)]
        rows.append({"definition": definition, "means": DEFINITIONS[definition], "counts": len(part),
                     "within_factor": int(within.sum()), "min_ratio": part.ratio.min(),
                     "max_ratio": part.ratio.max(), "report_above_any_tree_at": over,
                     "verdict": "reproduces" if within.all() and len(part) and not over else "ruled out"})
    return pd.DataFrame(rows)


def search_memory(depth: int, algorithm: str = "minimax") -> dict:
    """The Python memory one reference search from the empty board allocates at its peak
    (``tracemalloc``), with its states visited and seconds (``tracemalloc`` slows it)."""
    tracemalloc.start()
    try:
        stats = SearchStats()
        start = time.perf_counter()
        _search(ConnectFour(), algorithm, depth, stats)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {"algorithm": algorithm, "depth": depth, "nodes": stats.nodes, "seconds": seconds,
            "peak_kb": peak / 1024}
