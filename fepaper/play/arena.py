"""Games between controllers: one game, matches with colour swap, round robins, resumable CSVs.

Every game is one plain row (specs, seed, opening, winner, reason, turns, steps, the
move string, seconds and nodes per side). Game ``k`` of a pairing is seeded from
``(run seed, pairing, k)``, so a run gives the same rows serially and in parallel.
Each row is appended to a games file (:mod:`~fepaper.play.gamefile`) as soon as
its game ends, serially as in a pool, with a sidecar that binds the file to the run; a
run killed at any moment loses only the games in flight and resumes without repeating
a game. Pools made here end their workers when this process dies
(:mod:`~fepaper.play.pools`).

Examples
--------
>>> row = play_game("standard", {"name": "random"}, {"name": "random"}, seed=1)
>>> row["winner"] in ("a", "b", "draw"), row["moves"].count(" ") + 1 == row["turns"]
(True, True)
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import ExitStack, contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..controllers import make, spec_of
from ..game.game import Game, IllegalStep, IllegalTurn, InvalidRecord
from ..game.rules import Rules
from .filelock import exclusive
from .gamefile import COLUMNS, PLAY_VERSION, GameFileError, GameWriter, resume, rules_text, sidecar, spec_text
from .limits import MAX_GAMES
from .pools import SerialExecutor, worker_pool

__all__ = [
    "COLUMNS", "ArenaError", "GameFileError", "SerialExecutor", "Player", "Forfeit", "play_out", "in_order",
    "play_game", "seeded_specs", "opening_bank",
    "schedule", "run_games", "run_meta", "match", "round_robin", "sidecar", "summarise", "label",
]


class ArenaError(RuntimeError):
    """A controller broke the rules (a damaged or foreign games file is a :class:`GameFileError`)."""


def _canonical(spec) -> str:
    return json.dumps(spec_of(spec), sort_keys=True)


def _seeded(spec: dict, seed: int) -> dict:
    """A spec with a seed: its own if it has one, else one drawn from the game's seed."""
    return spec if "seed" in spec else {**spec, "seed": int(seed)}


class Player(Protocol):
    """What plays one side of a game: a :class:`~fepaper.controllers.base.Controller`, or an
    outside program through :class:`fepaper.engines.programs.ProgramPlayer`."""

    def choose_turn(self, game: Game) -> str:
        """The step string of a whole turn for the player to move in ``game`` (not changed); a
        player that cannot answer raises :class:`Forfeit`."""


class Forfeit(Exception):
    """A player gives up the game: ``why`` (a word: ``illegal``, ``garbage``, ``timeout``,
    ``crash``), ``detail`` (what it did), the ``turn`` it answered (``None`` if none) and, for an
    illegal turn, the ``error`` :class:`~fepaper.game.Game` raised; :func:`play_out` sets ``player``."""

    def __init__(self, why: str, detail: str, turn: str | None = None,
                 error: Exception | None = None) -> None:
        super().__init__(f"{why}: {detail}")
        self.why, self.detail, self.turn, self.error = why, detail, turn, error
        self.player: int | None = None


def play_out(game: Game, players: dict[int, Player], max_turns: int | None = None) -> Forfeit | None:
    """Play ``game`` on to its end (or until it holds ``max_turns`` turns), ``players[p]`` choosing
    player ``p``'s turns (the one game loop of controllers and outside programs, as OpenSpiel's
    ``evaluate_bots`` is for its bots; the games on the State interface have
    :func:`fepaper.play.states.play_state`); returns ``None``, or the :class:`Forfeit` of the player
    who answered no legal turn (the game stops before it, its ``player`` set).

    >>> game = Game("standard")
    >>> play_out(game, {1: make({"name": "random", "seed": 1}), 2: make({"name": "greedy"})}), game.is_over
    (None, True)
    """
    while not game.is_over and (max_turns is None or len(game.history) < max_turns):
        mover = game.player
        try:
            turn = players[mover].choose_turn(game)
            try:
                game.push(turn)
            except (IllegalTurn, IllegalStep, InvalidRecord) as exc:
                raise Forfeit("illegal", f"{turn!r}: {exc}", turn, exc) from None
        except Forfeit as forfeit:
            forfeit.player = mover
            return forfeit
    return None


