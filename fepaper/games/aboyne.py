"""Aboyne (Paul Sijben, 1995), the game of the Aboyne report, on the State interface of
:mod:`fepaper.search.reference`.

The rules, as the Aboyne report states them ("Regras", "Condições de vitória"): a hexagonal
board of side 5 (61 cells); each player has 9 stones and a goal cell on the opposite side; a
stone next to an enemy stone is *blocked*; a free stone moves to an adjacent empty cell or
jumps over an unbroken line of its own stones to the cell just beyond, capturing an enemy
stone there; no stone enters the opponent's goal cell; a player wins by moving a stone onto
their own goal cell or when the opponent, to move, has no move. The starting position is the
one of the Ludii general game system's ``Aboyne.lud`` (``docs/interpretation.md``): each
player's stones on the two edges that meet at the opponent's goal corner, the corner itself
empty and the stone beside it one cell inward; the goals are the two corners of the middle
row.

The board. Cells are named as on an Abalone board: rows ``a`` (bottom) to ``i`` (top), and
in each row the number of the diagonal, 1 to 9 (row ``a`` is ``a1``-``a5``, the middle row
``e1``-``e9``, row ``i`` is ``i5``-``i9``). Internally a cell is an index 0..60 in that order,
with axial coordinates ``(q, r)`` = (number - 5, 4 - row) (``r`` grows downwards), and a
position is one integer bit mask of stones per player (:attr:`Aboyne.stones`).

Players: player 0, *red*, moves first (Ludii's P1), starts on the left edges and aims at
``e9``; player 1, *blue*, starts on the right edges and aims at ``e1``.

Moves. An action is the integer ``from * 61 + to`` (cell indices); its text is
``"from-to"`` in cell names, e.g. ``"e2-e3"`` (a step) or ``"a1-c1"`` (a jump over ``b1``).
:meth:`Aboyne.action_to_string` and :meth:`Aboyne.string_to_action` convert (OpenSpiel's
names); a record is the moves' texts separated by spaces.

Examples
--------
>>> game = Aboyne()
>>> len(game.legal_actions())  # the report counts 17 for its own (lost) figure of the start
19
>>> game.play("e2-e3")
>>> game.moves, game.current_player()
('e2-e3', 1)
>>> game.play("e8-e9")
Traceback (most recent call last):
...
ValueError: Aboyne: move 'e8-e9' by blue is illegal: e9 is red's goal: no stone enters the opponent's goal
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Mapping

__all__ = [
    "Aboyne",
    "CELLS",
    "NAMES",
    "INDEX",
    "AXIAL",
    "DIRECTIONS",
    "GOALS",
    "START",
    "PLAYER_NAMES",
    "N_CELLS",
    "cell_index",
    "hex_distance",
    "HEURISTICS",
    "report_score",
    "features",
]

SIDE = 5
RADIUS = SIDE - 1
ROWS = "abcdefghi"


def _cells() -> list[tuple[int, int]]:
    out = []
    for row in range(2 * RADIUS + 1):
        r = RADIUS - row
        for q in range(max(-RADIUS, -RADIUS - r), min(RADIUS, RADIUS - r) + 1):
            out.append((q, r))
    return out


#: Axial coordinates ``(q, r)`` of each cell, in index order (``r`` grows downwards).
CELLS: list[tuple[int, int]] = _cells()
N_CELLS = len(CELLS)  # 61
#: The name of each cell: row letter (``a`` bottom .. ``i`` top) and diagonal number 1..9.
NAMES: list[str] = [f"{ROWS[RADIUS - r]}{q + SIDE}" for q, r in CELLS]
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
AXIAL: dict[tuple[int, int], int] = {c: i for i, c in enumerate(CELLS)}
#: The six directions as axial steps: east, north-east, north-west, west, south-west, south-east.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
PLAYER_NAMES = ("red", "blue")
#: The goal cell of each player: red (player 0) aims at e9, blue at e1 (the middle row's corners).
GOALS = (INDEX["e9"], INDEX["e1"])
#: The starting stones of each player (Ludii's ``Aboyne.lud``, see docs/interpretation.md).
START = (
    ("a1", "b1", "c1", "d1", "e2", "f2", "g3", "h4", "i5"),
    ("a5", "b6", "c7", "d8", "e8", "f9", "g9", "h9", "i9"),
)


def hex_distance(a: int, b: int) -> int:
    """Steps between cells ``a`` and ``b`` (indices) on the hexagonal grid."""
    (q1, r1), (q2, r2) = CELLS[a], CELLS[b]
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def _rays() -> list[list[tuple[tuple[int, int], ...]]]:
    out = []
    for q, r in CELLS:
        rays = []
        for dq, dr in DIRECTIONS:
            ray, k = [], 1
            while (q + k * dq, r + k * dr) in AXIAL:
                i = AXIAL[(q + k * dq, r + k * dr)]
                ray.append((i, 1 << i))
                k += 1
            if ray:
                rays.append(tuple(ray))
        out.append(rays)
    return out


_RAYS = _rays()  # per cell, the non-empty lines of cells leaving it: ((index, bit), ...)
_AROUND = [sum(ray[0][1] for ray in rays) for rays in _RAYS]  # bit mask of each cell's neighbours
_GOAL_DISTANCE = [[hex_distance(c, GOALS[p]) for c in range(N_CELLS)] for p in (0, 1)]
_MOVE = re.compile(r"\s*([a-iA-I][1-9])\s*-\s*([a-iA-I][1-9])\s*")


def _integer(value) -> int | None:
    """``value`` as an ``int`` if it is an integer (Python's or numpy's, not a bool), else None:
    ``1.0`` equals action 1 but is no action (it was played as one)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def _player(player, what: str = "player") -> int:
    """``player`` if it is 0 (red) or 1 (blue); ValueError otherwise (``True`` and ``0.0`` included)."""
    p = _integer(player)
    if p not in (0, 1):
        raise ValueError(f"Aboyne: {what} must be 0 (red) or 1 (blue), got {player!r}")
    return p


