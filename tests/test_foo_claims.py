"""The declared tests of Foo's report (notebook 12): the ladder's family verdict, the rules of the
sentences on the space of moves, the arithmetic of the stated limits."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper.controllers.foo import MACHINES
from fepaper.experiments.reference import foo_claims as C
from fepaper.stats.sequential import SPRT
from fepaper.stats.verdicts import Verdict


def _verdict(verdict: str, games: int = 100) -> Verdict:
    test = SPRT(**C.LADDER.sprt)
    return Verdict("SPRT (pentanomial)", games, 50.0, 10.0, 90.0, test.alpha, test.beta, test.elo0, test.elo1,
                   1.0, verdict, p_value=test.alpha if verdict == "confirmed" else 1.0,
                   p_refute=test.beta if verdict == "refuted" else 1.0)


def test_the_ladder_is_the_six_adjacent_pairs_in_foos_order():
    assert list(C.ORDER) == sorted(MACHINES, key=lambda m: MACHINES[m][0])
    pairs = C.LADDER.pairs()
    assert len(pairs) == 6
    for k, (key, a, b) in enumerate(pairs):
        assert (a["machine"], b["machine"]) == (C.ORDER[k + 1], C.ORDER[k])
        assert key == f"{C.ORDER[k + 1]}-beats-{C.ORDER[k]}"
    assert C.LADDER.sprt == {"elo0": 0.0, "elo1": 70.0, "alpha": 0.05, "beta": 0.05 / 6}


@pytest.mark.parametrize("outcomes, family", [
    (["confirmed"] * 6, "confirmed"),
    (["confirmed"] * 5 + ["not decided"], "not decided"),
    (["confirmed"] * 5 + ["refuted"], "refuted"),
    (["refuted", "not decided", "confirmed", "confirmed", "confirmed", "confirmed"], "refuted"),
    (["not decided"] * 6, "not decided"),
])
def test_the_family_is_judged_each_with_holm_on_the_refuting_side(outcomes, family):
    verdicts = {key: _verdict(v) for (key, _, _), v in zip(C.LADDER.pairs(), outcomes)}
    assert C.ladder_verdict(verdicts).verdict == family
    rows = C.ladder_rows(verdicts)
    assert rows.verdict.tolist() == outcomes and rows.stronger.tolist() == list(C.ORDER[1:])


def test_a_pair_refuted_at_the_full_beta_does_not_refute_the_family():
    """An SPRT run at beta rather than beta / 6 cannot count under Holm: the pairs must run at pair_beta."""
    loose = Verdict("SPRT", 10, 0.0, -1.0, 1.0, 0.05, 0.05, 0.0, 70.0, -3.0, "refuted", p_value=1.0, p_refute=0.05)
    verdicts = {key: _verdict("confirmed") for key, _, _ in C.LADDER.pairs()}
    verdicts[C.LADDER.pairs()[2][0]] = loose
    assert C.ladder_verdict(verdicts).verdict == "not decided"


def test_foos_stated_products_and_his_example():
    rows = C.arithmetic_rows().set_index("figure")
    assert rows.verdict.iloc[:4].eq("confirmed").all()
    example = rows.loc["Watch3Ahead example: 100/18 × 105000"]
    assert example.recomputed == pytest.approx(583_333.33, abs=0.01) and example.verdict == "refuted"


def test_the_kick_off_and_the_nodes_a_turn_can_end_on():
    assert C.first_moves() == 8
    assert C.ending_nodes() == 50  # 7 x 7 inner nodes and the two goal mouths' middle nodes, less the kick-off


@given(st.lists(st.integers(0, 20), min_size=1, max_size=30), st.integers(0, 10))
def test_the_bootstrap_interval_holds_the_estimate(numerator, seed):
    den = [n + 5 for n in numerator]
    estimate, low, high = C.game_interval(numerator, den, seed=seed, resamples=300)
    assert estimate == pytest.approx(sum(numerator) / sum(den))
    ratios = np.divide(numerator, den)  # a ratio of sums is a weighted mean of the games' ratios
    assert ratios.min() - 1e-12 <= low <= high <= ratios.max() + 1e-12


def _positions(counts_per_game):
    return pd.DataFrame([{"game": g, "turns": t} for g, counts in enumerate(counts_per_game) for t in counts])


def _listings(share_2, share_3, games=20):
    return pd.DataFrame([{"machine": m, "game": g, "listings": 100, "full": int(100 * s)}
                         for m, s in (("Watch2Ahead", share_2), ("Watch3Ahead", share_3)) for g in range(games)])


def test_the_space_of_moves_rules():
    usual = [[20, 50, 80, 150, 12, 30]] * 30  # 5 of 6 in [10, 100], one big position a game
    games = pd.DataFrame({"game": range(30), "fresh": [40] * 30})
    table = C.claims_table(_positions(usual), games, _listings(0.95, 0.97)).set_index("key")
    assert table.loc["first-moves", "verdict"] == "confirmed"
    assert table.loc["usually-10-100", "verdict"] == "confirmed"
    assert table.loc["sometimes-1000", "verdict"] == "confirmed"
    assert table.loc["biggest-5000", "verdict"] == "not decided"  # 150 is far below: the sample may not meet it
    assert table.loc["fifty-moves", "verdict"] == "confirmed"
    assert table.loc["limits-reached", "verdict"] == "confirmed"
    rare = [[5, 6, 7, 200, 300, 400, 12_000]] * 30
    games = pd.DataFrame({"game": range(30), "fresh": [51] + [40] * 29})
    table = C.claims_table(_positions(rare), games, _listings(0.5, 0.97)).set_index("key")
    assert table.loc["usually-10-100", "verdict"] == "refuted"
    assert table.loc["sometimes-1000", "verdict"] == "refuted"  # four a game
    assert table.loc["biggest-5000", "verdict"] == "refuted"
    assert table.loc["fifty-moves", "verdict"] == "refuted"
    assert table.loc["limits-reached", "verdict"] == "refuted"
    near = C.claims_table(_positions([[4000]]), games, _listings(0.9, 0.9, games=1)).set_index("key")
    assert near.loc["biggest-5000", "verdict"] == "confirmed"


def test_slower_needs_every_adjacent_ratio_above_one():
    rows = [{"machine": m, "seconds": (k + 1) * (1 + 0.01 * g), "decisions": 10}
            for k, m in enumerate(C.ORDER) for g in range(20)]
    pairs, family = C.slower_rows(pd.DataFrame(rows))
    assert pairs.verdict.eq("confirmed").all() and family["verdict"] == "confirmed"
    same = [dict(r, seconds=1.0 + 0.01 * (i % 7)) if r["machine"] == C.ORDER[2] else r
            for i, r in enumerate(rows)]
    pairs, family = C.slower_rows(pd.DataFrame(same))
    assert family["verdict"] == "refuted" and pairs.verdict.iloc[1] == "refuted"
    empty = C.slower_rows(pd.DataFrame(rows[:20], columns=["machine", "seconds", "decisions"]))[0]
    assert math.isnan(empty.ratio.iloc[-1]) and empty.verdict.iloc[-1] == "not decided"
