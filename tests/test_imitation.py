"""The decisions of a named side, with turns it did not choose, and the fit that learns from them."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fepaper.codingame.referee import training_rows
from fepaper.experiments.imitation import choice_loss, choice_rows, choices
from fepaper.experiments.valuefit import positions, train
from fepaper.game.game import Game

SELFPLAY = Path(__file__).parents[1] / "data" / "08_engine_selfplay" / "qtpapersoccer_4turn.jsonl"
AGAINST_QT = Path(__file__).parents[1] / "data" / "08_referee_qtpapersoccer.jsonl"


@pytest.fixture(scope="module")
def qt_games():
    rows, opening = training_rows([SELFPLAY])
    return rows[:6], opening[:6]


def test_each_decision_is_the_chosen_position_then_others_after_legal_turns(qt_games):
    rows, _ = qt_games
    made = choices(rows, {"qt_a", "qt_b"}, sample=8, seed=3)
    pos = positions(rows)
    decisions = np.unique(made["decision"])
    assert len(decisions) > 100
    checked = 0
    for d in decisions:
        at = np.flatnonzero(made["decision"] == d)
        assert np.all(np.diff(at) == 1) and 2 <= len(at) <= 8  # consecutive, the chosen and 1 .. 7 others
        assert made["chosen"][at].tolist() == [1] + [0] * (len(at) - 1)
        game, row = Game("codingame"), rows[pos["game"][d]]
        turns = row["moves"].split()
        before = int(pos["played"][d])
        for turn in turns[:before]:
            game.push(turn)
        assert before >= row["opening_turns"]  # no opening turn is a decision
        assert np.array_equal(game.marks, pos["marks"][d]) and game.player == pos["mover"][d]
        after = game.copy()
        after.push(turns[before])
        assert made["ball"][at[0]] == after.ball_index and np.array_equal(made["marks"][at[0]], after.marks)
        assert set(made["mover"][at]) == {3 - game.player} and set(made["played"][at]) == {before + 1}
        if game.turns().count(limit=3000) > 0 and checked < 40:  # the slow reference: every turn, one by one
            reachable = set()
            for turn in game.turns():
                trial = game.copy()
                trial.push(turn.steps)
                if not trial.is_over:
                    reachable.add((trial.ball_index, trial.marks.tobytes()))
            assert all((made["ball"][i], made["marks"][i].tobytes()) in reachable for i in at)
            assert len({(made["ball"][i], made["marks"][i].tobytes()) for i in at}) == len(at)  # distinct
            checked += 1
    assert checked == 40


def test_only_the_named_sides_turns_are_decisions():
    rows, _ = training_rows([AGAINST_QT])
    rows = rows[:4]
    pos = positions(rows)
    made = choices(rows, {"qtpapersoccer"})
    for d in np.unique(made["decision"]):
        row = rows[pos["game"][d]]
        qt_player = 3 - row["a_player"]  # side B of the file is the engine
        assert pos["mover"][d] == qt_player
    assert len(choices(rows, {"fepaper_bestfirst"})["chosen"]) > 0
    assert len(choices(rows, {"nobody"})["chosen"]) == 0
    with pytest.raises(ValueError, match="sample"):
        choices(rows, {"qtpapersoccer"}, sample=1)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(2, 6), min_size=1, max_size=5), st.integers(0, 10**6), st.floats(0.5, 8.0))
def test_the_choice_loss_gradient_matches_finite_differences(sizes, seed, beta):
    rng = np.random.default_rng(seed)
    first = np.cumsum([0] + sizes[:-1])
    rows, which = choice_rows(np.asarray(first), np.asarray(sizes))
    assert rows.tolist() == list(range(sum(sizes)))
    chosen = np.zeros(sum(sizes), np.int8)
    chosen[first] = 1
    y = rng.uniform(-0.9, 0.9, sum(sizes)).astype(np.float64)
    loss, grad, agree = choice_loss(y, chosen, which, len(sizes), beta)
    assert 0 <= agree <= len(sizes)
    eps = 1e-5
    for i in range(len(y)):
        up, down = y.copy(), y.copy()
        up[i] += eps
        down[i] -= eps
        numeric = (choice_loss(up, chosen, which, len(sizes), beta)[0]
                   - choice_loss(down, chosen, which, len(sizes), beta)[0]) / (2 * eps)
        assert grad[i] == pytest.approx(numeric, rel=1e-2, abs=1e-4)


def test_a_fit_that_imitates_reports_its_choices_and_needs_named_sides(tmp_path, qt_games):
    rows, opening = qt_games
    result = train(tmp_path / "net.npz", epochs=2, hidden=(8, 4), seed=0, given=(rows, opening), progress=False,
                   imitate=("qt_a", "qt_b"), sample=4)
    for row in result.history:
        assert row["choice"] > 0 and row["choice_validation"] > 0 and row["choice_uniform"] > 0 and 0 <= row["agree"] <= 1
    with pytest.raises(ValueError, match="no side named"):
        train(tmp_path / "other.npz", epochs=1, seed=0, given=(rows, opening), progress=False, imitate=("nobody",))
    assert not (tmp_path / "other.npz").exists()
