"""A run's games file belongs to that run: every row is checked, anything else refused by line and field."""

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from fepaper.play.arena import match, round_robin
from fepaper.play.gamefile import (
    COLUMNS,
    LEGACY_KEYS,
    GameFileError,
    legacy_rules,
    legacy_spec,
    sidecar,
)
from fepaper.play.pools import SerialExecutor

A = {"name": "random", "stop_probability": 0.2}
B = {"name": "random", "mode": "turns"}
C = {"name": "greedy"}
# Games files written by fepaper 0.1.0 (its quick tournament), kept to test how they are read.
LEGACY = Path(__file__).resolve().parent / "data" / "fepaper-0.1"


class _NoGames(SerialExecutor):
    """An executor for runs that must find every game on file."""

    def submit(self, fn, /, *args, **kwargs):
        raise AssertionError("a game was played again")


def _match(out, spec_a=A, executor=None, **kw):
    return match("standard", spec_a, B, **{"games": 4, "seed": 3, **kw}, out=out,
                 executor=executor or SerialExecutor(), progress=False)


@pytest.fixture
def played(tmp_path):
    out = tmp_path / "m.csv"
    _match(out)
    return out


def _lines(path):
    return path.read_bytes().split(b"\r\n")


def _edit(path, line, field, value):
    """Set ``field`` of (1-based) ``line`` to ``value``, as a hand edit would."""
    lines = path.read_bytes().decode().split("\r\n")
    fields = next(csv.reader([lines[line - 1]]))
    fields[COLUMNS.index(field)] = value
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow(fields)
    lines[line - 1] = buffer.getvalue()
    path.write_bytes("\r\n".join(lines).encode())


def _refused(path, pattern, **kw):
    before = path.read_bytes(), sidecar(path).read_bytes()
    with pytest.raises(GameFileError, match=pattern) as info:
        _match(path, executor=_NoGames(), **kw)
    assert "\n" not in str(info.value)
    assert (path.read_bytes(), sidecar(path).read_bytes()) == before  # nothing written
    return str(info.value)


def test_a_complete_file_is_accepted_and_nothing_replayed(played):
    first = played.read_bytes()
    again = _match(played, executor=_NoGames())
    assert again["games"] == 4 and played.read_bytes() == first


def test_another_runs_players_are_not_credited_with_its_results(tmp_path, played):
    _refused(played, r"m.meta.json describes another run \(it differs in specs\)", spec_a=C)
    # even with the other run's sidecar beside it, the rows say whose games they are
    other = tmp_path / "other.csv"
    _match(other, spec_a=C, games=1)
    shutil.copy(sidecar(other), sidecar(played))
    sidecar(played).write_text(sidecar(played).read_text().replace('"scheduled": 1', '"scheduled": 4'))
    message = _refused(played, "describes another run", spec_a=C)
    assert "games" in message


def test_rows_are_checked_even_under_a_matching_sidecar(tmp_path, played):
    # a sidecar of the other run with this file's rows: the first row's spec_a is refused
    other = tmp_path / "other.csv"
    _match(other, spec_a=C)
    shutil.copy(played, other)
    with pytest.raises(GameFileError, match=re.escape(f"{other}, line 2, field spec_a")):
        _match(other, spec_a=C, executor=_NoGames())


