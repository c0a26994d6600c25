"""The game's commands: perft, show, count, solve and verify-proof.

Each command is declared once: its group, help and arguments beside what it does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..experiments.complexity.jobsolve import JOB_NODES
from ..game.game import Game
from ..game.rules import Rules
from ..game.writes import check_writable, write_atomic
from ..play.limits import MAX_ORACLE_POSITIONS
from .arguments import count_seconds, in_checkout, integer_at_least, memory_gb
from .command import Command, print_json
from .options import (
    add_json,
    add_position,
    add_rules,
    add_scheduler,
    add_seed,
    add_workers,
    positive,
    scheduler_of,
)

GROUP = 'the game'


def _game(args) -> Game:
    return Game(args.rules, args.moves)

def _print_divide(parts: dict[str, int]) -> None:
    for turn, n in sorted(parts.items(), key=lambda kv: (len(kv[0]), kv[0])):
        print(f"{turn or '(stop)'}: {n}")
    print(f"\nturns: {len(parts)} (distinct first turns)")
    print(f"total: {sum(parts.values())} (leaves of the tree of distinct turns)")

def _perft_arguments(p: argparse.ArgumentParser) -> None:
    add_position(p, default_rules=None)  # the thesis's (cmd_perft), unless --check, which takes no position
    p.add_argument("--depth", type=integer_at_least(0, 64), default=None, help="turns deep (default 3)")
    p.add_argument("--divide", action="store_true", help="print the count under each first turn")
    p.add_argument("--check", action="store_true",
                   help="check every count of the reference file (perft_reference.csv), each at its own "
                   "rules, record and depth (so not with --rules, --moves, --depth or --divide), and print "
                   "the count under each first turn where one differs; exit 1 on a mismatch")
    add_json(p, "the counts")

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
            print_json({"file": REFERENCE_FILE.name, "differ": failed, "rows": rows})
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
            print_json({"rules": game.rules.to_dict(), "moves": game.moves, "depth": args.depth,
                         "total": sum(parts.values()), "divide": parts})
        else:
            _print_divide(parts)
    else:
        count = perft(game, args.depth)
        if args.json:
            print_json({"rules": game.rules.to_dict(), "moves": game.moves, "depth": args.depth,
                         "total": count})
        else:
            deep = f"{args.depth} turn{'s' * (args.depth != 1)} deep"
            print(f"{count} leaves of the tree of distinct turns {deep} (a finished game is a leaf) from "
                  f"{_position_name(game)}")
    return 0


def _position_name(game: Game) -> str:
    """``the kick-off`` or the record played, then the rules: where a count was made."""
    return f"{'after ' + repr(game.moves) if game.moves else 'the kick-off'}, rules {game.rules}"

def _show_arguments(p: argparse.ArgumentParser) -> None:
    add_position(p)
    p.add_argument("--svg", metavar="FILE", help="write the board as SVG to FILE")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    add_json(p, "the position")

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
        print_json(shown)
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

def _count_arguments(p: argparse.ArgumentParser) -> None:
    add_position(p)
    p.add_argument("--steps", default="", help="single steps to play after --moves (a step string, e.g. "
                   "YaPaperSoccer's)")
    p.add_argument("--limit", type=positive, default=None, help="stop after this many turns")
    p.add_argument("--seconds", type=count_seconds,
                   default=None, help="stop after this many seconds")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument("--estimate", action="store_true", help="estimate instead of counting")
    p.add_argument("--samples", type=integer_at_least(1, 10**6), default=128,
                   help="sub-trees sampled by --estimate")
    add_seed(p, "seed of --estimate")
    add_json(p, "the count (or estimate)")

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
        print_json({**position, **found, "peak_memory_mib": round(peak_mib(), 1)})
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

def _solve_arguments(p: argparse.ArgumentParser) -> None:
    add_rules(p, required=True)
    p.add_argument("--seconds", type=count_seconds, default=300.0, help="time budget (default 300)")
    p.add_argument("--memory-gb", type=memory_gb, default=2.0,
                   help="cap on the process's peak memory in GB, what it holds included (default 2)")
    p.add_argument("--out", default=None,
                   help="the table to append to (default: the checkout's data/solved_boards.csv); its folder "
                   "must exist")
    p.add_argument("--again", action="store_true", help="solve it even if the board is already in --out")
    p.add_argument("--method", choices=("alphabeta", "dfpn"), default="alphabeta",
                   help="alphabeta (a table of proven bounds; default) or dfpn (proof-number search, which "
                   "also writes a won board's certificate in --proofs)")
    p.add_argument("--proofs", default=None, metavar="DIR",
                   help="the folder of certificates (default: the checkout's data/proofs; it must exist)")
    p.add_argument("--first-win", action="store_true",
                   help="end at the first winning first turn proven (its certificate is written; the other "
                   "first turns are not asked, so the row says not all winning turns were decided)")
    p.add_argument("--leaf-jobs", action="store_true",
                   help="with --method dfpn: the leaf-job solve (a proof tree kept here, each job a df-pn "
                   "search of one leaf within --job-nodes, on --workers processes or the --scheduler's "
                   "cluster); it prints the value and writes no row")
    add_workers(p, "run --leaf-jobs's jobs")
    add_scheduler(p, "run the leaf-job solve")
    p.add_argument("--job-nodes", type=integer_at_least(100, 10**9), default=None, metavar="N",
                   help=f"the df-pn nodes of one leaf job (default {JOB_NODES:,})")
    p.add_argument("--journal", default=None, metavar="FILE",
                   help="the leaf-job solve's journal: its answers are written there, and a solve started "
                   "again with it sends only the jobs still missing")
    add_json(p, "the row (the leaf-job solve: its summary)")
    p.add_argument("--fixture", metavar="FILE", help="instead: write --positions solved positions of RULES "
                   "not forced within three turns (from seeded random games) as JSON to FILE")
    p.add_argument("--positions", type=integer_at_least(1, MAX_ORACLE_POSITIONS), default=6,
                   help=f"positions --fixture writes (default 6, at most {MAX_ORACLE_POSITIONS}; fewer if "
                   "100 seeded games a position do not find them)")
    p.add_argument("--force", action="store_true", help="with --fixture: overwrite an existing FILE")

def cmd_solve(args) -> int:
    from ..experiments.complexity.solved import oracle_positions, solve_board
    from ..experiments.complexity.solvedtable import sidecar_path

    if args.fixture:
        path = check_writable(args.fixture, "--fixture", force=args.force)
        positions = oracle_positions(args.rules, args.positions)
        write_atomic(path, json.dumps(positions, indent=1) + "\n", "--fixture")
        print(f"{path}: {len(positions)} solved positions not forced within three turns")
        return 0
    jobs = args.leaf_jobs or args.scheduler
    if (args.job_nodes or args.journal) and not jobs:
        raise ValueError("--job-nodes and --journal are the leaf-job solve's: give --leaf-jobs")
    if jobs and args.method != "dfpn":
        raise ValueError("the leaf-job solve's jobs are df-pn searches: give --method dfpn")
    if jobs:
        return _solve_jobs(args)
    out = check_writable(args.out or in_checkout("data/solved_boards.csv", "--out"), "--out")
    check_writable(sidecar_path(out, "--out"), "--out's sidecar")
    proofs = None
    if args.method == "dfpn":
        from ..search.prooffile import proof_name

        args.proofs = args.proofs or in_checkout("data/proofs", "--proofs")
        proofs = check_writable(Path(args.proofs) / proof_name(args.rules), "--proofs").parent
    row = solve_board(args.rules, out, seconds=args.seconds, memory_gb=args.memory_gb, again=args.again,
                      method=args.method, proofs=proofs, all_wins=not args.first_win)
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
    print(f"  first turns {row['first_turns']}, proven {row['proven_first_turns']}, method {row['method']}")
    if row["solved_now"]:
        print(f"  row appended to {out} and its sidecar")
    if row["certificate"]:
        print(f"  certificate {Path(args.proofs) / row['certificate']} ({row['certificate_bytes']} bytes)")
    return 0


def _solve_jobs(args) -> int:
    from ..experiments.complexity.jobsolve import job_solve
    from ..play.pools import executor

    journal = args.journal and check_writable(args.journal, "--journal", force=True)
    with executor(args.workers, scheduler_of(args)) as run:
        found = job_solve(args.rules, run, job_nodes=args.job_nodes or JOB_NODES, memory_gb=args.memory_gb,
                          seconds=args.seconds, in_flight=2 * args.workers, journal=journal)
    if args.json:
        print_json(found)
        return 0
    where = (f"the cluster at {args.scheduler}" if args.scheduler else "this process" if args.workers == 1
             else f"{args.workers} processes")
    value = "unknown" if found["value"] is None else f"player {found['winner']} wins"
    print(f"{args.rules}: {value} (leaf jobs on {where})")
    print(f"  {found['jobs']} jobs of at most {args.job_nodes or JOB_NODES:,} nodes, {found['nodes']:,} "
          f"nodes, {found['leaves']} positions in the tree, {found['seconds']:.1f} s"
          + (f", {found['resumed']} answers read from {journal}" if found["resumed"] else ""))
    return 0


def _verify_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE",
                   help="a certificate (.proof.gz) written by fepaper solve --method dfpn")
    add_json(p, "the summary")


def cmd_verify_proof(args) -> int:
    from ..search.prooffile import ProofFileError
    from ..search.reference.proofcheck import ProofError, verify_proof

    try:
        summary = verify_proof(args.file)
    except (ProofError, ProofFileError) as exc:
        print(f"refused: {exc}")
        return 1
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{args.file}: proven, player {summary['winner']} wins {summary['rules']} from "
          f"{summary['moves'] or 'the kick-off'}")
    print(f"  every defence answered: {summary['winner_positions']} positions of the winner, "
          f"{summary['loser_positions']} of the loser, {summary['unused_records']} records unused, "
          f"{summary['seconds']:.2f} s")
    return 0


#: The commands of this group, in the order fepaper --help lists them.
COMMANDS = [
    Command('perft', GROUP,
            help="count the leaves of the tree of distinct turns",
            description="Count the leaves of the tree of distinct turns DEPTH turns deep "
                "(a finished game is a leaf), as in docs/rules.md's reference table.",
            arguments=_perft_arguments, run=cmd_perft),
    Command('show', GROUP,
            help="replay a record and describe the position",
            description="Replay a record and print the position: ball, player, result, "
                "legal steps and the number of distinct turns; optionally write an SVG.",
            arguments=_show_arguments, run=cmd_show),
    Command('count', GROUP,
            help="count the distinct turns of a position (exactly, or an estimate)",
            description="Count the distinct turns of a position with the canonical walk (memory: a few "
                "kB whatever the count); print the count (a lower bound, said so, when --limit or --seconds "
                "cut it), the time and the peak memory. --estimate prints an estimate with its 95%% "
                "interval.",
            arguments=_count_arguments, run=cmd_count),
    Command('solve', GROUP,
            help="who wins a board's kick-off with perfect play (the exact solver)",
            description="Solve the kick-off of RULES exactly (alpha-beta over distinct turns to the end "
                "of the game, a table of proven values): print one row (the value, every winning first turn, "
                "nodes, positions stored, seconds, peak memory) and append it to --out and its JSON sidecar. "
                "A budget passed first answers 'unknown', never a guess. A board already in --out is not "
                "solved again unless --again.",
            arguments=_solve_arguments, run=cmd_solve),
    Command('verify-proof', GROUP,
            help="check a solved board's certificate by playing every defence against it",
            description="Replay the winner's strategy in FILE with the pure-Python reference rules, playing "
                "every turn of the loser at each of its positions and the certificate's turn at each of the "
                "winner's, independently of the solvers and their tables; exit 0 if every game ends in the "
                "winner's win, 1 (with what failed, and where) otherwise.",
            arguments=_verify_arguments, run=cmd_verify_proof),
]
