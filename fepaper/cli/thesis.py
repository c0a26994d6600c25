"""The thesis's experiments: match, tournament, tune, evolve, reproduce and claims-table.

Each command is declared once: its group, help and arguments beside what it does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..game.writes import check_writable
from ..play.tournament import read_tournament_config
from .arguments import controller_spec, in_checkout, integer_at_least, json_object
from .command import Command, executor, print_json, rounded, write_readme_table
from .options import add_games, add_json, add_rules, add_scheduler, add_seed, add_workers, scheduler_of

GROUP = "the thesis's experiments"


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

def _match_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec_a", help='controller spec A, e.g. \'{"name": "random", "mode": "turns"}\'')
    p.add_argument("spec_b", help="controller spec B")
    add_rules(p)
    add_games(p)
    add_seed(p)
    p.add_argument("--out", help="append one CSV row per game here (resumes if present; its folder must "
                   "exist)")
    add_workers(p)
    add_json(p, "the result", "one object, with games, wins_a, wins_b, draws, score_a")

def cmd_match(args) -> int:
    from ..play.arena import label, match

    spec_a, spec_b = controller_spec(args.spec_a, "spec A"), controller_spec(args.spec_b, "spec B")
    out = check_writable(args.out, "--out") if args.out else None
    with executor(args.workers) as pool:
        result = match(args.rules, spec_a, spec_b, games=args.games, seed=args.seed, out=out,
                       executor=pool, progress=not args.json)
    summary = {k: v for k, v in result.items() if k != "rows"}
    if args.json:
        print(json.dumps({k: rounded(v) for k, v in summary.items()}))
        return 0
    print(f"{label(spec_a)}  vs  {label(spec_b)}  ({args.rules}, {args.games} games)")
    print(f"A wins {summary['wins_a']}, B wins {summary['wins_b']}, draws {summary['draws']}")
    print(f"score A {summary['score_a']:.3f}  (95% Wilson {summary['score_a_low']:.3f} .. "
          f"{summary['score_a_high']:.3f})")
    return 0

def _tournament_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", help="path of the JSON config")
    p.add_argument("--out", help="CSV of the games (overrides the config's out; its folder must exist)")
    add_workers(p)
    add_json(p, "the result", "one object (players, points, games played, ratings), no progress")

def cmd_tournament(args) -> int:
    import pandas as pd

    from ..play.arena import round_robin

    config = read_tournament_config(args.config)
    out = args.out or config.get("out")
    what = "--out" if args.out else f"tournament config {args.config}: out"
    out = check_writable(out, what) if out else None
    with executor(args.workers) as pool:
        rr = round_robin(config["rules"], config["players"], games=config["games"], seed=config["seed"],
                         out=out, executor=pool, opening_turns=config["opening_turns"],
                         **({"progress": False} if args.json else {}))
    if args.json:
        print_json({"players": rr["players"], "games": config["games"],
                     "points": rr["score"].tolist(), "played": rr["played"].tolist(),
                     "ratings": [{k: rounded(v) for k, v in r.items()} for r in rr["ratings"]]})
        return 0
    print(_cross_table(rr, config["games"]))
    print()
    with pd.option_context("display.width", 200, "display.max_columns", 50):
        print(pd.DataFrame(rr["ratings"]).round(1).to_string(index=False))
    return 0

def _add_run_files(p: argparse.ArgumentParser, example: str) -> None:
    """What a genetic algorithm's run shares: its result file, its checkpoint, workers, quiet."""
    p.add_argument("--out", required=True, help=f"JSON file for the result, e.g. {example}")
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    p.add_argument("--checkpoint", default=None,
                   help="JSON checkpoint: written each generation, resumed from")
    add_workers(p)
    add_scheduler(p, "play the evaluation games")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_ga_sizes(p: argparse.ArgumentParser, smallest: int) -> None:
    """The sizes of a steady-state GA's run (the thesis's by default): generations, population, offspring."""
    p.add_argument("--generations", type=integer_at_least(0, 10**6), default=10,
                   help="generations after the first (default 10)")
    p.add_argument("--population", type=integer_at_least(smallest, 10_000), default=16,
                   help="population size (default 16, the thesis's)")
    p.add_argument("--offspring", type=integer_at_least(smallest, 10_000), default=8,
                   help="offspring per generation, replacing the worst (default 8, the thesis's)")


