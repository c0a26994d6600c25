"""Deciding claims from games: fepaper.stats (verdicts, Holm, families, SPRT, fixed tests, binomial
bounds), each checked by hand and against scipy's and statsmodels' values;
fixed.py (fixed number of games).

The simulations play synthetic games whose true win/draw/loss probabilities are known, with
a seeded Generator, so each check is deterministic; tolerances are three binomial standard
errors of the simulated rate, so a correct method passes by a margin and a wrong one
(swapped bounds, a sign error, a missing correction) fails by a wide one.
"""

import csv
import io
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fepaper.stats.binomial import sign_test, wins_above
from fepaper.stats.elo import elo_from_score, expected_score
from fepaper.stats.fixed import games_for_power, score_test
from fepaper.stats.multiple import holm, judge_family
from fepaper.stats.scores import moments, power_reached, tally
from fepaper.stats.sequential import SPRT, SignSPRT, constrained_mle, run_sprt
from fepaper.stats.verdicts import Verdict

# ---------------------------------------------------------------- synthetic games


def game_probs(elo, draw_rate):
    """P(loss), P(draw), P(win) of one game of a player ``elo`` stronger."""
    s = expected_score(elo)
    return np.array([1 - s - draw_rate / 2, draw_rate, s - draw_rate / 2])


def pair_probs(elo, draw_rate, colour=0.05):
    """P(pair score 0, 0.5, 1, 1.5, 2) of two colour-swapped games: the first move is worth
    ``colour`` of win probability, so the two games of a pair are negatively correlated."""
    first = game_probs(elo, draw_rate) + [-colour, 0, colour]
    second = game_probs(elo, draw_rate) - [-colour, 0, colour]
    return np.convolve(first, second)


def simulate_sprt(test, probs, runs, rng, max_samples=20_000):
    """``runs`` independent SPRTs on results drawn from ``probs``, all at once through
    ``test.llr`` on an array of counts: (+1 accept H1 / -1 accept H0 / 0, samples used)."""
    k = len(probs)
    counts = np.zeros((runs, k))
    outcome, used = np.zeros(runs, int), np.zeros(runs, int)
    active = np.arange(runs)
    lower, upper = test.bounds
    for t in range(1, max_samples + 1):
        counts[active, rng.choice(k, size=len(active), p=probs)] += 1
        llr = test.llr(counts[active])
        up, down = llr >= upper, llr <= lower
        outcome[active[up]], outcome[active[down]] = 1, -1
        used[active[up | down]] = t
        active = active[~(up | down)]
        if not len(active):
            break
    return outcome, used


def tolerance(rate, runs):
    return 3 * math.sqrt(rate * (1 - rate) / runs)


counts3 = st.lists(st.integers(0, 40), min_size=3, max_size=3)
counts5 = st.lists(st.integers(0, 40), min_size=5, max_size=5)
elos = st.floats(-400, 400)

# ---------------------------------------------------------------- Elo, tallies, moments


def test_elo_and_expected_score_known_values():
    assert expected_score(0) == 0.5
    assert expected_score(400 * math.log10(3)) == pytest.approx(0.75)
    assert expected_score(-400 * math.log10(3)) == pytest.approx(0.25)
    assert elo_from_score(0.5) == 0 and elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert np.allclose(expected_score(np.array([0, 400])), [0.5, 10 / 11])
    with pytest.raises(ValueError, match="lies in"):
        elo_from_score(1.2)


@given(elos)
def test_elo_round_trip(elo):
    assert elo_from_score(expected_score(elo)) == pytest.approx(elo, abs=1e-9)


def test_tally_and_moments_by_hand():
    assert tally([2, 1.5, 1, 2, 0.5, 2], "pentanomial") == (0, 1, 1, 1, 3)
    assert tally([0, 0.5, 1, 1], "trinomial") == (1, 1, 2)
    with pytest.raises(ValueError, match="multiple of 0.5"):
        tally([1.5], "trinomial")
    # Pairs scoring 0, 0.5, 1, 1, 1.5 x3, 2 x3 are per-game means 0, .25, .5, .5, .75 x3, 1 x3:
    # mean 6.5 / 10, mean square 5.25 / 10, variance 0.525 - 0.4225.
    n, mean, var = moments([1, 1, 2, 3, 3])
    assert (n, mean, var) == (10, pytest.approx(0.65), pytest.approx(0.1025))
    assert moments([30, 20, 50])[1:] == (pytest.approx(0.6), pytest.approx(0.19))


# ---------------------------------------------------------------- the GSPRT likelihood ratio


