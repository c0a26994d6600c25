"""Benchmark of the complete-turn search to a fixed depth: ``fepaper bench listing [--reference CSV]``.

The turn listing is what every complete-turn search stands on, and where a search over complete
turns spends its time. This benchmark times :func:`~fepaper.search.turnsearch.search_turns` with
its defaults (alpha-beta, ordering, table, iterative deepening from 1) to depths 1 to
``max_depth`` on :func:`~fepaper.bench.search.search_positions` under the CodinGame rules (the
opening and one position from each of 9 seeded random games: 7 to 679,778 distinct turns),
with no clock: per position and depth the median seconds of ``repeat`` runs (a run over
:data:`LONG` seconds is run once), its nodes and its turn, and the total over the positions.

``reference`` sets another engine's seconds on the same positions beside them: a CSV measured
outside fepaper (:func:`read_reference`), e.g. by a program built from a public engine's
source; the ratio of each position is its seconds over fepaper's (above 1: fepaper is
faster). The two engines count nodes differently (fepaper a position a turn; an engine that
walks steps a node a step): nodes are shown, never compared.
"""

from __future__ import annotations

import csv
import io
import math
import time
from pathlib import Path

import numpy as np

from ..game.game import Game
from ..game.jsonio import read_bytes
from ..search.turnsearch import search_turns
from .search import search_positions

__all__ = ["LONG", "REFERENCE_COLUMNS", "ReferenceFileError", "read_reference", "bench_listing"]

#: Seconds beyond which a run is not repeated (its median would take minutes).
LONG = 1.0
#: The columns of a reference CSV, in order.
REFERENCE_COLUMNS = ("position", "depth", "seconds", "nodes", "turn")
_SEED, _COUNT, _RULES = 2026, 10, "codingame"


class ReferenceFileError(ValueError):
    """A reference CSV that is not what :func:`read_reference` reads."""


def read_reference(path: str | Path, positions: int = _COUNT) -> tuple[dict, list[str]]:
    """The rows of a reference CSV: ``{(position, depth): {"seconds", "nodes", "turn"}}`` and its
    comment lines (``#`` first, where the file says what measured it), validated whole before use.

    The file: optional ``#`` lines, then the header ``position,depth,seconds,nodes,turn``, then a
    row per position and depth measured: ``position`` from 0 to ``positions - 1`` (the order of
    the benchmark's positions), ``depth`` >= 1, ``seconds`` a finite number >= 0, ``nodes`` an
    integer >= 0 (as that engine counts them), ``turn`` the turn it chose in fepaper's digits.

    Raises
    ------
    ReferenceFileError
        Naming the line and what is wrong with it.
    """
    text = read_bytes(path, "the reference CSV").decode("utf-8", errors="strict")
    lines = text.splitlines()
    comments = [line[1:].strip() for line in lines if line.startswith("#")]
    body = [line for line in lines if not line.startswith("#") and line.strip()]
    if not body or tuple(c.strip() for c in body[0].split(",")) != REFERENCE_COLUMNS:
        raise ReferenceFileError(f"{path}: the first line that is not a comment must be the header "
                             f"{','.join(REFERENCE_COLUMNS)}")
    rows: dict = {}
    for number, row in enumerate(csv.reader(io.StringIO("\n".join(body[1:]))), start=2):
        where = f"{path}: row {number} ({','.join(row)[:80]!r})"
        if len(row) != len(REFERENCE_COLUMNS):
            raise ReferenceFileError(f"{where}: {len(row)} fields, expected {len(REFERENCE_COLUMNS)}")
        try:
            position, depth, nodes = int(row[0]), int(row[1]), int(row[3])
            seconds = float(row[2])
        except ValueError:
            raise ReferenceFileError(f"{where}: position, depth and nodes must be integers, seconds a "
                                     "number") from None
        turn = row[4].strip()
        if not 0 <= position < positions:
            raise ReferenceFileError(f"{where}: position must be from 0 to {positions - 1}")
        if depth < 1 or nodes < 0 or not math.isfinite(seconds) or seconds < 0:
            raise ReferenceFileError(f"{where}: depth must be >= 1, nodes >= 0 and seconds finite and >= 0")
        if not turn or not all(c in "01234567" for c in turn) or len(turn) > 1000:
            raise ReferenceFileError(f"{where}: the turn must be fepaper's digits 0-7")
        if (position, depth) in rows:
            raise ReferenceFileError(f"{where}: position {position} at depth {depth} is measured twice")
        rows[(position, depth)] = {"seconds": seconds, "nodes": nodes, "turn": turn}
    if not rows:
        raise ReferenceFileError(f"{path}: no rows")
    return rows, comments


