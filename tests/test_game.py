import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper.game.game import Game, IllegalStep, IllegalTurn, InvalidRecord, Result

from .helpers import SMALL_RULES


def snapshot(game):
    return (game.marks.copy().tolist(), game.owner.copy().tolist(), int(game.key), game.ball_index,
            game.player, list(game.history), game.current, game.result)


def test_thesis_opening_example():
    game = Game("thesis")
    assert game.legal_steps() == [0, 1, 3, 4, 5, 7]  # not along the middle line
    game.step(0)
    assert game.player == 2 and game.ball == (5, 7)
    game.step(5)  # lands on the middle line: a bounce
    assert game.player == 2 and game.bouncing and game.can_stop
    assert sorted(game.legal_steps()) == [0, 3, 4, 5, 7]  # up, down, up-left, down-left, down-right
    game.step(4)
    assert game.player == 1 and game.ball == (4, 9) and game.moves == "0 54"


def test_error_names_turn_step_and_reason_and_changes_nothing():
    game = Game("thesis", "0")
    before = snapshot(game)
    with pytest.raises(IllegalTurn, match=r"turn 2, step 2: direction 6 \(left\) from \(4, 8\) runs along the middle line"):
        game.play("56")
    assert snapshot(game) == before
    with pytest.raises(IllegalTurn, match=r"turn 3, step 1: .* runs along an edge already marked"):
        game.play("54 0")
    assert snapshot(game) == before
    with pytest.raises(IllegalTurn, match=r"turn 2, step 2: the turn ended after step 1 on the unmarked node \(6, 6\)"):
        game.play("11")
    with pytest.raises(IllegalStep, match="leaves the field"):
        Game("thesis", "0 54 6 6 6 6").step(6)
    with pytest.raises(IllegalStep, match="not a direction"):
        game.step(8)
    with pytest.raises(InvalidRecord, match="'9' in '59' is not a step digit"):
        game.play("59")
    assert snapshot(game) == before


def test_mandatory_bounce_cannot_stop():
    game = Game({"preset": "thesis", "bounce": "mandatory"}, "0")
    game.step(5)
    assert game.bouncing and not game.can_stop
    with pytest.raises(IllegalStep, match="mandatory"):
        game.stop()
    game2 = Game({"preset": "thesis", "bounce": "mandatory"}, "0")
    with pytest.raises(IllegalTurn, match="turn 2: ends on a bounce at \\(4, 8\\), but the bounce is mandatory"):
        game2.play("5")
    assert game2.moves == "0"


def test_optional_bounce_stop_via_play():
    game = Game("thesis", "0 5")
    assert game.player == 1 and game.ball == (4, 8) and game.history == ["0", "5"]


def test_scoring_up_the_middle_small_board():
    game = Game({"width": 4, "height": 4, "middle_line": False, "bounce": "mandatory"})
    game.play("0")  # (2, 2) -> (2, 1)
    game.step(1)  # (2, 1) -> (3, 0): a post, marked by the walls: a bounce
    assert game.player == 2 and game.bouncing
    game.step(7)  # (3,0) -> (2,-1): player 2 scores in the top goal: an own goal
    assert game.result == Result(1, "own goal")
    assert game.is_over and game.legal_steps() == []
    with pytest.raises(IllegalStep, match="the game is over"):
        game.step(0)


def test_a_dead_end_under_optional_bounce_by_the_dead_end_rule():
    rules = {"width": 4, "height": 4, "middle_line": False, "bounce": "optional"}
    game = Game({**rules, "dead_end": "stop"}, "7")
    game.step(7)  # player 2: (1, 1) -> (0, 0), a corner: a bounce onto a dead end
    assert game.result == Result(2, "blocked") and game.player == 1  # player 1 cannot move
    assert game.history == ["7", "7"]
    game = Game(rules, "7")  # dead_end="blocked", the default: the mover is blocked there
    game.step(7)
    assert game.result == Result(1, "blocked") and game.player == 2
    assert game.history == ["7", "7"]


