"""Does each time-limited controller keep its clock? Seconds per decision against the budget.

:func:`bench_clock` times every decision (``Controller.choose_turn``, wall clock, fepaper's
own overhead included) of each controller that takes a ``time_limit``, on a seeded set of
CodinGame positions (:func:`clock_positions`): positions from seeded random games, heavy
ones (more than 100,000 distinct turns; some late positions have more than 10**8) and the
two positions of the tracker where the turn search once overran (9.6 s for 1 s) or died
of memory. It reports, per controller, the median, 99th percentile and largest decision
time as multiples of the budget, and how many decisions passed 1.1 times it, on the wall
clock and in CPU time. Nothing here is a test: the machine is shared, so the load average
is reported with the figures.
"""

from __future__ import annotations

import os
import time

import numpy as np

from ..controllers import REGISTRY, make
from ..game.game import Game
from ..play.randomplay import random_game

__all__ = ["TRACKER_POSITIONS", "CLOCK_CONTROLLERS", "BUDGETS", "clock_positions", "time_decisions",
           "bench_clock"]

#: Positions from the tracker (standard rules records), replayed under the CodinGame rules.
TRACKER_POSITIONS = (
    "2 0 3 1 7 0 5 5 31 654 3 3 0 0 3 55 5 7 2 7 447 6 1 1 2 57 46 43177 27",
    "5 6 0 7 61 1 3 6 4 2 532 2 0 3 2 7 5771 60 2 43 0 61 3 63 1 63 07 0 14 57 5312 4167545",
)

#: The controllers timed, each with every search it has that takes a time limit.
CLOCK_CONTROLLERS = (
    {"name": "turnsearch", "depth": 64},
    {"name": "minimax", "depth": 64},
    {"name": "mcts"},
    {"name": "mcts", "evaluator": "features"},
    {"name": "foo", "machine": "Watch3Ahead"},
    {"name": "greedy"},
    {"name": "alphabeta", "variant": "dynamic", "depth": 10},
    {"name": "bestfirst"},
)


def clock_positions(seed: int = 2026, ordinary: int = 16, heavy: int = 4, rules: str = "codingame",
                    heavy_turns: int = 100_000) -> list[str]:
    """Records of ``ordinary`` positions drawn from seeded random games, ``heavy`` positions
    with at least ``heavy_turns`` distinct turns (the first met, game after game), then the
    :data:`TRACKER_POSITIONS`."""
    rng = np.random.default_rng(seed)
    plain, big = [], []
    k = 0
    while len(plain) < 4 * ordinary or len(big) < heavy:
        full = random_game(rules, seed=[seed, k])
        k += 1
        for t in range(len(full.history) - (1 if full.is_over else 0)):
            record = " ".join(full.history[:t])
            n = Game(rules, record).turns().count(limit=4 * heavy_turns)
            if n < 0 or n >= heavy_turns:
                if len(big) < heavy:
                    big.append(record)
            else:
                plain.append(record)
    chosen = sorted(rng.choice(len(plain), size=ordinary, replace=False))
    return [plain[i] for i in chosen] + big + list(TRACKER_POSITIONS)


def time_decisions(spec, records: list[str], budget: float, rules: str = "codingame",
                   cpu: bool = False) -> np.ndarray:
    """Seconds of one decision of ``spec`` with ``time_limit=budget`` from each position (with
    ``cpu``: also the process's CPU seconds of each, as a second row)."""
    controller = make({**(spec if isinstance(spec, dict) else {"name": spec}), "time_limit": budget})
    controller.choose_turn(Game(rules))  # load compiled code outside the timing
    controller.choose_turn(Game(rules, records[-1]))  # and what a heavy position runs
    wall, used = [], []
    for record in records:
        game = Game(rules, record)
        start, start_cpu = time.perf_counter(), time.process_time()
        controller.choose_turn(game)
        wall.append(time.perf_counter() - start)
        used.append(time.process_time() - start_cpu)
    return np.asarray([wall, used]) if cpu else np.asarray(wall)


def _figures(seconds: np.ndarray, budget: float) -> dict:
    """The ratios decision seconds / budget: median, 99th percentile, largest, and how many of the
    decisions passed 1.1."""
    r = seconds / budget
    return {"median": float(np.median(r)), "p99": float(np.percentile(r, 99)), "max": float(r.max()),
            "over_1.1": int(np.sum(r > 1.1)), "decisions": int(r.size)}


#: The budgets timed (seconds): from the 1 ms a bot's decision can be left with (``fepaper bot --ms 5``
#: keeps 4 ms back) to 1 s.
BUDGETS = (0.001, 0.005, 0.01, 0.1, 1.0)


def bench_clock(repeat: int = 1, seed: int = 2026, budgets: tuple[float, ...] = BUDGETS,
                controllers=CLOCK_CONTROLLERS, heavy_only_above: float = 0.5, ordinary: int = 16,
                heavy: int = 4) -> dict:
    """Decision time over budget of each controller in ``controllers`` at each budget.

    Every position is decided ``repeat`` times at budgets up to ``heavy_only_above`` seconds;
    above it only the heavy and tracker positions, once (they are where a clock slips).

    Returns
    -------
    dict
        ``"<spec> @ <budget> s"``: ``{"median", "p99", "max", "over_1.1", "decisions"}``, the
        ratios decision seconds / budget over the positions (``over_1.1``: how many passed 1.1),
        on the wall clock; ``"<spec> @ <budget> s, CPU"`` the same of the process's CPU seconds
        (on a machine with more runnable processes than cores a decision waits for a core, and
        the two tell that wait from the controller's own overrun); ``positions`` (the positions
        of each budget, in words), ``load_before`` and ``load_after`` (the machine's 1-minute
        load average).
    """
    records = clock_positions(seed, ordinary, heavy)
    hard = records[ordinary:]
    every = (f"{len(records)} codingame positions: {ordinary} drawn from seeded random games with fewer "
             f"than 100,000 distinct turns, {heavy} heavy ones (at least 100,000) and the tracker's "
             f"{len(TRACKER_POSITIONS)}" + (f", {repeat} times each" if repeat > 1 else ""))
    out: dict = {"positions": {f"{b:g} s": every if b <= heavy_only_above else
                               f"the {len(hard)} heavy and tracker positions, once" for b in budgets},
                 "load_before": round(os.getloadavg()[0], 2)}
    for budget in budgets:
        chosen = records * repeat if budget <= heavy_only_above else hard
        for spec in controllers:
            label = " ".join(f"{k}={v}" for k, v in spec.items() if k != "name")
            name = spec["name"] + (f" ({label})" if label else "")
            least = REGISTRY[spec["name"]].MIN_TIME_LIMIT
            if budget < least:  # refused by the controller: nothing to time
                refused = out.setdefault("refused", {})
                refused[f"{name} @ {budget:g} s"] = f"below its least budget, {least:g} s"
                continue
            wall, used = time_decisions(spec, chosen, budget, cpu=True)
            out[f"{name} @ {budget:g} s"] = _figures(wall, budget)
            out[f"{name} @ {budget:g} s, CPU"] = _figures(used, budget)
    out["load_after"] = round(os.getloadavg()[0], 2)
    out["seed"] = seed
    return out
