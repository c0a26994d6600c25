"""The claims decided by searching positions (experiments/searchclaims.py), the two readings of
"4 on average", the path-scanning cycle check and the A* evaluation of the thesis's alpha-beta,
and the GA's own noise (experiments/tuning.py)."""

import math
from collections import deque

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fepaper._core.alphabeta import astar_distance
from fepaper.controllers import make
from fepaper.experiments.thesis.claims import MINUTE_STEPS, SHARES, RatioTest, ShareTest
from fepaper.experiments.thesis.measured import steps_rows
from fepaper.experiments.thesis.searchclaims import (
    astar_rows,
    astar_times,
    cap_minute_row,
    cap_turns,
    decision_costs,
    decision_positions,
    ratio_verdict,
    runtime_row,
    share_row,
    share_verdict,
)
from fepaper.experiments.thesis.tuning import fitness_noise, noise_summary, tune
from fepaper.game import Game
from fepaper.game.board import BOTTOM, TOP
from fepaper.play.pools import SerialExecutor
from fepaper.play.randomplay import random_game
from fepaper.search.alphabeta import thesis_line
from fepaper.stats.binomial import exact_bounds

SMALL = {"preset": "thesis", "width": 4, "height": 6}


def _position(rules, seed: int, cut: float) -> Game:
    """A turn start part-way through a seeded random game."""
    played = random_game(rules, np.random.default_rng(seed))
    turns = played.history[: int(len(played.history) * cut)]
    return Game(rules, " ".join(turns))


# -- share and ratio tests ---------------------------------------------------------------------

def test_a_share_is_confirmed_refuted_or_undecided_with_its_power():
    test = ShareTest("x", p0=0.25, p1=0.10)
    assert share_verdict(test, 0, 30)["verdict"] == "confirmed"
    assert share_verdict(test, 12, 30)["verdict"] == "refuted"
    # six trials can never confirm: no power; twelve confirm only on no event: 0.9^12
    assert share_verdict(test, 1, 6)["power"] == 0.0
    small = share_verdict(test, 1, 12)
    assert small["verdict"] == "not decided" and small["power"] == pytest.approx(0.9**12)
    assert share_verdict(test, 2, 20)["power"] > small["power"]  # more trials, more power
    # exact: 3 or fewer of 27 happen with chance 0.067 > 0.05 at a quarter (Wilson's 0.248 confirmed)
    known = share_verdict(test, 3, 27)
    assert known["verdict"] == "not decided" and known["high"] == pytest.approx(0.26274, abs=1e-5)
    assert _at_most(3, 27, 0.25) == pytest.approx(0.0666, abs=1e-4)
    empty = share_verdict(test, 0, 0)
    assert (empty["verdict"], empty["power"], empty["low"], empty["high"]) == ("not decided", 0.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="events <= n"):
        share_verdict(test, 4, 3)
    with pytest.raises(ValueError, match="0 < p1 < p0 < 1"):
        ShareTest("y", p0=0.1, p1=0.2)
    r = share_row("astar-same", "thesis", 2, 40, "m", "note")
    assert r["unit"] == "share" and r["estimate"] == 0.05 and r["note"].startswith("2 of 40")
    absent = share_row("astar-same", "thesis", 0, 0, "m", "more", absent="none occurred")
    assert (absent["verdict"], absent["note"]) == ("not testable here", "none occurred; more")
    assert math.isnan(absent["estimate"]) and math.isnan(absent["power"])
    with pytest.raises(ValueError, match="none is absent"):
        share_row("astar-same", "thesis", 0, 3, "m", absent="none occurred")
    assert SHARES["runtime-minute"].p1 == 0.10 and SHARES["runtime-minute"].p0 == 0.25


def _at_most(k: int, n: int, p: float) -> float:
    """The chance of ``k`` or fewer events in ``n`` trials, summed term by term."""
    return math.fsum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 150).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.floats(0.001, 0.499))