def test_dead_end_rule_is_validated():
    with pytest.raises(ValueError, match="dead_end"):
        Game({"bounce": "mandatory", "dead_end": "stop"})
    with pytest.raises(ValueError, match="dead_end must be one of"):
        Game({"dead_end": "loss"})


def test_blocked_mandatory_mover_loses_and_draw_rule():
    rules = {"width": 4, "height": 4, "middle_line": False, "bounce": "mandatory"}
    game = Game(rules, "7")
    game.step(7)
    assert game.result == Result(1, "blocked")
    game = Game({**rules, "blocked": "draw"}, "7")
    game.step(7)
    assert game.result == Result(None, "blocked")


def test_turn_limit_draws():
    game = Game({"preset": "standard", "max_turns": 2}, "0 0")
    assert game.result == Result(None, "turn limit")


def test_records_round_trip_and_errors():
    game = Game("standard", "0 0 1")
    again = Game.from_json(game.to_json())
    assert again.moves == game.moves and again.rules == game.rules
    assert np.array_equal(again.marks, game.marks)
    assert json.loads(game.to_json())["rules"]["width"] == 8
    assert eval(repr(game), {"Game": Game}).moves == "0 0 1"
    with pytest.raises(InvalidRecord, match="not valid JSON"):
        Game.from_json("{moves:")
    with pytest.raises(InvalidRecord, match="unknown record field"):
        Game.from_json({"moves": "0", "mvoes": ""})
    with pytest.raises(InvalidRecord, match="record rules: .*bounce"):
        Game.from_json({"rules": {"bounce": "x"}, "moves": "0"})
    with pytest.raises(IllegalTurn, match="turn 2, step 1"):
        Game.from_json({"rules": "thesis", "moves": "0 4"})


def test_graph_carries_marks():
    game = Game("thesis", "0 54")
    g = game.graph
    assert g.graph["ball"] == (4, 9)
    assert g.edges[(5, 8), (5, 7)]["player"] == 1
    assert g.edges[(5, 7), (4, 8)]["player"] == 2
    assert sum(1 for *_, m in g.edges(data="marked") if m) == 66 + 3
    assert not game.board.graph.edges[(5, 8), (5, 7)].get("marked", False)


def test_copy_is_independent():
    game = Game("thesis", "0")
    other = game.copy()
    other.play("54")
    assert game.moves == "0" and other.moves == "0 54"
    other.undo()
    assert other.bouncing


def test_undo_turn():
    game = Game("thesis", "0 54")
    game.undo_turn()
    assert game.moves == "0"
    game.step(5)
    game.undo_turn()
    assert game.moves == "0" and not game.current
    with pytest.raises(IndexError):
        Game("thesis").undo()


@given(st.sampled_from(SMALL_RULES + ["thesis", "standard", "foo"]), st.integers(0, 10**6),
       st.integers(1, 60))
def test_undo_restores_exactly(rules, seed, n_steps):
    rng = np.random.default_rng(seed)
    game = Game(rules)
    before = snapshot(game)
    done = 0
    for _ in range(n_steps):
        if game.is_over:
            break
        if game.can_stop and rng.random() < 0.3:
            game.stop()
        else:
            steps = game.legal_steps()
            game.step(int(rng.choice(steps)))
        done += 1
    mid = snapshot(game)
    replay = Game(rules)
    for token in game.moves.split():
        for c in token:
            replay.step(c)
        if replay.current and replay.can_stop:
            replay.stop()
    assert replay.moves == game.moves
    for _ in range(done):
        game.undo()
    assert snapshot(game) == before
    assert mid[4] in (1, 2)


def test_turn_view_contains_and_iterates():
    game = Game("thesis", "0")
    turns = list(game.turns())
    assert len(turns) == game.turns().count() == 17
    assert "54" in game.turns() and "5" in game.turns() and "4" not in game.turns()
    assert "545" not in game.turns()
    assert {t.kind for t in turns} <= {"end", "stop", "goal", "blocked"}
    game.step(5)
    mid = list(game.turns())
    assert mid[0].steps == "" and mid[0].kind == "stop"
    assert len(mid) == game.turns().count()