def seeded_specs(spec_a, spec_b, seed: int) -> tuple[dict, dict]:
    """The specs A and B play game ``seed`` of :func:`play_game` with: each spec's own seed, or
    one drawn from the game's, so that a game's decisions can be played again one by one.

    >>> seeded_specs({"name": "random", "seed": 3}, {"name": "greedy"}, 1)[0]["seed"]
    3
    """
    child = np.random.SeedSequence([int(seed), 7]).generate_state(2)
    return _seeded(spec_of(spec_a), child[0]), _seeded(spec_of(spec_b), child[1])


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
    seeded_a, seeded_b = seeded_specs(spec_a, spec_b, seed)
    ctrl = {a_player: make(seeded_a), 3 - a_player: make(seeded_b)}
    game = Game(rules, opening)
    broke = play_out(game, ctrl)
    if broke is not None:  # a controller is a part of fepaper: its illegal turn is a bug, not a forfeit
        side = "A" if broke.player == a_player else "B"
        raise ArenaError(f"{side} {json.dumps(ctrl[broke.player].spec)} played an illegal turn "
                         f"{broke.turn!r} after {game.moves!r}: {broke.error}")
    a, b = ctrl[a_player], ctrl[3 - a_player]
    w = game.result.winner
    winner = "draw" if w is None else ("a" if w == a_player else "b")
    n_opening = len(opening.split())
    return {
        "rules": rules_text(rules), "spec_a": spec_text(spec_a), "spec_b": spec_text(spec_b),
        "a_player": a_player, "seed": int(seed),
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


#: The bounds of a schedule's numbers: games per pairing, the seed, turns of each opening.
BOUNDS = {"games": MAX_GAMES, "seed": 2**63 - 1, "opening_turns": 100}


def _check_integer(name: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        text = repr(value)
        text = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"{name} must be an integer >= {low}, got {text}")
    if value > BOUNDS.get(name, value):
        raise ValueError(f"{name} must be at most {BOUNDS[name]:,}, got {value}")


def schedule(rules, specs_a: list, specs_b: list, games: int, seed: int = 0,
             opening_turns: int = 2) -> list[dict]:
    """The games of pairing ``p`` (``specs_a[p]`` against ``specs_b[p]``), colours swapped
    every other game, each pair of games sharing an opening from a seeded bank."""
    _check_integer("games", games, 1)
    _check_integer("seed", seed, 0)
    _check_integer("opening_turns", opening_turns, 0)
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


def _in_flight(executor: Executor) -> int:
    """Tasks to keep submitted: 1 for a :class:`SerialExecutor` (it plays each in ``submit``), else
    twice the workers ``executor`` says it has (else twice this machine's cores)."""
    if isinstance(executor, SerialExecutor):
        return 1
    return 2 * int(getattr(executor, "_max_workers", 0) or os.cpu_count() or 1)


def _as_finished(executor: Executor, fn, tasks: list, in_flight: int) -> Iterator:
    """``fn(task)`` for each task, yielded as each finishes, with at most ``in_flight`` submitted
    and not yet yielded (so a caller writes each result before more work starts piling up)."""
    pending: set[Future] = set()
    queue = iter(tasks)
    try:
        while True:
            for task in islice(queue, max(0, in_flight - len(pending))):
                pending.add(executor.submit(fn, task))
            if not pending:
                return
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            failed = [f for f in finished if f.exception() is not None]
            for future in finished - set(failed):  # every finished game is kept before an error
                yield future.result()
            if failed:
                raise failed[0].exception()
    finally:
        for future in pending:
            future.cancel()


def in_order(executor: Executor, fn, tasks: Iterable[tuple]) -> Iterator:
    """``fn(*task)`` for each task, yielded in the tasks' order, with at most :func:`_in_flight`
    of them submitted and not yet yielded: a caller that writes each result as it comes keeps all
    but the last few of a run that is killed (a :class:`SerialExecutor` computes in ``submit``,
    so submitting every task first would keep none)."""
    pending: deque[Future] = deque()
    queue = iter(tasks)
    limit = _in_flight(executor)
    try:
        while True:
            for task in islice(queue, max(0, limit - len(pending))):
                pending.append(executor.submit(fn, *task))
            if not pending:
                return
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


@contextmanager
def _executor_for(executor: Executor | None, tasks: int):
    """``executor``, or a pool of this machine's cores made (and shut down) here when none is given."""
    if executor is not None:
        yield executor
    elif tasks <= 1:
        yield SerialExecutor()
    else:
        with worker_pool(os.cpu_count() or 1) as pool:
            try:
                yield pool
            finally:
                pool.shutdown(wait=False, cancel_futures=True)  # the pool's exit waits, or kills on Ctrl-C


def run_games(jobs: list[dict], out: str | Path | None = None, executor: Executor | None = None,
              batch: int = 1, progress: bool = True, meta: dict | None = None,
              in_flight: int | None = None,
              plan: Callable[[dict], Iterable[tuple[int, int]]] | None = None) -> list[dict]:
    """Play ``jobs`` (from :func:`schedule`), appending each finished game's row to ``out``.

    Parameters
    ----------
    jobs : list of dict
        The run's schedule.
    out : path, optional
        The games file (see :mod:`fepaper.play.gamefile`). Games already in it
        are checked against ``jobs`` and not played again; its sidecar binds it to this
        run (``meta`` and the whole schedule).
    executor : Executor, optional
        Where games are played; default a pool of this machine's cores (its workers exit
        if this process is killed).
    batch : int
        Games per task. With 1, each game is written as soon as it ends; larger batches
        suit executors with a high cost per task (a kill then loses a whole batch).
    progress : bool
        A tqdm bar that moves as games finish.
    meta : dict, optional
        The run's settings, written to the sidecar.
    in_flight : int, optional
        Tasks submitted and not yet written; default twice the executor's workers
        (1 for :class:`SerialExecutor`: play one, write it, play the next).
    plan : callable, optional
        Play the schedule in rounds: ``plan(done)`` gets the rows on file by
        ``(pairing, game)`` and returns the ``(pairing, game)`` keys to play next; the
        run ends when it returns none left to play. The sidecar still binds the file to
        the whole schedule, so a run that stops early (a sequential test that decided)
        resumes and extends the same file. Default: every game of ``jobs``, in one round.

    Returns
    -------
    list of dict
        Every row on file, ordered by pairing and game, whatever order they finished in.

    Raises
    ------
    GameFileError
        If ``out`` holds anything but games of this run (nothing is then written).
    """
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch must be a positive integer, got {batch!r}")
    path = Path(out) if out is not None else None
    done: dict[tuple[int, int], dict] = {}
    with ExitStack() as stack:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            stack.enter_context(exclusive(path, "games file"))  # one writer: a second run is refused at once
            done = resume(path, jobs, meta or {})
        by_key = {(j["pairing"], j["game"]): j for j in jobs}
        rounds = _rounds(by_key, done, plan)
        todo = next(rounds)
        if not todo:
            return [done[k] for k in sorted(done)]
        pool = stack.enter_context(_executor_for(executor, len(jobs) if plan else -(-len(todo) // batch)))
        writer = stack.enter_context(GameWriter(path)) if path is not None else None
        bar = stack.enter_context(_bar(progress, len(jobs) if plan is None else None, len(done)))
        while todo:
            batches = [todo[i:i + batch] for i in range(0, len(todo), batch)]
            for rows in _as_finished(pool, _play_batch, batches, in_flight or _in_flight(pool)):
                if writer is not None:
                    writer.append(rows)
                done.update(((r["pairing"], r["game"]), r) for r in rows)
                bar.update(len(rows))
            todo = next(rounds)
    return [done[k] for k in sorted(done)]


def _rounds(by_key: dict, done: dict, plan) -> Iterator[list[dict]]:
    """The jobs of each round: every game not on file once (no plan), else what ``plan`` asks
    for, until it asks for nothing left to play."""
    if plan is None:
        yield [j for k, j in by_key.items() if k not in done]
        while True:
            yield []
    while True:
        keys = list(plan(done))
        unknown = [k for k in keys if k not in by_key]
        if unknown:
            raise ValueError(f"the plan asks for games outside the schedule: {unknown[:3]}")
        yield [by_key[k] for k in dict.fromkeys(keys) if k not in done]


def _bar(progress: bool, total: int, initial: int):
    from ..game.progress import bar

    return bar(total, "games", "game", initial=initial, disable=not progress)


def run_meta(rules, specs, games, seed, budget, opening_turns) -> dict:
    """The settings of a run of games, as its sidecar records them."""
    return {"library": "fepaper", "version": PLAY_VERSION, "rules": Rules.from_spec(rules).to_dict(),
            "specs": [spec_of(s) for s in specs], "games": games, "seed": seed, "budget": budget,
            "opening_turns": opening_turns}


def match(rules, spec_a, spec_b, games: int = 20, seed: int = 0, out=None, executor=None,
          progress: bool = True, budget: str | None = None, opening_turns: int = 2) -> dict:
    """Play ``games`` games of A against B with colours swapped; return the summary and rows."""
    jobs = schedule(rules, [spec_a], [spec_b], games, seed, opening_turns)
    rows = run_games(jobs, out, executor, progress=progress,
                     meta=run_meta(rules, [spec_a, spec_b], games, seed, budget, opening_turns))
    return {**summarise(rows), "rows": rows}


def round_robin(rules, specs: list, games: int = 10, seed: int = 0, out=None, executor=None,
                progress: bool = True, budget: str | None = None, opening_turns: int = 2) -> dict:
    """Every pair of ``specs`` plays ``games`` games; returns rows, cross table and ratings."""
    from ..stats.ratings import rate

    if not isinstance(specs, (list, tuple)) or len(specs) < 2:
        raise ValueError(f"round_robin: players must be a list of at least 2 specs, got {specs!r}")
    specs = [spec_of(s) for s in specs]
    if len({_canonical(s) for s in specs}) != len(specs):
        raise ValueError("round_robin: two specs are the same; give each player a distinct spec")
    pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    jobs = schedule(rules, [specs[i] for i, _ in pairs], [specs[j] for _, j in pairs], games, seed,
                    opening_turns)
    rows = run_games(jobs, out, executor, progress=progress,
                     meta=run_meta(rules, specs, games, seed, budget, opening_turns))
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
    if isinstance(value, str) and "/" in value:  # a file (a network): its name, not where it lies
        return Path(value).name
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
    from ..stats.binomial import wilson

    rows = list(rows)
    wins_a = sum(r["winner"] == "a" for r in rows)
    wins_b = sum(r["winner"] == "b" for r in rows)
    draws = len(rows) - wins_a - wins_b
    score = wins_a + draws / 2
    lo, hi = wilson(score, len(rows))
    return {"games": len(rows), "wins_a": wins_a, "wins_b": wins_b, "draws": draws,
            "score_a": score / len(rows) if rows else float("nan"), "score_a_low": lo, "score_a_high": hi}
