"""The thesis's alpha-beta controllers (§4.1): ``alphabeta`` with four variants.

The thesis's package ``alfaBeta`` (methods ``maxValor`` / ``minValor``) searched the
tree of *steps*; its versions were, in the thesis's order:

``"static"``
    One state per board node, created before the search; a state's minimax value is
    overwritten whenever the search passes its node again, and the turn is read off
    those stored values. The thesis names the flaw: "the minimax values of the states
    are overwritten by the execution of the algorithm due to the same nodes are
    evaluated in different times".
``"costs"``
    Static, plus "the edge's cost" added to the minimax value: every step costs 1, so
    a leaf is worth its distance plus the steps on its path (A*'s g + h; the thesis
    also tried A*).
``"nocycles"``
    Static, and the ball never lands twice on a node within one turn.
``"dynamic"``
    Children created per path: plain alpha-beta with values on the recursion; "the
    chosen version to evaluate the other controllers".

Common to all (see :mod:`fepaper._core.alphabeta`): depth is the level in turns (1 to
10), a bounce does not use up depth, at most ``max_bounces`` (15) bounces are explored
per turn, nearest-first expansion for the root player (MIN) and the reverse for MAX, and
on a bounce the search never considers stopping ("only the longest path is
considered"). So the controller never stops voluntarily after a bounce: when the line it
found ends on a bounce (only at the bounce limit, or at a dead end of ``nocycles``) it
searches again from there, as the thesis's controller is asked again while it may still
move ("this does not means that a player cannot do more movements than 15").

Examples
--------
>>> from fepaper.game import Game
>>> ab = AlphaBeta(variant="dynamic", depth=2)
>>> ab.choose_turn(Game("thesis")) in Game("thesis").turns()
True
"""

from __future__ import annotations

import time

import numpy as np

from .._core import alphabeta as kernel
from .._core.clock import CHECK_EVERY
from ..game.board import BOTTOM, TOP
from ..game.game import Game
from .base import Controller, SpecError, register

__all__ = ["AlphaBeta", "thesis_line"]

_ORDER_CACHE: dict[tuple, np.ndarray] = {}


def _order(board, row: int) -> np.ndarray:
    key = (board.rules, row)
    if key not in _ORDER_CACHE:
        _ORDER_CACHE[key] = kernel.nearest_first(board.neighbour, board.distance[row])
    return _ORDER_CACHE[key]


def thesis_line(game: Game, variant: str = "dynamic", level: int = 2, max_bounces: int = 15,
                deadline: float = 0.0, max_nodes: int = 0) -> tuple[str, int, int, bool]:
    """One search of the thesis's alpha-beta from ``game``'s position (a turn may be in
    progress: the player to move goes on).

    Returns
    -------
    line : str
        The steps the search chose within the current turn (a prefix of a turn: it ends
        the turn unless it stops at the bounce limit; empty if the search was aborted
        before the first step was searched).
    value : int
        The root value, from the player to move (MIN: smaller is better).
    nodes : int
        Steps made by the search.
    aborted : bool
        Whether the deadline or the node budget stopped the search.
    """
    if variant not in kernel.VARIANTS:
        raise ValueError(f"alphabeta: variant must be one of {kernel.VARIANTS}, got {variant!r}")
    b = game.board
    code = kernel.VARIANTS.index(variant)
    row = game.player - 1  # the distance row of the goal the player to move attacks
    target = TOP if game.player == 1 else BOTTOM
    dist = b.distance[row]
    order = _order(b, row)
    stored = dist.astype(np.int64)
    stored[b.goal == target] = 0
    stored[(b.goal != 0) & (b.goal != target)] = kernel.INFINITO
    size = (max_bounces if max_bounces >= 0 else b.n_edges) + 2
    pv = np.zeros((size, size), np.int8)
    pvlen = np.zeros(size, np.int32)
    ctl = np.array([0, 0, max_nodes, CHECK_EVERY], np.int64)
    marks = game.marks.copy()
    value = kernel.thesis_search(marks, game.ball_index, b.exists, b.neighbour, b.goal, dist, order, target,
                                 game.rules.bounce == "optional", level, max_bounces, code, stored, pv, pvlen,
                                 ctl, deadline)
    aborted = bool(ctl[1])
    if code == kernel.DYNAMIC or aborted:
        steps = pv[0, :pvlen[0]]
    else:
        out = np.zeros(b.n_edges + 1, np.int8)
        length = kernel.static_line(game.marks, game.ball_index, b.exists, b.neighbour, b.goal, order, stored,
                                    max_bounces, code == kernel.NOCYCLES, out)
        steps = out[:length]
    return "".join(str(int(d)) for d in steps), int(value), int(ctl[0]), aborted


