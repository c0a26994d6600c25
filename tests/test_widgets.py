"""The widgets' logic without a front end: clicks and value changes are method calls."""

import json
import re
from collections import Counter

import pytest

from fepaper.controllers import REGISTRY, make
from fepaper.game.game import Game
from fepaper.notebook.compare import HUMAN, CompareWidget, PlayerPicker, RulesPicker
from fepaper.notebook.replay import ReplayWidget
from fepaper.notebook.widgets import ARROWS, BoardWidget, _node_at, branching
from fepaper.play.randomplay import random_game
from fepaper.search.reference.turns import distinct_turns

from .helpers import marked_edges, small_turn_count


def humans(rules="thesis", **kw):
    return BoardWidget(rules, HUMAN, HUMAN, delay=0, **kw)


def n_rings(widget):
    return widget.board.value.count('class="highlight"')


# -- playing ---------------------------------------------------------------------------------
def test_a_legal_click_applies_the_step_and_redraws():
    w = humans("standard")
    before = w.board.value
    assert w.click_step(0)
    assert w.game.moves == "0" and w.moves_label.value == "0"
    assert w.board.value != before and w.board.value.count('class="edge player1"') == 1
    assert w.message.value.startswith("player 1 stepped ↑")
    assert w.status_label.value.startswith("player 2 (human) to move")


def test_an_illegal_click_is_explained_and_not_applied():
    w = humans("thesis")
    assert w.pad[6].disabled and w.pad[2].disabled and not w.pad[0].disabled
    assert not w.click_step(6)
    assert "middle line" in w.message.value
    assert w.game.moves == "" and w.game.ball == (5, 8)
    assert not w.click_step("x") and "not a direction" in w.message.value
    assert not w.click_node((9, 3)) and "not next to the ball" in w.message.value
    assert not w.click_node((40, 3)) and "not a node" in w.message.value
    assert w.game.moves == ""


def test_a_click_on_a_neighbour_node_steps_there_and_on_the_ball_stops():
    w = humans("thesis")
    assert w.click_node((5, 7)) and w.game.moves == "0"
    assert w.click_node((4, 8))  # down-left onto the middle line: a bounce
    assert w.game.current == "5" and w.game.ball == (4, 8)
    assert w.click_node((4, 8)) and w.game.history == ["0", "5"]


def test_a_click_on_the_picture_finds_the_node_under_the_pointer():
    game = Game("thesis")
    # render.svg with coordinates: a margin of 0.9 square, 30 px a square, row y at y + 1
    assert _node_at(game, 27 + 5 * 30, 27 + 9 * 30, None) == (5, 8)
    assert _node_at(game, 27 + 5 * 30 + 5, 27 + 9 * 30 - 4, None) == (5, 8)
    assert _node_at(game, 27 + 5 * 30 + 15, 27 + 9 * 30, None) is None  # between two nodes
    assert _node_at(game, (27 + 4 * 30) / 2, (27 + 1 * 30) / 2, 354 / 2) == (4, 0)
    w = humans("thesis")
    w._on_board_click({"relativeX": 27 + 5 * 30, "relativeY": 27 + 8 * 30})
    assert w.game.moves == "0"


def test_stop_only_after_a_bounce_under_optional_bounce():
    w = humans("thesis")
    assert w.stop_button.disabled and not w.stop() and "before the first step" in w.message.value
    w.click_step(0)
    w.click_step(5)  # onto the middle line: bounced
    assert w.game.can_stop and not w.stop_button.disabled
    assert "may stop" in w.status_label.value
    assert w.stop() and w.game.history == ["0", "5"] and w.game.player == 1
    assert w.stop_button.disabled
    w.rules_picker.bounce.value = "mandatory"  # new rules start a new game
    assert w.game.rules.bounce == "mandatory" and w.game.moves == ""
    w.click_step(0)
    w.click_step(5)
    assert w.game.current == "5" and w.stop_button.disabled
    assert not w.stop() and "mandatory" in w.message.value
    assert w.game.current == "5" and w.game.history == ["0"]


def test_the_controller_answers_after_a_human_turn():
    spec = {"name": "random", "seed": 3}
    w = BoardWidget("standard", HUMAN, spec, delay=0)
    assert w.click_step(0)
    expected = make(spec).choose_turn(Game("standard", "0"))
    assert w.game.history == ["0", expected] and w.game.player == 1
    assert w.message.value == f"player 2 (random) played {expected}"
    assert w.go_button.disabled and not w.pad[0].disabled  # the person is to move again


