"""A tuning checkpoint is sealed: a hand-edited, damaged or impossible one is refused whole."""

import json

import pytest

from fepaper.experiments.thesis.checkpoints import CheckpointError, read_checkpoint, seal, write_json_atomic
from fepaper.experiments.thesis.tuning import tune
from fepaper.play.pools import SerialExecutor

TINY = dict(spec={"name": "aco", "variant": "ferdist"}, games=2, rules="standard", seed=7, population=4, offspring=2,
            bounds={"n_ants": (2, 5), "iterations": (1, 2)}, progress=False)


@pytest.fixture(scope="module")
def sealed(tmp_path_factory):
    path = tmp_path_factory.mktemp("ga") / "ga.json"
    tune(generations=1, executor=SerialExecutor(), checkpoint=path, **TINY)
    return path.read_text()


@pytest.fixture
def saved(tmp_path, sealed):
    path = tmp_path / "ga.json"
    path.write_text(sealed)
    return path


def _edit(path, change, reseal):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(seal(data) if reseal else data))


def test_a_checkpoint_is_sealed_and_read_back(saved):
    data = read_checkpoint(saved)
    assert data["checksum"].startswith("sha256:") and data["version"] == 2


EDITS = {
    "hall-of-fame fitness 5.0": lambda d: d["halloffame"][0].__setitem__("fitness", 5.0),
    "a genome of 1e9": lambda d: d["population"][1]["genome"].__setitem__(0, 1e9),
    "a fractional integer gene": lambda d: d["population"][1]["genome"].__setitem__(0, 2.5),
    "a score of 1.5": lambda d: d["population"][0].__setitem__("score", 1.5),
    "a logbook maximum of 5": lambda d: d["logbook"][1].__setitem__("max", 5.0),
    "a hall of fame worst first": lambda d: d["halloffame"].reverse(),
    "a negative tie-break": lambda d: d["config"].__setitem__("tie_break", -1),
}


@pytest.mark.parametrize("edit", EDITS)
def test_a_hand_edit_breaks_the_checksum(saved, edit):
    _edit(saved, EDITS[edit], reseal=False)
    with pytest.raises(CheckpointError, match="checksum does not match its content"):
        read_checkpoint(saved)


@pytest.mark.parametrize("edit, words", [
    ("hall-of-fame fitness 5.0", r"halloffame\[0\].fitness 5.0 is not its score"),
    ("a genome of 1e9", r"population\[1\].genome: n_ants = 1000000000.0 is not an integer in \[2.0, 5.0\]"),
    ("a fractional integer gene", r"n_ants = 2.5 is not an integer"),
    ("a score of 1.5", r"population\[0\].score must be a mean result in \[0, 1\]"),
    ("a logbook maximum of 5", r"logbook\[1\] holds values no run writes"),
    ("a hall of fame worst first", "best first"),
    ("a negative tie-break", "tie_break must be a non-negative number"),
])
def test_an_impossible_value_is_refused_even_when_resealed(saved, edit, words):
    before = saved.read_text()
    if edit == "a hall of fame worst first" and len(json.loads(before)["halloffame"]) < 2:
        pytest.skip("a hall of fame of one")
    _edit(saved, EDITS[edit], reseal=True)
    with pytest.raises(CheckpointError, match=words):
        read_checkpoint(saved)


@pytest.mark.parametrize("text, words", [
    ('{"format": "fepaper-tuning-checkpoint", "format": 1}', "duplicate key 'format'"),
    ("[" * 100_000, "nested deeper than 64"),
    ('{"version": NaN}', "NaN is not JSON"),
    ('{"a": 1} \x00', "NUL"),
])
def test_strict_json(saved, text, words):
    saved.write_text(text)
    with pytest.raises(CheckpointError, match=words):
        read_checkpoint(saved)


def test_a_version_1_checkpoint_is_refused_with_what_to_do(saved):
    data = json.loads(saved.read_text())
    data.pop("checksum")
    saved.write_text(json.dumps({**data, "version": 1}))
    with pytest.raises(CheckpointError, match="version 1, this fepaper reads version 2.*delete it"):
        read_checkpoint(saved)


def test_only_documents_with_a_format_are_sealed(tmp_path):
    write_json_atomic(tmp_path / "plain.json", {"best": 1})
    write_json_atomic(tmp_path / "doc.json", {"format": "x", "best": 1})
    assert json.loads((tmp_path / "plain.json").read_text()) == {"best": 1}
    assert json.loads((tmp_path / "doc.json").read_text())["checksum"].startswith("sha256:")
    assert not list(tmp_path.glob("*.tmp"))