@register
class AlphaBeta(Controller):
    """The thesis's alpha-beta over steps (one of its four versions).

    Parameters
    ----------
    variant : {"static", "costs", "nocycles", "dynamic"}
    depth : int
        The controller's level, 1 to 10: turns searched.
    max_bounces : int or None
        Bounces explored per turn (the thesis: 15); ``None`` explores all.
    seed, time_limit
        As for every controller. With a ``time_limit`` the search deepens one level at
        a time (1, 2, ..., ``depth``) and plays the line of the deepest level finished in
        time (the thesis "limited [the search] to a minute"); without one it searches
        ``depth`` at once.
    """

    name = "alphabeta"

    def __init__(self, variant: str = "dynamic", depth: int = 2, max_bounces: int | None = 15, **kw) -> None:
        super().__init__(**kw)
        if variant not in kernel.VARIANTS:
            raise SpecError(f"alphabeta: variant must be one of {list(kernel.VARIANTS)}, got {variant!r}")
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 10:
            raise SpecError(f"alphabeta: depth (the level) must be an integer from 1 to 10, got {depth!r}")
        if max_bounces is not None and (isinstance(max_bounces, bool) or not isinstance(max_bounces, int)
                                        or max_bounces < 0):
            raise SpecError(f"alphabeta: max_bounces must be a non-negative integer or None, "
                            f"got {max_bounces!r}")
        self.variant, self.depth, self.max_bounces = variant, depth, max_bounces
        self._params = {"variant": variant, "depth": depth, "max_bounces": max_bounces}

    def _line(self, game: Game, deadline: float) -> tuple[str, int]:
        """The line of the deepest search finished before ``deadline`` (0: none)."""
        bounces = -1 if self.max_bounces is None else self.max_bounces
        if deadline <= 0:
            line, _, nodes, _ = thesis_line(game, self.variant, self.depth, bounces)
            return line, nodes
        total, best = 0, ""
        for level in range(1, self.depth + 1):
            remaining = deadline - time.perf_counter()
            if remaining <= 0 and best:
                break
            if remaining <= 0:  # out of time with nothing yet: a small budget, one level
                line, _, nodes, _ = thesis_line(game, self.variant, 1, bounces, 0.0, 20_000)
                return line, total + nodes
            line, _, nodes, aborted = thesis_line(game, self.variant, level, bounces, deadline)
            total += nodes
            if not aborted or not best:
                best = line or best
            if aborted:
                break
        return best, total

    def decide(self, game: Game) -> tuple[str, int]:
        deadline = 0.0 if self.time_limit is None else time.perf_counter() + self.time_limit
        trial = game.copy()
        turns = len(trial.history)
        nodes = 0
        while len(trial.history) == turns and not trial.is_over:
            line, spent = self._line(trial, deadline)
            nodes += spent
            if not line:  # aborted before a step was searched: nearest first
                order = _order(trial.board, trial.player - 1)[trial.ball_index]
                free = trial.free_mask()
                line = str(next(int(d) for d in order if free >> int(d) & 1))
            for c in line:
                trial.step(c)
        return trial.history[turns], nodes
