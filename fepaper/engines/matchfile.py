"""The games file of :func:`fepaper.engines.referee.referee`: its format, its schedule, its checks.

The file is JSON lines: a header with the settings (:func:`file_settings`: the two command lines,
their names, the rules, the budgets, the openings' seed and length), then one object per game,
written as each game ends. The header fixes the schedule: game ``g`` starts from opening ``g // 2``
of :func:`opening_bank`, side A moving first in the even games. :func:`read_games` checks every
field of the header and every row against that schedule (pair, opening, colours) and replays its
moves to its result; a file that fails is refused (:class:`RefereeFileError`).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..game.game import Game, IllegalTurn, InvalidRecord
from ..game.rules import Rules
from ..play.limits import MAX_GAMES
from ..play.randomplay import random_game
from .jsonlines import read_lines

__all__ = ["FORMAT", "FORFEITS", "BOUNDS", "RefereeFileError", "opening", "opening_bank", "file_settings",
           "check_header", "check_row", "openings_of", "read_games", "games_of"]

#: Why a program forfeits a game.
FORFEITS = ("garbage", "illegal", "timeout", "crash")
FORMAT = "fepaper-referee-1"
#: The bounds of a file's (and ``referee``'s) numbers.
BOUNDS = {"ms_first": (1, 3_600_000), "ms": (1, 3_600_000), "openings": (0, 100), "seed": (0, 2**63 - 1),
           "hard_factor": (1, 1000), "warmup": (0, 60)}
_INTEGERS = ("ms_first", "ms", "openings", "seed")


class RefereeFileError(ValueError):
    """A games file of ``referee`` that is damaged or belongs to other settings."""


def opening(seed: int, turns: int, k: int, rules: Rules | str = "codingame") -> str:
    """Opening ``k`` of :func:`opening_bank` alone: a seeded random game (uniform random steps)
    of ``turns`` turns from seed ``[seed, k, attempt]``, the first attempt not over."""
    for attempt in range(1000):
        game = random_game(rules, seed=np.random.default_rng([seed, k, attempt]), max_turns=turns)
        if not game.is_over and len(game.history) == turns:
            return game.moves
    raise ValueError(f"no opening of {turns} turns that leaves the game on")


def opening_bank(seed: int, turns: int, count: int, rules: Rules | str = "codingame") -> list[str]:
    """``count`` openings of ``turns`` random turns each (opening ``k``: :func:`opening`).

    >>> opening_bank(0, 2, 2) == opening_bank(0, 2, 2)
    True
    >>> [len(o.split()) for o in opening_bank(0, 2, 3)]
    [2, 2, 2]
    """
    return [opening(seed, turns, k, rules) for k in range(count)]


def file_settings(cmd_a, cmd_b, rules, ms_first, ms, openings, seed, hard_factor, warmup, names) -> dict:
    return {"format": FORMAT, "cmd_a": cmd_a, "cmd_b": cmd_b, "names": list(names),
            "rules": Rules.from_spec(rules).to_dict(), "ms_first": ms_first, "ms": ms, "openings": openings,
            "seed": seed, "hard_factor": hard_factor, "warmup": warmup}


def check_row(row, settings: dict, where: str) -> dict:
    """``row`` checked against the schedule and replayed; its game index."""
    def bad(field, why):
        raise RefereeFileError(f"{where}: {field}: {why}")

    keys = {"game", "opening", "first", "moves", "winner", "reason", "forfeit", "ms"}
    if not isinstance(row, dict) or set(row) != keys:
        bad("row", f"a game is an object with exactly the keys {sorted(keys)}")
    g = row["game"]
    if isinstance(g, bool) or not isinstance(g, int) or not 0 <= g < MAX_GAMES:
        bad("game", f"a game number from 0 to {MAX_GAMES - 1}, got {_cut(g)}")
    start = _opening_of(settings, g // 2)
    if row["opening"] != start:
        bad("opening", f"game {g} starts from {start!r}, not {_cut(row['opening'])}")
    first = "A" if g % 2 == 0 else "B"
    if row["first"] != first:
        bad("first", f"game {g} has {first} as player 1")
    if not isinstance(row["moves"], str) or not row["moves"].startswith(start):
        bad("moves", "not the moves of a game from its opening")
    try:
        game = Game(settings["rules"], row["moves"])
    except (IllegalTurn, InvalidRecord) as exc:
        bad("moves", f"do not replay: {exc}")
    side = {1: first, 2: "B" if first == "A" else "A"}
    forfeit = row["forfeit"]
    if forfeit is None:
        if not game.is_over:
            bad("moves", "the game is not over and nobody forfeited")
        winner, reason = side.get(game.result.winner), game.result.reason
    else:
        if (not isinstance(forfeit, dict) or set(forfeit) != {"side", "why", "detail"}
                or forfeit["why"] not in FORFEITS or forfeit["side"] not in ("A", "B")):
            bad("forfeit", f"an object {{side, why, detail}} with why in {FORFEITS}")
        if game.is_over or side[game.player] != forfeit["side"]:
            bad("forfeit", f"{forfeit['side']} was not the side to move")
        winner, reason = ("B" if forfeit["side"] == "A" else "A"), "forfeit"
    if row["winner"] != winner or row["reason"] != reason:
        bad("winner", f"the moves give {winner!r} ({reason}), not {row['winner']!r} ({row['reason']!r})")
    times = row["ms"]
    if not isinstance(times, dict) or set(times) != {"A", "B"} or not all(
            isinstance(t, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0
                                        for x in t) for t in times.values()):
        bad("ms", "an object {A: [milliseconds], B: [...]}")
    return row


_BANKS: dict[tuple, dict[int, str]] = {}


def _opening_of(settings: dict, k: int) -> str:
    """Opening ``k`` of the file's bank (each computed once, alone: a game number read from a
    file sizes nothing)."""
    key = (settings["seed"], settings["openings"], json.dumps(settings["rules"], sort_keys=True))
    bank = _BANKS.setdefault(key, {})
    if k not in bank:
        bank[k] = opening(settings["seed"], settings["openings"], k, Rules.from_spec(settings["rules"]))
    return bank[k]


def openings_of(settings: dict, count: int) -> list[str]:
    """The first ``count`` openings of the bank a file's ``settings`` name (its seed, length, rules)."""
    return [_opening_of(settings, k) for k in range(count)]


