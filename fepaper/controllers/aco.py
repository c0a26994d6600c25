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

from dataclasses import dataclass

import numpy as np

from .._core.ants import SYSTEMS, Colony, run_colony
from ..game import Game
from ..search.result import SearchResult
from .base import Controller, register
from .params import Bool, Choice, Float, Int

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


def _for_variants(*variants: str):
    return lambda v: v["variant"] in variants


_FER = _for_variants("ferdist", "ferdistrival")


@dataclass(frozen=True)
class ColonyRun:
    """One colony's work for one position: pheromone per edge and the last iteration's paths."""

    tau: np.ndarray
    steps: int
    arrived: int
    paths: list[list[int]]  # node indices, ball first, of the last iteration's ants
    reached: list[bool]  # whether each of those ants reached the goal


@register
class AntColony(Controller):
    """A controller that lets a colony of ants find the way to the opponent's goal.

    The thesis calls these *Hormigas* (``variant="base"``), *FerDist* and
    *FerDistRival*. Every parameter is a spec field with the thesis's value as its
    default (:data:`THESIS_DEFAULTS`); the fields that do not apply to a variant or a
    system are refused.

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
    D = THESIS_DEFAULTS
    PARAMS = (
        Choice("variant", "base", VARIANTS, doc="which pheromone deposit"),
        Choice("system", "as", SYSTEMS, doc="Ant System, MAX-MIN or rank-based"),
        Bool("once_per_cycle", False, doc="update the decision tables once per cycle"),
        Int("n_ants", D["n_ants"], 1, 10_000, gene=(4, 120), doc="ants per cycle"),
        Int("iterations", D["iterations"], 1, 10_000, gene=(1, 30), doc="cycles"),
        Float("alpha", D["alpha"], 0.0, 20.0, gene=(0.0, 3.0), doc="pheromone exponent"),
        Float("beta", D["beta"], 0.0, 20.0, gene=(0.0, 3.0), doc="cost exponent"),
        Float("rho", D["rho"], 0.0, 1.0, open_low=True, gene=(0.05, 0.95), doc="evaporation"),
        Float("heuristic", D["heuristic"], 0.0, 1e6, gene=(0.0, 3.0),
              doc="strength of the distance heuristic"),
        Float("turn_cost", D["turn_cost"], 1.0, 1e6, doc="cost of a step that ends the turn"),
        Float("w_cost", D["w_cost"], 0.0, 1e6, gene=(0.0, 2.0), applies=_FER,
              doc="deposit weight of 1 / cost"),
        Float("w_dist", D["w_dist"], 0.0, 1e6, gene=(0.0, 30.0), applies=_FER,
              doc="deposit weight of 1 / distance to the opponent's goal"),
        Float("w_rival", D["w_rival"], 0.0, 1e6, gene=(0.0, 5.0), applies=_for_variants("ferdistrival"),
              doc="deposit weight of cost x distance to one's own goal"),
        Float("tolerance", D["tolerance"], 0.0, 1e6, gene=(0.0, 1.0), applies=_FER,
              doc="stop after a bounce when going on loses this much"),
        Int("rank_w", D["rank_w"], 2, 1000, gene=(2, 20), applies=lambda v: v["system"] == "rank",
            doc="weight of the best-so-far ant (rank system)"),
        Float("tau_ratio", D["tau_ratio"], 0.0, 1.0, open_low=True, open_high=True, gene=(0.001, 0.5),
              applies=lambda v: v["system"] == "mmas", doc="lower pheromone bound over the upper (MAX-MIN)"),
    )
    del D

    def setup(self) -> None:
        fields = VARIANT_FIELDS[self.variant] + _SYSTEM_FIELDS[self.system]
        self.params = {k: self._values[k] for k in fields}

    # -- the colony ---------------------------------------------------------------------
    def colony(self) -> Colony:
        """The kernel's :class:`~fepaper._core.ants.Colony` of these parameters."""
        p = self.params
        w_cost, w_dist, w_rival = (1.0, 0.0, 0.0) if self.variant == "base" else (
            p["w_cost"], p["w_dist"], p.get("w_rival", 0.0))
        return Colony(p["n_ants"], p["iterations"], p["alpha"], p["beta"], p["rho"], p["heuristic"],
                      p["turn_cost"], w_cost, w_dist, w_rival, SYSTEMS.index(self.system),
                      self.once_per_cycle, int(p.get("rank_w", 2)), float(p.get("tau_ratio", 0.5)))

    def walk(self, game: Game, seed: int | None = None) -> ColonyRun:
        """Run the colony from ``game``'s ball for the player to move.

        ``seed`` seeds the ants (default: a draw from the controller's generator).
        """
        if seed is None:
            seed = int(self.rng.integers(2**31 - 1))
        tau, steps, arrived, nodes, _dirs, lengths, states = run_colony(
            game.marks, game.board.arrays, game.ball_index, game.player, self.colony(), seed)
        paths = [nodes[a, : lengths[a] + 1].tolist() for a in range(len(lengths))]
        return ColonyRun(tau, int(steps), int(arrived), paths, [bool(s == 1) for s in states])

    def decide(self, game: Game) -> SearchResult:
        run = self.walk(game)
        steps = follow_pheromone(game, run.tau, self.params.get("tolerance"))
        return SearchResult(steps, None, run.steps, 0.0, 0, {"arrived": run.arrived})


