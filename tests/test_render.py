"""The pictures of fepaper.game.render: SVG structure and the matplotlib twin."""

import xml.etree.ElementTree as ET

import matplotlib
import pytest

from fepaper.game import render
from fepaper.game.board import Board
from fepaper.game.game import Game
from fepaper.game.rules import Rules

matplotlib.use("Agg")

NS = "{http://www.w3.org/2000/svg}"
PRESETS = ["thesis", "standard", "foo"]


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    """Elements whose class list contains ``cls``."""
    return [el for el in root.iter() if cls in el.get("class", "").split()]


def square_of(root: ET.Element):
    """The SVG (x, y) of node (0, 0) and the size of a square, read off the field rect."""
    field = by_class(root, "field")[0]
    return float(field.get("x")), float(field.get("y")), float(field.get("width"))


def node_at(root: ET.Element, rules: Rules, x: float, y: float) -> tuple[float, float]:
    """The board node drawn at SVG point (x, y)."""
    x0, y0, field_width = square_of(root)
    s = field_width / rules.width
    return (x - x0) / s, (y - y0) / s


def segment(root, el, rules):
    a = node_at(root, rules, float(el.get("x1")), float(el.get("y1")))
    b = node_at(root, rules, float(el.get("x2")), float(el.get("y2")))
    return frozenset({(round(a[0]), round(a[1])), (round(b[0]), round(b[1]))})


def test_opening_edges_have_their_players_colours():
    game = Game("thesis", "0 54")
    root = parse(render.svg(game))
    assert root.tag == f"{NS}svg"
    p1, p2 = by_class(root, "player1"), by_class(root, "player2")
    assert len(by_class(root, "edge")) == 3
    assert len(p1) == 1 and len(p2) == 2
    assert {el.get("stroke") for el in p1} == {render.DEFAULT_COLORS["player1"]}
    assert {el.get("stroke") for el in p2} == {render.DEFAULT_COLORS["player2"]}
    rules = game.rules
    assert {segment(root, el, rules) for el in p1} == {frozenset({(5, 8), (5, 7)})}
    assert {segment(root, el, rules) for el in p2} == {
        frozenset({(5, 7), (4, 8)}),
        frozenset({(4, 8), (4, 9)}),
    }


def test_ball_is_drawn_on_the_ball_node():
    game = Game("thesis", "0 54")
    root = parse(render.svg(game))
    (ball,) = by_class(root, "ball")
    assert node_at(root, game.rules, float(ball.get("cx")), float(ball.get("cy"))) == (4, 9)
    assert ball.get("fill") == render.DEFAULT_COLORS["ball"]
    # The ring says whose turn it is: player 1 after "0 54".
    assert ball.get("stroke") == render.DEFAULT_COLORS["player1"]


def test_y_grows_downward():
    rules = Rules.preset("thesis")
    root = parse(render.svg(Board.of(rules)))
    top_goal, bottom_goal = by_class(root, "goal")
    assert float(top_goal.get("y")) < float(bottom_goal.get("y"))
    (ball,) = by_class(root, "ball")
    assert node_at(root, rules, float(ball.get("cx")), float(ball.get("cy"))) == (5, 8)


