"""The figures of the notebooks: one style, one name and colour per player, sizes that read on a page.

* :func:`figure` and :func:`panel_grid` make figures :data:`PAGE_WIDTH` inches wide (a page
  of text at 100%), with the fonts of :data:`STYLE`, so a saved figure is read at the size
  it was drawn; a grid of panels wraps into rows instead of one wide strip.
* :func:`save_figure` writes ``figures/NAME.png`` with a one-line caption in the PNG itself
  (``docs/figures.md`` is generated from the captions) and, with ``timing=True``, marks a
  figure drawn from timings so that a rerun differing only by timing noise keeps the
  committed file (:mod:`fepaper.notebook.publish`).
* :func:`short_name`, :func:`colour` and :func:`marker` give every controller spec (and every
  algorithm of :data:`fepaper.experiments.complexity.scaling.ALGORITHMS`) one short name, one colour and
  one marker, the same in every notebook; :func:`players_table` and :func:`save_players`
  write them next to the data (``data/NN_players.csv``) so a reader can decode any plot.
* :func:`label_points` names points on a scatter without overlapping labels;
  :func:`integer_bins` and :func:`step_hist` draw distributions of counts as steps over
  shared integer bins; :func:`errorbars` draws estimates with their intervals.

Examples
--------
>>> short_name({"name": "alphabeta", "variant": "dynamic", "depth": 2})
'AB-dynamic L2'
>>> short_name({"name": "aco", "variant": "ferdistrival", "once_per_cycle": True})
'ACO-FerDistRival/cycle'
>>> colour({"name": "alphabeta", "variant": "dynamic", "depth": 3}) == colour("thesis-dynamic")
True
>>> integer_bins([[1, 2, 2], [5]]).tolist()
[0.5, 1.5, 2.5, 3.5, 4.5, 5.5]
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..game.writes import write_atomic
from .results import PNG_TIMING_KEY, save_table

__all__ = ["PAGE_WIDTH", "STYLE", "DPI", "style", "figure", "panel_grid", "save_figure", "short_name",
           "base_name", "changed_fields", "colour", "marker", "players_table", "save_players", "label_points",
           "integer_bins", "step_hist", "errorbars"]

#: Width of a figure in inches: the text width of a page, so 9-point text reads at 100%.
PAGE_WIDTH = 6.5
#: Pixels per inch of a saved figure (a page-wide figure is 1300 pixels across).
DPI = 200
#: The matplotlib settings of every figure (:func:`style`).
STYLE: dict[str, Any] = {
    "font.size": 9,
    "axes.titlesize": 9.5,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "figure.titlesize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.5,
    "lines.markersize": 5,
    "figure.dpi": 110,
    "savefig.dpi": DPI,
    "figure.constrained_layout.use": True,
}


def style() -> None:
    """Use :data:`STYLE` for every figure drawn from now on in this process."""
    import matplotlib as mpl

    mpl.rcParams.update(STYLE)


def figure(nrows: int = 1, ncols: int = 1, *, height: float | None = None, **kw):
    """A figure :data:`PAGE_WIDTH` wide with ``nrows x ncols`` axes, as ``plt.subplots`` returns them
    (one Axes, a row or column of them, or a grid); other keywords go to ``plt.subplots``.

    ``height`` in inches; by default 0.6 of the width for one row, 2.3 inches a row for more.
    """
    import matplotlib.pyplot as plt

    style()
    if height is None:
        height = 0.6 * PAGE_WIDTH if nrows == 1 else 2.3 * nrows
    return plt.subplots(nrows, ncols, figsize=(PAGE_WIDTH, height), **kw)


def panel_grid(n: int, ncols: int = 3, *, panel_height: float = 2.1, **kw):
    """``n`` panels in rows of ``ncols`` at page width; returns ``(fig, axes)`` with ``axes`` a flat
    list of the ``n`` axes in use (the spare cells of the last row are removed)."""
    if n < 1:
        raise ValueError(f"panel_grid needs at least one panel, got {n}")
    ncols = max(1, min(ncols, n))
    nrows = -(-n // ncols)
    fig, axes = figure(nrows, ncols, height=panel_height * nrows + 0.4, **kw)
    axes = list(np.atleast_1d(axes).ravel())
    for ax in axes[n:]:
        ax.remove()
    return fig, axes[:n]


def save_figure(fig, folder, name: str, caption: str, *, timing: bool = False) -> Path:
    """Save ``fig`` as ``folder/name.png``, with its caption, at :data:`DPI`.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        At most a little wider than :data:`PAGE_WIDTH` (make it with :func:`figure`).
    folder : path
        The figures folder of :func:`fepaper.notebook.budget.output_dirs`.
    name : str
        The file name without ``.png``, starting with the notebook's number.
    caption : str
        One line saying what the figure shows (it goes into ``docs/figures.md``); no
        number measured on this machine.
    timing : bool
        Whether the figure draws timings: then a rerun that changes only timings keeps the
        committed file. Save the data it draws with
        :func:`fepaper.notebook.results.save_table`, so a real change is seen there.

    Raises
    ------
    ValueError
        If the figure is wider than the page, or the caption is empty or several lines.
    """
    width = fig.get_size_inches()[0]
    if width > PAGE_WIDTH * 1.1:
        raise ValueError(f"save_figure {name}: the figure is {width:.1f} in wide; draw it {PAGE_WIDTH} in "
                         "wide (fepaper.notebook.plots.figure or panel_grid) so its text reads on a page")
    caption = caption.strip()
    if not caption or "\n" in caption:
        raise ValueError(f"save_figure {name}: give one line of caption saying what the figure shows")
    path = Path(folder) / f"{name}.png"
    metadata = {"Title": name, "Description": caption}
    if timing:
        metadata[PNG_TIMING_KEY] = "1"
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.05, metadata=metadata)
    return write_atomic(path, buffer.getvalue(), f"figure {name}")


# -- players: one short name, one colour, one marker ----------------------------------------------
# Families of hues: alpha-beta blues, ant colonies oranges and browns, MCTS green, the complete-turn
# search purple, minimax dark grey, baselines olive and light grey, Foo's machines pink.
_COLOURS = {
    ("alphabeta", "dynamic"): "#08519c",
    ("alphabeta", "static"): "#6baed6",
    ("alphabeta", "costs"): "#17becf",
    ("alphabeta", "nocycles"): "#3f3fbf",
    ("aco", "base"): "#fd8d3c",
    ("aco", "ferdist"): "#d94801",
    ("aco", "ferdistrival"): "#8c2d04",
    ("aco", "ferdistrival/cycle"): "#b15928",
    ("aco", "base/cycle"): "#fdbe85",
    ("aco", "ferdist/cycle"): "#f16913",
    ("aco", "mmas"): "#a6761d",
    ("aco", "rank"): "#e6ab02",
    ("mcts", None): "#238b45",
    ("turnsearch", None): "#7b3294",
    ("minimax", None): "#404040",
    ("greedy", None): "#9e9a1b",
    ("random", "steps"): "#a0a0a0",
    ("random", "turns"): "#5e5e5e",
    ("foo", None): "#dd3497",
    ("bestfirst", None): "#e31a1c",
    ("bestfirst", "net"): "#67000d",
    # the searches of notebook 02 that are not controllers of their own
    ("alphabeta-unordered", None): "#e31a1c",
    ("alphabeta-ordered", None): "#fb9a99",
}
#: The algorithms of :data:`fepaper.experiments.complexity.scaling.ALGORITHMS` as players.
_ALGORITHMS = {
    "minimax": ("MM", ("minimax", None)),
    "alphabeta-unordered": ("AB unordered", ("alphabeta-unordered", None)),
    "alphabeta-ordered": ("AB ordered", ("alphabeta-ordered", None)),
    "thesis-dynamic": ("AB-dynamic (steps)", ("alphabeta", "dynamic")),
    "turnsearch-tt": ("TS (TT + ID)", ("turnsearch", None)),
}
_ACO = {"base": "base", "ferdist": "FerDist", "ferdistrival": "FerDistRival"}
_OTHER = "#636363"


def _full(spec) -> dict:
    """The spec with every default filled in (``make(spec).spec``)."""
    from ..controllers import make

    return dict(make(spec).spec)


def _defaults(spec: dict, keys: Iterable[str]) -> dict:
    return _full({k: spec[k] for k in ("name", *keys) if k in spec})


def _digest(spec: dict) -> str:
    return hashlib.sha1(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:4]


def _kilo(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def _evaluator(s: dict) -> str:
    """The evaluator of a search: a network by its file's stem (``value_engines9``), else its name."""
    return Path(s["net"]).stem if s.get("evaluator") == "net" and s.get("net") else s["evaluator"]


