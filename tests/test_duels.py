"""Duels that stop when decided (experiments/thesis/duels.py) and family contrasts through
Bradley-Terry ratings (stats/contrasts.py)."""

import math

import numpy as np
import pytest

from fepaper.experiments.thesis.duels import FixedSample, Pairing, decide, pair_scores, play_pairings
from fepaper.play.gamefile import GameFileError
from fepaper.play.pools import SerialExecutor
from fepaper.stats.contrasts import contrast, league_ratings
from fepaper.stats.elo import expected_score
from fepaper.stats.sequential import SPRT, run_sprt

GREEDY, RANDOM = {"name": "greedy"}, {"name": "random"}


def test_a_lopsided_duel_stops_when_its_sprt_decides_and_a_level_one_plays_on(tmp_path):
    """greedy against random is decided within a few rounds; random against random never is,
    so it plays its max_games: the run plays only what the tests need."""
    duels = [Pairing("strong", GREEDY, RANDOM, {"better": SPRT(0, 200)}, max_games=64),
             Pairing("even", RANDOM, dict(RANDOM, seed=3), {"better": SPRT(0, 200)}, max_games=16)]
    out = tmp_path / "duels.csv"
    result = play_pairings("standard", duels, seed=4, out=out, executor=SerialExecutor(), progress=False,
                           round_pairs=2)
    strong, even = result["strong"], result["even"]
    assert strong.verdicts["better"].verdict == "confirmed"
    assert strong.games < 64 and strong.games % 4 == 0  # whole rounds of 2 pairs
    assert strong.verdicts["better"].games <= strong.games
    assert even.games == 16 and even.verdicts["better"].games == 16
    # A rerun replays nothing and finds the same verdicts; the file holds exactly the games played.
    again = play_pairings("standard", duels, seed=4, out=out, executor=SerialExecutor(), progress=False,
                          round_pairs=2)
    assert again["strong"].rows == strong.rows and again["even"].rows == even.rows
    assert sum(1 for _ in open(out)) - 1 == strong.games + even.games


def test_the_hypotheses_cannot_change_once_games_are_on_file(tmp_path):
    out = tmp_path / "duels.csv"
    duel = Pairing("d", GREEDY, RANDOM, {"better": SPRT(0, 200)}, max_games=8)
    play_pairings("standard", [duel], seed=1, out=out, executor=SerialExecutor(), progress=False)
    moved = Pairing("d", GREEDY, RANDOM, {"better": SPRT(0, 100)}, max_games=8)
    with pytest.raises(GameFileError):
        play_pairings("standard", [moved], seed=1, out=out, executor=SerialExecutor(), progress=False)


def test_a_fixed_sample_waits_for_its_games():
    test = FixedSample(0, 70, games=8)
    assert decide(test, [2.0, 2.0], 20) is None
    verdict = decide(test, [2.0, 1.0, 2.0, 1.5, 0.0], 20)
    assert verdict is not None and verdict.games == 8


def test_pair_scores_and_bad_pairings():
    rows = [{"score_a": s} for s in (1.0, 0.5, 0.0, 1.0, 1.0)]
    assert pair_scores(rows) == [1.5, 1.0]  # the fifth game has no partner yet
    with pytest.raises(ValueError, match="max_games"):
        Pairing("x", GREEDY, RANDOM, max_games=7)
    with pytest.raises(ValueError, match="pentanomial"):
        Pairing("x", GREEDY, RANDOM, {"t": SPRT(0, 70, model="trinomial")})
    with pytest.raises(ValueError, match="needs 40 games"):
        Pairing("x", GREEDY, RANDOM, {"t": FixedSample(0, 70, games=40)}, max_games=20)
    with pytest.raises(ValueError, match="even integer"):
        FixedSample(0, 70, games=9)
    with pytest.raises(ValueError, match="keys must differ"):
        play_pairings("standard", [Pairing("x", GREEDY, RANDOM)] * 2, executor=SerialExecutor())