@given(st.lists(st.integers(1, 30), min_size=5, max_size=5), st.floats(0.05, 0.95))
def test_constrained_mle_is_the_best_distribution_with_that_mean(counts, s):
    p = np.array(counts) / sum(counts)
    values = np.linspace(0, 1, 5)
    q = constrained_mle(p, values, s)
    assert q.sum() == pytest.approx(1) and (q * values).sum() == pytest.approx(s, abs=1e-9)
    assert np.all(q > 0)
    # Any move inside {sum 1, mean s} lowers the likelihood: the gradient p/q is orthogonal to it.
    grad = p / q
    basis = np.linalg.svd(np.vstack([np.ones(5), values]))[2][2:]
    assert np.allclose(basis @ grad, 0, atol=1e-6)


def test_constrained_mle_against_a_grid_on_the_trinomial():
    p = np.array([0.3, 0.2, 0.5])
    for s in (0.35, 0.5, 0.8):
        wins = np.linspace(max(0, s - 0.5), s, 200_001)[1:-1]
        draws = 2 * (s - wins)
        grid = np.stack([1 - wins - draws, draws, wins], axis=1)
        grid = grid[(grid > 0).all(axis=1)]
        best = grid[np.argmax(np.log(grid) @ p)]
        assert np.allclose(constrained_mle(p, np.array([0, 0.5, 1]), s), best, atol=1e-4)


def test_pentanomial_llr_hand_worked():
    # 10 pairs, half scoring 1 (per-game 0.5), half sweeps (1.0): mean 0.75 = s1, so H1's
    # best distribution is the data. H0 (s0 = 0.6) keeps 0.5 and 1.0 and moves mass r to an
    # unseen 0: maximise log a + log b with 0.5 a + b = 0.6 -> a = 0.6, b = 0.3, r = 0.1.
    # LLR = 10 (0.5 log(0.5 / 0.6) + 0.5 log(0.5 / 0.3)) = 5 log(25 / 18); the regularised
    # empty categories (1e-3 pairs each) move it by less than 0.01.
    test = SPRT(elo_from_score(0.6), elo_from_score(0.75))
    assert test.llr([0, 0, 5, 0, 5]) == pytest.approx(5 * math.log(25 / 18), abs=0.01)


@pytest.mark.parametrize("counts", [[1187, 7410, 13475, 7378, 1164], [10789, 19328, 33806, 19402, 10543]])
def test_llr_matches_the_quadratic_approximation_on_many_pairs(counts):
    # Van den Bergh's approximation N (s1 - s0)(2 mean - s0 - s1) / (2 var), good for close
    # hypotheses and many pairs (here fishtest's own pentanomial examples).
    test = SPRT(-3, 1)
    n, mean, var = moments(counts)
    s0, s1 = test.scores
    assert test.llr(counts) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), rel=1e-3)


@given(counts5, elos, st.floats(1, 300))
def test_llr_is_antisymmetric_under_swapping_colours_of_the_claim(counts, elo0, gap):
    # The same pairs read from the other player's side, with mirrored hypotheses.
    ours, theirs = SPRT(elo0, elo0 + gap), SPRT(-elo0 - gap, -elo0)
    assert ours.llr(counts) == pytest.approx(-theirs.llr(counts[::-1]), abs=1e-6)


@given(st.one_of(counts3, counts5), elos, st.floats(1, 300))
def test_llr_never_drops_with_another_win_or_a_loss_turned_win(counts, elo0, gap):
    test = SPRT(elo0, elo0 + gap, model="trinomial" if len(counts) == 3 else "pentanomial")
    more = counts[:-1] + [counts[-1] + 1]
    assert test.llr(more) >= test.llr(counts) - 1e-9
    if counts[0]:
        turned = [counts[0] - 1] + counts[1:-1] + [counts[-1] + 1]
        assert test.llr(turned) >= test.llr(counts) - 1e-9


@given(st.lists(st.integers(1, 40), min_size=5, max_size=5), st.integers(0, 3), elos, st.floats(1, 300))
def test_llr_never_drops_when_a_result_moves_up(counts, i, elo0, gap):
    # With every category seen; with empty ones fishtest's regularisation can cost ~1e-3.
    up = list(counts)
    up[i], up[i + 1] = up[i] - 1, up[i + 1] + 1
    test = SPRT(elo0, elo0 + gap)
    assert test.llr(up) >= test.llr(counts) - 1e-9


def test_sprt_bounds_status_and_bad_input():
    test = SPRT(0, 50, alpha=0.05, beta=0.1)
    assert test.bounds == (pytest.approx(math.log(0.1 / 0.95)), pytest.approx(math.log(0.9 / 0.05)))
    assert test.status([0, 0, 1, 0, 0]) == "continue"
    assert test.status([0, 0, 0, 0, 40]) == "accept H1" and test.status([40, 0, 0, 0, 0]) == "accept H0"
    for bad in (dict(elo0=5, elo1=5), dict(elo0=0, elo1=5, alpha=0.6, beta=0.5), dict(elo0=0, elo1=5, model="x")):
        with pytest.raises(ValueError):
            SPRT(**bad)
    with pytest.raises(ValueError, match="5 pentanomial"):
        test.llr([1, 2, 3])