def _tune_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", nargs="?", default="aco",
                   help='the controller and its fixed fields, JSON or a bare name, e.g. \'{"name": "aco", '
                   '"variant": "ferdist", "once_per_cycle": true}\' or '
                   '\'{"name": "turnsearch", "depth": 2}\' (default aco)')
    p.add_argument("--variant", default=None, help="shortcut: set the spec's variant (e.g. ferdistrival)")
    p.add_argument("--opponent", default="random",
                   help='opponent spec, JSON or a bare name, e.g. \'{"name": "greedy"}\' (default random)')
    add_games(p, 20, "games per evaluation")
    add_rules(p)
    add_seed(p)
    _add_ga_sizes(p, smallest=1)
    p.add_argument("--bounds", default=None,
                   help='gene bounds to override, e.g. \'{"n_ants": [10, 40], "iterations": [2, 8]}\' or '
                   '\'{"weights.mobility": [0, 5]}\'')
    _add_run_files(p, "data/tuned_ferdistrival.json")
    add_json(p, "the result (the best spec, its fitness, the generations run, the file written)")

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
    with executor(args.workers, scheduler_of(args)) as pool:
        result = tune(spec, generations=args.generations, opponent=opponent, games=args.games,
                      rules=args.rules, seed=args.seed, executor=pool, checkpoint=checkpoint,
                      progress=not (args.quiet or args.json), bounds=bounds, population=args.population,
                      offspring=args.offspring)
    result.save(out)
    if args.json:
        print_json({"best_spec": result.best_spec, "best_fitness": rounded(float(result.best_fitness)),
                    "generations": result.generation, "out": str(out)})
        return 0
    print(json.dumps(result.best_spec))
    print(f"best fitness {result.best_fitness:.3f} after {result.generation} generation(s); wrote {out}")
    return 0

def _evolve_arguments(p: argparse.ArgumentParser) -> None:
    from ..experiments.gp.evolution import MAX_HEIGHT, SETTINGS

    p.add_argument("--setting", choices=list(SETTINGS), default="thesis",
                   help="the fitness: thesis = 20 games from the kick-off, colours alternating (the thesis's "
                   "GA); paired = 20 random openings of 2 turns, each with both colours, common to every "
                   "individual of a generation (default thesis)")
    p.add_argument("--games", type=integer_at_least(1, 100_000), default=None,
                   help="games per evaluation (default: the setting's, 20 or 40)")
    add_rules(p)
    add_seed(p)
    _add_ga_sizes(p, smallest=2)
    p.add_argument("--max-height", type=integer_at_least(1, 17), default=MAX_HEIGHT,
                   help="the bloat limit: a child taller than this is its parent again "
                   f"(default {MAX_HEIGHT})")
    _add_run_files(p, "data/quick/13_evolution.json")
    add_json(p, "the result (the best tree, its spec and fitness, the generations run, the file written)")


def cmd_evolve(args) -> int:
    from ..experiments.gp.evolution import evolve

    out = check_writable(args.out, "--out", force=args.force)
    checkpoint = check_writable(args.checkpoint, "--checkpoint") if args.checkpoint else None
    with executor(args.workers, scheduler_of(args)) as pool:
        result = evolve(args.setting, generations=args.generations, rules=args.rules, seed=args.seed,
                        executor=pool, checkpoint=checkpoint, progress=not (args.quiet or args.json),
                        population=args.population, offspring=args.offspring, games=args.games,
                        max_height=args.max_height)
    result.save(out)
    if args.json:
        print_json({"best_tree": result.best_tree, "best_spec": result.best_spec,
                    "best_fitness": rounded(float(result.best_fitness)), "generations": result.generation,
                    "out": str(out)})
        return 0
    print(result.best_tree)
    print(json.dumps(result.best_spec))
    print(f"best fitness {result.best_fitness:.3f} after {result.generation} generation(s); wrote {out}")
    return 0


def _reproduce_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("notebooks", nargs="*", help="notebook paths (default: notebooks/*.ipynb)")
    from ..notebook.budget import BUDGETS
    p.add_argument("--budget", choices=list(BUDGETS), default=None,
                   help="override each notebook's BUDGET (default: the notebook's own, quick)")
    p.add_argument("--timeout", type=integer_at_least(1, 7 * 86400), default=3600,
                   help="seconds per cell (default 3600)")
    p.add_argument("--refresh", action="store_true",
                   help="keep the new files even where only timings changed (new timings for the record)")
    p.add_argument("--no-report", action="store_true", help="do not write the report or docs/figures.md")
    p.add_argument("--root", default=None,
                   help="the fepaper checkout to reproduce in, the only folder written to (default: the "
                   "checkout holding the current folder; outside one, an error)")
    p.add_argument("--rebuild-report", action="store_true",
                   help="run nothing: write the report's pages, its index and docs/figures.md again from the "
                   "executed notebooks in docs/report/")
    add_workers(p, "play the games of notebooks 03, 04, 12 and 13")
    add_scheduler(p, "play those games")
    add_json(p, "each notebook's run (budget, seconds, error, files written; the progress goes to stderr)")

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
    scheduler = scheduler_of(args)
    from ..notebook.budget import SCHEDULER_ENV, WORKERS_ENV

    for name, value in ((WORKERS_ENV, args.workers), (SCHEDULER_ENV, scheduler)):
        if value is not None:
            os.environ[name] = str(value)  # read by the notebooks' kernels (fepaper.notebook.budget)
    if not args.json:
        return run_notebooks(args.notebooks, budget=args.budget, timeout=args.timeout, refresh=args.refresh,
                             report=not args.no_report, root=root)
    runs: list = []
    code = run_notebooks(args.notebooks, budget=args.budget, timeout=args.timeout, refresh=args.refresh,
                         report=not args.no_report, root=root, done=runs,
                         out=lambda line: print(line, file=sys.stderr, flush=True))
    print_json([{"notebook": str(r.path), "budget": r.budget, "seconds": round(r.seconds, 1),
                 "error": r.error, "kept_committed": r.kept_committed, "written": [str(w) for w in r.written],
                 "report": [str(w) for w in r.report]} for r in runs])
    return code

