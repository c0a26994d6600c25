"""Claims files (experiments/thesis/claims.py), their README table (experiments/thesis/tables.py) and the
rows measured without a match (experiments/thesis/measured.py)."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from fepaper.experiments.thesis.claims import (
    CLAIMS,
    COLUMNS,
    HYPOTHESES,
    VERDICTS,
    Claim,
    claim,
    figure_verdict,
    is_arithmetic,
    row,
    verdict_counts,
    verdict_row,
)
from fepaper.experiments.thesis.claimsfiles import claims_path, read_claims, sidecar_path, write_claims
from fepaper.experiments.thesis.measured import (
    SEVERAL_RUNS,
    arithmetic_rows,
    bounce_row,
    bounce_runs_row,
    bounce_runs_verdict,
    few_ants_row,
    free_steps,
    memory_row,
    most_bounces,
    random_games,
    steps_rows,
    time_ratio_row,
    turn_steps,
)
from fepaper.experiments.thesis.tables import (
    README_END,
    README_START,
    readme_folder,
    readme_with_table,
    reproduction_markdown,
)
from fepaper.stats.elo import expected_score
from fepaper.stats.fixed import score_test

#: A claims file's sidecar fields, for the tests that write one.
META = {"rules": {"preset": "thesis"}, "budget": "smoke", "seed": 0, "tests": {}}

def test_every_claim_is_stated_once_with_its_section_and_notebook():
    keys = [c.key for c in CLAIMS]
    assert len(keys) == len(set(keys))
    assert all(c.section.startswith("§") and c.quote and c.where for c in CLAIMS)
    assert claim("dynamic-far").section == "§4.1.3, §5"
    with pytest.raises(KeyError, match="no claim"):
        claim("nope")


def test_hypotheses_in_elo_and_score():
    far = HYPOTHESES["far"]
    assert far.elo0 < far.elo1 and "score 0.749" in far.text
    cannot = HYPOTHESES["cannot win"]  # the colony scores a tenth, then a fortieth
    assert expected_score(-cannot.elo0) == pytest.approx(0.1, abs=1e-3)
    assert expected_score(-cannot.elo1) == pytest.approx(0.025, abs=1e-3)


def test_claims_file_round_trip_and_checks(tmp_path):
    verdict = score_test((0, 1, 2, 5, 12), 0, 70)
    rows = [verdict_row(claim("ferdist-beats-base"), "thesis", verdict, HYPOTHESES["better"]),
            row(claim("memory"), "thesis", "refuted", "measured", "300 to 1200 MB", 1.0, 1.0, 1.0, "MB")]
    path = claims_path(tmp_path, "thesis")
    meta = {"rules": {"preset": "thesis"}, "budget": "smoke", "seed": 1, "tests": {"ferdist-beats-base": "SPRT"}}
    write_claims(path, rows, meta)
    table = read_claims(path)
    assert list(table.columns) == COLUMNS and len(table) == 2
    assert table.loc[1, "verdict"] == "confirmed" and table.loc[1, "games"] == 40
    assert math.isnan(table.loc[0, "alpha"])
    assert list(table["key"]) == ["memory", "ferdist-beats-base"]  # in the order of CLAIMS, not as given
    side = json.loads(sidecar_path(path).read_text())
    assert side["seed"] == 1 and side["tests"] == meta["tests"] and side["library_commit"]
    assert side["verdicts"] == {"ferdist-beats-base": "confirmed", "memory": "refuted"}
    with pytest.raises(ValueError, match="one row per claim"):
        write_claims(path, rows + rows[:1], meta)
    with pytest.raises(ValueError, match="missing: \\['seed'\\]"):
        write_claims(claims_path(tmp_path / "other", "thesis"), rows,
                     {k: v for k, v in meta.items() if k != "seed"})
    assert not (tmp_path / "other").exists()  # refused: nothing written
    with pytest.raises(ValueError, match="verdict must be"):
        row(claim("memory"), "thesis", "maybe", "m", "h")
    with pytest.raises(ValueError, match="rules must be"):
        claims_path(tmp_path, "nope")
    bad = table.copy()
    bad.loc[0, "verdict"] = "likely"
    bad.to_csv(path, index=False)
    with pytest.raises(ValueError, match="line 2: unknown verdict 'likely'"):
        read_claims(path)


@pytest.mark.parametrize("change, error", [
    (lambda t: t.__setitem__("verdict", ["refuted", "refuted"]),
     "verdict of ferdist-beats-base is 'refuted' here and 'confirmed' in its sidecar"),
    (lambda t: t.__setitem__("key", ["memory", "made-up"]), "line 3: unknown claim 'made-up'"),
    (lambda t: t.__setitem__("key", ["memory", "memory"]), "line 3: a claim appears twice"),
    (lambda t: t.__setitem__("games", ["", "forty"]), "line 3: games must be a number or empty, got 'forty'"),
    (lambda t: t.__setitem__("note", ["x" * 10_001, ""]), "line 2: cell note longer than 10,000"),
])
def test_a_claims_file_changed_after_it_was_written_is_refused_naming_the_line(tmp_path, change, error):
    """A claims file is read as untrusted input: every row checked before any is used, and its
    verdicts against those its sidecar recorded (a verdict edited in the table alone would reach
    the README's table)."""
    verdict = score_test((0, 1, 2, 5, 12), 0, 70)
    rows = [verdict_row(claim("ferdist-beats-base"), "thesis", verdict, HYPOTHESES["better"]),
            row(claim("memory"), "thesis", "refuted", "measured", "300 to 1200 MB", 1.0, 1.0, 1.0, "MB")]
    path = claims_path(tmp_path, "thesis")
    write_claims(path, rows, META)
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    change(table)
    table.to_csv(path, index=False)
    before = path.read_bytes()
    with pytest.raises(ValueError, match=re.escape(error)):
        read_claims(path)
    assert path.read_bytes() == before  # a reader never writes its input


def test_a_claims_file_that_does_not_parse_or_lost_its_sidecar_is_refused(tmp_path):
    path = claims_path(tmp_path, "thesis")
    write_claims(path, [row(claim("memory"), "thesis", "refuted", "measured", "h", 1.0, 1.0, 1.0, "MB")], META)
    text = path.read_text()
    path.write_text(text + 'arithmetic-1,"an open quote\n')
    with pytest.raises(ValueError, match="not a claims file"):
        read_claims(path)
    path.write_text(text)
    sidecar_path(path).unlink()
    with pytest.raises(ValueError, match="no sidecar"):
        read_claims(path)


def test_readme_table_is_generated_from_the_files(tmp_path):
    rows = [row(claim("memory"), "thesis", "refuted", "measured", "300 to 1200 MB", 0.5, 0.5, 0.5, "MB"),
            row(claim("cannot-win"), "thesis", "not decided", "SPRT", "H0 | H1", 400, 200, 600, "Elo", 16,
                0.05, 0.05, 0.4)]
    write_claims(claims_path(tmp_path, "thesis"), rows, META)
    write_claims(claims_path(tmp_path, "standard"), rows[1:], META)
    table = reproduction_markdown(tmp_path)
    lines = table.strip().splitlines()
    assert len(lines) == 4 and "thesis: verdict" in lines[0] and "standard: verdict" in lines[0]
    assert "**refuted** (0.5 MB)" in lines[2] and "not measured" in lines[2]
    assert "**not decided** (400 [200, 600] Elo, 16 games)" in lines[3]
    assert "[02_search_scaling](notebooks/02_search_scaling.ipynb)" in lines[2]
    assert "| H0" not in table  # the hypotheses stay in the claims files
    readme = f"# x\n\n{README_START}{tmp_path}: old -->\nold\n{README_END}\n\nafter\n"
    assert readme_folder(readme) == str(tmp_path)
    new = readme_with_table(readme)
    verdicts = reproduction_markdown(tmp_path, estimates=False)  # the README: verdicts, estimates in notebook 04
    assert verdicts in new and "\nold\n" not in new and new.endswith(f"{README_END}\n\nafter\n")
    assert "| **not decided** |" in verdicts and "Elo" not in verdicts and "| thesis | standard |" in verdicts
    assert readme_with_table(new) == new and readme_folder(new) == tmp_path.as_posix()
    with pytest.raises(ValueError, match="markers"):
        readme_with_table("# no table", tmp_path)
    with pytest.raises(ValueError, match="no claims file"):
        reproduction_markdown(tmp_path / "empty")


def test_arithmetic_rows_follow_the_estimates():
    rows = arithmetic_rows("thesis")
    assert rows and all(r["key"].startswith("arithmetic-") for r in rows)
    years = [r for r in rows if "year" in r["claim"].lower()]
    assert years and years[0]["verdict"] == "refuted"  # 2.88e25 years does not follow (notebook 05)


def test_arithmetic_is_judged_to_the_digits_stated_with_the_later_readings_beside():
    rows = {r["claim"]: r for r in arithmetic_rows("thesis")}
    # "To the digits stated" was every figure's first reading: 7 after a bounce does not follow (6).
    # The upper-bound reading, adopted after those results, holds and stands beside in the method.
    bound = rows["worst-case steps after a bounce: 7"]
    assert bound["estimate"] == 6 and bound["verdict"] == "refuted"
    assert "upper bound read after the data, confirmed" in bound["method"]
    assert "to the digits stated: does not follow" in bound["note"]
    turn = rows["worst-case sequences of one turn of 35 steps: 7^35"]
    assert turn["verdict"] == "refuted" and turn["estimate"] == float(7 * 6**34)
    # 3/4 read approximately (Pearl's 0.697 for b = 4 within 1/8) only after the data.
    pearl = rows["average case: alpha-beta exponent factor 3/4 (b = 4)"]
    assert pearl["verdict"] == "refuted" and abs(pearl["estimate"] - 0.75) < 1 / 8
    assert "approximately read after the data, confirmed" in pearl["method"] and "quarter" in pearl["note"]
    assert sum("read after the data" in r["method"] for r in rows.values()) == 4


def test_figure_verdict_bounds_and_tolerances():
    assert figure_verdict("upper bound", 7, 7) == "confirmed"
    assert figure_verdict("upper bound", 7, 6, 7.5) == "refuted"  # the worst case is the high end
    assert figure_verdict("approximately", 4, 3.6, 3.9, tolerance=0.125) == "confirmed"
    assert figure_verdict("approximately", 4, 3.0, 3.4, tolerance=0.125) == "refuted"
    assert figure_verdict("approximately", 4, 3.4, 3.6, tolerance=0.125) == "not decided"
    assert figure_verdict("approximately", 4, 4.6, tolerance=0.125) == "refuted"
    with pytest.raises(ValueError, match="tolerance"):
        figure_verdict("approximately", 4, 4)
    with pytest.raises(ValueError, match="kind"):
        figure_verdict("exact", 4, 4)
    with pytest.raises(ValueError, match="low <= high"):
        figure_verdict("upper bound", 4, 5, 3)


def test_claims_declare_how_they_read_a_figure():
    assert claim("steps-worst").kind == "upper bound" and claim("steps-worst").figure == 7
    assert claim("steps-average").kind == "approximately" and claim("steps-average").tolerance == 0.125
    assert claim("memory").kind == "not testable here" and "Java" in claim("memory").reason
    with pytest.raises(ValueError, match="kind"):
        Claim("k", "§1", "q", "t", "w", kind="roughly")
    with pytest.raises(ValueError, match="relative tolerance"):
        Claim("k", "§1", "q", "t", "w", kind="approximately", figure=4)
    with pytest.raises(ValueError, match="needs the figure"):
        Claim("k", "§1", "q", "t", "w", kind="upper bound")
    with pytest.raises(ValueError, match="reason"):
        Claim("k", "§1", "q", "t", "w", kind="not testable here")


def test_memory_is_not_testable_here_and_says_why(tmp_path):
    peak = pd.DataFrame({"search_peak_mb": [0.0, 0.2], "rss_before_mb": [150.0, 155.0]})
    r = memory_row("thesis", peak)
    assert r["verdict"] == "not testable here" and "Java" in r["note"] and r["estimate"] == 0.2
    write_claims(claims_path(tmp_path, "thesis"), [r], META)
    assert read_claims(claims_path(tmp_path, "thesis"))["verdict"].tolist() == ["not testable here"]
    with pytest.raises(ValueError, match="says why"):
        row(claim("memory"), "thesis", "not testable here", "m", "h")


def test_verdict_counts_leave_the_arithmetic_apart():
    measured = [row(claim("memory"), "thesis", "not testable here", "m", "h", note="why"),
                row(claim("few-ants"), "thesis", "refuted", "m", "h")]
    table = pd.DataFrame(arithmetic_rows("thesis") + measured, columns=COLUMNS)
    assert is_arithmetic(table).sum() == len(table) - 2
    counts = verdict_counts({"thesis": table})
    assert list(counts.index) == list(VERDICTS) and counts["thesis"].sum() == 2
    assert counts.loc["not testable here", "thesis"] == 1 and counts.loc["confirmed", "thesis"] == 0
    sums = verdict_counts({"thesis": table}, arithmetic=True)["thesis"]
    assert sums.sum() == len(table) - 2 and sums["refuted"] == 4  # the years, and three read to the digits


def test_bounce_row_rule_of_three_and_a_turn_seen():
    r = bounce_row("bounces-controllers", "thesis", [1, 2, 3, 9] * 25, "the duels' games")
    assert r["verdict"] == "not decided" and r["estimate"] == r["high"] == 8 and "rarer than 3 in 100" in r["note"]
    assert bounce_row("bounces-controllers", "thesis", [1, 36], "x")["verdict"] == "confirmed"
    assert turn_steps([("ab c def", "ab"), ("g hi", "")]) == [1, 3, 1, 2]


def test_bounce_runs_confirm_on_a_long_turn_and_refute_when_several_runs_would_hardly_find_one():
    """A turn of 35 bounces confirms; with none among g games a game's chance is below
    1 - 0.05^(1/g), and 100 games would find one with chance below 1 - 0.05^(100/g): refuted
    below 5%, from 5,841 games on."""
    assert bounce_runs_verdict([3, 35])["verdict"] == "confirmed"
    assert bounce_runs_verdict([34] * 10_000)["verdict"] == "refuted"
    for g in (1, 400, 2000, 5840, 5841, 20_000):
        v = bounce_runs_verdict([10] * g)
        assert v["high"] == pytest.approx(1 - 0.05 ** (1 / g), rel=1e-9)
        assert v["chance"] == pytest.approx(1 - 0.05 ** (SEVERAL_RUNS / g), rel=1e-9)
        assert v["verdict"] == ("refuted" if g >= v["needed"] == 5841 else "not decided")
    assert bounce_runs_verdict([])["verdict"] == "not decided"
    r = bounce_runs_row("bounces-random", "thesis", [4, 20, 9], "3 random games")
    assert (r["verdict"], r["unit"], r["estimate"], r["low"], r["high"]) == ("not decided", "bounces", 20, 20, 20)
    assert "100 games find one with chance below" in r["note"] and "5,841 games" in r["note"]
    assert bounce_runs_row("bounces-random", "thesis", [40], "x")["verdict"] == "confirmed"


def test_players_that_bounce_whenever_they_can_make_longer_turns():
    stopping, bouncing = random_games("thesis", 20, seed=3), random_games("thesis", 20, 3, stop_probability=0.0)
    assert most_bounces(bouncing) == [max(len(t) for t in g.history) - 1 for g in bouncing]
    assert sum(most_bounces(bouncing)) > sum(most_bounces(stopping))
    from fepaper.game.game import Game

    for g in bouncing:  # no player stops where the ball could go on: a turn ends on a fresh node or the end
        replay = Game(g.rules)
        for turn in g.history:
            for c in turn:
                replay.step(c)
            assert not replay.current or replay.is_over


def test_free_steps_of_random_games_and_their_rows():
    steps = free_steps(random_games("thesis", 6, seed=1))
    assert steps["free"].between(1, 8).all()
    rows = steps_rows("thesis", steps, "6 random games")
    worst, every, bounce = rows
    assert worst["key"] == "steps-worst" and worst["estimate"] == steps["free"].max()
    after = steps.loc[steps["after_bounce"], "free"]
    assert (every["key"], bounce["key"]) == ("steps-average", "steps-average-bounce")
    assert every["estimate"] == pytest.approx(steps["free"].mean())  # the primary reading: every step
    assert bounce["estimate"] == pytest.approx(after.mean())
    for average in (every, bounce):
        assert average["low"] < average["estimate"] < average["high"]


def test_few_ants_row_reads_the_whole_hall_of_fame():
    hall = [{"spec": {"n_ants": 8}}, {"spec": {"n_ants": 20}}]
    assert few_ants_row("thesis", hall)["verdict"] == "confirmed"
    assert few_ants_row("thesis", hall + [{"spec": {"n_ants": 60}}])["verdict"] == "not decided"
    assert few_ants_row("thesis", [{"spec": {"n_ants": 80}}])["verdict"] == "refuted"


def test_time_ratio_row_decides_by_its_bootstrap_bounds():
    rng = np.random.default_rng(3)
    rows = []
    for i in range(30):
        base = rng.uniform(1, 2)
        rows += [{"position": i, "variant": "static", "nodes": 100, "seconds": base},
                 {"position": i, "variant": "nocycles", "nodes": 90, "seconds": base * 0.95},
                 {"position": i, "variant": "nocycles-scan", "nodes": 90, "seconds": base * 0.3}]
    table = pd.DataFrame(rows)
    lookup = time_ratio_row("thesis", table, key="nocycles-time-lookup")
    assert lookup["verdict"] == "confirmed" and "look-up" in lookup["note"]
    scan = time_ratio_row("thesis", table)  # the primary reading: the check scans the path
    assert scan["key"] == "nocycles-time" and scan["verdict"] == "refuted" and "scans" in scan["note"]
    assert scan["estimate"] == pytest.approx(table[table.variant == "nocycles-scan"].seconds.sum()
                                             / table[table.variant == "static"].seconds.sum())


def test_the_readme_table_sets_another_budget_beside_and_says_when_each_reading_was_declared(tmp_path):
    from fepaper.experiments.thesis.claimsfiles import read_declarations

    full, paper = tmp_path / "full", tmp_path / "paper"
    zone = row(claim("cannot-win-zone"), "thesis", "confirmed", "SPRT", "H0 | H1", 500, 400, 600, "Elo", 40)
    after = row(claim("cannot-win"), "thesis", "confirmed", "SPRT", "H0 | H1", 500, 400, 600, "Elo", 40)
    write_claims(claims_path(paper, "thesis"), [dict(zone, verdict="refuted"), after], {**META, "budget": "paper"})
    declared = tmp_path / "declared.csv"
    declared.write_text("budget,key,declared,first_game,note\n"
                        "paper,cannot-win-zone,abc1234,def5678,\nfull,cannot-win-zone,0123abc,,\n")
    table = reproduction_markdown(full, estimates=False, beside=paper, declarations=declared)
    lines = table.strip().splitlines()
    zone_line, after_line = lines[3], lines[2]  # in the thesis's order
    assert "full: not yet; paper: refuted" in zone_line
    assert "full: declared `0123abc`; paper: declared `abc1234`, first games `def5678` |" in zone_line
    assert "*read after the data*" in after_line and "*primary*" in zone_line
    assert "they cannot win versus the alpha-beta controller |" in zone_line  # the whole sentence, never cut
    write_claims(claims_path(full, "thesis"), [zone, after], {**META, "budget": "full"})
    lines = reproduction_markdown(full, estimates=False, beside=paper, declarations=declared).strip().splitlines()
    assert "**confirmed**; paper: refuted ⚑ changed" in lines[3] and "full: declared `0123abc`;" in lines[3]
    assert "**confirmed**; paper: confirmed |" in lines[2]
    readme = f"# x\n\n{README_START}{full} beside {paper} declared {declared}: old -->\nold\n{README_END}\n"
    new = readme_with_table(readme)
    assert readme_with_table(new) == new and "⚑ changed" in new
    declared.write_text("budget,key,declared,first_game,note\npaper,cannot-win,HEAD~1,,\n")
    with pytest.raises(ValueError, match="line 2: commits are"):
        read_declarations(declared)


def test_the_readme_table_is_the_one_its_claims_files_give(monkeypatch):
    """README.md's Reproduction table is generated: it must match the claims files it names."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert readme_with_table(readme) == readme, (
        "README.md's reproduction table is stale: run `fepaper claims-table --data "
        f"{readme_folder(readme)} --write README.md`")


def test_search_times_leave_out_positions_over_the_node_cap():
    from fepaper.experiments.thesis.measured import search_times
    from fepaper.game.game import Game

    positions = [Game("thesis"), Game("thesis", "0 0")]
    roomy = search_times(positions, level=1, repeats=1)
    assert len(roomy) == 4 and roomy.attrs["left_out"] == 0 and (roomy["nodes"] > 0).all()
    tight = search_times(positions, level=6, repeats=1, max_nodes=1)  # read every 1024 steps; these take 20k+
    assert len(tight) == 0 and tight.attrs["left_out"] == 2


def test_claims_table_command_writes_and_checks_the_readme(tmp_path, capsys):
    from fepaper.cli import main

    write_claims(claims_path(tmp_path, "thesis"),
                 [row(claim("memory"), "thesis", "refuted", "measured", "h", 0.5, 0.5, 0.5, "MB")], META)
    readme = tmp_path / "README.md"
    readme.write_text(f"# r\n{README_START}{tmp_path}: x -->\nold\n{README_END}\n")
    assert main(["claims-table", "--data", str(tmp_path), "--write", str(readme), "--check"]) == 1
    assert main(["claims-table", "--data", str(tmp_path), "--write", str(readme)]) == 0
    assert main(["claims-table", "--data", str(tmp_path), "--write", str(readme), "--check"]) == 0
    assert "`memory`" in readme.read_text()
    capsys.readouterr()
    assert main(["claims-table", "--data", str(tmp_path)]) == 0
    assert "| `memory`" in capsys.readouterr().out


def test_every_committed_claims_row_says_when_its_reading_was_declared():
    """data/claims_declared.csv has a row for every claim of the committed claims files, and (in a
    full git checkout) each commit it names exists, and the declaring one comes before the first
    games but for exactly the readings the history shows adopted after data (docs/interpretation.md
    entry 116): a new one cannot slip in unnoticed."""
    import shutil
    import subprocess
    from pathlib import Path

    from fepaper.experiments.thesis.claims import RULE_SETS
    from fepaper.experiments.thesis.claimsfiles import read_declarations

    root = Path(__file__).resolve().parent.parent
    declared = read_declarations(root / "data" / "claims_declared.csv")
    for budget in ("paper", "full"):
        for rules in RULE_SETS:
            path = claims_path(root / "data" / budget, rules)
            if path.exists():
                missing = set(read_claims(path)["key"]) - set(declared[declared.budget == budget].key)
                assert not missing, f"{path}: no declaration for {sorted(missing)}"
    git = ["git", "-C", str(root)]
    if shutil.which("git") is None or subprocess.run([*git, "rev-parse", "--is-shallow-repository"],
                                                     capture_output=True, text=True).stdout.strip() != "false":
        return
    after = set()
    for r in declared.itertuples():
        for commit in filter(None, (r.declared, r.first_game)):
            assert subprocess.run([*git, "cat-file", "-e", f"{commit}^{{commit}}"]).returncode == 0, commit
        if r.first_game and subprocess.run([*git, "merge-base", "--is-ancestor", r.declared, r.first_game]).returncode:
            after.add(r.key)
    # re-read after their results, or (fepaper 0.1 to 0.2) judged by another method, or declared after
    # notebook 05 had only described the data they read
    assert after == {"steps-average", "cap-minute", "nocycles-time", "memory", "cannot-win", "last-quite-better",
                     "ferdistrival-best", "dynamic-far", "ferdist-beats-base", "alphabeta-beats-colonies",
                     "bounces-random", "steps-worst", "steps-average-bounce"}
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    prose = readme[readme.index("## Reproduction"):readme.index("<!-- reproduction table")]
    assert all(f"`{key}`" in prose for key in after)  # the README says which rows those are


def test_claims_table_without_data_prints_the_readme_table_from_any_folder(tmp_path, monkeypatch, capsys):
    """What `fepaper claims-table` prints is what `--write README.md` puts there, from any folder."""
    from pathlib import Path

    from fepaper.cli import main

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FEPAPER_ROOT", str(Path(__file__).resolve().parent.parent))
    assert main(["claims-table"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("| claim (thesis) |") and printed in readme


def test_a_rerun_differing_in_timed_cells_and_the_commit_only_is_not_a_new_result(tmp_path):
    """A claims file's time ratios and its notes quoting seconds or megabytes measure the machine
    (claims.TIMED_CELLS): ``fepaper reproduce`` kept rewriting the files for them; a verdict, a count
    or another claim's estimate is still a result."""
    from fepaper.notebook import publish

    def write(memory_mb, ratio, verdict="confirmed", games=3):
        rows = [row(claim("memory"), "thesis", "refuted", "measured", "h", memory_mb, memory_mb, memory_mb, "MB",
                    note=f"the process holds {memory_mb} MB"),
                row(claim("astar-slower"), "thesis", verdict, "m", "h", ratio, ratio - 1, ratio + 1, "time ratio",
                    note="steps: 1.003 of the plain search's"),
                row(claim("cap-little-loss"), "thesis", "confirmed", "m", "h", 0.0, -99.0, 99.0, "Elo", games=games)]
        write_claims(claims_path(tmp_path, "thesis"), rows, {"rules": {}, "budget": "quick", "seed": 1, "tests": {}})

    write(176, 31.2)
    side = json.loads(sidecar_path(claims_path(tmp_path, "thesis")).read_text())
    assert side["timing_cells"] == {"row": "key", "cells": {"memory": ["estimate", "low", "high", "note"],
                                                            "astar-slower": ["estimate", "low", "high"]}}
    before = publish.Snapshot.take([tmp_path])
    side["library_commit"] = "another"  # the commit that wrote it is not a result either
    write(223, 31.3)
    sidecar_path(claims_path(tmp_path, "thesis")).write_text(json.dumps(side, indent=2) + "\n")
    out = publish.compare(before, publish.Snapshot.take([tmp_path]))
    assert (out.noise, out.version, out.modified) == ([claims_path(tmp_path, "thesis")],
                                                      [sidecar_path(claims_path(tmp_path, "thesis"))], [])
    for changed in ({"verdict": "refuted"}, {"games": 4}):
        write(176, 31.2, **changed)
        assert publish.compare(before, publish.Snapshot.take([tmp_path])).modified, changed
