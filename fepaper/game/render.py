"""Pictures of a board: a standalone SVG string, and the same picture with matplotlib.

:func:`svg` is a pure function (the same game gives the same string, byte for
byte), in the manner of ``chess.svg``; :meth:`Game._repr_svg_` calls it, so a
game evaluated in a notebook draws itself. :func:`draw` makes the same picture
on a matplotlib Axes, in the manner of ``networkx.draw`` (``ax=None`` makes a
new figure; matplotlib is imported only when called).

Both take a :class:`~fepaper.game.Game` (at the start of a turn or in the middle
of one) or a :class:`~fepaper.game.board.Board` (an empty board, ball on kick-off).
``y`` grows downward, as in the thesis: node ``(x, y)`` is drawn at ``(x, y)``
scaled, so the top goal (the one player 1 attacks) is at the top.

What is drawn: the field, the two goals (each tinted with the colour of the
player who scores in it), a faint lattice of nodes, the edges marked from the
start (the walls and, when the rules have one, the middle line: the same thick
dark line, since the ball bounces off both alike), the edges each player has
marked in that player's colour, highlighted nodes as rings, the ball (its ring
in the colour of the player to move), if asked x / y labels and, if asked, a
legend of the colours (:func:`legend_handles` gives its entries to a figure of
several boards).

Examples
--------
>>> from fepaper.game import Game
>>> text = svg(Game("thesis", "0 54"))
>>> text.startswith("<svg")
True
>>> text.count('class="edge player2"')
2
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

from .board import Board

__all__ = ["svg", "draw", "legend_handles", "DEFAULT_COLORS", "SQUARE"]

#: Colours of the picture; pass some of these keys as ``colors=`` to override them.
DEFAULT_COLORS: dict[str, str] = {
    "background": "#ffffff",
    "field": "#eef5e6",
    "lattice": "#b9c2ae",
    "wall": "#2b2b2b",
    "middle": "#2b2b2b",
    "player1": "#1f66c2",
    "player2": "#d1342b",
    "ball": "#111111",
    "highlight": "#f28e00",
    "coord": "#6b6b6b",
}

#: Side of one square of the board, in SVG user units (pixels at the default size).
SQUARE = 30

# Sizes as fractions of a square: chosen so that a 10 x 16 board at ~360 px
# wide still shows thin player strokes distinctly from the thick walls.
_WALL_WIDTH = 0.13
_MIDDLE_WIDTH = _WALL_WIDTH  # the middle line is marked from the start, as the walls are
_EDGE_WIDTH = 0.085
_NODE_RADIUS = 0.05
_BALL_RADIUS = 0.2
_HIGHLIGHT_RADIUS = 0.3
_FONT_SIZE = 0.36
#: An upper bound of a sans-serif character's width, in ems (DejaVu Sans, among the widest, averages
#: about 0.5 on the legend's words): a legend line holds no more characters than fit at this width.
_CHAR_WIDTH = 0.6
_LINE_HEIGHT = 1.25  # a wrapped legend line, in font sizes
_GOAL_OPACITY = 0.22


def _state(game_or_board: Any) -> tuple[Board, np.ndarray, tuple[int, int], int]:
    """(board, owner per edge, ball node, player to move) of a Game or a Board."""
    if isinstance(game_or_board, Board):
        board = game_or_board
        owner = np.where(board.is_wall, 3, 0).astype(np.int8)
        return board, owner, board.kickoff, 1
    of_game = getattr(game_or_board, "board", None)
    marks = getattr(game_or_board, "owner", None)
    if not isinstance(of_game, Board) or marks is None:
        raise TypeError(f"expected a fepaper Game or Board, got {type(game_or_board).__name__}")
    return of_game, np.asarray(marks), game_or_board.ball, int(game_or_board.player)


def _colors(colors: Mapping[str, str] | None) -> dict[str, str]:
    merged = dict(DEFAULT_COLORS)
    if colors:
        unknown = sorted(set(colors) - set(DEFAULT_COLORS))
        if unknown:
            raise ValueError(f"unknown colour key(s) {unknown}; expected some of {sorted(DEFAULT_COLORS)}")
        merged.update(colors)
    return merged


def _highlights(highlight: Iterable[tuple[int, int]], board: Board) -> list[tuple[int, int]]:
    """The highlighted nodes, checked, in the order given, repeats dropped."""
    nodes: list[tuple[int, int]] = []
    for p in highlight:
        node = (int(p[0]), int(p[1]))
        if node not in board.index:
            raise ValueError(f"highlight node {node} is not a node of the {board.rules} board")
        if node not in nodes:
            nodes.append(node)
    return nodes


def _legend_entries(highlight: bool, counted: bool = False) -> list[tuple[str, str]]:
    """(colour key, text) of the legend: the players' colours, the marks of the start, the ball."""
    entries = [("player1", "player 1: kicks off, scores in the top goal"),
               ("player2", "player 2: scores in the bottom goal"),
               ("wall", "marked from the start: walls, middle line"),
               ("ball", "ball (its ring: the player to move)")]
    if highlight:
        entries.append(("highlight", "end node of a distinct turn" + (" (the number: how many end there)"
                                                                       if counted else "")))
    return entries


