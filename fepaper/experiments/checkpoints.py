"""Checkpoints of a tuning run: written atomically as JSON, refused whole when corrupt.

A checkpoint holds the GA's population, hall of fame, logbook, generation and the
``random`` module's state. :func:`read_checkpoint` checks every field before any of it
is used, so a truncated or edited file raises :class:`CheckpointError` naming what is
wrong and nothing is half-read.
"""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path
from typing import Any

__all__ = ["CHECKPOINT_FORMAT", "CHECKPOINT_VERSION", "LOGBOOK_KEYS", "CheckpointError", "read_checkpoint",
           "write_json_atomic"]

CHECKPOINT_FORMAT = "fepaper-tuning-checkpoint"
CHECKPOINT_VERSION = 1
LOGBOOK_KEYS = ("gen", "nevals", "avg", "std", "min", "max", "best_score")


class CheckpointError(ValueError):
    """A tuning checkpoint that cannot be used: unreadable, incomplete, or of another run."""


def write_json_atomic(path: Path, data: dict) -> None:
    """Write ``data`` as JSON so that ``path`` is either the old file or the whole new one."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as fh:
        json.dump(data, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _check_rows(where: str, rows, n_genes: int) -> None:
    if not isinstance(rows, list) or not rows:
        raise CheckpointError(f"{where} must be a non-empty list, got {type(rows).__name__}")
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != {"genome", "fitness", "score"}:
            raise CheckpointError(f"{where}[{i}] must be an object with keys genome, fitness, score")
        g = row["genome"]
        if not isinstance(g, list) or len(g) != n_genes or not all(_is_number(v) for v in g):
            raise CheckpointError(f"{where}[{i}].genome must be a list of {n_genes} numbers, got {g!r}")
        for key in ("fitness", "score"):
            if not _is_number(row[key]):
                raise CheckpointError(f"{where}[{i}].{key} must be a number, got {row[key]!r}")


def read_checkpoint(path: Path) -> dict[str, Any]:
    """Load and fully check a checkpoint before anything of it is used."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise CheckpointError(f"checkpoint {path}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CheckpointError(f"checkpoint {path}: not valid JSON (truncated?): {exc}") from None
    where = f"checkpoint {path}"
    keys = {"format", "version", "config", "generation", "population", "halloffame", "logbook",
            "random_state"}
    if not isinstance(data, dict):
        raise CheckpointError(f"{where}: must be a JSON object, got {type(data).__name__}")
    missing = sorted(keys - set(data))
    if missing:
        raise CheckpointError(f"{where}: missing key(s) {missing}")
    if data["format"] != CHECKPOINT_FORMAT or data["version"] != CHECKPOINT_VERSION:
        raise CheckpointError(f"{where}: not a {CHECKPOINT_FORMAT} version {CHECKPOINT_VERSION} file")
    config = data["config"]
    if not isinstance(config, dict) or not isinstance(config.get("genes"), list):
        raise CheckpointError(f"{where}: config must be an object with a list of genes")
    n_genes = len(config["genes"])
    gen = data["generation"]
    if isinstance(gen, bool) or not isinstance(gen, int) or gen < 0:
        raise CheckpointError(f"{where}: generation must be a non-negative integer, got {gen!r}")
    _check_rows(f"{where}: population", data["population"], n_genes)
    if len(data["population"]) != config.get("population"):
        raise CheckpointError(f"{where}: population has {len(data['population'])} individuals, "
                              f"config says {config.get('population')!r}")
    _check_rows(f"{where}: halloffame", data["halloffame"], n_genes)
    book = data["logbook"]
    if not isinstance(book, list) or len(book) != gen + 1:
        raise CheckpointError(f"{where}: logbook must be a list of {gen + 1} rows (generations 0..{gen})")
    for i, row in enumerate(book):
        if (not isinstance(row, dict) or set(row) != set(LOGBOOK_KEYS)
                or not all(_is_number(row[k]) for k in LOGBOOK_KEYS) or row["gen"] != i):
            raise CheckpointError(f"{where}: logbook[{i}] must hold numbers {list(LOGBOOK_KEYS)} "
                                  f"with gen {i}")
    state = data["random_state"]
    if (not isinstance(state, list) or len(state) != 3 or state[0] != 3 or not isinstance(state[1], list)
            or len(state[1]) != 625
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in state[1])
            or not (state[2] is None or _is_number(state[2]))):
        raise CheckpointError(f"{where}: random_state must be [3, [625 integers], null or a number]")
    try:
        random.Random().setstate((state[0], tuple(state[1]), state[2]))
    except (ValueError, TypeError, OverflowError) as exc:
        raise CheckpointError(f"{where}: random_state is not a state of the random module: {exc}") from None
    return data
