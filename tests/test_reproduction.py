"""The reproduction's duels and how their results become claims rows (experiments/thesis/reproduction.py)."""

import numpy as np
import pytest

from fepaper.experiments.thesis.claims import CLAIMS
from fepaper.experiments.thesis.duels import PairingResult, decide
from fepaper.experiments.thesis.players import COLONIES, colonies
from fepaper.experiments.thesis.reproduction import duels_of, judge
from fepaper.stats.elo import expected_score


def test_duels_state_their_hypotheses_and_family_sizes():
    duels = {p.key: p for p in duels_of(COLONIES, 40, league_games=11)}
    # A family of k duels refutes through Holm: each SPRT runs at beta / k, alpha unchanged.
    far = duels["dynamic-vs-static"].tests["dynamic-far"]
    assert (far.elo0, far.elo1, far.alpha, far.beta) == (70, 190, 0.05, pytest.approx(0.05 / 3))
    assert duels["dynamic-vs-ferdist"].tests["alphabeta-beats-colonies"].beta == pytest.approx(0.05 / 6)
    assert duels["dynamic-vs-ferdist"].tests["cannot-win"].beta == pytest.approx(0.05 / 2)
    assert set(duels["ferdist-vs-base"].tests) == {"two-better-than-first", "ferdist-beats-base"}
    assert duels["static-vs-costs"].b.get("costs", "bounces") == "bounces"  # the default reading
    assert duels["static-vs-costs-steps"].b["costs"] == "steps"
    assert duels["capped-vs-longer"].b["max_nodes"] > duels["capped-vs-longer"].a["max_nodes"]
    league = [p for k, p in duels.items() if k.startswith("league-")]
    assert len(league) == 15 and all(p.max_games == 10 and not p.tests for p in league)
    tested = {t for p in duels.values() for t in p.tests}
    assert tested <= {c.key for c in CLAIMS}


def test_colonies_must_be_the_six_tuned():
    with pytest.raises(ValueError, match="lack the colonies"):
        colonies({"base": COLONIES["base"]})
    swapped = dict(COLONIES, ferdist=COLONIES["base"])
    with pytest.raises(ValueError, match="another colony"):
        colonies(swapped)