# -- from pheromone to a turn ------------------------------------------------------------
def _pick(board, marks, n: int, player: int, tau, flags, bouncing: bool) -> int | None:
    """The step to take from ``n``: into the opponent's goal if it is there, else the free edge
    with most pheromone, nearest the goal on ties, avoiding one's own goal and a dead end
    where the mover would be blocked. ``None``: stop."""
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
        elif (flags.dead_end_blocked and not board.goal[m] and marks[m]
              and not int(board.exists[m]) & ~int(marks[m]) & ~(1 << ((d + 4) & 7))):
            bad = 1  # a dead end: the mover is blocked there
        else:
            bad = 0
        key = (bad, -float(tau[board.edge_index[n, d]]), int(d_opp[m]), d)
        if best_key is None or key < best_key:
            best, best_key = d, key
    if best is None or (bouncing and flags.optional and best_key[0] > 0):
        return None
    return best


def _follow(board, marks, n: int, player: int, tau, flags, tolerance: float | None,
            bouncing: bool) -> tuple[list[int], int, str]:
    """Follow the pheromone from ``n`` to the end of the turn; ``marks`` is changed.

    Returns the steps, the end node and how the turn ends: "end", "stop", "goal",
    "own goal" or "dead end" (a bounce with no way on).
    """
    steps: list[int] = []
    d_opp = board.distance[player - 1]
    while True:
        d = _pick(board, marks, n, player, tau, flags, bouncing or bool(steps))
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
        if flags.optional and tolerance is not None:
            _, end, how = _follow(board, marks.copy(), m, player, tau, flags, None, True)
            if how == "own goal" or (how in ("end", "stop") and d_opp[end] > (1 + tolerance) * d_opp[m]):
                return steps, m, "stop"


def follow_pheromone(game: Game, tau: np.ndarray, tolerance: float | None = None) -> str:
    """The turn that follows the edges with most pheromone from ``game``'s ball.

    From the ball, step along the free edge with most pheromone (ties: nearer the
    opponent's goal, then the lower direction) while the landing is a bounce; a
    step into the opponent's goal is taken whenever one is free. A
    step into one's own goal is taken only when nothing else is left, and so is a
    landing on a dead end where the player would be blocked. Under
    optional bounce the turn stops when every way on is such a step, and with a
    ``tolerance`` also when going on is unfavourable (see :class:`AntColony`).
    The result is always a legal turn.
    """
    steps, _, _ = _follow(game.board, game.marks.copy(), game.ball_index, game.player, tau, game.rules.flags,
                          tolerance, False)
    return "".join(map(str, steps))
