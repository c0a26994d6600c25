"""Compiled evaluation programs: an expression tree run as a stack program inside a search.

A genetic-programming evaluation (:mod:`fepaper.search.programs`) is a typed expression tree
over the features of :data:`FEATURES`. The searches never call Python for it: the tree is
compiled once into a :class:`Program`, two arrays with one entry per node in DEAP's prefix
order (``code``: an operation of :data:`OPERATIONS`, :data:`CONSTANT`, or :data:`FEATURE` plus a
feature's index; ``consts``: a constant's value), and :func:`run` evaluates it with a small
stack: read from the last node to the first, a feature or a constant is pushed, an operation
pops its arguments (the first on top) and pushes its result. A truth value is 1.0 or 0.0.

Every feature is from the point of view of the *served* player (the root player of the
thesis's alpha-beta, the player to move at a leaf of the turn search); a tree is a cost:
smaller is better for that player, as the thesis's distance is (§4.1: "the smallest is the
best"). The features (:func:`features`):

``attack``, ``defend``
    steps from the ball to the goal the player attacks, and to its own goal, over the edges
    that are not walls (the thesis's distance is ``attack``);
``free_attack``, ``free_defend``
    the same along the edges still free (the A* path distance,
    :func:`fepaper._core.paths.astar_distance`); the number of nodes when no path is left;
``mobility``
    the free steps at the ball;
``bounce``
    free steps at the ball onto an already marked field node (each lets the mover go on);
``traps``
    free steps onto a marked node with a single free edge (the step leaves it a dead end:
    whoever lands there is blocked);
``centre``
    columns between the ball and the middle column.

Features a program does not read are not computed (``Program.uses``): the A* distances cost
a search of the board each.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .paths import astar_distance

__all__ = ["FEATURES", "OPERATIONS", "CONSTANT", "FEATURE", "SCALE", "Program", "new_program", "NO_PROGRAM",
           "run", "features", "evaluate", "scaled"]

FEATURES = ("attack", "defend", "free_attack", "free_defend", "mobility", "bounce", "traps", "centre")
#: The operations in opcode order, with their arities.
OPERATIONS = (("add", 2), ("sub", 2), ("mul", 2), ("div", 2), ("min", 2), ("max", 2), ("neg", 1),
              ("lt", 2), ("if_then_else", 3), ("and_", 2), ("not_", 1))
ADD, SUB, MUL, DIV, MIN, MAX, NEG, LT, IF, AND, NOT = range(len(OPERATIONS))
CONSTANT = 16
FEATURE = 32
#: A tree's value is rounded to a thousandth before a search compares it (searches compare integers).
SCALE = 1000.0
#: The protected division's threshold: ``div(a, b)`` is 1 when ``|b|`` is at most this.
DIV_EPSILON = 1e-6
_ATTACK, _DEFEND, _FREE_ATTACK, _FREE_DEFEND, _MOBILITY, _BOUNCE, _TRAPS, _CENTRE = range(len(FEATURES))


class Program(NamedTuple):
    """A compiled tree and what evaluating it reads besides the position.

    ``code``, ``consts``: the program (length 0: no program; the search keeps its own
    evaluation); ``uses``: bit ``k`` set when the program reads feature ``k``; ``distance``:
    the board's distances (``BoardArrays.distance``: row 0 to the top goal, row 1 to the bottom
    one); ``centre``: per node, columns to the middle column; ``values``, ``stack``: work arrays
    (one per feature, one per node of the program); ``scratch``, ``heap``: the A* work arrays.
    """

    code: np.ndarray
    consts: np.ndarray
    uses: int
    distance: np.ndarray
    centre: np.ndarray
    values: np.ndarray
    stack: np.ndarray
    scratch: np.ndarray
    heap: np.ndarray


def new_program(code: np.ndarray, consts: np.ndarray, distance: np.ndarray, centre: np.ndarray) -> Program:
    """A :class:`Program` with its work arrays (``distance`` and ``centre`` are read, not copied)."""
    code = np.ascontiguousarray(code, np.int64)
    consts = np.ascontiguousarray(consts, np.float64)
    if code.shape != consts.shape or code.ndim != 1:
        raise ValueError(f"code and consts must be two arrays of one length, got {code.shape} and "
                         f"{consts.shape}")
    uses = 0
    for op in code:
        if op >= FEATURE:
            uses |= 1 << int(op - FEATURE)
    n = distance.shape[1]
    return Program(code, consts, uses, distance, centre, np.zeros(len(FEATURES), np.float64),
                   np.zeros(max(len(code), 1), np.float64), np.zeros(2 * n + 1, np.int32),
                   np.zeros(8 * n + 1, np.int64))


def _no_program() -> Program:
    """The empty program (a search's own evaluation), its arrays of the types a board's are."""
    distance = np.zeros((2, 1), np.int32)
    distance.setflags(write=False)
    centre = np.zeros(1, np.float64)
    code, consts = np.zeros(0, np.int64), np.zeros(0, np.float64)
    for array in (centre, code, consts):  # read-only as a compiled tree's: one type, one compilation
        array.setflags(write=False)
    return new_program(code, consts, distance, centre)


#: No program: the default of the searches' bundles, which then evaluate as they always did.
NO_PROGRAM = _no_program()


@njit(cache=True, _nrt=False)
def run(code, consts, values, stack):
    """The value of the program ``code``/``consts`` with the features ``values`` (``stack``:
    room for one value per node)."""
    top = 0
    for i in range(code.shape[0] - 1, -1, -1):
        op = code[i]
        if op >= FEATURE:
            stack[top] = values[op - FEATURE]
            top += 1
            continue
        if op == CONSTANT:
            stack[top] = consts[i]
            top += 1
            continue
        a = stack[top - 1]
        if op == NEG:
            stack[top - 1] = -a
            continue
        if op == NOT:
            stack[top - 1] = 0.0 if a != 0.0 else 1.0
            continue
        b = stack[top - 2]
        if op == IF:
            stack[top - 3] = b if a != 0.0 else stack[top - 3]
            top -= 2
            continue
        if op == ADD:
            r = a + b
        elif op == SUB:
            r = a - b
        elif op == MUL:
            r = a * b
        elif op == DIV:
            r = a / b if abs(b) > DIV_EPSILON else 1.0
        elif op == MIN:
            r = b if b < a else a
        elif op == MAX:
            r = b if b > a else a
        elif op == LT:
            r = 1.0 if a < b else 0.0
        else:  # AND
            r = 1.0 if (a != 0.0 and b != 0.0) else 0.0
        stack[top - 2] = r
        top -= 1
    return stack[0]


@njit(cache=True, _nrt=False)
def features(marks, ball, player, exists, neighbour, goal, p):
    """Write into ``p.values`` the features ``p.uses`` asks for, of the ball at ``ball`` for
    ``player`` (1 attacks the top goal, code 1; 2 the bottom goal, code 2)."""
    values = p.values
    attack_row = player - 1
    values[_ATTACK] = p.distance[attack_row, ball]
    values[_DEFEND] = p.distance[1 - attack_row, ball]
    values[_CENTRE] = p.centre[ball]
    if (p.uses >> _FREE_ATTACK) & 1:
        values[_FREE_ATTACK] = astar_distance(exists, neighbour, goal, marks, ball, player,
                                              p.distance[attack_row], p.scratch, p.heap)
    if (p.uses >> _FREE_DEFEND) & 1:
        values[_FREE_DEFEND] = astar_distance(exists, neighbour, goal, marks, ball, 3 - player,
                                              p.distance[1 - attack_row], p.scratch, p.heap)
    if (p.uses >> _MOBILITY) & 1 or (p.uses >> _BOUNCE) & 1 or (p.uses >> _TRAPS) & 1:
        free = exists[ball] & ~marks[ball]
        mobility = 0
        bounce = 0
        traps = 0
        for d in range(8):
            if (free >> d) & 1:
                mobility += 1
                m = neighbour[ball, d]
                if goal[m] == 0 and marks[m] != 0:
                    bounce += 1
                    left = exists[m] & ~marks[m]
                    if left & (left - 1) == 0:  # the step itself is its only free edge
                        traps += 1
        values[_MOBILITY] = mobility
        values[_BOUNCE] = bounce
        values[_TRAPS] = traps


@njit(cache=True, _nrt=False)
def scaled(value, limit):
    """``value`` in thousandths, rounded, within ``[-limit, limit]`` (NaN: 0)."""
    if value != value:
        return np.int64(0)
    v = value * SCALE
    if v > limit:
        return np.int64(limit)
    if v < -limit:
        return np.int64(-limit)
    return np.int64(np.round(v))


@njit(cache=True, _nrt=False)
def evaluate(marks, ball, player, exists, neighbour, goal, p, limit):
    """The program's cost of the ball at ``ball`` for ``player``, :func:`scaled` to ``limit``."""
    features(marks, ball, player, exists, neighbour, goal, p)
    return scaled(run(p.code, p.consts, p.values, p.stack), limit)