@pytest.mark.parametrize("field, value, words", [
    ("score_a", "7.0", "7.0, but the moves replay to"),
    ("winner", "flip", "but the moves replay to"),
    ("moves", "garble", "does not replay"),
    ("moves", "cut", "not over after"),
    ("moves", "0 0 0 0 0 0 0 0 0 0 0 0", "do not start with the opening"),
    ("reason", "own goal", "but the moves replay to"),
    ("turns", "999", "999, but the moves replay to"),
    ("steps", "1", "but the moves replay to"),
    ("decisions_a", "77", "but the moves replay to"),
    ("seed", "12345", "not what this run schedules for pairing 0, game 0"),
    ("a_player", "2", "not what this run schedules"),
    ("opening", "0 0", "not what this run schedules"),
    ("rules", "foo", "not what this run schedules"),
    ("spec_b", '{"name": "mcts"}', "not what this run schedules"),
    ("pairing", "5", "pairing 5, game 0 is not in this run's schedule"),
    ("game", "-1", "not a non-negative integer"),
    ("nodes_a", "1e3", "not a non-negative integer"),
    ("seconds_a", "nan", "not a finite non-negative number"),
    ("seconds_b", "-1", "not a finite non-negative number"),
    ("score_a", "", "is not a number"),
])
def test_an_edited_row_is_refused_naming_file_line_and_field(played, field, value, words):
    row = next(csv.DictReader(io.StringIO(played.read_text())))
    if value == "flip":
        value = {"a": "b", "b": "a", "draw": "a"}[row["winner"]]
    elif value == "garble":
        value = row["moves"][:-1] + "9"
    elif value == "cut":
        value = row["moves"].rsplit(" ", 1)[0]
    _edit(played, 2, field, value)
    _refused(played, re.escape(f"{played}, line 2, field {field}: ") + f".*({words})")


def test_a_duplicate_game_is_refused(played):
    lines = _lines(played)
    played.write_bytes(b"\r\n".join(lines[:-1] + [lines[1], b""]))
    _refused(played, r"line 6, field game: pairing 0, game 0 is already on line 2")


@pytest.mark.parametrize("damage, words", [
    (lambda line: line[:10] + b"\x00" + line[10:], "line 3: NUL byte"),
    (lambda line: line[:10] + b"\xff" + line[10:], "line 3: not UTF-8"),
    (lambda line: line[:40], "line 3: not a CSV line"),
    (lambda line: b"0,1,standard,x", "line 3: 4 fields, expected 20"),
])
def test_a_damaged_line_is_refused(played, damage, words):
    lines = _lines(played)
    lines[2] = damage(lines[2])
    played.write_bytes(b"\r\n".join(lines))
    _refused(played, words)


def test_a_cut_row_glued_to_the_next_is_refused(played):
    lines = _lines(played)
    played.write_bytes(b"\r\n".join(lines[:2] + [lines[2][:50] + lines[3]] + lines[4:]))
    _refused(played, r"line 3[:,]")


def test_wrong_columns_are_refused(played):
    text = played.read_text()
    played.write_text(text.replace("score_a", "score", 1))
    _refused(played, r"line 1: columns .* are not fepaper's")


@pytest.mark.parametrize("keep", ["header", "after header", "mid row", "before newline", "all but LF"])
def test_a_partial_last_line_is_dropped_and_its_game_played_again(played, keep):
    full = played.read_bytes()
    header_end = full.index(b"\n") + 1
    last_start = full.rstrip(b"\n").rfind(b"\n") + 1
    cut = {"header": header_end // 2, "after header": header_end, "mid row": last_start + 30,
           "before newline": len(full) - 2, "all but LF": len(full) - 1}[keep]
    played.write_bytes(full[:cut])
    if keep == "after header":  # a clean cut: no warning, three games to play
        _match(played)
    else:
        with pytest.warns(UserWarning, match="dropped a partial last line"):
            _match(played)
    assert _strip(played.read_bytes()) == _strip(full)


def _strip(data: bytes) -> list[list[str]]:
    """Rows without the seconds columns (wall time differs between runs)."""
    rows = list(csv.reader(io.StringIO(data.decode())))
    drop = {COLUMNS.index("seconds_a"), COLUMNS.index("seconds_b")}
    return [[v for i, v in enumerate(r) if i not in drop] for r in rows]


@pytest.mark.parametrize("content", [b"", b"pairing,game"])
def test_an_empty_or_header_cut_file_is_started_again(played, content):
    played.write_bytes(content)
    if content:
        with pytest.warns(UserWarning, match="dropped a partial last line"):
            result = _match(played)
    else:
        result = _match(played)
    assert result["games"] == 4 and len(_lines(played)) == 6


