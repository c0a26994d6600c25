"""Checkpoints of a tuning run: sealed with a checksum, written atomically, refused whole when wrong.

A checkpoint holds the GA's population, hall of fame, logbook, generation and the
``random`` module's state. :func:`write_json_atomic` seals every document that
declares a ``"format"`` with a SHA-256 of its content, so :func:`read_checkpoint`
refuses a file edited by hand or damaged on disk before any of it is used. It then
checks every field, and that every number is one the run could have written (genes
within their bounds, scores between 0 and 1, fitness within the tie-break of its
score), so even an edit that recomputes the checksum cannot slip in an impossible
value. Errors are :class:`CheckpointError`, naming what is wrong; nothing is half-read.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from pathlib import Path
from typing import Any

from ...game.jsonio import JSONInputError, load
from ...game.writes import write_atomic

__all__ = ["CHECKPOINT_FORMAT", "CHECKPOINT_VERSION", "LOGBOOK_KEYS", "CheckpointError", "read_checkpoint",
           "write_json_atomic", "seal", "checksum", "parse", "check_seal", "check_logbook",
           "check_random_state", "is_number"]

CHECKPOINT_FORMAT = "fepaper-tuning-checkpoint"
#: 2: sealed with a checksum (version 1 files carry none and are refused).
CHECKPOINT_VERSION = 2
LOGBOOK_KEYS = ("gen", "nevals", "avg", "std", "min", "max", "best_score")
_SLACK = 1e-9  # float rounding in the GA's arithmetic


class CheckpointError(ValueError):
    """A tuning checkpoint that cannot be used: unreadable, edited, incomplete, or of another run."""


def checksum(data: dict) -> str:
    """SHA-256 of ``data`` without its ``"checksum"`` key, over canonical JSON (sorted keys)."""
    body = {k: v for k, v in data.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def seal(data: dict) -> dict:
    """``data`` with its :func:`checksum` under ``"checksum"``."""
    return {**data, "checksum": checksum(data)}


def write_json_atomic(path: Path, data: dict) -> None:
    """Write ``data`` as JSON so that ``path`` is either the old file or the whole new one.

    A document with a ``"format"`` (a checkpoint) is sealed with :func:`seal` first; the write is
    :func:`fepaper.game.writes.write_atomic` (never through a link, no folder created).
    """
    write_atomic(path, json.dumps(seal(data) if "format" in data else data), "checkpoint")


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _number_in(value, low: float, high: float) -> bool:
    return is_number(value) and low - _SLACK <= value <= high + _SLACK


def parse(path: Path) -> dict[str, Any]:
    try:
        data = load(path, "checkpoint")
    except JSONInputError as exc:
        raise CheckpointError(f"{exc} (truncated or edited?)") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"checkpoint {path}: must be a JSON object, got {type(data).__name__}")
    return data


def check_seal(data: dict, where: str, fmt: str = CHECKPOINT_FORMAT,
               version: int = CHECKPOINT_VERSION) -> None:
    """Refuse ``data`` unless it is a sealed document of format ``fmt`` and ``version`` whose
    checksum matches its content."""
    if data.get("format") != fmt:
        raise CheckpointError(f"{where}: not a {fmt} file (format {data.get('format')!r})")
    if data.get("version") != version:
        raise CheckpointError(f"{where}: version {data.get('version')!r}, this fepaper reads version "
                              f"{version} (sealed with a checksum); delete it to start again")
    if data.get("checksum") != checksum(data):
        raise CheckpointError(f"{where}: its checksum does not match its content (edited by hand or "
                              "damaged); delete it to start the run again")


def _genes(config, where: str) -> list[tuple[str, float, float, bool]]:
    genes = config.get("genes") if isinstance(config, dict) else None
    if not isinstance(genes, list) or not all(
            isinstance(g, list) and len(g) == 4 and isinstance(g[0], str) and is_number(g[1])
            and is_number(g[2]) and g[1] < g[2] and isinstance(g[3], bool) for g in genes):
        raise CheckpointError(f"{where}: config must be an object whose genes are [name, low, high, integer]")
    tie_break = config.get("tie_break")
    if not _number_in(tie_break, 0, math.inf):
        raise CheckpointError(f"{where}: config.tie_break must be a non-negative number, got {tie_break!r}")
    return [tuple(g) for g in genes]


def _check_genome(where: str, genome, genes) -> None:
    if not isinstance(genome, list) or len(genome) != len(genes) or not all(is_number(v) for v in genome):
        raise CheckpointError(f"{where}.genome must be a list of {len(genes)} numbers, got {genome!r}")
    for value, (name, low, high, integer) in zip(genome, genes):
        if not _number_in(value, low, high) or (integer and value != round(value)):
            kind = "an integer" if integer else "a number"
            raise CheckpointError(f"{where}.genome: {name} = {value!r} is not {kind} in [{low}, {high}]")


def _check_rows(where: str, rows, genes, tie_break: float) -> None:
    if not isinstance(rows, list) or not rows:
        raise CheckpointError(f"{where} must be a non-empty list, got {type(rows).__name__}")
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != {"genome", "fitness", "score"}:
            raise CheckpointError(f"{where}[{i}] must be an object with keys genome, fitness, score")
        _check_genome(f"{where}[{i}]", row["genome"], genes)
        for key in ("fitness", "score"):
            if not is_number(row[key]):
                raise CheckpointError(f"{where}[{i}].{key} must be a number, got {row[key]!r}")
        if not _number_in(row["score"], 0, 1):
            raise CheckpointError(f"{where}[{i}].score must be a mean result in [0, 1], got {row['score']}")
        if not _number_in(row["fitness"], row["score"] - tie_break, row["score"] + tie_break):
            raise CheckpointError(f"{where}[{i}].fitness {row['fitness']} is not its score {row['score']} "
                                  f"within the tie-break {tie_break}")


def check_logbook(where: str, book, gen: int, population: int, tie_break: float) -> None:
    if not isinstance(book, list) or len(book) != gen + 1:
        raise CheckpointError(f"{where}: logbook must be a list of {gen + 1} rows (generations 0..{gen})")
    for i, row in enumerate(book):
        if (not isinstance(row, dict) or set(row) != set(LOGBOOK_KEYS)
                or not all(is_number(row[k]) for k in LOGBOOK_KEYS) or row["gen"] != i):
            raise CheckpointError(f"{where}: logbook[{i}] must hold numbers {list(LOGBOOK_KEYS)} "
                                  f"with gen {i}")
        low, high = -tie_break, 1 + tie_break
        if not (_number_in(row["nevals"], 0, population) and _number_in(row["best_score"], 0, 1)
                and _number_in(row["min"], low, row["avg"]) and _number_in(row["max"], row["avg"], high)
                and _number_in(row["std"], 0, high - low)):
            raise CheckpointError(f"{where}: logbook[{i}] holds values no run writes: {row}")


def check_random_state(where: str, state) -> None:
    if (not isinstance(state, list) or len(state) != 3 or state[0] != 3 or not isinstance(state[1], list)
            or len(state[1]) != 625
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in state[1])
            or not (state[2] is None or is_number(state[2]))):
        raise CheckpointError(f"{where}: random_state must be [3, [625 integers], null or a number]")
    try:
        random.Random().setstate((state[0], tuple(state[1]), state[2]))
    except (ValueError, TypeError, OverflowError) as exc:
        raise CheckpointError(f"{where}: random_state is not a state of the random module: {exc}") from None


def read_checkpoint(path: Path) -> dict[str, Any]:
    """Load and fully check a checkpoint before anything of it is used.

    Raises
    ------
    CheckpointError
        For a file that is not strict JSON, not sealed by this version, whose checksum
        does not match, or with any field missing, malformed or out of its range.
    """
    where = f"checkpoint {path}"
    data = parse(path)
    check_seal(data, where)
    keys = {"format", "version", "checksum", "config", "generation", "population", "halloffame", "logbook",
            "random_state"}
    missing = sorted(keys - set(data))
    if missing:
        raise CheckpointError(f"{where}: missing key(s) {missing}")
    config = data["config"]
    genes = _genes(config, where)
    tie_break = config["tie_break"]
    gen = data["generation"]
    if isinstance(gen, bool) or not isinstance(gen, int) or gen < 0:
        raise CheckpointError(f"{where}: generation must be a non-negative integer, got {gen!r}")
    _check_rows(f"{where}: population", data["population"], genes, tie_break)
    if len(data["population"]) != config.get("population"):
        raise CheckpointError(f"{where}: population has {len(data['population'])} individuals, "
                              f"config says {config.get('population')!r}")
    _check_rows(f"{where}: halloffame", data["halloffame"], genes, tie_break)
    fitness = [row["fitness"] for row in data["halloffame"]]
    if fitness != sorted(fitness, reverse=True) or len(fitness) > config.get("hof_size", len(fitness)):
        raise CheckpointError(f"{where}: halloffame must be at most hof_size individuals, best first")
    check_logbook(where, data["logbook"], gen, len(data["population"]), tie_break)
    check_random_state(where, data["random_state"])
    return data
