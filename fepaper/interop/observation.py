"""What a player of the adapters sees: the position as a tensor of planes, and as a text board.

The tensor (OpenSpiel's observation tensor, the observation of PettingZoo and Gymnasium) has
:data:`PLANES` planes over the lattice of nodes, ``height + 3`` rows (``y`` from -1, the top
goal's row, to ``height + 1``, the bottom goal's; ``y`` grows downward as in docs/rules.md) by
``width + 1`` columns (``x`` from 0):

- planes 0-7, one per direction ``d`` of docs/rules.md: 1 at a node whose edge in direction
  ``d`` is marked (the walls and the middle line included) or leaves the board, that is where
  the ball cannot step in direction ``d``;
- plane 8: the ball;
- planes 9 and 10: all ones when player 1 (plane 9) or player 2 (plane 10) is to move;
- plane 11: all ones when the player to move has bounced and goes on moving.

Lattice points that are not nodes (the goal rows beside the goals) are 0 in planes 0-8. The
observation is the same for both players (perfect information); planes 9-10 say who moves.

The text board (:func:`text`: OpenSpiel's observation string, the ``"ansi"`` rendering) draws
nodes as ``.`` (unmarked) and ``+`` (marked: the ball bounces there), the ball as ``O``, walls
as ``=`` and ``#``, and the marked edges as ``-``, ``|``, ``\\``, ``/`` (``X`` where both
diagonals of a square are marked). :func:`rgb_array` is the picture of
:func:`fepaper.game.render.draw` as an array (the ``"rgb_array"`` rendering).

>>> from fepaper.game import Game
>>> game = Game({"preset": "standard", "width": 4, "height": 4}, "1 4")
>>> game.step(6)
>>> print(text(game))
player 1 to move, bouncing
  +=+=+
  #   #
+=+ . +=+
#       #
+ . . + +
#    /| #
+ . O-+ +
#       #
+ . . . +
#       #
+=+ . +=+
  #   #
  +=+=+
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..game.board import Board
from ..game.game import Game
from ..game.rules import Rules

__all__ = ["PLANES", "PLANE_NAMES", "shape", "planes", "PlaneTracker", "text", "rgb_array"]

PLANE_NAMES = (
    "closed up", "closed up-right", "closed right", "closed down-right", "closed down",
    "closed down-left", "closed left", "closed up-left", "ball", "player 1 to move",
    "player 2 to move", "bouncing",
)
PLANES = len(PLANE_NAMES)


def shape(rules: Rules) -> tuple[int, int, int]:
    """The tensor's shape, ``(planes, rows, columns)``, for these rules."""
    return PLANES, rules.height + 3, rules.width + 1


@lru_cache(maxsize=32)
def _layout(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row and column of every node, and the bits that are closed whatever is played."""
    board = Board.of(rules)
    xs, ys = np.array(board.nodes).T
    absent = (~board.exists).astype(np.uint8)
    return ys + 1, xs, absent


def planes(game: Game, out: np.ndarray | None = None, dtype=np.int8) -> np.ndarray:
    """The tensor of ``game`` (written into ``out`` when given, else a new array of ``dtype``)."""
    rules = game.rules
    if out is None:
        out = np.zeros(shape(rules), dtype=dtype)
    else:
        out.fill(0)
    rows, cols, absent = _layout(rules)
    closed = np.unpackbits((game.marks | absent)[:, None], axis=1, bitorder="little")
    out[:8, rows, cols] = closed.T
    b = game.ball_index
    out[8, rows[b], cols[b]] = 1
    out[8 + game.player] = 1
    if game.current and game.result is None:
        out[11] = 1
    return out


class PlaneTracker:
    """The tensor of one game kept up to date step by step, for the environments that show it
    after every action: :meth:`follow` writes the few entries a step or a stop changes (the
    marked edge at both ends, the ball, who moves, the bounce) instead of building the whole
    tensor again (:func:`planes`, which the tests compare it with). ``array`` is the tensor:
    hand out copies of it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.array = planes(game)
        rows, cols, _ = _layout(game.rules)
        self._plane = self.array[0].size
        self._flat = self.array.reshape(-1)  # a view: one integer index an entry
        self._at = (rows * self.array.shape[2] + cols).tolist()  # node index -> offset in a plane

    def follow(self, start: int, action: int) -> None:
        """Bring the tensor up to date after ``action`` (0-7 a step, 8 a stop) played on the
        game from the ball's node ``start`` (its index)."""
        game, flat, plane, at = self.game, self._flat, self._plane, self._at
        if action < 8:
            here, there = at[start], at[game.ball_index]
            flat[action * plane + here] = 1
            flat[((action + 4) & 7) * plane + there] = 1
            flat[8 * plane + here] = 0
            flat[8 * plane + there] = 1
        p = game.player
        if not flat[(8 + p) * plane]:
            self.array[11 - p] = 0
            self.array[8 + p] = 1
        bouncing = bool(game.current) and game.result is None
        if bool(flat[11 * plane]) != bouncing:
            self.array[11] = bouncing


def text(game: Game) -> str:
    """The board as text, under a line saying who moves (or how the game ended)."""
    board = game.board
    w, h = game.rules.width, game.rules.height
    grid = [[" "] * (2 * w + 1) for _ in range(2 * h + 5)]
    for (x, y), marks in zip(board.nodes, game.marks):
        grid[2 * (y + 1)][2 * x] = "+" if marks else "."
    for e in np.flatnonzero(game.owner):
        (x0, y0), (x1, y1) = board.edges[e]
        r, c = y0 + y1 + 2, x0 + x1
        wall = game.owner[e] == 3
        if y0 == y1:
            grid[r][c] = "=" if wall else "-"
        elif x0 == x1:
            grid[r][c] = "#" if wall else "|"
        else:
            mark = "\\" if (x1 - x0) * (y1 - y0) > 0 else "/"
            grid[r][c] = "X" if grid[r][c] not in (" ", mark) else mark
    x, y = game.ball
    grid[2 * (y + 1)][2 * x] = "O"
    if game.result is not None:
        head = str(game.result)
    else:
        head = f"player {game.player} to move" + (", bouncing" if game.current else "")
    return "\n".join([head, *("".join(row).rstrip() for row in grid)])


def rgb_array(game: Game, dpi: int = 80) -> np.ndarray:
    """The picture of ``game`` (:func:`fepaper.game.render.draw`) as an ``(H, W, 3)`` uint8 array."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ..game.render import draw

    w, h = game.rules.width, game.rules.height
    fig = Figure(figsize=(0.3 * (w + 2), 0.3 * (h + 3)), dpi=dpi)
    canvas = FigureCanvasAgg(fig)
    draw(game, fig.subplots(), coordinates=False)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()
