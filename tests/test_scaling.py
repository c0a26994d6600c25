"""fepaper.experiments.complexity.scaling: nodes and seconds per depth, caps, and the Connect Four numbers."""

import math

import pandas as pd
import pytest

from fepaper.experiments.complexity.scaling import (
    REPORT_TABLE_2,
    compare_with_report,
    connect_four_scaling,
    peak_memory_dynamic,
    scaling_summary,
    search_scaling,
    where_stopped,
)
from fepaper.experiments.reference.connectfour import (
    definition_verdicts,
    full_tree,
    node_definitions,
    search_counts,
)
from fepaper.game.game import Game
from fepaper.games.toygames import ConnectFour
from fepaper.search.reference import SearchStats, alphabeta, evaluation_order, minimax

POSITIONS = ["", "4 4 3 6 06 1 7 5"]  # the opening and a position 8 turns in


def test_minimax_nodes_grow_with_depth():
    table = search_scaling(POSITIONS, ["minimax"], [1, 2, 3], time_cap=None)
    assert table.completed.all()
    for _, rows in table.groupby("position"):
        nodes = rows.sort_values("depth").nodes.tolist()
        assert nodes == sorted(nodes) and len(set(nodes)) == 3


def test_ordered_alphabeta_visits_no_more_nodes_than_minimax():
    table = search_scaling(POSITIONS, ["minimax", "alphabeta-ordered"], [1, 2, 3], time_cap=None)
    nodes = table.pivot_table(index=["position", "depth"], columns="algorithm", values="nodes")
    assert (nodes["alphabeta-ordered"] <= nodes["minimax"]).all()
    assert (nodes["alphabeta-ordered"] < nodes["minimax"]).any()


def test_cap_marks_row_not_completed_and_stops_deeper_depths():
    # the opening: minimax visits 2,143 positions at depth 3 and 54,253 at depth 4; the
    # kernels check the budget every 16,384 nodes, so 10,000 stops depth 4 (at 16,384)
    table = search_scaling([""], ["minimax", "thesis-dynamic"], range(1, 7), time_cap=None, node_cap=10_000)
    mm = table[table.algorithm == "minimax"].set_index("depth")
    assert list(mm.index) == [1, 2, 3, 4]
    assert mm.completed.tolist() == [True, True, True, False]
    dyn = table[table.algorithm == "thesis-dynamic"].set_index("depth")
    assert list(dyn.index) == [1, 2, 3, 4, 5, 6] and dyn.completed.tolist() == [True] * 5 + [False]
    summary = scaling_summary(table).set_index(["algorithm", "depth"])
    assert summary.loc[("minimax", 3), "median_nodes"] == 2143
    assert math.isnan(summary.loc[("minimax", 4), "median_nodes"])
    stopped = where_stopped(table).set_index("algorithm")
    assert stopped.loc["minimax", "all_completed"] == 3 and stopped.loc["minimax", "first_stopped"] == 4
    assert stopped.loc["thesis-dynamic", "median_to"] == 5


def test_node_caps_per_algorithm_make_the_table_the_same_on_every_run_but_for_seconds():
    caps = {"thesis-dynamic": 2_000, "default": 10_000}
    runs = [search_scaling(POSITIONS, ["minimax", "thesis-dynamic"], range(1, 6), time_cap=60, node_cap=caps)
            for _ in range(2)]
    assert runs[0].drop(columns="seconds").equals(runs[1].drop(columns="seconds"))
    stopped = runs[0][~runs[0].completed]
    assert len(stopped) and set(stopped.stopped_by) == {"nodes"}
    assert (runs[0][runs[0].completed].stopped_by == "").all()
    dyn = runs[0][runs[0].algorithm == "thesis-dynamic"]
    assert dyn[~dyn.completed].nodes.min() >= 2_000 > dyn[dyn.completed].nodes.max()


def test_a_time_cap_stops_a_long_search():
    table = search_scaling(["7 1 0 5 3 3 4 3 5 6 5 7 6 1 7 5 0 24 7635 2 1 20"], ["minimax"], [2, 3],
                           time_cap=0.05)
    # The turn search keeps a reserve for its wrap-up, so it answers a little before the cap.
    assert table.completed.tolist() == [False] and table.stopped_by.tolist() == ["time"]


def test_median_counts_stopped_positions_as_larger():
    import pandas as pd

    rows = [dict(algorithm="a", depth=1, position=k, nodes=n, seconds=s, completed=c)
            for k, (n, s, c) in enumerate([(10, 0.1, True), (20, 0.2, True), (5, 9.0, False)])]
    summary = scaling_summary(pd.DataFrame(rows))
    assert summary.median_nodes.iloc[0] == 20 and summary.median_seconds.iloc[0] == 0.2


def test_connect_four_from_the_start_matches_the_reference_search():
    table = connect_four_scaling([1, 2, 3], settings=("start",)).set_index(["algorithm", "depth"])
    for depth in (1, 2, 3):
        for algorithm in ("minimax", "alphabeta-unordered", "alphabeta-ordered"):
            stats = SearchStats()
            if algorithm == "minimax":
                minimax(ConnectFour(), depth, 0, stats=stats)
            elif algorithm == "alphabeta-unordered":
                alphabeta(ConnectFour(), depth, 0, stats=stats)
            else:
                alphabeta(ConnectFour(), depth, 0, order=evaluation_order(), stats=stats)
            assert table.loc[(algorithm, depth), "nodes"] == stats.nodes
            assert table.loc[(algorithm, depth), "turns"] == 1
    assert table.loc[("minimax", 3), "nodes"] == 1 + 7 + 49 + 343


