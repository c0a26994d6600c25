"""Every error a user can cause is one line, ``fepaper CMD: error: ...``, with exit status 2."""

import io
import json
import re
import subprocess
import sys

import pytest

from fepaper.cli import main

RANDOM = '{"name": "random", "mode": "turns"}'


def run(argv, capsys) -> str:
    """Run ``fepaper argv`` expecting a one-line error; return that line."""
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's own errors
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == 2, err
    lines = err.strip().splitlines()
    command = " ".join(argv[:2]) if argv[0] == "net" else argv[0]  # net's commands: "net fit"
    assert len(lines) == 1 and lines[0].startswith(f"fepaper {command}: error: "), err
    return lines[0]


def test_a_damaged_games_file(tmp_path, capsys):
    out = tmp_path / "m.csv"
    assert main(["match", "random", RANDOM, "--rules", "standard", "--games", "3", "--out", str(out),
                 "--json"]) == 0
    lines = out.read_bytes().split(b"\r\n")
    out.write_bytes(b"\r\n".join(lines[:2] + [lines[2][:25]] + lines[3:]))
    line = run(["match", "random", RANDOM, "--rules", "standard", "--games", "3", "--out", str(out)], capsys)
    assert f"{out}, line 3" in line


def test_an_empty_games_file_is_a_fresh_start(tmp_path, capsys):
    out = tmp_path / "m.csv"
    out.write_text("")
    assert main(["match", "random", RANDOM, "--rules", "standard", "--games", "2", "--out", str(out),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def _config(tmp_path, text):
    path = tmp_path / "t.json"
    path.write_text(text if isinstance(text, str) else json.dumps(text))
    return str(path)


GOOD = {"rules": "standard", "games": 2, "players": ["random", RANDOM]}


@pytest.mark.parametrize("config, words", [
    ({**GOOD, "games": "2"}, "games must be an integer >= 1, got '2'"),
    ({**GOOD, "games": True}, "games must be an integer"),
    ({**GOOD, "seed": -3}, "seed must be an integer >= 0"),
    ({**GOOD, "out": 5}, "out must be a file name, got 5"),
    ({**GOOD, "players": "random"}, "players must be a list of at least 2"),
    ({**GOOD, "players": []}, "players must be a list of at least 2"),
    ({**GOOD, "players": ["random"]}, "players must be a list of at least 2"),
    ({**GOOD, "players": ["random", 5]}, r"players\[1\]: a controller spec is a name or a JSON object"),
    ({**GOOD, "players": ["random", {"name": ["x"]}]}, r"players\[1\]"),
    ({**GOOD, "players": ["random", "nobody"]}, r"players\[1\]: unknown controller 'nobody'"),
    ({**GOOD, "rules": "chess"}, "rules: unknown rules preset 'chess'"),
    ({**GOOD, "rules": {"preset": []}}, "rules: "),
    ({**GOOD, "colour": 1}, "only keys from"),
    ([1, 2], "must be a JSON object with 'players'"),
    ('{"games": 2, "games": 3, "players": ["random", "greedy"]}', "duplicate key 'games'"),
    ("[" * 100_000, "nested deeper than 64 levels"),
    ('{"players": ["random", "greedy"], "games": NaN}', "NaN is not JSON"),
    ('{"players": ', "not valid JSON: Expecting value at line 1"),
])
def test_bad_tournament_configs(tmp_path, capsys, config, words):
    line = run(["tournament", _config(tmp_path, config)], capsys)
    assert re.search(words, line), line


def test_tournament_config_files(tmp_path, capsys):
    assert "cannot read" in run(["tournament", str(tmp_path / "none.json")], capsys)
    assert "cannot read" in run(["tournament", str(tmp_path)], capsys)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"players": ["random", "\xff"]}')
    assert "line 1: not UTF-8" in run(["tournament", str(bad)], capsys)


def test_tournament_output_folder_is_not_created(tmp_path, capsys):
    config = _config(tmp_path, {**GOOD, "out": str(tmp_path / "new" / "t.csv")})
    assert "folder" in run(["tournament", config], capsys) and not (tmp_path / "new").exists()


@pytest.mark.parametrize("argv, words", [
    (["tune", "[1]"], "unknown controller"),
    (["tune", "--bounds", "[1]"], "--bounds must be a JSON object"),
    (["tune", '{"name": "aco", "system": []}'], "SPEC: "),
    (["tune", '{"name": "aco", "system": "mmas", "system": "as"}'], "duplicate key 'system'"),
    (["tune", '{"name": "greedy"}', "--out", "x.json"], "no genes"),
    (["tune", "--bounds", '{"n_ants": "ab"}'], "bounds"),
    (["tune", "--opponent", '{"name": "random", "name": "greedy"}'], "duplicate key 'name'"),
    (["tune", "--generations", "-1"], "argument --generations: must be at least 0"),
    (["tune", "--workers", "0"], "argument --workers: must be at least 1"),
])
def test_bad_tune_arguments(tmp_path, capsys, argv, words):
    line = run([*argv, "--out", str(tmp_path / "r.json"), "--games", "1", "--quiet"], capsys)
    assert words in line


def test_tune_checks_its_files_before_the_run(tmp_path, capsys):
    assert "folder" in run(["tune", "--out", str(tmp_path / "no" / "r.json")], capsys)
    assert "is a folder" in run(["tune", "--out", str(tmp_path)], capsys)
    assert "folder" in run(["tune", "--out", str(tmp_path / "r.json"), "--checkpoint",
                            str(tmp_path / "no" / "c.json")], capsys)


def test_tune_refuses_an_edited_checkpoint(tmp_path, capsys):
    checkpoint = tmp_path / "c.json"
    argv = ["tune", "--variant", "base", "--generations", "0", "--games", "1", "--population", "2",
            "--offspring", "2", "--rules", "standard", "--bounds", '{"n_ants": [2, 3], "iterations": [1, 2]}',
            "--workers", "1", "--quiet", "--out", str(tmp_path / "r.json"), "--checkpoint", str(checkpoint),
            "--force"]  # the result is written again: over the first run's
    assert main(argv) == 0
    capsys.readouterr()
    checkpoint.write_text(checkpoint.read_text().replace('"generation": 0', '"generation": 00'))
    assert "not valid JSON" in run(argv, capsys)
    data = json.loads(checkpoint.read_text().replace('"generation": 00', '"generation": 0'))
    data["halloffame"][0]["fitness"] = 5.0
    checkpoint.write_text(json.dumps(data))
    assert "checksum does not match" in run(argv, capsys)


def test_show_svg_paths(tmp_path, capsys):
    assert "folder" in run(["show", "--svg", str(tmp_path / "no" / "b.svg")], capsys)
    assert "is a folder" in run(["show", "--svg", str(tmp_path)], capsys)


@pytest.mark.parametrize("out, words", [
    ("/proc/fepaper-test.csv", "/proc/fepaper-test"),  # not writable even by root
    ("{tmp}/no/m.csv", "folder {tmp}/no does not exist"),
    ("{tmp}", "is a folder"),
])
def test_match_out_paths(tmp_path, capsys, out, words):
    line = run(["match", "random", "greedy", "--games", "2", "--out", out.format(tmp=tmp_path)], capsys)
    assert words.format(tmp=tmp_path) in line
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("argv, words", [
    (["match", "random", "greedy", "--workers", "0"], "argument --workers: must be at least 1, got 0"),
    (["match", "random", "greedy", "--games", "0"], "argument --games: must be at least 1"),
    (["match", "random", "greedy", "--games", "x"], "argument --games: 'x' is not an integer"),
    (["match", '{"name": "random", "name": "greedy"}', "greedy"], "spec A: duplicate key 'name'"),
    (["match", '{"name": ["random"]}', "greedy"], "spec A: "),
    (["match", "random", "[1]"], "spec B: "),
    (["bench", "turns", "--repeat", "-1"], "argument --repeat: must be at least 1, got -1"),
    (["bench", "turns", "--repeat", "0"], "argument --repeat: must be at least 1"),
    (["bench", "turns", "--rules", "thesis"], "--rules applies to the search, aco, interop and duels benchmarks, not 'turns'"),
    (["bench", "search", "--rules", "nowhere"], "argument --rules"),
    (["perft", "--depth", "-1"], "argument --depth: must be at least 0"),
    (["perft", "--rules", '{"preset": "thesis", "preset": "standard"}'], "duplicate key 'preset'"),
    (["perft", "--rules", '{"preset": []}'], "argument --rules"),
    (["perft", "--moves", "0 4"], "turn 2, step 1"),
    (["bot", "random", "--ms", "0"], "argument --ms: must be at least 1"),
    (["reproduce", "nowhere.ipynb"], "no notebook nowhere.ipynb"),
])
def test_bad_arguments(capsys, argv, words):
    assert words in run(argv, capsys)


@pytest.mark.parametrize("stdin, words", [
    ("x\n", "input line 1: the player id must be 0 or 1, got 'x'"),
    ("1\n2\n0\n", "input line 2: step count '2' does not match the turn '0'"),
    ("1\n2\n04\n", "input line 3: the opponent's turn '04' is not legal here"),
    ("1\n1\n9\n", "input line 3: the opponent's turn '9' is not legal here"),
    ("1\n1\n", "input line 2: a step count without the turn line"),
    ("0\n1\n-\n1\n\x00\n", "NUL"),
])
def test_bot_protocol_errors(monkeypatch, capsys, stdin, words):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert words in run(["bot", '{"name": "random", "seed": 1}'], capsys)


def test_debug_shows_the_traceback(capsys):
    with pytest.raises(ValueError, match="turn 2, step 1"):
        main(["perft", "--moves", "0 4", "--debug"])
    with pytest.raises(ValueError, match="turn 2, step 1"):
        main(["--debug", "perft", "--moves", "0 4"])


def test_the_installed_command_prints_no_traceback(tmp_path):
    config = _config(tmp_path, {**GOOD, "games": "2"})
    proc = subprocess.run([sys.executable, "-m", "fepaper.cli", "tournament", config], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"fepaper tournament: error: tournament config {config}: games must be an "
                                   "integer >= 1, got '2'")


@pytest.mark.parametrize("extra, words", [
    (["--imitate", "qt_a"], "--imitate names sides of --referee files"),
    (["--referee", "data/strength/engine_selfplay/qtpapersoccer_4turn.jsonl", "--imitate", "qt_a", "--sample", "1"],
     "argument --sample: must be at least 2"),
    (["--referee", "data/strength/engine_selfplay/qtpapersoccer_4turn.jsonl", "--imitate", "qt_a", "--choice-weight", "0"],
     "argument --choice-weight: must be a number above 0"),
    (["--referee", "data/strength/engine_selfplay/qtpapersoccer_4turn.jsonl", "--imitate", "qt_a", "--choice-weight",
      "inf"], "argument --choice-weight: must be a number above 0 and at most 100, got 'inf'"),
    (["--referee", "data/strength/engine_selfplay/qtpapersoccer_4turn.jsonl", "--imitate", "qt_a", "--sample",
      "100000000000"], "argument --sample: must be at most 100,000, got '100000000000'"),
])
def test_valuefit_refuses_a_bad_imitation_before_any_work(tmp_path, capsys, monkeypatch, extra, words):
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).parents[1])
    out = tmp_path / "net.npz"
    assert words in run(["net", "fit", "--out", str(out), *extra], capsys)
    assert not out.exists()


