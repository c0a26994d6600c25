"""Search values as targets: every labelled position valued by its own search, a file that resumes
and refuses other games, and a fit that blends them into the results."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from fepaper.cli import main
from fepaper.engines.searchvalues import (
    SearchValuesError,
    program_values,
    search_values,
    values_of_file,
)
from fepaper.engines.training import training_rows
from fepaper.engines.valuefit import blend, positions
from fepaper.game.game import Game
from fepaper.search.bestfirst import bestfirst_search

from .helpers import DyingExecutor, Interrupt

SELFPLAY = Path(__file__).parents[1] / "data" / "strength" / "engine_selfplay" / "qtpapersoccer_4turn.jsonl"


@pytest.fixture(scope="module")
def games():
    rows, _ = training_rows([SELFPLAY])
    return rows[:3]


def test_every_labelled_position_holds_its_own_searchs_value(games, tmp_path):
    values = search_values(games, tmp_path / "v.jsonl", iterations=12, every=3, progress=False)
    pos = positions(games)
    assert values.shape == pos["target"].shape
    labelled = np.flatnonzero(~np.isnan(values))
    assert labelled.tolist() == list(range(0, values.shape[0], 3))
    for i in labelled[::4]:  # the search of the position itself, as the game reached it
        row = games[pos["game"][i]]
        game = Game("codingame", " ".join(row["moves"].split()[: pos["played"][i]]))
        assert np.array_equal(game.marks, pos["marks"][i]) and game.player == pos["mover"][i]
        r = bestfirst_search(game, 12, evaluator="net", net="value_engines25w2.npz", seed=0)
        assert values[i] == pytest.approx(min(max(r.value, -1.0), 1.0), abs=1e-5)
    assert np.array_equal(values_of_file(games, tmp_path / "v.jsonl"), values, equal_nan=True)


def test_a_killed_run_resumes_to_the_same_file_and_other_games_or_searches_are_refused(games, tmp_path):
    whole = tmp_path / "whole.jsonl"
    search_values(games, whole, iterations=8, every=5, progress=False)
    lines = whole.read_text().split("\n")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:2]) + "\n" + lines[2][:9])  # the header, a game, half a game
    with pytest.raises(SearchValuesError, match="not valued yet"):
        values_of_file(games, cut)
    search_values(games, cut, iterations=8, every=5, progress=False)
    assert cut.read_text() == whole.read_text()
    cut.write_text("\n".join(lines[:3]))  # killed between a game's line and its newline: that game again
    search_values(games, cut, iterations=8, every=5, progress=False)
    assert cut.read_text() == whole.read_text()
    before = whole.read_text()
    with pytest.raises(SearchValuesError, match="iterations 8, not 9"):
        search_values(games, whole, iterations=9, every=5, progress=False)
    with pytest.raises(SearchValuesError, match="digest"):
        search_values(games[:2] + games[:1], whole, iterations=8, every=5, progress=False)
    with pytest.raises(SearchValuesError, match="games 3, not 2"):
        values_of_file(games[:2], whole)
    assert whole.read_text() == before
    with pytest.raises(ValueError, match="every must be a positive integer"):
        search_values(games, tmp_path / "no.jsonl", every=0)


def test_a_run_killed_mid_way_keeps_every_game_it_valued(games, tmp_path, monkeypatch):
    import fepaper.engines.searchvalues as module

    monkeypatch.setattr(module, "_CHUNK", 1)
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    search_values(games, whole, iterations=8, every=5, progress=False)
    with pytest.raises(Interrupt):  # two games valued, then killed at the third
        search_values(games, cut, iterations=8, every=5, progress=False, executor=DyingExecutor(2))
    assert cut.read_text().split("\n")[:3] == whole.read_text().split("\n")[:3]  # the header and two games
    assert len(cut.read_text().split("\n")) == 4
    search_values(games, cut, iterations=8, every=5, progress=False)
    assert cut.read_text() == whole.read_text()


def test_the_blend_mixes_only_the_valued_positions():
    target = np.array([1.0, -1.0, 0.0, 1.0], np.float32)
    values = np.array([0.2, np.nan, -0.6, np.nan], np.float32)
    assert blend(target, values, 0.25).tolist() == pytest.approx([0.8, -1.0, -0.15, 1.0])
    assert blend(target, values, 0.0).tolist() == target.tolist()
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        blend(target, values, 1.5)
    with pytest.raises(ValueError, match="3 search values for 4 positions"):
        blend(target, values[:3], 0.5)


def test_valuefit_fits_on_the_blend_from_the_command_line(tmp_path, capsys):
    values = tmp_path / "v.jsonl"
    assert main(["net", "searchvalues", "--referee", str(SELFPLAY), "--out", str(values), "--iterations", "4",
                 "--every", "200", "--workers", "1"]) == 0
    assert capsys.readouterr().out.endswith(": 238 of 47553 positions of 974 games valued\n")
    assert json.loads(values.read_text().split("\n")[0])["every"] == 200
    out = tmp_path / "net.npz"
    assert main(["net", "fit", "--referee", str(SELFPLAY), "--search-values", str(values), "--value-weight", "0.5",
                 "--epochs", "1", "--hidden1", "8", "--hidden2", "4", "--out", str(out), "--workers", "1"]) == 0
    assert out.is_file()
    assert main(["net", "fit", "--out", str(tmp_path / "x.npz"), "--search-values", str(values)]) == 2
    assert "give the files" in capsys.readouterr().err


def test_values_equal_to_the_results_foretell_them_exactly_and_the_network_less(games):
    from fepaper.engines.searchvalues import against_results
    from fepaper.search.valuefile import load_value_net, network_path

    target = positions(games)["target"]
    values = np.full(target.shape, np.nan, np.float32)
    values[::3] = target[::3]
    net, search = against_results(games, values, load_value_net(network_path("value_engines25w2.npz"), "codingame"))
    assert net["source"] == "network" and search["source"] == "search"
    assert net["positions"] == search["positions"] == len(target[::3])
    assert search["squared_error"] == 0.0 and search["correlation"] == pytest.approx(1.0)
    assert search["proven"] == np.mean(target[::3] != 0)
    assert 0.0 < net["squared_error"] < 4.0 and net["proven"] == 0.0  # tanh never reaches 1


VALUER = Path(__file__).parent / "bots" / "valuer.py"


def _valuer(*args) -> str:
    return " ".join([sys.executable, str(VALUER), *args])


def test_a_program_values_every_labelled_position_and_its_file_resumes(games, tmp_path):
    whole = tmp_path / "program.jsonl"
    values = program_values(games, whole, _valuer(), every=3, progress=False)
    pos = positions(games)
    labelled = np.flatnonzero(~np.isnan(values))
    assert labelled.tolist() == list(range(0, values.shape[0], 3))
    assert values[labelled].tolist() == pytest.approx([(p % 5) / 5 - 0.4 for p in pos["played"][labelled]])
    header = json.loads(whole.read_text().split("\n")[0])
    assert header["program"] == _valuer() and header["every"] == 3 and "net" not in header
    assert np.array_equal(values_of_file(games, whole), values, equal_nan=True)
    lines = whole.read_text().split("\n")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:2]) + "\n" + lines[2][:5])
    program_values(games, cut, _valuer(), every=3, progress=False)
    assert cut.read_text() == whole.read_text()
    with pytest.raises(SearchValuesError, match="program"):  # another command's file is refused
        program_values(games, whole, _valuer("good", "1"), every=3, progress=False)
    with pytest.raises(SearchValuesError, match="net"):  # and so is a search's
        search_values(games, whole, iterations=4, every=3, progress=False)


@pytest.mark.parametrize("mode, said", [("garbage", "answered 'no idea'"), ("outside", "answered '1.5 too sure'"),
                                        ("crash", "ended")])
def test_a_program_that_answers_no_value_is_named_with_the_position_and_the_file_keeps_what_came(
        games, tmp_path, mode, said):
    out = tmp_path / "v.jsonl"
    with pytest.raises(SearchValuesError, match=said) as caught:
        program_values(games, out, _valuer(mode, "2"), every=3, progress=False)
    assert "for the position after" in str(caught.value) or "before valuing the position after" in str(caught.value)
    assert not out.exists()  # the first chunk held the bad answer: no row, and a header only goes with one


def test_searchvalues_takes_a_program_instead_of_a_search(tmp_path, capsys):
    out = tmp_path / "v.jsonl"
    assert main(["net", "searchvalues", "--referee", str(SELFPLAY), "--out", str(out), "--program", _valuer(),
                 "--every", "400", "--workers", "1"]) == 0
    assert capsys.readouterr().out.endswith(": 119 of 47553 positions of 974 games valued\n")
    assert main(["net", "searchvalues", "--referee", str(SELFPLAY), "--out", str(tmp_path / "x.jsonl"),
                 "--program", _valuer(), "--net", "value_engines25w2.npz"]) == 2
    assert "drop --net and --iterations" in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()


def test_a_values_file_holds_finite_typed_values_in_range_for_the_games_it_names(games, tmp_path):
    """The tracker's edits: a value of 7.5 was blended into training (rc 0), ``null`` or ``[1]``
    as a value was a TypeError traceback, a renumbered game a KeyError traceback."""
    whole = tmp_path / "whole.jsonl"
    program_values(games, whole, _valuer(), every=3, progress=False)
    lines = whole.read_text().split("\n")
    row = json.loads(lines[1])
    edits = [({**row, "values": [7.5] + row["values"][1:]}, "values: a list of numbers from -1 to 1"),
             ({**row, "values": [None] + row["values"][1:]}, "values"),
             ({**row, "values": [[1]] + row["values"][1:]}, "values"),
             ({**row, "values": [True] + row["values"][1:]}, "values"),
             ({**row, "values": "0.5"}, "values"),
             ({**row, "game": len(games)}, f"game: a game number from 0 to {len(games) - 1}"),
             ({**row, "game": 10**30}, "game"),
             ({**row, "extra": 1}, "expected"),
             ({**row, "values": row["values"] + [0.0]}, "values, not")]
    bad = tmp_path / "bad.jsonl"
    for edited, words in edits:
        bad.write_text("\n".join([lines[0], json.dumps(edited), *lines[2:]]))
        with pytest.raises(SearchValuesError, match=words):
            values_of_file(games, bad)
        with pytest.raises(SearchValuesError, match=words):  # nor is it resumed
            program_values(games, bad, _valuer(), every=3, progress=False)
    bad.write_text("\n".join([lines[0], lines[1], lines[1], *lines[3:]]))
    with pytest.raises(SearchValuesError, match=f"{bad} line 3: game 0 is on file twice"):
        values_of_file(games, bad)


def test_a_second_writer_of_a_values_file_is_refused_at_once(games, tmp_path):
    from fepaper.play.filelock import FileBusyError, exclusive

    out = tmp_path / "v.jsonl"
    with exclusive(out, "search values file"):
        with pytest.raises(FileBusyError, match="another run is writing"):
            program_values(games, out, _valuer(), every=3, progress=False)
    program_values(games, out, _valuer(), every=3, progress=False)
    assert len(out.read_text().splitlines()) == 1 + len(games)


def test_a_recipe_of_an_outside_programs_values_names_the_variable_that_holds_its_command(tmp_path, monkeypatch):
    """The engine's values were made by a program outside the repository, once named by the path it had on
    one machine: the recipe names an environment variable instead, read only when the file must be made."""
    import shutil

    from fepaper.engines.enginenets import ENGINE_VALUER, fit_recipe

    data = Path(__file__).parent / "data"
    shutil.copy(data / "engine_games_30.jsonl", tmp_path)
    recipe = {"files": ("engine_games_30.jsonl",), "epochs": 1, "hidden": (8, 4),
              "search": {"file": "values.jsonl", "every": 8, "weight": 0.5, "program_from": ENGINE_VALUER}}
    rows, opening = training_rows([tmp_path / "engine_games_30.jsonl"])
    monkeypatch.delenv(ENGINE_VALUER, raising=False)
    with pytest.raises(ValueError, match=f"values.jsonl needs the program .* set the environment variable "
                                         f"{ENGINE_VALUER}"):
        fit_recipe(recipe, rows, opening, tmp_path / "a.npz", tmp_path)
    assert not (tmp_path / "values.jsonl").exists() and not (tmp_path / "a.npz").exists()
    monkeypatch.setenv(ENGINE_VALUER, _valuer())
    fit_recipe(recipe, rows, opening, tmp_path / "b.npz", tmp_path)  # the program makes the file
    made = values_of_file(rows, tmp_path / "values.jsonl")
    assert np.count_nonzero(~np.isnan(made)) == len(range(0, made.shape[0], 8))
    monkeypatch.setenv(ENGINE_VALUER, "")
    fit_recipe(recipe, rows, opening, tmp_path / "c.npz", tmp_path)  # a complete file needs no program
