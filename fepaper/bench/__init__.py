"""Benchmarks: speed figures measured in one run, printed as per-second rates and ratios.

Each benchmark is a function returning a dict of figures; ``fepaper bench NAME``
prints it (``--json`` prints the dict as one JSON object, ``--save`` writes it with the
machine to ``docs/bench/NAME.json``: :mod:`fepaper.bench.record`). Nothing here is a
test: the machine is shared and noisy, so every figure is a median, over the positions of
a stated class (each position's own figure a median over repeats), never a total that one
slow position decides. Each command runs in about two minutes or less on two cores.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["BENCHMARKS", "run"]


def _turns(**kwargs) -> dict:
    from .turns import bench_turns

    return bench_turns(**kwargs)


def _search(repeat: int = 3, rules="thesis") -> dict:
    """Alpha-beta nodes/s and thesis alpha-beta seconds per decision, MCTS iterations/s and
    random-playout steps/s, and best-first expansions/s and turn distances/s (node by node and
    on the bit grid) on the CodinGame rules whatever ``rules`` (``fepaper bench search``)."""
    from .playout import bench_playouts
    from .search import bench_bestfirst, bench_search, bench_turn_distances

    return {**bench_search(repeat=repeat, rules=rules), **bench_playouts(repeat=repeat, rules=rules),
            **bench_bestfirst(repeat=max(1, repeat // 2)), **bench_turn_distances(repeat=repeat)}


def _aco(repeat: int = 3, rules="thesis") -> dict:
    """Ant colony milliseconds per decision and GA seconds per generation (``fepaper bench aco``)."""
    from .aco import bench_aco

    return bench_aco(repeat=repeat, rules=rules)


def _clock(repeat: int = 1) -> dict:
    """Seconds per decision over the budget of each time-limited controller (``fepaper bench clock``)."""
    from .clock import bench_clock

    return bench_clock(repeat=repeat)


def _interop(repeat: int = 7, rules="thesis") -> dict:
    """Random-play steps/s through OpenSpiel, PettingZoo and fepaper's Game, and the ratios
    (``fepaper bench interop``; needs the interop extra)."""
    from .interop import bench_interop

    return bench_interop(repeat=repeat, rules=rules)


def _aboyne(repeat: int = 3) -> dict:
    """Aboyne's move generator and the reference searches on it (``fepaper bench aboyne``)."""
    from .aboyne import bench_aboyne

    return bench_aboyne(repeat=repeat)


def _solve(repeat: int = 1) -> dict:
    """The exact solver's positions/s, its speed over the reference minimax, and df-pn against alpha-beta on
    the same boards (``fepaper bench solve``)."""
    from .solve import bench_solve

    return bench_solve(repeat=repeat)


def _duels(repeat: int = 1, rules="thesis") -> dict:
    """The thesis-scale duel's games per second with one worker and with every core, and the
    speed-up (``fepaper bench duels``)."""
    from .duels import bench_duels

    return bench_duels(repeat=repeat, rules=rules)


def _programs(repeat: int = 3, tree: str | None = None) -> dict:
    """Nodes/s of the thesis's alpha-beta and the turn search with an evaluation tree and with the
    hand-written distance, and the ratios (``fepaper bench programs [--tree TREE]``)."""
    from .programs import bench_programs

    return bench_programs(repeat=repeat, tree=tree)


def _listing(repeat: int = 3, depth: int = 3, reference: str | None = None) -> dict:
    """Seconds of the complete-turn search to each depth up to ``depth`` on 10 CodinGame positions,
    and a reference engine's from a CSV beside them (``fepaper bench listing [--reference CSV]``)."""
    from .listing import bench_listing

    return bench_listing(repeat=repeat, max_depth=depth, reference=reference)


BENCHMARKS: dict[str, Callable[..., dict]] = {"turns": _turns, "search": _search, "aco": _aco,
                                              "clock": _clock, "interop": _interop, "aboyne": _aboyne,
                                              "solve": _solve, "duels": _duels, "programs": _programs,
                                              "listing": _listing}


def run(name: str, **kwargs) -> dict:
    if name not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {name!r}; expected one of {sorted(BENCHMARKS)}")
    return BENCHMARKS[name](**kwargs)