def _items(values, what: str) -> list:
    """The items of ``values`` (a record's moves, a side's cells); ValueError if not iterable."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"Aboyne: {what} must be a list, got {type(values).__name__} {values!r:.60}")
    return list(values)


def cell_index(cell: int | str) -> int:
    """The index of a cell given by name (``"e5"``) or index; ValueError if it is not on the board."""
    if isinstance(cell, str):
        name = cell.strip().lower()
        if name not in INDEX:
            raise ValueError(
                f"Aboyne: {cell!r} is not a cell: rows a-i, and in each row the cells "
                f"{', '.join(NAMES[i] for i in range(5))}... as on an Abalone board"
            )
        return INDEX[name]
    index = _integer(cell)
    if index is None or not 0 <= index < N_CELLS:
        raise ValueError(f"Aboyne: {cell!r} is not a cell index (0..{N_CELLS - 1})")
    return index


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _moves(mine: int, theirs: int, forbidden: int) -> list[int]:
    """The actions of the side with stones ``mine`` against ``theirs``; ``forbidden`` is the
    opponent's goal (an index)."""
    out = []
    occupied = mine | theirs
    for c in _bits(mine):
        if _AROUND[c] & theirs:
            continue  # blocked
        base = c * N_CELLS
        for ray in _RAYS[c]:
            i, bit = ray[0]
            if not bit & occupied:
                if i != forbidden:
                    out.append(base + i)
                continue
            if not bit & mine:
                continue  # an enemy stone next to a free stone cannot be
            for i, bit in ray[1:]:
                if not bit & mine:
                    if i != forbidden:
                        out.append(base + i)
                    break
    return out