def test_player_1_controller_waits_for_go_and_bad_specs_are_explained():
    w = BoardWidget("standard", {"name": "random", "seed": 1}, HUMAN, delay=0)
    assert w.game.moves == "" and not w.go_button.disabled and all(b.disabled for b in w.pad.values())
    assert not w.click_step(0) and "press ▶" in w.message.value
    w.go_button.click()
    assert len(w.game.history) == 1 and w.game.player == 2
    w.players[1].params.value = '{"seed": '
    assert "not valid JSON" in w.message.value
    w.players[1].params.value = '{"depth": 3}'
    assert "unknown parameter" in w.message.value and "depth" in w.message.value
    w.players[1].params.value = '{"seed": 2}'
    assert w.message.value == "player 1 is now random"


def test_two_controllers_play_a_game_to_its_end():
    w = BoardWidget("foo", {"name": "random", "seed": 1}, {"name": "random", "seed": 2}, delay=0)
    w.run_controllers()
    assert w.game.is_over and w.message.value.startswith("game over")
    assert w.go_button.disabled and all(b.disabled for b in w.pad.values())


def test_undo_takes_back_the_human_step_and_the_reply():
    w = BoardWidget("standard", HUMAN, {"name": "random", "seed": 3}, delay=0)
    w.click_step(0)
    assert len(w.game.history) == 2
    assert w.undo() and w.game.moves == "" and w.game.player == 1
    assert not w.undo() and w.message.value == "nothing to undo"
    w.click_step(1)
    w.undo_turn()
    assert w.game.moves == ""


def test_undo_and_undo_turn_between_two_people():
    w = humans("thesis")
    for d in (0, 5):
        w.click_step(d)
    assert w.undo() and w.game.moves == "0" and w.game.player == 2
    w.click_step(5)
    assert w.undo_turn() and w.game.moves == "0"
    assert w.undo_turn() and w.game.moves == ""
    assert w.undo_button.disabled and w.undo_turn_button.disabled


def test_the_rules_picker_follows_presets_and_the_players_list_the_registry():
    rules = RulesPicker("thesis")
    calls = []
    rules.observe(lambda: calls.append(rules.rules))
    rules.preset.value = "standard"
    assert calls == [rules.rules] and rules.bounce.value == "mandatory" and rules.rules.width == 8
    rules.bounce.value = "optional"
    assert calls[-1].bounce == "optional" and calls[-1].height == 10
    assert RulesPicker({"width": 6, "height": 8}).preset.value == "custom"
    picker = PlayerPicker({"name": "random", "seed": 5})
    assert list(picker.name.options) == [HUMAN, *sorted(REGISTRY)]
    assert picker.spec == {"name": "random", "seed": 5} and json.loads(picker.params.value) == {"seed": 5}
    picker.params.value = "[1]"
    with pytest.raises(ValueError, match="JSON object"):
        _ = picker.spec
    with pytest.raises(ValueError, match="unknown controller"):
        PlayerPicker("no-such-player")


