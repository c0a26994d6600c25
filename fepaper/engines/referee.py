"""A referee for CodinGame-protocol programs: fepaper's own bot or any other engine.

:func:`referee` plays ``games`` games between two command lines, colours swapped in pairs,
each pair from an opening of a seeded bank (:func:`~fepaper.engines.matchfile.opening_bank`:
``openings`` random turns, 0 for the kick-off). It checks every turn with
:class:`~fepaper.game.Game`, times every answer on the wall clock (from writing the input lines to
reading the answer's line ending) and records, per side, each decision's milliseconds. A program
forfeits the game when it answers with something that is not a turn (``garbage``), an illegal turn
(``illegal``), nothing within ``hard_factor`` times its budget (``timeout``), or ends (``crash``).
Overruns below the hard limit are recorded, not punished, as the statistics of
:func:`~fepaper.engines.matchstats.summary` show them.

Each game is written to the games file (:mod:`~fepaper.engines.matchfile`) as it ends. Running
again with the same settings resumes it (more ``games`` extend it); a partial last line is
dropped and its game played again; a file of other settings, or a damaged one, is refused.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..game.game import Game
from ..game.rules import Rules
from ..play.arena import play_out
from ..play.limits import MAX_GAMES, count_within
from .jsonlines import appending
from .matchfile import BOUNDS, check_header, file_settings, openings_of, read_games
from .programs import Program, ProgramPlayer, takes_opening

__all__ = ["play_game", "referee", "print_row"]


def play_game(cmd_first: str, cmd_second: str, opening: str = "", rules: Rules | str = "codingame",
              ms_first: int = 1000, ms: int = 100, hard_factor: float = 3.0, warmup: float = 2.0,
              logs: tuple[str | Path | None, str | Path | None] = (None, None)) -> dict:
    """Play one game: ``cmd_first`` is player 1 (protocol id 0, attacks the top goal), each
    program a :class:`~fepaper.engines.programs.ProgramPlayer` of
    :func:`~fepaper.play.arena.play_out`.

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


def referee(cmd_a: str, cmd_b: str, games: int, out: str | Path, *, rules: Rules | str = "codingame",
            ms_first: int = 1000, ms: int = 100, openings: int = 0, seed: int = 0, hard_factor: float = 3.0,
            warmup: float = 2.0, names: tuple[str, str] = ("A", "B"), logs: str | Path | None = None,
            progress=None) -> list[dict]:
    """Play (or resume) ``games`` games of ``cmd_a`` against ``cmd_b``; return every game on file.

    Game ``g`` starts from opening ``g // 2`` of
    :func:`~fepaper.engines.matchfile.opening_bank`; ``cmd_a`` is player 1
    in the even games. With ``openings > 0`` both commands must have the ``{opening}``
    placeholder (:mod:`fepaper.engines.programs`). ``logs`` is a folder for the
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
        count_within(value, *BOUNDS[name], name)
    for name, value in (("hard_factor", hard_factor), ("warmup", warmup)):
        low, high = BOUNDS[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ValueError(f"{name} must be a number from {low} to {high}, got {value!r}")
    if openings > 0:
        for label, cmd in (("CMD_A", cmd_a), ("CMD_B", cmd_b)):
            if not takes_opening(cmd):
                raise ValueError(f"{label} has no {{opening}} placeholder, so it cannot start from an "
                                 f"opening of {openings} turns "
                                 "(e.g. 'fepaper bot SPEC --opening {opening}')")
    settings = file_settings(cmd_a, cmd_b, rules, ms_first, ms, openings, seed, float(hard_factor),
                             float(warmup), names)
    check_header(settings, "the settings")
    on_file = lambda path: read_games(path, settings)[1]  # noqa: E731 (a file of other settings refused)
    with appending(out, settings, "games file", on_file) as (found, append):
        return _play_file(settings, games, found or [], append, logs, progress)


def _play_file(settings: dict, games: int, rows: list[dict], append, logs, progress) -> list[dict]:
    """:func:`referee` on its file, whose lock it holds: the games ``rows`` on file, ``append`` the
    rest as each ends."""
    cmd_a, cmd_b = settings["cmd_a"], settings["cmd_b"]
    done = {r["game"] for r in rows}
    schedule = openings_of(settings, (games + 1) // 2)
    rules = Rules.from_spec(settings["rules"])
    for g in range(games):
        if g in done:
            continue
        first, second = (cmd_a, cmd_b) if g % 2 == 0 else (cmd_b, cmd_a)
        side = {1: "A", 2: "B"} if g % 2 == 0 else {1: "B", 2: "A"}
        log = (None, None)
        if logs is not None:
            log = tuple(Path(logs) / f"game{g}_{side[p]}.stderr" for p in (1, 2))
        result = play_game(first, second, schedule[g // 2], rules, settings["ms_first"], settings["ms"],
                           settings["hard_factor"], settings["warmup"], log)
        forfeit = result["forfeit"]
        if forfeit is not None:
            forfeit = {"side": side[forfeit["player"]], "why": forfeit["why"], "detail": forfeit["detail"]}
        row = {"game": g, "opening": schedule[g // 2], "first": side[1], "moves": result["moves"],
               "winner": side.get(result["winner"]), "reason": result["reason"],
               "forfeit": forfeit,
               "ms": {side[1]: result["ms"][1], side[2]: result["ms"][2]}}
        append(row)
        rows.append(row)
        if progress is not None:
            progress(row)
    return sorted(rows, key=lambda r: r["game"])


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
