"""Heuristics from fixed positions (the Aboyne report's "Resultados")."""

import pytest

from fepaper.controllers import make
from fepaper.experiments.reference import heuristics as H
from fepaper.game.game import Game


def test_positions_are_reproducible_unfinished_mid_game_states():
    assert H.make_positions() == H.POSITIONS
    for record in H.POSITIONS.values():
        game = Game(H.RULES, record)
        assert not game.is_over and not game.current
        assert 10 <= game.turns().count(10_000) <= 200


def test_named_heuristics_build_turnsearch_specs():
    for name, weights in H.HEURISTICS.items():
        spec = H.spec_for(name, 2)
        assert spec["weights"] == {f: w for f, w in weights.items() if w}
        controller = make(spec)
        assert make(controller.spec).spec == controller.spec
    assert H.spec_for({"mobility": 1, "distance": 0}, 1)["weights"] == {"mobility": 1}
    with pytest.raises(ValueError, match="named heuristics"):
        H.spec_for("cleverest", 1)


def _check_rows(rows, position, tests):
    to_move = Game(H.RULES, position).player
    assert list(rows["test"]) == list(range(1, tests + 1))
    for row in rows.itertuples():
        assert row.a_player == (to_move if row.test % 2 == 1 else 3 - to_move)
        game = Game(H.RULES, row.moves)  # the record replays
        assert game.is_over and row.moves.startswith(position)
        w = game.result.winner
        expected = "draw" if w is None else "a" if w == row.a_player else "b"
        assert row.winner == expected and row.reason == game.result.reason
        assert row.winner_heuristic == {"a": row.heuristic_a, "b": row.heuristic_b}.get(expected, "draw")
        assert row.turns == len(game.history) - len(position.split()) - len(row.random_turns.split())
        assert row.seconds_per_move > 0


def test_duel_rows_replay_to_their_winners_and_are_seeded():
    position = H.POSITIONS["state 1"]
    rows = H.duel(position, "distance", "attack+mobility", depth=1, tests=4, seed=5)
    _check_rows(rows, position, 4)
    again = H.duel(position, "distance", "attack+mobility", depth=1, tests=4, seed=5)
    assert list(again["moves"]) == list(rows["moves"])
    other = H.duel(position, "distance", "attack+mobility", depth=1, tests=4, seed=6)
    assert list(other["moves"]) != list(rows["moves"])


def test_duel_with_a_random_opening_shares_it_within_a_pair():
    position = H.POSITIONS["state 2"]
    rows = H.duel(position, "distance", "defence-first", depth=1, tests=4, seed=1, opening_turns=2)
    _check_rows(rows, position, 4)
    openings = list(rows["random_turns"])
    assert openings[0] == openings[1] and openings[2] == openings[3] and len(openings[0].split()) == 2
    extended = Game(H.RULES, f"{position} {openings[0]}")
    assert not extended.is_over and extended.player == Game(H.RULES, position).player


def test_tables_and_summary():
    positions = {k: H.POSITIONS[k] for k in ("state 1", "state 3")}
    rows = H.run_duels("distance", "bounce", depths=(1, 2), tests=2, seed=0, positions=positions)
    assert len(rows) == 2 * 2 * 2
    table = H.heuristic_table(rows, "state 3")
    assert list(table.index) == [1, 2, "mean"]
    assert list(table.columns) == [("depth 1", "winner"), ("depth 1", "seconds_per_move"),
                                   ("depth 2", "winner"), ("depth 2", "seconds_per_move")]
    summary = H.summarise_duels(rows)
    assert len(summary) == 2 * 2 + 2
    assert (summary["wins_a"] + summary["wins_b"] + summary["draws"] == summary["tests"]).all()
    overall = summary[summary["position"] == "all"].set_index("depth")
    assert overall.loc[1, "tests"] == 4
    for row in summary.itertuples():
        assert row.better == ("distance" if row.score_a > 0.5 else "bounce" if row.score_a < 0.5 else "even")
    with pytest.raises(ValueError, match="positions"):
        H.heuristic_table(rows, "state 9")