# ---------------------------------------------------------------- the SPRT on synthetic games


def pairs(rng, elo, draw_rate=0.3):
    probs = pair_probs(elo, draw_rate)
    while True:
        yield float(rng.choice(5, p=probs)) / 2


def test_sprt_recovers_a_known_difference():
    rng = np.random.default_rng(7)
    test = SPRT(0, 50)
    stronger = [run_sprt(test, pairs(rng, 150)).verdict for _ in range(10)]
    equal = [run_sprt(test, pairs(rng, 0)).verdict for _ in range(10)]
    assert stronger.count("confirmed") >= 9 and equal.count("refuted") >= 8
    assert "confirmed" not in equal


def test_run_sprt_reads_lazily_and_stops_where_the_llr_crosses():
    rng = np.random.default_rng(3)
    gen = pairs(rng, 60)
    stream = [next(gen) for _ in range(500)]
    read = []
    verdict = run_sprt(SPRT(0, 50), (read.append(s) or s for s in stream))
    assert verdict.verdict == "confirmed" and verdict.games == 2 * len(read)
    # The LLR of every shorter prefix lies strictly between the bounds.
    lower, upper = SPRT(0, 50).bounds
    prefixes = np.cumsum(np.eye(5)[[int(2 * s) for s in read]], axis=0)
    llr = SPRT(0, 50).llr(prefixes)
    assert np.all((llr[:-1] > lower) & (llr[:-1] < upper)) and llr[-1] >= upper
    assert verdict.llr == pytest.approx(llr[-1]) and len(read) < len(stream)


def test_sprt_budget_ends_not_decided_with_the_power_reached():
    rng = np.random.default_rng(5)
    test = SPRT(0, 10)  # a close call: 40 games cannot settle it
    read = []
    verdict = run_sprt(test, (read.append(s) or s for s in pairs(rng, 5)), max_games=41)
    assert len(read) == 20  # no pair played beyond the budget
    lower, upper = test.bounds
    assert verdict.verdict == "not decided" and verdict.games == 40
    assert lower < verdict.llr < upper and 0.05 < verdict.power < 0.2
    assert verdict.p_value == verdict.p_refute == 1.0
    assert run_sprt(test, [], max_games=10).games == 0


# ---------------------------------------------------------------- the sequential sign test

#: The test of alpha-beta slower than minimax (docs/interpretation.md, entry 178): six cases.
SLOWER = SignSPRT(0.5, 0.6, alpha=0.05 / 6, beta=0.05, first_look=22, every=2, max_trials=800)


def test_sign_sprt_decides_clearly_slower_clearly_faster_and_even_sequences():
    rng = np.random.default_rng(11)
    slower = SLOWER.run(rng.random(2000) < 0.8)
    faster = SLOWER.run(rng.random(2000) < 0.2)
    assert slower.verdict == "confirmed" and faster.verdict == "refuted"
    assert slower.trials % 2 == 0 and 22 <= slower.trials < 200 and faster.trials == 22
    assert SLOWER.run([False] * 100).trials == 22  # faster in every pair: the first look decides
    even = [SLOWER.run(rng.random(2000) < 0.5).verdict for _ in range(200)]
    assert even.count("confirmed") <= 5 and even.count("refuted") >= 190  # 0.007 and 0.991 exactly
    # alternating wins and losses: the LLR falls by 0.02 a pair of trials and meets H0's bound
    alternating = SLOWER.run([k % 2 == 0 for k in range(2000)])
    assert alternating.verdict == "refuted" and alternating.wins * 2 == alternating.trials
    assert SLOWER.llr(alternating.wins, alternating.trials - 2) > SLOWER.bounds[0] >= alternating.llr


