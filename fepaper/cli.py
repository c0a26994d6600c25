"""The ``fepaper`` command: perft, show, bench, reproduce (and more as the library grows).

Run ``fepaper --help`` or ``fepaper COMMAND --help``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .game import Game
from .rules import PRESETS, Rules

__all__ = ["main"]

RULES_HELP = (
    f"a preset ({', '.join(PRESETS)}) or a JSON object of Rules fields, optionally with a "
    """"preset" to start from, e.g. '{"preset": "thesis", "bounce": "mandatory"}'"""
)


def _rules(text: str) -> Rules:
    try:
        return Rules.from_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _game(args) -> Game:
    return Game(args.rules, args.moves)


def cmd_perft(args) -> int:
    from .perft import divide, perft

    game = _game(args)
    if args.divide:
        parts = divide(game, args.depth)
        for turn, n in parts.items():
            print(f"{turn or '(stop)'}: {n}")
        print(f"\nturns: {len(parts)}\ntotal: {sum(parts.values())}")
    else:
        print(perft(game, args.depth))
    return 0


def cmd_show(args) -> int:
    game = _game(args)
    print(f"rules: {game.rules}")
    print(f"moves: {game.moves or '(none)'}")
    print(f"ball: {game.ball}  player to move: {game.player}  turn: {game.turn_number}")
    if game.is_over:
        print(f"result: {game.result}")
    else:
        print(f"legal steps: {' '.join(map(str, game.legal_steps()))}")
        print(f"distinct turns: {game.turns().count()}")
    if args.svg:
        from .render import svg

        Path(args.svg).write_text(svg(game))
        print(f"wrote {args.svg}")
    return 0


def cmd_bench(args) -> int:
    from .bench import run

    figures = run(args.name, **({"repeat": args.repeat} if args.repeat else {}))
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            text = f"{value:,.0f}" if isinstance(value, float) and value >= 100 else (
                f"{value:.3g}" if isinstance(value, float) else str(value))
            print(f"{key:<{width}}  {text}")
    return 0


def cmd_reproduce(args) -> int:
    from .notebooks import run_notebooks

    return run_notebooks(args.notebooks, budget=args.budget, timeout=args.timeout)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fepaper",
        description="Paper soccer (Fútbol en papel) research tools: exact rules, perft, "
        "benchmarks and the notebooks that reproduce the thesis.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_position(p):
        p.add_argument("--rules", type=_rules, default=Rules.preset("thesis"), help=RULES_HELP)
        p.add_argument("--moves", default="", help='a record of whole turns to play first, e.g. "0 54"')

    p = sub.add_parser("perft", help="count the leaves of the tree of distinct turns",
                       description="Count the leaves of the tree of distinct turns DEPTH turns deep "
                       "(a finished game is a leaf), as in RULES.md's reference table.")
    with_position(p)
    p.add_argument("--depth", type=int, default=3, help="turns deep (default 3)")
    p.add_argument("--divide", action="store_true", help="print the count under each first turn")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("show", help="replay a record and describe the position",
                       description="Replay a record and print the position: ball, player, result, "
                       "legal steps and the number of distinct turns; optionally write an SVG.")
    with_position(p)
    p.add_argument("--svg", metavar="FILE", help="write the board as SVG to FILE")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("bench", help="speed benchmarks (medians, measured in one run)",
                       description="Run a benchmark and print its figures; --json prints one JSON object.")
    p.add_argument("name", help="turns: distinct turns per second, compiled core vs pure-Python reference")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--repeat", type=int, default=0, help="repeats per measurement (median)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("reproduce", help="execute the notebooks headless, writing figures/ and data/",
                       description="Execute every notebook (or those named) headless at a budget.")
    p.add_argument("notebooks", nargs="*", help="notebook paths (default: notebooks/*.ipynb)")
    p.add_argument("--budget", choices=["smoke", "quick", "full"], default=None,
                   help="override each notebook's BUDGET (default: the notebook's own, quick)")
    p.add_argument("--timeout", type=int, default=3600, help="seconds per cell (default 3600)")
    p.set_defaults(func=cmd_reproduce)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, IndexError) as exc:
        print(f"fepaper {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