@pytest.mark.parametrize("extra, words", [
    (["--player", '{"name": "bestfirst", "iterations": 2}', "--iterations", "3"],
     "with --player, put them in its spec"),
    (["--player", '{"name": "bestfirst", "time_limit": 0.05}', "--games", "2"], "time_limit"),
    (["--player", '{"name": "bestfirst", "nope": 1}'], "--player: "),
    (["--referee", "data/strength/engine_selfplay/qtpapersoccer_4turn.jsonl", "--player",
      '{"name": "bestfirst", "iterations": 2}'], "give --games to add self-play games"),
])
def test_valuefit_refuses_a_self_play_player_it_cannot_use_before_any_game(tmp_path, capsys, monkeypatch, extra,
                                                                           words):
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).parents[1])
    out, kept = tmp_path / "net.npz", tmp_path / "games.csv"
    assert words in run(["net", "fit", "--out", str(out), "--games-file", str(kept), "--workers", "1", *extra], capsys)
    assert not out.exists() and not kept.exists()


@pytest.mark.parametrize("extra,words", [
    (["value_engines25.npz", "--games", "nowhere.jsonl", "--imitate", "qt_a"], "--games: no file nowhere.jsonl"),
    (["value_engines25.npz", "--games", "data/strength/engine_heldout/qtpapersoccer_4turn.jsonl", "--imitate", "qt_a",
      "--limit", "1"], "argument --limit: must be at least 2"),
    (["no_such_net.npz", "--games", "data/strength/engine_heldout/qtpapersoccer_4turn.jsonl", "--imitate", "qt_a"],
     "no_such_net.npz"),
])
def test_agree_names_what_is_wrong(capsys, monkeypatch, extra, words):
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).parents[1])
    assert words in run(["net", "agree", *extra], capsys)


