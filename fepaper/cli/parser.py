"""The ``fepaper`` command line: every command, its arguments and its help."""

from __future__ import annotations

import argparse
import os

from ..game.rules import Rules
from ..play.limits import MAX_GAMES, MAX_SAMPLE
from ..search.valuefile import MAX_HIDDEN
from .arguments import (
    RULES_HELP,
    Parser,
    at_least_one,
    count_seconds,
    fraction,
    integer_at_least,
    positive_number,
    rules,
    seconds,
    two_names,
    weight,
)
from .commands import (
    cmd_bench,
    cmd_bot,
    cmd_claims_table,
    cmd_count,
    cmd_match,
    cmd_net_agree,
    cmd_net_fit,
    cmd_net_searchvalues,
    cmd_perft,
    cmd_referee,
    cmd_reproduce,
    cmd_show,
    cmd_tournament,
    cmd_tune,
    cmd_warm_up,
)

#: The commands as ``fepaper --help`` lists them, by what they are for.
GROUPS = {
    "the game": ("perft", "show", "count", "solve"),
    "the thesis's experiments": ("match", "tournament", "tune", "reproduce", "claims-table"),
    "speed": ("bench", "warm-up"),
    "engines (the CodinGame protocol)": ("bot", "referee"),
    "value networks (research tools, fepaper net COMMAND)": ("net fit", "net agree", "net searchvalues"),
}


