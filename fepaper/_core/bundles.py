"""The named bundles every kernel takes: board arrays, rule flags, budgets, walks, buffers.

A kernel never takes a board, a game or a rules object: it takes these named tuples of
plain arrays and numbers, which numba types once (a named tuple of read-only arrays is
one type however many boards there are). They are made in one place each:

* :class:`BoardArrays` by :attr:`fepaper.game.Board.arrays` (read-only, once per board);
* :class:`RuleFlags` by :attr:`fepaper.game.Rules.flags`: the only way a rule reaches a kernel;
* :class:`Budget` by :func:`new_budget`: nodes, time and the cut-off of a search or a walk;
* :class:`Walk`, :class:`TurnBuffer` by :func:`~fepaper._core.turns.new_walk` and
  :func:`new_turn_buffer`.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from . import interrupt

__all__ = ["BoardArrays", "RuleFlags", "Budget", "Walk", "TurnBuffer", "new_budget", "new_turn_buffer",
           "RUNNING", "DONE", "CAPPED", "OUT_OF_BUDGET"]

# The status of a walk (``Walk.ctl[1]``).
RUNNING, DONE, CAPPED, OUT_OF_BUDGET = 0, 1, 2, 3


class BoardArrays(NamedTuple):
    """The arrays of a board, derived once from its networkx graph (all read-only).

    ``exists[n]``: bitmask of the directions in which node ``n`` has an edge;
    ``neighbour[n, d]``, ``edge_index[n, d]``: the node and edge one step away (-1: none);
    ``goal[n]``: 0, or the goal code (1 top, 2 bottom); ``edge_keys``, ``node_keys``:
    Zobrist keys; ``distance[r, n]``: steps from ``n`` to the top (r = 0) or bottom (r = 1)
    goal over the edges that are not walls; ``initial_marks[n]``: the walls at ``n``.
    """

    exists: np.ndarray
    neighbour: np.ndarray
    edge_index: np.ndarray
    goal: np.ndarray
    edge_keys: np.ndarray
    node_keys: np.ndarray
    distance: np.ndarray
    initial_marks: np.ndarray


class RuleFlags(NamedTuple):
    """The rules as a kernel reads them (made by :attr:`fepaper.game.Rules.flags` only).

    ``optional``: a player who lands on a marked node may stop there;
    ``dead_end_blocked``: a player whose step lands on a marked node with no free edge is
    blocked there (always under mandatory bounce; under optional bounce when
    ``dead_end == "blocked"``), rather than stopping and leaving the opponent blocked;
    ``blocked_loss``: a blocked player loses (else the game is drawn);
    ``max_turns``: turns after which the game is drawn (0: no limit).
    """

    optional: bool
    dead_end_blocked: bool
    blocked_loss: bool
    max_turns: int


class Budget(NamedTuple):
    """What a search or a walk may spend, and what it spent.

    ``ctl`` is an int64 array ``[work, stopped, max nodes (0: none), next clock check,
    nodes]``; ``deadline`` a :func:`time.perf_counter` value after which work stops (<= 0:
    none). Work counts search nodes and walk states alike (kernels call
    :func:`fepaper._core.clock.tick` once per unit and stop when ``ctl[1]`` is set); ``nodes``
    counts only the search nodes, which is what a search reports and what the node cap (a
    deterministic budget) limits.
    """

    ctl: np.ndarray
    deadline: float


def new_budget(seconds: float | None = None, max_nodes: int = 0, start: float | None = None) -> Budget:
    """A budget of ``seconds`` from ``start`` (default: now) and ``max_nodes`` search nodes (0: none)."""
    if seconds is not None and not (isinstance(seconds, (int, float)) and math.isfinite(seconds)
                                    and seconds > 0):
        raise ValueError(f"seconds must be a positive finite number or None, got {seconds!r}")
    if max_nodes < 0:
        raise ValueError(f"max_nodes must be >= 0, got {max_nodes!r}")
    from .clock import CHECK_EVERY

    interrupt.arm()  # a notebook's kernel may have put Python's own handler back (see interrupt)
    deadline = 0.0 if seconds is None else (time.perf_counter() if start is None else start) + seconds
    return Budget(np.array([0, 0, int(max_nodes), CHECK_EVERY, 0], np.int64), float(deadline))


class Walk(NamedTuple):
    """The resumable state of a walk over the distinct turns of a position.

    Per level of the step tree: the node, the next direction to try, the direction taken
    and the key of the marks made this turn; ``ctl`` is ``[depth, status]`` with status
    :data:`RUNNING`, :data:`DONE`, :data:`CAPPED` (passed its cap of states) or
    :data:`OUT_OF_BUDGET`. ``used[0]`` counts the states in the walk's key set.
    """

    node: np.ndarray
    nextdir: np.ndarray
    taken: np.ndarray
    keys: np.ndarray
    ctl: np.ndarray
    used: np.ndarray


class TurnBuffer(NamedTuple):
    """Turns written by a walk: the steps of turn ``i`` are
    ``steps[offsets[i]:offsets[i + 1]]``, how it ends ``kinds[i]``, where ``ends[i]``."""

    steps: np.ndarray
    offsets: np.ndarray
    kinds: np.ndarray
    ends: np.ndarray


def new_turn_buffer(turns: int, steps: int) -> TurnBuffer:
    """Room for ``turns`` turns of ``steps`` steps in all."""
    return TurnBuffer(np.zeros(steps, np.int8), np.zeros(turns + 1, np.int64), np.zeros(turns, np.int8),
                      np.zeros(turns, np.int32))
