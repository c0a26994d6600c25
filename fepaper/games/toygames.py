"""Two small games for testing :mod:`fepaper.search.reference`: tic-tac-toe and Connect Four.

Both follow the State protocol of :mod:`fepaper.search.reference` (OpenSpiel's names): player 0
moves first, ``returns()`` is ``[1, -1]``, ``[-1, 1]`` or ``[0, 0]``, and
``current_player()`` is -1 once the game is over. Both are deliberately small and
plain: they are test material for the reference search, not fast engines.

:class:`ConnectFour` carries the evaluation of the Connect Four report (seed
``002_0ba8e955246a63ae``, section 3 and its Table 1), see :func:`connect_four_score`.

Examples
--------
>>> from fepaper.search.reference import minimax
>>> game = TicTacToe([0, 3, 1, 4])
>>> print(game)
XX.
OO.
...
>>> minimax(game, None, 0).details["best"]
[2]
>>> ConnectFour("3").evaluate(0)
7
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "TicTacToe",
    "ConnectFour",
    "SEGMENT_SCORES",
    "WIN_SCORE",
    "segment_score",
    "connect_four_score",
]

_TTT_LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
]


class TicTacToe:
    """Tic-tac-toe on cells 0..8 (row by row from the top left); X is player 0.

    Parameters
    ----------
    moves : iterable of int, optional
        Cells to play from the empty board, alternately X and O.
    """

    def __init__(self, moves: Iterable[int] = ()):
        self.cells = [-1] * 9  # -1 empty, else the player who marked it
        self.player = 0
        self.winner: int | None = None
        self.history: list[int] = []
        for a in moves:
            self.apply_action(a)

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.player

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i in range(9) if self.cells[i] == -1]

    def apply_action(self, action: int) -> None:
        if self.is_terminal() or not 0 <= action < 9 or self.cells[action] != -1:
            raise ValueError(f"tic-tac-toe: cell {action!r} is not a legal move in {self.history}")
        self.cells[action] = self.player
        self.history.append(action)
        if any(all(self.cells[i] == self.player for i in line) for line in _TTT_LINES):
            self.winner = self.player
        self.player = 1 - self.player

    def clone(self) -> TicTacToe:
        other = TicTacToe.__new__(TicTacToe)
        other.cells = self.cells.copy()
        other.player = self.player
        other.winner = self.winner
        other.history = self.history.copy()
        return other

    def is_terminal(self) -> bool:
        return self.winner is not None or len(self.history) == 9

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        marks = {-1: ".", 0: "X", 1: "O"}
        return "\n".join("".join(marks[c] for c in self.cells[r:r + 3]) for r in (0, 3, 6))

    def __repr__(self) -> str:
        return f"TicTacToe({self.history})"


# --- Connect Four -------------------------------------------------------------------------

COLUMNS, ROWS = 7, 6

#: Table 1 of the Connect Four report, "Score for segments in Connect Four Game", keyed by
#: (number of 'x', number of 'o') in a segment of four cells. 'x' is player 0.
SEGMENT_SCORES = {
    (0, 3): -50,  # 3 'o', no 'x'
    (0, 2): -10,  # 2 'o', no 'x'
    (0, 1): -1,  # 1 'o', no 'x'
    (1, 0): 1,  # 1 'x', no 'o'
    (2, 0): 10,  # 2 'x', no 'o'
    (3, 0): 50,  # 3 'x', no 'o'
}
#: "A win of x scores 512 and a win of o -512 despite the segments score."
WIN_SCORE = 512


def _windows() -> list[tuple[int, ...]]:
    """Every segment of four cells (cell = row * 7 + column, row 0 at the bottom): 69 of them."""
    out = []
    for r in range(ROWS):
        for c in range(COLUMNS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLUMNS for rr, cc in cells):
                    out.append(tuple(rr * COLUMNS + cc for rr, cc in cells))
    return out


_WINDOWS = _windows()
_WINDOWS_THROUGH = [[w for w in _WINDOWS if cell in w] for cell in range(ROWS * COLUMNS)]


def segment_score(segment: Iterable[int]) -> int:
    """Table 1's score of one segment of four cells (-1 empty, 0 'x', 1 'o').

    A segment of 'o' and 'x' mixed scores 0; so does an empty one (Table 1 does not list
    it; 0 is the only value symmetric between the players). Four of a kind is a win and
    is scored by :func:`connect_four_score`, not here.

    Examples
    --------
    >>> segment_score([0, 0, 0, -1]), segment_score([1, -1, 1, -1]), segment_score([0, 1, -1, -1])
    (50, -10, 0)
    """
    segment = list(segment)
    x, o = segment.count(0), segment.count(1)
    if x == 4 or o == 4:
        raise ValueError(f"segment {segment} is four of a kind: a win, scored as +-{WIN_SCORE}")
    return SEGMENT_SCORES.get((x, o), 0)


def connect_four_score(cells: list[int]) -> int:
    """The Connect Four report's evaluation from x's (player 0's) side, positive when x is ahead.

    Section 3 of the report: "all segments of four tokens in all directions (horizontal,
    vertical and both diagonals) have to be taken in account. The evaluation is computed
    summing the score of all these segments obtained using the values of Table 1. A win of
    x scores 512 and a win of o -512 despite the segments score."

    Parameters
    ----------
    cells : list of int
        42 cells, row by row from the bottom (cell = row * 7 + column): -1 empty, 0 'x',
        1 'o'.
    """
    total = 0
    for w in _WINDOWS:
        x = o = 0
        for i in w:
            v = cells[i]
            if v == 0:
                x += 1
            elif v == 1:
                o += 1
        if x == 4:
            return WIN_SCORE
        if o == 4:
            return -WIN_SCORE
        total += SEGMENT_SCORES.get((x, o), 0)
    return total


class ConnectFour:
    """Connect Four: 7 columns, 6 rows, tokens fall to the lowest free cell; x is player 0.

    Actions are column numbers 0..6. ``evaluate(player)`` is the Connect Four report's evaluation
    (:func:`connect_four_score`) from ``player``'s side, so it is +-512 for a finished
    game that someone won and 0 for a full board.

    Parameters
    ----------
    moves : str or iterable of int, optional
        Columns to play from the empty board, e.g. ``"3344"``.
    """

    def __init__(self, moves: str | Iterable[int] = ()):
        self.cells = [-1] * (ROWS * COLUMNS)
        self.heights = [0] * COLUMNS
        self.player = 0
        self.winner: int | None = None
        self.history: list[int] = []
        for a in moves:
            self.apply_action(int(a))

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.player

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [c for c in range(COLUMNS) if self.heights[c] < ROWS]

    def apply_action(self, action: int) -> None:
        if self.is_terminal() or not 0 <= action < COLUMNS or self.heights[action] == ROWS:
            raise ValueError(f"Connect Four: column {action!r} is not a legal move after "
                             f"{''.join(map(str, self.history))!r}")
        cell = self.heights[action] * COLUMNS + action
        self.cells[cell] = self.player
        self.heights[action] += 1
        self.history.append(action)
        if any(all(self.cells[i] == self.player for i in w) for w in _WINDOWS_THROUGH[cell]):
            self.winner = self.player
        self.player = 1 - self.player

    def clone(self) -> ConnectFour:
        other = ConnectFour.__new__(ConnectFour)
        other.cells = self.cells.copy()
        other.heights = self.heights.copy()
        other.player = self.player
        other.winner = self.winner
        other.history = self.history.copy()
        return other

    def is_terminal(self) -> bool:
        return self.winner is not None or len(self.history) == ROWS * COLUMNS

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def evaluate(self, player: int) -> int:
        """The Connect Four report's evaluation from ``player``'s side (x is player 0)."""
        score = connect_four_score(self.cells)
        return score if player == 0 else -score

    def __str__(self) -> str:
        marks = {-1: ".", 0: "x", 1: "o"}
        rows = range(ROWS - 1, -1, -1)
        return "\n".join("".join(marks[self.cells[r * COLUMNS + c]] for c in range(COLUMNS))
                         for r in rows)

    def __repr__(self) -> str:
        return f"ConnectFour({''.join(map(str, self.history))!r})"