def check_header(header, where: str) -> dict:
    """The header of a games file, every field typed and bounded (as
    ``referee`` takes them)."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RefereeFileError(f"{where}: not a referee games file (no header with format {FORMAT!r})")
    keys = set(file_settings("a", "b", "codingame", 1, 1, 0, 0, 1.0, 0.0, ("A", "B")))
    if set(header) != keys:
        missing, unknown = sorted(keys - set(header)), sorted(set(header) - keys)
        raise RefereeFileError(f"{where}: " + (f"missing {', '.join(missing)}" if missing
                                               else f"unknown keys {_cut(unknown)}"))

    def bad(field, why):
        raise RefereeFileError(f"{where}: {field}: {why}, got {_cut(header[field])}")

    for field in ("cmd_a", "cmd_b"):
        if not isinstance(header[field], str) or not header[field].strip():
            bad(field, "a command line")
    names = header["names"]
    if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) and n for n in names)):
        bad("names", "a list of two names")
    for field, (low, high) in BOUNDS.items():
        value = header[field]
        if field in _INTEGERS:
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                bad(field, f"an integer from {low} to {high}")
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            bad(field, f"a number from {low} to {high}")
    try:
        Rules.from_spec(header["rules"])
    except (ValueError, TypeError) as exc:
        raise RefereeFileError(f"{where}: rules: {exc}") from None
    return header


def _cut(value, width: int = 80) -> str:
    """``repr(value)`` cut to ``width`` characters (a huge input is not echoed whole)."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def read_games(path: str | Path, settings: dict | None = None) -> tuple[dict, list[dict]]:
    """The settings and the games of a file of ``referee``; with ``settings``, the file's
    must be the same. A partial last line (a game being written when a run stopped) is
    skipped with a warning and the file is left as it is: only ``referee``, which appends
    to the file, cuts it off.

    Raises
    ------
    RefereeFileError
        Naming the file, the line and what is wrong.
    """
    path = Path(path)
    header, lines = read_lines(path, "referee games file", RefereeFileError)
    check_header(header, f"{path} line 1")
    if settings is not None and header != settings:
        diff = sorted(k for k in set(header) | set(settings) if header.get(k) != settings.get(k))
        raise RefereeFileError(f"{path}: written with other settings ({', '.join(diff)} differ); "
                               "use another --out")
    rows, seen = [], set()
    for where, row in lines:
        check_row(row, header, where)
        if row["game"] in seen:
            raise RefereeFileError(f"{where}: game {row['game']} is on file twice")
        seen.add(row["game"])
        rows.append(row)
    return header, rows


def games_of(path: str | Path, limit: int | None = None) -> list[Game]:
    """The games of a file of ``referee`` (the first ``limit``, or all), replayed after
    :func:`read_games` has checked them: positions that programs reach, to study."""
    header, rows = read_games(path)
    return [Game(header["rules"], row["moves"]) for row in rows[:limit]]
