"""The complete-turn search where it no longer lists every turn (nodes one turn above the leaves,
a turn that wins at once at the root) against the listing search it replaces, and the fixed-depth
benchmark with a reference engine's seconds beside it. No speed is asserted."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fepaper._core import turnsearch as kernel
from fepaper._core.bundles import new_budget
from fepaper._core.turns import count_turns
from fepaper.bench.listing import ReferenceFileError, bench_listing, read_reference
from fepaper.bench.record import ROWS
from fepaper.bench.search import search_positions
from fepaper.cli import main
from fepaper.game.game import Game
from fepaper.play.randomplay import random_game
from fepaper.search.turnsearch import search_turns

WIN = kernel.WIN


def _position(rules: str, seed: int, turns: int) -> Game | None:
    game = random_game(rules, seed=seed, max_turns=turns)
    if game.is_over or not 0 < game.turns().count() <= 400:
        return None
    return game


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=st.sampled_from(["thesis", "standard", "codingame", "foo"]), seed=st.integers(0, 10**6),
       turns=st.integers(0, 30), depth=st.integers(1, 3))
def test_the_valued_walk_finds_the_values_of_the_listing_search(rules, seed, turns, depth):
    """Ordered search (the walk values the turns one turn above the leaves, cuts off at once, and
    takes a win at the root without listing) against the same search over listed turns in walk
    order: the same value; the turn it plays is one of the best."""
    game = _position(rules, seed, turns)
    if game is None:
        return
    walked = search_turns(game, depth)
    listed = search_turns(game, depth, ordering=False)
    assert walked.value == listed.value, game.moves
    exact = search_turns(game, depth, exact=True)
    assert exact.value == listed.value and walked.turn in exact.details["best"], game.moves
    if depth <= 2:
        minimax = search_turns(game, depth, pruning=False)  # ordered minimax: every turn valued
        assert minimax.value == listed.value


def test_a_turn_that_wins_at_once_is_taken_without_listing_the_others():
    # from (5, 1) on the thesis board player 1 scores at once
    game = Game("thesis")
    game.marks[:] = game.board.initial_marks
    game.ball_index = game.board.index[(5, 1)]
    found = search_turns(game, 3)
    assert found.value == WIN - 1 and found.nodes == 2 and found.depth == 1
    assert found.details["complete"] is False and found.details["best"] == [found.turn]
    trial = game.copy()
    trial.push(found.turn)
    assert trial.is_over and trial.result.winner == 1
    everything = search_turns(game, 3, exact=True)  # exact: every best turn, so the whole listing
    assert everything.value == WIN - 1 and found.turn in everything.details["best"]
    assert everything.details["complete"] and len(everything.details["best"]) >= 1


def test_the_look_for_a_win_at_once_spends_none_of_the_searchs_budget():
    game = Game("codingame", search_positions(2026, 10, "codingame")[1])  # 275,207 turns, no win at once
    budget = new_budget(None, 0)
    found = search_turns(game, 1, budget=budget)
    listing = new_budget(None, 0)
    count_turns(game.marks.copy(), game.ball_index, game.board.arrays, game.rules.flags, 0, listing)
    assert found.value < WIN - 1000 and found.details["complete"]
    # the search's work: the root's listing and its turns valued, nothing of the bounded look before
    assert budget.ctl[0] == listing.ctl[0] + found.nodes - 1


@pytest.mark.parametrize("max_nodes", [3, 50, 700])
def test_a_search_cut_by_its_budget_inside_the_walk_leaves_the_marks_as_they_were(max_nodes):
    game = Game("codingame", search_positions(2026, 10, "codingame")[8])  # 346 turns, thousands below
    assert game.turns().count() == 346
    marks = game.marks.copy()
    s = kernel.TurnSearch(game.board.arrays, game.rules.flags, np.array([1, 0, 0, 0], np.int64), True, True,
                          True, 0, 0, 64, len(game.history), kernel.new_table(12), new_budget(None, max_nodes))
    kernel.turn_search(marks, game.ball_index, np.uint64(game.key), game.player, 1, 4, False, s)
    assert (marks == game.marks).all()
    assert s.budget.ctl[1] != 0  # it was cut


def _reference(tmp_path, text):
    path = tmp_path / "ref.csv"
    path.write_text(text)
    return path


def test_the_benchmark_sets_a_reference_beside_its_seconds(tmp_path):
    path = _reference(tmp_path, "# an engine, built somewhere\nposition,depth,seconds,nodes,turn\n"
                                "0,1,0.5,17,0\n1,1,1e-9,3,22\n")
    figures = bench_listing(repeat=1, max_depth=1, count=3, reference=path)
    assert set(figures["seconds"]["1"]) == {"0", "1", "2"} and figures["reference_source"] == ["an engine, "
                                                                                                 "built somewhere"]
    mine = figures["seconds"]["1"]
    assert figures["reference_totals"]["1"]["positions"] == 2
    assert figures["reference_over_fepaper"]["1"]["0"] == pytest.approx(0.5 / mine["0"]["seconds"])
    assert figures["fepaper_slower_at"]["1"] == ["1"]
    assert figures["total_seconds"]["1"] == pytest.approx(sum(r["seconds"] for r in mine.values()))
    rows = ROWS["listing"](figures)
    assert len(rows) == 2 and "an engine, built somewhere" in rows[1][0] and "1 of 2" in rows[1][1]
    assert len(ROWS["listing"](bench_listing(repeat=1, max_depth=1, count=1))) == 1


@pytest.mark.parametrize("text, message", [
    ("0,1,0.5,17,0\n", "the header"),
    ("position,depth,seconds,nodes,turn\n", "no rows"),
    ("position,depth,seconds,nodes,turn\n0,1,0.5,17\n", "4 fields"),
    ("position,depth,seconds,nodes,turn\n0,1,fast,17,0\n", "must be integers"),
    ("position,depth,seconds,nodes,turn\n10,1,0.5,17,0\n", "position must be from 0 to 9"),
    ("position,depth,seconds,nodes,turn\n0,0,0.5,17,0\n", "depth must be >= 1"),
    ("position,depth,seconds,nodes,turn\n0,1,nan,17,0\n", "seconds finite"),
    ("position,depth,seconds,nodes,turn\n0,1,0.5,17,08\n", "digits 0-7"),
    ("position,depth,seconds,nodes,turn\n0,1,0.5,17,0\n0,1,0.4,17,0\n", "measured twice"),
])
def test_a_bad_reference_is_refused_naming_what_is_wrong(tmp_path, text, message):
    path = _reference(tmp_path, text)
    before = path.read_bytes()
    with pytest.raises(ReferenceFileError, match=message):
        read_reference(path)
    assert path.read_bytes() == before


def test_the_listing_options_belong_to_the_listing_benchmark(tmp_path, capsys):
    assert main(["bench", "turns", "--depth", "2"]) == 2
    assert "--depth applies to the listing benchmark" in capsys.readouterr().err
    bad = _reference(tmp_path, "nothing\n")
    assert main(["bench", "listing", "--depth", "1", "--reference", str(bad)]) == 2
    assert "the header" in capsys.readouterr().err
