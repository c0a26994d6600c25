import json

import pytest

from fepaper.cli import main


def test_perft_prints_the_count(capsys):
    assert main(["perft", "--rules", "thesis", "--depth", "3"]) == 0
    assert capsys.readouterr().out.strip() == "2034"


def test_perft_accepts_json_rules(capsys):
    assert main(["perft", "--rules", '{"preset": "thesis", "bounce": "mandatory"}', "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "90"


def test_perft_divide(capsys):
    assert main(["perft", "--rules", "standard", "--depth", "2", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "0: 7" in out and "total: 56" in out and "turns: 8" in out


def test_perft_from_moves(capsys):
    assert main(["perft", "--moves", "0", "--depth", "1"]) == 0
    assert capsys.readouterr().out.strip() == "17"


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
