"""The Aboyne widget's logic without a front end: clicks and value changes are method calls."""

import pytest

from fepaper.games.aboyne import INDEX, Aboyne
from fepaper.games.aboyne_draw import centre
from fepaper.notebook.aboyneboard import PLAYERS, AboyneWidget


def humans(**kw):
    return AboyneWidget("human", "human", **kw)


def rings(w):
    return w.board.value.count('class="target"')


def test_a_click_on_a_stone_rings_its_targets_and_a_click_on_one_plays_it():
    w = humans()
    assert rings(w) == 0
    assert w.click_cell("d1") and w.selected == INDEX["d1"]
    assert sorted(w.targets_text()) == ["d2", "f3"] and rings(w) == 2  # a step and a jump over e2
    assert w.board.value.count('class="selected"') == 1
    assert w.click_cell("f3")
    assert w.game.moves == "d1-f3" and w.moves_label.value == "d1-f3" and rings(w) == 0
    assert w.status_label.value.startswith("blue (human) to move")


def test_clicks_that_do_nothing_say_why_and_change_nothing():
    w = humans()
    assert not w.click_cell("e8") and "holds no red stone" in w.message.value
    assert w.click_cell("e2") and not w.click_cell("e5")
    assert "e2-e5 is illegal" in w.message.value and "broken at e3" in w.message.value
    assert not w.click_cell("j7") and "not a cell" in w.message.value
    assert w.game.moves == ""
    # a blocked stone can be selected but has nowhere to go
    w = AboyneWidget("human", "human", moves="e2-e3 e8-e7 e3-e4 e7-e6 e4-e5")
    assert w.click_cell("e6") and w.targets_text() == [] and "blocked" in w.message.value


def test_the_search_answers_and_undo_takes_back_to_the_persons_turn():
    for who in PLAYERS[1:]:
        w = AboyneWidget("human", who, depth=1, iterations=30, seed=2)
        assert w.move("e2-e3")
        assert len(w.game.history) == 2 and w.status_label.value.startswith("red (human)")
        assert w.undo() and w.game.moves == ""
    assert not w.undo() and w.message.value == "nothing to undo"


def test_a_typed_move_is_checked():
    w = humans()
    assert not w.move("e2e3") and "malformed" in w.message.value
    assert not w.move("e8-e7") and "e8 holds a blue stone" in w.message.value
    w.typed.value = "e2-e3"
    assert w.game.moves == "e2-e3"


def test_two_searches_play_a_game_to_its_end_on_play():
    w = AboyneWidget("random", "alpha-beta", depth=1, seed=3, max_plies=60)
    assert w.game.moves == "" and not w.go_button.disabled  # nothing plays before the widget is shown
    w.run_computers()
    assert w.game.is_terminal() and "game over" in w.message.value
    assert w.go_button.disabled and not w.click_cell("e2")
    assert "game over" in w.snapshot_html()


def test_a_click_on_the_picture_reaches_the_cell_under_the_pointer():
    w = humans(size=400)
    scale = 400 / float(w.board.value.split('viewBox="0 0 ')[1].split()[0])
    x, y = centre(INDEX["e2"])
    w._on_board_click({"relativeX": x * scale, "relativeY": y * scale})
    assert w.selected == INDEX["e2"]
    w._on_board_click({"relativeX": 0, "relativeY": 0})  # off the board: nothing
    assert w.selected == INDEX["e2"]


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="red must be one of"):
        AboyneWidget("person")
    with pytest.raises(ValueError, match="heuristic"):
        AboyneWidget(heuristic="mine")


def test_the_snapshot_shows_the_board_without_a_kernel():
    w = humans(moves="e2-e3")
    bundle = w._repr_mimebundle_()
    assert "<svg" in bundle["text/html"] and "record: e2-e3" in bundle["text/html"]
    assert Aboyne("e2-e3")._repr_svg_() in bundle["text/html"]  # the board of that position
