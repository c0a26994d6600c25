"""Claims files on disk: one per rule set (``claims_<rules>.csv`` and its sidecar), written
atomically in the thesis's order and read back checked, and the declarations file
(``data/claims_declared.csv``) that says, for each claim and budget, which commit declared the
reading its rows test and which commit first committed its games.

The rows themselves are defined in :mod:`~fepaper.experiments.thesis.claims`.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ...game.writes import write_atomic
from .claims import CLAIMS, COLUMNS, RULE_SETS, TIMED_CELLS, VERDICTS

__all__ = ["claims_path", "sidecar_path", "SIDECAR_FIELDS", "write_claims", "read_claims",
           "DECLARATION_COLUMNS", "read_declarations"]


def claims_path(folder: str | Path, rules: str) -> Path:
    """The claims file of rule set ``rules`` in ``folder``."""
    if rules not in RULE_SETS:
        raise ValueError(f"rules must be one of {sorted(RULE_SETS)}, got {rules!r}")
    return Path(folder) / f"claims_{rules}.csv"


#: What a claims file's sidecar must say (besides the library commit, which is added).
SIDECAR_FIELDS = ("rules", "budget", "seed", "tests")


def sidecar_path(path: str | Path) -> Path:
    """The sidecar of the claims file ``path``: ``claims_<rules>.json`` beside it."""
    return Path(path).with_suffix(".json")


def write_claims(path: str | Path, rows: list[dict], meta: dict) -> pd.DataFrame:
    """Write ``rows`` (in :data:`COLUMNS`) as a claims file, the claims in the order of
    :data:`CLAIMS` (the thesis's) after the §2.1 arithmetic, and its sidecar: ``meta`` (the
    rules, the budget, the seed and every test's parameters, :data:`SIDECAR_FIELDS`), the
    library commit that wrote it, the keys and verdicts written, and the cells that measure this
    machine (:data:`~fepaper.experiments.thesis.claims.TIMED_CELLS`). Returns the rows as a table.
    Nothing is written when the rows or ``meta`` are refused."""
    import json

    from ..complexity.solved import commit

    table = pd.DataFrame(rows, columns=COLUMNS)
    if table["key"].duplicated().any():
        twice = sorted(table["key"][table["key"].duplicated()])
        raise ValueError(f"a claims file has one row per claim; repeated: {twice}")
    order = {c.key: k for k, c in enumerate(CLAIMS)}  # the rows of other keys (the arithmetic) first
    table = table.iloc[sorted(range(len(table)), key=lambda i: (order.get(table["key"].iloc[i], -1), i))]
    table = table.reset_index(drop=True)
    missing = [k for k in SIDECAR_FIELDS if k not in meta]
    if missing:
        raise ValueError(f"a claims file's sidecar needs {list(SIDECAR_FIELDS)}; missing: {missing}")
    side = {"what": "fepaper claims file: every checkable claim of the thesis and its verdict",
            **json.loads(json.dumps(meta, default=str)), "library_commit": commit(),
            "verdicts": dict(zip(table["key"], table["verdict"])),
            "timing_cells": {"row": "key", "cells": {k: list(TIMED_CELLS[k]) for k in table["key"]
                                                     if k in TIMED_CELLS}}}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = table.to_csv(index=False, quoting=csv.QUOTE_MINIMAL, float_format="%.6g")
    write_atomic(path, text, "claims file")
    write_atomic(sidecar_path(path), json.dumps(side, indent=2, allow_nan=False) + "\n", "claims sidecar")
    return table


#: The columns of a claims file that hold numbers (or nothing).
NUMBERS = ("games", "estimate", "low", "high", "alpha", "beta", "power")
#: The longest cell a claims file may hold (the longest written is a note of about 500 characters).
MAX_CELL = 10_000
_ARITHMETIC_KEY = re.compile(r"arithmetic-[0-9]{1,3}")


def read_claims(path: str | Path) -> pd.DataFrame:
    """A claims file read as untrusted input, checked whole before it is used: fepaper's columns,
    every row's key (a claim of :data:`CLAIMS` or ``arithmetic-N``, once), verdict, numbers and
    cell lengths, and its verdicts those its sidecar recorded when the file was written (a
    verdict edited in the table alone is refused).

    Raises
    ------
    ValueError
        Naming the file, the line (the header is line 1) and what was wrong.
    """
    import json

    path = Path(path)
    try:
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a claims file ({str(exc).strip()})") from None
    if list(table.columns) != COLUMNS:
        raise ValueError(f"{path}: columns {list(table.columns)} are not a claims file's {COLUMNS}")
    keys = {c.key for c in CLAIMS}
    seen: set[str] = set()
    for line, r in zip(range(2, len(table) + 2), table.itertuples(index=False)):
        cells = r._asdict()
        where = f"{path}, line {line}"
        long = [c for c, v in cells.items() if len(v) > MAX_CELL]
        if long:
            raise ValueError(f"{where}: cell {long[0]} longer than {MAX_CELL:,} characters")
        if r.key not in keys and not _ARITHMETIC_KEY.fullmatch(r.key):
            raise ValueError(f"{where}: unknown claim {r.key[:80]!r}")
        if r.key in seen:
            raise ValueError(f"{where}: a claim appears twice ({r.key})")
        seen.add(r.key)
        if r.verdict not in VERDICTS:
            raise ValueError(f"{where}: unknown verdict {r.verdict[:80]!r} (one of {list(VERDICTS)})")
        for column in NUMBERS:
            try:
                float(cells[column] or "nan")
            except ValueError:
                raise ValueError(f"{where}: {column} must be a number or empty, got "
                                 f"{cells[column][:80]!r}") from None
    side = sidecar_path(path)
    try:
        recorded = json.loads(side.read_text(encoding="utf-8")).get("verdicts")
    except FileNotFoundError:
        raise ValueError(f"{path}: no sidecar {side} (a claims file is written with its sidecar, which "
                         "records its verdicts)") from None
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError) as exc:
        raise ValueError(f"{side}: not a claims sidecar ({exc})") from None
    written = dict(zip(table["key"], table["verdict"]))
    if recorded != written:
        if not isinstance(recorded, dict):
            raise ValueError(f"{side}: no verdicts recorded")
        differ = sorted(set(recorded.items()) ^ set(written.items()))[0][0]
        raise ValueError(f"{path}: the verdict of {differ} is {written.get(differ)!r} here and "
                         f"{recorded.get(differ)!r} in its sidecar {side.name}, which recorded the file "
                         "as written: the table was changed after it")
    for column in NUMBERS:
        table[column] = pd.to_numeric(table[column].replace("", np.nan))
    return table.replace("", np.nan)


#: The columns of a declarations file (``data/claims_declared.csv``): for each claim and budget, the
#: commit that declared the reading its rows test and the commit that first committed games (or
#: measurements) for it, and a note on how the reading came to stand where it does.
DECLARATION_COLUMNS = ["budget", "key", "declared", "first_game", "note"]
_COMMIT = re.compile(r"[0-9a-f]{7,40}")


def read_declarations(path: str | Path) -> pd.DataFrame:
    """A declarations file, checked: its columns, a budget, a key and a commit (7 to 40 hexadecimal
    digits) on every row, the first games' commit empty or a commit, one row per budget and key.

    Raises
    ------
    ValueError
        Naming the file, the line and what was wrong.
    """
    path = Path(path)
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    if list(table.columns) != DECLARATION_COLUMNS:
        raise ValueError(f"{path}: columns {list(table.columns)} are not a declarations file's "
                         f"{DECLARATION_COLUMNS}")
    for line, r in zip(range(2, len(table) + 2), table.itertuples()):
        if r.budget not in ("quick", "paper", "full") or not r.key:
            raise ValueError(f"{path}, line {line}: a budget (quick, paper or full) and a key, got "
                             f"{r.budget!r}, {r.key!r}")
        if not _COMMIT.fullmatch(r.declared) or (r.first_game and not _COMMIT.fullmatch(r.first_game)):
            raise ValueError(f"{path}, line {line}: commits are 7 to 40 hexadecimal digits, got "
                             f"{r.declared!r}, {r.first_game!r}")
    if table.duplicated(["budget", "key"]).any():
        raise ValueError(f"{path}: a budget and key appear twice")
    return table
