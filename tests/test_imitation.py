"""The decisions of a named side, with turns it did not choose, and the fit that learns from them."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fepaper._core.valuenet import ValueNet, dense_inputs, layout_of
from fepaper.engines.imitation import agreement, choice_loss, choice_rows, choices, clustered_interval
from fepaper.engines.training import training_rows
from fepaper.engines.valuefit import encode, positions, train
from fepaper.game.game import Game

SELFPLAY = Path(__file__).parents[1] / "data" / "strength" / "engine_selfplay" / "qtpapersoccer_4turn.jsonl"
AGAINST_QT = Path(__file__).parents[1] / "data" / "strength" / "referee_qtpapersoccer.jsonl"


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


def _can_score_at_once(game):
    """The slow reference of an opponent's goal in one: replay its turns that end in a goal."""
    if game.turns().tally(limit=20_000).by_kind.get("goal", 0) == 0:
        return False
    for turn in game.turns():
        if turn.kind == "goal":
            trial = game.copy()
            trial.push(turn.steps)
            if trial.result.winner == game.player:
                return True
    return False


def test_agreement_compares_every_turn_the_search_would_value(qt_games):
    rows, _ = qt_games
    rows = rows[:2]
    made = choices(rows, {"qt_a", "qt_b"}, sample=400, seed=1)
    pos = positions(rows)
    checked = 0
    for d in np.unique(made["decision"]):
        game, row = Game("codingame"), rows[pos["game"][d]]
        turns = row["moves"].split()
        for turn in turns[: int(pos["played"][d])]:
            game.push(turn)
        if not 0 < game.turns().count(limit=300) or checked == 12:
            continue
        expected = set()  # every turn's position but those the search values exactly
        for turn in game.turns():
            trial = game.copy()
            trial.push(turn.steps)
            if not trial.is_over and not _can_score_at_once(trial):
                expected.add((trial.ball_index, trial.marks.tobytes()))
        at = np.flatnonzero(made["decision"] == d)
        assert {(made["ball"][i], made["marks"][i].tobytes()) for i in at} == expected
        checked += 1
    assert checked == 12


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**31))
def test_agreement_counts_the_decisions_a_network_values_best(qt_games, seed):
    rows, _ = qt_games
    rows = rows[:2]
    board = Game("codingame").board
    layout = layout_of(board)
    rng = np.random.default_rng(seed)
    net = ValueNet(rng.normal(0, 0.2, (layout.n_inputs, 8)).astype(np.float32), np.full(8, 0.5, np.float32),
                   rng.normal(0, 0.5, (8, 4)).astype(np.float32), np.full(4, 0.5, np.float32),
                   rng.normal(0, 0.5, 4).astype(np.float32), float(rng.normal()), layout)
    made = choices(rows, {"qt_a", "qt_b"}, sample=400, seed=seed)
    indices, offsets = encode(made)  # the numpy forward pass of the fit, not the compiled one
    x = dense_inputs(indices, offsets, np.arange(len(made["ball"])), layout.n_inputs)
    h = np.maximum(np.maximum(x @ net.w1 + net.b1, 0) @ net.w2 + net.b2, 0)
    value = np.tanh(h @ net.w3 + net.b3)
    start = np.flatnonzero(made["chosen"] == 1)
    ends = np.r_[start[1:], len(value)]
    # float32 sums in another order: a rival within 1e-4 of the chosen turn may fall either way
    clear = sum(bool(np.all(value[s + 1:e] > value[s] + 1e-4)) for s, e in zip(start, ends))
    near = sum(bool(np.all(value[s + 1:e] > value[s] - 1e-4)) for s, e in zip(start, ends))
    (got,) = agreement([net], rows, {"qt_a", "qt_b"}, seed=seed)
    assert got["decisions"] == len(start) and clear <= got["agree"] <= near and clear > 0
    assert got["low"] <= got["share"] <= got["high"] and 0 <= got["rank"] <= 1
    assert got["guess"] == pytest.approx(np.mean(1 / (ends - start)))
    with pytest.raises(ValueError, match="nobody"):
        agreement([net], rows, {"nobody"})


@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=60))
def test_the_clustered_interval_of_independent_trials_is_the_normal_one(hits):
    n, share = len(hits), float(np.mean(hits))
    low, high = clustered_interval(hits, np.arange(n))  # every trial its own cluster
    half = 1.959963984540054 * np.sqrt(share * (1 - share) / (n - 1))
    assert low == pytest.approx(max(0.0, share - half)) and high == pytest.approx(min(1.0, share + half))
    same = clustered_interval(np.repeat(hits, 5), np.repeat(np.arange(n), 5))  # five copies of each: no new facts
    assert same == pytest.approx((low, high))


def test_the_clustered_interval_covers_the_share_of_correlated_games():
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(400):  # 100 games of 40 decisions; each game's own rate around 0.27
        rate = np.clip(rng.normal(0.27, 0.1, 100), 0, 1)
        hits = rng.random((100, 40)) < rate[:, None]
        low, high = clustered_interval(hits.ravel(), np.repeat(np.arange(100), 40))
        covered += low <= 0.27 <= high  # the mean of the clipped rates is 0.27 to within 0.001
    assert 0.92 <= covered / 400 <= 0.98
