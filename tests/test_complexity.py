"""Complexity: the §2.1 arithmetic, the estimate tables, the bounds and the measurements."""

import itertools
import json
import math

import networkx as nx
import numpy as np
import pytest

from fepaper.experiments.complexity.branching import (
    bounces_per_turn,
    branching_distribution,
    count_distinct_turns,
    count_step_sequences,
    count_summary,
    measure_games,
    phase_of,
    sample_games,
    save_table,
)
from fepaper.experiments.complexity.estimates import (
    aboyne_table,
    alphabeta_best_case,
    estimate_table,
    game_tree_size,
    pearl_branching,
    search_speed,
    state_space_bounds,
    thesis_claims,
    verdict,
    walk_speed,
)
from fepaper.game.board import Board
from fepaper.game.game import Game
from fepaper.game.rules import Rules

from .helpers import SMALL_RULES, position


# -- §2.1 arithmetic -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def claims():
    return thesis_claims().set_index("claim")


def test_seven_to_the_seventy_is_recomputed_exactly(claims):
    row = claims.loc["minimax nodes, two turns of 35 steps: 7^70"]
    assert row.recomputed == float(7**70)
    assert 1.435e59 < row.recomputed < 1.436e59
    assert row.verdict.startswith("agrees")


def test_years_figure_does_not_follow_from_the_seconds(claims):
    seconds = 7**35 / 1e10
    years = seconds / (365.25 * 24 * 3600)  # independent arithmetic
    row = claims.loc["years for 3.78e19 s"]
    assert row.recomputed == pytest.approx(years, rel=1e-12)
    assert row.verdict == f"does not follow: right value is {years:.3e}"
    assert row.relative_error == pytest.approx(2.88e25 / years - 1)
    assert claims.loc["seconds for 7^35 nodes at 1e10 nodes/s"].recomputed == pytest.approx(seconds)


def test_the_alphabeta_average_case_figures_follow(claims):
    assert claims.loc["alpha-beta nodes, average case: 4^(45/2)"].recomputed == 2**45
    minutes = claims.loc["minutes for 4^(45/2) nodes at 1e10 nodes/s"]
    assert minutes.recomputed == pytest.approx(35184372088832 / 1e10 / 60)
    assert minutes.verdict == "agrees"
    assert claims.loc["average-case alpha-beta exponent: 30 x 3/4 = 45/2"].recomputed == 22.5


def test_every_verdict_is_computed_from_its_row(claims):
    for name, row in claims.iterrows():
        if not math.isnan(row.thesis):
            digits = {70: 2, 7: 1, 58.64: 4, 0.5: 1, 0.75: 2}.get(row.thesis, 3)
            assert row.verdict == verdict(row.thesis, row.recomputed, digits), name


def test_a_bounce_leaves_at_most_six_free_steps(claims):
    assert claims.loc["worst-case steps after a bounce: 7"].recomputed == 6
    games = sample_games("standard", 5, seed=3)
    m = measure_games(games, max_states=1000, max_steps=None)
    assert m.steps[m.steps.after_bounce].free.max() <= 6
    assert m.steps.free.max() <= 8


def test_verdict_rounding_truncation_and_errors():
    assert verdict(1.43e59, 7**70, 3).startswith("agrees (truncated")
    assert verdict(3.52e13, 2**45, 3) == "agrees"
    assert verdict(0.75, 0.7, 2).startswith("approximately")
    assert verdict(2.0, 1.0, 2) == "does not follow: right value is 1"
    with pytest.raises(ValueError, match="digits"):
        verdict(1.0, 1.0, 0)
    with pytest.raises(ValueError, match="not be 0"):
        verdict(1.0, 0, 3)


def test_alphabeta_best_case_and_pearl():
    assert alphabeta_best_case(2, 2) == 3 and alphabeta_best_case(2, 3) == 5
    assert alphabeta_best_case(4, 30) == 2 * 4**15 - 1
    assert pearl_branching(2) == pytest.approx((1 + 5**0.5) / 2)  # xi^2 + xi - 1 = 0
    with pytest.raises(ValueError):
        alphabeta_best_case(0, 3)
    with pytest.raises(ValueError):
        pearl_branching(1)


# -- estimate tables and bounds ----------------------------------------------------------------
def test_aboyne_table_two_is_reproduced():
    t = aboyne_table().set_index("level")
    # cells as printed in the report (Tabela 2), rounded there to whole seconds
    assert t.loc[0, "minimax"] == 18 and t.loc[6, "minimax"] == 612220032
    assert round(t.loc[2, "seconds_minimax@1000"]) == 6
    assert round(t.loc[4, "seconds_minimax@10000"]) == 189
    assert round(t.loc[7, "seconds_minimax@1e+06"]) == 11020
    assert f"{t.loc[8, 'seconds_minimax@1000']:.0e}" == "2e+08"