def test_the_exact_bounds_are_where_the_binomial_tails_reach_their_level(kn, level):
    """The upper bound is the share at which ``k`` or fewer events have chance ``level``, the
    lower one the share at which ``k`` or more have it (summed directly), and the verdict says
    the same as those tails at ``p0`` and ``p1``."""
    k, n = kn
    low, high = exact_bounds(k, n, level)
    assert 0 <= low <= k / n <= high <= 1
    if k == n:
        assert high == 1.0
    else:
        assert _at_most(k, n, high) == pytest.approx(level, abs=1e-9)
    if k == 0:
        assert low == 0.0
    else:
        assert 1 - _at_most(k - 1, n, low) == pytest.approx(level, abs=1e-9)
    test = ShareTest("x", alpha=level, beta=level)
    at_p0, at_p1 = _at_most(k, n, test.p0), 1 - _at_most(k - 1, n, test.p1) if k else 1.0
    v = share_verdict(test, k, n)
    if abs(at_p0 - level) > 1e-9 and abs(at_p1 - level) > 1e-9:
        want = "confirmed" if at_p0 < level else "refuted" if at_p1 < level else "not decided"
        assert v["verdict"] == want


def test_the_power_is_the_chance_of_the_counts_that_confirm():
    test = ShareTest("x")
    for n in (6, 12, 27, 60):
        confirming = [k for k in range(n + 1) if share_verdict(test, k, n)["verdict"] == "confirmed"]
        assert confirming == list(range(len(confirming)))  # the fewest events confirm
        power = _at_most(len(confirming) - 1, n, test.p1) if confirming else 0.0
        undecided = next(k for k in range(n + 1) if share_verdict(test, k, n)["verdict"] == "not decided")
        assert share_verdict(test, undecided, n)["power"] == pytest.approx(power, abs=1e-12)


def test_a_ratio_is_judged_on_the_side_its_claim_states():
    a, b = [2.0, 2.2, 1.9, 2.1] * 5, [1.0] * 20
    assert ratio_verdict(RatioTest("t", 1.5), a, b)["verdict"] == "confirmed"
    assert ratio_verdict(RatioTest("t", 3.0), a, b)["verdict"] == "refuted"
    assert ratio_verdict(RatioTest("t", 3.0, above=False), a, b)["verdict"] == "confirmed"
    assert ratio_verdict(RatioTest("t", 2.05), a, b)["verdict"] == "not decided"
    with pytest.raises(ValueError, match="same positive number"):
        ratio_verdict(RatioTest("t", 1.0), a, b[:3])


# -- "4 on average", both readings -------------------------------------------------------------

def test_both_readings_of_four_on_average_are_rows():
    # every step: mean 5 (refuted); after a bounce: mean 4 (confirmed)
    rng = np.random.default_rng(0)
    first = pd.DataFrame({"game": 0, "free": 6, "after_bounce": False}, index=range(500))
    after = pd.DataFrame({"game": 0, "free": rng.choice([3, 5], 500), "after_bounce": True})
    rows = {r["key"]: r for r in steps_rows("thesis", pd.concat([first, after], ignore_index=True), "made up")}
    assert rows["steps-average"]["verdict"] == "refuted"
    assert rows["steps-average"]["estimate"] == pytest.approx((6 * 500 + after["free"].sum()) / 1000)
    assert rows["steps-average-bounce"]["verdict"] == "confirmed"
    assert "every step" in rows["steps-average"]["method"] and "bounce" in rows["steps-average-bounce"]["method"]


# -- the path-scanning cycle check -------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.0, 0.9), st.integers(1, 2), st.sampled_from(["blocked", "stop"]))
def test_the_path_scanning_cycle_check_refuses_the_same_steps_as_the_lookup(seed, cut, level, dead_end):
    game = _position({**SMALL, "dead_end": dead_end}, seed, cut)
    if game.is_over:
        return
    look = thesis_line(game, "nocycles", level, 6)
    scan = thesis_line(game, "nocycles", level, 6, cycle_check="scan")
    assert (scan.turn, scan.value, scan.nodes) == (look.turn, look.value, look.nodes)


def test_the_controller_takes_the_check_and_the_evaluation_and_refuses_bad_ones():
    game = Game(SMALL)
    a = make({"name": "alphabeta", "variant": "nocycles", "depth": 1, "cycle_check": "scan"})
    assert a.choose_turn(game) == make({"name": "alphabeta", "variant": "nocycles", "depth": 1}).choose_turn(game)
    with pytest.raises(ValueError, match="cycle_check must be one of"):
        thesis_line(game, "nocycles", 1, cycle_check="walk")
    with pytest.raises(ValueError, match="evaluation must be one of"):
        thesis_line(game, "dynamic", 1, evaluation="manhattan")
    with pytest.raises(Exception, match="does not apply"):
        make({"name": "alphabeta", "variant": "static", "cycle_check": "scan"})


