"""The statistics of the engine matches (pairing, pooled sign tests, Holm per family) and the
manifest of data/strength/, against hand-computed values and slow references."""

import json
import shutil
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fepaper.engines.strength import (
    above_share,
    check_manifest,
    family_tests,
    lever_rows,
    pair_matches,
    read_manifest,
)

STRENGTH = Path(__file__).parents[1] / "data" / "strength"


def _sign_test_reference(first: int, second: int) -> Fraction:
    """Two-sided exact sign test, from the binomial distribution at one half in exact fractions:
    twice the probability of a split at least as lopsided as the one seen, at most 1."""
    n = first + second
    if n == 0:
        return Fraction(1)
    tail = sum(Fraction(comb(n, i), 2 ** n) for i in range(0, min(first, second) + 1))
    return min(Fraction(1), 2 * tail)


def _holm_rejects(p_values: list[float], alpha: float) -> set[int]:
    """Holm's step-down procedure as its definition reads: sort, reject while the k-th smallest
    (k from 1) is at most alpha / (m - k + 1), stop at the first that is not."""
    m = len(p_values)
    rejected = set()
    for k, i in enumerate(sorted(range(m), key=lambda i: (p_values[i], i)), start=1):
        if p_values[i] > alpha / (m - k + 1):
            break
        rejected.add(i)
    return rejected


def test_family_tests_by_hand():
    # F: x alone, 9 won against 1: 2 * (1 + 10) / 2**10; pool P of y and z, 5 against 1:
    # 2 * (1 + 6) / 2**6; Holm over the two: 2 * 0.021484375, then max(that, 0.21875).
    # G: w alone in its family, 0 against 0 (no discordant game): p = 1.
    rows = [{"file": "x", "family": "F", "pool": None, "only_first": 9, "only_second": 1},
            {"file": "y", "family": "F", "pool": "P", "only_first": 3, "only_second": 1},
            {"file": "z", "family": "F", "pool": "P", "only_first": 2, "only_second": 0},
            {"file": "w", "family": "G", "pool": None, "only_first": 0, "only_second": 0},
            {"file": "ref", "family": None, "pool": None, "only_first": 0, "only_second": 0}]
    tests = family_tests(rows)
    assert set(tests) == {"x", "y", "z", "w"}
    assert tests["x"]["p"] == pytest.approx(22 / 1024) and tests["x"]["p_holm"] == pytest.approx(44 / 1024)
    for name in ("y", "z"):
        assert tests[name]["test"] == "P" and (tests[name]["only_first"], tests[name]["only_second"]) == (5, 1)
        assert tests[name]["p"] == pytest.approx(14 / 64) and tests[name]["p_holm"] == pytest.approx(14 / 64)
    assert tests["w"]["p"] == 1.0 and tests["w"]["p_holm"] == 1.0


def test_family_tests_refuse_bad_input():
    with pytest.raises(ValueError, match="x: only_first must be a count"):
        family_tests([{"file": "x", "family": "F", "pool": None, "only_first": -1, "only_second": 2}])
    with pytest.raises(ValueError, match="x: only_second must be a count"):
        family_tests([{"file": "x", "family": "F", "pool": None, "only_first": 1, "only_second": 2.5}])
    with pytest.raises(ValueError, match="pool 'P' holds files of the families 'F' and 'G'"):
        family_tests([{"file": "x", "family": "F", "pool": "P", "only_first": 1, "only_second": 2},
                      {"file": "y", "family": "G", "pool": "P", "only_first": 1, "only_second": 2}])


_row = st.fixed_dictionaries({"family": st.sampled_from(["F", "G", "H"]),
                              "pool": st.sampled_from([None, None, "P", "Q"]),
                              "only_first": st.integers(0, 40), "only_second": st.integers(0, 40)})


@settings(max_examples=80, deadline=None)
@given(st.lists(_row, min_size=1, max_size=8), st.floats(0.001, 0.2))
def test_family_tests_agree_with_a_slow_reference(rows, alpha):
    for k, r in enumerate(rows):  # a pool lies in one family (family_tests refuses one over several)
        r["file"] = f"f{k}"
        if r["pool"]:
            r["pool"] = f"{r['pool']}-{r['family']}"
    tests = family_tests(rows)
    # the reference: sum each test's counts, its exact p in fractions, Holm's step-down per family
    counts = {}
    for r in rows:
        key = r["pool"] or r["file"]
        c = counts.setdefault(key, [r["family"], 0, 0])
        c[1] += r["only_first"]
        c[2] += r["only_second"]
    p_ref = {key: _sign_test_reference(c[1], c[2]) for key, c in counts.items()}
    for r in rows:
        got = tests[r["file"]]
        assert got["p"] == pytest.approx(float(p_ref[r["pool"] or r["file"]]), rel=1e-9, abs=1e-12)
    for family in {c[0] for c in counts.values()}:
        keys = [k for k, c in counts.items() if c[0] == family]
        ps = [float(p_ref[k]) for k in keys]
        expected = {keys[i] for i in _holm_rejects(ps, alpha)}
        adjusted = {tests[r["file"]]["test"]: tests[r["file"]]["p_holm"] for r in rows if r["family"] == family}
        # a p-value within rounding of a threshold may fall either way: skip those draws
        if any(abs(p - alpha / j) < 1e-9 for p in ps for j in range(1, len(ps) + 1)):
            continue
        assert {k for k, p in adjusted.items() if p <= alpha} == expected


