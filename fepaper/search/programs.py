"""Evaluations as typed expression trees (genetic programming), read from text and compiled.

The thesis's future work opens with it: "a genetic programming controller was begun, but it
cannot be finished" (§6). Its alpha-beta evaluates a leaf by hand, "the distance to the
opponent's goal" (§4.1); here a leaf's evaluation is an expression tree of DEAP's strongly
typed genetic programming (:data:`PSET`, a ``deap.gp.PrimitiveSetTyped``) over the features of
:mod:`fepaper._core.programs` (``attack``, ``defend``, ``free_attack``, ``free_defend``,
``mobility``, ``bounce``, ``traps``, ``centre``, all for the player the search serves). A tree is
a *cost*: smaller is better, as the distance is; the thesis's evaluation is the tree
:data:`DISTANCE` (``attack``).

Two types: numbers (``float``) and truth values (``bool``). The primitives, each the same in
Python (:func:`python_evaluation`, DEAP's ``gp.compile``) and in the compiled stack program
(:func:`fepaper._core.programs.run`):

``add``, ``sub``, ``mul``, ``min``, ``max``, ``neg``
    on numbers;
``div``
    protected division: 1 when the divisor is within 1e-6 of 0;
``lt``
    ``a < b``, a truth value; ``and_``, ``not_`` on truth values; ``True``, ``False``;
``if_then_else(c, a, b)``
    ``a`` when ``c``, else ``b``.

A tree's text is DEAP's (``str(tree)``): ``sub(attack, mul(0.5, bounce))``; :func:`parse_tree`
reads it back and names what is wrong in a malformed one (:class:`TreeError`).
:func:`program_for` compiles a tree for a board into the :class:`~fepaper._core.programs.Program`
the searches run.

Examples
--------
>>> tree = parse_tree("sub(attack, mul(0.5, bounce))")
>>> str(tree), tree.height
('sub(attack, mul(0.5, bounce))', 2)
>>> python_evaluation(tree)(7, 9, 7, 9, 3, 2, 0, 1)
6.0
>>> parse_tree("add(attack)")
Traceback (most recent call last):
...
fepaper.search.programs.TreeError: tree 'add(attack)': add takes 2 arguments, got 1
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

import numpy as np
from deap import gp

from .._core import programs as kernel
from ..game import Rules
from ..game.board import Board

__all__ = ["FEATURES", "PSET", "EVOLUTION_PSET", "EVOLVED_FEATURES", "DISTANCE", "TURN_DISTANCE", "TreeError",
           "parse_tree", "tree_text", "compile_tree", "program_for", "python_evaluation", "random_tree",
           "constant"]

FEATURES = kernel.FEATURES
#: The thesis's evaluation as a tree: the distance to the goal the player attacks (§4.1).
DISTANCE = "attack"
#: The turn search's own evaluation as a tree: the distance difference, as a cost.
TURN_DISTANCE = "sub(attack, defend)"


class TreeError(ValueError):
    """A tree's text that is not a tree of :data:`PSET`: unknown name, wrong arity or type, bad syntax."""


# -- the primitives, as Python computes them (the compiled program computes them alike) ---------
def add(a: float, b: float) -> float:
    return a + b


def sub(a: float, b: float) -> float:
    return a - b


def mul(a: float, b: float) -> float:
    return a * b


def div(a: float, b: float) -> float:
    return a / b if abs(b) > kernel.DIV_EPSILON else 1.0


def min_(a: float, b: float) -> float:
    return b if b < a else a


def max_(a: float, b: float) -> float:
    return b if b > a else a


def neg(a: float) -> float:
    return -a


def lt(a: float, b: float) -> bool:
    return a < b


def if_then_else(c: bool, a: float, b: float) -> float:
    return a if c else b


def and_(a: bool, b: bool) -> bool:
    return bool(a) and bool(b)


def not_(a: bool) -> bool:
    return not a


def constant() -> float:
    """An ephemeral constant: a multiple of a half from -5 to 5."""
    return random.randint(-10, 10) / 2


_FUNCTIONS = {"add": (add, [float, float], float), "sub": (sub, [float, float], float),
              "mul": (mul, [float, float], float), "div": (div, [float, float], float),
              "min": (min_, [float, float], float), "max": (max_, [float, float], float),
              "neg": (neg, [float], float), "lt": (lt, [float, float], bool),
              "if_then_else": (if_then_else, [bool, float, float], float),
              "and_": (and_, [bool, bool], bool), "not_": (not_, [bool], bool)}
