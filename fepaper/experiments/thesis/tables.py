"""Tables for notebooks and reports: a round robin's cross table and players, and the README's
Reproduction table generated from the claims files (:mod:`~fepaper.experiments.thesis.claims`)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .claims import RULE_SETS, claims_path, read_claims

__all__ = ["cross_table", "player_table", "reproduction_markdown", "arithmetic_kind", "readme_with_table",
           "readme_folder", "README_START", "README_END"]


def _check(rr: dict) -> None:
    """A round robin's tables need two players and games between them; say so rather than print NaN."""
    players = rr.get("players") if isinstance(rr, dict) else None
    if not isinstance(players, list) or len(players) < 2:
        raise ValueError(f"a round robin's tables need at least 2 players, got {players!r}")
    if not rr["rows"]:
        raise ValueError("a round robin's tables need at least one game; this one has none")


def cross_table(rr: dict) -> pd.DataFrame:
    """Score of each row player against each column player (a fraction of the games played)."""
    _check(rr)
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(rr["played"] > 0, rr["score"] / rr["played"], np.nan)
    return pd.DataFrame(frac, index=rr["players"], columns=rr["players"])


def player_table(rr: dict) -> pd.DataFrame:
    """One row per player: games, score with its Wilson interval, Elo with its bootstrap
    interval, and the mean seconds and nodes per decision."""
    from ..play.ratings import wilson

    _check(rr)
    n = len(rr["players"])
    seconds, nodes, decisions = np.zeros(n), np.zeros(n), np.zeros(n)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for row in rr["rows"]:
        i, j = pairs[row["pairing"]]
        for side, k in (("a", i), ("b", j)):
            seconds[k] += row[f"seconds_{side}"]
            nodes[k] += row[f"nodes_{side}"]
            decisions[k] += row[f"decisions_{side}"]
    games = rr["played"].sum(axis=1)
    score = rr["score"].sum(axis=1)
    out = []
    for k, name in enumerate(rr["players"]):
        lo, hi = wilson(score[k], int(games[k])) if games[k] else (np.nan, np.nan)
        rating = rr["ratings"][k]
        out.append({
            "player": name, "games": int(games[k]), "score": score[k] / games[k] if games[k] else np.nan,
            "score_low": lo, "score_high": hi, "elo": rating["elo"], "elo_low": rating["elo_low"],
            "elo_high": rating["elo_high"],
            "seconds_per_decision": seconds[k] / decisions[k] if decisions[k] else np.nan,
            "nodes_per_decision": nodes[k] / decisions[k] if decisions[k] else np.nan,
        })
    return pd.DataFrame(out).sort_values("elo", ascending=False).reset_index(drop=True)


#: The markers around the generated table in README.md; the opening one names the folder of the
#: claims files, ``<!-- reproduction table from data/quick: ... -->``.
README_START = "<!-- reproduction table from "
README_END = "<!-- end of the reproduction table -->"
_START = re.compile(re.escape(README_START) + r"(\S+?):.*?-->")


def _figure(x: float) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return f"{x:.3g}" if abs(x) < 1e4 else f"{x:.3e}"


def _found(r) -> str:
    value = _figure(r.estimate)
    if not value:
        return ""
    interval = f" [{_figure(r.low)}, {_figure(r.high)}]" if _figure(r.low) and (r.low != r.high) else ""
    unit = f" {r.unit}" if isinstance(r.unit, str) and r.unit and r.unit != "value" else ""
    games = f", {int(r.games)} games" if r.games else ""
    return f"{value}{interval}{unit}{games}"


#: The README's table quotes the thesis's sentence up to this many characters (the claims files and
#: notebook 04 hold the whole sentence and the hypotheses tested).
CLAIM_CHARS = 64


ARITHMETIC_HEAD = ("The §2.1 arithmetic, apart from the claims: does each figure follow from the inputs "
                   "the thesis gives, read as exact, as an upper bound or approximately (a declared "
                   "tolerance)? The claims files' notes say where one does not:")