def test_above_share_by_hand_and_bad_input():
    # 8 of 10: P(X >= 8) = (45 + 10 + 1) / 1024; 5 of 10: 638 / 1024; Holm: 2 * 56/1024, then 638/1024
    assert above_share([8, 5], [10, 10]) == [pytest.approx(112 / 1024), pytest.approx(638 / 1024)]
    assert above_share([], []) == []
    with pytest.raises(ValueError, match="2 win counts for 1 game counts"):
        above_share([1, 2], [3])
    with pytest.raises(ValueError, match="wins_above"):
        above_share([4], [3])


def _game(k, winner, opening="1 2", first="A"):
    return {"game": k, "opening": opening, "first": first, "winner": winner}


def _settings(seed=7, openings=4, engine="qtpapersoccer"):
    return {"seed": seed, "openings": openings, "names": ["bot", engine]}


def test_pair_matches_pairs_game_by_game_and_refuses_other_games():
    a = [_game(k, w) for k, w in enumerate("AABBA")]
    b = [_game(k, w) for k, w in enumerate("ABABB")]
    runs = {"a": (_settings(), a), "b": (_settings(), b)}
    got = pair_matches(runs, {"a": "b", "b": None})
    assert set(got) == {"a"}
    assert {k: got["a"][k] for k in ("games", "both", "only_first", "only_second", "neither")} == {
        "games": 5, "both": 1, "only_first": 2, "only_second": 1, "neither": 1}
    with pytest.raises(ValueError, match="a: compared with c, but c is not among the matches read"):
        pair_matches(runs, {"a": "c"})
    with pytest.raises(ValueError, match="a: its games have seed 8, those of b 7"):
        pair_matches({"a": (_settings(seed=8), a), "b": (_settings(), b)}, {"a": "b"})
    with pytest.raises(ValueError, match="a: played challenger, b played qtpapersoccer"):
        pair_matches({"a": (_settings(engine="challenger"), a), "b": (_settings(), b)}, {"a": "b"})
    other_opening = [_game(k, w, opening="3 4" if k == 2 else "1 2") for k, w in enumerate("ABABB")]
    with pytest.raises(ValueError, match="not the same games"):
        pair_matches({"a": (_settings(), a), "b": (_settings(), other_opening)}, {"a": "b"})


def test_the_manifest_lists_every_file_of_data_strength():
    assert check_manifest(STRENGTH) == []
    manifest = read_manifest(STRENGTH)
    assert not [n for n in manifest["files"] if "session" in json.dumps(manifest["files"][n]).lower()]


def test_check_manifest_finds_what_is_wrong(tmp_path):
    folder = tmp_path / "strength"
    (folder / "games").mkdir(parents=True)
    net = read_manifest(STRENGTH)["files"]["referee_search/qtpapersoccer_net25.jsonl"]["net"]
    shutil.copy(STRENGTH / "referee_search" / "qtpapersoccer_net25.jsonl", folder / "games" / "a.jsonl")
    (folder / "games" / "stray.jsonl").write_text("{}\n")
    (folder / "networks").mkdir()
    (folder / "networks" / "mine.npz").write_bytes(b"not the listed one")
    (folder / "networks" / "stray.npz").write_bytes(b"listed nowhere")
    manifest = {"engines": {"E": {}}, "families": {"F": "a hypothesis"}, "tables": {"later.csv": "not yet written"},
                "networks": {"mine.npz": {"sha256": "0" * 64}, "nowhere.npz": {"where": "elsewhere"}},
                "files": {
        "games/a.jsonl": {"engine": "E", "family": "F", "compared_with": "b.jsonl", "net": net},
        "games/gone.jsonl": {"engine": "E2", "family": "G", "net": {**net, "sha256": "0" * 64}}}}
    (folder / "MANIFEST.json").write_text(json.dumps(manifest))
    problems = check_manifest(folder)
    assert problems == ["games/gone.jsonl: listed, but no such file",
                        "games/stray.jsonl: not in the manifest",
                        "networks/mine.npz: another sha256 than the manifest's",
                        "networks/stray.npz: not in the manifest's networks",
                        "network nowhere.npz: listed, but not found (elsewhere)",
                        "games/a.jsonl: compared with b.jsonl, which the manifest does not list",
                        "games/gone.jsonl: engine 'E2' is not described under 'engines'",
                        "games/gone.jsonl: family 'G' is not one of 'families'",
                        "games/gone.jsonl: its network value_engines25.npz has another sha256 than the manifest's"]
    (folder / "MANIFEST.json").write_text("{")
    with pytest.raises(ValueError, match="not JSON"):
        check_manifest(folder)
    (folder / "MANIFEST.json").write_text("{}")
    with pytest.raises(ValueError, match="no files, engines, families"):
        read_manifest(folder)