def test_sign_sprt_stops_only_at_its_looks_and_at_the_cap():
    read = []
    run = SLOWER.run(read.append(False) or False for _ in range(1000))
    assert run.trials == len(read) == 22  # past the lower bound at 14 but not looked at until 22
    assert SLOWER.llr(0, 14) < SLOWER.bounds[0] < SLOWER.llr(0, 13)
    wins = SLOWER.run([True] * 1000)  # 0.18 a win: the upper bound, 4.74, at 26
    assert wins.trials == 26 and SLOWER.llr(25, 25) < SLOWER.bounds[1] <= wins.llr
    assert [n for n in range(1, 30) if SLOWER.looks_at(n)] == [22, 24, 26, 28] and SLOWER.looks_at(800)
    assert SLOWER.status(27, 27) == "continue" and SLOWER.status(28, 28) == "accept H1"
    # the cap: a share in the middle never crosses within 30 trials, and no trial is asked beyond it
    capped = SignSPRT(0.5, 0.6, first_look=2, every=2, max_trials=30)
    read = []
    run = capped.run(read.append(k % 2 == 0) or k % 2 == 0 for k in range(1000))
    assert run.trials == len(read) == 30 and run.verdict == "not decided"
    lower, upper = capped.bounds
    assert lower < run.llr < upper
    assert capped.run([]).trials == 0 and capped.run([True]).status == "continue"
    for bad in (dict(p0=0.6, p1=0.5), dict(p0=0.5, p1=0.6, alpha=0.9, beta=0.2),
                dict(p0=0.5, p1=0.6, first_look=0), dict(p0=0.5, p1=0.6, first_look=50, max_trials=40),
                dict(p0=0.5, p1=0.6, every=0)):
        with pytest.raises(ValueError):
            SignSPRT(**bad)
    with pytest.raises(ValueError, match="wins <= trials"):
        SLOWER.llr(5, 4)


def test_sign_sprt_operating_characteristic_as_entry_178_states_it():
    """The chance of each verdict at a true share of 0.5 (two searches of equal cost), 0.6 (H1)
    and 0.67 (state 2, depth 2 in the 21-pair run), and inside the indifference zone."""
    expected = {  # confirmed, refuted, not decided, mean trials
        0.0: (0.0, 1.0, 0.0, 22.0),
        0.5: (0.0072, 0.9912, 0.0016, 152.0),
        0.55: (0.3367, 0.5634, 0.0998, 346.5),
        0.6: (0.9540, 0.0422, 0.0038, 225.8),
        0.67: (0.9996, 0.0004, 0.0, 101.1),
    }
    for share, (confirmed, refuted, undecided, trials) in expected.items():
        oc = SLOWER.operating_characteristic(share)
        assert oc["confirmed"] + oc["refuted"] + oc["not decided"] == pytest.approx(1.0)
        assert (oc["confirmed"], oc["refuted"], oc["not decided"]) == pytest.approx(
            (confirmed, refuted, undecided), abs=1e-4)
        assert oc["mean trials"] == pytest.approx(trials, abs=0.1)
    # the declared error rates hold: false confirmation at 0.5 within alpha / 6, false refutation at 0.6
    # within beta; the rejected design H0 0.4 against H1 0.6 is a coin at a share of 0.5
    assert SLOWER.operating_characteristic(0.5)["confirmed"] <= 0.05 / 6
    assert SLOWER.operating_characteristic(0.6)["refuted"] <= 0.05
    wide = SignSPRT(0.4, 0.6, alpha=0.05 / 6, beta=0.05, first_look=22, every=2, max_trials=800)
    oc = wide.operating_characteristic(0.5)
    assert oc["confirmed"] == pytest.approx(0.4034, abs=1e-4) and oc["refuted"] == pytest.approx(0.5965, abs=1e-4)


def test_sign_sprt_operating_characteristic_agrees_with_simulation():
    rng = np.random.default_rng(178)
    test = SignSPRT(0.5, 0.6, alpha=0.05, beta=0.05, first_look=6, every=2, max_trials=120)
    for share in (0.45, 0.55, 0.62):
        runs = [test.run(rng.random(200) < share) for _ in range(3000)]
        oc = test.operating_characteristic(share)
        for verdict in ("confirmed", "refuted", "not decided"):
            seen = np.mean([r.verdict == verdict for r in runs])
            assert seen == pytest.approx(oc[verdict], abs=4 * math.sqrt(0.25 / 3000))
        assert np.mean([r.trials for r in runs]) == pytest.approx(oc["mean trials"], rel=0.05)


@pytest.mark.parametrize("model, elo0, elo1", [
    ("pentanomial", 0, 100),
    ("trinomial", 0, 100),
    pytest.param("pentanomial", 0, 50, marks=pytest.mark.slow),
    pytest.param("trinomial", -20, 30, marks=pytest.mark.slow),
])
def test_sprt_keeps_its_error_rates(model, elo0, elo1):
    runs, alpha, beta = 2000, 0.05, 0.05
    test = SPRT(elo0, elo1, alpha, beta, model=model)
    rng = np.random.default_rng(2024)
    probs = pair_probs if model == "pentanomial" else game_probs
    at_h0, _ = simulate_sprt(test, probs(elo0, 0.3), runs, rng)
    at_h1, _ = simulate_sprt(test, probs(elo1, 0.3), runs, rng)
    assert np.all(at_h0 != 0) and np.all(at_h1 != 0)  # every run decided
    assert np.mean(at_h0 == 1) <= alpha + tolerance(alpha, runs)
    assert np.mean(at_h1 == -1) <= beta + tolerance(beta, runs)