_OPCODE = {name: k for k, (name, _) in enumerate(kernel.OPERATIONS)}
assert set(_FUNCTIONS) == set(_OPCODE), "every primitive has its opcode"


def _primitive_set(drawn: tuple[str, ...] = FEATURES) -> gp.PrimitiveSetTyped:
    """The primitive set over every feature (a tree's arguments), of which only ``drawn`` are drawn
    as new leaves by DEAP's generators."""
    pset = gp.PrimitiveSetTyped("evaluation", [float] * len(FEATURES), float)
    pset.renameArguments(**{f"ARG{k}": name for k, name in enumerate(FEATURES)})
    for name, (function, args, ret) in _FUNCTIONS.items():
        pset.addPrimitive(function, args, ret, name=name)
    pset.addTerminal(True, bool)
    pset.addTerminal(False, bool)
    pset.addEphemeralConstant("half_step_constant", constant, float)
    left_out = set(FEATURES) - set(drawn)
    pset.terminals[float] = [t for t in pset.terminals[float] if not (isinstance(t.value, str)
                                                                      and t.value in left_out)]
    return pset


#: The primitive set: features and constants (numbers), ``True`` and ``False`` (truth values).
PSET = _primitive_set()
#: The features evolution draws: all but the two A* distances, which cost a search of the board at
#: every leaf (the thesis, §4.1: A* gave "identical results and much greater run time"); a tree may
#: still read them.
EVOLVED_FEATURES = tuple(f for f in FEATURES if f not in ("free_attack", "free_defend"))
#: :data:`PSET` as evolution draws from it: the same trees, without the A* distances as new leaves.
EVOLUTION_PSET = _primitive_set(EVOLVED_FEATURES)

_TOKEN = re.compile(r"\s*(?:(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(?P<name>[A-Za-z_]\w*)"
                    r"|(?P<punct>[(),]))")
_TYPE_NAME = {float: "a number", bool: "a truth value"}


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None:
            raise TreeError(f"tree {text!r}: cannot read {text[pos:pos + 12].strip()!r} at character {pos}")
        kind = match.lastgroup
        out.append((kind, match.group(kind), match.start(kind)))
        pos = match.end()
    return out


def _syntax(text: str, tokens: list, pos: int) -> tuple[tuple, int]:
    """The call or leaf at ``tokens[pos]`` as ``(token, arguments or None)``, and where it ends."""
    if pos >= len(tokens):
        raise TreeError(f"tree {text!r}: ends where an argument is expected")
    token = tokens[pos]
    if token[0] == "punct":
        raise TreeError(f"tree {text!r}: expected a name or a number at character {token[2]}, "
                        f"found {token[1]!r}")
    pos += 1
    if pos >= len(tokens) or tokens[pos][1] != "(":
        return (token, None), pos
    if token[0] == "number":
        raise TreeError(f"tree {text!r}: the number {token[1]} is called like a primitive")
    args, pos = [], pos + 1
    if pos < len(tokens) and tokens[pos][1] == ")":
        return (token, args), pos + 1
    while True:
        arg, pos = _syntax(text, tokens, pos)
        args.append(arg)
        if pos < len(tokens) and tokens[pos][1] == ",":
            pos += 1
            continue
        if pos < len(tokens) and tokens[pos][1] == ")":
            return (token, args), pos + 1
        found = "the end" if pos >= len(tokens) else repr(tokens[pos][1])
        raise TreeError(f"tree {text!r}: expected ',' or ')' after an argument of {token[1]}, found {found}")


def _typed(text: str, syntax: tuple, want: type, nodes: list) -> None:
    """Append the nodes of ``syntax`` to ``nodes`` in prefix order, checking names, arities, types."""
    (kind, value, at), args = syntax
    if kind == "number":
        got = float
        nodes.append(gp.Terminal(float(value), False, float))
    elif value in _FUNCTIONS:
        _, types, got = _FUNCTIONS[value]
        if args is None or len(args) != len(types):
            plural = "s" if len(types) > 1 else ""
            count = "no argument list" if args is None else len(args)
            raise TreeError(f"tree {text!r}: {value} takes {len(types)} argument{plural}, got {count}")
    elif value in PSET.mapping:
        if args is not None:
            raise TreeError(f"tree {text!r}: {value} is a leaf, not a primitive: it takes no arguments")
        got = PSET.mapping[value].ret
    else:
        raise TreeError(f"tree {text!r}: unknown name {value!r} at character {at}; valid names: "
                        f"{sorted(_FUNCTIONS)}, the features {list(FEATURES)}, True, False, or a number")
    if got is not want:
        raise TreeError(f"tree {text!r}: {value} is {_TYPE_NAME[got]} where {_TYPE_NAME[want]} is expected")
    if kind == "number":
        return
    nodes.append(PSET.mapping[value])
    for arg, arg_type in zip(args or (), _FUNCTIONS[value][1] if value in _FUNCTIONS else ()):
        _typed(text, arg, arg_type, nodes)


