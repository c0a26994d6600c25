"""The benchmarks at a tiny size (their figures, medians over stated classes of positions), the
saved records, and the README's benchmark table generated from them (checked for staleness, as
the reproduction table is). No speed is asserted: only what the figures are and say."""

import json
from pathlib import Path

import numpy as np
import pytest

from fepaper.bench import record
from fepaper.bench.record import (
    README_END,
    README_START,
    ROWS,
    benchmark_markdown,
    load,
    readme_with_table,
    save,
)
from fepaper.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _fake_figures() -> dict[str, dict]:
    """Figures of the shape each benchmark returns, with made-up numbers (only the table is tested)."""
    both = lambda a, b: {"random": a, "heavy": b}  # noqa: E731
    turns = {"positions": {"random": "18 random", "heavy": "6 heavy"}, "count_only_turns_per_s": both(2e5, 9.7e6),
             "key_set_turns_per_s": both(1e5, 6.3e6), "enumerate_turns_per_s": both(5e4, 3.1e5),
             "reference_turns_per_s": both(2e3, 1.4e4), "count_only_over_key_set": both(1.5, 1.54),
             "key_set_over_reference": both(40.0, 447.0), "median_distinct_turns": both(42.0, 31_000.0),
             "yapapersoccer_400k_turns": 433648, "yapapersoccer_400k_count_only_s": 0.0611}
    search = {"search_positions": "8 thesis positions: the opening and more", "alphabeta_nodes_per_s": 1.12e7,
              "dynamic_seconds_per_decision": {"1": 1.5e-5, "2": 4.6e-5, "3": 1.8e-4, "4": 6e-4},
              "dynamic_max_seconds_per_decision": {"1": 1e-4, "2": 1e-3, "3": 1e-2, "4": 0.1},
              "turnsearch_nodes_per_s": 2.5e6, "notes": "level 3: 3 of 8 positions",
              "playout_positions": {"opening": "the kick-off", "mid-game": "8 halfway", "heavy": "3 heavy",
                                    "mcts": "each search 20,000 iterations or 2 s"},
              "playout_steps_per_s": 5.75e7, "mcts_iterations_per_s": 3.97e5,
              "mcts_midgame_iterations_per_s": 2.65e5, "mcts_heavy_iterations_per_s": 3e3,
              "bestfirst_positions": "12 codingame positions", "bestfirst_net": "value_engines25.npz",
              "bestfirst_expansions_per_s": {"distance": 13237.0, "net": 6784.0},
              "bestfirst_evaluations_per_s": {"distance": 6.74e5, "net": 2.63e5},
              "turn_distances_positions": 2647, "turn_distances_per_s": {"node_by_node": 6.22e5, "bits": 3.11e6},
              "turn_distances_bits_speedup": 5.0}
    aco = {"positions": 37, "aco_positions": "37 positions", "aco_ms_per_decision": 3.4, "aco_ms_p90": 5.0,
           "ant_steps_per_second": 2e6, "ga_seconds_per_generation": 2.7, "ga_games_per_generation": 160,
           "ga_workers": 2, "ga_mean_score": 0.7}
    ratios = {"median": 0.98, "p99": 1.05, "max": 1.2, "over_1.1": 1, "decisions": 22}
    clock = {"positions": {"0.1 s": "22 codingame positions", "1 s": "the 6 heavy and tracker positions, once"},
             "load_before": 1.5, "mcts @ 0.1 s": ratios, "mcts @ 1 s": ratios, "greedy @ 0.1 s": ratios,
             "greedy @ 1 s": ratios, "load_after": 1.7, "seed": 2026}
    run = {"seconds": 40.0, "jobs": 120, "nodes": 1_000_000, "value": -1, "worker_cpu_seconds": 39.0,
           "cores_used": 0.98, "load_before": 0.4}
    solve = {"rate_board": "{'width': 4}", "rate_board_positions": 364550, "solver_positions_per_s": 68144.0,
             "ratio_board": "{'width': 2}", "seconds_ratio": 285.0, "positions_per_s_ratio": 4.34,
             "versus_boards": "5 boards alpha-beta solves in seconds", "alphabeta_over_dfpn_seconds": 26.1,
             "alphabeta_over_dfpn_nodes": 319.0, "alphabeta_nodes_per_s": 88731.0, "dfpn_nodes_per_s": 13233.0,
             "cluster_board": "{'width': 6}", "cluster_job_nodes": 20000,
             "cluster": {1: run, 2: {**run, "seconds": 20.7, "cores_used": 1.9}},
             "cluster_speedup": {1: 1.0, 2: 1.93}}
    return {"turns": turns, "search": search, "aco": aco, "clock": clock, "solve": solve}