def _winning_opening() -> tuple[str, str]:
    """An opening after which player 1 is to move, and a turn of player 1 that ends the game."""
    from fepaper.play.randomplay import random_game

    for seed in range(200):
        full = random_game("codingame", seed=seed)
        if len(full.history) > 1 and full.result.reason == "goal" and full.result.winner == 1 \
                and len(full.history) % 2 == 1:
            return " ".join(full.history[:-1]), full.history[-1]
    raise AssertionError("no game that player 1 won by a goal")


@pytest.mark.parametrize("case", ["superscript", "own turn", "own winning turn", "huge line", "huge count"])
def test_bot_protocol_errors_name_the_line_and_cut_it(monkeypatch, capsys, case):
    """The tracker's cases: '²' as a step count said "invalid literal for int()" without the line;
    a line playing the bot's own turn (one that ends the game) was accepted with exit 0; a line
    of 3 GB without a newline ended in MemoryError (here 10 MB: refused after 4,096 characters)."""
    opening, winning = _winning_opening()
    stdin, argv, words = {
        "superscript": ("1\n²\n0\n", [], "input line 2: a step count is a number, got '²'"),
        "own turn": ("0\n1\n2\n", [], "input line 3: the opponent's turn '2', but player 1 (this bot) is to move"),
        "own winning turn": (f"0\n{len(winning)}\n{winning}\n", ["--opening", opening],
                             "but player 1 (this bot) is to move"),
        "huge line": ("0\n1\n" + "0" * 10**7, [], "input line 3 (turn): longer than 4096 characters ('000"),
        "huge count": ("0\n" + "1" * 10**7 + "\n0\n", [], "input line 2 (step count): longer than 4096"),
    }[case]
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    line = run(["bot", '{"name": "random", "seed": 1}', *argv], capsys)
    assert words in line and len(line) < 300, line


