"""A referee for CodinGame-protocol programs: fepaper's own bot or any other engine.

:func:`referee` plays ``games`` games between two command lines, colours swapped in pairs,
each pair from an opening of a seeded bank (:func:`opening_bank`: ``openings`` random
turns, 0 for the kick-off). It checks every turn with :class:`~fepaper.game.Game`, times
every answer on the wall clock (from writing the input lines to reading the answer's line
ending) and records, per side, each decision's milliseconds. A program forfeits the game
when it answers with something that is not a turn (``garbage``), an illegal turn
(``illegal``), nothing within ``hard_factor`` times its budget (``timeout``), or ends
(``crash``). Overruns below the hard limit are recorded, not punished, as the statistics
of :func:`summary` show them.

The games file is JSON lines: a header with the settings, then one object per game,
written as each game ends. Running again with the same settings resumes it (more
``games`` extend it); a partial last line is dropped and its game played again; a file of
other settings, or a row that is not the game the schedule says (pair, opening, colours)
or whose moves do not replay to its result, is refused (:class:`RefereeFileError`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from ..controllers.valuefile import network_path
from ..experiments.arena import play_out
from ..experiments.filelock import exclusive
from ..experiments.limits import MAX_GAMES, count_within
from ..experiments.randomplay import random_game
from ..experiments.ratings import wilson
from ..experiments.stats import sign_test
from ..game.game import Game, IllegalTurn, InvalidRecord
from ..game.jsonio import JSONInputError, decode, loads, read_bytes
from ..game.rules import Rules
from .programs import Program, ProgramPlayer, takes_opening

__all__ = ["RefereeFileError", "FORFEITS", "opening_bank", "play_game", "referee", "read_games", "games_of",
           "bot_spec", "shipped_nets", "paired", "training_rows", "fit_engine_net",
           "summary"]

#: Why a program forfeits a game.
FORFEITS = ("garbage", "illegal", "timeout", "crash")
_FORMAT = "fepaper-referee-1"
#: The bounds of a file's (and :func:`referee`'s) numbers.
_BOUNDS = {"ms_first": (1, 3_600_000), "ms": (1, 3_600_000), "openings": (0, 100), "seed": (0, 2**63 - 1),
           "hard_factor": (1, 1000), "warmup": (0, 60)}
_INTEGERS = ("ms_first", "ms", "openings", "seed")


class RefereeFileError(ValueError):
    """A games file of :func:`referee` that is damaged or belongs to other settings."""


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


def play_game(cmd_first: str, cmd_second: str, opening: str = "", rules: Rules | str = "codingame",
              ms_first: int = 1000, ms: int = 100, hard_factor: float = 3.0, warmup: float = 2.0,
              logs: tuple[str | Path | None, str | Path | None] = (None, None)) -> dict:
    """Play one game: ``cmd_first`` is player 1 (protocol id 0, attacks the top goal), each
    program a :class:`~fepaper.codingame.programs.ProgramPlayer` of
    :func:`~fepaper.experiments.arena.play_out`.

    Returns ``{"moves", "winner" (1, 2 or None), "reason", "forfeit" (None or {"player",
    "why", "detail"}), "ms" ({1: [...], 2: [...]}: each decision's milliseconds)}``.
    ``reason`` is the game's own (goal, own goal, blocked, turn limit) or ``"forfeit"``.
    """
    game = Game(rules, opening)
    played = game.moves.split()
    # what each program is told on its command line (the mover hears the last opening turn by the protocol)
    told = {game.player: played[:-1], 3 - game.player: played}
    players: dict[int, ProgramPlayer] = {}
    try:
        for p, cmd in ((1, cmd_first), (2, cmd_second)):
            program = Program(cmd, " ".join(told[p]), logs[p - 1])
            players[p] = ProgramPlayer(program, len(told[p]), ms_first, ms, hard_factor)
        for p in (1, 2):
            players[p].program.send(f"{p - 1}\n")
        time.sleep(warmup)  # both load (interpreters, weights, tables) before the first clock starts
        forfeit = play_out(game, players)
    finally:
        for player in players.values():
            player.program.close()
    ms_used = {p: player.ms for p, player in players.items()}
    if forfeit is not None:
        return {"moves": game.moves, "winner": 3 - forfeit.player, "reason": "forfeit", "ms": ms_used,
                "forfeit": {"player": forfeit.player, "why": forfeit.why, "detail": forfeit.detail}}
    result = game.result
    return {"moves": game.moves, "winner": result.winner, "reason": result.reason, "forfeit": None,
            "ms": ms_used}


# -- the games file ----------------------------------------------------------------------
def _settings(cmd_a, cmd_b, rules, ms_first, ms, openings, seed, hard_factor, warmup, names) -> dict:
    return {"format": _FORMAT, "cmd_a": cmd_a, "cmd_b": cmd_b, "names": list(names),
            "rules": Rules.from_spec(rules).to_dict(), "ms_first": ms_first, "ms": ms, "openings": openings,
            "seed": seed, "hard_factor": hard_factor, "warmup": warmup}


def _check_row(row, settings: dict, where: str) -> dict:
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


def _bank(settings: dict, count: int) -> list[str]:
    return [_opening_of(settings, k) for k in range(count)]


def _check_header(header, where: str) -> dict:
    """The header of a games file, every field typed and bounded (as :func:`referee` takes them)."""
    if not isinstance(header, dict) or header.get("format") != _FORMAT:
        raise RefereeFileError(f"{where}: not a referee games file (no header with format {_FORMAT!r})")
    keys = set(_settings("a", "b", "codingame", 1, 1, 0, 0, 1.0, 0.0, ("A", "B")))
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
    for field, (low, high) in _BOUNDS.items():
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
    """The settings and the games of a file of :func:`referee`; with ``settings``, the file's
    must be the same. A partial last line (a game being written when a run stopped) is
    skipped with a warning and the file is left as it is: only :func:`referee`, which appends
    to the file, cuts it off.

    Raises
    ------
    RefereeFileError
        Naming the file, the line and what is wrong.
    """
    path = Path(path)
    try:
        raw = read_bytes(path, "referee games file")
    except JSONInputError as exc:
        raise RefereeFileError(str(exc)) from None
    if raw and not raw.endswith(b"\n"):
        warnings.warn(f"{path}: skipping a partial last line (a game being written when the run stopped; "
                      "the file is left as it is)", stacklevel=2)
        raw = raw[: raw.rfind(b"\n") + 1]
    try:
        lines = decode(raw, str(path)).splitlines()
    except JSONInputError as exc:
        raise RefereeFileError(str(exc)) from None
    if not lines:
        raise RefereeFileError(f"{path}: empty (no header line)")
    try:
        header = loads(lines[0], f"{path} line 1")
    except JSONInputError as exc:
        raise RefereeFileError(str(exc)) from None
    _check_header(header, f"{path} line 1")
    if settings is not None and header != settings:
        diff = sorted(k for k in set(header) | set(settings) if header.get(k) != settings.get(k))
        raise RefereeFileError(f"{path}: written with other settings ({', '.join(diff)} differ); "
                               "use another --out")
    rows, seen = [], set()
    for number, line in enumerate(lines[1:], start=2):
        where = f"{path} line {number}"
        try:
            row = loads(line, where)
        except JSONInputError as exc:
            raise RefereeFileError(str(exc)) from None
        _check_row(row, header, where)
        if row["game"] in seen:
            raise RefereeFileError(f"{where}: game {row['game']} is on file twice")
        seen.add(row["game"])
        rows.append(row)
    return header, rows


def games_of(path: str | Path, limit: int | None = None) -> list[Game]:
    """The games of a file of :func:`referee` (the first ``limit``, or all), replayed after
    :func:`read_games` has checked them: positions that programs reach, to study."""
    header, rows = read_games(path)
    return [Game(header["rules"], row["moves"]) for row in rows[:limit]]


def referee(cmd_a: str, cmd_b: str, games: int, out: str | Path, *, rules: Rules | str = "codingame",
            ms_first: int = 1000, ms: int = 100, openings: int = 0, seed: int = 0, hard_factor: float = 3.0,
            warmup: float = 2.0, names: tuple[str, str] = ("A", "B"), logs: str | Path | None = None,
            progress=None) -> list[dict]:
    """Play (or resume) ``games`` games of ``cmd_a`` against ``cmd_b``; return every game on file.

    Game ``g`` starts from opening ``g // 2`` of :func:`opening_bank`; ``cmd_a`` is player 1
    in the even games. With ``openings > 0`` both commands must have the ``{opening}``
    placeholder (:mod:`fepaper.codingame.programs`). ``logs`` is a folder for the
    programs' stderr. ``progress(row)`` is called after each game is written.

    Raises
    ------
    ValueError
        For bad settings (before any game).
    RefereeFileError
        For a file of other settings or a damaged one.
    """
    count_within(games, 1, MAX_GAMES, "games")
    for name, value in (("ms_first", ms_first), ("ms", ms), ("openings", openings), ("seed", seed)):
        count_within(value, *_BOUNDS[name], name)
    for name, value in (("hard_factor", hard_factor), ("warmup", warmup)):
        low, high = _BOUNDS[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ValueError(f"{name} must be a number from {low} to {high}, got {value!r}")
    if openings > 0:
        for label, cmd in (("CMD_A", cmd_a), ("CMD_B", cmd_b)):
            if not takes_opening(cmd):
                raise ValueError(f"{label} has no {{opening}} placeholder, so it cannot start from an "
                                 f"opening of {openings} turns "
                                 "(e.g. 'fepaper bot SPEC --opening {opening}')")
    settings = _settings(cmd_a, cmd_b, rules, ms_first, ms, openings, seed, float(hard_factor), float(warmup),
                         names)
    _check_header(settings, "the settings")
    out = Path(out)
    with exclusive(out, "games file"):
        return _play_file(settings, games, out, logs, progress)


def _play_file(settings: dict, games: int, out: Path, logs, progress) -> list[dict]:
    """:func:`referee` on its file ``out``, whose lock it holds: resume, repair, append."""
    cmd_a, cmd_b = settings["cmd_a"], settings["cmd_b"]
    if out.stat().st_size > 0:
        _, rows = read_games(out, settings)  # a partial last line skipped, with a warning
        raw = out.read_bytes()
        if not raw.endswith(b"\n"):  # the writer cuts it off, and plays its game again
            os.truncate(out, raw.rfind(b"\n") + 1)
            warnings.warn(f"{out}: cut off the partial last line; its game is played again", stacklevel=3)
    else:
        out.write_text(json.dumps(settings) + "\n")
        rows = []
    done = {r["game"] for r in rows}
    bank = _bank(settings, (games + 1) // 2)
    rules = Rules.from_spec(settings["rules"])
    for g in range(games):
        if g in done:
            continue
        first, second = (cmd_a, cmd_b) if g % 2 == 0 else (cmd_b, cmd_a)
        side = {1: "A", 2: "B"} if g % 2 == 0 else {1: "B", 2: "A"}
        log = (None, None)
        if logs is not None:
            log = tuple(Path(logs) / f"game{g}_{side[p]}.stderr" for p in (1, 2))
        result = play_game(first, second, bank[g // 2], rules, settings["ms_first"], settings["ms"],
                           settings["hard_factor"], settings["warmup"], log)
        forfeit = result["forfeit"]
        if forfeit is not None:
            forfeit = {"side": side[forfeit["player"]], "why": forfeit["why"], "detail": forfeit["detail"]}
        row = {"game": g, "opening": bank[g // 2], "first": side[1], "moves": result["moves"],
               "winner": side.get(result["winner"]), "reason": result["reason"],
               "forfeit": forfeit,
               "ms": {side[1]: result["ms"][1], side[2]: result["ms"][2]}}
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        rows.append(row)
        if progress is not None:
            progress(row)
    return sorted(rows, key=lambda r: r["game"])


def _times(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    a = np.asarray(values, float)
    return {"n": int(a.size), "median": float(np.median(a)), "mean": float(a.mean()),
            "p99": float(np.percentile(a, 99)), "max": float(a.max())}


def summary(rows: list[dict], ms_first: int, ms: int) -> dict:
    """Score of side A with its 95 % Wilson interval, results, forfeits and time statistics.

    ``time[side]``: ``first`` and ``later`` decisions (n, median, mean, p99, max in ms),
    ``over`` (decisions past their budget), ``over_10pct`` (past 1.1 times it).
    """
    n = len(rows)
    wins = sum(r["winner"] == "A" for r in rows)
    losses = sum(r["winner"] == "B" for r in rows)
    draws = n - wins - losses
    score = wins + draws / 2
    low, high = wilson(score, n)
    out = {"games": n, "wins_a": wins, "wins_b": losses, "draws": draws,
           "score_a": score / n if n else float("nan"), "score_a_low": low, "score_a_high": high,
           "reasons": {}, "forfeits": {"A": {}, "B": {}}, "time": {}}
    for r in rows:
        out["reasons"][r["reason"]] = out["reasons"].get(r["reason"], 0) + 1
        if r["forfeit"]:
            f = out["forfeits"][r["forfeit"]["side"]]
            f[r["forfeit"]["why"]] = f.get(r["forfeit"]["why"], 0) + 1
    for s in ("A", "B"):
        first = [r["ms"][s][0] for r in rows if r["ms"][s]]
        later = [x for r in rows for x in r["ms"][s][1:]]
        over = sum(x > ms_first for x in first) + sum(x > ms for x in later)
        over10 = sum(x > 1.1 * ms_first for x in first) + sum(x > 1.1 * ms for x in later)
        out["time"][s] = {"first": _times(first), "later": _times(later), "over": over, "over_10pct": over10,
                          "decisions": len(first) + len(later)}
    return out


def bot_spec(command: str) -> dict | None:
    """The controller spec of a ``fepaper bot '<spec>' ...`` command (as a file's ``cmd_a`` or
    ``cmd_b`` records it); ``None`` for another program."""
    found = re.search(r"\bbot\s+'(\{.*?\})'", command)
    return json.loads(found.group(1)) if found else None


def shipped_nets(spec: dict | None, shipped_as: dict | None = None) -> dict | None:
    """``spec`` with its network file (``net``) found by its name where fepaper keeps its networks
    (:func:`~fepaper.controllers.valuefile.network_path`: the one it ships, the others in its
    repository's ``data/strength/networks/``): a match's bot may have read the same file from a
    copy of fepaper elsewhere on the machine that played it. ``shipped_as``: ``{"file": name,
    "sha256": digest}`` for a bot that read a network under another name (one fitted before it was
    kept): the file ``name``, which must have the digest of the file the bot read.

    Raises
    ------
    ValueError
        If fepaper has no network of that name, or not the file of that digest.
    """
    if not spec or "net" not in spec:
        return spec
    name = shipped_as["file"] if shipped_as else Path(spec["net"]).name
    try:
        here = network_path(name)
    except ValueError as exc:
        raise ValueError(f"the bot's network {spec['net']} is not one fepaper keeps: {exc}") from None
    if shipped_as and hashlib.sha256(here.read_bytes()).hexdigest() != shipped_as["sha256"]:
        raise ValueError(f"the bot's network {spec['net']} is not {here}: its sha256 differs")
    return {**spec, "net": str(here)}


def paired(first: list[dict], second: list[dict]) -> dict:
    """Side A of two files against the same opponent, game by game: game ``k`` of each file has
    the same opening and the same first player (the same ``seed`` and ``openings``), so the
    difference between the two A sides is measured on the same games. Returns ``games``
    (paired), ``both`` (won by both A sides), ``only_first``, ``only_second``, ``neither``
    and ``p``, the exact two-sided sign test on the discordant games (those only one won).

    Raises
    ------
    ValueError
        If a game of one file has another opening or first player than the same game of the other.
    """
    other = {r["game"]: r for r in second}
    counts = {"both": 0, "only_first": 0, "only_second": 0, "neither": 0}
    for a in first:
        b = other.get(a["game"])
        if b is None:
            continue
        if (a["opening"], a["first"]) != (b["opening"], b["first"]):
            raise ValueError(f"game {a['game']}: opening {a['opening']!r} with {a['first']} first in one "
                             f"file, {b['opening']!r} with {b['first']} first in the other: "
                             "not the same games")
        won = (a["winner"] == "A", b["winner"] == "A")
        key = {(True, True): "both", (True, False): "only_first", (False, True): "only_second",
               (False, False): "neither"}[won]
        counts[key] += 1
    p = sign_test(counts["only_first"], counts["only_second"])
    return {"games": sum(counts.values()), **counts, "p": p}


def training_rows(paths, rules: Rules | str = "codingame") -> tuple[list[dict], np.ndarray]:
    """The games of referee files as the rows :func:`fepaper.experiments.valuefit.positions`
    reads (to train a value network on), and the index of each game's opening (the same
    opening in any of the files: the same index). Each row also holds the file's ``names``
    of sides A and B and the number of ``opening_turns`` (what
    :func:`fepaper.experiments.imitation.choices` reads).

    Raises
    ------
    ValueError
        If a file's games were played under other rules than ``rules``.
    """
    rules = Rules.from_spec(rules)
    rows, openings, index = [], [], {}
    for path in paths:
        settings, games = read_games(path)
        if Rules.from_spec(settings["rules"]) != rules:
            raise ValueError(f"{path}: its games are played under {settings['rules']}, not {rules.to_dict()}")
        for g in games:  # side A plays player 1 when it moves first after the opening
            rows.append({"moves": g["moves"], "a_player": 1 if g["first"] == "A" else 2,
                         "winner": {"A": "a", "B": "b"}.get(g["winner"], "draw"),
                         "names": tuple(settings["names"]), "opening_turns": len(g["opening"].split())})
            openings.append(index.setdefault(g["opening"], len(index)))
    return rows, np.array(openings, np.int64)


def fit_engine_net(net: str, out, data_dir, progress: bool = False):
    """Fit ``net`` of :data:`fepaper.experiments.enginenets.ENGINE_NETS` again from its files under
    ``data_dir`` into ``out``; returns the :class:`~fepaper.experiments.valuefit.FitResult` and the
    number of engine games it read (a recipe's self-play games are counted in its ``selfplay``)."""
    from ..experiments.enginenets import ENGINE_NETS, fit_recipe

    recipe = ENGINE_NETS[net]
    rows, opening = training_rows([Path(data_dir) / name for name in recipe["files"]])
    return fit_recipe(recipe, rows, opening, out, data_dir, progress), len(rows)


def format_summary(s: dict, names: tuple[str, str] = ("A", "B")) -> str:
    """The summary as the lines ``fepaper referee`` prints."""
    a, b = names
    lines = [f"{a} vs {b}: {s['games']} games; {a} wins {s['wins_a']}, {b} wins {s['wins_b']}, "
             f"draws {s['draws']}",
             f"score {a} {s['score_a']:.3f}  (95% Wilson {s['score_a_low']:.3f} .. {s['score_a_high']:.3f})",
             "ends: " + ", ".join(f"{k} {v}" for k, v in sorted(s["reasons"].items()))]
    for side, name in (("A", a), ("B", b)):
        t = s["time"][side]
        f, later = t["first"], t["later"]
        text = f"{name} ms: "
        if f["n"]:
            text += f"first median {f['median']:.1f} max {f['max']:.1f}; "
        if later["n"]:
            text += (f"later median {later['median']:.1f} p99 {later['p99']:.1f} max {later['max']:.1f}; ")
        text += f"over budget {t['over']}/{t['decisions']}, over +10% {t['over_10pct']}"
        forfeits = s["forfeits"][side]
        if forfeits:
            text += "; forfeits " + ", ".join(f"{k} {v}" for k, v in sorted(forfeits.items()))
        lines.append(text)
    return "\n".join(lines)


def print_row(row: dict, names: tuple[str, str] = ("A", "B"), stream=None) -> None:
    """One line per finished game (the progress of ``fepaper referee``)."""
    stream = stream or sys.stdout
    label = {"A": names[0], "B": names[1], None: "draw"}
    f = row["forfeit"]
    why = f" ({f['side']} {f['why']}: {f['detail']})" if f else ""
    worst = {s: max(row["ms"][s][1:], default=0.0) for s in ("A", "B")}
    print(f"game {row['game']}: {label[row['first']]} first, {len(row['moves'].split())} turns, "
          f"winner {label[row['winner']]} by {row['reason']}{why}; slowest later turn "
          f"{names[0]} {worst['A']:.0f} ms, {names[1]} {worst['B']:.0f} ms", file=stream, flush=True)
