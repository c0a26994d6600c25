"""Speed: fepaper bench and its README table.

Each command is declared once: its group, help and arguments beside what it does.
"""

from __future__ import annotations

import argparse
import json

from ..game.writes import check_writable
from .arguments import in_checkout, integer_at_least, rules
from .command import Command, write_readme_table
from .options import add_json

GROUP = 'speed'


def _print_figures(figures: dict, prefix: str = "") -> None:
    """Each figure on a line, a nested one as ``key[sub]``; rates to the unit, others to 3 digits."""
    flat: dict[str, object] = {}

    def number(value) -> str:
        return f"{value:,.0f}" if isinstance(value, float) and value >= 100 else (
            f"{value:.3g}" if isinstance(value, float) else str(value))

    def walk(d: dict, at: str) -> None:
        for key, value in d.items():
            name = f"{at}[{key}]" if at else str(key)
            if isinstance(value, dict) and value and all(isinstance(v, (int, float)) for v in value.values()):
                flat[name] = "  ".join(f"{k} {number(v)}" for k, v in value.items())  # one line
            elif isinstance(value, dict) and key != "rules":
                walk(value, name)
            else:
                flat[name] = value

    walk(figures, prefix)
    width = max(map(len, flat))
    for key, value in flat.items():
        print(f"{key:<{width}}  {number(value)}")

def _bench_table(args) -> int:
    from ..bench.record import BENCH_DIR, benchmark_markdown, readme_with_table

    folder = args.data or in_checkout(BENCH_DIR, "--data")
    if not args.write:
        if args.check:
            raise ValueError("--check needs --write README")
        print(benchmark_markdown(folder, full=args.full), end="")
        return 0
    return write_readme_table(args.write, args.check, "benchmark",
                               lambda old: readme_with_table(old, folder), folder)

def _bench_arguments(p: argparse.ArgumentParser) -> None:
    from ..bench import BENCHMARKS
    p.add_argument("name", nargs="?", choices=list(BENCHMARKS),
                   help="turns: distinct turns per second, compiled core vs pure-Python reference; "
                   "search: alpha-beta nodes/s, MCTS iterations/s, playout steps/s, thesis alpha-beta "
                   "seconds per decision by level; aco: ant colony ms per decision, GA seconds per "
                   "generation; clock: each time-limited controller's seconds per decision over its budget "
                   "(median / p99 / max) on seeded positions, heavy ones included; interop: random-play "
                   "steps/s through OpenSpiel, PettingZoo and fepaper's Game, and their ratios (needs "
                   "the interop extra); aboyne: Aboyne's perft and random-game moves/s, the reference "
                   "minimax and alpha-beta states/s on it; solve: the exact solver's positions/s on a small "
                   "board and its speed over the reference minimax's; duels: games per second of the full "
                   "budget's duel (thesis-scale dynamic alpha-beta against the base colony) with one worker "
                   "and with every core, and the speed-up; programs: nodes/s of the thesis's alpha-beta and "
                   "the turn search with an evaluation tree (--tree) against the hand-written distance, and "
                   "the ratios; listing: seconds of the complete-turn search to each depth up to --depth on "
                   "10 CodinGame positions, beside another engine's (--reference)")
    add_json(p, "the figures")
    p.add_argument("--repeat", type=integer_at_least(1, 1000), default=None,
                   help="repeats per measurement (median; default: each benchmark's own)")
    p.add_argument("--rules", type=rules, default=None,
                   help="search, aco, interop and duels only: the rules of the positions and searches "
                   "(default: the thesis's); e.g. '{\"preset\": \"thesis\", \"dead_end\": \"stop\"}' times "
                   "the first version's reading")
    p.add_argument("--tree", default=None, help="programs only: the evaluation tree timed (default: an "
                   "example tree of 19 nodes), e.g. the best one of `fepaper evolve`")
    p.add_argument("--depth", type=integer_at_least(1, 8), default=None,
                   help="listing only: the deepest depth timed (default 3; depth 3 takes about a minute)")
    p.add_argument("--reference", default=None, metavar="CSV",
                   help="listing only: another engine's seconds on the same positions, measured outside "
                   "fepaper, set beside fepaper's: '#' lines saying what measured them, then the header "
                   "position,depth,seconds,nodes,turn (positions as in the figures' 'positions', turns in "
                   "fepaper's digits)")
    p.add_argument("--save", nargs="?", const="", default=None, metavar="FOLDER",
                   help="write the figures and the machine to FOLDER/NAME.json (default: the checkout's "
                   "docs/bench), the file the README's table is generated from")
    p.add_argument("--note", default="", help="with --save: a note on the machine kept in the file, e.g. "
                   "'shared with other jobs'")
    p.add_argument("--table", action="store_true",
                   help="run nothing: print the benchmark table generated from the saved files")
    p.add_argument("--full", action="store_true", help="with --table: every row (a file's marker says which "
                   "rows --write puts there: the README shows the headline rows, docs/bench/README.md all)")
    p.add_argument("--data", default=None, help="with --table: the folder of the saved files "
                   "(default: the checkout's docs/bench)")
    p.add_argument("--write", metavar="README", help="with --table: replace the table between the markers "
                   "of this file")
    p.add_argument("--check", action="store_true", help="with --write: change nothing, exit 1 if stale")

