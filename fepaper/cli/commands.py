"""What each ``fepaper`` command does with its parsed arguments (:mod:`fepaper.cli.parser`)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from ..game.game import Game
from ..game.rules import Rules
from ..game.writes import check_writable, write_atomic
from .arguments import controller_spec, cut, in_checkout, json_object


def _game(args) -> Game:
    return Game(args.rules, args.moves)


def _print_divide(parts: dict[str, int]) -> None:
    for turn, n in sorted(parts.items(), key=lambda kv: (len(kv[0]), kv[0])):
        print(f"{turn or '(stop)'}: {n}")
    print(f"\nturns: {len(parts)} (distinct first turns)")
    print(f"total: {sum(parts.values())} (leaves of the tree of distinct turns)")


def _print_json(value) -> None:
    print(json.dumps(value))


def cmd_perft(args) -> int:
    from ..search.perft import REFERENCE_FILE, divide, perft, reference_counts

    if args.check:
        given = [flag for flag, value in (("--rules", args.rules), ("--moves", args.moves or None),
                                          ("--depth", args.depth), ("--divide", args.divide or None))
                 if value is not None]
        if given:
            raise ValueError(f"--check checks every row of {REFERENCE_FILE.name} at its own rules, record "
                             f"and depth: drop {', '.join(given)} (or --check)")
        failed, rows = 0, []
        for row in reference_counts():
            got = perft(Game(row.rules, row.moves), row.depth)
            ok = got == row.count
            failed += not ok
            rows.append({"rules": str(row.rules), "moves": row.moves, "depth": row.depth, "count": got,
                         "reference": row.count, "agrees": ok})
            if args.json:
                continue
            print(f"{'ok  ' if ok else 'FAIL'} {row.rules} {row.moves or '(start)'} depth {row.depth}: "
                  f"{got} (reference {row.count})")
            if not ok:
                _print_divide(divide(Game(row.rules, row.moves), row.depth))
        if args.json:
            _print_json({"file": REFERENCE_FILE.name, "differ": failed, "rows": rows})
        else:
            print(f"{REFERENCE_FILE.name}: {failed} of the reference counts differ" if failed
                  else f"{REFERENCE_FILE.name}: every reference count agrees")
        return 1 if failed else 0
    args.rules = args.rules if args.rules is not None else Rules.preset("thesis")
    args.depth = args.depth if args.depth is not None else 3
    game = _game(args)
    if args.divide:
        parts = divide(game, args.depth)
        if args.json:
            _print_json({"rules": game.rules.to_dict(), "moves": game.moves, "depth": args.depth,
                         "total": sum(parts.values()), "divide": parts})
        else:
            _print_divide(parts)
    else:
        count = perft(game, args.depth)
        if args.json:
            _print_json({"rules": game.rules.to_dict(), "moves": game.moves, "depth": args.depth,
                         "total": count})
        else:
            deep = f"{args.depth} turn{'s' * (args.depth != 1)} deep"
            print(f"{count} leaves of the tree of distinct turns {deep} (a finished game is a leaf) from "
                  f"{_position_name(game)}")
    return 0


def _position_name(game: Game) -> str:
    """``the kick-off`` or the record played, then the rules: where a count was made."""
    return f"{'after ' + repr(game.moves) if game.moves else 'the kick-off'}, rules {game.rules}"


def cmd_show(args) -> int:
    svg_path = check_writable(args.svg, "--svg", force=args.force) if args.svg else None
    game = _game(args)
    shown = {"rules": game.rules.to_dict(), "moves": game.moves, "ball": list(game.ball),
             "player": game.player, "turn": game.turn_number}
    if game.is_over:
        shown["result"] = {"winner": game.result.winner, "reason": game.result.reason}
    else:
        tally = game.turns().tally(seconds=10)
        shown.update(legal_steps=game.legal_steps(), distinct_turns=tally.turns, exact=tally.exact)
    if args.svg:
        from ..game.render import svg

        write_atomic(svg_path, svg(game), "--svg")
        shown["svg"] = args.svg
    if args.json:
        _print_json(shown)
        return 0
    print(f"rules: {game.rules}")
    print(f"moves: {game.moves or '(none)'}")
    print(f"ball: {game.ball}  player to move: {game.player}  turn: {game.turn_number}")
    if game.is_over:
        print(f"result: {game.result}")
    else:
        print(f"legal steps: {' '.join(map(str, game.legal_steps()))}")
        print(f"distinct turns: {tally}")
    if args.svg:
        print(f"wrote {args.svg}")
    return 0


def cmd_count(args) -> int:
    import resource

    from ..game.counts import estimate_turns

    game = _game(args)
    for c in args.steps:
        game.step(c)
    position = {"rules": game.rules.to_dict(), "moves": game.moves, "steps": game.current}
    peak_mib = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # noqa: E731
    if args.json:
        if args.estimate:
            est = estimate_turns(game, samples=args.samples, seed=args.seed)
            found = {"estimate": est.value, "low": est.low, "high": est.high, "level": est.level,
                     "samples": est.samples, "exact": est.exact, "seconds": est.seconds}
        else:
            tally = game.turns().tally(limit=args.limit, seconds=args.seconds, progress=args.progress)
            found = {"count": tally.turns, "exact": tally.exact, "stopped": tally.stopped,
                     "states": tally.states, "seconds": tally.seconds, "by_kind": tally.by_kind,
                     "walk_memory_bytes": tally.memory}
        _print_json({**position, **found, "peak_memory_mib": round(peak_mib(), 1)})
        return 0
    print(f"position: {game.rules} {game.moves or '(start)'}{' ' + game.current if game.current else ''}")
    if args.estimate:
        est = estimate_turns(game, samples=args.samples, seed=args.seed)
        print(f"estimate: {est} in {est.seconds:.2f} s")
    else:
        tally = game.turns().tally(limit=args.limit, seconds=args.seconds, progress=args.progress)
        print(f"count: {tally} player {game.player} can play from here to the end of the turn")
        print(f"exact: {tally.exact}  states walked: {tally.states:,}  seconds: {tally.seconds:.2f}  "
              f"turns/s: {tally.turns / max(tally.seconds, 1e-9):,.0f}")
        print(f"by kind: {tally.by_kind}")
        print(f"walk memory: {tally.memory:,} bytes (whatever the count)")
    print(f"peak memory of the process: {peak_mib():,.0f} MiB")
    return 0


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
    return _write_readme_table(args.write, args.check, "benchmark",
                               lambda old: readme_with_table(old, folder), folder)


def _write_readme_table(readme: str, check: bool, what: str, regenerate, source) -> int:
    """Write the README ``readme`` with its ``what`` table as ``regenerate(old text)`` gives it (from
    ``source``), or with ``check`` only say whether it is stale (exit 1 if so). The README is
    checked before the table is made: a regular file (never a FIFO or a link), writable."""
    from ..game.jsonio import read_text

    if not Path(readme).is_symlink() and not Path(readme).exists():
        raise ValueError(f"--write: no file {readme}")
    path = Path(readme) if check else check_writable(readme, "--write")
    old = read_text(path, "--write")
    new = regenerate(old)
    if check:
        print(f"{path}: the {what} table is {'up to date' if new == old else 'stale'}")
        return 0 if new == old else 1
    write_atomic(path, new, "--write")
    print(f"{path}: {what} table written from {source}")
    return 0


def cmd_bench(args) -> int:
    from ..bench import BENCHMARKS, run
    from ..bench.record import BENCH_DIR, machine, save, saved_path

    if args.table:
        if args.name or args.save is not None or args.json or (args.repeat, args.rules) != (None, None):
            raise ValueError("--table runs no benchmark: give it no NAME, --save, --json, --repeat or "
                             "--rules")
        return _bench_table(args)
    if args.name is None:
        raise ValueError(f"give a benchmark NAME ({', '.join(BENCHMARKS)}), or --table")
    if args.write or args.check or args.full or args.data is not None:
        raise ValueError("--write, --check, --full and --data go with --table")
    if args.note and args.save is None:
        raise ValueError("--note goes with --save")
    options = {"repeat": args.repeat} if args.repeat is not None else {}
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


def cmd_warm_up(args) -> int:
    from ..controllers.warmup import warm_up

    total = warm_up(out=(lambda line: None) if args.quiet else print)
    print(f"warm: {total:.1f} s (every later process loads these kernels from numba's cache)")
    return 0


def _existing(paths: list[str], flag: str) -> list[str]:
    """``paths``, each an existing file (else a ValueError naming ``flag`` and the path)."""
    for path in paths:
        if not Path(path).is_file():
            raise ValueError(f"{flag}: no file {path}")
    return paths


def _executor(workers: int):
    """This process for one worker, else a pool whose workers exit if this process is killed."""
    from ..play.pools import executor

    return executor(workers)


def cmd_match(args) -> int:
    from ..play.arena import label, match

    spec_a, spec_b = controller_spec(args.spec_a, "spec A"), controller_spec(args.spec_b, "spec B")
    out = check_writable(args.out, "--out") if args.out else None
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
#: The most players of a round robin (each pair plays its games).
MAX_PLAYERS = 64


def _tournament_config(path: str) -> dict:
    """The config of ``fepaper tournament``, every key checked, defaults filled in."""
    from ..game.jsonio import load

    where = f"tournament config {path}"
    config = load(path, "tournament config", limit=1 << 20)
    known = {"rules", "players", "out", *_CONFIG_INTEGERS}
    if not isinstance(config, dict) or "players" not in config or set(config) - known:
        raise ValueError(f"{where}: must be a JSON object with 'players' and only keys from {sorted(known)}")
    config = {"rules": "thesis", "games": 10, "seed": 0, "opening_turns": 2, **config}
    from ..play.arena import BOUNDS

    for key, low in _CONFIG_INTEGERS.items():
        value = config[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{where}: {key} must be an integer >= {low}, got {cut(value)}")
        if value > BOUNDS[key]:
            raise ValueError(f"{where}: {key} must be at most {BOUNDS[key]:,}, got {cut(value)}")
    if "out" in config and not isinstance(config["out"], str):
        raise ValueError(f"{where}: out must be a file name, got {config['out']!r}")
    try:
        config["rules"] = Rules.from_spec(config["rules"])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: rules: {exc}") from None
    players = config["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"{where}: players must be a list of at least 2 controller specs (at most "
                         f"{MAX_PLAYERS}), got {cut(players)}")
    config["players"] = [controller_spec(p, f"{where}: players[{i}]") for i, p in enumerate(players)]
    return config


def cmd_tournament(args) -> int:
    import pandas as pd

    from ..play.arena import round_robin

    config = _tournament_config(args.config)
    out = args.out or config.get("out")
    what = "--out" if args.out else f"tournament config {args.config}: out"
    out = check_writable(out, what) if out else None
    with _executor(args.workers) as pool:
        rr = round_robin(config["rules"], config["players"], games=config["games"], seed=config["seed"],
                         out=out, executor=pool, opening_turns=config["opening_turns"],
                         **({"progress": False} if args.json else {}))
    if args.json:
        _print_json({"players": rr["players"], "games": config["games"],
                     "points": rr["score"].tolist(), "played": rr["played"].tolist(),
                     "ratings": [{k: _rounded(v) for k, v in r.items()} for r in rr["ratings"]]})
        return 0
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
    from ..engines.bot import run_bot

    run_bot(controller_spec(args.spec, "spec"), rules=args.rules, ms_first=args.ms_first, ms=args.ms,
            opening=args.opening, **({} if args.margin is None else {"margin": args.margin}))
    return 0


def cmd_net_fit(args) -> int:
    from .._blas import CORE_TYPE_AT_IMPORT, pinned_environment
    from ..engines.valuefit import SELFPLAY_SPEC, train

    env = pinned_environment()
    if CORE_TYPE_AT_IMPORT is None and "OPENBLAS_CORETYPE" in env and getattr(args, "argv", None) is None:
        # numpy loaded on the CPU's own kernels: the command starts again on the AVX2 kernels, so that
        # the fit is the same to the bit on every x86-64 CPU (fepaper/_blas.py)
        os.execve(sys.executable, [sys.executable, "-m", "fepaper.cli", *sys.argv[1:]], env)

    out = check_writable(args.out, "--out", force=args.force)
    games_file = None if args.games_file is None else check_writable(args.games_file, "--games-file")
    if args.player is not None:
        if args.iterations is not None:
            raise ValueError("--iterations sets the default self-play player's; "
                             "with --player, put them in its spec")
        spec = controller_spec(args.player, "--player")
    else:
        spec = {**SELFPLAY_SPEC, "iterations": args.iterations or SELFPLAY_SPEC["iterations"]}
    games = args.games if args.games is not None else (0 if args.referee else 160)
    if args.referee and args.games is None and (args.player is not None or args.iterations is not None
                                                or args.games_file is not None):
        raise ValueError("--player, --iterations and --games-file are for self-play games; with --referee, "
                         "give --games to add self-play games to the fit")
    given = None
    if args.imitate and not args.referee:
        raise ValueError("--imitate names sides of --referee files; give the files")
    if args.referee:
        from ..engines.training import training_rows

        given = training_rows(_existing(args.referee, "--referee"))
    values = None
    if args.search_values:
        from ..engines.searchvalues import values_of_file

        if not args.referee:
            raise ValueError("--search-values values positions of --referee files; give the files")
        values = values_of_file(given[0], args.search_values)
    with _executor(args.workers) as pool:
        result = train(out, games=games, seed=args.seed, spec=spec, epochs=args.epochs,
                       hidden=(args.hidden1, args.hidden2), games_file=games_file, executor=pool,
                       given=given, imitate=tuple(args.imitate or ()), sample=args.sample,
                       choice_weight=args.choice_weight, values=values, value_weight=args.value_weight,
                       selfplay_games=games if given is not None else 0)
    best = result.history[result.best_epoch - 1]
    print(f"wrote {out}: epoch {result.best_epoch} of {len(result.history)}, "
          f"train error {best['train']:.4f}, validation error {best['validation']:.4f}")
    return 0


def cmd_net_searchvalues(args) -> int:
    import numpy as np

    from ..engines.searchvalues import program_values, search_values
    from ..engines.training import training_rows
    from ..search.valuefile import network_path

    _existing(args.referee, "--referee")
    if args.program is not None:
        if args.net is not None or args.iterations is not None:
            raise ValueError("--program values the positions instead of a search: "
                             "drop --net and --iterations")
        if not args.program.strip():
            raise ValueError("--program: give the command of a program")
    else:
        args.net = args.net or "value_engines25w2.npz"
        if not network_path(args.net).is_file():
            raise ValueError(f"--net: no network file {network_path(args.net)}")
    rows, _ = training_rows(args.referee)
    out = check_writable(args.out, "--out")
    with _executor(args.workers) as pool:
        if args.program is not None:
            values = program_values(rows, out, args.program, every=args.every, executor=pool)
        else:
            values = search_values(rows, out, net=args.net, iterations=args.iterations or 100,
                                   every=args.every, executor=pool)
    valued = int(np.count_nonzero(~np.isnan(values)))  # NaN for the positions not valued
    print(f"wrote {out}: {valued} of {values.shape[0]} positions of {len(rows)} games valued")
    return 0


def cmd_net_agree(args) -> int:
    from ..engines.imitation import agreement
    from ..engines.training import training_rows
    from ..search.valuefile import load_value_net, network_path

    _existing(args.games, "--games")
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


def cmd_tune(args) -> int:
    from ..experiments.thesis.tuning import tune

    opponent = controller_spec(args.opponent, "--opponent")
    bounds = json_object(args.bounds, "--bounds")
    spec = args.spec.strip()
    spec = json_object(spec, "SPEC") if spec.startswith("{") else {"name": spec}
    if args.variant is not None:
        spec["variant"] = args.variant
    controller_spec(spec, "SPEC")  # a clear error before any game
    out = check_writable(args.out, "--out", force=args.force)  # before the run, not after hours of it
    checkpoint = check_writable(args.checkpoint, "--checkpoint") if args.checkpoint else None
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
    from ..notebook.budget import checkout_root
    from ..notebook.runner import rebuild_report, run_notebooks

    root = checkout_root(args.root)
    if args.rebuild_report:
        rebuild_report(root)
        return 0
    missing = [n for n in args.notebooks if not Path(n).is_file()]
    if missing:
        raise ValueError(f"no notebook {missing[0]}")
    outside = [n for n in args.notebooks if not Path(n).resolve().is_relative_to(root)]
    if outside:
        raise ValueError(f"{outside[0]} is not a notebook of the checkout {root}")
    if args.scheduler:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ValueError("--scheduler needs dask's distributed: pip install 'fepaper[cluster]'") from None
    from ..notebook.budget import SCHEDULER_ENV, WORKERS_ENV

    for name, value in ((WORKERS_ENV, args.workers), (SCHEDULER_ENV, args.scheduler)):
        if value is not None:
            os.environ[name] = str(value)  # read by the notebooks' kernels (fepaper.notebook.budget)
    return run_notebooks(args.notebooks, budget=args.budget, timeout=args.timeout, refresh=args.refresh,
                         report=not args.no_report, root=root)


def cmd_claims_table(args) -> int:
    from ..experiments.thesis.tables import readme_sources, readme_with_table, reproduction_markdown
    from ..game.jsonio import read_text

    if args.data is None:  # the README's table, from the sources its marker names in the checkout
        if args.beside is not None or args.declared is not None:
            raise ValueError("--beside and --declared go with --data (without it: the README's table)")
        readme = in_checkout("README.md", "--data")
        root = readme.parent
        named = readme_sources(read_text(readme, "the checkout's README.md"))
        args.data = root / named["folder"]
        args.beside = root / named["beside"] if named["beside"] else None
        args.declared = root / named["declared"] if named["declared"] else None
    if not args.write:
        print(reproduction_markdown(args.data, estimates=False, beside=args.beside,
                                    declarations=args.declared), end="")
        return 0
    return _write_readme_table(args.write, args.check, "reproduction",
                               lambda old: readme_with_table(old, args.data, beside=args.beside,
                                                             declared=args.declared), args.data)


def cmd_solve(args) -> int:
    from ..experiments.complexity.solved import oracle_positions, solve_board
    from ..experiments.complexity.solvedtable import sidecar_path

    if args.fixture:
        path = check_writable(args.fixture, "--fixture", force=args.force)
        positions = oracle_positions(args.rules, args.positions)
        write_atomic(path, json.dumps(positions, indent=1) + "\n", "--fixture")
        print(f"{path}: {len(positions)} solved positions not forced within three turns")
        return 0
    out = check_writable(args.out or in_checkout("data/solved_boards.csv", "--out"), "--out")
    check_writable(sidecar_path(out, "--out"), "--out's sidecar")
    row = solve_board(args.rules, out, seconds=args.seconds, memory_gb=args.memory_gb, again=args.again)
    if args.json:
        print(json.dumps(row))
        return 0
    turns = row["winning_first_turns"]
    done = "" if row["solved_now"] else f" (already in {out}; --again solves it again)"
    print(f"{args.rules}: {row['value']}{done}")
    if turns:
        print(f"  winning first turns: {turns}" + ("" if row["all_winning_turns"]
                                                   else " (not all first turns were decided)"))
    budget = "no time budget" if row["budget_seconds"] is None else f"budget {row['budget_seconds']} s"
    print(f"  nodes {row['nodes']}, positions {row['positions']}, deepest ply {row['deepest']}, "
          f"{row['seconds']} s, peak memory {row['peak_rss_mb']} MB ({budget}, "
          f"cap {row['memory_cap_gb']} GB)" + (f", stopped: {row['stopped']}" if row["stopped"] else ""))
    print(f"  first turns {row['first_turns']}, proven {row['proven_first_turns']}")
    if row["solved_now"]:
        print(f"  row appended to {out} and its sidecar")
    return 0