def _host(note="shared with other jobs"):
    return {"cpu": "Some CPU", "cores": 2, "system": "Linux", "python": "3.11.2", "numba": "0.60.0",
            "numpy": "2.0", "fepaper": "0.3.0", "date": "2026-01-01 12:00 UTC", "load_average_1min": 3.2,
            "note": note}


@pytest.fixture
def saved(tmp_path):
    for name, figures in _fake_figures().items():
        save(name, figures, tmp_path, _host())
    return tmp_path


def test_the_table_has_a_row_per_figure_with_the_measured_values(saved):
    table = benchmark_markdown(saved)
    lines = table.splitlines()
    assert lines[0] == "| command | figure | measured |"
    commands = [line.split(" | ")[0].strip("| ") for line in lines[2:] if line.startswith("| `fepaper")]
    assert commands == [f"`fepaper bench {n}`" for n in ("turns", "search", "aco", "clock", "solve")]
    assert "9.7 M/s / 6.3 M/s / 310 k/s / 14 k/s" in table  # heavy: count-only / key set / enumerate / reference
    assert "1.54x; 447x" in table and "6 heavy" in table and "18 random" in table
    assert "from the kick-off | 397 k/s |" in table and "mid-game positions: 8 halfway | 265 k/s |" in table
    assert "heavy positions: 3 heavy | 3 k/s |" in table  # MCTS by class
    assert "26.1x and 319x; 88.7 k/s / 13.2 k/s" in table  # df-pn beside alpha-beta
    assert "1: 40 s, 1x, 0.98 cores (load 0.4); 2: 20.7 s, 1.93x, 1.90 cores (load 0.4)" in table
    assert "15 µs, 46 µs, 180 µs, 600 µs" in table and "3.4 ms" in table and "2.7 s" in table
    assert "`greedy` | 0.1 s: 0.98 / 1.05 / 1.20 (1 of 22); 1 s: 0.98 / 1.05 / 1.20 (1 of 22)" in table
    assert "Measured on Some CPU, 2 cores, Python 3.11.2, numba 0.60.0" in table
    assert table.count("hared with other jobs") == 1 and table.rstrip().endswith("Shared with other jobs.")
    assert all(len(line) < 400 for line in lines[:-1])  # the last: where and when it was measured


def test_every_benchmark_has_rows_and_a_figure_text_says_its_positions():
    for name, figures in _fake_figures().items():
        rows = ROWS[name](figures)
        assert rows and all(figure and measured for figure, measured in rows)


def test_saved_records_carry_the_machine_and_round_trip(tmp_path):
    path = save("aco", _fake_figures()["aco"], tmp_path)
    saved = json.loads(path.read_text())
    assert saved["benchmark"] == "aco" and saved["command"] == "fepaper bench aco"
    assert {"cpu", "cores", "python", "numba", "numpy", "fepaper", "date", "load_average_1min"} <= set(saved["machine"])
    assert load(tmp_path) == {"aco": saved}
    with pytest.raises(ValueError, match="unknown benchmark 'nothing'"):
        save("nothing", {}, tmp_path)
    (tmp_path / "turns.json").write_text(json.dumps({"benchmark": "aco", "figures": {}}))
    with pytest.raises(ValueError, match="not a record of `fepaper bench turns`"):
        load(tmp_path)
    with pytest.raises(ValueError, match="no benchmark record in"):
        load(tmp_path / "empty")


def test_the_readme_table_is_replaced_between_its_markers(saved):
    readme = f"# x\n\n## Benchmarks\n\n{README_START}... do not edit -->\nold\n{README_END}\n\nafter\n"
    new = readme_with_table(readme, saved)
    assert "\nold\n" not in new and new.startswith("# x\n\n## Benchmarks\n\n" + README_START)
    assert new.endswith(f"{README_END}\n\nafter\n") and benchmark_markdown(saved, full=False) in new
    assert readme_with_table(new, saved) == new
    with pytest.raises(ValueError, match="no benchmark table markers"):
        readme_with_table("# no table", saved)


