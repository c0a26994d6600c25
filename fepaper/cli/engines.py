"""The engines' commands (the CodinGame protocol): bot and referee.

Each command is declared once: its group, help and arguments beside what it does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..game.writes import check_writable
from .arguments import (
    at_least_one,
    controller_spec,
    fraction,
    integer_at_least,
    seconds,
    two_names,
)
from .command import Command
from .options import add_games, add_json, add_rules, add_seed, ms

GROUP = 'engines (the CodinGame protocol)'


def _bot_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", help="controller spec (JSON or a bare name)")
    add_rules(p, "codingame")
    p.add_argument("--ms-first", type=ms, default=1000, help="milliseconds for the first turn")
    p.add_argument("--ms", type=ms, default=100, help="milliseconds for each later turn")
    p.add_argument("--opening", default="", help="turns played before the protocol starts (a record, e.g. "
                   "'2 0'; what the referee's {opening} placeholder receives)")
    p.add_argument("--margin", type=fraction, default=None,
                   help="share of each turn's budget kept back for the bot's own work "
                   "(default 0.08, at least 4 ms)")

def cmd_bot(args) -> int:
    from ..engines.bot import run_bot

    run_bot(controller_spec(args.spec, "spec"), rules=args.rules, ms_first=args.ms_first, ms=args.ms,
            opening=args.opening, **({} if args.margin is None else {"margin": args.margin}))
    return 0

def _referee_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("cmd_a", help="command line of program A (split like a shell would)")
    p.add_argument("cmd_b", help="command line of program B")
    add_games(p)
    p.add_argument("--out", required=True, help="JSON-lines file of the games (resumed if present)")
    p.add_argument("--ms-first", type=ms, default=1000, help="milliseconds for each side's first turn")
    p.add_argument("--ms", type=ms, default=100, help="milliseconds for each later turn")
    p.add_argument("--openings", type=integer_at_least(0, 100), default=0,
                   help="random turns before the programs take over (default 0: from the kick-off)")
    add_seed(p, "seed of the opening bank")
    p.add_argument("--hard-factor", type=at_least_one, default=3.0,
                   help="a turn slower than this times its budget forfeits the game (default 3)")
    p.add_argument("--warmup", type=seconds, default=2.0,
                   help="seconds both programs get to start before the first turn (default 2; a fepaper "
                   "bot from a fresh copy of fepaper needs about 21 s the first time: fepaper bot --help)")
    add_rules(p, "codingame")
    p.add_argument("--names", type=two_names, default=("A", "B"), help="names of A and B, e.g. fepaper,qt")
    p.add_argument("--logs", default=None, help="folder for the programs' stderr, one file per game and side")
    add_json(p, "the summary", "one object, no progress")

def cmd_referee(args) -> int:
    from ..engines.matchstats import format_summary, summary
    from ..engines.referee import print_row, referee

    out = check_writable(args.out, "--out")
    if args.logs is not None and not Path(args.logs).is_dir():
        raise ValueError(f"--logs: no folder {args.logs}")
    rows = referee(args.cmd_a, args.cmd_b, args.games, out, rules=args.rules, ms_first=args.ms_first,
                   ms=args.ms, openings=args.openings, seed=args.seed, hard_factor=args.hard_factor,
                   warmup=args.warmup, names=args.names, logs=args.logs,
                   progress=None if args.json else (lambda row: print_row(row, args.names)))
    figures = summary(rows[:args.games], args.ms_first, args.ms)
    print(json.dumps(figures) if args.json else format_summary(figures, args.names))
    return 0


#: The commands of this group, in the order fepaper --help lists them.
COMMANDS = [
    Command('bot', GROUP,
            help="play over the CodinGame Paper Soccer protocol on stdin/stdout",
            description="Play one game as a CodinGame bot. The referee's first line is the "
                "player id: 0 means this bot kicks off and attacks the top goal (fepaper's player 1), "
                "1 means it moves second and attacks the bottom goal (player 2). Then, before each of "
                "the bot's turns, the opponent's step count and turn ('1' and '-' before the first "
                "move of the game); the bot answers each with one line, its whole turn. Digits are "
                "fepaper's (0 up, clockwise; docs/rules.md). Before reading its id the bot plays "
                "three short turns unseen, so its compiled kernels are loaded before the clock runs. "
                "The first run of a fresh copy of fepaper compiles them into numba's cache: on a "
                "2-core machine its first answer came after about 21 s (2 s once cached), past a "
                "referee's time limits; play one game without a clock, or give fepaper referee a "
                "--warmup of 30, before games that count.",
            arguments=_bot_arguments, run=cmd_bot),
    Command('referee', GROUP,
            help="play two CodinGame-protocol programs against each other",
            description="Play GAMES games between two programs that speak the CodinGame Paper Soccer "
                "protocol (fepaper's bot or any engine), colours swapped in pairs, each pair from a seeded "
                "opening of OPENINGS random turns. Every turn is checked; every answer is timed. A program "
                "forfeits for garbage, an illegal turn, silence past HARD_FACTOR times its budget, or "
                "ending. "
                "Games are appended to OUT as they end; the same command resumes (more --games extend). "
                "With --openings > 0 each command must hold the placeholder {opening}, which receives the "
                "opening turns the program is not told through the protocol, e.g. "
                "\"fepaper bot greedy --opening {opening}\".",
            arguments=_referee_arguments, run=cmd_referee),
]