def test_pairs_need_fewer_games_than_single_games():
    # The point of the pentanomial model: colour-swapped pairs are less noisy than their games.
    rng = np.random.default_rng(11)
    _, pairs_used = simulate_sprt(SPRT(0, 100), pair_probs(50, 0.3, colour=0.15), 1000, rng)
    _, games_used = simulate_sprt(SPRT(0, 100, model="trinomial"), game_probs(50, 0.3), 1000, rng)
    assert 2 * pairs_used.mean() < 0.9 * games_used.mean()


# ---------------------------------------------------------------- a fixed number of games


def test_games_for_power_by_hand():
    # Score 0.6 with 20% draws: variance 0.6 * 0.4 - 0.2 / 4 = 0.19; (2 * 1.6449)^2 * 0.19 / 0.01.
    assert games_for_power(0.5, 0.6, draw_rate=0.2) == math.ceil((2 * 1.6448536269514722) ** 2 * 19)
    assert games_for_power(0.5, 0.6, alpha=0.01, draw_rate=0.2) > games_for_power(0.5, 0.6, draw_rate=0.2)
    with pytest.raises(ValueError, match="draw_rate"):
        games_for_power(0.5, 0.9, draw_rate=0.5)
    # Counts exactly at p1 with that many games reach the power asked for.
    n = games_for_power(0.5, expected_score(50), draw_rate=0.3)
    games, _, var = moments(n * game_probs(50, 0.3))
    assert power_reached(games, 0, 50, variance=var) == pytest.approx(0.95, abs=0.002)


def test_score_test_by_hand_and_recovers_a_known_difference(rng):
    v = score_test([30, 20, 50], elo0=0, elo1=50)
    # Mean 0.6, variance 0.19 over 100 games: z = 0.1 / sqrt(0.0019).
    assert v.p_value == pytest.approx(1 - 0.5 * math.erfc(-(0.1 / math.sqrt(0.0019)) / math.sqrt(2)))
    assert (v.verdict, v.games, v.method) == ("confirmed", 100, "z-test (trinomial)")
    stronger = score_test(rng.multinomial(200, pair_probs(100, 0.3)), elo1=50)
    weaker = score_test(rng.multinomial(200, pair_probs(-60, 0.3)), elo1=50)
    assert stronger.verdict == "confirmed" and stronger.games == 400 and stronger.low > 0
    assert weaker.verdict == "refuted" and weaker.high < 50
    equal = [score_test(rng.multinomial(100, game_probs(0, 0.3))).verdict for _ in range(200)]
    assert equal.count("confirmed") <= 20 and equal.count("refuted") <= 20


@given(counts3, st.floats(-100, 100), st.floats(0, 100))
def test_score_test_decides_as_its_interval_says(counts, elo0, gap):
    # Confirmed exactly when the lower bound clears elo0, refuted when (not confirmed and)
    # the upper bound stays below elo1: the test and its interval are one computation.
    v = score_test(counts, elo0, elo0 + gap)
    assume(abs(v.low - elo0) > 1e-6 and abs(v.high - elo0 - gap) > 1e-6)
    assert (v.verdict == "confirmed") == (v.low > elo0)
    assert (v.verdict == "refuted") == (v.low < elo0 and v.high < elo0 + gap)


