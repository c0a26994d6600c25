"""Foo's machines measured on their own games (notebook 12): the tables built from a games file, and
each decision played again from the spec and seed it was played with."""

import numpy as np
import pytest

from fepaper.experiments.reference import foo_claims as C
from fepaper.experiments.reference import foo_machines as F
from fepaper.experiments.thesis.duels import SPRT, Pairing, play_pairings
from fepaper.game.game import Game
from fepaper.play.pools import SerialExecutor


def test_the_league_is_every_pair_the_ladder_leaves_out():
    league = F.league_pairs(6)
    ladder = {(a["machine"], b["machine"]) for _, a, b in C.LADDER.pairs()}
    pairs = {(a["machine"], b["machine"]) for _, a, b, _ in league}
    assert len(league) == 15 and all(g == 6 for *_, g in league) and F.league_pairs(0) == []
    unordered = {frozenset(p) for p in pairs | ladder}
    assert len(unordered) == 21 and not ({frozenset(p) for p in pairs} & {frozenset(p) for p in ladder})


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Two cheap pairings of the ladder (an SPRT each, at most 4 games) and one of the league."""
    pairs = {key: (a, b) for key, a, b in C.LADDER.pairs()}
    keys = ["GoBackWatchOpponent-beats-GoAhead", "PreventingOpponent50-beats-PreventingOpponent40"]
    pairings = [Pairing(k, *pairs[k], {"better": SPRT(**C.LADDER.sprt)}, max_games=4) for k in keys]
    pairings += [Pairing(k, a, b, {}, max_games=g) for k, a, b, g in F.league_pairs(2)
                 if k == "GoAhead-vs-PreventingOpponent40"]
    out = tmp_path_factory.mktemp("foo") / "games.csv"
    results = play_pairings(C.RULES, pairings, seed=3, out=out, executor=SerialExecutor(), round_pairs=1,
                            opening_turns=C.LADDER.opening_turns, progress=False)
    return F.games_table(results)


def test_games_name_both_machines(played):
    assert len(played) == 10
    assert set(played.machine_a) == {"GoBackWatchOpponent", "PreventingOpponent50", "GoAhead"}
    assert played.game_id.is_unique


def test_every_replayed_decision_chooses_the_turn_played(played):
    replayed = F.decisions(played, per_pairing=2)
    sample = played.sort_values(["pairing", "game"]).groupby("pairing").head(2)
    assert len(replayed) == sum(r.decisions_a + r.decisions_b for r in sample.itertuples())
    assert (replayed.listed >= replayed.kept).all() and (replayed.listings >= 1).all()
    one = replayed[replayed.machine == "GoAhead"]
    assert (one.listings == 1).all()  # one ply: the position's own turns
    row = sample.iloc[0].to_dict()
    turns = row["moves"].split()
    k = len(row["opening"].split())
    other = next(t.steps for t in Game(row["rules"], " ".join(turns[:k])).turns() if t.steps != turns[k])
    with pytest.raises(ValueError, match="the replay chose"):
        F.replay({**row, "moves": " ".join(turns[:k] + [other] + turns[k + 1:])})


def test_costs_positions_and_endings(played):
    replayed = F.decisions(played, per_pairing=1)
    costs = F.cost_table(F.sides(played), replayed).set_index("machine")
    assert list(costs.index) == list(C.ORDER)
    assert costs.loc["PreventingOpponent40", "foo_figure"] == 1600 and np.isnan(costs.loc["GoAhead", "foo_figure"])
    assert np.isnan(costs.loc["Watch3Ahead", "seconds_per_decision"])  # it played no game here
    row = costs.loc["PreventingOpponent50"]
    assert row.p == pytest.approx(row.turns_per_listing / 50) and row.decisions > 0
    spots = F.positions(played)
    assert len(spots) == sum(played.decisions_a + played.decisions_b)
    first = played.iloc[0]
    opening = first.opening.split()
    assert spots.iloc[0].turns == Game(first.rules, " ".join(opening)).turns().count()
    ends = F.endings(played)
    # under mandatory bounce every turn but the last ends on a node the ball never met
    assert (ends.fresh == ends.turns - 1).all() and set(ends.reason) <= {"goal", "blocked"}
    assert (ends.continuing >= 0).all() and ends.behind.dtype == bool
    assert (ends.turns == played.turns + played.opening.str.split().str.len()).all()
    table = F.ending_table(ends).set_index("machine")
    assert table.games.sum() == 2 * len(ends) and (table.scored.sum() == table.conceded.sum())
    assert table.blocked_itself.sum() == (ends.reason == "blocked").sum() == table.opponent_blocked.sum()
    for r in played.itertuples():  # the last turn's mover is the side that moves at the game's last turn
        last = ends.set_index("game").loc[r.game_id, "last"]
        before = Game(r.rules, " ".join(r.moves.split()[:-1]))
        assert last == (r.machine_a if before.player == r.a_player else r.machine_b)
    summary = F.ending_summary(ends)
    assert summary["games"] == 10 and sum(summary["by_reason"].values()) == 10
    shares = F.listing_shares(replayed)
    table = C.claims_table(spots, ends, shares)
    assert table.loc[table.key == "fifty-moves", "verdict"].item() == "confirmed"


def test_ratings_follow_foos_order(played):
    table = F.ratings(played, seed=1, bootstrap=20)
    assert list(table.machine) == list(C.ORDER) and table.games.sum() == 2 * len(played)
    assert table.loc[table.machine == "Watch3Ahead", "games"].item() == 0
    sides = F.sides(played)
    assert len(sides) == 2 * len(played)
    assert sides.decisions.sum() == (played.decisions_a + played.decisions_b).sum()