def _by_net(s: dict) -> str | None:
    """The colour key's variant of a search: ``"net"`` for best-first valued by a network (its
    own colour, so the two best-first searches of a figure are told apart)."""
    return "net" if s["name"] == "bestfirst" and s.get("evaluator") == "net" else None


def _identity(spec) -> tuple[str, tuple, list[str]]:
    """(base short name, colour key, the spec's fields the name accounts for)."""
    if isinstance(spec, str) and spec in _ALGORITHMS:
        name, key = _ALGORITHMS[spec]
        return name, key, []
    s = _full(spec)
    family = s["name"]
    # the searches that stop on the clock: named by their time per decision
    if family in ("bestfirst", "mcts") and s.get("time_limit") and not s.get("iterations"):
        plain = {"mcts": "playout", "bestfirst": "distance"}[family]
        name = {"mcts": "MCTS", "bestfirst": "BF"}[family]
        name += f" {_evaluator(s)}" if s.get("evaluator", plain) != plain else ""
        named = ["iterations", "evaluator", "net", "time_limit"]
        return f"{name} {s['time_limit']:g}s", (family, _by_net(s)), named
    if family == "alphabeta":
        return f"AB-{s['variant']} L{s['depth']}", ("alphabeta", s["variant"]), ["variant", "depth"]
    if family == "aco":
        name = "ACO-" + _ACO.get(s["variant"], s["variant"])
        key = ("aco", s["variant"])
        if s.get("once_per_cycle"):
            name, key = name + "/cycle", ("aco", f"{s['variant']}/cycle")
        if s.get("system", "as") != "as":
            name += " " + {"mmas": "MMAS", "rank": "rank"}.get(s["system"], s["system"])
            key = ("aco", s["system"])
        return name, key, ["variant", "once_per_cycle", "system"]
    if family == "mcts":
        name = f"MCTS {_kilo(s['iterations'])}" if s.get("iterations") else "MCTS"
        if s.get("evaluator", "playout") != "playout":
            name += f" {s['evaluator']}"
        return name, ("mcts", None), ["iterations", "evaluator"]
    if family in ("turnsearch", "minimax"):
        name = f"{'TS' if family == 'turnsearch' else 'MM'} d{s['depth']}"
        if s.get("time_limit"):
            name += f" {s['time_limit']:g}s"
        return name, (family, None), ["depth", "time_limit"]
    if family == "foo":
        return f"Foo {s.get('machine') or s.get('level')}", ("foo", None), ["machine", "level"]
    if family == "gp":  # the tree is told apart by the digest of the changed fields
        name = f"GP-AB L{s['depth']}" if s["search"] == "alphabeta" else f"GP-TS d{s['depth']}"
        return name, ("gp", s["search"]), ["search", "depth"]
    if family == "bestfirst":
        name = "BF" + (f" {_kilo(s['iterations'])}" if s.get("iterations") else "")
        if s["evaluator"] != "distance":
            name += f" {_evaluator(s)}"
        return name, ("bestfirst", _by_net(s)), ["iterations", "evaluator", "net"]
    if family == "random":
        turns = s.get("mode") == "turns"
        return ("random turns" if turns else "random"), ("random", "turns" if turns else "steps"), ["mode"]
    return family, (family, None), []