@pytest.mark.parametrize("paired", [False, True])
def test_fixed_test_keeps_size_and_power(paired):
    runs, alpha, beta, elo1 = 3000, 0.05, 0.05, 50
    games = games_for_power(0.5, expected_score(elo1), alpha, beta, draw_rate=0.3)
    rng = np.random.default_rng(99)

    def rejections(elo):
        draws = (rng.multinomial(games // 2, pair_probs(elo, 0.3), size=runs) if paired
                 else rng.multinomial(games, game_probs(elo, 0.3), size=runs))
        return np.mean([score_test(c, 0, elo1, alpha, beta).verdict == "confirmed" for c in draws])

    size, power = rejections(0), rejections(elo1)
    assert size <= alpha + tolerance(alpha, runs)
    assert power >= 1 - beta - tolerance(beta, runs)


# ---------------------------------------------------------------- Holm and families


def test_the_sign_test_is_two_binomial_tails_of_the_games_only_one_side_won():
    assert sign_test(9, 1) == pytest.approx(2 * (1 + 10) / 2**10) == sign_test(1, 9)
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0 and sign_test(3, 0) == pytest.approx(2 / 8)
    tail = sum(math.comb(88, i) for i in range(38)) / 2**88  # 37 against 51: P(X <= 37), doubled
    assert sign_test(37, 51) == pytest.approx(2 * tail)


def test_wins_above_is_the_binomial_tail():
    assert np.isclose(wins_above(10, 10), 0.5**10) and np.isclose(wins_above(0, 10), 1.0)
    assert np.isclose(wins_above(8, 10), (45 + 10 + 1) / 1024)
    assert np.isclose(wins_above(2, 3, share=0.25), 3 * 0.25**2 * 0.75 + 0.25**3)
    assert np.isclose(wins_above(132, 200), 1 - sum(math.comb(200, i) for i in range(132)) / 2**200)
    exact = sum(math.comb(2000, i) for i in range(1100, 2001)) / 2**2000  # exact integers, then one division
    assert np.isclose(wins_above(1100, 2000), exact, rtol=1e-9) and exact > 1e-6  # no underflow past 1,074 games
    with pytest.raises(ValueError):
        wins_above(11, 10)


def test_holm_by_hand():
    adjusted, rejected = holm([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    assert np.allclose(adjusted, [0.03, 0.06, 0.06, 0.02]) and rejected.tolist() == [True, False, False, True]
    # Five p-values 0.01..0.05: 5 x 0.01 = 0.05, 4 x 0.02 = 0.08, 3 x 0.03 = 0.09, then kept at 0.09.
    adjusted, rejected = holm([0.05, 0.04, 0.03, 0.02, 0.01])
    assert np.allclose(adjusted, [0.09, 0.09, 0.09, 0.08, 0.05]) and rejected.tolist() == [False] * 4 + [True]
    adjusted, rejected = holm([0.2, 0.9, 0.6])
    assert np.allclose(adjusted, [0.6, 1.0, 1.0]) and not rejected.any()
    assert holm([0.03])[1].tolist() == [True]
    with pytest.raises(ValueError):
        holm([0.5, 1.5])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=8), st.floats(0.001, 0.2))
def test_holm_lies_between_bonferroni_and_no_correction(p, alpha):
    adjusted, rejected = holm(p, alpha)
    m = len(p)
    assert np.all(adjusted >= np.array(p) - 1e-12) and np.all(adjusted <= np.minimum(1, m * np.array(p)) + 1e-12)
    assert np.all(rejected[np.array(p) * m <= alpha]) and not np.any(rejected[np.array(p) > alpha])


def verdict(p_value=1.0, p_refute=1.0, estimate=0.0, method="z-test"):
    label = "confirmed" if p_value <= 0.05 else "refuted" if p_refute <= 0.05 else "not decided"
    return Verdict(method, 100, estimate, estimate - 50, estimate + 50, 0.05, 0.05, 0.0, 50.0, math.nan,
                   label, p_value, p_refute)


def test_family_each_is_intersection_union_and_any_needs_holm():
    two = [verdict(0.04, estimate=60), verdict(0.04, estimate=90)]
    each, any_ = judge_family(two, "each"), judge_family(two, "any")
    assert each.verdict == "confirmed" and each.p_value == 0.04 and each.estimate == 60 and each.games == 200
    assert any_.verdict == "not decided" and any_.p_value == pytest.approx(0.08)
    # One pair confirmed at 0.01 is enough for "any" (Holm: 2 x 0.01), not for "each".
    mixed = [verdict(0.01), verdict(0.5)]
    assert judge_family(mixed, "any").verdict == "confirmed" and judge_family(mixed, "each").verdict == "not decided"
    # Refuting "each" needs one refuted pair after Holm; refuting "any" needs all.
    assert judge_family([verdict(p_refute=0.04), verdict()], "each").verdict == "not decided"
    assert judge_family([verdict(p_refute=0.02), verdict()], "each").verdict == "refuted"
    assert judge_family([verdict(p_refute=0.02), verdict()], "any").verdict == "not decided"
    assert judge_family([verdict(p_refute=0.04), verdict(p_refute=0.05)], "any").verdict == "refuted"
    with pytest.raises(ValueError):
        judge_family([], "each")


def test_sprt_family_refutes_each_only_at_beta_over_k():
    # Each lost pair moves the LLR by about log((1 - s1) / (1 - s0)) = -0.15: 30 pass the
    # bound -2.94 at beta, 40 pass -4.04 at beta / 3.
    h0 = SPRT(0, 50)
    lost = [30, 0, 0, 0, 0]
    assert h0.verdict(lost).verdict == "refuted" and h0.verdict(lost).p_refute == 0.05
    won = SPRT(0, 50, beta=0.05 / 3).verdict([0, 0, 0, 0, 40])
    sharp = SPRT(0, 50, beta=0.05 / 3).verdict([40, 0, 0, 0, 0])
    assert won.verdict == "confirmed" and sharp.verdict == "refuted"
    assert judge_family([h0.verdict(lost), won, won], "each").verdict == "not decided"
    assert judge_family([sharp, won, won], "each").verdict == "refuted"


def test_family_error_rates_on_simulated_pairs():
    # Two pairs whose players are equal: "any" at Holm keeps alpha, the naive "any pair
    # confirmed" does not; "each" with one equal and one much stronger pair keeps alpha
    # without correction (the intersection-union test).
    runs, rng = 3000, np.random.default_rng(17)
    null = rng.multinomial(200, game_probs(0, 0.3), size=(runs, 2))
    strong = rng.multinomial(200, game_probs(300, 0.3), size=runs)
    tests = [[score_test(c) for c in family] for family in null]
    holm_rate = np.mean([judge_family(t, "any").verdict == "confirmed" for t in tests])
    naive_rate = np.mean([any(v.verdict == "confirmed" for v in t) for t in tests])
    each_rate = np.mean([judge_family([t[0], score_test(s)], "each").verdict == "confirmed"
                         for t, s in zip(tests, strong)])
    assert holm_rate <= 0.05 + tolerance(0.05, runs) and naive_rate > 0.05 + tolerance(0.05, runs)
    assert each_rate <= 0.05 + tolerance(0.05, runs)


def test_verdict_is_a_csv_row():
    v = score_test([30, 20, 50], elo1=50)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(v.row()))
    writer.writeheader()
    writer.writerow(v.row())
    header = out.getvalue().splitlines()[0].split(",")
    assert header[:11] == ["method", "games", "estimate", "low", "high", "alpha", "beta", "elo0", "elo1",
                           "llr", "verdict"]
    with pytest.raises(ValueError, match="verdict must be"):
        Verdict("x", 0, 0, 0, 0, 0.05, 0.05, 0, 1, 0, "maybe")