# -- replay and branching ---------------------------------------------------------------------
def test_replay_slider_positions_give_the_game_states_of_the_record():
    full = random_game("standard", seed=1)
    record = " ".join(full.history)
    w = ReplayWidget(record, "standard")
    assert w.slider.max == len(full.history) and w.game.moves == ""
    for k in (0, 1, len(full.history) // 2, len(full.history)):
        w.slider.value = k
        expected = Game("standard", " ".join(full.history[:k]))
        assert w.game.moves == expected.moves and w.game.ball == expected.ball
        assert (w.game.marks == expected.marks).all() and w.game.player == expected.player
    assert w.game.is_over and w.turn_count_label.value.startswith("game over")
    long_turn = next(k for k, t in enumerate(full.history) if len(t) >= 2)
    w.slider.value = long_turn
    assert w.step_slider.max == len(full.history[long_turn]) - 1 and not w.step_slider.disabled
    w.step_slider.value = 1
    assert w.game.current == full.history[long_turn][0]
    assert w.depth_label.value.startswith("bounce depth 1")


def test_replay_reads_json_records_and_rejects_bad_ones():
    w = ReplayWidget('{"rules": "thesis", "moves": "0 54"}', "standard")
    assert w.rules.name == "thesis" and w.slider.max == 2
    assert not w.set_record("0 54 0")
    assert "turn 3, step 1" in w.message.value and w.slider.max == 2 and w.turns == ["0", "54"]
    assert not w.set_record("0 5x")
    assert "not a step digit" in w.message.value and w.turns == ["0", "54"]


def test_the_rings_are_the_end_nodes_of_the_distinct_turns():
    w = ReplayWidget("0 54", "thesis")
    for k in (0, 1, 2):
        w.slider.value = k
        ends = {t.end for t in w.game.turns()}
        count = w.game.turns().count()
        assert sorted(ends) == w.highlighted and n_rings(w) == len(ends)
        assert w.turn_count_label.value.startswith(f"{count} distinct turns, ending on {len(ends)} nodes")
    w.show_turns.value = False
    assert n_rings(w) == 0 and w.highlighted == []
    b = humans("thesis")
    assert n_rings(b) == 6 and b.depth_label.value.startswith("bounce depth 0")


def test_each_ring_says_how_many_turns_end_there_as_the_twin_counts_them():
    shared = []  # records of positions where several turns end on one node
    for seed in range(6):
        full = random_game("thesis", seed=seed)
        for k in range(0, len(full.history), 7):
            game = Game("thesis", " ".join(full.history[:k]))
            if game.is_over or not 0 <= small_turn_count(game, 5_000) <= 5_000:  # drawn: at most draw_cap
                continue
            info = branching(game)
            twin = Counter(end for end, _ in distinct_turns(game.board, marked_edges(game), game.ball))
            assert info.per_end == dict(twin) and sum(info.per_end.values()) == info.count
            if max(info.per_end.values()) > 1:
                shared.append(" ".join(full.history[:k]))
    assert shared
    w = ReplayWidget(shared[0], "thesis")
    w.slider.value = w.slider.max
    numbers = re.findall(r'class="ring-count"[^>]*>(\d+)</text>', w.board.value)
    assert sorted(map(int, numbers)) == sorted(w.ring_counts.values()) and len(numbers) == n_rings(w)
    assert max(w.ring_counts.values()) > 1
    assert "the number by a ring: the turns that end there" in w.turn_count_label.value
    w.show_turns.value = False
    assert 'class="ring-count"' not in w.board.value and w.ring_counts == {}


def test_a_huge_position_is_counted_up_to_a_cap_and_not_drawn():
    full = random_game("thesis", seed=0)
    w = ReplayWidget(" ".join(full.history), "thesis")
    w.slider.value = 36  # found by search: the walk passes 200,000 states here
    assert w.game.turns().count(limit=200_000) == -1
    assert w.turn_count_label.value.startswith("more than 200,000 distinct turns: too many to count")
    assert "95% interval" in w.turn_count_label.value
    assert w.highlighted == [] and n_rings(w) == 0 and 'class="heat"' not in w.board.value
    small = branching(Game("thesis", "0 54"), draw_cap=10)
    assert small.count == 16 and small.ends == [] and "too many to ring (more than 10)" in small.text
    assert sum(small.per_end.values()) == 16
    mandatory = branching(Game({"preset": "thesis", "bounce": "mandatory"}), max_states=3)
    assert mandatory.count is None and mandatory.estimate.low >= 4 and "more than 3" in mandatory.text


def test_the_heat_map_counts_the_turns_ending_at_each_node():
    w = ReplayWidget("0 54 1", "thesis")
    w.slider.value = 3
    heat: dict = {}
    for t in w.game.turns():
        heat[t.end] = heat.get(t.end, 0) + 1
    assert w.heat == heat and w.board.value.count('class="heat"') == len(heat)
    for node, n in heat.items():
        assert f"{n:,} distinct turn{'s' * (n != 1)} end at {node}" in w.board.value


# -- comparison ---------------------------------------------------------------------------------
def test_the_comparison_run_fills_the_table_and_the_plot():
    w = CompareWidget({"name": "random", "seed": 1}, {"name": "random", "mode": "turns"}, rules="foo",
                      games=4, seed=2)
    assert w.table.value == "" and w.summary is None
    w.run_button.click()
    s = w.summary
    assert s["games"] == 4 and s["wins_a"] + s["wins_b"] + s["draws"] == 4
    assert "<table" in w.table.value and "95% interval" in w.table.value
    assert "random(mode=turns, stop_probability=0.5)" in w.table.value
    assert f"<td>{s['wins_a']}</td>" in w.table.value
    assert len(w.figure.axes[0].patches) == 2
    assert w.plot.outputs[0]["data"]["image/png"].startswith("iVBOR")  # a PNG, base64
    assert w.message.value == "4 games played (foo, seed 2)"
    w.players["B"].params.value = "{bad"
    assert w.run() is None and "B params: not valid JSON" in w.message.value


def test_the_arrows_follow_the_directions():
    assert ARROWS[0] == "↑" and ARROWS[2] == "→" and ARROWS[4] == "↓" and ARROWS[6] == "←"


# -- what a reader sees -------------------------------------------------------------------------
def test_a_human_has_no_params_box_and_a_controller_an_empty_one_that_reads_as_defaults():
    w = BoardWidget("standard", HUMAN, "random", delay=0)
    human, bot = w.players[1], w.players[2]
    assert human.params.layout.display == "none" and human.params.disabled
    assert bot.params.layout.display != "none" and bot.params.value == ""
    assert not bot.params.placeholder.lstrip().startswith("{")  # an instruction, not a value
    assert "defaults" in bot.params.placeholder and "stop_probability" in bot.params.tooltip
    human.name.value = "greedy"
    assert human.params.layout.display != "none" and not human.params.disabled


def test_a_bad_spec_is_explained_under_its_own_field_and_cleared_when_fixed():
    w = BoardWidget("standard", HUMAN, "random", delay=0)
    picker = w.players[2]
    picker.params.value = '{"depth": 3}'
    assert "unknown parameter" in picker.error.value and "depth" in picker.error.value
    assert w.players[1].error.value == ""
    picker.params.value = '{"seed": 4}'
    assert picker.error.value == ""
    picker.params.value = '{"seed": '
    w.click_step(0)  # the controller's turn: it cannot be built, the options open on the reason
    assert "not valid JSON" in picker.error.value and "see the options" in w.message.value
    assert w.options.selected_index == 0


def test_long_messages_wrap_and_keep_their_text():
    w = humans("thesis")
    w.click_step(6)
    assert type(w.message).__name__ == "TextLine" and "middle line" in w.message.value
    assert type(w.turn_count_label).__name__ == "TextLine"  # "... (ringed; the number by a ring: ...)"
    w.message.value = "a < b & c"
    assert w.message.value == "a &lt; b &amp; c"  # shown as the text it is, never as markup


def test_the_enabled_stop_button_is_coloured_the_disabled_one_is_not():
    w = humans("thesis")
    assert w.stop_button.disabled and w.stop_button.button_style == ""
    w.click_step(0)
    w.click_step(5)  # onto the middle line: a bounce under optional bounce, player 2 may stop
    assert not w.stop_button.disabled and w.stop_button.button_style == "warning"
    assert "may end your turn" in w.stop_button.tooltip
    w.stop()
    assert w.stop_button.disabled and w.stop_button.button_style == ""


def test_the_replay_shows_the_whole_of_a_long_record_and_where_it_is():
    full = random_game("thesis", seed=0)
    w = ReplayWidget(" ".join(full.history), "thesis")
    w.slider.value = 3
    view = w.record_view.value
    assert all(turn in view for turn in full.history)  # nothing cut off, however long
    assert f"<b><u></u>{full.history[3]}</b>" in view
    assert w.record_view.layout.overflow == "auto"
    assert not w.set_record("0 5x") and "not a step digit" in w.load_message.value
    assert w.set_record("0 54") and w.load_message.value == ""


def test_widgets_carry_a_static_picture_for_saved_notebooks_and_the_report():
    w = humans("thesis")
    w.click_step(0)
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"].count("<svg") == 1 and "record: 0" in bundle["text/html"]
    replay = ReplayWidget("0 54", "thesis")
    assert "<svg" in replay._repr_mimebundle_()["text/html"]
    compare = CompareWidget("random", {"name": "random", "mode": "turns"}, rules="foo", games=2)
    compare.run()
    snapshot = compare._repr_mimebundle_()["text/html"]
    assert "<table" in snapshot and "data:image/png;base64," in snapshot


def test_the_preview_shows_the_next_position_of_a_picked_turn_without_playing_it():
    w = BoardWidget("standard", HUMAN, HUMAN, moves="2 4 6 7 1", delay=0)
    before = w.game.moves
    turns = list(w.game.turns())
    listed = [value for _, value in w.preview.picker.options if value]
    assert sorted(listed) == sorted(t.steps for t in turns)
    pick = listed[len(listed) // 2]
    w.preview.picker.value = pick
    after = Game("standard", f"{before} {pick}")
    assert w.preview.info.count == after.turns().count()
    assert sum(w.preview.info.per_end.values()) == after.turns().count()
    assert f"after {pick}" in w.preview.text.value and "<svg" in w.preview.board.value
    assert w.game.moves == before  # nothing played
    w.preview.picker.value = ""
    assert w.preview.board.value == "" and w.preview.info is None


def test_the_preview_of_a_turn_in_progress_includes_stopping():
    w = BoardWidget({"preset": "thesis", "width": 4, "height": 6}, HUMAN, HUMAN, delay=0)
    game = Game({"preset": "thesis", "width": 4, "height": 6})
    while not game.can_stop:  # find a bounce under optional bounce by random steps
        if game.is_over:
            game = Game(game.rules)
        steps = game.legal_steps()
        game.step(steps[len(game.moves) % len(steps)])
    w.game = game
    w._refresh()
    values = [value for _, value in w.preview.picker.options if value]
    assert "stop" in values
    w.preview.picker.value = "stop"
    assert w.preview.info is not None and w.game.moves == game.moves and w.game.current == game.current


def test_the_preview_says_when_a_position_has_too_many_turns_to_list(monkeypatch):
    from fepaper.notebook import branching as B

    monkeypatch.setattr(B, "PREVIEW_LIST", 3)
    w = BoardWidget("thesis", HUMAN, HUMAN, delay=0)
    assert w.preview.picker.disabled and "too many turns" in w.preview.text.value