@pytest.mark.parametrize("preset", PRESETS)
def test_empty_board_structure(preset):
    rules = Rules.preset(preset)
    board = Board.of(rules)
    root = parse(render.svg(board))
    walls = by_class(root, "wall")
    middle = by_class(root, "middle-line")
    assert len(walls) == board.n_walls
    assert {segment(root, el, rules) for el in walls} == {
        frozenset(board.edges[e]) for e in range(board.n_edges) if board.is_wall[e]
    }
    assert len(middle) == (rules.width if rules.middle_line else 0)
    assert all(segment(root, el, rules) <= {(x, rules.height // 2) for x in range(rules.width + 1)}
               for el in middle)
    assert len(by_class(root, "goal")) == 2
    assert len(by_class(root, "node")) == board.n_nodes
    assert by_class(root, "edge") == []
    assert len(by_class(root, "coord")) == (rules.width + 1) + (rules.height + 1)


def test_wall_counts_of_the_presets():
    counts = {p: len(by_class(parse(render.svg(Board.of(Rules.preset(p)))), "wall")) for p in PRESETS}
    assert counts["thesis"] == 66
    assert counts["standard"] == 40


def test_middle_line_only_when_the_rules_have_one():
    with_line = parse(render.svg(Game({"preset": "standard", "middle_line": True})))
    without = parse(render.svg(Game({"preset": "thesis", "middle_line": False})))
    assert len(by_class(with_line, "middle-line")) == 8
    assert by_class(without, "middle-line") == []
    assert len(by_class(without, "wall")) == 66 - 10


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_mid_game(preset):
    game = Game(preset)
    game.play("0 2")
    root = parse(render.svg(game))
    assert len(by_class(root, "edge")) == 2
    assert len(by_class(root, "player1")) == 1 and len(by_class(root, "player2")) == 1


def test_mid_turn_game():
    game = Game("thesis", "0")
    game.step(5)  # onto the middle line: a bounce, player 2 still to move
    assert game.bouncing
    root = parse(render.svg(game))
    (ball,) = by_class(root, "ball")
    assert node_at(root, game.rules, float(ball.get("cx")), float(ball.get("cy"))) == (4, 8)
    assert ball.get("stroke") == render.DEFAULT_COLORS["player2"]
    assert len(by_class(root, "player2")) == 1


def test_highlight_circles():
    game = Game("thesis", "0")
    ends = [turn.end for turn in game.turns()]
    root = parse(render.svg(game, highlight=ends))
    rings = by_class(root, "highlight")
    assert len(rings) == len(set(ends)) < len(ends)  # repeats are drawn once
    drawn = {node_at(root, game.rules, float(el.get("cx")), float(el.get("cy"))) for el in rings}
    assert drawn == set(ends)
    assert by_class(parse(render.svg(game)), "highlight") == []


def test_highlight_off_the_board_is_an_error():
    with pytest.raises(ValueError, match=r"\(20, 20\)"):
        render.svg(Game("thesis"), highlight=[(20, 20)])


def test_options():
    game = Game("thesis", "0 54")
    plain = parse(render.svg(game, coordinates=False))
    assert by_class(plain, "coord") == []
    sized = parse(render.svg(game, size=200))
    assert sized.get("width") == "200"
    assert float(sized.get("height")) > 200
    assert sized.get("viewBox") == parse(render.svg(game)).get("viewBox")
    recoloured = parse(render.svg(game, colors={"player1": "#00ff00"}))
    assert by_class(recoloured, "player1")[0].get("stroke") == "#00ff00"
    with pytest.raises(ValueError, match="colour key"):
        render.svg(game, colors={"player3": "#000"})
    with pytest.raises(TypeError, match="Game or Board"):
        render.svg("thesis")


def test_deterministic_and_repr_svg():
    a, b = Game("thesis", "0 54"), Game("thesis", "0 54")
    assert render.svg(a) == render.svg(b)
    assert a._repr_svg_() == render.svg(a)
    assert render.svg(Board.of(Rules.preset("thesis"))) == render.svg(Board.of(Rules.preset("thesis")))


def segments_by_gid(ax) -> dict[str, int]:
    from matplotlib.collections import LineCollection

    return {c.get_gid(): len(c.get_segments()) for c in ax.collections if isinstance(c, LineCollection)}


def test_draw_returns_axes_with_one_segment_per_edge():
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    ax = render.draw(Game("thesis", "0 54"), highlight=[(5, 6), (6, 6)])
    try:
        assert isinstance(ax, Axes)
        assert segments_by_gid(ax) == {"wall": 56, "middle-line": 10, "player1": 1, "player2": 2}
        assert ax.yaxis_inverted()
        assert ax.get_aspect() == 1.0
        (ring,) = [c for c in ax.collections if c.get_gid() == "highlight"]
        assert len(ring.get_offsets()) == 2
        (ball,) = [c for c in ax.collections if c.get_gid() == "ball"]
        assert tuple(ball.get_offsets()[0]) == (4, 9)
    finally:
        plt.close(ax.figure)


@pytest.mark.parametrize("preset", PRESETS)
def test_draw_on_given_axes(preset):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2)
    try:
        board = Board.of(Rules.preset(preset))
        ax = render.draw(board, ax=axes[1])
        assert ax is axes[1]
        assert sum(segments_by_gid(ax).values()) == board.n_walls
        assert len(axes[0].collections) == 0
    finally:
        plt.close(fig)


def test_the_middle_line_is_drawn_as_marked_as_the_walls_are():
    root = parse(render.svg(Game("thesis")))
    (wall_style,) = {(el.get("stroke"), el.get("stroke-width")) for el in root.iter()
                     if el.get("class") == "wall"}
    middle_style = {(el.get("stroke"), el.get("stroke-width")) for el in by_class(root, "middle-line")}
    assert middle_style == {wall_style}


def test_legend_only_when_asked_and_ringed_turns_only_when_drawn():
    game = Game("thesis", "0 54")
    assert by_class(parse(render.svg(game)), "legend") == []
    texts = [" ".join(el.itertext()) for el in by_class(parse(render.svg(game, legend=True)), "legend")]
    assert len(texts) == 4 and "player 1" in texts[0] and "player 2" in texts[1] and "middle line" in texts[2]
    ringed = by_class(parse(render.svg(game, legend=True, highlight=[(5, 6)])), "legend")
    assert len(ringed) == 5
    # the legend goes under the board: the board's coordinates do not move
    plain, with_legend = parse(render.svg(game)), parse(render.svg(game, legend=True))
    assert square_of(plain) == square_of(with_legend)
    assert float(with_legend.get("height")) > float(plain.get("height"))


def test_draw_legend_names_the_players_colours():
    import matplotlib.pyplot as plt

    ax = render.draw(Game("thesis", "0 54"), legend=True)
    try:
        legend = ax.get_legend()
        labels = [t.get_text() for t in legend.get_texts()]
        colours = [h.get_color() for h in legend.legend_handles[:2]]
        assert labels[0].startswith("player 1") and labels[1].startswith("player 2")
        assert colours == [render.DEFAULT_COLORS["player1"], render.DEFAULT_COLORS["player2"]]
    finally:
        plt.close(ax.figure)
    assert len(render.legend_handles(highlight=True)) == 5