@given(st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.sampled_from([0.01, 0.05, 0.2]))
def test_binomial_tests_and_bounds_agree_with_scipy(events_n, level):
    from scipy.stats import binomtest

    from fepaper.stats.binomial import exact_bounds, wilson

    k, n = events_n
    low, high = exact_bounds(k, n, level)
    assert low == pytest.approx(binomtest(k, n, alternative="greater").proportion_ci(1 - level, "exact").low,
                                abs=1e-9)
    assert high == pytest.approx(binomtest(k, n, alternative="less").proportion_ci(1 - level, "exact").high,
                                 abs=1e-9)
    assert wins_above(k, n, 0.3) == pytest.approx(binomtest(k, n, 0.3, alternative="greater").pvalue, rel=1e-9)
    assert sign_test(k, n - k) == pytest.approx(binomtest(k, n, 0.5).pvalue, rel=1e-9)
    assert wilson(k, n) == pytest.approx(tuple(binomtest(k, n).proportion_ci(0.95, "wilson")), abs=1e-12)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12), st.sampled_from([0.01, 0.05, 0.1]))
def test_holm_agrees_with_statsmodels(p, alpha):
    from statsmodels.stats.multitest import multipletests

    rejected, adjusted, _, _ = multipletests(p, alpha, method="holm")
    ours, ours_rejected = holm(p, alpha)
    assert ours == pytest.approx(adjusted, abs=1e-12)
    assert (ours_rejected == rejected).all() or np.any(np.isclose(adjusted, alpha))


# ---------------------------------------------------------------- against scipy and statsmodels


@pytest.mark.parametrize("p0, p1", [(0.5, 0.6), (0.5, 0.7), (0.4, 0.55), (0.6, 0.65)])
def test_games_for_power_reaches_its_power_on_exact_binomial_games(p0, p1):
    # With no draws, the z-test on n games is a rule on the wins; its exact size and power under
    # the binomial law land on what games_for_power was asked for.
    from scipy.stats import binom, norm

    n = games_for_power(p0, p1)
    assert n == math.ceil(((norm.ppf(0.95) * 2) ** 2 * p1 * (1 - p1) / (p1 - p0) ** 2) - 1e-9)
    wins = np.arange(1, n)  # all or no wins: a sample without variance, left out of both sums
    rejected = wins[[score_test([n - k, 0, k], elo_from_score(p0)).verdict == "confirmed"
                     for k in wins]]
    assert abs(binom.pmf(rejected, n, p1).sum() - 0.95) < 0.02
    assert binom.pmf(rejected, n, p0).sum() < 0.05 + 0.01


@given(st.tuples(*[st.integers(1, 60)] * 3), st.floats(-100, 100))
def test_score_test_is_scipys_normal_tail(counts, elo0):
    from scipy.stats import norm

    scores = np.repeat([0.0, 0.5, 1.0], counts)  # no empty category: nothing regularised
    v = score_test(counts, elo0)
    z = (scores.mean() - expected_score(elo0)) / math.sqrt(scores.var() / len(scores))
    assert v.p_value == pytest.approx(norm.sf(z), abs=1e-12)
    assert v.p_refute == pytest.approx(norm.cdf(z), abs=1e-12)