def base_name(spec) -> str:
    """The family and what tells its players apart, without the digest :func:`short_name` adds
    to a changed spec: the start of a label that names a player by its role instead.

    >>> base_name({"name": "aco", "variant": "ferdist", "n_ants": 12})
    'ACO-FerDist'
    """
    return _identity(spec)[0]


def short_name(spec) -> str:
    """A short name of a controller spec (or of a notebook-02 algorithm), the same everywhere.

    The family and what tells its players apart: ``AB-dynamic L2`` (the thesis's alpha-beta
    at level 2), ``ACO-FerDist``, ``MCTS 2k``, ``TS d3 1s``, ``MM d2``, ``Foo GoAhead``,
    ``greedy``, ``random turns``. Fields left at other values than their defaults (a tuned
    colony's genes, a seed, weights) add ``*`` and four hexadecimal digits of the whole
    spec, so two different players never share a name.

    >>> short_name({"name": "aco", "variant": "ferdist", "n_ants": 12})
    'ACO-FerDist *4ad5'
    """
    base, _key, _named = _identity(spec)
    if isinstance(spec, str) and spec in _ALGORITHMS:
        return base
    if changed_fields(spec):
        return f"{base} *{_digest(_full(spec))}"
    return base


def changed_fields(spec) -> dict:
    """The fields of ``spec`` set otherwise than the defaults of its name: what the ``*`` and
    four hexadecimal digits of its :func:`short_name` stand for (empty for a player named plainly).

    >>> changed_fields({"name": "aco", "variant": "ferdist", "n_ants": 12})
    {'n_ants': 12}
    """
    if isinstance(spec, str) and spec in _ALGORITHMS:
        return {}
    _base, _key, named = _identity(spec)
    s = _full(spec)
    reference = _defaults(s, named)
    return {k: s.get(k) for k in sorted(set(s) | set(reference))
            if k not in named and s.get(k) != reference.get(k)}