def _claims_table_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", default=None,
                   help="the folder of the claims files; without it, the README's table, from the folders "
                   "its marker names in the checkout")
    p.add_argument("--beside", metavar="FOLDER", help="another budget's claims files, their verdicts shown "
                   "beside and a changed verdict marked (e.g. --data data/full --beside data/paper)")
    p.add_argument("--declared", metavar="CSV", help="the declarations file: the commit that declared each "
                   "reading and the commit of its first games (data/claims_declared.csv)")
    p.add_argument("--write", metavar="README", help="replace the table between the markers of this file")
    p.add_argument("--check", action="store_true", help="with --write: change nothing, exit 1 if stale")
    add_json(p, "the claims rows the table is made from",
             "one list, each row with its budget and rule set, instead of the table")


def cmd_claims_table(args) -> int:
    from ..experiments.thesis.tables import (
        claims_records,
        readme_sources,
        readme_with_table,
        reproduction_markdown,
    )
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
    if args.json:
        if args.write or args.check:
            raise ValueError("--json prints the claims rows: it writes nothing (drop --write and --check)")
        print_json(claims_records(args.data, beside=args.beside))
        return 0
    if not args.write:
        print(reproduction_markdown(args.data, estimates=False, beside=args.beside,
                                    declarations=args.declared), end="")
        return 0
    return write_readme_table(args.write, args.check, "reproduction",
                               lambda old: readme_with_table(old, args.data, beside=args.beside,
                                                             declared=args.declared), args.data)


#: The commands of this group, in the order fepaper --help lists them.
COMMANDS = [
    Command('match', GROUP,
            help="play two controller specs against each other",
            description="Play GAMES games between two controller specs (JSON or a bare name), "
                "colours swapped every other game, each pair of games from a seeded random opening.",
            arguments=_match_arguments, run=cmd_match),
    Command('tournament', GROUP,
            help="round robin from a JSON config",
            description='Round robin: CONFIG is JSON {"rules": ..., "players": [specs], '
                '"games": N, "seed": S, "out": "data/....csv"}; prints the cross table and ratings.',
            arguments=_tournament_arguments, run=cmd_tournament),
    Command('tune', GROUP,
            help="tune a controller's parameters with the thesis's genetic algorithm",
            description="Steady-state GA (thesis §4.3) over the genes SPEC does not fix (an ant colony's "
        "parameters, the turn search's evaluation weights, MCTS's constants): a population of POPULATION "
        "parameter sets; each "
        "generation OFFSPRING children (tournament selection, one-point crossover, bounded mutation) "
        "replace the worst. Fitness: mean result of GAMES games against OPPONENT (win 1, draw 0.5, "
        "loss 0; colours alternate) plus a small quick-win tie-break. Writes the result (best spec, "
        "logbook, hall of fame) as JSON to OUT and prints the best spec. With --checkpoint the run "
        "saves every generation and resumes from the file when started again.",
            arguments=_tune_arguments, run=cmd_tune),
    Command('evolve', GROUP,
            help="evolve a leaf evaluation of the thesis's alpha-beta by genetic programming (§6)",
            description="Genetic programming (the thesis's unfinished controller, §6): evaluation trees over "
        "the game's features (fepaper.search.programs: attack, defend, free_attack, free_defend, mobility, "
        "bounce, traps, centre) evolve in the thesis's steady-state GA (population 16, 8 offspring replace "
        "the 8 worst, tournament selection, one-point crossover, subtree mutation, a height limit against "
        "bloat). Each tree plays as the thesis's dynamic alpha-beta at level 2 with the tree at its leaves, "
        "and its fitness is its mean result against that alpha-beta with the hand-written distance "
        "(--setting thesis: 20 games from the kick-off; paired: 40 games from 20 common openings). Writes "
        "the result (best tree and spec, logbook, hall of fame, final population) as JSON to OUT; with "
        "--checkpoint the run saves every generation and resumes from the file when started again. "
        "Progress: one bar of generations, counting the games of the current one and the best fitness.",
            arguments=_evolve_arguments, run=cmd_evolve),
    Command('reproduce', GROUP,
            help="execute the notebooks headless, writing figures/, data/ and the report",
            description="Execute every notebook (or those named) headless, then write the report "
                "(docs/report/: each executed notebook as a page and as a notebook with its outputs; "
                "docs/figures.md) and print a summary of every file written. A rerun whose results "
                "differ from the committed ones by timings alone keeps the committed files. At the "
                "smoke budget everything goes to temporary folders.",
            arguments=_reproduce_arguments, run=cmd_reproduce),
    Command('claims-table', GROUP,
            help="the README's Reproduction table from the claims files",
            description="Print the Reproduction table generated from the claims files "
                "(data/<budget>/claims_<rules>.csv, written by notebook 04) as --write puts it between a "
                "README's markers, or write it there.",
            arguments=_claims_table_arguments, run=cmd_claims_table),
]
