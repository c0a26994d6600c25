"""Compile the kernels a first use calls, once, into numba's cache (``fepaper warm-up``).

fepaper's kernels are compiled by numba on their first call and cached on disk beside the
package (``cache=True``), so the compiler runs once per installation, not once per process.
:func:`warm_up` makes that first call for what a user starts with: perft and the turn counts
(exact and estimated), the exact solver (alpha-beta, and df-pn with its certificate), and a small
decision by every controller family in every one of its choices (variants, evaluators, systems,
orders) on the kick-off of each rules preset it plays. The research measurements (branching
sequences, search shapes, fitting value networks, the benchmarks) compile on their own first run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

from ..game import Game
from ..game.counts import estimate_turns
from ..game.rules import PRESETS
from ..search.perft import perft
from ..search.solve import solve
from .base import REGISTRY, make

__all__ = ["warm_up", "warm_specs"]


def warm_specs() -> Iterator[dict]:
    """One spec per controller family and per value of each of its choices, the others at their
    defaults (or at the first value of another choice where it applies, as ``costs`` applies to
    the alpha-beta's ``costs`` variant), shrunk by the family's ``WARM`` to a small decision."""
    for name, cls in sorted(REGISTRY.items()):
        if cls.WARM is None:
            continue
        base = {"name": name, **cls.WARM}
        yield base  # the defaults
        choices = [p for p in cls.PARAMS if p.kind == "choice"]
        defaults = make(base)._values
        settings = [{}] + [{q.name: v} for q in choices for v in q.choices if v != q.default]
        for p in choices:
            for value in p.choices:
                where = next((s for s in settings if p.applies is None or p.applies({**defaults, **s})), None)
                if value != p.default and where is not None:
                    yield {**base, **where, p.name: value}


def _game_steps(rules: str) -> list[tuple[str, Callable[[], str | None]]]:
    game = Game(rules)
    return [(f"perft, {rules}", lambda: _quietly(perft, game, 2)),
            (f"count, {rules}", lambda: _quietly(game.turns().tally)),
            (f"estimate, {rules}", lambda: _quietly(estimate_turns, game, samples=8))]


def _quietly(call, *args, **kwargs) -> None:
    call(*args, **kwargs)


def warm_up(out: Callable[[str], None] = print) -> float:
    """Run every first call of the module docstring; ``out`` gets one line per part with its
    seconds. Returns the total seconds (a few when the cache is warm; minutes the first time)."""
    steps = [step for rules in PRESETS for step in _game_steps(rules)]
    tiny = Game({"width": 2, "height": 4})
    steps.append(("solve, a 2 x 4 board", lambda: _quietly(solve, tiny, seconds=60)))
    steps.append(("solve by df-pn with its certificate, a 2 x 4 board",
                  lambda: _quietly(solve, tiny, seconds=60, method="dfpn", proof=True)))
    for spec in warm_specs():
        controller = make(spec)
        for rules in PRESETS:
            steps.append((f"{json.dumps(spec)}, {rules}", lambda c=controller, r=rules: _decide(c, r)))
    total = 0.0
    for what, call in steps:
        start = time.perf_counter()
        skipped = call()
        seconds = time.perf_counter() - start
        total += seconds
        out(f"{seconds:7.2f} s  {what}" + (f" (not on these rules: {skipped})" if skipped else ""))
    return total


def _decide(controller, rules: str) -> str | None:
    """One decision from the kick-off; the reason when the controller does not play ``rules``."""
    try:
        controller.decide(Game(rules))
    except ValueError as exc:  # a value network fitted on another board's size
        return str(exc)
    return None