@pytest.mark.parametrize("argv, words", [
    (["perft", "--rules", '{"preset": "standard", "max_turns": 1e23}'], "max_turns must be an integer from 1"),
    (["perft", "--rules", '{"preset": "standard", "max_turns": 100000000000000000000000}'],
     "max_turns must be an integer from 1 to 1000000 or None, got 1000000000000000"),
    (["match", "random", "greedy", "--games", "100000000000000000000"],
     "argument --games: must be at most 100,000, got '100000000000000000000'"),
    (["match", '{"name": "turnsearch", "tt_bits": 28}', "greedy", "--games", "1"], "tt_bits"),
    (["referee", "a", "b", "--out", "x.jsonl", "--openings", "1000000000"], "argument --openings: must be at most 100"),
    (["tune", "--population", "1000000000", "--out", "x.json"], "argument --population: must be at most 10,000"),
    (["net", "fit", "--out", "x.npz", "--hidden1", "100000000"], "argument --hidden1: must be at most 4,096"),
    (["perft", "--depth", "1000000000"], "argument --depth: must be at most 64"),
    (["match", "random", "greedy", "--workers", "100000"], "argument --workers: must be at most 256"),
])
def test_every_number_is_bounded_before_it_sizes_anything(capsys, argv, words):
    """The tracker's cases (a numba TypingError, tt_bits 28, --games 1e20 running with memory growing)
    and the other counts that size a run: refused at once, the bound in the message."""
    line = run(argv, capsys)
    assert words in line and len(line) < 300, line


def test_a_huge_input_is_cut_in_the_error(capsys):
    """A 10 MB name was echoed whole in the error."""
    line = run(["match", json.dumps({"name": "x" * 10**7}), "greedy"], capsys)
    assert "characters cut" in line and len(line) < 700


def test_files_that_are_not_regular_are_refused_at_once(tmp_path, capsys):
    """``tournament /dev/urandom`` ended in MemoryError after 26 s; a FIFO as a config or --out
    blocked forever; a games file larger than fepaper reads is refused before it is read."""
    import os

    assert "not a regular file" in run(["tournament", "/dev/urandom"], capsys)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "not a regular file" in run(["tournament", str(fifo)], capsys)
    assert "not a regular file" in run(["match", "random", "greedy", "--out", str(fifo)], capsys)
    assert "--games: no file" in run(["net", "agree", "value_engines25w2.npz", "--games", str(fifo), "--imitate", "A"],
                                     capsys)
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate((1 << 20) + 1)
    assert "1,048,577 bytes, more than the 1,048,576 fepaper reads" in run(["tournament", str(big)], capsys)


def test_tune_refuses_bounds_its_parameter_refuses_before_any_game(tmp_path, capsys):
    """``--bounds '{"n_ants": [1, 1000000000000]}'`` started the run and failed mid-generation."""
    line = run(["tune", "--variant", "base", "--bounds", '{"n_ants": [1, 1000000000000]}', "--generations", "0",
                "--quiet", "--workers", "1", "--out", str(tmp_path / "t.json")], capsys)
    assert "bounds['n_ants']: aco: n_ants must be an integer from 1 to 10000" in line
    assert not (tmp_path / "t.json").exists()
