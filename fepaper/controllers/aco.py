"""Ant colony optimisation: :class:`AntColony`, registered as ``"aco"``.

The thesis's ant colonies (the base colony and the two that deposit by distance,
each optionally updating the decision tables once per cycle) and, beyond the
thesis, the MAX-MIN and rank-based Ant Systems it names as future work. Each
decision runs a colony from the ball (the compiled walks of
:mod:`fepaper._core.ants`) and then plays the turn that follows the edges with
most pheromone.

Examples
--------
>>> from fepaper.controllers import make
>>> from fepaper.game import Game
>>> colony = make({"name": "aco", "variant": "ferdist", "n_ants": 10, "iterations": 3, "seed": 1})
>>> colony.choose_turn(Game("thesis")) in Game("thesis").turns()
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.ants import SYSTEMS, run_colony
from ..game.game import Game
from .base import Controller, SpecError, register

__all__ = ["AntColony", "ColonyRun", "VARIANTS", "THESIS_DEFAULTS", "VARIANT_FIELDS", "follow_pheromone"]

VARIANTS = ("base", "ferdist", "ferdistrival")

#: The thesis's values (§4.2); ``turn_cost``, ``rank_w`` and ``tau_ratio`` are this library's.
THESIS_DEFAULTS: dict[str, float] = {
    "n_ants": 87, "iterations": 15, "alpha": 1.15, "beta": 0.87, "rho": 0.4, "heuristic": 0.87,
    "turn_cost": 2.0, "w_cost": 0.4, "w_dist": 10.0, "w_rival": 2.0, "tolerance": 0.1,
    "rank_w": 6, "tau_ratio": 0.05,
}

_COMMON = ("n_ants", "iterations", "alpha", "beta", "rho", "heuristic", "turn_cost")
#: The numeric fields each variant accepts (the system adds ``tau_ratio`` or ``rank_w``).
VARIANT_FIELDS: dict[str, tuple[str, ...]] = {
    "base": _COMMON,
    "ferdist": _COMMON + ("w_cost", "w_dist", "tolerance"),
    "ferdistrival": _COMMON + ("w_cost", "w_dist", "w_rival", "tolerance"),
}
_SYSTEM_FIELDS = {"as": (), "mmas": ("tau_ratio",), "rank": ("rank_w",)}
_INTEGER = {"n_ants": (1, 10_000), "iterations": (1, 10_000), "rank_w": (2, 1000)}
# (low, high, low inclusive, high inclusive)
_REAL = {
    "alpha": (0.0, 20.0, True, True), "beta": (0.0, 20.0, True, True), "rho": (0.0, 1.0, False, True),
    "heuristic": (0.0, 1e6, True, True), "turn_cost": (1.0, 1e6, True, True),
    "w_cost": (0.0, 1e6, True, True), "w_dist": (0.0, 1e6, True, True), "w_rival": (0.0, 1e6, True, True),
    "tolerance": (0.0, 1e6, True, True), "tau_ratio": (0.0, 1.0, False, False),
}


@dataclass(frozen=True)
class ColonyRun:
    """One colony's work for one position: pheromone per edge and the last iteration's paths."""

    tau: np.ndarray
    steps: int
    arrived: int
    paths: list[list[int]]  # node indices, ball first, of the last iteration's ants
    reached: list[bool]  # whether each of those ants reached the goal


def _check(name: str, value: Any) -> float | int:
    if name in _INTEGER:
        lo, hi = _INTEGER[name]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
            raise SpecError(f"aco: {name} must be an integer in [{lo}, {hi}], got {value!r}")
        return int(value)
    lo, hi, lo_in, hi_in = _REAL[name]
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    ok = ok and math.isfinite(value) and (lo <= value if lo_in else lo < value)
    ok = ok and (value <= hi if hi_in else value < hi)
    if not ok:
        interval = f"{'[' if lo_in else '('}{lo:g}, {hi:g}{']' if hi_in else ')'}"
        raise SpecError(f"aco: {name} must be a number in {interval}, got {value!r}")
    return float(value)


@register
class AntColony(Controller):
    """A controller that lets a colony of ants find the way to the opponent's goal.

    The thesis calls these *Hormigas* (``variant="base"``), *FerDist* and
    *FerDistRival*. Every parameter is a spec field; a field left ``None`` takes
    the thesis's value (:data:`THESIS_DEFAULTS`).

    Parameters
    ----------
    variant : {"base", "ferdist", "ferdistrival"}
        The pheromone each step deposits: ``1 / cost`` (base);
        ``w_cost / cost + w_dist / d_opp`` (ferdist); plus ``w_rival * cost * d_own``
        (ferdistrival), with ``d_opp``/``d_own`` the landing node's distance to the
        opponent's/own goal. The two ``fer*`` variants also have a ``tolerance``.
    system : {"as", "mmas", "rank"}
        ``"as"``: the thesis's Ant System (every ant deposits on the way and on the
        way back; the best ant goes back twice). ``"mmas"``: MAX-MIN Ant System
        (only the iteration's best ant deposits, on the way back; pheromone clamped
        to ``[tau_ratio * tau_max, tau_max]``, ``tau_max`` = its largest step deposit
        over ``rho``). ``"rank"``: rank-based Ant System (the ``rank_w - 1`` best
        ants of the iteration deposit with weights ``rank_w - 1 .. 1``, the best ant
        so far with weight ``rank_w``).
    once_per_cycle : bool
        Update the decision tables at the start of each cycle (ants see only the
        pheromone after the last evaporation) instead of after every ant's move
        (ants see this cycle's deposits at once). Moot for ``mmas`` and ``rank``,
        whose ants deposit only after the cycle.
    n_ants, iterations, alpha, beta, rho, heuristic : numbers
        Colony size, cycles, pheromone and cost exponents of the decision tables,
        evaporation, and the strength of the distance heuristic.
    turn_cost : float
        Cost of a step that ends the turn (lands on an unmarked node); a bounce or
        a goal costs 1.
    w_cost, w_dist, w_rival, tolerance : float
        Deposit weights and the tolerance of the ``fer*`` variants: after a bounce
        (optional bounce) the controller stops instead of going on when the rest
        of the turn would leave the ball more than ``tolerance`` (relative) farther
        from the opponent's goal than here, or in its own goal.
    rank_w, tau_ratio : number
        Of the ``rank`` and ``mmas`` systems.
    seed, time_limit
        As for every controller; the colony's work is fixed by its size, so
        ``time_limit`` is only recorded.
    """

    name = "aco"

    def __init__(self, variant: str = "base", system: str = "as", once_per_cycle: bool = False,
                 n_ants: int | None = None, iterations: int | None = None, alpha: float | None = None,
                 beta: float | None = None, rho: float | None = None, heuristic: float | None = None,
                 turn_cost: float | None = None, w_cost: float | None = None, w_dist: float | None = None,
                 w_rival: float | None = None, tolerance: float | None = None, rank_w: int | None = None,
                 tau_ratio: float | None = None, **kw) -> None:
        super().__init__(**kw)
        if variant not in VARIANTS:
            raise SpecError(f"aco: variant must be one of {VARIANTS}, got {variant!r}")
        if system not in SYSTEMS:
            raise SpecError(f"aco: system must be one of {SYSTEMS}, got {system!r}")
        if not isinstance(once_per_cycle, bool):
            raise SpecError(f"aco: once_per_cycle must be true or false, got {once_per_cycle!r}")
        given = {"n_ants": n_ants, "iterations": iterations, "alpha": alpha, "beta": beta, "rho": rho,
                 "heuristic": heuristic, "turn_cost": turn_cost, "w_cost": w_cost, "w_dist": w_dist,
                 "w_rival": w_rival, "tolerance": tolerance, "rank_w": rank_w, "tau_ratio": tau_ratio}
        fields = VARIANT_FIELDS[variant] + _SYSTEM_FIELDS[system]
        stray = sorted(k for k, v in given.items() if v is not None and k not in fields)
        if stray:
            raise SpecError(f"aco: {stray} do not apply to variant {variant!r} with system {system!r}; "
                            f"its fields are {list(fields)}")
        self.variant, self.system, self.once_per_cycle = variant, system, once_per_cycle
        self.params = {k: _check(k, THESIS_DEFAULTS[k] if given[k] is None else given[k]) for k in fields}
        self._params = {"variant": variant, "system": system, "once_per_cycle": once_per_cycle,
                        **self.params}

    # -- the colony ---------------------------------------------------------------------
    def _weights(self) -> tuple[float, float, float]:
        p = self.params
        if self.variant == "base":
            return 1.0, 0.0, 0.0
        return p["w_cost"], p["w_dist"], p.get("w_rival", 0.0)

    def walk(self, game: Game, seed: int | None = None) -> ColonyRun:
        """Run the colony from ``game``'s ball for the player to move.

        ``seed`` seeds the ants (default: a draw from the controller's generator).
        """
        b, p = game.board, game.player
        if seed is None:
            seed = int(self.rng.integers(2**31 - 1))
        q = self.params
        w_cost, w_dist, w_rival = self._weights()
        tau, steps, arrived, nodes, _dirs, lengths, states = run_colony(
            game.marks, b.exists, b.neighbour, b.edge_index, b.goal, b.distance[p - 1], b.distance[2 - p],
            game.ball_index, p, 3 - p, q["n_ants"], q["iterations"], q["alpha"], q["beta"], q["rho"],
            q["heuristic"], q["turn_cost"], w_cost, w_dist, w_rival, SYSTEMS.index(self.system),
            self.once_per_cycle, int(q.get("rank_w", 2)), float(q.get("tau_ratio", 0.5)), seed,
        )
        paths = [nodes[a, : lengths[a] + 1].tolist() for a in range(len(lengths))]
        return ColonyRun(tau, int(steps), int(arrived), paths, [bool(s == 1) for s in states])

    def decide(self, game: Game) -> tuple[str, int]:
        run = self.walk(game)
        steps = follow_pheromone(game, run.tau, self.params.get("tolerance"))
        return steps, run.steps


# -- from pheromone to a turn ------------------------------------------------------------
def _pick(board, marks, n: int, player: int, tau, optional: bool, bouncing: bool) -> int | None:
    """The step to take from ``n``: into the opponent's goal if it is there, else the free edge
    with most pheromone, nearest the goal on ties, avoiding one's own goal and (mandatory
    bounce) a landing with no way on. ``None``: stop."""
    best, best_key = None, None
    d_opp = board.distance[player - 1]
    free = int(board.exists[n] & ~marks[n])
    for d in range(8):
        if not free >> d & 1:
            continue
        m = int(board.neighbour[n, d])
        if board.goal[m] == player:
            bad = -1  # where every ant's path ends: take it rather than trust the trail's sums
        elif board.goal[m] == 3 - player:
            bad = 2
        elif (not optional and not board.goal[m] and marks[m]
              and not int(board.exists[m]) & ~int(marks[m]) & ~(1 << ((d + 4) & 7))):
            bad = 1  # blocked after a mandatory bounce: a loss
        else:
            bad = 0
        key = (bad, -float(tau[board.edge_index[n, d]]), int(d_opp[m]), d)
        if best_key is None or key < best_key:
            best, best_key = d, key
    if best is None or (bouncing and optional and best_key[0] > 0):
        return None
    return best


def _follow(board, marks, n: int, player: int, tau, optional: bool, tolerance: float | None,
            bouncing: bool) -> tuple[list[int], int, str]:
    """Follow the pheromone from ``n`` to the end of the turn; ``marks`` is changed.

    Returns the steps, the end node and how the turn ends: "end", "stop", "goal",
    "own goal" or "dead end" (a bounce with no way on).
    """
    steps: list[int] = []
    d_opp = board.distance[player - 1]
    while True:
        d = _pick(board, marks, n, player, tau, optional, bouncing or bool(steps))
        if d is None:
            return steps, n, "stop"
        m = int(board.neighbour[n, d])
        was_marked = marks[m] != 0
        marks[n] |= np.uint8(1 << d)
        marks[m] |= np.uint8(1 << ((d + 4) & 7))
        steps.append(d)
        n = m
        if board.goal[m]:
            return steps, m, "goal" if board.goal[m] == player else "own goal"
        if not was_marked:
            return steps, m, "end"
        if not int(board.exists[m]) & ~int(marks[m]):
            return steps, m, "dead end"
        if optional and tolerance is not None:
            _, end, how = _follow(board, marks.copy(), m, player, tau, optional, None, True)
            if how == "own goal" or (how in ("end", "stop") and d_opp[end] > (1 + tolerance) * d_opp[m]):
                return steps, m, "stop"


def follow_pheromone(game: Game, tau: np.ndarray, tolerance: float | None = None) -> str:
    """The turn that follows the edges with most pheromone from ``game``'s ball.

    From the ball, step along the free edge with most pheromone (ties: nearer the
    opponent's goal, then the lower direction) while the landing is a bounce; a
    step into the opponent's goal is taken whenever one is free. A
    step into one's own goal is taken only when nothing else is left; under
    mandatory bounce, so is a landing that would leave the player blocked. Under
    optional bounce the turn stops when every way on is such a step, and with a
    ``tolerance`` also when going on is unfavourable (see :class:`AntColony`).
    The result is always a legal turn.
    """
    optional = game.rules.bounce == "optional"
    steps, _, _ = _follow(game.board, game.marks.copy(), game.ball_index, game.player, tau, optional,
                          tolerance, False)
    return "".join(map(str, steps))
