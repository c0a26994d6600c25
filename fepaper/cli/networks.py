"""The value networks' research tools: fepaper net fit, net agree and net searchvalues.

Each command is declared once: its group, help and arguments beside what it does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..game.writes import check_writable
from ..play.limits import MAX_SAMPLE
from ..search.valuefile import SEARCH_NET
from .arguments import controller_spec, integer_at_least, positive_number, weight
from .command import Command, executor, existing, print_json, rounded
from .options import add_json, add_seed, add_workers, games, hidden, iterations

GROUP = 'value networks (research tools, fepaper net COMMAND)'


def _net_fit_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, help="the network file to write (.npz)")
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    p.add_argument("--games", type=games, default=None,
                   help="self-play games (default 160; with --referee none, unless given: then the fit "
                   "is on the referee games and GAMES self-play games together, one step of reinforcement "
                   "when --player searches with the network fitted before)")
    p.add_argument("--iterations", type=iterations, default=None,
                   help="search iterations per decision of the default self-play player (default 80)")
    p.add_argument("--player", default=None, metavar="SPEC",
                   help="the self-play player instead: a controller spec (JSON) with a fixed "
                   "number of iterations, no time_limit (so the same command writes the same file), e.g. "
                   "'{\"name\": \"bestfirst\", \"evaluator\": \"net\", \"net\": \"value_engines25w2.npz\", "
                   "\"iterations\": 200, \"reuse\": true}'")
    p.add_argument("--epochs", type=integer_at_least(1, 100_000), default=30,
                   help="training epochs (default 30)")
    p.add_argument("--hidden1", type=hidden, default=64,
                   help="units of the first hidden layer (default 64)")
    p.add_argument("--hidden2", type=hidden, default=32,
                   help="units of the second hidden layer (default 32)")
    add_seed(p, "seed of everything")
    add_workers(p)
    p.add_argument("--games-file", default=None, help="keep the self-play games in this CSV (resumable)")
    p.add_argument("--referee", nargs="+", default=None, metavar="FILE",
                   help="fit on the games of these fepaper referee files instead of self-play (both sides' "
                   "positions; the games of one opening held out together), e.g. "
                   "data/strength/referee_*.jsonl")
    p.add_argument("--imitate", nargs="+", default=None, metavar="NAME",
                   help="also learn which turns these sides of the --referee files chose (their names in "
                   "the files, e.g. qtpapersoccer qt_a qt_b): the position each chosen turn leaves should be "
                   "worth less to the opponent than those of other turns (fepaper.engines.imitation)")
    p.add_argument("--sample", type=integer_at_least(2, MAX_SAMPLE), default=16,
                   help="with --imitate: positions compared per decision, the chosen turn's included "
                   "(default 16)")
    p.add_argument("--choice-weight", type=positive_number, default=0.25,
                   help="with --imitate: weight of the choices' cross-entropy beside the results' squared "
                   "error (default 0.25)")
    p.add_argument("--search-values", default=None, metavar="FILE",
                   help="with --referee: blend these search values (fepaper net searchvalues, made for the "
                   "same files in the same order) into the results of the positions they value")
    p.add_argument("--value-weight", type=weight, default=0.5,
                   help="with --search-values: a valued position's target is (1 - W) * its result + W * its "
                   "search value (default 0.5)")
    add_json(p, "the fit (the file, the epoch kept and its errors)")

def cmd_net_fit(args) -> int:
    from .._blas import CORE_TYPE_AT_IMPORT, pinned_environment
    from ..engines.valuefit import SELFPLAY_GAMES, SELFPLAY_SPEC, train

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
    games = args.games if args.games is not None else (0 if args.referee else SELFPLAY_GAMES)
    if args.referee and args.games is None and (args.player is not None or args.iterations is not None
                                                or args.games_file is not None):
        raise ValueError("--player, --iterations and --games-file are for self-play games; with --referee, "
                         "give --games to add self-play games to the fit")
    given = None
    if args.imitate and not args.referee:
        raise ValueError("--imitate names sides of --referee files; give the files")
    if args.referee:
        from ..engines.training import training_rows

        given = training_rows(existing(args.referee, "--referee"))
    values = None
    if args.search_values:
        from ..engines.searchvalues import values_of_file

        if not args.referee:
            raise ValueError("--search-values values positions of --referee files; give the files")
        values = values_of_file(given[0], args.search_values)
    with executor(args.workers) as pool:
        result = train(out, games=games, seed=args.seed, spec=spec, epochs=args.epochs,
                       hidden=(args.hidden1, args.hidden2), games_file=games_file, executor=pool,
                       given=given, imitate=tuple(args.imitate or ()), sample=args.sample,
                       choice_weight=args.choice_weight, values=values, value_weight=args.value_weight,
                       selfplay_games=games if given is not None else 0)
    best = result.history[result.best_epoch - 1]
    if args.json:
        print_json({"out": str(out), "epoch": result.best_epoch, "epochs": len(result.history),
                    "train_error": rounded(float(best["train"])),
                    "validation_error": rounded(float(best["validation"]))})
        return 0
    print(f"wrote {out}: epoch {result.best_epoch} of {len(result.history)}, "
          f"train error {best['train']:.4f}, validation error {best['validation']:.4f}")
    return 0

def _net_agree_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("nets", nargs="+", metavar="NET",
                   help="network files (.npz); a bare name is looked up (the one fepaper ships, then "
                   "$FEPAPER_NETWORKS, then a checkout's data/strength/networks/), ./NAME.npz a local file")
    p.add_argument("--games", nargs="+", required=True, metavar="FILE", help="fepaper referee files")
    p.add_argument("--imitate", nargs="+", required=True, metavar="NAME",
                   help="the sides whose choices count (their names in the files, e.g. qt_a qt_b)")
    p.add_argument("--limit", type=integer_at_least(2, MAX_SAMPLE), default=400,
                   help="turns compared per decision at most (default 400)")
    add_seed(p, "seed of the draw past --limit")
    add_json(p, "the agreement of each network", "one list, one object per network")

def cmd_net_agree(args) -> int:
    from ..engines.imitation import agreement
    from ..engines.training import training_rows
    from ..search.valuefile import load_value_net, network_path

    existing(args.games, "--games")
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

def _net_searchvalues_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--referee", nargs="+", required=True, metavar="FILE", help="fepaper referee files")
    p.add_argument("--out", required=True, help="the values file to write or resume (.jsonl)")
    p.add_argument("--net", default=None,
                   help="the search's network: a path, or a bare name looked up as bestfirst's net is "
                   f"(default {SEARCH_NET})")
    p.add_argument("--iterations", type=iterations, default=None,
                   help="search iterations per position (default 100)")
    p.add_argument("--program", default=None, metavar="CMD",
                   help="value the positions with this program's answers instead of a search (split like "
                   "a shell would; one run of it per 16 games)")
    p.add_argument("--every", type=integer_at_least(1, 10**6), default=4,
                   help="value every EVERY-th position (default 4)")
    add_workers(p, "search")
    add_json(p, "the file written and how many positions it values")

def cmd_net_searchvalues(args) -> int:
    import numpy as np

    from ..engines.searchvalues import program_values, search_values
    from ..engines.training import training_rows
    from ..search.valuefile import network_path

    existing(args.referee, "--referee")
    if args.program is not None:
        if args.net is not None or args.iterations is not None:
            raise ValueError("--program values the positions instead of a search: "
                             "drop --net and --iterations")
        if not args.program.strip():
            raise ValueError("--program: give the command of a program")
    else:
        args.net = args.net or SEARCH_NET
        if not network_path(args.net).is_file():
            raise ValueError(f"--net: no network file {network_path(args.net)}")
    rows, _ = training_rows(args.referee)
    out = check_writable(args.out, "--out")
    with executor(args.workers) as pool:
        if args.program is not None:
            values = program_values(rows, out, args.program, every=args.every, executor=pool)
        else:
            values = search_values(rows, out, net=args.net, iterations=args.iterations or 100,
                                   every=args.every, executor=pool)
    valued = int(np.count_nonzero(~np.isnan(values)))  # NaN for the positions not valued
    if args.json:
        print_json({"out": str(out), "valued": valued, "positions": int(values.shape[0]), "games": len(rows)})
        return 0
    print(f"wrote {out}: {valued} of {values.shape[0]} positions of {len(rows)} games valued")
    return 0


#: The commands of this group, in the order fepaper --help lists them.
COMMANDS = [
    Command('net fit', GROUP,
            help="fit a value network of bestfirst (self-play or referee games)",
            description="Play GAMES self-play games of best-first minimax valued by turn distances "
            "(ITERATIONS per decision, each game from a seeded random opening of 2 to 8 turns, CodinGame "
            "rules), fit the value network on every position (as is and mirrored; a tenth of the games "
            "held out, the epoch with the lowest held-out error kept) and write it to OUT (.npz). Every "
            "random choice follows --seed: the same command writes the same file (with its defaults: "
            "value_codingame.npz of data/strength/networks/). With --referee it fits on the games of "
            "fepaper referee files instead: each value_engines*.npz (the one fepaper ships, the others "
            "in data/strength/networks/) is --referee with the files and "
            "--epochs, --hidden1, --hidden2 (and, for those that learn the engine's choices, --imitate "
            "and --choice-weight) of fepaper.engines.enginenets.ENGINE_NETS (the engine games of "
            "data/strength/ before its own matches), --seed 0; notebook 08 fits them again. With --referee "
            "and --games, it fits on both: the referee files' games and GAMES self-play games of --player.",
            arguments=_net_fit_arguments, run=cmd_net_fit),
    Command('net agree', GROUP,
            help="how often value networks value best the turns an engine chose",
            description="For every turn the sides named by --imitate chose (after the opening) in the "
            "games of fepaper referee files, compare the position the chosen turn leaves with those of "
            "the player's other turns (all of them, or LIMIT - 1 drawn with --seed; turns that end the "
            "game or let the opponent score at once are left out: the search values those exactly) and "
            "count how often each network values the chosen one best (fepaper.engines.imitation."
            "agreement). On games no network was fitted on, e.g. "
            "data/strength/engine_heldout/qtpapersoccer_4turn.jsonl, it compares networks without "
            "playing a match. CodinGame rules.",
            arguments=_net_agree_arguments, run=cmd_net_agree),
    Command('net searchvalues', GROUP,
            help="value the positions of referee games by a search or a program "
            "(for net fit)",
            description="Search every EVERY-th turn-start position of the games of fepaper referee "
            "files (in the order net fit --referee reads them) with bestfirst, ITERATIONS iterations "
            "valued by NET, and write each position's value for the player to move to OUT, a JSON-lines "
            "file, one line a game, as it goes: a killed run resumes, and a file made for other games or "
            "another search is refused. net fit --search-values blends them into the game results "
            "(value_engines25w2s.npz: fepaper.engines.enginenets.ENGINE_NETS). The same command "
            "writes the same file. With --program an outside program values the positions instead "
            "(e.g. another engine's search): it reads a position a line, the turns played from the "
            "kick-off in the protocol's notation, space-separated (an empty line: the kick-off), and "
            "answers each with a line whose first word is the value for the player to move, in [-1, 1].",
            arguments=_net_searchvalues_arguments, run=cmd_net_searchvalues),
]
