"""Foo's seven machines measured on their own games: who beats whom, what a decision costs, the
space of moves where they play, how their games end.

The games are those of notebook 12's run under Foo's rules: the six adjacent pairs of
:data:`~fepaper.experiments.reference.foo_claims.LADDER`, each until its test decides, and the
other pairs (:func:`league_pairs`) a fixed number of games each, all on one games file through
:func:`fepaper.experiments.thesis.duels.play_pairings`. From its results:

* :func:`games_table`: one row per game, with both machines named;
* :func:`ratings`: Bradley-Terry Elo with bootstrap intervals and scores with Wilson intervals, in
  Foo's order;
* :func:`sides`: each machine's seconds, decisions and turns kept in each game;
* :func:`replay`, :func:`decisions`: each decision of a game played again from the seeded spec it
  was played with (it must choose the turn played), with what it listed (Foo's moves scanned);
* :func:`cost_table`: per machine, those costs beside the limits Foo states;
* :func:`positions`, :func:`endings`, :func:`ending_table`: the distinct turns at each turn start
  where a machine moved, and each game's length and end (who scored, who blocked itself).

Examples
--------
>>> len(league_pairs(10)), league_pairs(10)[0][0]
(15, 'GoAhead-vs-GoAheadWatchOpponent')
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor

import numpy as np
import pandas as pd

from ...controllers import make
from ...controllers.foo import MACHINES
from ...game.game import Game
from ...play.arena import in_order, seeded_specs
from ...play.pools import SerialExecutor
from ...stats.binomial import wilson
from ...stats.ratings import rate
from .foo_claims import ORDER, SCANNED, STATED, spec

__all__ = ["league_pairs", "games_table", "ratings", "sides", "replay", "decisions", "cost_table",
           "positions", "endings", "ending_table", "ending_summary", "listing_shares"]


def league_pairs(games: int) -> list[tuple[str, dict, dict, int]]:
    """``(key, a, b, games)`` for every pair of machines two places apart or more in Foo's order
    (the earlier one as A): they play ``games`` games each, for the ratings only; none when
    ``games`` is 0 (a run of the ladder alone)."""
    if games == 0:
        return []
    out = []
    for i in range(len(ORDER)):
        for j in range(i + 2, len(ORDER)):
            out.append((f"{ORDER[i]}-vs-{ORDER[j]}", spec(ORDER[i]), spec(ORDER[j]), games))
    return out


def _machine(spec_text) -> str:
    value = json.loads(spec_text) if isinstance(spec_text, str) else spec_text
    return value["machine"]


def games_table(results: Mapping) -> pd.DataFrame:
    """One row per game of ``results`` (``play_pairings``' answer: key -> result with ``rows``):
    the games file's columns, the pairing's ``key``, ``machine_a``, ``machine_b`` and ``game_id``
    (``key/game``)."""
    rows = []
    for key, result in results.items():
        for row in result.rows:
            rows.append({**row, "key": key, "machine_a": _machine(row["spec_a"]),
                         "machine_b": _machine(row["spec_b"]), "game_id": f"{key}/{row['game']}"})
    return pd.DataFrame(rows)


def ratings(games: pd.DataFrame, seed: int = 0, bootstrap: int = 200) -> pd.DataFrame:
    """Per machine in Foo's order: games, wins, draws, score with its Wilson interval, and the
    Bradley-Terry Elo (mean 0) with its 95 % bootstrap interval over games."""
    index = {m: k for k, m in enumerate(ORDER)}
    results = [(index[r.machine_a], index[r.machine_b], float(r.score_a)) for r in games.itertuples()]
    elo = rate(list(ORDER), results, bootstrap=bootstrap, seed=seed)
    out = []
    for k, machine in enumerate(ORDER):
        as_a, as_b = games[games.machine_a == machine], games[games.machine_b == machine]
        n = len(as_a) + len(as_b)
        score = float(as_a.score_a.sum() + (1 - as_b.score_a).sum())
        low, high = wilson(score, n) if n else (np.nan, np.nan)
        wins = int((as_a.winner == "a").sum() + (as_b.winner == "b").sum())
        draws = int((as_a.winner == "draw").sum() + (as_b.winner == "draw").sum())
        out.append({"machine": machine, "level": MACHINES[machine][0], "games": n, "wins": wins,
                    "draws": draws, "score": score / n if n else np.nan, "score_low": low, "score_high": high,
                    "elo": elo[k]["elo"], "elo_low": elo[k]["elo_low"], "elo_high": elo[k]["elo_high"]})
    return pd.DataFrame(out)


def sides(games: pd.DataFrame) -> pd.DataFrame:
    """One row per game and machine in it: ``game_id``, ``machine``, ``seconds``, ``decisions`` and
    ``kept`` (turns kept, the machine's ``nodes``), that side's totals."""
    out = []
    for r in games.itertuples():
        for side in ("a", "b"):
            out.append({"game_id": r.game_id, "machine": getattr(r, f"machine_{side}"),
                        "seconds": getattr(r, f"seconds_{side}"),
                        "decisions": getattr(r, f"decisions_{side}"), "kept": getattr(r, f"nodes_{side}")})
    return pd.DataFrame(out)


def replay(row: Mapping) -> list[dict]:
    """Every decision of one game played again: each side's controller made from the spec it played
    with (:func:`~fepaper.play.arena.seeded_specs`), asked at each of its turns after
    the opening. One dict per decision: ``machine``, ``turn`` (index from the kick-off), what the
    search listed (``listed``, ``listings``, ``full``, ``truncated``), ``kept`` and ``seconds``.

    Raises
    ------
    ValueError
        If a replayed decision chooses another turn than the one played (the game is not what
        its specs and seed play).
    """
    spec_a, spec_b = (json.loads(s) if isinstance(s, str) else s for s in (row["spec_a"], row["spec_b"]))
    seeded_a, seeded_b = seeded_specs(spec_a, spec_b, int(row["seed"]))
    a_player = int(row["a_player"])
    players = {a_player: make(seeded_a), 3 - a_player: make(seeded_b)}
    opening = row["opening"].split() if isinstance(row["opening"], str) else []
    turns = row["moves"].split()
    game = Game(row["rules"], " ".join(opening))
    out = []
    for index in range(len(opening), len(turns)):
        player = players[game.player]
        chosen = player.choose_turn(game)
        if chosen != turns[index]:
            raise ValueError(f"replay of game seed {row['seed']}: turn {index} played {turns[index]!r}, "
                             f"the replay chose {chosen!r}")
        result = player.last
        out.append({"machine": player.spec["machine"], "turn": index, "kept": result.nodes,
                    "seconds": result.seconds, **{k: int(v) for k, v in result.details.items()}})
        game.push(chosen)
    return out


def _replay_task(row: dict, game_id: str) -> list[dict]:
    return [{"game_id": game_id, **d} for d in replay(row)]


def decisions(games: pd.DataFrame, per_pairing: int, executor: Executor | None = None) -> pd.DataFrame:
    """The decisions of the first ``per_pairing`` games of each pairing, replayed (:func:`replay`),
    in the games' order whatever ``executor`` runs them (default: this process)."""
    sample = games.sort_values(["pairing", "game"]).groupby("pairing").head(per_pairing)
    columns = ("rules", "spec_a", "spec_b", "seed", "a_player", "opening", "moves")
    tasks = [({k: getattr(r, k) for k in columns}, r.game_id) for r in sample.itertuples()]
    out = []
    for rows in in_order(executor or SerialExecutor(), _replay_task, tasks):
        out.extend(rows)
    return pd.DataFrame(out)


def cost_table(game_sides: pd.DataFrame, replayed: pd.DataFrame) -> pd.DataFrame:
    """Per machine in Foo's order: Foo's stated limits (quoted) and the limit ^ plies of his figure;
    from the games, the decisions, seconds and turns kept per decision; from the replayed decisions,
    the turns listed (Foo's moves scanned) per decision, the positions listed per decision, the
    turns per listed position, the p they imply (turns per listed position over the limit), Foo's
    figure with that p, and the slowest decision."""
    out = []
    for machine in ORDER:
        _, plies, limit = MACHINES[machine]
        mine = game_sides[game_sides.machine == machine]
        rep = replayed[replayed.machine == machine] if len(replayed) else replayed
        n = int(mine.decisions.sum())
        per_listing = rep.listed.sum() / rep.listings.sum() if len(rep) else np.nan
        p = per_listing / limit
        figure = SCANNED.get(machine)
        out.append({
            "machine": machine, "plies": plies, "limit": limit, "foo_states": STATED[machine],
            "foo_figure": figure if figure is not None else np.nan,
            "decisions": n, "seconds_per_decision": mine.seconds.sum() / n if n else np.nan,
            "kept_per_decision": mine.kept.sum() / n if n else np.nan,
            "replayed": len(rep),
            "listed_mean": rep.listed.mean() if len(rep) else np.nan,
            "listed_median": rep.listed.median() if len(rep) else np.nan,
            "listed_max": rep.listed.max() if len(rep) else np.nan,
            "listings_per_decision": rep.listings.mean() if len(rep) else np.nan,
            "turns_per_listing": per_listing, "p": p,
            "foo_figure_times_p": p * figure if figure is not None else np.nan,
            "truncated": int(rep.truncated.sum()) if len(rep) else 0,
            "slowest_seconds": rep.seconds.max() if len(rep) else np.nan,
        })
    return pd.DataFrame(out)


def listing_shares(replayed: pd.DataFrame) -> pd.DataFrame:
    """Per game and machine: the positions its searches listed and those with at least its limit of
    turns (``listings``, ``full``), what ``foo_claims.claims_table`` decides "limits reached" on."""
    if replayed.empty:
        return pd.DataFrame(columns=["game_id", "machine", "listings", "full"])
    return replayed.groupby(["game_id", "machine"], as_index=False)[["listings", "full"]].sum()


def positions(games: pd.DataFrame) -> pd.DataFrame:
    """One row per turn start of each game where a machine moved (after the opening): ``game`` (the
    game's id), ``turn`` (index from the kick-off), ``machine`` (the mover) and ``turns``, its
    distinct turns (exact)."""
    out = []
    for r in games.itertuples():
        opening = r.opening.split() if isinstance(r.opening, str) else []
        turns = r.moves.split()
        by_player = {int(r.a_player): r.machine_a, 3 - int(r.a_player): r.machine_b}
        game = Game(r.rules, " ".join(opening))
        for index in range(len(opening), len(turns)):
            out.append({"game": r.game_id, "turn": index, "machine": by_player[game.player],
                        "turns": game.turns().count()})
            game.push(turns[index])
    return pd.DataFrame(out, columns=["game", "turn", "machine", "turns"])


def endings(games: pd.DataFrame) -> pd.DataFrame:
    """One row per game: ``game`` (id), ``key``, ``reason`` (goal or blocked), ``winner`` (the
    machine, or ``draw``), ``last`` (the machine that played the last turn: under Foo's rules the
    one that scored, or blocked itself into a draw), ``turns`` from the kick-off (the opening's
    included) and ``fresh``, the turns that ended on a field node with no edge marked, one no turn
    had reached before (under mandatory bounce every turn but a last one into a goal or onto a dead
    end). Where the last turn started: ``behind``, whether
    the ball stood farther from the goal its mover attacks than the kick-off does, and
    ``continuing``, how many of the mover's turns there would have gone on with the game."""
    out = []
    for r in games.itertuples():
        by_player = {int(r.a_player): r.machine_a, 3 - int(r.a_player): r.machine_b}
        turns = r.moves.split()
        game = Game(r.rules)
        fresh = sum(_ends_unmarked(game, turn) for turn in turns[:-1])
        b, mover = game.board, game.player
        behind = b.goal_distance(game.ball_index, mover) > b.goal_distance(b.kickoff_index, mover)
        continuing = game.turns().tally().by_kind.get("end", 0)
        fresh += _ends_unmarked(game, turns[-1])
        winner = {"a": r.machine_a, "b": r.machine_b}.get(r.winner, "draw")
        out.append({"game": r.game_id, "key": r.key, "reason": game.result.reason, "winner": winner,
                    "last": by_player[mover], "turns": len(game.history), "fresh": fresh,
                    "behind": bool(behind), "continuing": int(continuing)})
    return pd.DataFrame(out, columns=["game", "key", "reason", "winner", "last", "turns", "fresh", "behind",
                                      "continuing"])


def _ends_unmarked(game: Game, turn: str) -> int:
    """Play ``turn``; 1 if it ended on a field node with no edge marked before it (one of the nodes
    :func:`~fepaper.experiments.reference.foo_claims.ending_nodes` counts, not reached yet), else 0."""
    unmarked = game.marks == 0
    game.push(turn)
    return int(unmarked[game.ball_index] and game.board.goal[game.ball_index] == 0)


def ending_table(ends: pd.DataFrame) -> pd.DataFrame:
    """Per machine in Foo's order, from :func:`endings`: its games, the goals it scored and
    conceded, and the games it ended by blocking itself (a draw under Foo's rules) or saw the
    opponent end so."""
    out = []
    for machine in ORDER:
        mine = ends[ends.key.str.startswith(machine + "-") | ends.key.str.endswith("-" + machine)]
        goals = mine[mine.reason == "goal"]
        blocked = mine[mine.reason == "blocked"]
        out.append({"machine": machine, "games": len(mine), "scored": int((goals.winner == machine).sum()),
                    "conceded": int((goals.winner != machine).sum()),
                    "blocked_itself": int((blocked["last"] == machine).sum()),
                    "opponent_blocked": int((blocked["last"] != machine).sum())})
    return pd.DataFrame(out)


def ending_summary(ends: pd.DataFrame, limits: Sequence[int] = (50, 51)) -> dict:
    """How the games end: counts by reason, the longest game, the games of at least each of
    ``limits`` turns, and of the games a player ended by blocking itself, those it began behind the
    kick-off and those where it had a turn that went on."""
    blocked = ends[ends.reason == "blocked"]
    return {"games": len(ends), "by_reason": ends.reason.value_counts().to_dict(),
            "blocked_behind": int(blocked.behind.sum()),
            "blocked_by_choice": int((blocked.continuing > 0).sum()),
            "draws": int((ends.winner == "draw").sum()), "longest": int(ends.turns.max()) if len(ends) else 0,
            "median_turns": float(ends.turns.median()) if len(ends) else np.nan,
            "most_fresh": int(ends.fresh.max()) if len(ends) else 0,
            **{f"at_least_{n}": int((ends.turns >= n).sum()) for n in limits}}
