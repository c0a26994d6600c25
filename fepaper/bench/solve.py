"""Benchmark of the exact solver: positions per second, its speed over the reference minimax, and
df-pn beside alpha-beta.

Two fixed boards, one run each (``repeat`` runs, the median): the kick-off of 4 x 4 (optional
bounce, no middle line), a solve of a few hundred thousand positions, gives the solver's rate;
the kick-off of 2 x 2 (mandatory bounce, no middle line), small enough for plain minimax over
:class:`~fepaper.search.reference.state.TurnState` to search to the end in seconds, gives the ratio of the
two on the same board (both find the same value and the same winning first turns, checked).

**df-pn against alpha-beta** (:data:`VERSUS_BOARDS`: the table's boards that alpha-beta solves in
under about 10 s here): per board, each method's seconds and nodes to the value and every winning
first turn (the same, checked), and the ratios alpha-beta / df-pn; the figures are the medians over
the boards. The two count nodes differently (alpha-beta a turn applied, df-pn a position searched,
docs/interpretation.md entry 170), so the seconds are the comparison and the nodes a rate each.

**The cluster's speed-up** (:func:`bench_cluster`): the leaf-job solve
(:mod:`fepaper.experiments.complexity.jobsolve`) of :data:`CLUSTER_BOARD` on a dask
``LocalCluster`` of one worker process, then of two, with the processor time the workers got (on a
shared machine a second worker speeds the solve up only if the machine has a core to give it).
"""

from __future__ import annotations

import os
import time
from statistics import median

from ..game.game import Game
from ..search.reference import SearchStats, minimax
from ..search.reference.state import TurnState
from ..search.solve import solve

__all__ = ["RATE_BOARD", "RATIO_BOARD", "VERSUS_BOARDS", "CLUSTER_BOARD", "bench_solve", "bench_dfpn",
           "bench_cluster"]

RATE_BOARD = {"width": 4, "height": 4, "middle_line": False, "bounce": "optional"}
RATIO_BOARD = {"width": 2, "height": 2, "middle_line": False, "bounce": "mandatory"}
VERSUS_BOARDS = (
    {"width": 2, "height": 6, "middle_line": True, "bounce": "optional"},
    {"width": 2, "height": 6, "middle_line": False, "bounce": "optional"},
    {"width": 4, "height": 4, "middle_line": False, "bounce": "optional"},
    {"width": 4, "height": 4, "middle_line": False, "bounce": "optional", "dead_end": "stop"},
    {"width": 4, "height": 4, "middle_line": False, "bounce": "mandatory"},
)


#: The board of the cluster's speed-up: a solve of about a million df-pn nodes in leaf jobs, a hundred
#: jobs or more (a board solved by a few jobs leaves a worker idle, or proven by the first job sent).
CLUSTER_BOARD = {"width": 6, "height": 6, "middle_line": False, "bounce": "optional", "dead_end": "stop"}


def _cpu_seconds(client) -> float:
    """The processor seconds the workers of ``client`` have used."""
    return sum(client.run(time.process_time).values())


def bench_cluster(workers=(1, 2), board=CLUSTER_BOARD, job_nodes: int | None = None) -> dict:
    """The leaf-job solve of ``board`` on a dask ``LocalCluster`` of 1 and of 2 worker processes (one
    thread each, two jobs in flight per worker): per run its seconds, jobs, nodes, the processor
    seconds its workers got and the load average of the machine before it; the speed-up (seconds
    with the fewest workers over seconds with each) and the throughput's (nodes a second). On a
    machine others load, the processor seconds the workers got a second of the run say how much of
    a speed-up the cores allowed."""
    import distributed

    from ..experiments.complexity.jobsolve import JOB_NODES, job_solve, leaf_job

    job_nodes = job_nodes or JOB_NODES
    runs = {}
    for n in workers:
        cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        with cluster, distributed.Client(cluster) as client:
            client.run(leaf_job, RATIO_BOARD, "", 10, 1.0)  # load the kernels on every worker
            load, cpu = os.getloadavg()[0], _cpu_seconds(client)
            run = job_solve(board, client.get_executor(), job_nodes=job_nodes, memory_gb=1.0, in_flight=2 * n)
            cpu = _cpu_seconds(client) - cpu
        runs[n] = {"seconds": run["seconds"], "jobs": run["jobs"], "nodes": run["nodes"],
                   "value": run["value"], "worker_cpu_seconds": cpu, "cores_used": cpu / run["seconds"],
                   "load_before": load}
    first = runs[workers[0]]
    rate = {n: r["nodes"] / r["seconds"] for n, r in runs.items()}
    return {"cluster_board": str(board), "cluster_job_nodes": job_nodes, "cluster": runs,
            "cluster_speedup": {n: first["seconds"] / r["seconds"] for n, r in runs.items()},
            "cluster_nodes_per_s_speedup": {n: rate[n] / rate[workers[0]] for n in runs}}