def colour(spec) -> str:
    """The colour of a player: one per controller family and variant (a tuned colony has its
    variant's colour and another :func:`marker`)."""
    _base, key, _named = _identity(spec)
    return _COLOURS.get(key, _OTHER)


def marker(spec) -> str:
    """``"o"`` for a player with the default parameters of its name, ``"D"`` for a tuned or
    otherwise changed one (a name with ``*``)."""
    return "D" if "*" in short_name(spec) else "o"


def players_table(specs: Sequence, names: Callable[[Any], str] = short_name) -> pd.DataFrame:
    """One row per player: ``player`` (its label: ``names(spec)``, the short name unless a
    notebook names its players by their roles), ``colour``, ``marker``, ``controller`` and the
    full ``spec`` as JSON; specs may also be notebook-02 algorithm names."""
    rows = []
    for spec in specs:
        algorithm = isinstance(spec, str) and spec in _ALGORITHMS
        full = spec if algorithm else _full(spec)
        rows.append({"player": names(spec), "colour": colour(spec), "marker": marker(spec),
                     "controller": spec if algorithm else full["name"],
                     "spec": json.dumps(full, sort_keys=True)})
    table = pd.DataFrame(rows, columns=["player", "colour", "marker", "controller", "spec"])
    if table.player.duplicated().any():
        raise ValueError(f"two players share a name: {table.player[table.player.duplicated()].tolist()}")
    return table