def simulated_pairs(elo, n, rng, colour=0.05):
    """Pair scores of a player ``elo`` stronger, no draws, first move worth ``colour``."""
    s = expected_score(elo)
    first = rng.random(n) < s + colour
    second = rng.random(n) < s - colour
    return (first.astype(float) + second).tolist()


def test_decide_keeps_the_sprt_error_rates_on_simulated_duels():
    """The rule duels apply (an SPRT looked at pair by pair up to max_games) falsely confirms
    at most about alpha when elo = elo0 and falsely refutes at most about beta at elo1."""
    rng = np.random.default_rng(5)
    test = SPRT(0, 100, 0.05, 0.05)
    runs = 250
    for elo, wrong in ((0, "confirmed"), (100, "refuted")):
        verdicts = [decide(test, simulated_pairs(elo, 400, rng), 800).verdict for _ in range(runs)]
        rate = verdicts.count(wrong) / runs
        assert rate <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs), (elo, rate)
        assert verdicts.count("not decided") < runs // 20
    strong = [decide(test, simulated_pairs(200, 400, rng), 800).verdict for _ in range(100)]
    assert strong.count("confirmed") >= 95


def test_league_contrast_recovers_a_known_difference_and_keeps_its_size():
    """Families of two: A's best is 150 Elo above B's best in one league (confirmed); when
    the families are equally strong, "A's best rates above B's" is confirmed at most about
    alpha of the time (the maximum of a family is biased upwards alike on both sides)."""
    rng = np.random.default_rng(8)
    strengths = np.array([150.0, 0.0, 0.0, -50.0])  # A = {0, 1}, B = {2, 3}

    def league(strengths, n):
        return {(i, j): simulated_pairs(strengths[i] - strengths[j], n, rng)
                for i in range(4) for j in range(i + 1, 4)}

    ratings = league_ratings(4, league(strengths, 60), resamples=300, seed=1)
    verdict = contrast(ratings, [0, 1], [2, 3], elo0=0, elo1=70)
    assert verdict.verdict == "confirmed" and verdict.low > 0
    equal = np.array([0.0, -30.0, 0.0, -30.0])
    runs = 60
    wrong = sum(contrast(league_ratings(4, league(equal, 30), resamples=200, seed=r), [0, 1], [2, 3]).verdict
                == "confirmed" for r in range(runs))
    assert wrong <= runs * 0.05 + 3 * math.sqrt(runs * 0.05 * 0.95)


def test_contrast_refuses_overlapping_families():
    ratings = league_ratings(3, {(0, 1): [1.0] * 4, (1, 2): [1.0] * 4}, resamples=10)
    with pytest.raises(ValueError, match="disjoint"):
        contrast(ratings, [0, 1], [1, 2])
    with pytest.raises(ValueError, match="two different players"):
        league_ratings(2, {(0, 0): [1.0]})


def test_run_sprt_and_decide_agree():
    rng = np.random.default_rng(2)
    pairs = simulated_pairs(150, 200, rng)
    test = SPRT(0, 150)
    assert decide(test, pairs, 400) == run_sprt(test, pairs, 400)


def test_duels_play_the_same_games_on_a_dask_cluster():
    """Which games a duel plays depends only on its settings: the rounds are planned from the
    games on file, so a dask cluster plays the same games and reaches the same verdicts."""
    distributed = pytest.importorskip("distributed")
    strip = lambda rows: [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in rows]  # noqa: E731
    duels = [Pairing("strong", GREEDY, RANDOM, {"better": SPRT(0, 200)}, max_games=24),
             Pairing("even", RANDOM, dict(RANDOM, seed=3), {"better": SPRT(0, 200)}, max_games=8)]
    serial = play_pairings("standard", duels, seed=6, executor=SerialExecutor(), progress=False, round_pairs=2)
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = play_pairings("standard", duels, seed=6, executor=client.get_executor(), progress=False,
                                round_pairs=2)
    for key in serial:
        assert strip(serial[key].rows) == strip(on_dask[key].rows)
        assert serial[key].verdicts == on_dask[key].verdicts
