import networkx as nx
import pytest

from fepaper.game.board import DIRECTIONS, TOP, Board
from fepaper.game.rules import PRESETS, Rules


def test_presets_match_rules_md():
    assert Rules.preset("thesis") == Rules(10, 16, 2, True, "optional", "loss")
    assert Rules.preset("standard") == Rules(8, 10, 2, False, "mandatory", "loss")
    assert Rules.preset("foo") == Rules(8, 8, 2, False, "mandatory", "draw")
    assert Rules.preset("codingame").max_turns == 66
    assert {r.name for r in PRESETS.values()} == set(PRESETS)


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"width": 9}, "width"),
        ({"height": 0}, "height"),
        ({"goal_width": 3}, "goal_width"),
        ({"width": 4, "goal_width": 6}, "goal_width"),
        ({"bounce": "sometimes"}, "bounce"),
        ({"blocked": "win"}, "blocked"),
        ({"max_turns": 0}, "max_turns"),
    ],
)
def test_invalid_rules_name_the_field(fields, field):
    with pytest.raises(ValueError, match=field):
        Rules(**fields)


def test_bounce_error_lists_allowed_values():
    with pytest.raises(ValueError, match="optional.*mandatory"):
        Rules(bounce="sometimes")


def test_from_spec_accepts_names_json_and_dicts():
    assert Rules.from_spec("standard") == PRESETS["standard"]
    r = Rules.from_spec('{"preset": "thesis", "bounce": "mandatory"}')
    assert r.bounce == "mandatory" and r.width == 10 and r.middle_line
    assert Rules.from_spec({"width": 6, "height": 8}).height == 8
    with pytest.raises(ValueError, match="unknown rules preset"):
        Rules.from_spec("chess")
    with pytest.raises(ValueError, match="unknown Rules field"):
        Rules.from_spec({"widht": 8})
    with pytest.raises(ValueError, match="valid JSON"):
        Rules.from_spec("{width: 8")


def test_thesis_board_counts():
    board = Board(Rules.preset("thesis"))
    assert board.graph.number_of_edges() == 684
    assert board.n_walls == 66
    assert board.n_nodes == 11 * 17 + 6
    assert board.kickoff == (5, 8)


def test_post_enters_goal_only_by_the_diagonal_to_the_centre():
    board = Board(Rules.preset("thesis"))
    g = board.graph
    ways_in = [q for q in g[(4, 0)] if q[1] == -1 and not g.edges[(4, 0), q]["wall"]]
    assert ways_in == [(5, -1)]
    assert not g.edges[(4, 0), (5, -1)]["wall"]
    assert g.edges[(4, 0), (4, -1)]["wall"]
    assert not g.has_edge((3, 0), (4, -1))
    assert g.has_edge((4, 0), (5, -1))


def test_goal_mouth_centre_is_not_marked_at_start():
    board = Board(Rules.preset("thesis"))
    i = board.index[(5, 0)]
    assert board.initial_marks[i] == 0
    assert board.initial_marks[board.index[(4, 0)]] != 0


def test_middle_line_marked_only_with_the_rule():
    thesis = Board(Rules.preset("thesis"))
    assert all(thesis.graph.edges[(x, 8), (x + 1, 8)]["wall"] for x in range(10))
    plain = Board(Rules.preset("thesis").replace(middle_line=False))
    assert plain.n_walls == 56
    assert not any(plain.graph.edges[(x, 8), (x + 1, 8)]["wall"] for x in range(10))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_arrays_agree_with_the_graph(name):
    board = Board(PRESETS[name])
    g = board.graph
    for i, (x, y) in enumerate(board.nodes):
        assert g.nodes[(x, y)]["index"] == i
        assert g.nodes[(x, y)]["pos"] == (x, -y)
        for d, (dx, dy) in enumerate(DIRECTIONS):
            j = board.neighbour[i, d]
            has = g.has_edge((x, y), (x + dx, y + dy))
            assert (j >= 0) == has
            assert bool(board.exists[i] >> d & 1) == has
            if has:
                data = g.edges[(x, y), (x + dx, y + dy)]
                assert board.nodes[j] == (x + dx, y + dy)
                assert board.edge_index[i, d] == data["index"]
                assert bool(board.initial_marks[i] >> d & 1) == data["wall"]
                first = min((x, y), (x + dx, y + dy))
                expected = d if first == (x, y) else (d + 4) % 8
                assert data["direction"] == expected
    # Zobrist keys are distinct
    assert len(set(board.edge_keys.tolist()) | set(board.node_keys.tolist())) == board.n_edges + board.n_nodes


def test_distances_to_goals():
    board = Board(Rules.preset("thesis"))
    k = board.kickoff_index
    # from (5, 8) to the top goal node (5, -1) is 9 steps; walls are not crossed
    assert board.goal_distance(k, 1) == 9
    assert board.goal_distance(k, 2) == 9
    assert board.goal_distance(board.index[(5, 0)], 1) == 1
    assert board.goal_distance(board.index[(0, 0)], 1) == 5
    top = [p for p in board.nodes if board.goal[board.index[p]] == TOP]
    assert all(board.goal_distance(board.index[p], 1) == 0 for p in top)


def test_graph_is_planar_lattice_with_connected_field():
    g = Board(Rules.preset("standard")).graph
    assert nx.is_connected(g)
    assert max(d for _, d in g.degree()) == 8