class Aboyne:
    """A position of Aboyne and its record; the State of :mod:`fepaper.search.reference`.

    Parameters
    ----------
    moves : str or iterable of (int or str), optional
        Moves to play from the start: a record (``"e2-e3 e8-e7"``), or actions / move texts.
    max_plies : int, optional
        If given, the game ends drawn (``returns() == [0, 0]``) after this many moves
        without a winner: games between deterministic players can go round in circles,
        and the rules have no end for them. ``None`` (the default): the rules alone.

    Notes
    -----
    ``stones[p]`` is player ``p``'s bit mask (bit ``i`` set: a stone on cell ``i``);
    ``winner`` is 0, 1 or None. The legal actions of the side to move are computed once per
    position (the end test needs them).
    """

    __slots__ = ("stones", "player", "winner", "history", "max_plies", "_actions", "_start")

    def __init__(self, moves: str | Iterable = (), max_plies: int | None = None):
        if max_plies is not None and (
            isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1
        ):
            raise ValueError(f"Aboyne: max_plies must be a positive integer or None, got {max_plies!r}")
        self.stones = [sum(1 << INDEX[c] for c in START[0]), sum(1 << INDEX[c] for c in START[1])]
        self.player = 0
        self.winner: int | None = None
        self.history: list[int] = []
        self.max_plies = max_plies
        self._start: tuple | None = None  # None: the standard start; else (red, blue, to_move)
        self._actions = _moves(self.stones[0], self.stones[1], GOALS[1])
        self.play(moves)

    @classmethod
    def from_cells(
        cls, red: Iterable, blue: Iterable, to_move: int = 0, max_plies: int | None = None
    ) -> Aboyne:
        """A position given by its stones (cell names or indices) and the side to move.

        A stone on its own goal means its player has won (the position says so: ``winner``, "red
        wins"); a side to move without a move has lost.
        """
        to_move = _player(to_move, "to_move")
        cells = [[cell_index(c) for c in _items(red, "red")], [cell_index(c) for c in _items(blue, "blue")]]
        for p in (0, 1):
            if len(set(cells[p])) != len(cells[p]):
                raise ValueError(f"Aboyne: {PLAYER_NAMES[p]} has two stones on one cell: {cells[p]}")
        both = set(cells[0]) & set(cells[1])
        if both:
            raise ValueError(f"Aboyne: cells {[NAMES[i] for i in sorted(both)]} hold a red and a blue stone")
        for p in (0, 1):
            if GOALS[1 - p] in cells[p]:
                raise ValueError(
                    f"Aboyne: a {PLAYER_NAMES[p]} stone stands on {NAMES[GOALS[1 - p]]}, "
                    f"{PLAYER_NAMES[1 - p]}'s goal, which no stone of {PLAYER_NAMES[p]} enters"
                )
        if all(GOALS[p] in cells[p] for p in (0, 1)):
            raise ValueError("Aboyne: a red and a blue stone stand each on its goal: both cannot have won")
        game = cls(max_plies=max_plies)
        game.stones = [sum(1 << i for i in cells[0]), sum(1 << i for i in cells[1])]
        game.player = to_move
        game._start = (tuple(NAMES[i] for i in cells[0]), tuple(NAMES[i] for i in cells[1]), to_move)
        game._settle(None)
        return game

    # -- the State protocol ------------------------------------------------------------------
    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.player

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else list(self._actions)

    def is_terminal(self) -> bool:
        return self.winner is not None or (self.max_plies is not None and len(self.history) >= self.max_plies)

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def apply_action(self, action) -> None:
        """Play ``action`` (an int); ValueError naming the move and why if it is illegal, the
        position unchanged."""
        code = _integer(action)  # a numpy integer equal to a legal action is that action, 1.0 is not
        if self.is_terminal() or code is None or code not in self._actions:
            raise ValueError(
                f"Aboyne: move {self._text_of(action)!r} by {PLAYER_NAMES[self.player]} is "
                f"illegal: {self.why_illegal(action)}"
            )
        action = code
        frm, to = divmod(action, N_CELLS)
        me = self.player
        self.stones[me] ^= (1 << frm) | (1 << to)
        self.stones[1 - me] &= ~(1 << to)
        self.player = 1 - me
        self.history.append(action)
        self._settle(me if to == GOALS[me] else None)

    def _settle(self, winner: int | None) -> None:
        """Set the winner and the side to move's actions after a move (or a set-up)."""
        p = self.player
        for q in (1 - p, p):  # a set-up with a stone on its goal: that side has won
            if winner is None and self.stones[q] >> GOALS[q] & 1:
                winner = q
        self.winner = winner
        self._actions = [] if winner is not None else _moves(self.stones[p], self.stones[1 - p], GOALS[1 - p])
        if winner is None and not self._actions:
            self.winner = 1 - p  # the side to move has no move: the other wins

    def clone(self) -> Aboyne:
        other = Aboyne.__new__(Aboyne)
        other.stones = self.stones.copy()
        other.player = self.player
        other.winner = self.winner
        other.history = self.history.copy()
        other.max_plies = self.max_plies
        other._actions = self._actions  # never mutated in place
        other._start = self._start
        return other

    def evaluate(self, player: int) -> float:
        """The Aboyne report's first heuristic from ``player``'s side (:func:`report_score`)."""
        return report_score(self, player, HEURISTICS["report 1"])

    # -- moves as text -----------------------------------------------------------------------
    @staticmethod
    def action_to_string(action: int) -> str:
        """``"from-to"`` in cell names, e.g. ``"e2-e3"``."""
        code = _integer(action)
        if code is None or not 0 <= code < N_CELLS**2:
            raise ValueError(f"Aboyne: {action!r} is not an action code (from * 61 + to)")
        frm, to = divmod(code, N_CELLS)
        return f"{NAMES[frm]}-{NAMES[to]}"

    @staticmethod
    def string_to_action(text: str) -> int:
        """The action of a move text ``"from-to"``; ValueError if it is malformed (its legality is
        checked when it is played)."""
        if not isinstance(text, str):
            raise ValueError(f"Aboyne: a move text is a string like 'e2-e3', got {text!r}")
        m = _MOVE.fullmatch(text)
        if m is None:
            raise ValueError(
                f"Aboyne: malformed move {text!r}: expected two cells joined by '-', "
                "like 'e2-e3' (rows a-i, diagonals 1-9)"
            )
        frm, to = (cell_index(c) for c in m.groups())
        if frm == to:
            raise ValueError(f"Aboyne: malformed move {text!r}: it goes from a cell to the same cell")
        return frm * N_CELLS + to

    def _text_of(self, action) -> str:
        try:
            return self.action_to_string(action)
        except ValueError:
            return repr(action)

    def play(self, moves: str | Iterable) -> None:
        """Play a record (``"e2-e3 e8-e7"``) or an iterable of actions or move texts. On an illegal
        or malformed move, ValueError and the position is as before the first move of ``moves``."""
        items = moves.split() if isinstance(moves, str) else _items(moves, "moves")
        undo = (self.stones.copy(), self.player, self.winner, len(self.history), self._actions)
        try:
            for item in items:
                self.apply_action(self.string_to_action(item) if isinstance(item, str) else item)
        except ValueError:
            self.stones, self.player, self.winner, n, self._actions = undo
            del self.history[n:]
            raise

    @property
    def moves(self) -> str:
        """The record: the moves played, as text separated by spaces."""
        return " ".join(self.action_to_string(a) for a in self.history)

    # -- explanations ------------------------------------------------------------------------
    def why_illegal(self, action) -> str:
        """Why ``action`` is not legal here ("legal" if it is)."""
        code = _integer(action)
        if code is None or not 0 <= code < N_CELLS**2:
            return f"{action!r} is not an action code (from * 61 + to, cells 0..60)"
        action = code
        if self.winner is not None:
            return f"the game is over: {PLAYER_NAMES[self.winner]} has won"
        if self.is_terminal():
            return f"the game is over: drawn after {self.max_plies} moves"
        me, other = self.player, 1 - self.player
        frm, to = divmod(action, N_CELLS)
        mine, theirs = self.stones[me], self.stones[other]
        f, t = NAMES[frm], NAMES[to]
        if not mine >> frm & 1:
            owner = f"a {PLAYER_NAMES[other]} stone" if theirs >> frm & 1 else "no stone"
            return f"{f} holds {owner}, not one of {PLAYER_NAMES[me]}'s"
        near = [NAMES[i] for i in _bits(_AROUND[frm] & theirs)]
        if near:
            return f"the stone on {f} is blocked: it is next to {PLAYER_NAMES[other]}'s stone on {near[0]}"
        ray = next((ray for ray in _RAYS[frm] if any(i == to for i, _ in ray)), None)
        if ray is None:
            return f"{f} and {t} are not on one line of cells"
        between = [i for i, _ in ray[: [i for i, _ in ray].index(to)]]
        gap = next((i for i in between if not mine >> i & 1), None)
        if gap is not None:
            return (
                f"the line from {f} to {t} is broken at {NAMES[gap]}: a stone steps to a next cell or "
                "jumps over an unbroken line of its own stones to the cell just beyond"
            )
        if mine >> to & 1:
            return f"{t} holds {PLAYER_NAMES[me]}'s own stone"
        if to == GOALS[other]:
            return f"{t} is {PLAYER_NAMES[other]}'s goal: no stone enters the opponent's goal"
        return "legal"

    def targets(self, cell: int | str) -> list[int]:
        """The cells the stone on ``cell`` can move to (empty if none or not the mover's)."""
        c = cell_index(cell)
        return [a % N_CELLS for a in self.legal_actions() if a // N_CELLS == c]

    def blocked(self, player: int) -> list[int]:
        """The cells of ``player``'s blocked stones (next to an enemy stone)."""
        player = _player(player)
        theirs = self.stones[1 - player]
        return [c for c in _bits(self.stones[player]) if _AROUND[c] & theirs]

    def cells_of(self, player: int) -> list[int]:
        """The cells of ``player``'s stones, in index order."""
        return list(_bits(self.stones[_player(player)]))

    # -- text and pictures -------------------------------------------------------------------
    def result_text(self) -> str:
        if self.winner is not None:
            return f"{PLAYER_NAMES[self.winner]} wins"
        if self.is_terminal():
            return f"drawn after {self.max_plies} moves"
        return f"{PLAYER_NAMES[self.player]} to move"

    def __str__(self) -> str:
        """The board, row i at the top: ``x`` red, ``o`` blue, ``*`` an empty goal, ``.`` empty."""
        lines = []
        for row in range(2 * RADIUS, -1, -1):
            r = RADIUS - row
            cells = [i for i, (q, rr) in enumerate(CELLS) if rr == r]
            marks = []
            for i in cells:
                mark = "x" if self.stones[0] >> i & 1 else "o" if self.stones[1] >> i & 1 else "."
                if mark == "." and i in GOALS:
                    mark = "*"
                marks.append(mark)
            lines.append(f"{ROWS[row]} " + " " * abs(r) + " ".join(marks))
        return "\n".join(lines)

    def __repr__(self) -> str:
        extra = "" if self.max_plies is None else f", max_plies={self.max_plies}"
        if self._start is None:
            return f"Aboyne({self.moves!r}{extra})"
        red, blue, to_move = self._start
        return f"Aboyne.from_cells({list(red)}, {list(blue)}, {to_move}{extra}) + {self.moves!r}"

    def _repr_svg_(self) -> str:
        from .aboyne_draw import svg

        return svg(self)


# --- the Aboyne report's heuristics ---------------------------------------------------------

#: The report's two weight sets ("Heurística 1", "Heurística 2"), from the side of the player
#: whose score it is: its own term first, the opponent's second. See :func:`features` for what
#: each term counts and docs/interpretation.md for the readings.
HEURISTICS: dict[str, dict[str, tuple[int, int]]] = {
    "report 1": {
        "closeness": (10, -10),
        "stones": (50, -50),
        "blocking": (100, -100),
        "win": (10000, -10000),
    },
    "report 2": {
        "closeness": (20, -10),
        "stones": (75, -50),
        "blocking": (200, -100),
        "win": (10000, -10000),
    },
}


def features(state: Aboyne, player: int) -> dict[str, tuple[int, int]]:
    """The report's terms for ``player`` and its opponent: ``stones`` (stones in play),
    ``blocking`` (the other side's stones it blocks: enemy stones next to one of its own),
    ``closeness`` (8 minus the distance from its stone nearest to its goal to that goal)."""
    player = _player(player)
    out = {}
    pair = (player, 1 - player)
    for name in ("stones", "blocking", "closeness"):
        values = []
        for p in pair:
            mine, theirs = state.stones[p], state.stones[1 - p]
            if name == "stones":
                values.append(mine.bit_count())
            elif name == "blocking":
                values.append(sum(1 for c in _bits(theirs) if _AROUND[c] & mine))
            else:
                values.append(
                    2 * RADIUS - min((_GOAL_DISTANCE[p][c] for c in _bits(mine)), default=2 * RADIUS)
                )
        out[name] = tuple(values)
    return out


def report_score(state: Aboyne, player: int, weights: Mapping[str, tuple[int, int]]) -> float:
    """The report's formula from ``player``'s side: ``win`` weights if someone has won, else the
    weighted sum of :func:`features` (own term times the first weight, the opponent's times the
    second).

    >>> report_score(Aboyne(), 0, HEURISTICS["report 1"])
    0
    """
    player = _player(player)
    wanted = ("win", "stones", "blocking", "closeness")
    known = any(weights is h for h in HEURISTICS.values())  # checked once, not at every leaf
    if not known and (not isinstance(weights, Mapping) or any(
            not isinstance(weights.get(k), (tuple, list)) or len(weights[k]) != 2 for k in wanted)):
        raise ValueError(f"Aboyne: weights must map each of {wanted} to two numbers (own, the "
                         f"opponent's), got {weights!r:.80}")
    if state.winner is not None:
        return weights["win"][0] if state.winner == player else weights["win"][1]
    total = 0
    for name, (own, theirs) in features(state, player).items():
        w_own, w_theirs = weights[name]
        total += w_own * own + w_theirs * theirs
    return total