# -- the A* path distance ----------------------------------------------------------------------

def _bfs(game: Game, start: int, target: int) -> int:
    """Steps from ``start`` to goal ``target`` over the free edges, never through a goal node."""
    b = game.board
    if b.goal[start] == target:
        return 0
    seen, todo = {start: 0}, deque([start])
    while todo:
        u = todo.popleft()
        if b.goal[u] == target:
            return seen[u]
        if b.goal[u] != 0:
            continue
        for d in range(8):
            if (b.exists[u] >> d) & 1 and not (game.marks[u] >> d) & 1:
                w = int(b.neighbour[u, d])
                if w not in seen:
                    seen[w] = seen[u] + 1
                    todo.append(w)
    return b.n_nodes


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.0, 1.0), st.integers(4, 8).map(lambda w: w - w % 2),
       st.integers(4, 10).map(lambda h: h - h % 2))
def test_the_astar_distance_is_the_breadth_first_one(seed, cut, width, height):
    game = _position({"preset": "thesis", "width": width, "height": height}, seed, cut)
    b = game.board
    scratch, heap = np.zeros(2 * b.n_nodes + 1, np.int32), np.zeros(8 * b.n_nodes + 1, np.int64)
    for row, target in ((0, TOP), (1, BOTTOM)):
        for node in range(b.n_nodes):
            got = astar_distance(b.exists, b.neighbour, b.goal, game.marks, node, target, b.distance[row], scratch,
                                 heap)
            assert got == _bfs(game, node, target), (node, target)


def test_on_an_empty_board_the_astar_evaluation_is_the_plain_one():
    game = Game(SMALL)
    plain, astar = thesis_line(game, "dynamic", 2), thesis_line(game, "dynamic", 2, evaluation="astar")
    assert (astar.turn, astar.value) == (plain.turn, plain.value)


def test_astar_rows_compare_turns_and_times():
    positions = [g for g in (_position(SMALL, s, 0.5) for s in range(6)) if not g.is_over]
    times = astar_times(positions, max_nodes=200_000)
    assert set(times["evaluation"]) == {"distance", "astar"} and times.attrs["left_out"] >= 0
    same, slower = astar_rows("thesis", times, "made up")
    assert same["key"] == "astar-same" and same["unit"] == "share" and 0 <= same["estimate"] <= 1
    assert slower["key"] == "astar-slower" and slower["estimate"] > 0


def test_without_a_position_searched_to_its_end_the_astar_rows_are_not_testable_here():
    times = pd.DataFrame(columns=["position", "evaluation", "turn", "steps", "seconds"])
    times.attrs["left_out"] = 3
    same, slower = astar_rows("thesis", times, "made up")
    assert same["verdict"] == slower["verdict"] == "not testable here"
    assert "in none of the 3 positions" in same["note"] and slower["note"] == same["note"]
    times.attrs["left_out"] = 0
    assert astar_rows("thesis", times, "made up")[0]["note"].startswith("no position was searched")


# -- run time under a minute and the minute cap ------------------------------------------------

def test_decisions_over_a_cap_are_counted_and_compared_with_a_larger_search():
    played = random_game(SMALL, np.random.default_rng(3))
    positions = decision_positions([(" ".join(played.history), "")], SMALL, 8, seed=1)
    assert 0 < len(positions) <= 8 and all(not g.is_over for g in positions)
    spec = {"name": "alphabeta", "variant": "dynamic", "depth": 2, "max_bounces": 15}
    costs = decision_costs(positions, cap=40, spec=spec)
    assert (costs["stopped"] == (costs["steps"] >= 40)).all() and costs["stopped"].any()
    r = runtime_row("thesis", costs, "made up")
    assert r["key"] == "runtime-minute" and r["note"].startswith(f"{int(costs['stopped'].sum())} of {len(costs)}")
    turns = cap_turns(costs, positions, limit=2, larger=400, spec=spec)
    assert len(turns) == min(2, int(costs["stopped"].sum())) and turns["same"].dtype == bool
    row = cap_minute_row("thesis", costs, turns)
    assert row["key"] == "cap-minute" and "compared" in row["note"]
    none = cap_minute_row("thesis", costs, cap_turns(costs, positions, limit=0))
    assert none["verdict"] == "not decided" and none["power"] == 0.0  # the cap bound, none compared