def fake_results(strength, games=200, seed=0, duels=None):
    """Each duel's pair scores (default: of ``duels_of``) drawn for players of Elo
    ``strength(spec)``, judged by its tests."""
    rng = np.random.default_rng(seed)
    out = {}
    for p in duels if duels is not None else duels_of(COLONIES, games):
        s = expected_score(strength(p.a) - strength(p.b))
        pairs = ((rng.random(games // 2) < s).astype(float) + (rng.random(games // 2) < s)).tolist()
        verdicts = {name: decide(t, pairs, games) for name, t in p.tests.items()}
        used = max([v.games for v in verdicts.values()], default=games)
        out[p.key] = PairingResult(p, [{}] * used, pairs[: used // 2], verdicts)
    return out


def test_judge_recovers_a_world_where_the_thesis_holds_and_one_where_it_does_not():
    def thesis_world(spec):
        if spec["name"] == "alphabeta":
            return {"dynamic": 900, "static": 500, "costs": 500, "nocycles": 380}[spec["variant"]]
        return {"base": 0, "ferdist": 150, "ferdistrival": 300}[spec["variant"]] + 350 * spec.get(
            "once_per_cycle", False)

    rows = {r["key"]: r for r in judge(fake_results(thesis_world), "thesis", resamples=200)}
    for key in ("dynamic-far", "nocycles-worse", "two-better-than-first", "ferdist-beats-base",
                "alphabeta-beats-colonies", "ferdistrival-best", "costs-unnecessary"):
        assert rows[key]["verdict"] == "confirmed", (key, rows[key])
    assert rows["dynamic-far"]["games"] > 0 and rows["dynamic-far"]["rules"] == "thesis"

    def flat_world(spec):
        return 0.0

    rows = {r["key"]: r for r in judge(fake_results(flat_world, seed=1), "thesis", resamples=200)}
    for key in ("dynamic-far", "two-better-than-first", "alphabeta-beats-colonies", "last-quite-better",
                "cannot-win"):
        assert rows[key]["verdict"] == "refuted", (key, rows[key])
    assert rows["ferdistrival-best"]["verdict"] != "confirmed"


def test_small_samples_stay_undecided_with_the_power_they_reached():
    """A league of 2 pairs per pairing decides nothing however lopsided its games look, and an
    undecided row reports the power of a fixed test on its games (not the sample's own, which a
    few identical results make look perfect)."""
    from fepaper.stats.scores import power_reached

    def lopsided(spec):
        return 900.0 if spec["name"] == "alphabeta" else 600.0 * (spec["variant"] == "ferdistrival")

    rows = {r["key"]: r for r in judge(fake_results(lopsided, games=4, seed=2), "thesis", resamples=100)}
    best = rows["ferdistrival-best"]
    assert best["verdict"] == "not decided" and "fewer than the 8" in best["note"]
    far = rows["dynamic-far"]
    assert far["verdict"] == "not decided"
    assert far["power"] == pytest.approx(power_reached(4, 70, 190)) and far["power"] < 0.5


def test_a_row_shows_the_wilson_interval_of_its_weakest_duel():
    from fepaper.experiments.thesis.reproduction import wilson_elo

    def mild(spec):
        return 100.0 * (spec.get("variant") == "ferdist")

    results = fake_results(mild, games=12, seed=4)
    rows = {r["key"]: r for r in judge(results, "thesis", resamples=50)}
    one = rows["ferdist-beats-base"]
    assert (one["estimate"], one["low"], one["high"]) == wilson_elo(results["ferdist-vs-base"])
    assert one["low"] < one["estimate"] < one["high"] and "Wilson" in one["method"]
    family = rows["two-better-than-first"]
    weakest = min((results[k] for k in ("ferdist-vs-base", "ferdistrival-vs-base")), key=lambda r: r.score)
    assert family["estimate"] == wilson_elo(weakest)[0] and weakest.pairing.key in family["note"]


def test_the_families_are_the_thesis_five_colonies_and_a_rejudged_test_reads_a_prefix():
    from fepaper.experiments.thesis.players import ADDED_COLONY, FAMILIES, THESIS_COLONIES
    from fepaper.experiments.thesis.reproduction import ADDED_TEST, REJUDGED, more_duels_of, rejudged, sprt
    from fepaper.stats.sequential import run_sprt

    assert ADDED_COLONY not in THESIS_COLONIES and len(THESIS_COLONIES) == 5
    assert all(ADDED_COLONY not in members for members in FAMILIES.values())
    assert not any(ADDED_COLONY in k for k in REJUDGED["last-quite-better"][1])
    assert len(REJUDGED["last-quite-better"][1]) == 4
    more = {p.key: p for p in more_duels_of(COLONIES, 20)}
    assert more["ferdist-once-vs-per-ant"].tests["once-improves"].beta == pytest.approx(0.05 / 2)
    assert set(more["base-once-vs-per-ant"].tests) == {ADDED_TEST}
    assert more["thesis-vs-tuned-base"].tests["thesis-parameters"].beta == pytest.approx(0.05 / 3)
    assert more["thesis-vs-tuned-base"].a == COLONIES["base"]  # the thesis's parameters: the defaults

    def strong_last(spec):
        return 400.0 * (spec.get("variant") == "ferdistrival" and spec.get("once_per_cycle", False))

    results = fake_results(strong_last, games=60, seed=5)
    verdicts = rejudged(results, "last-quite-better")
    for key, v in verdicts.items():  # the declared SPRT (beta / 4) on the pairs on file
        expect = run_sprt(sprt("far", 4), results[key].pairs, 60)
        assert (v.verdict, v.games) == (expect.verdict, expect.games)
        assert v.games <= results[key].games  # it stops no later than the tests that drove the duel
    rows = {r["key"]: r for r in judge({**results, **fake_more(strong_last, 60)}, "thesis", resamples=100)}
    assert rows["last-quite-better"]["games"] == sum(v.games for v in verdicts.values())
    assert "judged again" in rows["last-quite-better"]["method"]
    best = rows["ferdistrival-best"]
    league = sum(r.games for k, r in results.items() if k.startswith("league-") and "1" not in k.split("-")[1:])
    assert best["games"] == league and "five" in best["note"]  # each game once, the added colony left out
    assert {"cannot-win", "cannot-win-zone", "once-improves", "thesis-parameters"} <= set(rows)
    assert ADDED_TEST not in rows



def fake_more(strength, games, seed=6):
    """:func:`fake_results` for the duels of ``more_duels_of``."""
    from fepaper.experiments.thesis.reproduction import more_duels_of

    return fake_results(strength, games, seed, more_duels_of(COLONIES, games))


def test_the_thesis_scale_caps_each_decision_at_its_minute_and_frees_no_cycles():
    from fepaper.experiments.thesis.claims import LARGER_STEPS, MINUTE_STEPS
    from fepaper.experiments.thesis.players import REDUCED_SCALE, THESIS_SCALE, scale_of

    assert scale_of("full") is THESIS_SCALE and scale_of("paper") is scale_of("smoke") is REDUCED_SCALE
    duels = {p.key: p for p in duels_of(COLONIES, 40, scale=THESIS_SCALE)}
    players = [s for p in duels.values() for s in (p.a, p.b) if s["name"] == "alphabeta"]
    assert {s["max_nodes"] for s in players} == {MINUTE_STEPS, LARGER_STEPS}
    assert duels["capped-vs-longer"].b["max_nodes"] == LARGER_STEPS
    assert duels["static-vs-nocycles"].b["max_bounces"] is None  # built "without limiting" the bounces
    assert duels["static-vs-nocycles"].a["max_bounces"] == 15
    # below full, nothing moves: the reduced players are the ones the committed games played
    assert duels_of(COLONIES, 40) == duels_of(COLONIES, 40, scale=REDUCED_SCALE)
    assert duels_of(COLONIES, 40)[2].b == {"name": "alphabeta", "depth": 2, "max_bounces": 15,
                                           "max_nodes": 1_000_000, "variant": "nocycles"}


def test_colony_versions_are_compared_at_matched_parameters_and_the_thesis_own():
    from fepaper.controllers import make
    from fepaper.controllers.aco import VARIANT_FIELDS
    from fepaper.experiments.thesis.players import SHARED_GENES, colony_sets
    from fepaper.experiments.thesis.reproduction import fair_duels_of

    # the shared genes are the genes every version has (turn_cost is a field, not a gene)
    assert set(SHARED_GENES) == set.intersection(*map(set, VARIANT_FIELDS.values())) - {"turn_cost"}
    tuned = {label: {**spec, "n_ants": 20 + k, "iterations": 3 + k, "heuristic": 2.0 + k / 10, "w_dist": 25.0}
             for k, (label, spec) in enumerate(COLONIES.items())}
    sets = colony_sets(tuned)
    for specs in sets.values():  # every version of a set has the same shared genes
        assert len({tuple(s.get(g) for g in SHARED_GENES) for s in specs.values()}) == 1
        assert all(make(s) for s in specs.values())
    assert sets["matched"]["ferdist"]["n_ants"] == tuned["base"]["n_ants"]
    assert "w_dist" not in sets["matched"]["ferdist"] and "n_ants" not in sets["thesis-set"]["ferdist"]
    duels = {p.key: p for p in fair_duels_of(tuned, 40, 10)}
    tested = {t for p in duels.values() for t in p.tests}
    assert tested <= {c.key for c in CLAIMS}
    for name in sets:
        assert duels[f"ferdistrival-vs-ferdist@{name}"].tests[f"ferdistrival-improves-{name}"].beta == 0.05
        assert duels[f"last-vs-base@{name}"].tests[f"last-quite-better-{name}"].beta == pytest.approx(0.05 / 4)
        assert len([k for k in duels if k.startswith(f"league@{name}-")]) == 10  # the thesis's five colonies
    # the thesis's parameters but the heuristic, which keeps the tuned value
    counts = duels["thesis-counts-vs-tuned-ferdist"].a
    assert counts["heuristic"] == tuned["ferdist"]["heuristic"] and "n_ants" not in counts
    improvable = [p for p in duels.values() if "colonies-improvable" in p.tests]
    assert sorted(p.a["system"] for p in improvable) == ["mmas", "rank"]
    assert all(p.tests["colonies-improvable"].alpha == pytest.approx(0.025) for p in improvable)


def test_a_claim_any_duel_confirms_is_judged_as_a_union():
    from fepaper.experiments.thesis.reproduction import fair_duels_of

    def world(spec):  # only the rank-based system is stronger than the colony it changes
        return 400.0 if spec.get("system") == "rank" else 0.0

    duels = [p for p in fair_duels_of(COLONIES, 200, 10) if "colonies-improvable" in p.tests]
    rows = {r["key"]: r for r in judge(fake_results(world, duels=duels), "thesis", resamples=50)}
    assert rows["colonies-improvable"]["verdict"] == "confirmed"
    rows = {r["key"]: r for r in judge(fake_results(lambda s: 0.0, duels=duels, seed=3), "thesis", resamples=50)}
    assert rows["colonies-improvable"]["verdict"] == "refuted"


def test_every_claim_states_where_its_reading_stands():
    from fepaper.experiments.thesis.claims import STANDINGS, Claim, claim

    assert {c.standing for c in CLAIMS} <= set(STANDINGS)
    assert claim("cannot-win").standing == "read after the data" and claim("cannot-win-zone").standing == "primary"
    assert claim("two-better-than-first-matched").standing == "primary"
    assert claim("two-better-than-first").standing == "beside"
    with pytest.raises(ValueError, match="standing"):
        Claim("x", "§1", "q", "t", "04_tournament", standing="preferred")
