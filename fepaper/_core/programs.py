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

``attack``, ``defend`` and ``centre`` depend on the ball's node and the player alone, so a
program is folded (:func:`fold`) before a search runs it at its leaves: every largest subtree
that reads no other feature (constants alone too) becomes one read of a table of its values per
player and node (``Program.tables``, opcode :data:`TABLE` plus the table's column), computed once
by :func:`run` on the subtree's own code, so a leaf reads the very floats the subtree would
compute. :func:`cost` runs the folded program (``leaf_code``): :func:`run`'s value of the whole
program, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .paths import astar_distance

__all__ = ["FEATURES", "OPERATIONS", "CONSTANT", "FEATURE", "TABLE", "NODE_TABLES", "SCALE", "Program",
           "new_program", "fold", "NO_PROGRAM", "run", "features", "cost", "evaluate", "scaled"]

FEATURES = ("attack", "defend", "free_attack", "free_defend", "mobility", "bounce", "traps", "centre")
#: The operations in opcode order, with their arities.
OPERATIONS = (("add", 2), ("sub", 2), ("mul", 2), ("div", 2), ("min", 2), ("max", 2), ("neg", 1),
              ("lt", 2), ("if_then_else", 3), ("and_", 2), ("not_", 1))
ADD, SUB, MUL, DIV, MIN, MAX, NEG, LT, IF, AND, NOT = range(len(OPERATIONS))
CONSTANT = 16
FEATURE = 32
#: A folded subtree's table (:func:`fold`): opcode ``TABLE + k`` reads table ``k`` at the ball.
TABLE = 64
#: A tree's value is rounded to a thousandth before a search compares it (searches compare integers).
SCALE = 1000.0
#: The protected division's threshold: ``div(a, b)`` is 1 when ``|b|`` is at most this.
DIV_EPSILON = 1e-6
_ATTACK, _DEFEND, _FREE_ATTACK, _FREE_DEFEND, _MOBILITY, _BOUNCE, _TRAPS, _CENTRE = range(len(FEATURES))
#: The features of the ball's node and the player alone, the first columns of a program's tables.
_NODE = (_ATTACK, _DEFEND, _CENTRE)
NODE_TABLES = len(_NODE)
_AROUND = (1 << _MOBILITY) | (1 << _BOUNCE) | (1 << _TRAPS)
_LANDINGS = (1 << _BOUNCE) | (1 << _TRAPS)
#: Per free mask of a node's eight directions: how many are free, and the lowest free one.
_FREE_COUNT = np.array([bin(f).count("1") for f in range(256)], np.int64)
_LOWEST = np.array([(f & -f).bit_length() - 1 for f in range(256)], np.int64)
#: No tables: :func:`run` reads features and constants only.
_NO_TABLES = np.zeros((1, 1, 0), np.float64)


class Program(NamedTuple):
    """A compiled tree and what evaluating it reads besides the position.

    ``code``, ``consts``: the program (length 0: no program; the search keeps its own
    evaluation); ``leaf_code``, ``tables``: the program as :func:`fold` leaves it, which
    :func:`cost` runs (``tables[player - 1, node]``: the node's features, then the folded
    subtrees' values); ``uses``: bit ``k`` set when the program reads feature ``k``; ``distance``:
    the board's distances (``BoardArrays.distance``: row 0 to the top goal, row 1 to the bottom
    one); ``values``, ``stack``: work arrays (one per feature, one per node of the program);
    ``scratch``, ``heap``: the A* work arrays. (Every array is passed along a search's recursion
    with its bundle: a field more costs every node.)
    """

    code: np.ndarray
    consts: np.ndarray
    leaf_code: np.ndarray
    tables: np.ndarray
    uses: int
    distance: np.ndarray
    values: np.ndarray
    stack: np.ndarray
    scratch: np.ndarray
    heap: np.ndarray


def _checked(code, consts) -> tuple[np.ndarray, np.ndarray]:
    code = np.ascontiguousarray(code, np.int64)
    consts = np.ascontiguousarray(consts, np.float64)
    if code.shape != consts.shape or code.ndim != 1:
        raise ValueError(f"code and consts must be two arrays of one length, got {code.shape} and "
                         f"{consts.shape}")
    return code, consts


def new_program(code: np.ndarray, consts: np.ndarray, distance: np.ndarray, centre: np.ndarray,
                folded: tuple[np.ndarray, np.ndarray] | None = None) -> Program:
    """A :class:`Program` with its work arrays (``distance`` is read, not copied; ``centre``: per
    node, columns to the middle column).

    ``folded``: :func:`fold`'s answer for this program on this board, when kept from an earlier
    call (it is computed otherwise)."""
    code, consts = _checked(code, consts)
    if folded is None:
        folded = fold(code, consts, distance, centre)
    uses = 0
    for op in code:
        if op >= FEATURE:
            uses |= 1 << int(op - FEATURE)
    n = distance.shape[1]
    return Program(code, consts, *folded, uses, distance, np.zeros(len(FEATURES), np.float64),
                   np.zeros(max(len(code), 1), np.float64), np.zeros(2 * n + 1, np.int32),
                   np.zeros(8 * n + 1, np.int64))


def _ends(code: np.ndarray) -> np.ndarray:
    """Per node of ``code`` (prefix order), where its subtree ends (exclusive)."""
    arity = {op: k for op, (_, k) in enumerate(OPERATIONS)}
    ends = np.zeros(len(code), np.int64)
    waiting: list[list[int]] = []  # per open operation: [node, arguments still to come]
    for i, op in enumerate(code.tolist()):
        if op not in arity and op != CONSTANT and not FEATURE <= op < FEATURE + len(FEATURES):
            raise ValueError(f"code: {op} at node {i} is no operation, constant or feature")
        if not waiting and i > 0:
            raise ValueError(f"code: node {i} follows a whole tree (one tree in prefix order is expected)")
        ends[i] = i + 1
        if arity.get(op, 0):
            waiting.append([i, arity[op]])
            continue
        while waiting:  # a subtree closed: it may close the operations it completes
            waiting[-1][1] -= 1
            if waiting[-1][1]:
                break
            ends[waiting.pop()[0]] = i + 1
    if waiting:
        raise ValueError(f"code: the operation at node {waiting[-1][0]} lacks arguments")
    return ends


def fold(code: np.ndarray, consts: np.ndarray, distance: np.ndarray,
         centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The program with its largest subtrees that read no feature but ``attack``, ``defend`` and
    ``centre`` read from tables: ``(leaf_code, tables)``, read-only.

    ``tables[row, node]``, for the player whose goal is distance row ``row`` (``player - 1``):
    ``attack``, ``defend``, ``centre`` (:data:`NODE_TABLES` columns), then one column per folded
    subtree, its value by :func:`run` (a subtree of constants alone: its value at every node),
    which ``leaf_code`` reads by opcode ``TABLE`` plus the column."""
    code, consts = _checked(code, consts)
    ends = _ends(code)
    moving = np.cumsum([0] + [op >= FEATURE and op - FEATURE not in _NODE for op in code.tolist()])
    n = distance.shape[1]
    node = np.zeros((2, n, NODE_TABLES), np.float64)  # the columns of _NODE, as _node_features reads them
    for row in range(2):
        node[row, :, 0] = distance[row]
        node[row, :, 1] = distance[1 - row]
        node[row, :, 2] = centre
    leaf_code: list[int] = []
    columns = [node]
    values = np.zeros(len(FEATURES), np.float64)
    stack = np.zeros(max(len(code), 1), np.float64)
    i = 0
    while i < len(code):  # prefix order: a node, then (unless folded) its arguments
        end = ends[i]
        if moving[end] > moving[i]:
            leaf_code.append(int(code[i]))
            i += 1
            continue
        column = np.zeros((2, n, 1), np.float64)
        _table(code[i:end], consts[i:end], node, values, stack, column)
        leaf_code.append(TABLE + NODE_TABLES + len(columns) - 1)
        columns.append(column)
        i = end
    folded = (np.array(leaf_code, np.int64), np.ascontiguousarray(np.concatenate(columns, axis=2)))
    for array in folded:
        array.setflags(write=False)
    return folded


def _no_program() -> Program:
    """The empty program (a search's own evaluation), its arrays of the types a board's are."""
    distance = np.zeros((2, 1), np.int32)
    distance.setflags(write=False)
    code, consts = np.zeros(0, np.int64), np.zeros(0, np.float64)
    for array in (code, consts):  # read-only as a compiled tree's: one type, one compilation
        array.setflags(write=False)
    return new_program(code, consts, distance, np.zeros(1, np.float64))


#: No program: the default of the searches' bundles, which then evaluate as they always did.
NO_PROGRAM = _no_program()


@njit(cache=True, _nrt=False)
def _interpret(code, consts, values, stack, tables, row, ball):
    """The value of the program ``code``/``consts`` with the features ``values`` and the tables
    ``tables`` read at ``row``, ``ball`` (``stack``: room for one value per node)."""
    top = 0
    for i in range(code.shape[0] - 1, -1, -1):
        op = code[i]
        if op >= FEATURE:
            if op >= TABLE:
                stack[top] = tables[row, ball, op - TABLE]
            else:
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
def run(code, consts, values, stack):
    """The value of the program ``code``/``consts`` (no tables) with the features ``values``
    (``stack``: room for one value per node)."""
    return _interpret(code, consts, values, stack, _NO_TABLES, 0, 0)


@njit(cache=True, _nrt=False)
def _node_features(values, tables, row, ball):
    """Copy the features of the node ``ball`` for the player of row ``row`` from ``tables``."""
    values[_ATTACK] = tables[row, ball, 0]
    values[_DEFEND] = tables[row, ball, 1]
    values[_CENTRE] = tables[row, ball, 2]


@njit(cache=True, _nrt=False)
def _table(code, consts, tables, values, stack, column):
    """Write into ``column[row, node, 0]`` the value of the program ``code``/``consts``, which reads
    no feature but the node's (``tables``' first columns), for each player's row and each node."""
    for row in range(2):
        for ball in range(tables.shape[1]):
            _node_features(values, tables, row, ball)
            column[row, ball, 0] = run(code, consts, values, stack)


@njit(cache=True, _nrt=False)
def features(marks, ball, player, exists, neighbour, goal, p):
    """Write into ``p.values`` the features ``p.uses`` asks for, of the ball at ``ball`` for
    ``player`` (1 attacks the top goal, code 1; 2 the bottom goal, code 2)."""
    _node_features(p.values, p.tables, player - 1, ball)
    _moving_features(marks, ball, player, exists, neighbour, goal, p)


@njit(cache=True, _nrt=False, inline="always")
def _moving_features(marks, ball, player, exists, neighbour, goal, p):
    """Write into ``p.values`` the features besides the node's that ``p.uses`` asks for."""
    values = p.values
    attack_row = player - 1
    if (p.uses >> _FREE_ATTACK) & 1:
        values[_FREE_ATTACK] = astar_distance(exists, neighbour, goal, marks, ball, player,
                                              p.distance[attack_row], p.scratch, p.heap)
    if (p.uses >> _FREE_DEFEND) & 1:
        values[_FREE_DEFEND] = astar_distance(exists, neighbour, goal, marks, ball, 3 - player,
                                              p.distance[1 - attack_row], p.scratch, p.heap)
    if p.uses & _AROUND:
        free = np.int64(exists[ball] & ~marks[ball])
        values[_MOBILITY] = _FREE_COUNT[free]
        if p.uses & _LANDINGS:
            bounce = 0
            traps = 0
            while free:
                m = neighbour[ball, _LOWEST[free]]
                free &= free - 1
                if goal[m] == 0 and marks[m] != 0:
                    bounce += 1
                    left = exists[m] & ~marks[m]
                    if left & (left - 1) == 0:  # the step itself is its only free edge
                        traps += 1
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


@njit(cache=True, _nrt=False, inline="always")
def cost(marks, ball, player, exists, neighbour, goal, p):
    """The program's cost of the ball at ``ball`` for ``player``: the folded program run on the
    features it still reads (:func:`run`'s value of the whole program, bit for bit)."""
    _moving_features(marks, ball, player, exists, neighbour, goal, p)
    # (the folded code reads its constants from the tables: ``consts`` goes unread)
    return _interpret(p.leaf_code, p.consts, p.values, p.stack, p.tables, player - 1, ball)


@njit(cache=True, _nrt=False)
def evaluate(marks, ball, player, exists, neighbour, goal, p, limit):
    """The program's cost of the ball at ``ball`` for ``player``, :func:`scaled` to ``limit``.

    A call, not written in place: inside the thesis's alpha-beta the interpreter slowed the
    distance's own leaves by a tenth, and the turn search's leaves are many call sites."""
    return scaled(cost(marks, ball, player, exists, neighbour, goal, p), limit)