def test_lever_rows_on_the_cut_off_screen_pooled_over_two_seeds():
    # the test chosen before the cut-off's games: one sign test on its two screens, each paired with
    # the same bot without the cut-off on the same openings (seeds 7 and 8): 37 won against 51
    from fepaper.engines.matchfile import read_games

    files = read_manifest(STRENGTH)["files"]
    names = [f"referee_search/qtpapersoccer_net25w2-fast-reuse-{end}.jsonl"
             for end in ("engine74ms", "choice0-seed8", "choice4", "choice4-seed8", "choice4-cut0.9-screen",
                         "choice4-cut0.9-seed8-screen")]
    rows = {r["file"]: r for r in lever_rows(files, {n: read_games(STRENGTH / n) for n in names})}
    screens = [rows[n] for n in names[4:]]
    assert [(r["only_first"], r["only_second"]) for r in screens] == [(16, 26), (21, 25)]
    for r in screens:
        assert (r["test_only_first"], r["test_only_second"]) == (37, 51)
        assert r["p"] == pytest.approx(float(_sign_test_reference(37, 51)))
        assert r["p_holm"] == r["p"] and r["verdict"] == "not told apart"
    assert [rows[n]["verdict"] for n in names[:2]] == ["reference", "reference"]
    confirmation = rows[names[3]]  # alone in its family: 122 won against 111
    assert (confirmation["only_first"], confirmation["only_second"]) == (122, 111)
    assert confirmation["p_holm"] == pytest.approx(float(_sign_test_reference(122, 111)))
    with pytest.raises(ValueError, match="not in the manifest: elsewhere.jsonl"):
        lever_rows(files, {"elsewhere.jsonl": read_games(STRENGTH / names[0])})


def test_lever_rows_verdicts():
    def run(seed, winners):
        games = [{**_game(k, w), "reason": "goal", "forfeit": None, "ms": {"A": [900, 90], "B": [800, 70]}}
                 for k, w in enumerate(winners)]
        return {**_settings(seed), "ms_first": 1000, "ms": 100}, games

    files = {"ref.jsonl": {"lever": "none"},
             "up.jsonl": {"lever": "more", "compared_with": "ref.jsonl", "family": "F"},
             "screen.jsonl": {"lever": "a screen", "screen": "goes on at 0.5", "screen_goes_on_at": 0.5},
             "other.jsonl": {"lever": "elsewhere"}}
    runs = {"ref.jsonl": run(7, "B" * 12), "up.jsonl": run(7, "A" * 12), "screen.jsonl": run(7, "AB" * 6),
            "other.jsonl": run(9, "B" * 4)}
    rows = {r["file"]: r for r in lever_rows(files, runs)}
    # 12 won against 0: 2 / 2**12, alone in its family
    assert rows["up.jsonl"]["p_holm"] == pytest.approx(2 / 4096) and rows["up.jsonl"]["verdict"] == "higher"
    assert rows["screen.jsonl"]["score"] == 0.5 and rows["screen.jsonl"]["verdict"] == "goes on"
    assert rows["ref.jsonl"]["verdict"] == "reference" and rows["other.jsonl"]["verdict"] == "measured"
    assert rows["up.jsonl"]["bot_later_median_ms"] == 90 and rows["up.jsonl"]["budget_ms"] == "1000 / 100"


def test_output_dirs_gives_notebook_08_its_folder_of_data(tmp_path, monkeypatch):
    from fepaper.notebook.budget import output_dirs

    monkeypatch.setenv("FEPAPER_ROOT", str(tmp_path))
    figures, data = output_dirs("quick", folder="strength")
    assert (figures, data) == (tmp_path / "figures", tmp_path / "data" / "strength") and data.is_dir()
    figures, data = output_dirs("smoke", folder="strength")
    assert data.name == "strength" and data.parent.name == "data" and tmp_path not in data.parents
    for bad in ("", "..", "a/b"):
        with pytest.raises(ValueError, match="folder must be one folder's name under data/"):
            output_dirs("quick", folder=bad)
