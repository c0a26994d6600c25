"""The ``fepaper`` command: perft, show, match, tournament, bot, referee, tune, bench, reproduce.

Run ``fepaper --help`` or ``fepaper COMMAND --help``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .game.game import Game
from .game.rules import PRESETS, Rules

__all__ = ["main", "build_parser"]

RULES_HELP = (
    f"a preset ({', '.join(PRESETS)}) or a JSON object of Rules fields, optionally with a "
    """"preset" to start from, e.g. '{"preset": "thesis", "bounce": "mandatory"}'"""
)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``fepaper CMD: error: ...``, exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _integer(low: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse


def _number(text: str, low: float, high: float, what: str) -> float:
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and low <= value <= high):
        raise argparse.ArgumentTypeError(f"must be {what}, got {text}")
    return value


def _fraction(text: str) -> float:
    value = _number(text, 0.0, 1.0, "a fraction from 0 to below 1")
    if value >= 1:
        raise argparse.ArgumentTypeError(f"must be a fraction from 0 to below 1, got {text}")
    return value


def _at_least_one(text: str) -> float:
    return _number(text, 1.0, 1000.0, "a number from 1 to 1000")


def _seconds(text: str) -> float:
    return _number(text, 0.0, 60.0, "seconds from 0 to 60")


def _json(text: str, what: str):
    from .game.jsonio import loads

    return loads(text, what)


def _rules(text: str) -> Rules:
    try:
        return Rules.from_spec(_json(text, "rules") if text.strip().startswith("{") else text)
    except (ValueError, TypeError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _spec(value, what: str) -> dict:
    """A controller spec from the command line or a config (JSON text, bare name or dict), checked."""
    from .controllers import make

    if isinstance(value, str) and value.strip().startswith("{"):
        value = _json(value, what)
    if not isinstance(value, (str, dict)):
        raise ValueError(f"{what}: a controller spec is a name or a JSON object, got {value!r}")
    try:
        return make(value).spec
    except (ValueError, TypeError) as exc:  # TypeError: a value of a JSON type the spec does not take
        raise ValueError(f"{what}: {exc}") from None


def _json_object(text: str | None, what: str) -> dict | None:
    if text is None:
        return None
    value = _json(text, what)
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object, got {text!r}")
    return value


def _output(text, what: str) -> Path:
    """An output file that can be written, in a folder that exists (none is created)."""
    path = Path(text)
    folder = path.parent
    if path.is_dir():
        raise ValueError(f"{what} {path} is a folder; give a file name")
    if not folder.is_dir():
        raise ValueError(f"{what} {path}: folder {folder} does not exist (fepaper creates none)")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{what} {path}: not writable")
    return path


def _game(args) -> Game:
    return Game(args.rules, args.moves)


def _print_divide(parts: dict[str, int]) -> None:
    for turn, n in sorted(parts.items(), key=lambda kv: (len(kv[0]), kv[0])):
        print(f"{turn or '(stop)'}: {n}")
    print(f"\nturns: {len(parts)}\ntotal: {sum(parts.values())}")


def cmd_perft(args) -> int:
    from .experiments.perft import REFERENCE_FILE, divide, perft, reference_counts

    if args.check:
        failed = 0
        for row in reference_counts():
            got = perft(Game(row.rules, row.moves), row.depth)
            ok = got == row.count
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {row.rules} {row.moves or '(start)'} depth {row.depth}: "
                  f"{got} (reference {row.count})")
            if not ok:
                _print_divide(divide(Game(row.rules, row.moves), row.depth))
        print(f"{REFERENCE_FILE.name}: {failed} of the reference counts differ" if failed
              else f"{REFERENCE_FILE.name}: every reference count agrees")
        return 1 if failed else 0
    game = _game(args)
    if args.divide:
        _print_divide(divide(game, args.depth))
    else:
        print(perft(game, args.depth))
    return 0


def cmd_show(args) -> int:
    svg_path = _output(args.svg, "--svg") if args.svg else None
    game = _game(args)
    print(f"rules: {game.rules}")
    print(f"moves: {game.moves or '(none)'}")
    print(f"ball: {game.ball}  player to move: {game.player}  turn: {game.turn_number}")
    if game.is_over:
        print(f"result: {game.result}")
    else:
        print(f"legal steps: {' '.join(map(str, game.legal_steps()))}")
        print(f"distinct turns: {game.turns().tally(seconds=10)}")
    if args.svg:
        from .game.render import svg

        svg_path.write_text(svg(game))
        print(f"wrote {args.svg}")
    return 0


def _count_seconds(text: str) -> float:
    value = _number(text, 0.0, 86400.0, "seconds from 0 to 86400")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def cmd_count(args) -> int:
    import resource

    from .game.counts import estimate_turns

    game = _game(args)
    for c in args.steps:
        game.step(c)
    print(f"position: {game.rules} {game.moves or '(start)'}{' ' + game.current if game.current else ''}")
    if args.estimate:
        est = estimate_turns(game, samples=args.samples, seed=args.seed)
        print(f"estimate: {est} in {est.seconds:.2f} s")
    else:
        tally = game.turns().tally(limit=args.limit, seconds=args.seconds, progress=args.progress)
        print(f"count: {tally}")
        print(f"exact: {tally.exact}  states walked: {tally.states:,}  seconds: {tally.seconds:.2f}  "
              f"turns/s: {tally.turns / max(tally.seconds, 1e-9):,.0f}")
        print(f"by kind: {tally.by_kind}")
        print(f"walk memory: {tally.memory:,} bytes (whatever the count)")
    print(f"peak memory of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB")
    return 0


def cmd_bench(args) -> int:
    from .bench import run

    options = {"repeat": args.repeat} if args.repeat is not None else {}
    if args.rules is not None:
        if args.name not in ("search", "aco"):
            raise ValueError(f"--rules applies to the search and aco benchmarks, not {args.name!r}")
        options["rules"] = args.rules
    figures = run(args.name, **options)
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            text = f"{value:,.0f}" if isinstance(value, float) and value >= 100 else (
                f"{value:.3g}" if isinstance(value, float) else str(value))
            print(f"{key:<{width}}  {text}")
    return 0


def _executor(workers: int):
    """This process for one worker, else a pool whose workers exit if this process is killed."""
    from .experiments.arena import SerialExecutor
    from .experiments.pools import worker_pool

    return SerialExecutor() if workers == 1 else worker_pool(workers)


def cmd_match(args) -> int:
    from .experiments.arena import label, match

    spec_a, spec_b = _spec(args.spec_a, "spec A"), _spec(args.spec_b, "spec B")
    out = _output(args.out, "--out") if args.out else None
    with _executor(args.workers) as pool:
        result = match(args.rules, spec_a, spec_b, games=args.games, seed=args.seed, out=out,
                       executor=pool, progress=not args.json)
    summary = {k: v for k, v in result.items() if k != "rows"}
    if args.json:
        print(json.dumps({k: _rounded(v) for k, v in summary.items()}))
        return 0
    print(f"{label(spec_a)}  vs  {label(spec_b)}  ({args.rules}, {args.games} games)")
    print(f"A wins {summary['wins_a']}, B wins {summary['wins_b']}, draws {summary['draws']}")
    print(f"score A {summary['score_a']:.3f}  (95% Wilson {summary['score_a_low']:.3f} .. "
          f"{summary['score_a_high']:.3f})")
    return 0


def _rounded(value):
    """A float to 6 significant digits (``0.9999999999999999`` prints as ``1.0``); others as they are."""
    return float(f"{value:.6g}") if isinstance(value, float) else value


_CONFIG_INTEGERS = {"games": 1, "seed": 0, "opening_turns": 0}


def _tournament_config(path: str) -> dict:
    """The config of ``fepaper tournament``, every key checked, defaults filled in."""
    from .game.jsonio import load

    where = f"tournament config {path}"
    config = load(path, "tournament config")
    known = {"rules", "players", "out", *_CONFIG_INTEGERS}
    if not isinstance(config, dict) or "players" not in config or set(config) - known:
        raise ValueError(f"{where}: must be a JSON object with 'players' and only keys from {sorted(known)}")
    config = {"rules": "thesis", "games": 10, "seed": 0, "opening_turns": 2, **config}
    for key, low in _CONFIG_INTEGERS.items():
        value = config[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{where}: {key} must be an integer >= {low}, got {value!r}")
    if "out" in config and not isinstance(config["out"], str):
        raise ValueError(f"{where}: out must be a file name, got {config['out']!r}")
    try:
        config["rules"] = Rules.from_spec(config["rules"])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: rules: {exc}") from None
    players = config["players"]
    if not isinstance(players, list) or len(players) < 2:
        raise ValueError(f"{where}: players must be a list of at least 2 controller specs, got {players!r}")
    config["players"] = [_spec(p, f"{where}: players[{i}]") for i, p in enumerate(players)]
    return config


def cmd_tournament(args) -> int:
    import pandas as pd

    from .experiments.arena import round_robin

    config = _tournament_config(args.config)
    out = args.out or config.get("out")
    out = _output(out, "--out" if args.out else f"tournament config {args.config}: out") if out else None
    with _executor(args.workers) as pool:
        rr = round_robin(config["rules"], config["players"], games=config["games"], seed=config["seed"],
                         out=out, executor=pool, opening_turns=config["opening_turns"])
    print(_cross_table(rr, config["games"]))
    print()
    with pd.option_context("display.width", 200, "display.max_columns", 50):
        print(pd.DataFrame(rr["ratings"]).round(1).to_string(index=False))
    return 0


def _cross_table(rr: dict, games: int) -> str:
    """Points each row player scored against each column player (out of ``games``), a dash where a
    player would meet itself, and the score (a fraction of all its games)."""
    import pandas as pd

    names = rr["players"]
    n = len(names)
    cells = [["-" if i == j else f"{rr['score'][i, j]:g}" for j in range(n)] for i in range(n)]
    table = pd.DataFrame(cells, index=[f"{i + 1} {name}" for i, name in enumerate(names)],
                         columns=[str(j + 1) for j in range(n)])
    table["score"] = [f"{s:.2f}" for s in rr["score"].sum(axis=1) / rr["played"].sum(axis=1)]
    with pd.option_context("display.width", 200, "display.max_columns", 50, "display.max_colwidth", 60):
        return (f"points against each column player (numbered as the rows) out of {games} games; "
                "score: a fraction of all games\n" + table.to_string())


def cmd_bot(args) -> int:
    from .codingame.bot import run_bot

    run_bot(_spec(args.spec, "spec"), rules=args.rules, ms_first=args.ms_first, ms=args.ms,
            opening=args.opening, **({} if args.margin is None else {"margin": args.margin}))
    return 0


def _names(text: str) -> tuple[str, str]:
    names = tuple(n.strip() for n in text.split(","))
    if len(names) != 2 or not all(names):
        raise argparse.ArgumentTypeError(f"two names separated by a comma, got {text!r}")
    return names


def cmd_valuefit(args) -> int:
    from .experiments.valuefit import SELFPLAY_SPEC, train

    out = _output(args.out, "--out")
    games_file = None if args.games_file is None else _output(args.games_file, "--games-file")
    spec = {**SELFPLAY_SPEC, "iterations": args.iterations}
    given = None
    if args.imitate and not args.referee:
        raise ValueError("--imitate names sides of --referee files; give the files")
    if args.sample < 2:
        raise ValueError(f"--sample must be at least 2 (the chosen turn and another), got {args.sample}")
    if not args.choice_weight > 0:
        raise ValueError(f"--choice-weight must be positive, got {args.choice_weight}")
    if args.referee:
        from .codingame.referee import training_rows

        for path in args.referee:
            if not Path(path).is_file():
                raise ValueError(f"--referee: no file {path}")
        given = training_rows(args.referee)
    with _executor(args.workers) as pool:
        result = train(out, games=args.games, seed=args.seed, spec=spec, epochs=args.epochs,
                       hidden=(args.hidden1, args.hidden2), games_file=games_file, executor=pool,
                       given=given, imitate=tuple(args.imitate or ()), sample=args.sample,
                       choice_weight=args.choice_weight)
    best = result.history[result.best_epoch - 1]
    print(f"wrote {out}: epoch {result.best_epoch} of {len(result.history)}, "
          f"train error {best['train']:.4f}, validation error {best['validation']:.4f}")
    return 0


def cmd_agree(args) -> int:
    from .codingame.referee import training_rows
    from .controllers.bestfirst import network_path
    from .controllers.valuefile import load_value_net
    from .experiments.imitation import agreement

    if args.limit < 2:
        raise ValueError(f"--limit must be at least 2 (the chosen turn and another), got {args.limit}")
    for path in args.games:
        if not Path(path).is_file():
            raise ValueError(f"--games: no file {path}")
    nets = {net: load_value_net(network_path(net), "codingame") for net in args.nets}
    rows, _ = training_rows(args.games)
    found = agreement(list(nets.values()), rows, args.imitate, limit=args.limit, seed=args.seed)
    results = [{"net": net, **got} for net, got in zip(nets, found)]
    if args.json:
        print(json.dumps(results))
        return 0
    for got in results:
        print(f"{got['net']}: chosen turn valued best in {got['agree']} of {got['decisions']} decisions, "
              f"{got['share']:.3f} (95% over games {got['low']:.3f} .. {got['high']:.3f}; a random pick "
              f"{got['guess']:.3f}); other turns valued better {got['rank']:.3f}; "
              f"{got['turns']:.1f} turns compared each")
    return 0


def cmd_referee(args) -> int:
    from .codingame.referee import format_summary, print_row, referee, summary

    out = _output(args.out, "--out")
    if args.logs is not None and not Path(args.logs).is_dir():
        raise ValueError(f"--logs: no folder {args.logs}")
    rows = referee(args.cmd_a, args.cmd_b, args.games, out, rules=args.rules, ms_first=args.ms_first,
                   ms=args.ms, openings=args.openings, seed=args.seed, hard_factor=args.hard_factor,
                   warmup=args.warmup, names=args.names, logs=args.logs,
                   progress=None if args.json else (lambda row: print_row(row, args.names)))
    figures = summary(rows[:args.games], args.ms_first, args.ms)
    print(json.dumps(figures) if args.json else format_summary(figures, args.names))
    return 0


def cmd_tune(args) -> int:
    from .experiments.tuning import tune

    opponent = _spec(args.opponent, "--opponent")
    bounds = _json_object(args.bounds, "--bounds")
    spec = args.spec.strip()
    spec = _json_object(spec, "SPEC") if spec.startswith("{") else {"name": spec}
    if args.variant is not None:
        spec["variant"] = args.variant
    _spec(spec, "SPEC")  # a clear error before any game
    out = _output(args.out, "--out")  # before the run, not after hours of it
    checkpoint = _output(args.checkpoint, "--checkpoint") if args.checkpoint else None
    with _executor(args.workers) as pool:
        result = tune(spec, generations=args.generations, opponent=opponent, games=args.games,
                      rules=args.rules, seed=args.seed, executor=pool, checkpoint=checkpoint,
                      progress=not args.quiet, bounds=bounds, population=args.population,
                      offspring=args.offspring)
    result.save(out)
    print(json.dumps(result.best_spec))
    print(f"best fitness {result.best_fitness:.3f} after {result.generation} generation(s); wrote {out}")
    return 0


def cmd_reproduce(args) -> int:
    from .notebook.runner import rebuild_report, run_notebooks

    if args.rebuild_report:
        rebuild_report()
        return 0
    missing = [n for n in args.notebooks if not Path(n).is_file()]
    if missing:
        raise ValueError(f"no notebook {missing[0]}")
    return run_notebooks(args.notebooks, budget=args.budget, timeout=args.timeout, refresh=args.refresh,
                         report=not args.no_report)


def cmd_claims_table(args) -> int:
    from .experiments.tables import readme_with_table, reproduction_markdown

    if not args.write:
        print(reproduction_markdown(args.data), end="")
        return 0
    path = Path(args.write)
    old = path.read_text(encoding="utf-8")
    new = readme_with_table(old, args.data)
    if args.check:
        print(f"{path}: the reproduction table is {'up to date' if new == old else 'stale'}")
        return 0 if new == old else 1
    path.write_text(new, encoding="utf-8")
    print(f"{path}: reproduction table written from {args.data}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the traceback of an error instead of one line")
    parser = _Parser(
        prog="fepaper", parents=[common],
        description="Paper soccer (Fútbol en papel) research tools: exact rules, perft, "
        "benchmarks and the notebooks that reproduce the thesis.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    def command(name: str, **kw) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[common], **kw)  # --debug after COMMAND too

    positive, natural = _integer(1), _integer(0)

    def with_position(p):
        p.add_argument("--rules", type=_rules, default=Rules.preset("thesis"), help=RULES_HELP)
        p.add_argument("--moves", default="", help='a record of whole turns to play first, e.g. "0 54"')

    p = command("perft", help="count the leaves of the tree of distinct turns",
                       description="Count the leaves of the tree of distinct turns DEPTH turns deep "
                       "(a finished game is a leaf), as in docs/rules.md's reference table.")
    with_position(p)
    p.add_argument("--depth", type=natural, default=3, help="turns deep (default 3)")
    p.add_argument("--divide", action="store_true", help="print the count under each first turn")
    p.add_argument("--check", action="store_true",
                   help="check every count of the reference file (perft_reference.csv) and print the "
                   "count under each first turn where one differs; exit 1 on a mismatch")
    p.set_defaults(func=cmd_perft)

    p = command("show", help="replay a record and describe the position",
                       description="Replay a record and print the position: ball, player, result, "
                       "legal steps and the number of distinct turns; optionally write an SVG.")
    with_position(p)
    p.add_argument("--svg", metavar="FILE", help="write the board as SVG to FILE")
    p.set_defaults(func=cmd_show)

    p = command("count", help="count the distinct turns of a position (exactly, or an estimate)",
                description="Count the distinct turns of a position with the canonical walk (memory: a few "
                "kB whatever the count); print the count (a lower bound, said so, when --limit or --seconds "
                "cut it), the time and the peak memory. --estimate prints an estimate with its 95%% "
                "interval.")
    with_position(p)
    p.add_argument("--steps", default="", help="single steps to play after --moves (a step string, e.g. "
                   "YaPaperSoccer's)")
    p.add_argument("--limit", type=positive, default=None, help="stop after this many turns")
    p.add_argument("--seconds", type=_count_seconds,
                   default=None, help="stop after this many seconds")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument("--estimate", action="store_true", help="estimate instead of counting")
    p.add_argument("--samples", type=positive, default=128, help="sub-trees sampled by --estimate")
    p.add_argument("--seed", type=natural, default=0, help="seed of --estimate")
    p.set_defaults(func=cmd_count)

    p = command("bench", help="speed benchmarks (medians, measured in one run)",
                       description="Run a benchmark and print its figures; --json prints one JSON object.")
    p.add_argument("name", choices=["turns", "search", "aco", "clock"],
                   help="turns: distinct turns per second, compiled core vs pure-Python reference; "
                   "search: alpha-beta nodes/s, MCTS iterations/s, playout steps/s, thesis alpha-beta "
                   "seconds per decision by level; aco: ant colony ms per decision, GA seconds per "
                   "generation; clock: each time-limited controller's seconds per decision over its budget "
                   "(median / p99 / max) on seeded positions, heavy ones included")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--repeat", type=positive, default=None,
                   help="repeats per measurement (median; default: each benchmark's own)")
    p.add_argument("--rules", type=_rules, default=None,
                   help="search and aco only: the rules of the positions and searches (default: the "
                   "thesis's); e.g. '{\"preset\": \"thesis\", \"dead_end\": \"stop\"}' times the first "
                   "version's reading")
    p.set_defaults(func=cmd_bench)

    p = command("match", help="play two controller specs against each other",
                       description="Play GAMES games between two controller specs (JSON or a bare name), "
                       "colours swapped every other game, each pair of games from a seeded random opening.")
    p.add_argument("spec_a", help='controller spec A, e.g. \'{"name": "random", "mode": "turns"}\'')
    p.add_argument("spec_b", help="controller spec B")
    p.add_argument("--rules", type=_rules, default=Rules.preset("thesis"), help=RULES_HELP)
    p.add_argument("--games", type=positive, default=20, help="number of games (default 20)")
    p.add_argument("--seed", type=natural, default=0, help="run seed (default 0)")
    p.add_argument("--out", help="append one CSV row per game here (resumes if present; its folder must "
                   "exist)")
    p.add_argument("--workers", type=positive, default=1, help="processes to play in (default 1)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: games, wins_a, wins_b, draws, score_a")
    p.set_defaults(func=cmd_match)

    p = command("tournament", help="round robin from a JSON config",
                       description='Round robin: CONFIG is JSON {"rules": ..., "players": [specs], '
                       '"games": N, "seed": S, "out": "data/....csv"}; prints the cross table and ratings.')
    p.add_argument("config", help="path of the JSON config")
    p.add_argument("--out", help="CSV of the games (overrides the config's out; its folder must exist)")
    p.add_argument("--workers", type=positive, default=1, help="processes to play in (default 1)")
    p.set_defaults(func=cmd_tournament)

    p = command("bot", help="play over the CodinGame Paper Soccer protocol on stdin/stdout",
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
                       "--warmup of 30, before games that count.")
    p.add_argument("spec", help="controller spec (JSON or a bare name)")
    p.add_argument("--rules", type=_rules, default=Rules.preset("codingame"), help=RULES_HELP)
    p.add_argument("--ms-first", type=positive, default=1000, help="milliseconds for the first turn")
    p.add_argument("--ms", type=positive, default=100, help="milliseconds for each later turn")
    p.add_argument("--opening", default="", help="turns played before the protocol starts (a record, e.g. "
                   "'2 0'; what the referee's {opening} placeholder receives)")
    p.add_argument("--margin", type=_fraction, default=None,
                   help="share of each turn's budget kept back for the bot's own work "
                   "(default 0.08, at least 4 ms)")
    p.set_defaults(func=cmd_bot)

    p = command("referee", help="play two CodinGame-protocol programs against each other",
                description="Play GAMES games between two programs that speak the CodinGame Paper Soccer "
                "protocol (fepaper's bot or any engine), colours swapped in pairs, each pair from a seeded "
                "opening of OPENINGS random turns. Every turn is checked; every answer is timed. A program "
                "forfeits for garbage, an illegal turn, silence past HARD_FACTOR times its budget, or "
                "ending. "
                "Games are appended to OUT as they end; the same command resumes (more --games extend). "
                "With --openings > 0 each command must hold the placeholder {opening}, which receives the "
                "opening turns the program is not told through the protocol, e.g. "
                "\"fepaper bot greedy --opening {opening}\".")
    p.add_argument("cmd_a", help="command line of program A (split like a shell would)")
    p.add_argument("cmd_b", help="command line of program B")
    p.add_argument("--games", type=positive, default=20, help="number of games (default 20)")
    p.add_argument("--out", required=True, help="JSON-lines file of the games (resumed if present)")
    p.add_argument("--ms-first", type=positive, default=1000, help="milliseconds for each side's first turn")
    p.add_argument("--ms", type=positive, default=100, help="milliseconds for each later turn")
    p.add_argument("--openings", type=natural, default=0,
                   help="random turns before the programs take over (default 0: from the kick-off)")
    p.add_argument("--seed", type=natural, default=0, help="seed of the opening bank (default 0)")
    p.add_argument("--hard-factor", type=_at_least_one, default=3.0,
                   help="a turn slower than this times its budget forfeits the game (default 3)")
    p.add_argument("--warmup", type=_seconds, default=2.0,
                   help="seconds both programs get to start before the first turn (default 2; a fepaper "
                   "bot from a fresh copy of fepaper needs about 21 s the first time: fepaper bot --help)")
    p.add_argument("--rules", type=_rules, default=Rules.preset("codingame"), help=RULES_HELP)
    p.add_argument("--names", type=_names, default=("A", "B"), help="names of A and B, e.g. fepaper,qt")
    p.add_argument("--logs", default=None, help="folder for the programs' stderr, one file per game and side")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object, no progress")
    p.set_defaults(func=cmd_referee)

    p = command("agree", help="how often value networks value best the turns an engine chose",
                description="For every turn the sides named by --imitate chose (after the opening) in the "
                "games of fepaper referee files, compare the position the chosen turn leaves with those of "
                "the player's other turns (all of them, or LIMIT - 1 drawn with --seed; turns that end the "
                "game or let the opponent score at once are left out: the search values those exactly) and "
                "count how often each network values the chosen one best (fepaper.experiments.imitation."
                "agreement). On games no network was fitted on, e.g. "
                "data/08_engine_heldout/qtpapersoccer_4turn.jsonl, it compares networks without playing a "
                "match. CodinGame rules.")
    p.add_argument("nets", nargs="+", metavar="NET",
                   help="network files (.npz); a bare name is one fepaper ships (value_engines25.npz), "
                   "./NAME.npz a local file")
    p.add_argument("--games", nargs="+", required=True, metavar="FILE", help="fepaper referee files")
    p.add_argument("--imitate", nargs="+", required=True, metavar="NAME",
                   help="the sides whose choices count (their names in the files, e.g. qt_a qt_b)")
    p.add_argument("--limit", type=int, default=400, help="turns compared per decision at most (default 400)")
    p.add_argument("--seed", type=natural, default=0, help="seed of the draw past --limit (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON list, one object per network")
    p.set_defaults(func=cmd_agree)

    p = command("valuefit", help="train the value network of the bestfirst controller by self-play",
                description="Play GAMES self-play games of best-first minimax valued by turn distances "
                "(ITERATIONS per decision, each game from a seeded random opening of 2 to 8 turns, CodinGame "
                "rules), fit the value network on every position (as is and mirrored; a tenth of the games "
                "held out, the epoch with the lowest held-out error kept) and write it to OUT (.npz). Every "
                "random choice follows --seed: the same command writes the same file. The shipped network "
                "is fepaper/data/value_codingame.npz. With --referee it fits on the games of fepaper referee "
                "files instead: each fepaper/data/value_engines*.npz is --referee with the files and "
                "--epochs, --hidden1, --hidden2 (and, for those that learn the engine's choices, --imitate "
                "and --choice-weight) of fepaper.experiments.valuefit.ENGINE_NETS (the engine games of "
                "data/ before its own matches), --seed 0; notebook 08 fits them again.")
    p.add_argument("--out", required=True, help="the network file to write (.npz)")
    p.add_argument("--games", type=positive, default=160, help="self-play games (default 160)")
    p.add_argument("--iterations", type=positive, default=80,
                   help="search iterations per decision (default 80)")
    p.add_argument("--epochs", type=positive, default=30, help="training epochs (default 30)")
    p.add_argument("--hidden1", type=positive, default=64,
                   help="units of the first hidden layer (default 64)")
    p.add_argument("--hidden2", type=positive, default=32,
                   help="units of the second hidden layer (default 32)")
    p.add_argument("--seed", type=natural, default=0, help="seed of everything (default 0)")
    p.add_argument("--workers", type=positive, default=2, help="processes to play in (default 2)")
    p.add_argument("--games-file", default=None, help="keep the self-play games in this CSV (resumable)")
    p.add_argument("--referee", nargs="+", default=None, metavar="FILE",
                   help="fit on the games of these fepaper referee files instead of self-play (both sides' "
                   "positions; the games of one opening held out together), e.g. data/08_referee_*.jsonl")
    p.add_argument("--imitate", nargs="+", default=None, metavar="NAME",
                   help="also learn which turns these sides of the --referee files chose (their names in "
                   "the files, e.g. qtpapersoccer qt_a qt_b): the position each chosen turn leaves should be "
                   "worth less to the opponent than those of other turns (fepaper.experiments.imitation)")
    p.add_argument("--sample", type=int, default=16,
                   help="with --imitate: positions compared per decision, the chosen turn's included "
                   "(default 16)")
    p.add_argument("--choice-weight", type=float, default=0.25,
                   help="with --imitate: weight of the choices' cross-entropy beside the results' squared "
                   "error (default 0.25)")
    p.set_defaults(func=cmd_valuefit)

    p = command(
        "tune", help="tune a controller's parameters with the thesis's genetic algorithm",
        description="Steady-state GA (thesis §4.3) over the genes SPEC does not fix (an ant colony's "
        "parameters, the turn search's evaluation weights, MCTS's constants): a population of POPULATION "
        "parameter sets; each "
        "generation OFFSPRING children (tournament selection, one-point crossover, bounded mutation) "
        "replace the worst. Fitness: mean result of GAMES games against OPPONENT (win 1, draw 0.5, "
        "loss 0; colours alternate) plus a small quick-win tie-break. Writes the result (best spec, "
        "logbook, hall of fame) as JSON to OUT and prints the best spec. With --checkpoint the run "
        "saves every generation and resumes from the file when started again.")
    p.add_argument("spec", nargs="?", default="aco",
                   help='the controller and its fixed fields, JSON or a bare name, e.g. \'{"name": "aco", '
                   '"variant": "ferdist", "once_per_cycle": true}\' or '
                   '\'{"name": "turnsearch", "depth": 2}\' (default aco)')
    p.add_argument("--variant", default=None, help="shortcut: set the spec's variant (e.g. ferdistrival)")
    p.add_argument("--generations", type=natural, default=10, help="generations after the first (default 10)")
    p.add_argument("--opponent", default="random",
                   help='opponent spec, JSON or a bare name, e.g. \'{"name": "greedy"}\' (default random)')
    p.add_argument("--games", type=positive, default=20, help="games per evaluation (default 20)")
    p.add_argument("--rules", type=_rules, default=Rules.preset("thesis"), help=RULES_HELP)
    p.add_argument("--seed", type=natural, default=0, help="run seed (default 0)")
    p.add_argument("--population", type=positive, default=16, help="population size (default 16)")
    p.add_argument("--offspring", type=positive, default=8, help="offspring per generation (default 8)")
    p.add_argument("--bounds", default=None,
                   help='gene bounds to override, e.g. \'{"n_ants": [10, 40], "iterations": [2, 8]}\' or '
                   '\'{"weights.mobility": [0, 5]}\'')
    p.add_argument("--out", required=True,
                   help="JSON file for the result, e.g. data/tuned_ferdistrival.json")
    p.add_argument("--checkpoint", default=None,
                   help="JSON checkpoint: written each generation, resumed from")
    p.add_argument("--workers", type=positive, default=os.cpu_count() or 1,
                   help="processes to play games in (default: all cores; 1 plays in this process)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_tune)

    p = command("reproduce", help="execute the notebooks headless, writing figures/, data/ and the report",
                       description="Execute every notebook (or those named) headless, then write the report "
                       "(docs/report/: each executed notebook as a page and as a notebook with its outputs; "
                       "docs/figures.md) and print a summary of every file written. A rerun whose results "
                       "differ from the committed ones by timings alone keeps the committed files. At the "
                       "smoke budget everything goes to temporary folders.")
    p.add_argument("notebooks", nargs="*", help="notebook paths (default: notebooks/*.ipynb)")
    from .notebook.budget import BUDGETS

    p.add_argument("--budget", choices=list(BUDGETS), default=None,
                   help="override each notebook's BUDGET (default: the notebook's own, quick)")
    p.add_argument("--timeout", type=positive, default=3600, help="seconds per cell (default 3600)")
    p.add_argument("--refresh", action="store_true",
                   help="keep the new files even where only timings changed (new timings for the record)")
    p.add_argument("--no-report", action="store_true", help="do not write the report or docs/figures.md")
    p.add_argument("--rebuild-report", action="store_true",
                   help="run nothing: write the report's pages, its index and docs/figures.md again from the "
                   "executed notebooks in docs/report/")
    p.set_defaults(func=cmd_reproduce)

    p = command("claims-table", help="the README's Reproduction table from the claims files",
                description="Print the Reproduction table generated from the claims files "
                "(data/<budget>/claims_<rules>.csv, written by notebook 04), or write it into a README "
                "between its markers.")
    p.add_argument("--data", default="data/quick", help="the folder of the claims files (default data/quick)")
    p.add_argument("--write", metavar="README", help="replace the table between the markers of this file")
    p.add_argument("--check", action="store_true", help="with --write: change nothing, exit 1 if stale")
    p.set_defaults(func=cmd_claims_table)
    return parser


def _user_errors() -> tuple[type[BaseException], ...]:
    """What a user's input can cause: bad values and files, and a controller breaking the rules."""
    arena = sys.modules.get("fepaper.experiments.arena")
    return (ValueError, OSError) + ((arena.ArenaError,) if arena is not None else ())


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, BrokenPipeError):
        return "the other end of the pipe closed"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    """Run ``fepaper``; an error a user can cause prints ``fepaper CMD: error: ...`` and returns 2
    (with ``--debug``, its traceback); an interrupted command returns 130."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"fepaper {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if getattr(args, "debug", False) or not isinstance(exc, _user_errors()):
            raise
        print(f"fepaper {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
