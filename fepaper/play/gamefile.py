"""The games file of a run: one CSV row per game, a JSON sidecar, and the checks that bind them.

A run appends each finished game to ``x.csv`` and describes itself in
``x.meta.json``: its settings and a *fingerprint*, a SHA-256 of the library
version of play (:data:`PLAY_VERSION`), the settings and every scheduled game (rules, both specs,
seed, colours, opening). A run that finds the files again resumes only if

- the sidecar's fingerprint is its own (else: "describes another run", naming the
  settings that differ);
- every row is a game of its schedule: the columns are fepaper's, the numbers are
  numbers, the specs, rules, seed, colours and opening are those scheduled for
  that pairing and game, the moves replay with :class:`~fepaper.game.Game` to the
  recorded winner, reason, turns, steps and decisions, and no game appears twice;
- the file is UTF-8 without NUL bytes.

Anything else raises :class:`GameFileError` naming the file, the line and the
field, and nothing is written. A last line without its line ending (a run killed
while writing it) is dropped and its game played again. Sidecars written before
the fingerprint (they hold exactly :data:`LEGACY_KEYS`) are accepted when they
equal the run's settings and every row checks out, then rewritten in the current
format.

Examples
--------
>>> sidecar("data/04_thesis_games.csv").name
'04_thesis_games.meta.json'
>>> rules_text({"preset": "thesis"}), spec_text({"name": "random", "mode": "turns"})
('thesis', '{"mode": "turns", "name": "random"}')
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
import warnings
from pathlib import Path
from typing import Any

from ..game.game import Game, IllegalTurn, InvalidRecord
from ..game.jsonio import JSONInputError, decode, load
from ..game.rules import Rules
from ..game.writes import write_atomic

__all__ = ["COLUMNS", "FORMAT", "FORMAT_VERSION", "LEGACY_KEYS", "GameFileError", "GameWriter", "sidecar",
           "spec_text", "rules_text", "fingerprint", "describe", "resume"]

COLUMNS = [
    "pairing", "game", "rules", "spec_a", "spec_b", "a_player", "seed", "opening", "winner", "reason",
    "turns", "steps", "moves", "seconds_a", "seconds_b", "nodes_a", "nodes_b", "decisions_a", "decisions_b",
    "score_a",
]
_INTS = ("pairing", "game", "a_player", "seed", "turns", "steps", "nodes_a", "nodes_b", "decisions_a",
         "decisions_b")
_FLOATS = ("seconds_a", "seconds_b", "score_a")
_NATURAL = re.compile(r"0|[1-9][0-9]*")
FORMAT = "fepaper-games"
FORMAT_VERSION = 2
#: The keys of a sidecar written before format 2 (fepaper 0.1.0).
LEGACY_KEYS = ("library", "version", "rules", "specs", "games", "seed", "budget")


def legacy_rules(rules) -> Rules:
    """What rules written by fepaper 0.1.0 (a preset name or a dict without ``dead_end``) meant:
    0.1.0 had one reading of a dead end under optional bounce, ``dead_end="stop"``."""
    fields = Rules.from_spec(rules).to_dict() if isinstance(rules, str) else dict(rules)
    if isinstance(rules, str) or "dead_end" not in fields:
        fields["dead_end"] = "stop" if fields.get("bounce", "optional") == "optional" else "blocked"
    return Rules.from_spec(fields)


def legacy_spec(spec: dict) -> dict:
    """What a spec written by fepaper 0.1.0 meant: its alpha-beta costs version charged every
    step 1 (``costs="steps"``; the default is now the thesis's reason, costs that favour bounces)."""
    if (isinstance(spec, dict) and spec.get("name") == "alphabeta" and spec.get("variant") == "costs"
            and "costs" not in spec):
        return {**spec, "costs": "steps"}
    return spec


class GameFileError(ValueError):
    """A games file or sidecar that is not this run's: damaged, edited, or another run's."""


def sidecar(path: str | Path) -> Path:
    """The JSON file describing the run whose games are in the CSV ``path``: ``x.csv`` -> ``x.meta.json``."""
    path = Path(path)
    return path.with_name(path.stem + ".meta.json")


def spec_text(spec: dict) -> str:
    """A spec as its games-file column: JSON with sorted keys."""
    return json.dumps(spec, sort_keys=True)


def rules_text(rules) -> str:
    """Rules as their games-file column: the preset name, else JSON of the fields."""
    rules = Rules.from_spec(rules)
    return rules.name or json.dumps(rules.to_dict(), sort_keys=True)


def _scheduled(job: dict) -> dict[str, Any]:
    """The columns of a row that its job fixes before the game is played."""
    return {"rules": rules_text(job["rules"]), "spec_a": spec_text(job["spec_a"]),
            "spec_b": spec_text(job["spec_b"]), "a_player": job["a_player"], "seed": job["seed"],
            "opening": job["opening"]}


#: The version of play a games file is fingerprinted with: it names how the controllers play from a
#: seed, not the package's release (``fepaper.__version__``), so a new release resumes the games an
#: older one played as long as play is unchanged. Move it when a controller plays differently from
#: the same spec and seed: every committed run then plays its games again.
PLAY_VERSION = "0.1.0"


def fingerprint(jobs: list[dict], meta: dict) -> str:
    """SHA-256 of :data:`PLAY_VERSION`, the run's settings ``meta`` and every scheduled game."""
    games = [[j["pairing"], j["game"], *_scheduled(j).values()] for j in jobs]
    body = json.dumps({"version": PLAY_VERSION, "meta": meta, "games": games}, sort_keys=True,
                      separators=(",", ":"))
    return "sha256:" + hashlib.sha256(body.encode()).hexdigest()


def describe(jobs: list[dict], meta: dict) -> dict[str, Any]:
    """The sidecar of a run: its format, settings, number of games and fingerprint."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "library": "fepaper", "version": PLAY_VERSION,
            **meta, "scheduled": len(jobs), "fingerprint": fingerprint(jobs, meta)}


# -- the sidecar --------------------------------------------------------------------------------
def _check_sidecar(path: Path, want: dict, meta: dict, has_rows: bool) -> bool:
    """Whether the sidecar must be (re)written; raises if it describes another run."""
    side = sidecar(path)
    if not side.exists():
        if has_rows:
            raise GameFileError(f"{path} holds games but its sidecar {side.name} is missing, so which run "
                                "wrote them is unknown; use a new output file")
        return True
    try:
        old = load(side, "games sidecar")
    except JSONInputError as exc:
        raise GameFileError(str(exc)) from None
    if not isinstance(old, dict):
        raise GameFileError(f"games sidecar {side}: must be a JSON object, got {type(old).__name__}")
    if "format" not in old:
        same = {k: old.get(k) == meta.get(k) for k in LEGACY_KEYS}
        if isinstance(old.get("specs"), list):
            same["specs"] = [legacy_spec(s) for s in old["specs"]] == meta.get("specs")
        try:
            same["rules"] = legacy_rules(old.get("rules")) == Rules.from_spec(meta.get("rules"))
        except (ValueError, TypeError):
            same["rules"] = False
        if set(old) == set(LEGACY_KEYS) and all(same.values()):
            return True  # a 0.1.0 sidecar of this run: upgraded once its rows check out
        diff = [k for k in sorted(set(old) | set(LEGACY_KEYS)) if not same.get(k, False)]
    elif old.get("format") != FORMAT or old.get("format_version") != FORMAT_VERSION:
        raise GameFileError(f"games sidecar {side}: not a {FORMAT} version {FORMAT_VERSION} sidecar "
                            f"(format {old.get('format')!r}, version {old.get('format_version')!r})")
    elif old.get("fingerprint") == want["fingerprint"]:
        return False
    else:
        diff = [k for k in sorted(set(old) | set(want)) if k != "fingerprint" and old.get(k) != want.get(k)]
    raise GameFileError(f"games sidecar {side} describes another run (it differs in "
                        f"{', '.join(diff) or 'the scheduled games'}); use a new output file, or delete "
                        f"{path.name} and {side.name} to play again")


# -- rows ---------------------------------------------------------------------------------------
def _fail(where: str, field: str, problem: str) -> GameFileError:
    return GameFileError(f"{where}, field {field}: {problem}")


def _short(value: Any, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _typed(fields: list[str], where: str) -> dict[str, Any]:
    if len(fields) != len(COLUMNS):
        raise GameFileError(f"{where}: {len(fields)} fields, expected {len(COLUMNS)} (a cut or glued line?)")
    row: dict[str, Any] = dict(zip(COLUMNS, fields))
    for name in _INTS:
        if not _NATURAL.fullmatch(row[name]):
            raise _fail(where, name, f"{_short(row[name])} is not a non-negative integer")
        row[name] = int(row[name])
    for name in _FLOATS:
        try:
            row[name] = float(row[name])
        except ValueError:
            raise _fail(where, name, f"{_short(row[name])} is not a number") from None
        if not math.isfinite(row[name]) or row[name] < 0:
            raise _fail(where, name, f"{row[name]} is not a finite non-negative number")
    return row


def _check_schedule(row: dict, job: dict, where: str) -> None:
    for name, value in _scheduled(job).items():
        if row[name] != value:
            raise _fail(where, name, f"{_short(row[name])} is not what this run schedules for pairing "
                        f"{job['pairing']}, game {job['game']}: {_short(value)}")


def _replayed(row: dict, rules, where: str) -> dict[str, Any]:
    """The result columns that replaying ``row["moves"]`` gives."""
    tokens = row["moves"].split(" ")
    n_opening = len(row["opening"].split())
    if row["opening"] and tokens[:n_opening] != row["opening"].split(" "):
        raise _fail(where, "moves", f"do not start with the opening {row['opening']!r}")
    game, movers = Game(rules), []
    for k, token in enumerate(tokens, start=1):
        movers.append(game.player)
        try:
            game.push(token)
        except (IllegalTurn, InvalidRecord) as exc:
            raise _fail(where, "moves", f"turn {k} ({_short(token, 20)}) does not replay: {exc}") from None
    if not game.is_over:
        raise _fail(where, "moves", f"the game is not over after these {len(tokens)} turns")
    w = game.result.winner
    winner = "draw" if w is None else ("a" if w == row["a_player"] else "b")
    own = movers[n_opening:]
    return {"winner": winner, "reason": game.result.reason, "turns": len(tokens) - n_opening,
            "steps": sum(map(len, tokens[n_opening:])), "decisions_a": own.count(row["a_player"]),
            "decisions_b": own.count(3 - row["a_player"]),
            "score_a": 1.0 if winner == "a" else 0.5 if winner == "draw" else 0.0}


def _check_row(fields: list[str], jobs: dict, seen: dict, where: str) -> dict[str, Any]:
    row = _typed(fields, where)
    key = (row["pairing"], row["game"])
    if key not in jobs:
        field = "game" if any(p == key[0] for p, _ in jobs) else "pairing"
        raise _fail(where, field, f"pairing {key[0]}, game {key[1]} is not in this run's schedule")
    if key in seen:
        raise _fail(where, "game", f"pairing {key[0]}, game {key[1]} is already on line {seen[key]}")
    _check_schedule(row, jobs[key], where)
    for name, value in _replayed(row, jobs[key]["rules"], where).items():
        if row[name] != value:
            raise _fail(where, name, f"{_short(row[name])}, but the moves replay to {_short(value)}")
    return row


def _read_rows(path: Path, text: str, jobs: dict, legacy: bool) -> dict[tuple[int, int], dict]:
    lines = text.split("\n")[:-1]  # the text ends with its last line ending
    rows: dict[tuple[int, int], dict] = {}
    seen: dict[tuple[int, int], int] = {}
    for number, line in enumerate(lines, start=1):
        where = f"{path}, line {number}"
        try:
            fields = next(csv.reader([line.removesuffix("\r")], strict=True), [])
        except csv.Error as exc:
            raise GameFileError(f"{where}: not a CSV line: {exc}") from None
        if number == 1:
            if fields != COLUMNS:
                raise GameFileError(f"{where}: columns {_short(fields)} are not fepaper's games columns")
            continue
        if legacy and len(fields) == len(COLUMNS):  # 0.1.0's rules column: its own reading of the rules
            fields[COLUMNS.index("rules")] = rules_text(legacy_rules(fields[COLUMNS.index("rules")]))
            for column in ("spec_a", "spec_b"):  # and its costs version, every step costing 1
                k = COLUMNS.index(column)
                try:
                    fields[k] = spec_text(legacy_spec(json.loads(fields[k])))
                except ValueError:
                    pass  # not JSON: the row's check says so
        row = _check_row(fields, jobs, seen, where)
        seen[(row["pairing"], row["game"])] = number
        rows[(row["pairing"], row["game"])] = row
    return rows


def resume(path: str | Path, jobs: list[dict], meta: dict) -> dict[tuple[int, int], dict]:
    """The games of ``jobs`` already in ``path``, after checking the file and its sidecar.

    Checks everything before writing anything; then drops a partial last line and
    writes (or upgrades) the sidecar. Returns the rows by ``(pairing, game)``.

    Raises
    ------
    GameFileError
        Naming the file, the line and the field of the first problem.
    """
    path = Path(path)
    data = path.read_bytes() if path.exists() else b""
    end = data.rfind(b"\n") + 1  # past the last complete line; beyond it, a game cut short by a kill
    want = describe(jobs, meta)
    write_side = _check_sidecar(path, want, meta, has_rows=data.count(b"\n", 0, end) > 1)
    legacy = write_side and sidecar(path).exists()  # a 0.1.0 sidecar that matches this run
    try:
        text = decode(data[:end], str(path))
    except JSONInputError as exc:
        raise GameFileError(str(exc)) from None
    if b"\x00" in data[end:]:
        last = data.count(b"\n") + 1
        raise GameFileError(f"{path}, line {last}: NUL byte (damaged file?)")
    rows = _read_rows(path, text, {(j["pairing"], j["game"]): j for j in jobs}, legacy)
    if legacy:  # a 0.1.0 file is read as it is, never upgraded or extended
        if len(rows) < len(jobs):
            raise GameFileError(f"{path} was written by fepaper 0.1.0 and lacks {len(jobs) - len(rows)} of "
                                "this run's games; it can be read but not extended: use a new output file")
        return rows
    if end < len(data):
        os.truncate(path, end)
        warnings.warn(f"{path}: dropped a partial last line (a game cut short); it is played again",
                      stacklevel=2)
    if write_side:
        write_atomic(sidecar(path), json.dumps(want, indent=2), "games sidecar")
    return rows


class GameWriter:
    """Appends rows to a games file: the header first if it is empty, each batch in one write.

    A row reaches the file (the operating system's cache) when :meth:`append`
    returns, so a killed process loses none of the rows appended before.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        if os.fstat(self._fd).st_size == 0:
            self._write([COLUMNS])

    def append(self, rows: list[dict]) -> None:
        """Write ``rows`` (dicts with every column) at the end of the file."""
        self._write([[row[c] for c in COLUMNS] for row in rows])

    def _write(self, records: list[list]) -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerows(records)
        data = buffer.getvalue().encode()
        while data:
            data = data[os.write(self._fd, data):]

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> GameWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