def _timed(game: Game, depth: int, repeat: int) -> dict:
    seconds, result = [], None
    for k in range(repeat):
        start = time.perf_counter()
        result = search_turns(game, depth)
        seconds.append(time.perf_counter() - start)
        if k == 0 and seconds[0] > LONG:
            break
    return {"seconds": float(np.median(seconds)), "runs": len(seconds), "nodes": result.nodes,
            "turn": result.turn, "value": result.value}


def bench_listing(repeat: int = 3, max_depth: int = 3, count: int = _COUNT,
                  reference: str | Path | None = None) -> dict:
    """Seconds of the complete-turn search to each depth from 1 to ``max_depth`` on the first
    ``count`` positions, and a reference engine's beside them (see the module)."""
    if repeat < 1 or max_depth < 1 or not 1 <= count <= _COUNT:
        raise ValueError(f"repeat and max_depth must be >= 1 and count from 1 to {_COUNT}, got {repeat}, "
                         f"{max_depth}, {count}")
    ref, source = read_reference(reference, count) if reference is not None else ({}, [])
    records = search_positions(_SEED, count, _RULES)
    games = [Game(_RULES, r) for r in records]
    search_turns(games[0], 1)  # compiled outside the timing
    per: dict = {}
    totals: dict = {}
    for depth in range(1, max_depth + 1):
        rows = {str(i): _timed(g, depth, repeat) for i, g in enumerate(games)}
        per[str(depth)] = rows
        totals[str(depth)] = sum(r["seconds"] for r in rows.values())
    figures = {
        "listing_positions": (f"{count} {_RULES} positions: the opening and one from each of {count - 1} "
                              f"seeded random games, 5 to 24 turns in (seed {_SEED})"),
        "positions": [{"record": r, "turns": g.turns().count()} for r, g in zip(records, games)],
        "seconds": per, "total_seconds": totals, "max_depth": max_depth, "repeat": repeat, "long": LONG}
    if ref:
        figures.update(_beside(per, ref, source))
    return figures


def _beside(per: dict, ref: dict, source: list[str]) -> dict:
    """The reference's seconds beside fepaper's: per position the ratio (reference / fepaper), per
    depth the totals over the positions both measured and where fepaper was slower."""
    ratios: dict = {}
    totals: dict = {}
    slower: dict = {}
    for depth, rows in per.items():
        both = [p for p in rows if (int(p), int(depth)) in ref]
        if not both:
            continue
        mine = {p: rows[p]["seconds"] for p in both}
        theirs = {p: ref[(int(p), int(depth))]["seconds"] for p in both}
        ratios[depth] = {p: theirs[p] / mine[p] for p in both}
        totals[depth] = {"fepaper": sum(mine.values()), "reference": sum(theirs.values()),
                         "positions": len(both)}
        slower[depth] = [p for p in both if mine[p] > theirs[p]]
    return {"reference_source": source,
            "reference": {str(d): {str(p): r for (p, dd), r in sorted(ref.items()) if dd == d}
                          for d in sorted({d for _, d in ref})},
            "reference_over_fepaper": ratios, "reference_totals": totals, "fepaper_slower_at": slower}