def arithmetic_kind(method: str) -> str:
    """How an arithmetic row read its figure, from its method (``arithmetic (upper bound): ...``):
    ``exact``, ``upper bound`` or ``approximately`` (``exact`` for files written before the
    readings were declared, whose method is ``arithmetic: ...``).

    >>> arithmetic_kind("arithmetic (upper bound): 7 x 6 ** 34"), arithmetic_kind("arithmetic: 7 ** 70")
    ('upper bound', 'exact')
    """
    head = str(method).split(":", 1)[0]
    if not head.startswith("arithmetic"):
        raise ValueError(f"not an arithmetic row's method: {method!r}")
    return head.removeprefix("arithmetic").strip(" ()") or "exact"


def _cut(text: str, chars: int) -> str:
    """``text`` cut at a word before ``chars`` characters, an ellipsis marking the cut.

    >>> _cut("the best version of ant colonies is the FerDistRival version", 30)
    'the best version of ant…'
    """
    text = " ".join(text.split())
    if len(text) <= chars:
        return text
    return text[: text.rfind(" ", 0, chars)].rstrip(" ,;:") + "…"


def reproduction_markdown(folder: str | Path, link: str = "notebooks", estimates: bool = True) -> str:
    """The Reproduction table: one line per claim of the claims files in ``folder`` (the thesis's
    sentence, cut to :data:`CLAIM_CHARS`), its verdict under each rule set found, with ``estimates``
    the estimate behind each verdict (the README leaves them to notebook 04), and the notebook that
    measures it (a link into ``link``); the §2.1 arithmetic (claims whose method is arithmetic)
    apart, in a table of its own below."""
    folder = Path(folder)
    tables = {name: read_claims(claims_path(folder, name)) for name in RULE_SETS
              if claims_path(folder, name).exists()}
    if not tables:
        raise ValueError(f"no claims file in {folder} (claims_<rules>.csv for rules in {sorted(RULE_SETS)})")
    names = list(tables)
    keys = list(dict.fromkeys(k for t in tables.values() for k in t["key"]))
    firsts = {key: next(t[t["key"] == key].iloc[0] for t in tables.values() if key in set(t["key"]))
              for key in keys}
    arithmetic = [key for key in keys if str(firsts[key]["method"]).startswith("arithmetic")]
    rule_sets = [f"{n}: verdict (estimate)" if estimates else n for n in names]
    head = ["claim (thesis)", "section"] + rule_sets + ["where"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for key in keys:
        if key in arithmetic:
            continue
        first = firsts[key]
        cells = [f"`{key}`: " + _cut(str(first["claim"]).replace("|", "/"), CLAIM_CHARS), first["section"]]
        for n in names:
            match = tables[n][tables[n]["key"] == key]
            if match.empty:
                cells.append("not measured")
                continue
            r = next(match.itertuples())
            cells.append(f"**{r.verdict}** ({_found(r)})" if estimates and _found(r) else f"**{r.verdict}**")
        cells.append(f"[{first['where']}]({link}/{first['where']}.ipynb)")
        lines.append("| " + " | ".join(c.replace("\n", " ") for c in cells) + " |")
    if arithmetic:
        lines += ["", ARITHMETIC_HEAD, "",
                  "| figure (thesis) | the thesis | recomputed | read as | verdict |",
                  "| --- | --- | --- | --- | --- |"]
        for key in arithmetic:
            r = firsts[key]
            lines.append(f"| `{key}`: {str(r['claim']).replace('|', '/')} | {r['thesis']} | "
                         f"{_figure(r['estimate'])} | {arithmetic_kind(r['method'])} | {r['verdict']} |")
    return "\n".join(lines) + "\n"


def readme_folder(readme: str) -> str:
    """The folder of claims files the README's table was generated from (as its marker says)."""
    found = _START.search(readme)
    if not found or README_END not in readme[found.end():]:
        raise ValueError("the README has no reproduction table markers")
    return found.group(1)


def readme_with_table(readme: str, folder: str | Path | None = None, link: str = "notebooks") -> str:
    """``readme``'s text with its reproduction table (between the markers) generated again by
    :func:`reproduction_markdown` from ``folder`` (default: the folder its marker names, relative
    to the current directory)."""
    named = readme_folder(readme)
    folder = str(folder) if folder is not None else named
    found = _START.search(readme)
    end = readme.index(README_END, found.end())
    table = reproduction_markdown(folder, link, estimates=False)
    start = (f"{README_START}{Path(folder).as_posix()}: generated by `fepaper claims-table --data "
             f"{Path(folder).as_posix()} --write README.md`, do not edit -->")
    return readme[:found.start()] + f"{start}\n{table}" + readme[end:]