def test_the_readme_table_is_the_one_the_committed_records_give():
    """README.md's benchmark table is generated: it must match docs/bench/*.json."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme_with_table(readme, ROOT / record.BENCH_DIR) == readme, (
        "README.md's benchmark table is stale: run `fepaper bench --table --write README.md`")
    assert set(load(ROOT / record.BENCH_DIR)) == set(ROWS)  # every benchmark has its committed record


def test_the_table_command_prints_writes_and_checks(saved, tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text(f"# r\n{README_START}x -->\nold\n{README_END}\n")
    data = ["--data", str(saved)]
    assert main(["bench", "--table", *data, "--write", str(readme), "--check"]) == 1
    assert "stale" in capsys.readouterr().out
    assert main(["bench", "--table", *data, "--write", str(readme)]) == 0
    assert main(["bench", "--table", *data, "--write", str(readme), "--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["bench", "--table", *data]) == 0
    assert capsys.readouterr().out == benchmark_markdown(saved, full=False)
    assert main(["bench", "--table", "--full", *data]) == 0
    assert capsys.readouterr().out == benchmark_markdown(saved)


@pytest.mark.parametrize("argv, message", [
    (["bench"], "give a benchmark NAME"),
    (["bench", "turns", "--table"], "--table runs no benchmark"),
    (["bench", "turns", "--write", "README.md"], "--write, --check, --full and --data go with --table"),
    (["bench", "turns", "--note", "x"], "--note goes with --save"),
    (["bench", "search", "--rules", "standard", "--save"], "--save keeps the default rules"),
    (["bench", "--table", "--check"], "--check needs --write README"),
    (["bench", "--table", "--write", "nowhere.md"], "--write: no file nowhere.md"),
])
def test_bench_command_errors_are_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("fepaper bench: error: ") and message in err and err.count("\n") == 1


def test_a_saved_run_is_the_printed_one(tmp_path, capsys, monkeypatch):
    """``fepaper bench NAME --json --save`` writes the figures it prints, with the machine and the note."""
    import fepaper.bench as bench

    monkeypatch.setitem(bench.BENCHMARKS, "aco", lambda **kw: {"aco_ms_per_decision": 1.5, **kw})
    assert main(["bench", "aco", "--json", "--repeat", "2", "--save", str(tmp_path), "--note", "shared"]) == 0
    printed = json.loads(capsys.readouterr().out)
    saved = json.loads((tmp_path / "aco.json").read_text())
    assert printed == saved["figures"] == {"aco_ms_per_decision": 1.5, "repeat": 2}
    assert saved["machine"]["note"] == "shared"
    assert main(["bench", "aco", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "aco_ms_per_decision  1.5" in out and "wrote" not in out


# -- each benchmark at a tiny size ------------------------------------------------------------
def test_bench_turns_reports_medians_per_class_of_positions():
    from fepaper.bench.turns import HEAVY_RANGE, bench_positions, bench_turns

    assert HEAVY_RANGE == (10_000, 100_000)
    small = (300, 3_000)  # heavy positions of this size come early: the test stays quick
    rows = bench_positions(per_rules=3, heavy=1, heavy_range=small)
    assert [r[0] for r in rows] == ["thesis"] * 3 + ["standard"] * 3
    assert sum(r[2] >= small[0] for r in rows) == 2 and all(r[2] < small[1] for r in rows)
    figures = json.loads(json.dumps(bench_turns(repeat=1, per_rules=2, heavy=1, heavy_range=small)))
    assert set(figures["positions"]) == {"random", "heavy"}
    assert figures["positions"]["heavy"].startswith("2 turn starts") and "300 to 3,000" in figures["positions"]["heavy"]
    for key in ("count_only_turns_per_s", "key_set_turns_per_s", "reference_turns_per_s", "key_set_over_reference"):
        assert set(figures[key]) == {"random", "heavy"} and min(figures[key].values()) > 0
    assert figures["median_distinct_turns"]["heavy"] >= small[0] > figures["median_distinct_turns"]["random"]
    assert figures["yapapersoccer_400k_turns"] > 400_000
    rows = ROWS["turns"](figures)
    assert "2 turn starts of those games" in rows[2][0]
    with pytest.raises(ValueError, match="heavy must be between 0 and per_rules"):
        bench_positions(per_rules=2, heavy=3, heavy_range=small)


def test_bench_search_figures_are_medians_over_the_positions(monkeypatch):
    from fepaper.bench import search

    calls = []  # every position's rate, in the order the bench takes them
    real = search._median_rate
    monkeypatch.setattr(search, "_median_rate", lambda samples: calls.append(real(samples)) or calls[-1])
    figures = search.bench_search(repeat=1, count=3, max_nodes=20_000, cap_seconds=0.5, deep_positions=1)
    assert figures["search_positions"] == ("3 thesis positions: the opening and one from each of 2 seeded random "
                                           "games, 5 to 24 turns in")
    assert figures["alphabeta_nodes_per_s"] > 0 and figures["turnsearch_nodes_per_s"] > 0
    assert set(figures["dynamic_seconds_per_decision"]) == {"1", "2", "3", "4"}
    # a median, not a total: one position a thousand times slower moves it no further than the middle one
    assert len(calls) == 6 and len(set(calls[:3])) == 3
    assert figures["alphabeta_nodes_per_s"] == np.median(calls[:3])
    assert figures["turnsearch_nodes_per_s"] == np.median(calls[3:])


def test_bench_playouts_classes_of_positions():
    from fepaper.bench.playout import MIDGAME_MAX_TURNS, bench_playouts, halfway_positions

    middle, big = halfway_positions(mid=3, heavy=1)
    assert len(middle) == 3 and len(big) == 1
    assert all(0 <= g.turns().count(limit=MIDGAME_MAX_TURNS) <= MIDGAME_MAX_TURNS for g in middle)
    assert big[0].turns().count(limit=MIDGAME_MAX_TURNS) == -1
    figures = bench_playouts(repeat=1, playouts=20, iterations=20, mid=2, heavy=1)
    assert set(figures["playout_positions"]) == {"opening", "mid-game", "heavy", "mcts"}
    assert figures["playout_positions"]["mid-game"].startswith("2 positions halfway")
    for key in ("mcts_iterations_per_s", "mcts_midgame_iterations_per_s", "mcts_heavy_iterations_per_s"):
        assert figures[key] > 0


def test_the_readme_shows_the_headline_rows_and_the_full_page_every_row():
    """docs/bench/README.md is generated too (its marker asks for --full); the README's table is its
    headline rows and links it."""
    full = (ROOT / record.FULL_TABLE).read_text(encoding="utf-8")
    assert readme_with_table(full, ROOT / record.BENCH_DIR) == full, (
        "docs/bench/README.md is stale: run `fepaper bench --table --full --write docs/bench/README.md`")
    records = ROOT / record.BENCH_DIR
    every = benchmark_markdown(records).splitlines()
    headline = benchmark_markdown(records, full=False).splitlines()
    assert len(headline) < len(every) and record.FULL_TABLE in headline[-1]
    assert benchmark_markdown(records) in full
    assert benchmark_markdown(records, full=False) in (ROOT / "README.md").read_text(encoding="utf-8")


def test_bench_duels_times_the_same_games_in_this_process_and_in_a_pool(monkeypatch):
    from fepaper.bench import duels

    monkeypatch.setattr(duels, "DUEL_PLAYERS", ({"name": "greedy"}, {"name": "random"}))
    figures = duels.bench_duels(games=2, workers=1, rules="standard")
    assert figures["same_games"] is True and figures["workers"] == 1
    assert set(figures["seconds"]) == set(figures["games_per_s"]) == {"1"}  # one worker both times
    assert figures["games_per_s"]["1"] == pytest.approx(2 / figures["seconds"]["1"])
    with pytest.raises(ValueError, match="even integer"):
        duels.bench_duels(games=3)
    rows = ROWS["duels"]({**figures, "workers": 2, "games_per_s": {"1": 2.0, "2": 3.6}, "speedup": 1.8})
    assert rows[0][1] == "2.000 / 3.600; 1.8x"