def test_connect_four_game_splits_the_turns_between_the_engines():
    table = connect_four_scaling([2], settings=("game",)).set_index("algorithm")
    assert table.completed.all()
    # minimax plays x, the alpha-beta engines are measured on o's turns
    assert table.loc["alphabeta-ordered", "turns"] == table.loc["alphabeta-unordered", "turns"]
    assert table.loc["minimax", "turns"] - table.loc["alphabeta-ordered", "turns"] in (0, 1)
    assert table.loc["alphabeta-ordered", "nodes"] <= table.loc["alphabeta-unordered", "nodes"]
    compared = compare_with_report(connect_four_scaling([2], settings=("game",)))
    quoted = compared.set_index(["algorithm", "depth"])
    assert quoted.loc[("minimax", 2), "report_nodes"] == 45


def test_each_node_definition_counts_what_it_says_on_the_reports_game():
    counts = node_definitions([2]).set_index(["algorithm", "definition"]).nodes
    game = connect_four_scaling([2], settings=("game",)).set_index("algorithm").nodes
    # the same game as connect_four_scaling's, counted as fepaper counts
    assert counts[("minimax", "visited")] == game["minimax"]
    assert counts[("alphabeta-ordered", "visited")] == game["alphabeta-ordered"]
    # minimax generates exactly the children it visits; alpha-beta generates the ones it prunes too
    assert counts[("minimax", "children")] == counts[("minimax", "visited, no root")]
    assert counts[("alphabeta-ordered", "children")] > counts[("alphabeta-ordered", "visited, no root")]
    assert counts[("minimax", "running total")] > counts[("minimax", "visited")]
    # from the empty board every definition of a minimax search is its full-tree bound
    for definition in ("visited", "children", "evaluations", "one level more"):
        start = search_counts(ConnectFour(), "minimax", 3)[definition]
        assert start == full_tree(3, definition)
    assert full_tree(3, "visited") == 400 and full_tree(3, "one level more") == 2801


def test_a_definition_reproduces_the_table_only_within_the_factor_and_the_tree():
    def rows(definition, nodes, report):
        return [{"algorithm": "minimax", "depth": d, "definition": definition, "turns": 1, "nodes": n,
                 "report_nodes": r, "ratio": n / r} for d, n, r in zip((2, 3), nodes, report)]

    counts = pd.DataFrame(rows("visited", [40, 300], [45, 350]) + rows("one level more", [40, 300], [45, 350])
                          + rows("children", [40, 300], [45, 518]) + rows("evaluations", [10, 300], [45, 350]))
    verdicts = definition_verdicts(counts).set_index("definition")
    assert verdicts.verdict.to_dict() == {"visited": "reproduces", "one level more": "reproduces",
                                          "children": "ruled out", "evaluations": "ruled out"}
    assert verdicts.loc["children", "report_above_any_tree_at"] == [3]  # 518 > 399: no game gives it


def test_the_reports_table_2_is_quoted_as_printed():
    t = REPORT_TABLE_2.set_index(["algorithm", "depth"])
    assert len(t) == 10
    assert t.loc[("alphabeta-ordered", 6), "nodes_per_turn"] == 15776
    assert math.isnan(t.loc[("minimax", 6), "ms_per_turn"])


@pytest.fixture
def toy_search():
    """A controller with a ``depth`` (nodes = depth x legal steps), registered for one test."""
    from fepaper.controllers import REGISTRY, Controller, register
    from fepaper.controllers.params import Int
    from fepaper.search import SearchResult

    class ToySearch(Controller):
        name = "_scaling_toy_search"
        PARAMS = (Int("depth", 1, 1, 10),)

        def decide(self, game):
            return SearchResult(next(iter(game.turns())).steps, None, self.depth * len(game.legal_steps()))

    register(ToySearch)
    yield ToySearch.name
    del REGISTRY[ToySearch.name]


def test_a_controller_with_a_depth_is_timed_one_decision_a_position_and_depth(toy_search):
    positions = [Game("standard"), Game("standard", "0")]  # 8 and 7 legal steps
    table = search_scaling(positions, [{"name": toy_search}], [1, 2, 3], time_cap=None)
    assert set(table.algorithm) == {toy_search} and table.completed.all()
    assert table.nodes.tolist() == [8, 16, 24, 7, 14, 21]
    summary = scaling_summary(table)
    assert summary.median_nodes.tolist() == [7.5, 15.0, 22.5] and (summary.nodes_per_second > 0).all()
    capped = search_scaling(positions, [{"name": toy_search}], [1, 2, 3], time_cap=None, node_cap=16)
    assert capped.stopped_by.tolist() == ["", "", "nodes", "", "", "nodes"]  # 24 and 21 pass the cap
    assert capped.completed.tolist() == [True, True, False, True, True, False]
    deepest = search_scaling(positions[:1], [{"name": toy_search}], [9, 10, 11], time_cap=None)
    assert deepest.depth.tolist() == [9, 10]  # it takes depths up to 10
    with pytest.raises(ValueError, match="depth"):
        search_scaling(positions, [{"name": "random"}], [1])


def test_unknown_algorithm_is_named():
    with pytest.raises(ValueError, match="quicksearch"):
        search_scaling([""], ["quicksearch"], [1])


def test_peak_memory_of_the_dynamic_search_runs_in_a_subprocess():
    out = peak_memory_dynamic("", 1)
    assert out["nodes"] > 0 and out["rss_before_mb"] > 0
    assert out["search_peak_mb"] >= 0 and out["peak_minus_before_mb"] >= out["search_peak_mb"] - 1e-9