def _grouped(helps: dict[str, str]) -> str:
    width = max(map(len, helps)) + 2
    lines = []
    for title, names in GROUPS.items():
        lines += ["", f"{title}:"] + [f"  {name:<{width}}{helps[name]}" for name in names]
    return "\n".join(lines[1:])


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the traceback of an error instead of one line")
    parser = Parser(
        prog="fepaper", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Paper soccer (Fútbol en papel) research tools: exact rules, perft, "
        "benchmarks and the notebooks that reproduce the thesis.",
    )
    parser.add_argument("--version", action="version", version=f"fepaper {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser,
                                help="one of the commands below; fepaper COMMAND --help says more")
    helps: dict[str, str] = {}

    def command(name: str, *, help: str, **kw) -> argparse.ArgumentParser:
        helps[name] = help  # listed by group in the epilog, not by argparse
        return sub.add_parser(name, parents=[common], **kw)  # --debug after COMMAND too

    positive, natural = integer_at_least(1), integer_at_least(0)
    games, workers = integer_at_least(1, MAX_GAMES), integer_at_least(1, 256)
    ms = integer_at_least(1, 3_600_000)
    iterations, hidden = integer_at_least(1, 10**9), integer_at_least(1, MAX_HIDDEN)

    def with_position(p, default_rules="thesis"):
        p.add_argument("--rules", type=rules, default=default_rules and Rules.preset(default_rules),
                       help=RULES_HELP)
        p.add_argument("--moves", default="", help='a record of whole turns to play first, e.g. "0 54"')

    p = command("perft", help="count the leaves of the tree of distinct turns",
                description="Count the leaves of the tree of distinct turns DEPTH turns deep "
                "(a finished game is a leaf), as in docs/rules.md's reference table.")
    with_position(p, default_rules=None)  # the thesis's (cmd_perft), unless --check, which takes no position
    p.add_argument("--depth", type=integer_at_least(0, 64), default=None, help="turns deep (default 3)")
    p.add_argument("--divide", action="store_true", help="print the count under each first turn")
    p.add_argument("--check", action="store_true",
                   help="check every count of the reference file (perft_reference.csv), each at its own "
                   "rules, record and depth (so not with --rules, --moves, --depth or --divide), and print "
                   "the count under each first turn where one differs; exit 1 on a mismatch")
    p.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    p.set_defaults(func=cmd_perft)

    p = command("show", help="replay a record and describe the position",
                description="Replay a record and print the position: ball, player, result, "
                "legal steps and the number of distinct turns; optionally write an SVG.")
    with_position(p)
    p.add_argument("--svg", metavar="FILE", help="write the board as SVG to FILE")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.add_argument("--json", action="store_true", help="print the position as one JSON object")
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
    p.add_argument("--seconds", type=count_seconds,
                   default=None, help="stop after this many seconds")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument("--estimate", action="store_true", help="estimate instead of counting")
    p.add_argument("--samples", type=integer_at_least(1, 10**6), default=128,
                   help="sub-trees sampled by --estimate")
    p.add_argument("--seed", type=natural, default=0, help="seed of --estimate")
    p.add_argument("--json", action="store_true", help="print the count (or estimate) as one JSON object")
    p.set_defaults(func=cmd_count)

    p = command("bench", help="speed benchmarks (medians over stated positions), and their README table",
                description="Run a benchmark and print its figures (--json: one JSON object; --save: also "
                "write it, with the machine, to docs/bench/NAME.json), or, with --table, print the README's "
                "benchmark table generated from the saved files (--write README.md puts it between the "
                "README's markers; --check only says whether it is stale).")
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
                   "and with every core, and the speed-up")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--repeat", type=integer_at_least(1, 1000), default=None,
                   help="repeats per measurement (median; default: each benchmark's own)")
    p.add_argument("--rules", type=rules, default=None,
                   help="search, aco, interop and duels only: the rules of the positions and searches "
                   "(default: the thesis's); e.g. '{\"preset\": \"thesis\", \"dead_end\": \"stop\"}' times "
                   "the first version's reading")
    p.add_argument("--save", nargs="?", const="", default=None, metavar="FOLDER",
                   help="write the figures and the machine to FOLDER/NAME.json (default: the checkout's "
                   "docs/bench), the "
                   "file the README's table is generated from")
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
    p.set_defaults(func=cmd_bench)

    p = command("warm-up", help="compile the kernels of a first use into numba's cache, once",
                description="Compile what a first use calls (perft, turn counts, the solver, every "
                "controller in each of its choices, on each preset) into numba's on-disk cache beside the "
                "package, and "
                "print the seconds of each part. The first time takes minutes; afterwards every new process "
                "loads the kernels in about a second. make install runs it; after pip install, run it once.")
    p.add_argument("--quiet", action="store_true", help="print only the total")
    p.set_defaults(func=cmd_warm_up)

    p = command("match", help="play two controller specs against each other",
                description="Play GAMES games between two controller specs (JSON or a bare name), "
                "colours swapped every other game, each pair of games from a seeded random opening.")
    p.add_argument("spec_a", help='controller spec A, e.g. \'{"name": "random", "mode": "turns"}\'')
    p.add_argument("spec_b", help="controller spec B")
    p.add_argument("--rules", type=rules, default=Rules.preset("thesis"), help=RULES_HELP)
    p.add_argument("--games", type=games, default=20, help="number of games (default 20)")
    p.add_argument("--seed", type=natural, default=0, help="run seed (default 0)")
    p.add_argument("--out", help="append one CSV row per game here (resumes if present; its folder must "
                   "exist)")
    p.add_argument("--workers", type=workers, default=1, help="processes to play in (default 1)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: games, wins_a, wins_b, draws, score_a")
    p.set_defaults(func=cmd_match)

    p = command("tournament", help="round robin from a JSON config",
                description='Round robin: CONFIG is JSON {"rules": ..., "players": [specs], '
                '"games": N, "seed": S, "out": "data/....csv"}; prints the cross table and ratings.')
    p.add_argument("config", help="path of the JSON config")
    p.add_argument("--out", help="CSV of the games (overrides the config's out; its folder must exist)")
    p.add_argument("--workers", type=workers, default=1, help="processes to play in (default 1)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (players, points, games played, ratings), no progress")
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
    p.add_argument("--rules", type=rules, default=Rules.preset("codingame"), help=RULES_HELP)
    p.add_argument("--ms-first", type=ms, default=1000, help="milliseconds for the first turn")
    p.add_argument("--ms", type=ms, default=100, help="milliseconds for each later turn")
    p.add_argument("--opening", default="", help="turns played before the protocol starts (a record, e.g. "
                   "'2 0'; what the referee's {opening} placeholder receives)")
    p.add_argument("--margin", type=fraction, default=None,
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
    p.add_argument("--games", type=games, default=20, help="number of games (default 20)")
    p.add_argument("--out", required=True, help="JSON-lines file of the games (resumed if present)")
    p.add_argument("--ms-first", type=ms, default=1000, help="milliseconds for each side's first turn")
    p.add_argument("--ms", type=ms, default=100, help="milliseconds for each later turn")
    p.add_argument("--openings", type=integer_at_least(0, 100), default=0,
                   help="random turns before the programs take over (default 0: from the kick-off)")
    p.add_argument("--seed", type=natural, default=0, help="seed of the opening bank (default 0)")
    p.add_argument("--hard-factor", type=at_least_one, default=3.0,
                   help="a turn slower than this times its budget forfeits the game (default 3)")
    p.add_argument("--warmup", type=seconds, default=2.0,
                   help="seconds both programs get to start before the first turn (default 2; a fepaper "
                   "bot from a fresh copy of fepaper needs about 21 s the first time: fepaper bot --help)")
    p.add_argument("--rules", type=rules, default=Rules.preset("codingame"), help=RULES_HELP)
    p.add_argument("--names", type=two_names, default=("A", "B"), help="names of A and B, e.g. fepaper,qt")
    p.add_argument("--logs", default=None, help="folder for the programs' stderr, one file per game and side")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object, no progress")
    p.set_defaults(func=cmd_referee)

    nets = command("net", help="the value networks' research tools: fit, agree, searchvalues",
                   description="The value networks of bestfirst: fit one (fepaper net fit), compare networks "
                   "on an engine's choices (fepaper net agree), value the positions of referee games by a "
                   "search or a program (fepaper net searchvalues). fepaper net COMMAND --help says more.")
    net_sub = nets.add_subparsers(dest="net_command", required=True, metavar="COMMAND", parser_class=Parser)
    net_helps: dict[str, str] = {}

    def net(name: str, *, help: str, **kw) -> argparse.ArgumentParser:
        net_helps[name] = help
        p = net_sub.add_parser(name, parents=[common], help=help, **kw)
        p.set_defaults(command=f"net {name}")  # errors say "fepaper net NAME: error: ..."
        return p

    p = net("fit", help="fit a value network of bestfirst (self-play or referee games)",
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
            "and --games, it fits on both: the referee files' games and GAMES self-play games of --player.")
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
    p.add_argument("--seed", type=natural, default=0, help="seed of everything (default 0)")
    p.add_argument("--workers", type=workers, default=2, help="processes to play in (default 2)")
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
    p.set_defaults(func=cmd_net_fit)

    p = net("agree", help="how often value networks value best the turns an engine chose",
            description="For every turn the sides named by --imitate chose (after the opening) in the "
            "games of fepaper referee files, compare the position the chosen turn leaves with those of "
            "the player's other turns (all of them, or LIMIT - 1 drawn with --seed; turns that end the "
            "game or let the opponent score at once are left out: the search values those exactly) and "
            "count how often each network values the chosen one best (fepaper.engines.imitation."
            "agreement). On games no network was fitted on, e.g. "
            "data/strength/engine_heldout/qtpapersoccer_4turn.jsonl, it compares networks without "
            "playing a match. CodinGame rules.")
    p.add_argument("nets", nargs="+", metavar="NET",
                   help="network files (.npz); a bare name is looked up (the one fepaper ships, then "
                   "$FEPAPER_NETWORKS, then a checkout's data/strength/networks/), ./NAME.npz a local file")
    p.add_argument("--games", nargs="+", required=True, metavar="FILE", help="fepaper referee files")
    p.add_argument("--imitate", nargs="+", required=True, metavar="NAME",
                   help="the sides whose choices count (their names in the files, e.g. qt_a qt_b)")
    p.add_argument("--limit", type=integer_at_least(2, MAX_SAMPLE), default=400,
                   help="turns compared per decision at most (default 400)")
    p.add_argument("--seed", type=natural, default=0, help="seed of the draw past --limit (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON list, one object per network")
    p.set_defaults(func=cmd_net_agree)

    p = net("searchvalues", help="value the positions of referee games by a search or a program "
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
            "answers each with a line whose first word is the value for the player to move, in [-1, 1].")
    p.add_argument("--referee", nargs="+", required=True, metavar="FILE", help="fepaper referee files")
    p.add_argument("--out", required=True, help="the values file to write or resume (.jsonl)")
    p.add_argument("--net", default=None,
                   help="the search's network: a path, or a bare name looked up as bestfirst's net is "
                   "(default value_engines25w2.npz)")
    p.add_argument("--iterations", type=iterations, default=None,
                   help="search iterations per position (default 100)")
    p.add_argument("--program", default=None, metavar="CMD",
                   help="value the positions with this program's answers instead of a search (split like "
                   "a shell would; one run of it per 16 games)")
    p.add_argument("--every", type=integer_at_least(1, 10**6), default=4,
                   help="value every EVERY-th position (default 4)")
    p.add_argument("--workers", type=workers, default=2, help="processes to search in (default 2)")
    p.set_defaults(func=cmd_net_searchvalues)

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
    p.add_argument("--generations", type=integer_at_least(0, 10**6), default=10,
                   help="generations after the first (default 10)")
    p.add_argument("--opponent", default="random",
                   help='opponent spec, JSON or a bare name, e.g. \'{"name": "greedy"}\' (default random)')
    p.add_argument("--games", type=games, default=20, help="games per evaluation (default 20)")
    p.add_argument("--rules", type=rules, default=Rules.preset("thesis"), help=RULES_HELP)
    p.add_argument("--seed", type=natural, default=0, help="run seed (default 0)")
    p.add_argument("--population", type=integer_at_least(1, 10_000), default=16,
                   help="population size (default 16)")
    p.add_argument("--offspring", type=integer_at_least(1, 10_000), default=8,
                   help="offspring per generation (default 8)")
    p.add_argument("--bounds", default=None,
                   help='gene bounds to override, e.g. \'{"n_ants": [10, 40], "iterations": [2, 8]}\' or '
                   '\'{"weights.mobility": [0, 5]}\'')
    p.add_argument("--out", required=True,
                   help="JSON file for the result, e.g. data/tuned_ferdistrival.json")
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    p.add_argument("--checkpoint", default=None,
                   help="JSON checkpoint: written each generation, resumed from")
    p.add_argument("--workers", type=workers, default=os.cpu_count() or 1,
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
    p.add_argument("--workers", type=integer_at_least(1, 4096), default=None,
                   help="processes the notebooks that play many games (03, 04, 12) play them on (default: "
                   "each notebook's budget's: every core at full); the games, and so the results, are the "
                   "same on any number")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="play those games on the dask cluster of this scheduler (e.g. tcp://host:8786; needs "
                   "the cluster extra) instead of this machine")
    p.set_defaults(func=cmd_reproduce)

    p = command("claims-table", help="the README's Reproduction table from the claims files",
                description="Print the Reproduction table generated from the claims files "
                "(data/<budget>/claims_<rules>.csv, written by notebook 04) as --write puts it between a "
                "README's markers, or write it there.")
    p.add_argument("--data", default=None,
                   help="the folder of the claims files; without it, the README's table, from the folders "
                   "its marker names in the checkout")
    p.add_argument("--beside", metavar="FOLDER", help="another budget's claims files, their verdicts shown "
                   "beside and a changed verdict marked (e.g. --data data/full --beside data/paper)")
    p.add_argument("--declared", metavar="CSV", help="the declarations file: the commit that declared each "
                   "reading and the commit of its first games (data/claims_declared.csv)")
    p.add_argument("--write", metavar="README", help="replace the table between the markers of this file")
    p.add_argument("--check", action="store_true", help="with --write: change nothing, exit 1 if stale")
    p.set_defaults(func=cmd_claims_table)
    from .arguments import memory_gb
    from .commands import cmd_solve

    p = command("solve", help="who wins a board's kick-off with perfect play (the exact solver)",
                description="Solve the kick-off of RULES exactly (alpha-beta over distinct turns to the end "
                "of the game, a table of proven values): print one row (the value, every winning first turn, "
                "nodes, positions stored, seconds, peak memory) and append it to --out and its JSON sidecar. "
                "A budget passed first answers 'unknown', never a guess. A board already in --out is not "
                "solved again unless --again.")
    p.add_argument("--rules", type=rules, required=True, help=RULES_HELP)
    p.add_argument("--seconds", type=count_seconds, default=300.0, help="time budget (default 300)")
    p.add_argument("--memory-gb", type=memory_gb, default=2.0,
                   help="cap on the process's peak memory in GB, what it holds included (default 2)")
    p.add_argument("--out", default=None,
                   help="the table to append to (default: the checkout's data/solved_boards.csv); its folder "
                   "must exist")
    p.add_argument("--again", action="store_true", help="solve it even if the board is already in --out")
    p.add_argument("--json", action="store_true", help="print the row as one JSON object")
    p.add_argument("--fixture", metavar="FILE", help="instead: write --positions solved positions of RULES "
                   "not forced within three turns (from seeded random games) as JSON to FILE")
    p.add_argument("--positions", type=positive, default=6, help="positions --fixture writes (default 6)")
    p.add_argument("--force", action="store_true", help="with --fixture: overwrite an existing FILE")
    p.set_defaults(func=cmd_solve)

    del helps["net"]  # listed as its commands
    helps.update({f"net {name}": text for name, text in net_helps.items()})
    listed = [name for names in GROUPS.values() for name in names]
    assert sorted(listed) == sorted(helps), "every command belongs to one group of fepaper --help"
    parser.epilog = _grouped(helps)
    return parser
