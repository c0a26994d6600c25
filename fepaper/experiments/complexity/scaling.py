"""How search cost grows with depth: nodes and seconds per move, per algorithm and depth.

This is §4.1 of the Connect Four report (docs/references.md: its Table 2 and
Figures 2 and 3, nodes and time per turn of minimax and alpha-beta at depths 2 to 6)
done for paper soccer, and done again for Connect Four to set beside the report.

Paper soccer (:func:`search_scaling`), from a fixed set of positions
(:func:`fepaper.bench.search.search_positions`), one search per (algorithm, depth,
position), each stopped by a per-decision cap:

``"minimax"``
    Minimax over complete distinct turns, no pruning, no table, no ordering.
``"alphabeta-unordered"``
    Alpha-beta over complete turns in walk order, no transposition table.
``"alphabeta-ordered"``
    The same with move ordering (turns ending nearest the goal attacked first).
``"turnsearch-tt"``
    The ``turnsearch`` controller's search: ordering, a transposition table and
    iterative deepening (its nodes include the shallower iterations).
``"thesis-dynamic"``
    The thesis's dynamic alpha-beta over *steps* (:func:`fepaper.search.alphabeta.thesis_line`,
    15 bounces, level = depth); its nodes are steps made, not positions at the start
    of a turn, so its node counts are not in the same unit as the others'.

Any controller with a ``depth`` parameter can be measured the same way: an algorithm given as
its spec (``{"name": "turnsearch", "max_turns_per_node": 32}``; the depth is set at each
depth) is timed one decision (:meth:`~fepaper.controllers.base.Controller.choose_turn`) per
position and depth; it runs to its end, and a decision longer than the time cap counts as
stopped by it. Its rows are labelled with its spec's text.

Once the cap stops an algorithm at a position, it is not run deeper at that position:
"each as deep as it gets within the budget". :func:`scaling_summary` takes medians over
all positions, counting a stopped search as larger than every completed one (it ran
longer than the cap); a median that depends on a stopped search is not given, and
that is where the algorithm stops (:func:`where_stopped`).

Connect Four (:func:`connect_four_scaling`, in :mod:`fepaper.experiments.reference.connectfour` and
re-exported here) uses the reference search of :mod:`fepaper.search.reference` (pure Python, so slower
than the report's C++ by a constant) with the report's evaluation
(:class:`fepaper.games.toygames.ConnectFour`).

Examples
--------
>>> table = connect_four_scaling([1, 2], settings=("start",))
>>> table.set_index(["algorithm", "depth"]).nodes.to_dict()[("minimax", 2)]
57.0
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pandas as pd

from ..._core import turnsearch as kernel
from ..._core.bundles import new_budget
from ...controllers import SpecError, make, spec_of
from ...game.game import Game
from ...game.rules import Rules
from ...search.alphabeta import thesis_line
from ...search.turnsearch import search_turns
from ..reference.connectfour import (
    CONNECT_FOUR_ALGORITHMS,
    REPORT_TABLE_2,
    compare_with_report,
    connect_four_scaling,
)

__all__ = [
    "ALGORITHMS",
    "CONNECT_FOUR_ALGORITHMS",
    "REPORT_TABLE_2",
    "search_scaling",
    "scaling_summary",
    "where_stopped",
    "connect_four_scaling",
    "compare_with_report",
    "peak_memory_dynamic",
]

#: The paper-soccer algorithms of :func:`search_scaling`: name -> keyword arguments of
#: :func:`fepaper.search.turnsearch.search_turns` (``None``: the thesis's search).
ALGORITHMS: dict[str, dict | None] = {
    "minimax": dict(pruning=False, ordering=False, transposition=False, iterative=False),
    "alphabeta-unordered": dict(pruning=True, ordering=False, transposition=False, iterative=False),
    "alphabeta-ordered": dict(pruning=True, ordering=True, transposition=False, iterative=False),
    "thesis-dynamic": None,
    "turnsearch-tt": dict(pruning=True, ordering=True, transposition=True, iterative=True),
}

# --- paper soccer ----------------------------------------------------------------------------


def _check_algorithms(algorithms, known) -> list[str]:
    algorithms = list(algorithms)
    unknown = [a for a in algorithms if a not in known]
    if unknown:
        raise ValueError(f"unknown algorithm(s) {unknown}; expected some of {list(known)}")
    return algorithms


def _check_searches(algorithms) -> dict[str, str | dict]:
    """Label -> algorithm: a key of :data:`ALGORITHMS`, or a controller spec with a ``depth``
    (labelled with its spec's text, the depth left out)."""
    out = {}
    for a in algorithms:
        if isinstance(a, dict):
            try:  # a controller without a depth refuses one
                spec = {k: v for k, v in spec_of(make({**a, "depth": 1})).items() if k != "depth"}
            except SpecError as exc:
                raise ValueError(f"search_scaling: {exc}") from None
            out[spec["name"] if len(spec) == 1 else json.dumps(spec, sort_keys=True)] = spec
        else:
            out[_check_algorithms([a], ALGORITHMS)[0]] = a
    return out


def _check_depths(depths) -> list[int]:
    depths = sorted(set(int(d) for d in depths))
    if not depths or depths[0] < 1:
        raise ValueError(f"depths must be positive integers, got {depths}")
    return depths


def _one_search(game: Game, algorithm: str | dict, depth: int, time_cap: float | None,
                node_cap: int) -> tuple[int, float, bool, int]:
    """(nodes, seconds, completed, depth reached) of one search from ``game``."""
    if isinstance(algorithm, dict):  # a controller: one decision, run to its end
        controller = make({**algorithm, "depth": depth})
        controller.choose_turn(game)
        r = controller.last
        within = (time_cap is None or r.seconds <= time_cap) and not (node_cap and r.nodes > node_cap)
        return r.nodes, r.seconds, within, r.depth or depth
    kw = ALGORITHMS[algorithm]
    if kw is None:
        result = thesis_line(game, "dynamic", depth, 15, new_budget(time_cap, node_cap))
        return result.nodes, result.seconds, not result.details["stopped"], depth
    result = search_turns(game, depth, time_limit=time_cap, max_nodes=node_cap, **kw)
    # Iterative deepening also stops, uncapped, once it has found a forced win: that
    # search is complete although it reached fewer turns than asked.
    completed = result.depth == depth or (result.depth >= 1 and result.value > kernel.WIN - 100_000)
    return result.nodes, result.seconds, completed, result.depth


def _timed(game: Game, algorithm: str | dict, depth: int, time_cap: float | None, node_cap: int,
           repeat_below: float, repeats: int) -> tuple[int, float, bool, int]:
    """:func:`_one_search`, its time taken after warm-up: a search faster than ``repeat_below``
    seconds is run ``repeats`` more times and its time is the median of those (the nodes and
    the answer are the same every time: the searches are deterministic)."""
    nodes, seconds, completed, reached = _one_search(game, algorithm, depth, time_cap, node_cap)
    if completed and seconds < repeat_below and repeats > 0:
        seconds = float(np.median([_one_search(game, algorithm, depth, time_cap, node_cap)[1]
                                   for _ in range(repeats)]))
    return nodes, seconds, completed, reached


def _accepts(spec: dict, depth: int) -> bool:
    """Whether the controller of ``spec`` takes this depth (its parameter's range)."""
    try:
        make({**spec, "depth": depth})
    except SpecError:
        return False
    return True


def _cap_of(node_cap, algorithm: str) -> int:
    if isinstance(node_cap, dict):
        return int(node_cap.get(algorithm, node_cap.get("default", 0)))
    return int(node_cap or 0)


def search_scaling(positions, algorithms=tuple(ALGORITHMS), depths=range(1, 7),
                   time_cap: float | None = 5.0, rules="thesis", node_cap: int | dict = 0, *,
                   repeat_below: float = 0.05, repeats: int = 3, progress: bool = False) -> pd.DataFrame:
    """Nodes and seconds of one search per (algorithm, depth, position).

    Parameters
    ----------
    positions : list of str or Game
        Records (``"0 54 ..."``, e.g. from :func:`fepaper.bench.search.search_positions`)
        or games, at the start of a turn and not finished.
    algorithms : iterable of str or dict
        Keys of :data:`ALGORITHMS`, or specs of controllers that take a ``depth`` (each timed
        one decision a position and depth; it cannot be stopped, so ``time_cap`` and
        ``node_cap`` only mark a longer decision stopped and keep it from going deeper).
    depths : iterable of int
        Depths in turns (for ``"thesis-dynamic"``: its level).
    time_cap : float or None
        Seconds per decision; a search that hits it is stopped and marked not completed,
        and the algorithm is not run deeper at that position.
    rules : Rules, str or dict
        The rules of the records.
    node_cap : int or dict
        A node budget per decision (0: none), the deterministic twin of ``time_cap``: with
        it, and a time cap only as a safety net, which searches complete is the same on
        every machine and every run. A dict gives one per algorithm (``"thesis-dynamic"``
        counts steps, a smaller unit), with ``"default"`` for the others. The kernels check
        both caps every 1,024 units of work.
    repeat_below, repeats : float, int
        A search faster than ``repeat_below`` seconds is timed again ``repeats`` times and
        its time is the median of those: the first call at a position is a warm-up
        (allocations, caches), which would otherwise dominate the shallow depths.
    progress : bool
        A progress bar over positions and algorithms (:func:`fepaper.game.progress.bar`).

    Returns
    -------
    pandas.DataFrame
        One row per search run: ``algorithm``, ``depth``, ``position`` (index into
        ``positions``), ``record``, ``nodes``, ``seconds``, ``completed``, ``depth_reached``
        (less than ``depth`` when stopped, or when ``turnsearch-tt`` found a forced win),
        ``stopped_by`` (``"nodes"``, ``"time"`` or ``""``). Only ``seconds`` depends on the
        machine, and ``stopped_by == "time"`` rows, which a well-chosen node cap avoids.
    """
    from ...game.progress import bar

    searches = _check_searches(algorithms)
    depths = _check_depths(depths)
    rules = Rules.from_spec(rules)
    games = [p if isinstance(p, Game) else Game(rules, p) for p in positions]
    for g in games:
        if g.is_over or g.current:
            raise ValueError(f"search_scaling: position {g.moves!r} must be unfinished and at the "
                             "start of a turn")
    if games:  # compile (or load) the kernels outside the timing
        for search in searches.values():
            _one_search(games[0], search, 1, None, 0)
    rows = []
    with bar(len(games) * len(searches), "searches (position x algorithm)", "search",
             disable=not progress) as counter:
        for k, game in enumerate(games):
            for algorithm, search in searches.items():
                cap = _cap_of(node_cap, algorithm)
                for depth in depths:
                    if isinstance(search, dict) and not _accepts(search, depth):
                        break
                    nodes, seconds, completed, reached = _timed(game, search, depth, time_cap, cap,
                                                                repeat_below, repeats)
                    stopped_by = "" if completed else ("nodes" if cap and nodes >= cap else "time")
                    rows.append(dict(algorithm=algorithm, depth=depth, position=k, record=game.moves,
                                     nodes=int(nodes), seconds=float(seconds), completed=bool(completed),
                                     depth_reached=int(reached), stopped_by=stopped_by))
                    if not completed:
                        break
                counter.update(1)
    return pd.DataFrame(rows, columns=["algorithm", "depth", "position", "record", "nodes", "seconds",
                                       "completed", "depth_reached", "stopped_by"])


def _censored_median(values: list[float]) -> float:
    """The median when stopped searches are +inf (NaN if it depends on one)."""
    m = float(np.median(values)) if values else math.nan
    return m if math.isfinite(m) else math.nan


def scaling_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Median nodes and seconds per move, per algorithm and depth, over all positions.

    A position where the algorithm was stopped at this depth, or at a shallower one,
    counts as larger than every completed search (it ran past the cap, which every
    completed search stayed within). The median is NaN when it would depend on such a
    position, i.e. when half the positions or more were stopped. For seconds this is
    exact; for nodes it assumes the stopped search would also have needed more nodes
    (it had usually already visited more when it was stopped).

    Returns
    -------
    pandas.DataFrame
        ``algorithm``, ``depth``, ``positions``, ``completed`` (positions that finished this
        depth), ``median_nodes``, ``median_seconds``, ``max_seconds`` and ``nodes_per_second``
        (their nodes over their seconds, all together) over the completed searches.
    """
    n = table.position.nunique()
    rows = []
    for (algorithm, depth), group in table.groupby(["algorithm", "depth"], sort=False):
        done = group[group.completed]
        pad = [math.inf] * (n - len(done))
        rows.append(dict(algorithm=algorithm, depth=int(depth), positions=n, completed=len(done),
                         median_nodes=_censored_median(done.nodes.astype(float).tolist() + pad),
                         median_seconds=_censored_median(done.seconds.tolist() + pad),
                         max_seconds=float(done.seconds.max()) if len(done) else math.nan,
                         nodes_per_second=float(done.nodes.sum() / done.seconds.sum())
                         if done.seconds.sum() > 0 else math.nan))
    out = pd.DataFrame(rows)
    order = {a: i for i, a in enumerate(dict.fromkeys(table.algorithm))}
    return out.sort_values(["algorithm", "depth"], key=lambda s: s.map(order) if s.name == "algorithm" else s,
                           ignore_index=True)


def where_stopped(table: pd.DataFrame, depths=None) -> pd.DataFrame:
    """Per algorithm: how deep it got within the cap.

    Returns
    -------
    pandas.DataFrame
        ``algorithm``; ``all_completed`` (the deepest depth every position finished, 0 if
        none); ``median_to`` (the deepest depth with a median in :func:`scaling_summary`);
        ``first_stopped`` (the shallowest depth where the cap stopped some position, NaN
        if never); ``stopped_positions`` (positions stopped at some depth); ``text``.
    """
    summary = scaling_summary(table)
    depths = sorted(table.depth.unique()) if depths is None else sorted(depths)
    rows = []
    for algorithm, s in summary.groupby("algorithm", sort=False):
        s = s.set_index("depth")
        all_done = 0
        for d in depths:
            if d in s.index and s.loc[d, "completed"] == s.loc[d, "positions"]:
                all_done = d
            else:
                break
        with_median = [d for d in depths if d in s.index and not math.isnan(s.loc[d, "median_seconds"])]
        median_to = with_median[-1] if with_median else 0
        t = table[table.algorithm == algorithm]
        stopped = t[~t.completed]
        first = int(stopped.depth.min()) if len(stopped) else math.nan
        n = t.position.nunique()
        if not len(stopped):
            text = f"{algorithm}: every position completed every depth up to {depths[-1]}"
        else:
            text = (f"{algorithm}: all {n} positions completed up to depth {all_done}; first stopped "
                    f"at depth {first}; the median exists up to depth {median_to} "
                    f"({stopped.position.nunique()} of {n} positions stopped at some depth)")
        rows.append(dict(algorithm=algorithm, all_completed=all_done, median_to=median_to,
                         first_stopped=first, stopped_positions=int(stopped.position.nunique()), text=text))
    return pd.DataFrame(rows)


# --- memory ----------------------------------------------------------------------------------

_MEMORY_CHILD = r"""
import gc, json, resource, sys, time, tracemalloc
args = json.loads(sys.argv[1])
from fepaper.search.alphabeta import thesis_line
from fepaper.game import Game

def status(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024  # kB -> MB
    except OSError:
        pass
    return None

def maxrss_mb():
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / (1024 * 1024) if sys.platform == "darwin" else r / 1024

game = Game(args["rules"], args["moves"])
thesis_line(game, "dynamic", 1, args["max_bounces"])  # load the compiled kernel first
gc.collect()
before = status("VmRSS")
maxrss_before = maxrss_mb()
reset = False
try:  # Linux: "5" resets the peak RSS (VmHWM) to the current RSS
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    reset = True
except OSError:
    pass
tracemalloc.start()
start = time.perf_counter()
nodes = thesis_line(game, "dynamic", args["level"], args["max_bounces"]).nodes
seconds = time.perf_counter() - start
_, traced_peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
print(json.dumps(dict(rss_before_mb=before if before is not None else maxrss_before,
                      maxrss_before_mb=maxrss_before, maxrss_after_mb=max(maxrss_before, maxrss_mb()),
                      hwm_after_mb=status("VmHWM") if reset else None, hwm_reset=reset,
                      tracemalloc_peak_mb=traced_peak / 2**20, nodes=nodes, seconds=seconds)))
"""


def peak_memory_dynamic(game: Game | str = "", level: int = 2, rules="thesis", max_bounces: int = 15,
                        timeout: float = 600) -> dict:
    """Memory of one search of the thesis's dynamic alpha-beta, in a fresh subprocess.

    The thesis (§4.1, "Dynamic alpha-beta"): "it consumes a lot of RAM memory. With
    maximum depth 2 the memory consumed is roughly 600 MB" (Java, children created per
    path). Here the search makes and unmakes steps on one array, so it needs little.

    Parameters
    ----------
    game : Game or str
        The position (a record is read with ``rules``); default the opening.
    level : int
        The level (turns).
    max_bounces : int
        Bounces explored per turn (the thesis: 15).
    timeout : float
        Seconds before the subprocess is killed.

    Returns
    -------
    dict
        ``rss_before_mb`` (resident memory just before the search, after the kernel is
        loaded), ``maxrss_after_mb`` (``ru_maxrss``: the process's peak RSS so far),
        ``peak_minus_before_mb`` = ``maxrss_after_mb - rss_before_mb``; on Linux the peak
        is reset just before the search (``/proc/self/clear_refs``) and ``search_peak_mb``
        is the peak during the search minus ``rss_before_mb``, otherwise it equals
        ``peak_minus_before_mb`` (an upper bound: loading the kernel may have set the
        peak); ``tracemalloc_peak_mb`` (Python allocations only; the compiled kernel's own
        arrays are not traced); ``nodes``, ``seconds``, ``level``, ``moves``.
    """
    if isinstance(game, Game):
        rules, moves = game.rules.to_dict(), game.moves
    else:
        rules, moves = Rules.from_spec(rules).to_dict(), game
    args = json.dumps(dict(rules=rules, moves=moves, level=level, max_bounces=max_bounces))
    done = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, args], capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"peak_memory_dynamic: the subprocess failed:\n{done.stderr[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["peak_minus_before_mb"] = out["maxrss_after_mb"] - out["rss_before_mb"]
    hwm = out["hwm_after_mb"]
    out["search_peak_mb"] = hwm - out["rss_before_mb"] if hwm is not None else out["peak_minus_before_mb"]
    out.update(level=level, moves=moves)
    return out
