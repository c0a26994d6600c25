"""The count-only canonical walk and the estimate of turn counts, against the twin and exact counts."""

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fepaper._core import canonical
from fepaper.game import Game
from fepaper.game.counts import estimate_turns, tally_turns
from fepaper.search.reference import turns as reference

from .helpers import SMALL_RULES, marked_edges, position, small_turn_count

LATE = "5 6 0 7 61 1 3 6 4 2 532 2 0 3 2 7 5771 60 2 43 0 61 3 63 1 63 07 0 14 57 5312 4167545"
PRESETS = ["thesis", "standard", "foo", "codingame", {"preset": "thesis", "dead_end": "stop"}]


def mid_turn(rules, seed: int, fraction: float, steps: int) -> Game:
    """A position part-way through a game, after up to ``steps`` bounces of the next turn."""
    game = position(rules, seed, fraction)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = game.legal_steps() if not game.is_over else []
        if not legal or not game.bouncing and game.current:
            break
        before = len(game.history)
        game.step(int(rng.choice(legal)))
        if len(game.history) > before:  # the turn ended: keep a position inside a turn
            game.undo()
            break
    return game


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PRESETS + SMALL_RULES), st.integers(0, 10**6), st.floats(0, 1), st.integers(0, 3))
def test_count_walk_agrees_with_the_twin(rules, seed, fraction, steps):
    """Every position (turn starts and positions after bounces): the canonical walk's count and its
    tally by kind and end node equal the pure-Python twin's distinct turns."""
    game = mid_turn(rules, seed, fraction, steps)
    assume(not game.is_over and small_turn_count(game, 20_000) >= 0)
    ref = reference.distinct_turns(game.board, marked_edges(game), game.ball)
    tally = tally_turns(game)
    extra = 1 if game.can_stop else 0
    assert tally.exact and tally.turns == len(ref) + extra == game.turns().count()
    kinds = {k: 0 for k in ("end", "stop", "goal", "blocked")}
    ends: dict = {}
    for (end, _), (_, kind) in ref.items():
        kinds[kind] += 1
        ends[end] = ends.get(end, 0) + 1
    if extra:
        kinds["stop"] += 1
        ends[game.ball] = ends.get(game.ball, 0) + 1
    assert tally.by_kind == kinds and tally.by_node == ends


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 10**6), st.floats(0, 1))
def test_next_turn_lists_each_turn_once_with_its_position(rules, seed, fraction):
    """The resumable walk stops on each distinct turn with its position made: the positions are
    those of the twin's turns, none twice, and the marks come back as they were."""
    game = position(rules, seed, fraction)
    assume(not game.is_over and small_turn_count(game, 5_000) >= 0)
    from fepaper._core.bundles import new_budget

    b = game.board
    marks = game.marks.copy()
    walk = canonical.new_canonical_walk(b.n_nodes, b.n_edges, game.ball_index, game.free_mask())
    budget = new_budget()
    seen = set()
    while canonical.next_turn(marks, b.arrays, game.rules.flags, walk, budget) >= 0:
        state = (int(walk.ctl[canonical.LANDED]), marks.tobytes())
        assert state not in seen
        seen.add(state)
    assert (marks == game.marks).all()
    assert len(seen) == len(reference.distinct_turns(b, marked_edges(game), game.ball))


def test_a_cut_count_is_a_lower_bound_flagged_as_such():
    game = Game("standard", LATE)
    before = game.marks.copy()
    tally = tally_turns(game, limit=1000)
    assert (tally.turns, tally.exact, tally.stopped) == (1001, False, "limit")
    assert str(tally).startswith("at least 1,001 distinct turns")
    tally = tally_turns(game, seconds=0.3)
    assert not tally.exact and tally.stopped == "seconds" and tally.turns > 1000
    assert (game.marks == before).all()
    assert game.turns().count(limit=1000) == -1 and game.turns().tally(limit=10).turns == 11
    for bad in (0, -1, 2.5, True, "9"):
        with pytest.raises(ValueError, match="limit"):
            tally_turns(game, limit=bad)
    with pytest.raises(ValueError, match="seconds"):
        tally_turns(game, seconds=float("nan"))