def parse_tree(text) -> gp.PrimitiveTree:
    """The tree of ``text`` (DEAP's notation, as :func:`tree_text` writes it).

    Raises
    ------
    TreeError
        For text that is empty or not a string, an unknown name (the valid ones listed), a
        primitive with the wrong number of arguments, an argument of the wrong type (a truth
        value where a number is expected), a tree whose value is not a number, or text left over.
    """
    if isinstance(text, gp.PrimitiveTree):
        text = str(text)
    if not isinstance(text, str) or not text.strip():
        raise TreeError(f"a tree is the text of an expression such as {DISTANCE!r}, got {text!r}")
    tokens = _tokens(text)
    syntax, pos = _syntax(text, tokens, 0)
    if pos != len(tokens):
        raise TreeError(f"tree {text!r}: text left over after the tree: {text[tokens[pos][2]:]!r}")
    nodes: list = []
    _typed(text, syntax, float, nodes)
    return gp.PrimitiveTree(nodes)


def tree_text(tree) -> str:
    """The canonical text of a tree (or of a tree's text): DEAP's ``str(tree)``."""
    return str(parse_tree(tree))


def compile_tree(tree) -> tuple[np.ndarray, np.ndarray]:
    """The stack program of ``tree`` (a tree or its text): ``(code, consts)`` for
    :func:`fepaper._core.programs.run`, one entry per node in prefix order."""
    tree = parse_tree(tree) if not isinstance(tree, gp.PrimitiveTree) else tree
    code = np.zeros(len(tree), np.int64)
    consts = np.zeros(len(tree), np.float64)
    for i, node in enumerate(tree):
        if isinstance(node, gp.Primitive):
            code[i] = _OPCODE[node.name]
        elif isinstance(node.value, str) and node.value in FEATURES:  # (an argument's name stays ARGk)
            code[i] = kernel.FEATURE + FEATURES.index(node.value)
        else:
            code[i] = kernel.CONSTANT
            consts[i] = float(node.value)
    return code, consts


@lru_cache(maxsize=64)
def _centre(rules: Rules) -> np.ndarray:
    board = Board.of(rules)
    middle = rules.width / 2
    centre = np.array([abs(board.node(i)[0] - middle) for i in range(board.n_nodes)], np.float64)
    centre.setflags(write=False)
    return centre


@lru_cache(maxsize=256)
def _compiled(text: str, rules: Rules) -> tuple[np.ndarray, np.ndarray, tuple]:
    """The program of the tree ``text`` and its :func:`~fepaper._core.programs.fold` on the board
    of ``rules``, read-only (each search asks again: a tree's text is read once)."""
    code, consts = compile_tree(text)
    code.setflags(write=False)
    consts.setflags(write=False)
    return code, consts, kernel.fold(code, consts, Board.of(rules).distance, _centre(rules))


def program_for(tree, rules: Rules) -> kernel.Program:
    """The compiled program of ``tree`` (a tree or its text) on the board of ``rules``, with its
    own work arrays (one per search: a search writes them)."""
    code, consts, folded = _compiled(tree if isinstance(tree, str) else tree_text(tree), rules)
    return kernel.new_program(code, consts, Board.of(rules).distance, _centre(rules), folded)


def python_evaluation(tree):
    """The tree as a Python function of the features (DEAP's ``gp.compile``): the slow twin of
    the compiled program, for tests and for reading a tree."""
    return gp.compile(parse_tree(tree) if not isinstance(tree, gp.PrimitiveTree) else tree, PSET)


def random_tree(seed: int, low: int = 1, high: int = 4,
                pset: gp.PrimitiveSetTyped = PSET) -> gp.PrimitiveTree:
    """A random tree of height ``low`` to ``high`` (DEAP's ramped half and half over ``pset``), drawn
    from a generator of its own seeded with ``seed`` (the global :mod:`random` is left as it was)."""
    saved = random.getstate()
    random.seed(seed)
    try:
        return gp.PrimitiveTree(gp.genHalfAndHalf(pset, low, high))
    finally:
        random.setstate(saved)
