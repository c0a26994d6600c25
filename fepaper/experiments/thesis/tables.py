"""Tables for notebooks and reports: a round robin's cross table and players, and the README's
Reproduction table generated from the claims files (:mod:`~fepaper.experiments.thesis.claims`)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .claims import RULE_SETS, claim
from .claimsfiles import claims_path, read_claims, read_declarations, sidecar_path

__all__ = ["cross_table", "player_table", "reproduction_markdown", "arithmetic_kind", "readme_with_table",
           "readme_folder", "readme_sources", "README_START", "README_END"]


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
    from ...stats.binomial import wilson

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
_START = re.compile(re.escape(README_START) + r"(\S+?)(?: beside (\S+?))?(?: declared (\S+?))?:.*?-->")


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


def _verdicts(folder: Path) -> dict[str, pd.DataFrame]:
    return {name: read_claims(claims_path(folder, name)) for name in RULE_SETS
            if claims_path(folder, name).exists()}


def claims_records(folder: str | Path, beside: str | Path | None = None) -> list[dict]:
    """The rows of the claims files in ``folder`` (and ``beside``), each with its ``budget`` and
    ``rules``, as plain records (NaN as None): what the Reproduction table is made from.

    Raises
    ------
    ValueError
        When neither folder holds a claims file.
    """
    out = []
    for where in [folder] + ([beside] if beside is not None else []):
        where = Path(where)
        budget = _budget(where)
        for name, table in _verdicts(where).items():
            for row in table.astype(object).where(table.notna(), None).to_dict("records"):
                out.append({"budget": budget, **row, "rules": name})
    if not out:
        raise ValueError(f"no claims file in {folder}" + (f" or {beside}" if beside is not None else ""))
    return out


def _budget(folder: Path) -> str:
    """The budget a folder of claims files was written at (its sidecars say; else its name)."""
    for name in RULE_SETS:
        side = sidecar_path(claims_path(folder, name))
        if side.exists():
            return str(json.loads(side.read_text(encoding="utf-8")).get("budget", folder.name))
    return folder.name


def _history(declarations: pd.DataFrame | None, budget: str, key: str) -> str:
    if declarations is None:
        return ""
    match = declarations[(declarations["budget"] == budget) & (declarations["key"] == key)]
    if match.empty:
        return ""
    r = match.iloc[0]
    games = f", first games `{r['first_game']}`" if r["first_game"] else ""
    return f"{budget}: declared `{r['declared']}`{games}"


def reproduction_markdown(folder: str | Path, link: str = "notebooks", estimates: bool = True,
                          beside: str | Path | None = None, declarations: str | Path | None = None) -> str:
    """The Reproduction table: one line per claim of the claims files in ``folder``: the thesis's
    whole sentence, the reading the row tests with its standing (primary, beside, or read after
    the data), its verdict under each rule set found (with ``estimates`` the estimate behind it;
    the README leaves them to notebook 04), the verdict of the claims files in ``beside`` (another
    budget's) next to it, marked where it differs, when the reading was declared and its first
    games committed (``declarations``, a file
    :func:`~fepaper.experiments.thesis.claimsfiles.read_declarations` reads), and the notebook that
    measures it (a link into ``link``). The §2.1 arithmetic (claims whose method is arithmetic)
    stands apart, in a table of its own below.

    ``folder`` may hold no claims file yet when ``beside`` does: its cells then say so."""
    folder = Path(folder)
    tables = _verdicts(folder)
    others = _verdicts(Path(beside)) if beside is not None else {}
    if not tables and not others:
        where = f"{folder}" + (f" or {beside}" if beside is not None else "")
        raise ValueError(f"no claims file in {where} (claims_<rules>.csv for rules in {sorted(RULE_SETS)})")
    names = [n for n in RULE_SETS if n in tables or n in others]
    budget = _budget(folder)
    other = _budget(Path(beside)) if beside is not None else ""
    history = read_declarations(declarations) if declarations is not None else None
    keys = list(dict.fromkeys(k for t in (*tables.values(), *others.values()) for k in t["key"]))
    firsts = {key: next(t[t["key"] == key].iloc[0] for t in (*tables.values(), *others.values())
                        if key in set(t["key"])) for key in keys}
    arithmetic = [key for key in keys if str(firsts[key]["method"]).startswith("arithmetic")]
    rule_sets = [f"{n}: verdict (estimate)" if estimates else n for n in names]
    head = ["claim (thesis)", "reading", "section", *rule_sets]
    head += (["declared"] if history is not None else []) + ["where"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for key in keys:
        if key in arithmetic:
            continue
        first = firsts[key]
        standing = _standing(key)
        cells = [f"`{key}`: {str(first['claim']).replace('|', '/')}",
                 f"*{standing}*: {str(first['thesis']).replace('|', '/')}", first["section"]]
        for n in names:
            cells.append(_cell(tables.get(n), others.get(n), key, estimates, budget, other))
        if history is not None:
            cells.append("; ".join(filter(None, (_history(history, b, key) for b in (budget, other)))))
        cells.append(f"[{first['where']}]({link}/{first['where']}.ipynb)")
        lines.append("| " + " | ".join(str(c).replace("\n", " ") for c in cells) + " |")
    if arithmetic:
        lines += ["", ARITHMETIC_HEAD, "",
                  "| figure (thesis) | the thesis | recomputed | read as | verdict |",
                  "| --- | --- | --- | --- | --- |"]
        for key in arithmetic:
            r = firsts[key]
            lines.append(f"| `{key}`: {str(r['claim']).replace('|', '/')} | {r['thesis']} | "
                         f"{_figure(r['estimate'])} | {arithmetic_kind(r['method'])} | {r['verdict']} |")
    return "\n".join(lines) + "\n"


def _standing(key: str) -> str:
    try:
        return claim(key).standing
    except KeyError:  # a row of a key no longer declared (an older file)
        return "primary"


def _cell(table: pd.DataFrame | None, other: pd.DataFrame | None, key: str, estimates: bool, budget: str,
          beside: str) -> str:
    """One rule set's cell: the verdict in ``table`` (budget ``budget``), and ``other``'s beside it."""
    def verdict(t):
        if t is None:
            return None
        match = t[t["key"] == key]
        return None if match.empty else next(match.itertuples())

    r, o = verdict(table), verdict(other)
    if r is None and other is None:
        return "not measured"
    out = f"{budget}: not yet" if r is None else (
        f"**{r.verdict}** ({_found(r)})" if estimates and _found(r) else f"**{r.verdict}**")
    if other is not None:
        was = "not measured" if o is None else o.verdict
        changed = " ⚑ changed" if r is not None and o is not None and o.verdict != r.verdict else ""
        out += f"; {beside}: {was}{changed}"
    return out


def readme_sources(readme: str) -> dict[str, str | None]:
    """What the README's table was generated from, as its marker says: ``folder`` of claims files,
    the ``beside`` folder and the ``declared`` file (None where the marker names none)."""
    found = _START.search(readme)
    if not found or README_END not in readme[found.end():]:
        raise ValueError("the README has no reproduction table markers")
    return {"folder": found.group(1), "beside": found.group(2), "declared": found.group(3)}


def readme_folder(readme: str) -> str:
    """The folder of claims files the README's table was generated from (as its marker says)."""
    return readme_sources(readme)["folder"]


def readme_with_table(readme: str, folder: str | Path | None = None, link: str = "notebooks",
                      beside: str | Path | None = None, declared: str | Path | None = None) -> str:
    """``readme``'s text with its reproduction table (between the markers) generated again by
    :func:`reproduction_markdown` from ``folder``, ``beside`` and ``declared`` (each by default
    what its marker names, relative to the current directory)."""
    named = readme_sources(readme)
    folder = str(folder) if folder is not None else named["folder"]
    beside = str(beside) if beside is not None else named["beside"]
    declared = str(declared) if declared is not None else named["declared"]
    found = _START.search(readme)
    end = readme.index(README_END, found.end())
    table = reproduction_markdown(folder, link, estimates=False, beside=beside, declarations=declared)
    sources = Path(folder).as_posix()
    options = f"--data {sources}"
    if beside:
        sources += f" beside {Path(beside).as_posix()}"
        options += f" --beside {Path(beside).as_posix()}"
    if declared:
        sources += f" declared {Path(declared).as_posix()}"
        options += f" --declared {Path(declared).as_posix()}"
    start = (f"{README_START}{sources}: generated by `fepaper claims-table {options} --write README.md`, "
             "do not edit -->")
    return readme[:found.start()] + f"{start}\n{table}" + readme[end:]