def test_a_count_looks_at_the_clock_every_few_steps():
    """A count whose deadline has already passed stops at its first look at the clock: after
    CHECK_EVERY units of work, counted in batches of BATCH, and no more, with its marks as they
    were once unwound. How close a count keeps a real clock is a measurement, not a test."""
    from fepaper._core.bundles import OUT_OF_BUDGET, new_budget
    from fepaper._core.clock import CHECK_EVERY

    game = Game("standard", LATE)
    b = game.board
    marks = game.marks.copy()
    walk = canonical.new_canonical_walk(b.n_nodes, b.n_edges, game.ball_index, game.free_mask())
    kinds, ends = np.zeros(4, np.int64), np.zeros(b.n_nodes, np.int64)
    passed = new_budget(1.0, 0, time.perf_counter() - 10.0)
    counted = canonical.count_walk(marks, b.arrays, game.rules.flags, walk, kinds, ends, 0, 0, passed)
    assert walk.ctl[canonical.STATUS] == OUT_OF_BUDGET and counted == kinds.sum() > 0
    assert CHECK_EVERY <= passed.ctl[0] < CHECK_EVERY + canonical.BATCH
    canonical.unwind_canonical(marks, b.arrays, walk)
    assert (marks == game.marks).all()


def test_yapapersoccer_positions():
    """The 400k position of YaPaperSoccer's readme (433,648 here; his program says 433,647) and
    his small position whose turns merge: fepaper's count of step paths and distinct turns."""
    steps = ("130641135702250170365750146307457414222435235742277421644352"
             "74617703502106741745431672745757134661453130361")
    game = Game("standard")
    for c in steps:
        game.step(c)
    assert tally_turns(game).turns == 433_648 == game.turns().count()
    small = Game("standard", "2 4 6 7 1")
    assert tally_turns(small).turns == 52