def _solve_seconds(rules, repeat: int, method: str = "alphabeta"):
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = solve(Game(rules), table_bits=22, method=method)
        runs.append((time.perf_counter() - start, result))
    runs.sort(key=lambda r: r[0])
    return runs[len(runs) // 2]


def bench_dfpn(repeat: int = 1, boards=VERSUS_BOARDS) -> dict:
    """df-pn and alpha-beta on each of ``boards`` (a table of 2 ** 22 slots each): per board the
    seconds and nodes of each, and the medians over the boards of the ratios alpha-beta / df-pn
    and of each method's nodes per second."""
    solve(Game(RATIO_BOARD), table_bits=4, method="dfpn")  # load the kernels
    per_board = {}
    for rules in boards:
        ab_s, ab = _solve_seconds(rules, repeat)
        pn_s, pn = _solve_seconds(rules, repeat, "dfpn")
        if (ab.value, sorted(ab.details["best"])) != (pn.value, sorted(pn.details["best"])):
            raise AssertionError(f"df-pn and alpha-beta disagree on {rules}")
        per_board[str(rules)] = {"value": pn.value, "alphabeta_seconds": ab_s, "alphabeta_nodes": ab.nodes,
                                 "dfpn_seconds": pn_s, "dfpn_nodes": pn.nodes}
    rows = per_board.values()
    return {
        "versus_boards": f"{len(per_board)} boards alpha-beta solves in seconds", "versus": per_board,
        "alphabeta_over_dfpn_seconds": median(r["alphabeta_seconds"] / r["dfpn_seconds"] for r in rows),
        "alphabeta_over_dfpn_nodes": median(r["alphabeta_nodes"] / r["dfpn_nodes"] for r in rows),
        "alphabeta_nodes_per_s": median(r["alphabeta_nodes"] / r["alphabeta_seconds"] for r in rows),
        "dfpn_nodes_per_s": median(r["dfpn_nodes"] / r["dfpn_seconds"] for r in rows),
    }


def bench_solve(repeat: int = 1) -> dict:
    """The solver's positions/s on :data:`RATE_BOARD`; its seconds and the reference minimax's on
    :data:`RATIO_BOARD`, and their ratio (solver positions visited are fewer: alpha-beta and the
    table prune what minimax visits)."""
    solve(Game({"width": 2, "height": 2, "bounce": "mandatory"}), table_bits=4)  # load the kernels
    rate_s, rate = _solve_seconds(RATE_BOARD, repeat)
    small_s, small = _solve_seconds(RATIO_BOARD, repeat)
    state = TurnState(Game(RATIO_BOARD))
    stats = SearchStats()
    start = time.perf_counter()
    ref = minimax(state, None, 0, lambda s, p: s.returns()[p], stats=stats)
    ref_s = time.perf_counter() - start
    if (ref.value, sorted(ref.details["best"])) != (small.value, sorted(small.details["best"])):
        raise AssertionError(f"the solver and minimax disagree on {RATIO_BOARD}")
    return {
        "rate_board": str(RATE_BOARD), "rate_board_value": rate.value, "rate_board_positions": rate.nodes,
        "rate_board_seconds": rate_s, "solver_positions_per_s": rate.nodes / rate_s,
        "ratio_board": str(RATIO_BOARD), "solver_seconds": small_s, "solver_positions": small.nodes,
        "minimax_seconds": ref_s, "minimax_positions": stats.nodes,
        "minimax_positions_per_s": stats.nodes / ref_s, "seconds_ratio": ref_s / small_s,
        "positions_per_s_ratio": (rate.nodes / rate_s) / (stats.nodes / ref_s), "repeat": repeat,
        **bench_dfpn(repeat), **bench_cluster(),
    }
