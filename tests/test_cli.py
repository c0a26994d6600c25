import json

import pytest

from fepaper.cli import main


def test_perft_prints_the_count(capsys):
    assert main(["perft", "--rules", "thesis", "--depth", "3"]) == 0
    assert capsys.readouterr().out.strip() == ("2034 leaves of the tree of distinct turns 3 turns deep (a finished "
                                               "game is a leaf) from the kick-off, rules thesis")


def test_perft_accepts_json_rules(capsys):
    assert main(["perft", "--rules", '{"preset": "thesis", "bounce": "mandatory"}', "--depth", "2"]) == 0
    assert capsys.readouterr().out.startswith("90 leaves ")


def test_perft_divide(capsys):
    assert main(["perft", "--rules", "standard", "--depth", "2", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "0: 7" in out and "total: 56" in out and "turns: 8" in out


def test_perft_divide_lists_short_turns_first_not_as_text(capsys):
    assert main(["perft", "--moves", "0 54", "--depth", "1", "--divide"]) == 0
    turns = [line.split(":")[0] for line in capsys.readouterr().out.splitlines() if line[:1].isdigit()]
    assert turns.index("7") < turns.index("11") and turns.index("2") < turns.index("11")  # not 1, 11, ..., 2
    assert turns == sorted(turns, key=lambda t: (len(t), t)) and len(turns) == 16


def test_perft_from_moves(capsys):
    assert main(["perft", "--moves", "0", "--depth", "1"]) == 0
    assert capsys.readouterr().out.startswith("17 leaves of the tree of distinct turns 1 turn deep (a finished game "
                                              "is a leaf) from after '0', rules thesis")


@pytest.mark.parametrize("flag", [["--moves", "0"], ["--depth", "2"], ["--divide"], ["--rules", "thesis"]])
def test_perft_check_refuses_a_position_of_its_own(flag, capsys):
    assert main(["perft", "--check", *flag]) == 2
    assert f"drop {flag[0]} (or --check)" in capsys.readouterr().err


def test_bad_rules_and_moves_give_clear_errors(capsys):
    with pytest.raises(SystemExit):
        main(["perft", "--rules", "chess"])
    assert "unknown rules preset 'chess'" in capsys.readouterr().err
    assert main(["perft", "--moves", "0 4"]) == 2
    assert "turn 2, step 1" in capsys.readouterr().err


def test_show_writes_svg(tmp_path, capsys):
    out = tmp_path / "b.svg"
    assert main(["show", "--moves", "0 54", "--svg", str(out)]) == 0
    text = capsys.readouterr().out
    assert "ball: (4, 9)" in text and "distinct turns:" in text
    assert out.read_text().startswith("<svg")


def test_bench_lists_its_names(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "nothing"])
    assert "turns" in capsys.readouterr().err


def test_reproduce_help_mentions_budget(capsys):
    with pytest.raises(SystemExit):
        main(["reproduce", "--help"])
    assert "--budget" in capsys.readouterr().out


@pytest.mark.parametrize("moves", ["", "0 0"])
def test_show_reports_turns(moves, capsys):
    assert main(["show", "--rules", "standard", "--moves", moves]) == 0
    assert "distinct turns" in capsys.readouterr().out


def test_match_json_has_the_documented_keys(capsys):
    assert main(["match", "random", '{"name": "random", "mode": "turns"}', "--rules", "standard",
                 "--games", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"games", "wins_a", "wins_b", "draws", "score_a"} <= set(out)
    assert out["games"] == 4 and out["score_a"] == (out["wins_a"] + out["draws"] / 2) / 4


def test_tournament_from_config(tmp_path, capsys):
    config = tmp_path / "t.json"
    config.write_text(json.dumps({"rules": "standard", "games": 2, "seed": 1,
                                  "players": ["random", {"name": "random", "mode": "turns"}]}))
    assert main(["tournament", str(config), "--out", str(tmp_path / "t.csv")]) == 0
    out = capsys.readouterr().out
    assert "elo" in out and "random(mode=turns" in out
    assert len((tmp_path / "t.csv").read_text().splitlines()) == 3
    config.write_text("{}")
    assert main(["tournament", str(config)]) == 2


def test_unknown_controller_lists_valid_names(capsys):
    assert main(["match", "nobody", "random", "--games", "2"]) == 2
    assert "valid names" in capsys.readouterr().err


def test_match_json_rounds_its_floats(capsys):
    # 7 games: the Wilson bounds and the score are long binary fractions before rounding
    assert main(["match", "random", '{"name": "random", "mode": "turns"}', "--rules", "foo",
                 "--games", "7", "--json"]) == 0
    text = capsys.readouterr().out
    floats = [v for v in json.loads(text).values() if isinstance(v, float)]
    assert floats and all(len(repr(v).lstrip("0.").replace(".", "")) <= 6 for v in floats), text


def test_tournament_cross_table_has_no_score_on_the_diagonal(tmp_path, capsys):
    config = tmp_path / "t.json"
    config.write_text(json.dumps({"rules": "foo", "games": 2, "seed": 1,
                                  "players": ["random", {"name": "random", "mode": "turns"}, "greedy"]}))
    assert main(["tournament", str(config)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line[:2] in ("1 ", "2 ", "3 ")]
    assert len(rows) == 3
    for i, row in enumerate(rows):  # "k name  c1 c2 c3 score": the cell against itself is a dash
        cells = row[-4:-1]
        assert cells[i] == "-" and all(c != "-" for j, c in enumerate(cells) if j != i), row


def test_bot_help_says_what_the_player_id_means(capsys):
    with pytest.raises(SystemExit):
        main(["bot", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "0 means this bot kicks off and attacks the top goal" in out and "1 means it moves second" in out


def test_tune_draws_one_bar(tmp_path, capsys):
    assert main(["tune", '{"name": "aco", "variant": "base", "n_ants": 3, "iterations": 1}', "--generations", "1",
                 "--games", "2", "--population", "4", "--offspring", "2", "--workers", "1",
                 "--out", str(tmp_path / "t.json")]) == 0
    err = capsys.readouterr().err
    assert "generations" in err and "games" in err
    assert "\x1b[A" not in err  # no cursor moves between two bars: nothing a terminal can duplicate
    assert "games of generation" not in err


@pytest.mark.parametrize("command, spec", [("tune", '{"name": "aco", "variant": "base", "n_ants": 3, "iterations": 1}'),
                                           ("evolve", None)])
def test_a_ga_run_on_a_dask_scheduler_is_the_run_on_one_worker(tmp_path, command, spec):
    distributed = pytest.importorskip("distributed")
    sizes = ["--generations", "1", "--games", "1", "--population", "2", "--offspring", "2", "--quiet", "--json"]
    args = [command, *([spec] if spec else []), *sizes]
    assert main([*args, "--workers", "1", "--out", str(tmp_path / "one.json")]) == 0
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        assert main([*args, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "dask.json")]) == 0
    one, on_dask = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("one", "dask"))
    assert one["logbook"] and one["hall_of_fame"]
    assert (one["logbook"], one["hall_of_fame"]) == (on_dask["logbook"], on_dask["hall_of_fame"])


def test_bench_search_positions_follow_the_rules():
    from fepaper import Game
    from fepaper.bench.search import search_positions

    stop = {"preset": "thesis", "dead_end": "stop"}
    assert search_positions(2026, 3) == search_positions(2026, 3, "thesis")
    # the same seeded random games, played under each reading: the positions are legal there
    for rules in ("thesis", stop):
        for record in search_positions(2026, 4, rules):
            assert not Game(rules, record).is_over


def test_bench_bestfirst_counts_expansions_with_each_evaluator():
    from fepaper.bench.search import bench_bestfirst

    figures = json.loads(json.dumps(bench_bestfirst(repeat=1, count=2, iterations=20)))
    assert figures["bestfirst_positions"].startswith("2 codingame positions: the opening")
    for evaluator in ("distance", "net"):
        assert figures["bestfirst_expansions_per_s"][evaluator] > 0 and figures["bestfirst_evaluations_per_s"][evaluator] > 0


def test_bench_turn_distances_times_both_ways_on_the_same_positions():
    from fepaper.bench.search import bench_turn_distances

    figures = json.loads(json.dumps(bench_turn_distances(repeat=1, count=2, passes=1)))
    rates = figures["turn_distances_per_s"]
    assert figures["turn_distances_positions"] > 10 and rates["node_by_node"] > 0 and rates["bits"] > 0
    assert figures["turn_distances_bits_speedup"] == rates["bits"] / rates["node_by_node"]


def test_bench_playouts_reports_its_rules_as_json():
    from fepaper.bench.playout import bench_playouts

    stop = {"preset": "thesis", "dead_end": "stop"}
    figures = bench_playouts(repeat=1, playouts=5, iterations=5, rules=stop, mid=2, heavy=1)
    assert json.loads(json.dumps(figures))["rules"]["dead_end"] == "stop"


def test_version_is_the_package_version(capsys):
    import fepaper

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"fepaper {fepaper.__version__}"


def test_help_lists_every_command_once_under_its_group(capsys):
    from fepaper.cli.parser import GROUPS

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for title, names in GROUPS.items():
        block = out[out.index(f"{title}:"):].split("\n\n")[0]
        assert [" ".join(line.split()[:len(name.split())]) for line, name in zip(block.splitlines()[1:], names)
                ] == list(names) and len(block.splitlines()) == len(names) + 1
    assert sum(len(names) for names in GROUPS.values()) == len({n for names in GROUPS.values() for n in names})


def test_the_network_research_commands_are_one_command_and_the_docstring_lists_every_command(capsys):
    """agree, valuefit and searchvalues were three top-level commands among the user's; now they are
    ``fepaper net fit|agree|searchvalues``, listed apart, and the module text names every command."""
    import fepaper.cli
    from fepaper.cli.parser import GROUPS

    listed = [name for names in GROUPS.values() for name in names]
    assert {"net fit", "net agree", "net searchvalues"} <= set(listed)
    for name in listed:
        assert name in " ".join(fepaper.cli.__doc__.split()), name
    for old in ("valuefit", "agree", "searchvalues"):
        with pytest.raises(SystemExit) as stop:
            main([old, "--help"])
        assert stop.value.code == 2
        assert "invalid choice" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["net", "fit", "--out", "x.npz", "--epochs", "0"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.startswith("fepaper net fit: error: argument --epochs: must be at least 1")


def test_net_fit_states_the_librarys_self_play_defaults(capsys, monkeypatch):
    """The command reads its defaults from the library (the parser, built for every command, does not
    import the fitting): its help must say what the library does."""
    from fepaper.engines.valuefit import SELFPLAY_GAMES, SELFPLAY_SPEC

    monkeypatch.setenv("COLUMNS", "1000")  # argparse wraps at hyphens too: "self-" and "play" apart
    with pytest.raises(SystemExit):
        main(["net", "fit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"self-play games (default {SELFPLAY_GAMES};" in text
    assert f"the default self-play player (default {SELFPLAY_SPEC['iterations']})" in text


def test_perft_json_gives_the_count_and_the_divide(capsys):
    assert main(["perft", "--rules", "standard", "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 56
    assert main(["perft", "--rules", "standard", "--depth", "2", "--divide", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["total"] == 56 and found["divide"]["0"] == 7 and len(found["divide"]) == 8


def test_show_and_count_json_describe_the_position(capsys):
    assert main(["show", "--rules", "standard", "--moves", "0 0", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["ball"] == [4, 3] and shown["player"] == 1 and shown["distinct_turns"] == 7 and shown["exact"]
    assert main(["count", "--rules", "standard", "--moves", "2 4 6 7 1", "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert counted["count"] == 52 and counted["exact"] and counted["moves"] == "2 4 6 7 1"


def test_tournament_json_holds_points_and_ratings(tmp_path, capsys):
    config = tmp_path / "t.json"
    config.write_text(json.dumps({"rules": "standard", "games": 2, "seed": 1,
                                  "players": ["random", {"name": "random", "mode": "turns"}]}))
    assert main(["tournament", str(config), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert len(found["players"]) == 2 and found["played"][0][1] == 2
    assert found["points"][0][1] + found["points"][1][0] == 2 and len(found["ratings"]) == 2


def test_reproduce_outside_a_checkout_says_what_it_needs_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FEPAPER_ROOT", raising=False)
    assert main(["reproduce", "--budget", "smoke"]) == 2
    assert "not inside a fepaper checkout" in capsys.readouterr().err
    assert main(["reproduce", "--root", str(tmp_path), "--rebuild-report"]) == 2
    assert list(tmp_path.iterdir()) == []


def test_reproduce_refuses_a_checkout_without_notebooks(tmp_path, capsys):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "fepaper"\n')
    assert main(["reproduce", "--root", str(tmp_path), "--budget", "smoke"]) == 2
    assert "no notebooks in" in capsys.readouterr().err


def test_every_command_is_declared_once_and_every_workers_option_defaults_to_every_core():
    import os

    from fepaper.cli.parser import COMMANDS, build_parser

    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    parser = build_parser()
    for c in COMMANDS:
        argv = c.name.split() + ["--help"]
        sub = parser
        for word in c.name.split():
            sub = next(a for a in sub._actions if isinstance(a, __import__("argparse")._SubParsersAction)
                       ).choices[word]
        options = {o: a for a in sub._actions for o in a.option_strings}
        if "--workers" in options:
            assert options["--workers"].default == (os.cpu_count() or 1), argv
            assert "every core" in options["--workers"].help, argv
        # the bot speaks the CodinGame protocol on stdout, nothing else; warm-up compiles, its lines are progress
        if c.name not in ("bot", "warm-up"):
            assert "--json" in options, f"{c.name} prints a result: it takes --json"


def test_claims_table_json_gives_the_rows_the_table_is_made_from(capsys):
    import json

    assert main(["claims-table", "--data", "data/paper", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["rules"] for r in rows} == {"thesis", "thesis-stop", "standard"}
    assert {r["budget"] for r in rows} == {"paper"}
    assert all(r["verdict"] in ("confirmed", "refuted", "not decided", "not testable here") for r in rows)
    assert main(["claims-table", "--data", "data/paper", "--json", "--write", "README.md"]) == 2
    assert "writes nothing" in capsys.readouterr().err


def test_warm_up_prints_each_part_and_the_total(capsys):
    assert main(["warm-up"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("perft, thesis") and lines[-1].startswith("warm: ")
    assert any('"name": "bestfirst"' in line and "codingame" in line and "not on" not in line for line in lines)