def test_memory_stays_flat_under_a_memory_cap():
    """Counting the late position that once grew to 3.3 GB runs under a 1.5 GB address space cap,
    stops on its clock, and holds a walk of a few kB."""
    code = f"""
import resource, json
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
from fepaper.game import Game
from fepaper.game.counts import tally_turns
game = Game("standard", {LATE!r})
tally_turns(Game("thesis", "0 54"))
tally = tally_turns(game, seconds=3)
count = game.turns().count(seconds=1)
print(json.dumps([tally.turns, tally.exact, tally.memory, count]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    turns, exact, memory, count = json.loads(out.stdout.strip().splitlines()[-1])
    assert not exact and turns > 1_000_000 and memory < 100_000
    assert count == -1


def coverage_positions():
    """Turn-start positions of seeded random games with 20,000 to 400,000 distinct turns."""
    from fepaper.play.randomplay import random_game

    found = []
    for rules in ("standard", "thesis"):
        seed = 0
        while sum(1 for r, *_ in found if r == rules) < 3:
            full = random_game(rules, seed=seed)
            seed += 1
            for t in range(len(full.history) - 1, 0, -1):
                game = Game(rules, " ".join(full.history[:t]))
                n = game.turns().count(limit=400_000)
                if n >= 20_000:
                    found.append((rules, " ".join(full.history[:t]), n))
                    break
    return found


def test_estimates_cover_the_exact_count():
    """Intervals (95 %) of estimates forced to sample (a small cap) on six positions counted
    exactly, ten seeds each: at least 85 % of the 60 intervals hold the count, and on every
    position the mean of the ten estimates is within four of its standard errors of the count
    (no bias to see)."""
    covered, total = 0, 0
    for rules, record, n in coverage_positions():
        game = Game(rules, record)
        values = []
        for seed in range(10):
            est = estimate_turns(game, samples=128, cap=1 << 11, frontier=512, seed=seed)
            assert not est.exact and est.low <= est.value <= est.high
            covered += est.low <= n <= est.high
            total += 1
            values.append(est.value)
        assert abs(np.mean(values) - n) < 4 * np.std(values, ddof=1) / np.sqrt(len(values)), (rules, n, values)
    print(f"coverage {covered}/{total}")
    assert covered >= 0.85 * total, (covered, total)


def test_estimate_is_exact_when_the_tree_fits_and_repeats_with_its_seed():
    game = Game("thesis", "0 54")
    est = estimate_turns(game)
    assert est.exact and est.value == est.low == est.high == 16
    late = Game("standard", LATE)
    a, b = (estimate_turns(late, samples=8, cap=1 << 14, seed=3) for _ in range(2))
    assert a == b.__class__(**{**b.__dict__, "seconds": a.seconds})
    assert estimate_turns(late, samples=8, cap=1 << 14, floor=10**7).low >= 10**7


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PRESETS + SMALL_RULES), st.integers(0, 10**6), st.floats(0, 1))
def test_turn_paths_are_the_step_sequences_and_never_fewer_than_turns(rules, seed, fraction):
    """perft by turn paths at depth 1 is the count of ordered step sequences of the sequence
    kernel, at least the distinct turns; by single steps at depth 1 it is the legal steps."""
    from fepaper.experiments.complexity.branching import count_step_sequences
    from fepaper.search.perft import perft, perft_paths, perft_steps

    game = position(rules, seed, fraction)
    assume(not game.is_over)
    seq = count_step_sequences(game, 20_000)
    assume(seq.complete)
    assert perft_paths(game, 1) == seq.sequences >= perft(game, 1)
    assert perft_steps(game, 1) == len(game.legal_steps())
    assert perft_steps(game, 0) == perft_paths(game, 0) == 1


def test_measure_games_counts_without_censoring():
    """With an exact budget, every position is exact or estimated with an interval holding the
    cut count; exact ones equal TurnView.count."""
    from fepaper.experiments.complexity.branching import measure_games, sample_games

    games = sample_games("standard", 2, seed=4)
    m = measure_games(games, max_steps=None, exact_limit=2_000, samples=8, sample_cap=1 << 12)
    t = m.turns
    assert not t.censored.any() and (~t.exact).any() and t.exact.any()
    assert (t.distinct_low <= t.distinct).all() and (t.distinct <= t.distinct_high).all()
    assert (t[~t.exact].distinct_low >= 2_001).all()
    for _, row in t[t.exact].head(20).iterrows():
        g = Game("standard", " ".join(games[row.game].history[: row.turn - 1]))
        assert row.distinct == g.turns().count()


def test_controller_games_differ_after_a_random_opening():
    from fepaper.experiments.complexity.branching import sample_games

    games = sample_games("foo", 3, seed=1, source=("greedy", "greedy"), opening=2)
    assert len({g.moves for g in games}) == 3


def test_the_count_command():
    from fepaper.cli import main

    steps = ("130641135702250170365750146307457414222435235742277421644352746177035021067417454316727457"
             "57134661453130361")
    out = subprocess.run([sys.executable, "-m", "fepaper.cli", "count", "--rules", "standard", "--steps", steps],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "count: 433,648 distinct turns" in out.stdout and "exact: True" in out.stdout
    out = subprocess.run([sys.executable, "-m", "fepaper.cli", "count", "--rules", "standard", "--moves", LATE,
                          "--limit", "5"], capture_output=True, text=True, timeout=300)
    assert "at least 6 distinct turns (stopped at the limit of 5)" in out.stdout
    assert main(["count", "--rules", "standard", "--steps", "9"]) == 2


def test_an_estimate_past_its_work_is_only_the_lower_bound_counted():
    from fepaper.game.counts import EstimateTooCostly, count_or_estimate

    late = Game("standard", LATE)
    with pytest.raises(EstimateTooCostly):
        estimate_turns(late, samples=8, cap=1 << 10, max_work=1000)
    est = count_or_estimate(late, limit=500, samples=8, cap=1 << 10, max_work=1000)
    assert not est.exact and est.value == est.low == 501 and est.high == float("inf") and est.samples == 0


def test_an_estimate_below_the_turns_already_counted_is_not_kept():
    """A position of a game against a public engine (notebook 05) with 321,396 turns, cut at
    nine tenths of them: an estimate that falls below the cut count is not kept, the count
    goes on and finishes exactly; every estimate kept is at least the cut count."""
    from fepaper.game.counts import count_or_estimate

    game = Game("codingame", "5 5 0 7 71 72 461713 53 1 4 2 72 1 4 2 2 0 75312743635 6 3 167 7505663 13 42 17 "
                "7242056435 07 6553 11 363 02 55 760 5253 471 14 50222 5 47 143 21 7 602 03 1 2703535 761 "
                "20545054 12 431763 0255010 55 670")
    n, limit = 321_396, 289_256
    results = [count_or_estimate(game, limit=limit, samples=8, cap=1 << 12, seed=s) for s in range(12)]
    assert any(r.exact for r in results) and not all(r.exact for r in results)
    for r in results:
        assert (r.value == r.low == r.high == n) if r.exact else (limit < r.low <= r.value <= r.high)
