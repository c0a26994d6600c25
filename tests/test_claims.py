import numpy as np

from fepaper.experiments.claims import THESIS_CLAIMS, compare, judge, judge_all

SPECS = [
    {"name": "alphabeta", "variant": "dynamic", "depth": 2},
    {"name": "alphabeta", "variant": "static", "depth": 2},
    {"name": "aco", "variant": "base"},
    {"name": "aco", "variant": "ferdist"},
    {"name": "aco", "variant": "ferdistrival"},
]


def table(pairs, n=40):
    k = len(SPECS)
    score, played = np.zeros((k, k)), np.zeros((k, k))
    for (i, j), s in pairs.items():
        score[i, j], score[j, i] = s * n, (1 - s) * n
        played[i, j] = played[j, i] = n
    return score, played


def test_compare_uses_the_wilson_interval():
    assert compare(30, 40)[0] == "confirmed"
    assert compare(10, 40)[0] == "refuted"
    assert compare(22, 40)[0] == "not decided"
    assert compare(0, 0)[0] == "not decided"


def test_claims_judged_from_head_to_head_scores():
    score, played = table({(0, 1): 0.9, (3, 2): 0.8, (4, 2): 0.9, (4, 3): 0.55, (0, 2): 0.95, (0, 3): 0.9,
                           (0, 4): 0.2})
    verdicts = {v["claim"]: v["verdict"] for v in judge_all(SPECS, score, played)}
    assert verdicts == {"dynamic-best-alphabeta": "confirmed", "ferdist-beats-base": "confirmed",
                        "ferdistrival-best-aco": "not decided", "alphabeta-beats-aco": "refuted"}


def test_unmeasured_claim_says_so():
    score, played = table({})
    result = judge(THESIS_CLAIMS[0], SPECS, score, played)
    assert result["verdict"] == "not measured" and result["comparisons"] == []