@given(st.integers(0, 2000), st.floats(-300, 300), st.floats(1, 300), st.sampled_from([0.01, 0.05, 0.1]),
       st.one_of(st.none(), st.floats(0.01, 0.25)))
def test_power_reached_is_scipys_normal_power(samples, elo0, gap, alpha, variance):
    from scipy.stats import norm

    s0, s1 = expected_score(elo0), expected_score(elo0 + gap)
    var = s1 * (1 - s1) if variance is None else variance
    want = norm.sf(norm.ppf(1 - alpha) - math.sqrt(samples / var) * (s1 - s0)) if samples else 0.0
    assert power_reached(samples, elo0, elo0 + gap, alpha, variance) == pytest.approx(want, abs=1e-9)
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        power_reached(samples, elo0, elo0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_line_and_prediction_interval_agree_with_statsmodels_ols(seed):
    import statsmodels.api as sm

    from fepaper.stats.regression import fit_line

    rng = np.random.default_rng(seed)
    x = rng.uniform(10, 40, size=8 + 3 * seed)
    y = 0.3 * x + rng.normal(size=len(x))
    fit = sm.OLS(y, sm.add_constant(x)).fit()
    line = fit_line(x, y)
    assert (line.intercept, line.slope) == pytest.approx(tuple(fit.params), rel=1e-9)
    assert line.residual_sd == pytest.approx(math.sqrt(fit.scale), rel=1e-9)
    for at, level in ((25.0, 0.95), (60.0, 0.95), (5.0, 0.8)):
        frame = fit.get_prediction(np.array([[1.0, at]])).summary_frame(alpha=1 - level)
        mid, low, high = line.predict(at, level)
        assert (mid, low, high) == pytest.approx(
            (frame["mean"][0], frame["obs_ci_lower"][0], frame["obs_ci_upper"][0]), rel=1e-9)
    with pytest.raises(ValueError, match="at least three points"):
        fit_line([1, 1, 1], [1, 2, 3])


def test_bootstraps_are_numpys_resampling_with_the_same_generator():
    from fepaper.stats.bootstrap import means, ratio_of_totals

    x, y = np.random.default_rng(3).exponential(size=(2, 25))
    ours = means(x, 500, np.random.default_rng([7, 45]))
    rng = np.random.default_rng([7, 45])
    direct = np.array([rng_row.mean() for rng_row in x[rng.integers(25, size=(500, 25))]])
    assert np.array_equal(ours, direct)
    pick = np.random.default_rng(7).integers(25, size=(300, 25))
    assert np.array_equal(ratio_of_totals(x, y, 300, np.random.default_rng(7)),
                          np.array([x[p].sum() / y[p].sum() for p in pick]))
    # The percentile interval of a mean covers the mean of normal samples about as often as it says.
    rng = np.random.default_rng(11)
    covered = [np.quantile(means(s, 400, rng), 0.05) < 0 < np.quantile(means(s, 400, rng), 0.95)
               for s in rng.normal(size=(300, 40))]
    assert abs(np.mean(covered) - 0.9) < 0.06
    with pytest.raises(ValueError, match="one numerator and one denominator"):
        ratio_of_totals([1, 2], [1], 10, rng)


def test_bradley_terry_is_the_logistic_glm_of_the_same_games():
    # Bradley-Terry's maximum likelihood is a logistic regression of each game's score on +1 for
    # one player and -1 for the other; the MM iterations (no prior) land on the GLM's fit.
    import statsmodels.api as sm

    from fepaper.stats.ratings import bradley_terry

    rng = np.random.default_rng(4)
    strength = np.array([0.0, 0.5, -0.3, 1.2])
    wins = np.zeros((4, 4))
    rows, scores = [], []
    for i in range(4):
        for j in range(i + 1, 4):
            for _ in range(40):
                p = 1 / (1 + math.exp(strength[j] - strength[i]))
                s = 0.5 if rng.random() < 0.2 else float(rng.random() < p)
                wins[i, j] += s
                wins[j, i] += 1 - s
                row = np.zeros(4)
                row[i], row[j] = 1, -1
                rows.append(row[1:])  # player 0 is the reference, its strength 0
                scores.append(s)
    glm = sm.GLM(np.array(scores), np.array(rows), family=sm.families.Binomial()).fit()
    ours = np.log(bradley_terry(wins, prior=0))
    assert ours[1:] - ours[0] == pytest.approx(glm.params, abs=1e-6)