def cmd_bench(args) -> int:
    from ..bench import BENCHMARKS, run
    from ..bench.record import BENCH_DIR, machine, save, saved_path

    if args.table:
        if args.name or args.save is not None or args.json or (args.repeat, args.rules, args.depth,
                                                                 args.reference) != (None,) * 4:
            raise ValueError("--table runs no benchmark: give it no NAME, --save, --json, --repeat, --rules, "
                             "--depth or --reference")
        return _bench_table(args)
    if args.name is None:
        raise ValueError(f"give a benchmark NAME ({', '.join(BENCHMARKS)}), or --table")
    if args.write or args.check or args.full or args.data is not None:
        raise ValueError("--write, --check, --full and --data go with --table")
    if args.note and args.save is None:
        raise ValueError("--note goes with --save")
    options = {"repeat": args.repeat} if args.repeat is not None else {}
    if args.tree is not None:
        if args.name != "programs":
            raise ValueError(f"--tree applies to the programs benchmark, not {args.name!r}")
        options["tree"] = args.tree
    for option in ("depth", "reference"):
        if getattr(args, option) is not None:
            if args.name != "listing":
                raise ValueError(f"--{option} applies to the listing benchmark, not {args.name!r}")
            options[option] = getattr(args, option)
    if args.rules is not None:
        if args.name not in ("search", "aco", "interop", "duels"):
            raise ValueError("--rules applies to the search, aco, interop and duels benchmarks, "
                             f"not {args.name!r}")
        if args.save is not None:
            raise ValueError("--save keeps the default rules' figures (the README's table): drop --rules")
        options["rules"] = args.rules
    if args.save == "":
        args.save = in_checkout(BENCH_DIR, "--save FOLDER")
    if args.save is not None:
        check_writable(saved_path(args.name, args.save), "--save")  # before minutes of measuring
    host = machine(args.note) if args.save is not None else None
    figures = run(args.name, **options)
    if args.json:
        print(json.dumps(figures))
    else:
        _print_figures(figures)
    if args.save is not None:
        path = save(args.name, figures, args.save, host)
        if not args.json:
            print(f"wrote {path}")
    return 0


def _warm_up_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true", help="print only the total")


def cmd_warm_up(args) -> int:
    from ..controllers.warmup import warm_up

    total = warm_up(out=(lambda line: None) if args.quiet else print)
    print(f"warm: {total:.1f} s (every later process loads these kernels from numba's cache)")
    return 0


#: The commands of this group, in the order fepaper --help lists them.
COMMANDS = [
    Command('bench', GROUP,
            help="speed benchmarks (medians over stated positions), and their README table",
            description="Run a benchmark and print its figures (--json: one JSON object; --save: also "
                "write it, with the machine, to docs/bench/NAME.json), or, with --table, print the README's "
                "benchmark table generated from the saved files (--write README.md puts it between the "
                "README's markers; --check only says whether it is stale).",
            arguments=_bench_arguments, run=cmd_bench),
    Command('warm-up', GROUP,
            help="compile the kernels of a first use into numba's cache, once",
            description="Compile what a first use calls (perft, turn counts, the solver, every "
                "controller in each of its choices, on each preset) into numba's on-disk cache beside the "
                "package, and print the seconds of each part. The first time takes minutes; afterwards every "
                "new process loads the kernels in about a second. make install runs it; after pip install, "
                "run it once.",
            arguments=_warm_up_arguments, run=cmd_warm_up),
]
