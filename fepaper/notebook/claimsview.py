"""Claims files as a reader reads them: one table a rule set, figures to three significant
figures, integers as integers, blank where nothing was measured, the long texts wrapped, the
verdict marked and coloured; the §2.1 arithmetic in a table of its own; and every player of
notebook 04 named by what it is, with the key to those names. :func:`number_text` is the same
reading for any table of counts and measurements (a notebook's ``display.float_format``).

Examples
--------
>>> figure_text(22.5), figure_text(76.0), figure_text(1.2004e12), figure_text(float("nan"))
('22.5', '76', '1.2e+12', '')
>>> number_text(56_052_362.0), number_text(5.832), number_text(1.0382e19)
('56,052,362', '5.83', '1.04e+19')
>>> mark("refuted")
'✘ refuted'
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence

import pandas as pd

from ..controllers import spec_of
from ..experiments.thesis.claims import VERDICTS, is_arithmetic
from ..experiments.thesis.tables import arithmetic_kind
from . import plots

__all__ = ["MARKS", "COLOURS", "figure_text", "number_text", "mark", "claims_display", "claims_styler",
           "arithmetic_display", "arithmetic_styler", "player_names", "player_legend"]

#: A symbol per verdict, so the outcome reads at a glance (and in plain text).
MARKS = {"confirmed": "✔", "refuted": "✘", "not decided": "?", "not testable here": "–"}
#: The background of a verdict's cell.
COLOURS = {"confirmed": "#c7e9c0", "refuted": "#fcbba1", "not decided": "#fee391",
           "not testable here": "#d9d9d9"}
assert set(MARKS) == set(COLOURS) == set(VERDICTS)

# Columns whose text is long: wrapped in the cell at this width, never a horizontal scroll.
_WRAP = {"white-space": "normal", "word-wrap": "break-word", "text-align": "left"}
_WIDTHS = {"claim": "13em", "found": "8em", "test": "13em", "note": "17em", "figure": "12em",
           "reading": "13em"}


def figure_text(x) -> str:
    """A number as a table shows it: blank if missing, an integer as an integer, otherwise three
    significant figures (positional from 1e-4 to 1e6: 3520, not 3.52e+03); infinities as ``∞``."""
    if x is None or x == "":
        return ""
    x = float(x)
    if math.isnan(x):
        return ""
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if x.is_integer() and abs(x) < 1e6:
        return str(int(x))
    rounded = float(f"{x:.3g}")
    if 1e-4 <= abs(rounded) < 1e6:  # positional: 3520, 58.6, 0.000214
        text = f"{rounded:.{max(0, 2 - math.floor(math.log10(abs(rounded))))}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{x:.3g}"


def number_text(x) -> str:
    """A number in a table of counts and measurements: an integer with every digit, thousands
    apart, below 10^15 (a count stays exact where a missing value made its column float), any
    other as :func:`figure_text` (three significant figures)."""
    if isinstance(x, (int, float)) and math.isfinite(x) and float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    return figure_text(x)


def mark(verdict: str) -> str:
    """The verdict with its symbol (:data:`MARKS`)."""
    if verdict not in MARKS:
        raise ValueError(f"unknown verdict {verdict!r}; verdicts are {list(MARKS)}")
    return f"{MARKS[verdict]} {verdict}"


def _found(r) -> str:
    value = figure_text(r.estimate)
    if not value:
        return ""
    low, high = figure_text(r.low), figure_text(r.high)
    interval = f" [{low}, {high}]" if low and high and (low, high) != (value, value) else ""
    unit = f" {r.unit}" if isinstance(r.unit, str) and r.unit and r.unit != "value" else ""
    return f"{value}{interval}{unit}"


def claims_display(table: pd.DataFrame) -> pd.DataFrame:
    """The measured and played rows of one claims file (the arithmetic left out), as text:
    ``claim`` (key, section and the thesis's words), ``verdict`` (marked), ``found`` (estimate
    [interval] unit), ``games``, ``power`` (only where not decided), ``test`` (the hypothesis and
    the method) and ``note``."""
    rows = []
    for r in table[~is_arithmetic(table)].itertuples():
        rows.append({
            "claim": f"{r.key} ({r.section}): \u201c{r.claim}\u201d",
            "verdict": mark(r.verdict),
            "found": _found(r),
            "games": figure_text(r.games) if r.games else "",
            "power": figure_text(r.power) if r.verdict == "not decided" else "",
            "test": f"{r.hypothesis}; {r.method}",
            "note": "" if not isinstance(r.note, str) else r.note,
        })
    return pd.DataFrame(rows, columns=["claim", "verdict", "found", "games", "power", "test", "note"])


def _style(shown: pd.DataFrame, caption: str):
    def colour(cell: str) -> str:
        verdict = cell.split(" ", 1)[1] if " " in cell else cell
        return f"background-color: {COLOURS[verdict]}" if verdict in COLOURS else ""

    styler = shown.style.hide(axis="index").map(colour, subset=["verdict"])
    for column, width in _WIDTHS.items():
        if column in shown:
            styler = styler.set_properties(subset=[column], **_WRAP,
                                           **{"min-width": width, "max-width": width})
    styler = styler.set_properties(subset=["verdict"], **{"white-space": "nowrap", "font-weight": "bold"})
    return styler.set_caption(caption).set_table_styles(
        [{"selector": "caption", "props": "caption-side: top; font-weight: bold; text-align: left"},
         {"selector": "td, th", "props": "vertical-align: top"}])


def claims_styler(table: pd.DataFrame, caption: str = ""):
    """:func:`claims_display` styled: the verdict cells coloured (:data:`COLOURS`), the long
    columns wrapped, no index, ``caption`` above (say the rule set)."""
    return _style(claims_display(table), caption)


def arithmetic_display(table: pd.DataFrame) -> pd.DataFrame:
    """The §2.1 arithmetic rows of a claims file, as text: ``figure`` (key and what it is),
    ``the thesis`` (the value stated), ``recomputed``, ``reading`` (how the figure is read: to
    its digits, as an upper bound, approximately), ``verdict`` (marked) and ``note``."""
    rows = []
    for r in table[is_arithmetic(table)].itertuples():
        kind = arithmetic_kind(r.method)
        rows.append({"figure": f"{r.key}: {r.claim}", "the thesis": r.thesis,
                     "recomputed": figure_text(r.estimate),
                     "reading": f"{kind}: {r.hypothesis}", "verdict": mark(r.verdict), "note": r.note})
    return pd.DataFrame(rows, columns=["figure", "the thesis", "recomputed", "reading", "verdict", "note"])


def arithmetic_styler(table: pd.DataFrame, caption: str = "§2.1: the figure follows from its inputs"):
    """:func:`arithmetic_display` styled as :func:`claims_styler` is."""
    return _style(arithmetic_display(table), caption)


def _key(spec) -> str:
    return json.dumps(spec_of(spec), sort_keys=True)


def _labels(roster: Sequence[tuple[str, str, dict]]) -> dict[str, dict]:
    """One entry per distinct spec of ``roster`` (``(tag, role, spec)``, as
    :func:`~fepaper.experiments.thesis.players.roster` gives): its label (the controller's name,
    :func:`~fepaper.notebook.plots.base_name`, and the first tag its spec has) and its roles."""
    out: dict[str, dict] = {}
    for tag, role, spec in roster:
        key = _key(spec)
        if key in out:
            out[key]["role"] += f"; {role}"
        else:
            out[key] = {"player": f"{plots.base_name(spec)} {tag}".rstrip(), "role": role, "spec": spec}
    labels = [entry["player"] for entry in out.values()]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ValueError(f"two players share a label: {twice}")
    return out


def player_names(roster: Sequence[tuple[str, str, dict]]) -> Callable[[dict], str]:
    """The label of each player of ``roster`` (see :func:`_labels`), as a function of its spec
    (written with or without its defaults); a spec the roster lacks is a ValueError.

    >>> name = player_names([("tuned", "the tuned colony", {"name": "aco", "n_ants": 12})])
    >>> name({"name": "aco", "n_ants": 12, "variant": "base"})
    'ACO-base tuned'
    """
    labels = {key: entry["player"] for key, entry in _labels(roster).items()}

    def name(spec) -> str:
        try:
            return labels[_key(spec)]
        except KeyError:
            raise ValueError(f"no label for the player {plots.short_name(spec)}: it has no role") from None
    return name


def player_legend(roster: Sequence[tuple[str, str, dict]]) -> pd.DataFrame:
    """The key to the players' labels: one row per player of ``roster`` (``(tag, role, spec)``):
    its label (:func:`player_names`), its role(s), and ``differs from the defaults``, the fields
    of its spec set otherwise than its name's defaults (``none``: a colony so plays the thesis's
    parameters, which are its defaults)."""
    rows = [{"player": entry["player"], "role": entry["role"],
             "differs from the defaults": ", ".join(
                 f"{k} = {figure_text(v) if isinstance(v, float) else json.dumps(v)}"
                 for k, v in sorted(plots.changed_fields(entry["spec"]).items())) or "none"}
            for entry in _labels(roster).values()]
    return pd.DataFrame(rows, columns=["player", "role", "differs from the defaults"])