def test_estimate_table_formulas_and_errors():
    t = estimate_table(10, 1e3, depths=[4])
    row = t.iloc[0]
    assert row.minimax == pytest.approx(1e4) and row.alphabeta_average == pytest.approx(1e3)
    assert row.alphabeta_best == pytest.approx(100) and row["seconds_minimax@1000"] == pytest.approx(10)
    with pytest.raises(ValueError, match="branching"):
        estimate_table(0.5, 1e3)
    with pytest.raises(ValueError, match="nodes_per_second"):
        estimate_table(4, 0)


def test_naive_state_bound_is_edges_nodes_players():
    board = Board.of(Rules.preset("thesis"))
    t = state_space_bounds("thesis").set_index("bound")
    field = sum(1 for p in board.nodes if not board.graph.nodes[p]["goal"])
    assert t.loc["naive", "value"] == 2 ** (684 - 66) * field * 2
    assert t.loc["trail parity", "value"] < t.loc["naive", "value"]
    std = state_space_bounds("standard").set_index("bound")
    assert std.loc["turn start", "value"] < std.loc["trail parity", "value"]


def test_trail_parity_count_matches_brute_force_on_a_tiny_board():
    rules = Rules(width=2, height=2, middle_line=False, bounce="optional")
    board = Board.of(rules)
    edges = [(u, v) for u, v, w in board.graph.edges(data="wall")
             if not w and not board.graph.nodes[u]["goal"] and not board.graph.nodes[v]["goal"]]
    assert len(edges) <= 18
    kick = board.kickoff
    good = 0
    for mask in range(1 << len(edges)):
        degree = {}
        for i, (u, v) in enumerate(edges):
            if mask >> i & 1:
                degree[u] = degree.get(u, 0) + 1
                degree[v] = degree.get(v, 0) + 1
        odd = {p for p, k in degree.items() if k % 2}
        good += odd == set() or (len(odd) == 2 and kick in odd)
    bound = state_space_bounds(rules).set_index("bound").loc["trail parity", "value"]
    assert bound == 2 * good  # the ball is the second odd node; x 2 for the player to move
    assert nx.is_connected(nx.Graph(edges))


def test_reachable_positions_respect_the_bounds():
    rules = Rules(width=2, height=2, middle_line=False, bounce="mandatory")
    seen = set()

    def visit(game):
        key = (game.marks.tobytes(), game.ball_index, game.player if not game.current else 0)
        if key in seen or game.is_over:
            return
        seen.add(key)
        for d in game.legal_steps():
            game.step(d)
            visit(game)
            game.undo()

    visit(Game(rules))
    starts = {(m, b) for m, b, p in seen if p}
    t = state_space_bounds(rules).set_index("bound")
    assert 0 < len(starts) <= t.loc["turn start", "value"]
    assert len(seen) <= t.loc["trail parity", "value"]


def test_game_tree_size():
    assert game_tree_size(10, 3)["log10"] == pytest.approx(3)
    with pytest.raises(ValueError):
        game_tree_size(0.5, 3)


# -- measurements ------------------------------------------------------------------------------
def _sequences_by_game(game: Game) -> int:
    """Ordered step sequences through Game.step/undo: the slow, obvious twin."""
    total = 0
    played = len(game.history)
    for d in game.legal_steps():
        game.step(d)
        if len(game.history) > played:
            total += 1
        else:
            total += game.can_stop  # under optional bounce, stopping here is one sequence
            total += _sequences_by_game(game)
        game.undo()
    return total


@pytest.mark.parametrize("rules", SMALL_RULES + ["thesis", "standard"])
def test_counts_agree_with_game(rules):
    for seed, fraction in itertools.product((1, 2), (0.0, 0.5)):
        game = position(rules, seed, fraction)
        distinct = count_distinct_turns(game)
        assert distinct.complete and distinct.turns == game.turns().count()
        seq = count_step_sequences(game)
        if seq.sequences < 20_000:
            assert seq.sequences == _sequences_by_game(game.copy())
        assert seq.complete and seq.sequences >= distinct.turns


def test_kickoff_counts():
    assert count_distinct_turns(Game("thesis")).turns == 6
    assert count_step_sequences(Game("standard")).sequences == 8
    assert count_step_sequences(Game("standard")).expanded == 1


def test_capped_counts_are_reported_as_censored():
    rng = np.random.default_rng(5)
    for game in sample_games("thesis", 30, seed=int(rng.integers(100))):
        for k in range(len(game.history) - 1, 0, -1):
            pos = Game("thesis", " ".join(game.history[:k]))
            if count_distinct_turns(pos, 20_000).turns > 500:
                capped = count_distinct_turns(pos, 100)
                assert not capped.complete and capped.turns <= 100
                assert str(capped).startswith("at least")
                assert not count_step_sequences(pos, 100).complete
                return
    pytest.fail("no position with more than 500 turns in the sample")


def test_bounces_of_the_thesis_opening():
    assert bounces_per_turn(Game("thesis", "0 54")) == [0, 1]


