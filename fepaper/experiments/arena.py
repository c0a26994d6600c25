"""Games between controllers: one game, matches with colour swap, round robins, resumable CSVs.

Every game is one plain row (specs, seed, opening, winner, reason, turns, steps, the
move string, seconds and nodes per side). Game ``k`` of a pairing is seeded from
``(run seed, pairing, k)``, so a run gives the same rows serially and in parallel.
Rows are appended to a CSV as games finish, with a JSON sidecar describing the run;
an interrupted run resumes without losing or repeating a game.

Examples
--------
>>> row = play_game("standard", {"name": "random"}, {"name": "random"}, seed=1)
>>> row["winner"] in ("a", "b", "draw"), row["moves"].count(" ") + 1 == row["turns"]
(True, True)
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from ..controllers import make, spec_of
from ..game.game import Game, IllegalStep, IllegalTurn
from ..game.rules import Rules

__all__ = [
    "COLUMNS", "ArenaError", "SerialExecutor", "play_game", "opening_bank", "schedule", "run_games",
    "match", "round_robin", "sidecar", "summarise",
]

COLUMNS = [
    "pairing", "game", "rules", "spec_a", "spec_b", "a_player", "seed", "opening", "winner", "reason",
    "turns", "steps", "moves", "seconds_a", "seconds_b", "nodes_a", "nodes_b", "decisions_a", "decisions_b",
    "score_a",
]


class ArenaError(RuntimeError):
    """A controller broke the rules, or a results file does not belong to this run."""


class SerialExecutor(Executor):
    """An Executor that runs each task at once in this process (tests, notebooks, debugging)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, like a pool would
            future.set_exception(exc)
        return future


def _canonical(spec) -> str:
    return json.dumps(spec_of(spec), sort_keys=True)


def _rules_text(rules: Rules) -> str:
    return rules.name or json.dumps(rules.to_dict(), sort_keys=True)


def _seeded(spec: dict, seed: int) -> dict:
    """A spec with a seed: its own if it has one, else one drawn from the game's seed."""
    return spec if "seed" in spec else {**spec, "seed": int(seed)}


def play_game(rules, spec_a, spec_b, seed: int = 0, opening: str = "", a_player: int = 1) -> dict:
    """Play one game of ``spec_a`` against ``spec_b`` and return its row.

    ``a_player`` is the player (1 moves first and attacks the top goal) that A plays;
    ``opening`` is a record played before the controllers take over. Controllers
    without a seed in their spec get one derived from ``seed``.
    """
    rules = Rules.from_spec(rules)
    if a_player not in (1, 2):
        raise ValueError(f"a_player must be 1 or 2, got {a_player!r}")
    spec_a, spec_b = spec_of(spec_a), spec_of(spec_b)
    child = np.random.SeedSequence([int(seed), 7]).generate_state(2)
    ctrl = {a_player: make(_seeded(spec_a, child[0])), 3 - a_player: make(_seeded(spec_b, child[1]))}
    game = Game(rules, opening)
    while not game.is_over:
        mover = game.player
        turn = ctrl[mover].choose_turn(game)
        try:
            game.push(turn)
        except (IllegalTurn, IllegalStep) as exc:
            side = "A" if mover == a_player else "B"
            raise ArenaError(f"{side} {json.dumps(ctrl[mover].spec)} played an illegal turn {turn!r} "
                             f"after {game.moves!r}: {exc}") from None
    a, b = ctrl[a_player], ctrl[3 - a_player]
    w = game.result.winner
    winner = "draw" if w is None else ("a" if w == a_player else "b")
    n_opening = len(opening.split())
    return {
        "rules": _rules_text(rules), "spec_a": json.dumps(spec_a, sort_keys=True),
        "spec_b": json.dumps(spec_b, sort_keys=True), "a_player": a_player, "seed": int(seed),
        "opening": opening, "winner": winner, "reason": game.result.reason,
        "turns": len(game.history) - n_opening,
        "steps": sum(len(t) for t in game.history[n_opening:]), "moves": game.moves,
        "seconds_a": round(sum(d.seconds for d in a.decisions), 6),
        "seconds_b": round(sum(d.seconds for d in b.decisions), 6),
        "nodes_a": sum(d.nodes for d in a.decisions), "nodes_b": sum(d.nodes for d in b.decisions),
        "decisions_a": len(a.decisions), "decisions_b": len(b.decisions),
        "score_a": 1.0 if winner == "a" else 0.5 if winner == "draw" else 0.0,
    }