def test_games_without_a_sidecar_are_refused(played):
    sidecar(played).unlink()
    with pytest.raises(GameFileError, match="sidecar m.meta.json is missing"):
        _match(played, executor=_NoGames())


@pytest.mark.parametrize("text, words", [
    ('{"format": "fepaper-games", "format": "x"}', "duplicate key 'format'"),
    ("[1, 2]", "must be a JSON object"),
    ("[" * 100_000, "nested deeper than 64"),
    ('{"format": "fepaper-games", "format_version": 1}', "not a fepaper-games version 2 sidecar"),
])
def test_a_bad_sidecar_is_refused(played, text, words):
    sidecar(played).write_text(text)
    _refused(played, words)


def test_a_file_of_fepaper_0_1_is_read_when_its_rows_check_out_and_never_extended(played):
    meta = json.loads(sidecar(played).read_text())
    legacy = {k: meta[k] for k in LEGACY_KEYS}
    sidecar(played).write_text(json.dumps(legacy))
    rows = _match(played, executor=_NoGames())
    assert len(rows["rows"]) == 4 and json.loads(sidecar(played).read_text()) == legacy  # left as it is
    sidecar(played).write_text(json.dumps({**legacy, "seed": 4}))
    _refused(played, r"describes another run \(it differs in seed\)")
    sidecar(played).write_text(json.dumps(legacy))
    lines = played.read_bytes().split(b"\r\n")
    played.write_bytes(b"\r\n".join(lines[:-2] + [b""]))  # one game fewer
    _refused(played, "written by fepaper 0.1.0 and lacks 1 of this run's games")


@pytest.mark.parametrize("name", ["04_thesis_games", "04_standard_games"])
def test_the_committed_files_of_fepaper_0_1_are_read_with_its_rules(tmp_path, name):
    """0.1.0 had one reading of a dead end under optional bounce (stop there): its thesis
    files are that run's games under that reading, never credited to the new thesis preset."""
    for suffix in (".csv", ".meta.json"):
        shutil.copy(LEGACY / (name + suffix), tmp_path / (name + suffix))
    out = tmp_path / (name + ".csv")
    meta = json.loads(sidecar(out).read_text())
    assert "format" not in meta  # a 0.1.0 sidecar
    rules = legacy_rules(meta["rules"])
    assert rules.dead_end == ("stop" if rules.bounce == "optional" else "blocked")
    specs = [legacy_spec(s) for s in meta["specs"]]  # 0.1.0's costs version charged every step
    assert {"name": "alphabeta", "variant": "costs", "depth": 2, "max_bounces": 15, "costs": "steps"} in specs
    rr = round_robin(rules, specs, games=meta["games"], seed=meta["seed"], out=out,
                     executor=_NoGames(), progress=False, budget=meta["budget"])
    assert len(rr["rows"]) == len(_lines(out)) - 2 == 8 * 91
    assert json.loads(sidecar(out).read_text()) == meta  # read as it is, not upgraded
    if rules.bounce == "optional":
        with pytest.raises(GameFileError, match="describes another run"):
            round_robin(meta["rules"], meta["specs"], games=meta["games"], seed=meta["seed"], out=out,
                        executor=_NoGames(), progress=False, budget=meta["budget"])


def test_a_new_release_resumes_the_games_an_older_one_played(tmp_path, monkeypatch):
    """The fingerprint names the version of play, not the release: bumping fepaper.__version__ keeps
    every committed games file resumable."""
    import fepaper
    from fepaper.play.arena import match
    from fepaper.play.gamefile import PLAY_VERSION

    out = tmp_path / "g.csv"
    first = match("standard", "random", "greedy", games=2, seed=3, out=out, progress=False)
    before = out.read_bytes()
    monkeypatch.setattr(fepaper, "__version__", "99.0.0")
    again = match("standard", "random", "greedy", games=2, seed=3, out=out, progress=False)
    assert out.read_bytes() == before and again["wins_a"] == first["wins_a"]
    assert json.loads(sidecar(out).read_text())["version"] == PLAY_VERSION
