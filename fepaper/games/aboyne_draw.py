"""The Aboyne board as SVG: hexagonal cells (pointy-top, rows ``a`` at the bottom to ``i`` at
the top), the two goals tinted in their owner's colour, the stones, and optional rings on
chosen cells (a selected stone, the cells it can reach); :func:`cell_at` maps a pixel of the
picture back to its cell (the widget's clicks).

>>> from fepaper.games.aboyne import Aboyne
>>> picture = svg(Aboyne())
>>> picture.count('class="stone red"'), picture.count('class="cell"') + picture.count('class="cell goal')
(9, 61)
>>> cell_at(*centre(30), None)  # the pixel at the centre of e5 (index 30)
30
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable

from .aboyne import AXIAL, CELLS, GOALS, NAMES, PLAYER_NAMES, Aboyne

__all__ = ["svg", "cell_at", "centre", "COLOURS", "CELL_RADIUS"]

CELL_RADIUS = 20.0  # pixels from a cell's centre to its corners
_MARGIN = 14.0
_ROOT3 = math.sqrt(3.0)
COLOURS = {"red": "#c62828", "blue": "#1565c0"}
_GOAL_TINT = {"red": "#f6d0d0", "blue": "#cfe0f6"}
_WIDTH = 2 * _MARGIN + 9 * _ROOT3 * CELL_RADIUS
_HEIGHT = 2 * _MARGIN + (8 * 1.5 + 2) * CELL_RADIUS


def centre(cell: int) -> tuple[float, float]:
    """The pixel centre of ``cell`` in the picture at its natural size."""
    q, r = CELLS[cell]
    return (_WIDTH / 2 + _ROOT3 * CELL_RADIUS * (q + r / 2), _HEIGHT / 2 + 1.5 * CELL_RADIUS * r)


def cell_at(px: float, py: float, size: float | None) -> int | None:
    """The cell under pixel ``(px, py)`` of a picture ``size`` pixels wide (None: natural size),
    or None off the board."""
    scale = 1.0 if size is None else _WIDTH / size
    x, y = px * scale - _WIDTH / 2, py * scale - _HEIGHT / 2
    fr = y / (1.5 * CELL_RADIUS)
    fq = x / (_ROOT3 * CELL_RADIUS) - fr / 2
    # round cube coordinates (q, r, -q-r) to the nearest cell
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return AXIAL.get((q, r))


def _hexagon(cx: float, cy: float, radius: float) -> str:
    points = []
    for k in range(6):
        a = math.radians(60 * k - 30)
        points.append(f"{cx + radius * math.cos(a):.1f},{cy + radius * math.sin(a):.1f}")
    return " ".join(points)


def svg(
    state: Aboyne,
    *,
    selected: int | None = None,
    targets: Iterable[int] = (),
    size: float | None = None,
    labels: bool = True,
) -> str:
    """The position as an SVG document.

    Parameters
    ----------
    state : Aboyne
    selected : int, optional
        A cell ringed as the selected stone (class ``selected``).
    targets : iterable of int
        Cells ringed as where the selected stone can go (class ``target``).
    size : float, optional
        Width in pixels (the height follows); None: natural size.
    labels : bool
        Write each cell's name in it (faint).
    """
    width, height = _WIDTH, _HEIGHT
    shown_w = width if size is None else float(size)
    shown_h = height * shown_w / width
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{shown_w:.0f}" height="{shown_h:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        f"<title>Aboyne: {html.escape(state.result_text())}</title>",
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="#fbf7ee"/>',
    ]
    goal_owner = {GOALS[p]: PLAYER_NAMES[p] for p in (0, 1)}
    for i in range(len(CELLS)):
        cx, cy = centre(i)
        if i in goal_owner:
            owner = goal_owner[i]
            out.append(
                f'<polygon class="cell goal {owner}" points="{_hexagon(cx, cy, CELL_RADIUS - 0.8)}" '
                f'fill="{_GOAL_TINT[owner]}" stroke="{COLOURS[owner]}" stroke-width="2"/>'
            )
        else:
            out.append(
                f'<polygon class="cell" points="{_hexagon(cx, cy, CELL_RADIUS - 0.8)}" fill="#efe3c8" '
                'stroke="#b9a77e" stroke-width="1"/>'
            )
        if labels:
            out.append(
                f'<text x="{cx:.1f}" y="{cy + 3.5:.1f}" font-size="9" text-anchor="middle" '
                f'fill="#9c8c68">{NAMES[i]}</text>'
            )
    blocked = set(state.blocked(0)) | set(state.blocked(1))
    for p in (0, 1):
        for c in state.cells_of(p):
            cx, cy = centre(c)
            name = PLAYER_NAMES[p]
            stroke = ' stroke="#222" stroke-width="2.5" stroke-dasharray="3 2"' if c in blocked else ""
            out.append(
                f'<circle class="stone {name}" cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL_RADIUS * 0.62:.1f}" '
                f'fill="{COLOURS[name]}"{stroke}><title>{NAMES[c]}: {name}'
                f"{' (blocked)' if c in blocked else ''}</title></circle>"
            )
    if selected is not None:
        cx, cy = centre(selected)
        out.append(
            f'<circle class="selected" cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL_RADIUS * 0.8:.1f}" '
            'fill="none" stroke="#f9a825" stroke-width="3"/>'
        )
    for t in targets:
        cx, cy = centre(t)
        out.append(
            f'<circle class="target" cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL_RADIUS * 0.45:.1f}" '
            'fill="#f9a825" fill-opacity="0.55" stroke="#e65100" stroke-width="1.5"/>'
        )
    out.append("</svg>")
    return "".join(out)