def _costs(steps: list[int], cap: int) -> pd.DataFrame:
    """Made-up decisions of ``steps`` steps each, stopped at ``cap``."""
    return pd.DataFrame({"position": range(len(steps)), "steps": steps, "seconds": [0.01] * len(steps),
                         "stopped": [s >= cap for s in steps], "turn": ["0"] * len(steps)})


def test_where_the_cap_never_bound_the_minute_cap_is_not_testable_here():
    costs = _costs([1_000, 90_000, 5], MINUTE_STEPS)
    empty = pd.DataFrame(columns=["position", "capped_turn", "larger_turn", "larger_steps", "larger_stopped",
                                  "same"])
    r = cap_minute_row("thesis", costs, empty, "positions")
    assert r["verdict"] == "not testable here" and math.isnan(r["power"])
    assert r["note"].startswith('the cap bound in none of the 3 positions, so "the cases in what this time '
                                'is bigger" did not occur here; the costliest took 90,000 steps')
    assert f"{90_000 / MINUTE_STEPS:.1%} of the cap" in r["note"]
    assert cap_minute_row("thesis", _costs([], 1), empty)["verdict"] == "not testable here"


def test_without_a_decision_the_minute_run_time_is_not_testable_here():
    r = runtime_row("thesis", _costs([], MINUTE_STEPS), "the duels' games")
    assert r["verdict"] == "not testable here" and "no turn start of the duels' games" in r["note"]
    assert runtime_row("thesis", _costs([10, 20], 15), "x")["verdict"] == "not decided"


def test_the_turn_starts_before_long_turns_are_those_whose_turn_then_bounced_that_often():
    """``min_bounces`` keeps the positions where the turn then played bounced at least that often
    (each step but the last led to another step of the same player), and all of them."""
    found = 0
    for seed in range(6):
        played = random_game(SMALL, np.random.default_rng(seed), stop_probability=0.1)
        record = " ".join(played.history)
        want = []
        for t, turn in enumerate(played.history):
            game, bounced = Game(SMALL, " ".join(played.history[:t])), 0
            mover = game.player
            for step in turn[:-1]:
                game.step(int(step))
                bounced += game.player == mover and not game.is_over
            if bounced >= 2:
                want.append(t)
        picked = decision_positions([(record, "")], SMALL, 10_000, seed=1, min_bounces=2)
        assert [len(g.history) for g in picked] == want
        assert len(decision_positions([(record, "")], SMALL, 10_000, seed=1)) == len(played.history)
        found += len(want)
    assert found >= 3


# -- the GA's own noise ------------------------------------------------------------------------

def test_the_noise_of_one_candidate_beside_the_population():
    run = tune({"name": "aco", "variant": "base"}, generations=0, games=2, rules="standard", seed=1, population=4,
               offspring=2, bounds={"n_ants": (2, 4), "iterations": (1, 2)}, opponent={"name": "random"},
               executor=SerialExecutor(), progress=False)
    repeats = fitness_noise(run, run.best_spec, repeats=3, games=2, executor=SerialExecutor())
    assert [r["repeat"] for r in repeats] == [0, 1, 2]
    again = fitness_noise(run, run.best_spec, repeats=3, games=2, executor=SerialExecutor())
    assert repeats == again  # seeded: the same games
    summary = noise_summary([{"fitness": f} for f in (0.1, 0.3, 0.5)], [{"fitness": f} for f in (0.0, 0.4)])
    assert summary["candidate_sd"] == pytest.approx(0.2) and summary["population_sd"] == pytest.approx(0.4 / 2**0.5)
    assert summary["noise_over_population"] == pytest.approx(0.2 / (0.4 / 2**0.5))
    with pytest.raises(ValueError, match="repeats must be"):
        fitness_noise(run, run.best_spec, repeats=1)
    with pytest.raises(ValueError, match="at least two"):
        noise_summary([{"fitness": 0.1}], [{"fitness": 0.0}, {"fitness": 1.0}])


def test_the_new_options_leave_the_spec_of_every_existing_player_as_it_was():
    """A spec names a new option only when it differs from its default: the games files of
    players without them keep their fingerprints."""
    assert make({"name": "alphabeta", "variant": "nocycles"}).spec == {
        "name": "alphabeta", "variant": "nocycles", "depth": 2, "max_bounces": 15}
    spec = make({"name": "alphabeta", "variant": "nocycles", "cycle_check": "scan", "evaluation": "astar"}).spec
    assert (spec["cycle_check"], spec["evaluation"]) == ("scan", "astar")