def test_measure_games_matches_direct_replay():
    games = sample_games("thesis", 3, seed=11)
    m = measure_games(games, max_states=50_000, max_steps=50_000)
    assert list(m.games.turns) == [len(g.history) for g in games]
    for g, game in enumerate(games):
        rows = m.turns[m.turns.game == g]
        assert list(rows.steps) == [len(t) for t in game.history]
        assert list(rows.bounces) == bounces_per_turn(game)
        replay, free = Game("thesis"), []
        for turn in game.history:
            for c in turn:
                free.append(len(replay.legal_steps()))
                replay.step(c)
            if replay.current:
                replay.stop()
        assert list(m.steps[m.steps.game == g].free) == free
    exact = m.turns[~m.turns.censored]
    for _, row in exact.head(10).iterrows():
        game = Game("thesis", " ".join(games[row.game].history[: row.turn - 1]))
        assert row.distinct == game.turns().count()


def test_count_summary_respects_censoring():
    s = count_summary([1, 2, 3, 4, 100], [False] * 5)
    assert s["p50"] == 3 and s["max"] == 100 and s["bounds"] == "exact"
    s = count_summary([1, 2, 3, 4, 100], [False, False, False, False, True], quantiles=(0.5, 0.99))
    assert s["p50"] == 3 and s["p99"] is None
    assert s["max"] == 4 and s["max_lower_bound"] == 100 and s["n_censored"] == 1
    with pytest.raises(ValueError, match="length"):
        count_summary([1, 2], [True])
    with pytest.raises(ValueError):
        count_summary([-1])
    with pytest.raises(ValueError):
        count_summary([])


def test_phase_of():
    assert [phase_of(i, 6) for i in range(6)] == ["opening"] * 2 + ["middle"] * 2 + ["end"] * 2
    with pytest.raises(ValueError):
        phase_of(6, 6)


def test_bad_input_errors():
    with pytest.raises(ValueError, match="over"):
        count_distinct_turns(sample_games("standard", 1, seed=0)[0])
    inside = Game("thesis", "0")
    inside.step(5)
    with pytest.raises(ValueError, match="start of a turn"):
        count_step_sequences(inside)
    with pytest.raises(ValueError, match="max_states"):
        count_distinct_turns(Game("thesis"), 0)
    with pytest.raises(TypeError):
        count_distinct_turns("0 54")
    with pytest.raises(ValueError, match="source"):
        sample_games("thesis", 1, source="greedy")
    with pytest.raises(ValueError, match="phase"):
        branching_distribution("foo", phase="late", n_games=1)


def test_sampling_is_seeded_and_controllers_play():
    a = [g.moves for g in sample_games("foo", 3, seed=7)]
    assert a == [g.moves for g in sample_games("foo", 3, seed=7)]
    assert a != [g.moves for g in sample_games("foo", 3, seed=8)]
    duel = sample_games("foo", 2, seed=1, source=("random", {"name": "random", "mode": "turns"}))
    assert all(g.is_over for g in duel)


def test_speeds_and_explorer(tmp_path):
    games = sample_games("standard", 2, seed=2)
    speed = walk_speed(games)
    assert speed["states"] > 0 and speed["nodes_per_second"] > 0
    per = search_speed({"name": "random", "seed": 1}, [Game("standard")])
    assert len(per) == 1 and per.nodes[0] >= 1
    d = branching_distribution("thesis", width=6, height=8, phase="opening", n_games=2, seed=1)
    assert set(d.phase) == {"opening"} and (d.distinct > 0).all()
    csv, sidecar = save_table(d, tmp_path, "x", {"seed": 1})
    assert csv.exists() and json.loads(sidecar.read_text())["seed"] == 1


@pytest.fixture
def toy_search():
    """A controller with a ``depth`` (nodes = depth x legal steps), registered for one test."""
    from fepaper.controllers import REGISTRY, Controller, register
    from fepaper.controllers.params import Int
    from fepaper.search import SearchResult

    class ToySearch(Controller):
        name = "_complexity_toy_search"
        PARAMS = (Int("depth", 1, 1, 10),)

        def decide(self, game):
            return SearchResult(next(iter(game.turns())).steps, None, self.depth * len(game.legal_steps()))

    register(ToySearch)
    yield ToySearch.name
    del REGISTRY[ToySearch.name]


def test_search_by_depth_times_each_depth(toy_search):
    from fepaper.experiments.complexity.estimates import registered_search, search_by_depth

    assert registered_search((toy_search,)) == toy_search
    assert registered_search(("no_such_controller",)) is None
    positions = [Game("standard"), Game("standard", "0")]
    table = search_by_depth(toy_search, positions, depths=[1, 2, 3], isolate=False)
    assert list(table.depth) == [1, 2, 3] and (table.decisions == 2).all()
    assert list(table.nodes) == [d * (8 + 7) / 2 for d in (1, 2, 3)]
    assert table.attrs["stopped"] == "all depths done"
    isolated = search_by_depth(toy_search, positions, depths=[1], isolate=True)
    assert list(isolated.nodes) == [7.5]
    refused = search_by_depth("random", positions, depths=[1])
    assert refused.empty and "not accepted" in refused.attrs["stopped"]