def save_players(specs: Sequence, folder, name: str, meta: Mapping | None = None,
                 names: Callable[[Any], str] = short_name) -> pd.DataFrame:
    """Write :func:`players_table` to ``folder/name.csv`` (e.g. ``data/04_thesis_players.csv``) and
    return it: the key to every label on the notebook's plots."""
    table = players_table(specs, names)
    save_table(table, folder, name, {"what": "the players of the plots: short name, colour, marker, spec",
                                     **(meta or {})})
    return table


# -- drawing helpers -------------------------------------------------------------------------------
def label_points(ax, xs, ys, labels, *, colours=None, fontsize: float = 7.5) -> list:
    """Write ``labels`` next to the points ``(xs, ys)`` so that no two labels overlap.

    Each label tries eight places around its point (right first) and takes the first that
    overlaps no label placed before it and stays inside the axes; labels are placed from
    the left. Returns the text artists.
    """
    fig = ax.figure
    fig.canvas.draw()  # sizes of text need a renderer
    renderer = fig.canvas.get_renderer()
    axes_box = ax.get_window_extent(renderer)
    offsets = [(5, 0, "left", "center"), (0, 6, "center", "bottom"), (0, -6, "center", "top"),
               (-5, 0, "right", "center"), (5, 6, "left", "bottom"), (5, -6, "left", "top"),
               (-5, 6, "right", "bottom"), (-5, -6, "right", "top")]
    placed, texts = [], []
    order = np.argsort(np.asarray(xs, dtype=float), kind="stable")
    for i in order:
        colour_i = colours[i] if colours is not None else "black"
        best = None
        for dx, dy, ha, va in offsets:
            text = ax.annotate(str(labels[i]), (xs[i], ys[i]), xytext=(dx, dy), textcoords="offset points",
                               ha=ha, va=va, fontsize=fontsize, color=colour_i)
            box = text.get_window_extent(renderer).expanded(1.05, 1.1)
            inside = (box.x0 >= axes_box.x0 and box.x1 <= axes_box.x1 and box.y0 >= axes_box.y0
                      and box.y1 <= axes_box.y1)
            if inside and not any(box.overlaps(other) for other in placed):
                best = (text, box)
                break
            text.remove()
        if best is None:  # nowhere free: to the right, as a last resort
            text = ax.annotate(str(labels[i]), (xs[i], ys[i]), xytext=(5, 0), textcoords="offset points",
                               ha="left", va="center", fontsize=fontsize, color=colour_i)
            best = (text, text.get_window_extent(renderer))
        placed.append(best[1])
        texts.append(best[0])
    return texts


def integer_bins(samples: Iterable[Iterable[int]]) -> np.ndarray:
    """Bin edges at half-integers covering every value of every sample: one bin per integer,
    the same bins for all samples."""
    values = [np.asarray(list(s), dtype=float) for s in samples]
    values = [v for v in values if len(v)]
    if not values:
        return np.array([-0.5, 0.5])
    lo = int(np.floor(min(v.min() for v in values)))
    hi = int(np.ceil(max(v.max() for v in values)))
    return np.arange(lo, hi + 2) - 0.5


def step_hist(ax, values, bins, *, label: str | None = None, share: bool = True, **kw):
    """A distribution as a step outline over ``bins`` (empty bins drawn at zero, never joined
    across): the share of values (or the count with ``share=False``) in each bin."""
    values = np.asarray(list(values), dtype=float)
    counts, edges = np.histogram(values, bins=bins)
    heights = counts / counts.sum() if share and counts.sum() else counts
    return ax.stairs(heights, edges, label=label, **kw)


def errorbars(ax, x, y, low, high, **kw):
    """Points ``y`` at ``x`` with the interval ``[low, high]`` drawn as error bars."""
    y, low, high = (np.asarray(v, dtype=float) for v in (y, low, high))
    return ax.errorbar(x, y, yerr=[y - low, high - y], capsize=kw.pop("capsize", 3), **kw)