def opening_bank(rules, n: int, turns: int = 2, seed: int = 0) -> list[str]:
    """``n`` distinct short random openings of ``turns`` turns (uniform over distinct turns)."""
    rules = Rules.from_spec(rules)
    rng = np.random.default_rng([int(seed), 11])
    picker = make({"name": "random", "mode": "turns", "seed": int(rng.integers(2**31))})
    bank: list[str] = []
    tries = 0
    while len(bank) < n:
        tries += 1
        if tries > 50 * n + 100:
            raise ValueError(f"could not find {n} distinct unfinished openings of {turns} turns")
        game = Game(rules)
        while len(game.history) < turns and not game.is_over:
            game.push(picker.choose_turn(game))
        if not game.is_over and game.moves not in bank:
            bank.append(game.moves)
    return bank


def schedule(rules, specs_a: list, specs_b: list, games: int, seed: int = 0,
             opening_turns: int = 2) -> list[dict]:
    """The games of pairing ``p`` (``specs_a[p]`` against ``specs_b[p]``), colours swapped
    every other game, each pair of games sharing an opening from a seeded bank."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    rules = Rules.from_spec(rules)
    bank = opening_bank(rules, (games + 1) // 2, opening_turns, seed) if opening_turns else [""]
    jobs = []
    for p, (a, b) in enumerate(zip(specs_a, specs_b)):
        for k in range(games):
            game_seed = int(np.random.SeedSequence([int(seed), p, k]).generate_state(1)[0])
            jobs.append({"pairing": p, "game": k, "rules": rules.to_dict(), "spec_a": spec_of(a),
                         "spec_b": spec_of(b), "seed": game_seed, "a_player": 1 + k % 2,
                         "opening": bank[(k // 2) % len(bank)]})
    return jobs


def _play_batch(jobs: list[dict]) -> list[dict]:
    rows = []
    for job in jobs:
        row = play_game(job["rules"], job["spec_a"], job["spec_b"], job["seed"], job["opening"],
                        job["a_player"])
        rows.append({"pairing": job["pairing"], "game": job["game"], **row})
    return rows


def _read_rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise ArenaError(f"{path}: columns {reader.fieldnames} are not fepaper's {COLUMNS}")
        rows = []
        for i, row in enumerate(reader, start=2):
            try:
                for key in ("pairing", "game", "a_player", "seed", "turns", "steps", "nodes_a", "nodes_b",
                            "decisions_a", "decisions_b"):
                    row[key] = int(row[key])
                for key in ("seconds_a", "seconds_b", "score_a"):
                    row[key] = float(row[key])
            except (TypeError, ValueError):
                raise ArenaError(f"{path}, line {i}: malformed row (truncated or edited?)") from None
            rows.append(row)
    return rows


def sidecar(path: str | Path) -> Path:
    """The JSON file describing the run whose games are in the CSV ``path``: ``x.csv`` -> ``x.meta.json``."""
    path = Path(path)
    return path.with_name(path.stem + ".meta.json")


def run_games(jobs: list[dict], out: str | Path | None = None, executor: Executor | None = None,
              batch: int = 4, progress: bool = True, meta: dict | None = None) -> list[dict]:
    """Play ``jobs`` (from :func:`schedule`), appending rows to ``out`` as games finish.

    Games already in ``out`` (same pairing, game number and seed) are not played again.
    Returns every row, ordered by pairing and game, whatever order they finished in.
    """
    path = Path(out) if out is not None else None
    done: dict[tuple[int, int], dict] = {}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        for row in _read_rows(path):
            done[(row["pairing"], row["game"])] = row
        wanted = {(j["pairing"], j["game"]): j for j in jobs}
        for key, row in done.items():
            job = wanted.get(key)
            if job is None or job["seed"] != row["seed"]:
                raise ArenaError(f"{path} holds game {key} that this run does not schedule "
                                 "(another run's file? use a new --out)")
        if meta is not None:
            side = sidecar(path)
            if side.exists() and json.loads(side.read_text()) != meta:
                raise ArenaError(f"{side} describes another run; use a new output file")
            side.write_text(json.dumps(meta, indent=2))
    todo = [j for j in jobs if (j["pairing"], j["game"]) not in done]
    batches = [todo[i:i + batch] for i in range(0, len(todo), batch)]
    own = executor is None and len(batches) > 1
    pool = ProcessPoolExecutor(max_workers=os.cpu_count() or 1) if own else (executor or SerialExecutor())
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(jobs), initial=len(jobs) - len(todo), desc="games", unit="game")
    try:
        futures = [pool.submit(_play_batch, b) for b in batches]
        writer_file = path.open("a", newline="") if path is not None else None
        try:
            writer = csv.DictWriter(writer_file, COLUMNS) if writer_file else None
            if writer_file is not None and writer_file.tell() == 0:
                writer.writeheader()
            for future in as_completed(futures):
                for row in future.result():
                    done[(row["pairing"], row["game"])] = row
                    if writer is not None:
                        writer.writerow(row)
                if writer_file is not None:
                    writer_file.flush()
                if bar is not None:
                    bar.update(len(future.result()))
        finally:
            if writer_file is not None:
                writer_file.close()
    finally:
        if bar is not None:
            bar.close()
        if own:
            pool.shutdown(cancel_futures=True)
    return [done[k] for k in sorted(done)]


def _meta(rules, specs, games, seed, budget) -> dict:
    from .. import __version__

    return {"library": "fepaper", "version": __version__, "rules": Rules.from_spec(rules).to_dict(),
            "specs": [spec_of(s) for s in specs], "games": games, "seed": seed, "budget": budget}


def match(rules, spec_a, spec_b, games: int = 20, seed: int = 0, out=None, executor=None,
          progress: bool = True, budget: str | None = None, opening_turns: int = 2) -> dict:
    """Play ``games`` games of A against B with colours swapped; return the summary and rows."""
    jobs = schedule(rules, [spec_a], [spec_b], games, seed, opening_turns)
    rows = run_games(jobs, out, executor, progress=progress,
                     meta=_meta(rules, [spec_a, spec_b], games, seed, budget))
    return {**summarise(rows), "rows": rows}


def round_robin(rules, specs: list, games: int = 10, seed: int = 0, out=None, executor=None,
                progress: bool = True, budget: str | None = None, opening_turns: int = 2) -> dict:
    """Every pair of ``specs`` plays ``games`` games; returns rows, cross table and ratings."""
    from .ratings import rate

    specs = [spec_of(s) for s in specs]
    if len({_canonical(s) for s in specs}) != len(specs):
        raise ValueError("round_robin: two specs are the same; give each player a distinct spec")
    pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    jobs = schedule(rules, [specs[i] for i, _ in pairs], [specs[j] for _, j in pairs], games, seed,
                    opening_turns)
    rows = run_games(jobs, out, executor, progress=progress,
                     meta=_meta(rules, specs, games, seed, budget))
    n = len(specs)
    cross = np.zeros((n, n))
    played = np.zeros((n, n))
    results = []
    for row in rows:
        i, j = pairs[row["pairing"]]
        cross[i, j] += row["score_a"]
        cross[j, i] += 1 - row["score_a"]
        played[i, j] += 1
        played[j, i] += 1
        results.append((i, j, row["score_a"]))
    names = [label(s, among=specs) for s in specs]
    return {"players": names, "specs": specs, "rows": rows, "score": cross, "played": played,
            "ratings": rate(names, results, seed=seed)}


def _short(value) -> str:
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def label(spec, among: list | None = None) -> str:
    """A short readable name of a spec: ``alphabeta(variant=dynamic, depth=2)``.

    With ``among`` (the other players), only the variant and the fields that tell this
    spec apart from the specs of the same controller there are shown.
    """
    spec = spec_of(spec)
    keys = [k for k in spec if k not in ("name", "seed")]
    if among is not None:
        same = [spec_of(s) for s in among if spec_of(s)["name"] == spec["name"]]
        keys = [k for k in keys
                if k == "variant" or len({json.dumps(s.get(k), sort_keys=True) for s in same}) > 1]
    params = ", ".join(f"{k}={_short(spec[k])}" for k in keys)
    return f"{spec['name']}({params})" if params else spec["name"]


def summarise(rows: Iterable[dict]) -> dict[str, Any]:
    """``games``, ``wins_a``, ``wins_b``, ``draws``, ``score_a`` (wins plus half the draws, over
    games) and its Wilson interval."""
    from .ratings import wilson

    rows = list(rows)
    wins_a = sum(r["winner"] == "a" for r in rows)
    wins_b = sum(r["winner"] == "b" for r in rows)
    draws = len(rows) - wins_a - wins_b
    score = wins_a + draws / 2
    lo, hi = wilson(score, len(rows))
    return {"games": len(rows), "wins_a": wins_a, "wins_b": wins_b, "draws": draws,
            "score_a": score / len(rows) if rows else float("nan"), "score_a_low": lo, "score_a_high": hi}