def _is_middle(board: Board, u: tuple[int, int], v: tuple[int, int]) -> bool:
    return board.rules.middle_line and u[1] == v[1] == board.rules.height // 2


def _num(value: float) -> str:
    """A coordinate as short, deterministic text: ``45``, ``12.5``, ``3.25``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def svg(
    game_or_board: Any,
    *,
    highlight: Iterable[tuple[int, int]] = (),
    size: int | None = None,
    coordinates: bool = True,
    colors: Mapping[str, str] | None = None,
    legend: bool = False,
    counts: Mapping[tuple[int, int], int] | None = None,
    heat: Mapping[tuple[int, int], int] | None = None,
) -> str:
    """A standalone SVG picture of a game or an empty board.

    Parameters
    ----------
    game_or_board : Game or Board
        A game (at the start of a turn or in the middle of one), or a board,
        drawn empty with the ball on the kick-off node.
    highlight : iterable of (x, y), optional
        Nodes to ring, e.g. the end nodes of the distinct turns.
    size : int, optional
        Width of the picture in pixels (the height follows). By default one
        square is :data:`SQUARE` pixels: about 360 px across a 10 x 16 board.
    coordinates : bool, default True
        Whether to label the columns (x, above) and rows (y, on the left).
    colors : mapping, optional
        Colours overriding some keys of :data:`DEFAULT_COLORS`.
    legend : bool, default False
        Whether to write, under the board, what the colours mean (class ``legend``).
    counts : mapping of (x, y) to int, optional
        A number for some highlighted nodes, e.g. how many distinct turns end there:
        written beside the ring (class ``ring-count``) and as the ring's tooltip.
    heat : mapping of (x, y) to int, optional
        A number per node drawn as a heat map (class ``heat``: a disc whose opacity grows
        with the logarithm of the number, its value in the disc's tooltip), e.g. the
        distinct turns ending at each node.

    Returns
    -------
    str
        An ``<svg>`` document. Its elements carry classes for styling and
        testing: ``field``, ``goal``, ``node``, ``wall`` (``wall middle-line``
        for the middle line), ``edge player1`` / ``edge player2``,
        ``highlight``, ``ball`` and ``coord``.

    Raises
    ------
    TypeError
        If ``game_or_board`` is neither a Game nor a Board.
    ValueError
        If a highlighted node is not on the board, or a colour key is unknown.

    Examples
    --------
    >>> from fepaper.game.board import Board
    >>> from fepaper.game.rules import Rules
    >>> picture = svg(Board.of(Rules.preset("standard")), coordinates=False)
    >>> picture.count('class="wall"')
    40
    """
    board, owner, ball, player = _state(game_or_board)
    c = _colors(colors)
    nodes = _highlights(highlight, board)
    counts = {(int(p[0]), int(p[1])): int(n) for p, n in (counts or {}).items()}
    rules = board.rules
    w, h, g = rules.width, rules.height, rules.goal_width
    s = SQUARE
    pad = 0.9 * s if coordinates else 0.5 * s
    entries = _legend_entries(bool(nodes), counted=bool(counts)) if legend else []
    if legend and heat:
        entries.append(("heat", "distinct turns ending at the node (darker: more; hover for the number)"))
    row = 0.62 * s  # one legend entry of one line
    line_step = _LINE_HEIGHT * _FONT_SIZE * s  # each further line of a wrapped entry
    board_height = (h + 2) * s + 2 * pad
    width = w * s + 2 * pad
    text_x = pad + 1.2 * s  # the entries' text, right of their samples
    fit = max(10, int((width - text_x - 0.2 * s) / (_CHAR_WIDTH * _FONT_SIZE * s)))
    wrapped = [(key, textwrap.wrap(text, fit, break_on_hyphens=False)) for key, text in entries]
    tops = [0.0]  # each entry's top, under the board
    for _, lines in wrapped:
        tops.append(tops[-1] + row + (len(lines) - 1) * line_step)
    height = board_height + tops[-1] + (0.3 * s if entries else 0)
    if size is None:
        px_w, px_h = width, height
    else:
        if size <= 0:
            raise ValueError(f"size must be a positive number of pixels, got {size!r}")
        px_w, px_h = size, size * height / width

    def X(x: float) -> str:
        return _num(pad + x * s)

    def Y(y: float) -> str:
        return _num(pad + (y + 1) * s)

    def line(u: tuple[int, int], v: tuple[int, int], cls: str, color: str, stroke: float) -> str:
        return (f'<line class="{cls}" x1="{X(u[0])}" y1="{Y(u[1])}" x2="{X(v[0])}" y2="{Y(v[1])}" '
                f'stroke="{color}" stroke-width="{_num(stroke * s)}" stroke-linecap="round"/>')

    title = repr(game_or_board)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(px_w)}" '
        f'height="{_num(px_h)}" viewBox="0 0 {_num(width)} {_num(height)}">',
        f"<title>{escape(title)}</title>",
        f'<rect class="background" x="0" y="0" width="{_num(width)}" height="{_num(height)}" '
        f'fill="{c["background"]}"/>',
        f'<rect class="field" x="{X(0)}" y="{Y(0)}" width="{_num(w * s)}" height="{_num(h * s)}" '
        f'fill="{c["field"]}"/>',
    ]
    lo = w // 2 - g // 2
    # The top goal is where player 1 scores, the bottom one where player 2 does.
    for top, scorer in ((-1, 1), (h, 2)):
        out.append(f'<rect class="goal" x="{X(lo)}" y="{Y(top)}" width="{_num(g * s)}" height="{_num(s)}" '
                   f'fill="{c[f"player{scorer}"]}" fill-opacity="{_GOAL_OPACITY}"/>')
    for x, y in board.nodes:
        out.append(f'<circle class="node" cx="{X(x)}" cy="{Y(y)}" r="{_num(_NODE_RADIUS * s)}" '
                   f'fill="{c["lattice"]}"/>')
    for e in np.flatnonzero(owner == 3):
        u, v = board.edges[e]
        if _is_middle(board, u, v):
            out.append(line(u, v, "wall middle-line", c["middle"], _MIDDLE_WIDTH))
        else:
            out.append(line(u, v, "wall", c["wall"], _WALL_WIDTH))
    for e in np.flatnonzero((owner == 1) | (owner == 2)):
        u, v = board.edges[e]
        who = int(owner[e])
        out.append(line(u, v, f"edge player{who}", c[f"player{who}"], _EDGE_WIDTH))
    if heat:
        top = max(heat.values())
        for (x, y), n in sorted(heat.items()):
            if (int(x), int(y)) not in board.index:
                raise ValueError(f"heat node {(x, y)} is not a node of the {board.rules} board")
            if n <= 0:
                continue
            alpha = 0.15 + 0.75 * math.log1p(n) / math.log1p(top)
            out.append(f'<circle class="heat" cx="{X(x)}" cy="{Y(y)}" r="{_num(_HIGHLIGHT_RADIUS * s)}" '
                       f'fill="{c["highlight"]}" fill-opacity="{alpha:.2f}">'
                       f"<title>{n:,} distinct turn{'s' * (n != 1)} end at {(x, y)}</title></circle>")
    for x, y in nodes:
        ends = counts.get((x, y))
        tip = "" if ends is None else f"<title>{ends} turn{'s' * (ends != 1)} end at ({x}, {y})</title>"
        out.append(f'<circle class="highlight" cx="{X(x)}" cy="{Y(y)}" r="{_num(_HIGHLIGHT_RADIUS * s)}" '
                   f'fill="none" stroke="{c["highlight"]}" stroke-width="{_num(0.08 * s)}">{tip}</circle>')
    for x, y in nodes:  # after every ring, so that no ring covers a number
        if (x, y) in counts:
            tx, ty = _num(pad + (x + 0.3) * s), _num(pad + (y + 0.72) * s)  # up and right of the ring
            out.append(f'<text class="ring-count" x="{tx}" y="{ty}" '
                       f'font-family="sans-serif" font-size="{_num(0.3 * s)}" font-weight="bold" '
                       f'fill="{c["highlight"]}" stroke="{c["background"]}" stroke-width="{_num(0.06 * s)}" '
                       f'paint-order="stroke">{counts[(x, y)]}</text>')
    out.append(f'<circle class="ball" cx="{X(ball[0])}" cy="{Y(ball[1])}" r="{_num(_BALL_RADIUS * s)}" '
               f'fill="{c["ball"]}" stroke="{c[f"player{player}"]}" stroke-width="{_num(0.08 * s)}"/>')
    if coordinates:
        font = (f'font-family="sans-serif" font-size="{_num(_FONT_SIZE * s)}" fill="{c["coord"]}" '
                'dominant-baseline="central"')
        for x in range(w + 1):
            out.append(f'<text class="coord" x="{X(x)}" y="{_num(pad / 2)}" text-anchor="middle" '
                       f"{font}>{x}</text>")
        for y in range(h + 1):
            out.append(f'<text class="coord" x="{_num(pad / 2)}" y="{Y(y)}" text-anchor="middle" '
                       f"{font}>{y}</text>")
    for (key, lines), legend_top in zip(wrapped, tops):
        ly = board_height + legend_top + 0.5 * row
        x0, x1 = pad, pad + 0.9 * s
        mid = _num((x0 + x1) / 2)
        if key in ("player1", "player2", "wall"):
            stroke = _EDGE_WIDTH if key != "wall" else _WALL_WIDTH
            sample = (f'<line x1="{_num(x0)}" y1="{_num(ly)}" x2="{_num(x1)}" y2="{_num(ly)}" '
                      f'stroke="{c[key]}" stroke-width="{_num(stroke * s)}" stroke-linecap="round"/>')
        elif key == "ball":
            sample = (f'<circle cx="{mid}" cy="{_num(ly)}" r="{_num(_BALL_RADIUS * s)}" '
                      f'fill="{c["ball"]}" stroke="{c["player1"]}" stroke-width="{_num(0.08 * s)}"/>')
        elif key == "heat":
            sample = (f'<circle cx="{mid}" cy="{_num(ly)}" r="{_num(_HIGHLIGHT_RADIUS * s * 0.8)}" '
                      f'fill="{c["highlight"]}" fill-opacity="0.6"/>')
        else:
            sample = (f'<circle cx="{mid}" cy="{_num(ly)}" r="{_num(_HIGHLIGHT_RADIUS * s * 0.8)}" '
                      f'fill="none" stroke="{c["highlight"]}" stroke-width="{_num(0.08 * s)}"/>')
        spans = "".join(f'<tspan x="{_num(text_x)}" dy="{_num(line_step) if i else 0}">{escape(part)}</tspan>'
                        for i, part in enumerate(lines))
        out.append(f'<g class="legend">{sample}<text x="{_num(text_x)}" y="{_num(ly)}" '
                   f'font-family="sans-serif" font-size="{_num(_FONT_SIZE * s)}" fill="#333333" '
                   f'dominant-baseline="central">{spans}</text></g>')
    out.append("</svg>")
    return "\n".join(out)


def draw(
    game: Any,
    ax: Any = None,
    highlight: Iterable[tuple[int, int]] = (),
    *,
    coordinates: bool = True,
    colors: Mapping[str, str] | None = None,
    legend: bool = False,
) -> Any:
    """Draw a game or an empty board on a matplotlib Axes: the picture of :func:`svg`.

    Parameters
    ----------
    game : Game or Board
        What to draw (a board is drawn empty, the ball on the kick-off node).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the board.
    highlight : iterable of (x, y), optional
        Nodes to ring.
    coordinates : bool, default True
        Whether to keep integer x / y ticks as labels.
    colors : mapping, optional
        Colours overriding some keys of :data:`DEFAULT_COLORS`.
    legend : bool, default False
        Whether to add a legend of the colours under the board (for a figure of several
        boards, give the figure one legend of :func:`legend_handles` instead).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. The y axis is inverted (y grows downward, so the top
        goal is at the top) and the aspect is equal. The lines are
        ``LineCollection`` objects whose ``gid`` is ``"wall"``, ``"middle-line"``,
        ``"player1"`` or ``"player2"``; one segment per edge.

    Raises
    ------
    TypeError, ValueError
        As :func:`svg`.
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    board, owner, ball, player = _state(game)
    c = _colors(colors)
    nodes = _highlights(highlight, board)
    rules = board.rules
    w, h, g = rules.width, rules.height, rules.goal_width
    if ax is None:
        _fig, ax = plt.subplots(figsize=(0.3 * (w + 2), 0.3 * (h + 3)))
    # Line widths in points, scaled so a square is about as wide as in the SVG.
    bbox = ax.get_window_extent().transformed(ax.figure.dpi_scale_trans.inverted())
    square_pt = 72 * min(bbox.width / (w + 1.6), bbox.height / (h + 3.6))
    lo = w // 2 - g // 2

    ax.add_patch(Rectangle((0, 0), w, h, facecolor=c["field"], edgecolor="none", zorder=0))
    for top, scorer in ((-1, 1), (h, 2)):
        ax.add_patch(Rectangle((lo, top), g, 1, facecolor=c[f"player{scorer}"], alpha=_GOAL_OPACITY,
                               edgecolor="none", zorder=0))
    xs, ys = zip(*board.nodes)
    ax.scatter(xs, ys, s=(2 * _NODE_RADIUS * square_pt) ** 2, color=c["lattice"], zorder=1, gid="node",
               linewidths=0)

    groups: dict[str, list] = {"wall": [], "middle-line": [], "player1": [], "player2": []}
    for e in np.flatnonzero(owner != 0):
        u, v = board.edges[e]
        who = int(owner[e])
        key = ("middle-line" if _is_middle(board, u, v) else "wall") if who == 3 else f"player{who}"
        groups[key].append([u, v])
    style = {
        "wall": (c["wall"], _WALL_WIDTH, 2),
        "middle-line": (c["middle"], _MIDDLE_WIDTH, 2),
        "player1": (c["player1"], _EDGE_WIDTH, 3),
        "player2": (c["player2"], _EDGE_WIDTH, 3),
    }
    for key, segments in groups.items():
        if segments:
            color, width, z = style[key]
            ax.add_collection(LineCollection(segments, colors=color, linewidths=width * square_pt,
                                             capstyle="round", zorder=z, gid=key))
    if nodes:
        hx, hy = zip(*nodes)
        ax.scatter(hx, hy, s=(2 * _HIGHLIGHT_RADIUS * square_pt) ** 2, facecolors="none",
                   edgecolors=c["highlight"], linewidths=0.08 * square_pt, zorder=4, gid="highlight")
    ax.scatter([ball[0]], [ball[1]], s=(2 * _BALL_RADIUS * square_pt) ** 2, color=c["ball"],
               edgecolors=c[f"player{player}"], linewidths=0.08 * square_pt, zorder=5, gid="ball")

    ax.set_xlim(-0.8, w + 0.8)
    ax.set_ylim(h + 1.8, -1.8)  # inverted: y grows downward, so up is up
    ax.set_aspect("equal")
    for spine in ax.spines.values():
        spine.set_visible(False)
    if coordinates:
        ax.set_xticks(range(w + 1))
        ax.set_yticks(range(h + 1))
        ax.xaxis.tick_top()
        ax.tick_params(length=0, labelsize=7, labelcolor=c["coord"])
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    if legend:
        ax.legend(handles=legend_handles(colors, highlight=bool(nodes)), loc="upper center",
                  bbox_to_anchor=(0.5, 0.0), fontsize=7, frameon=False, ncol=1)
    return ax


def legend_handles(colors: Mapping[str, str] | None = None, *, highlight: bool = False) -> list:
    """The entries of a board's legend as matplotlib handles (the players' colours, the edges
    marked from the start, the ball, and with ``highlight`` the ring of a turn's end node):
    ``fig.legend(handles=legend_handles(), ...)`` under a figure of several boards."""
    from matplotlib.lines import Line2D

    c = _colors(colors)
    handles = []
    for key, text in _legend_entries(highlight):
        if key in ("player1", "player2"):
            handles.append(Line2D([], [], color=c[key], linewidth=2, label=text))
        elif key == "wall":
            handles.append(Line2D([], [], color=c["wall"], linewidth=3.5, label=text))
        elif key == "ball":
            handles.append(Line2D([], [], linestyle="none", marker="o", markersize=7, color=c["ball"],
                                  markeredgecolor=c["player1"], markeredgewidth=1.5, label=text))
        else:
            handles.append(Line2D([], [], linestyle="none", marker="o", markersize=9, markerfacecolor="none",
                                  markeredgecolor=c["highlight"], markeredgewidth=1.5, label=text))
    return handles
