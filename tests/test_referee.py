"""The referee: fepaper against fepaper, against deliberately faulty bots, and its games file."""

import hashlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fepaper.engines.matchfile import RefereeFileError, games_of, opening_bank, read_games
from fepaper.engines.matchstats import summary
from fepaper.engines.programs import command_args
from fepaper.engines.referee import play_game, referee
from fepaper.game.game import Game

PY = shlex.quote(sys.executable)
FAULTY = shlex.quote(str(Path(__file__).parent / "bots" / "faulty.py"))
BOT = f"{PY} -m fepaper.cli bot"


def fepaper_bot(spec: str) -> str:
    return f"{BOT} {shlex.quote(spec)} --opening {{opening}}"


def faulty(mode: str, *extra: str) -> str:
    return f"{PY} {FAULTY} {mode} {' '.join(extra)} --opening {{opening}}"


GREEDY = fepaper_bot('{"name": "greedy", "seed": 1}')
QUICK = {"ms_first": 400, "ms": 60, "warmup": 4.0}  # room for the bots to start while other tests run beside


def test_fepaper_plays_fepaper_from_openings_and_resumes(tmp_path):
    out = tmp_path / "games.jsonl"
    random = fepaper_bot('{"name": "random", "mode": "turns", "seed": 2}')
    rows = referee(GREEDY, random, 2, out, openings=2, seed=7, **QUICK)
    assert [r["game"] for r in rows] == [0, 1]
    bank = opening_bank(7, 2, 1)
    for row, first in zip(rows, "AB"):
        assert row["opening"] == bank[0] and row["first"] == first and row["forfeit"] is None
        game = Game("codingame", row["moves"])  # every turn legal, from the opening
        assert game.is_over and row["moves"].startswith(bank[0])
        assert len(row["ms"]["A"]) + len(row["ms"]["B"]) == len(game.history) - 2
    again = referee(GREEDY, random, 4, out, openings=2, seed=7, **QUICK)  # extends, keeps games 0 and 1
    assert [r["game"] for r in again] == [0, 1, 2, 3] and again[:2] == rows
    assert again[2]["opening"] == again[3]["opening"] == opening_bank(7, 2, 2)[1]
    s = summary(again, 400, 60)
    assert s["games"] == 4 and s["wins_a"] + s["wins_b"] + s["draws"] == 4
    assert 0 <= s["score_a_low"] <= s["score_a"] <= s["score_a_high"] <= 1
    assert s["time"]["A"]["decisions"] == sum(len(r["ms"]["A"]) for r in again)
    games = games_of(out)  # the positions of the file, to study (notebook 05)
    assert [g.history for g in games] == [Game("codingame", r["moves"]).history for r in again]
    assert all(g.is_over for g in games) and len(games_of(out, 3)) == 3


@pytest.mark.parametrize("mode, why", [("illegal", "illegal"), ("garbage", "garbage"), ("silence", "timeout"),
                                       ("crash", "crash")])
def test_a_faulty_bot_forfeits(mode, why):
    for first, second, loser in ((faulty(mode), GREEDY, 1), (GREEDY, faulty(mode), 2)):
        result = play_game(first, second, "", hard_factor=2.0, **QUICK)
        assert result["reason"] == "forfeit" and result["winner"] == 3 - loser
        assert result["forfeit"]["player"] == loser and result["forfeit"]["why"] == why
        game = Game("codingame", result["moves"])  # the legal turns before the fault
        assert not game.is_over and game.player == loser
        if why == "timeout":  # it waited for the hard limit and no longer
            assert 120 <= result["ms"][loser][-1] < 400


def test_an_overrun_below_the_hard_limit_is_recorded_not_punished(tmp_path):
    slow = faulty("overrun", "0", "--sleep", "0.09")
    rows = referee(slow, GREEDY, 2, tmp_path / "g.jsonl", hard_factor=3.0, **QUICK)
    assert all(r["forfeit"] is None for r in rows)
    s = summary(rows, 400, 60)
    later = [x for r in rows for x in r["ms"]["A"][1:]]
    assert later and min(later) > 60
    assert s["time"]["A"]["over"] >= len(later) and s["time"]["A"]["over_10pct"] >= len(later)


def test_an_overrun_past_the_hard_limit_forfeits():
    result = play_game(faulty("overrun", "0", "--sleep", "0.2"), GREEDY, "", hard_factor=2.0, **QUICK)
    assert result["forfeit"]["why"] == "timeout" and result["winner"] == 2
    assert len(result["ms"][1]) == 2  # its first turn had 400 ms, its second only 120


def test_the_games_file_is_checked(tmp_path):
    out = tmp_path / "g.jsonl"
    legal = faulty("legal")
    referee(legal, GREEDY, 2, out, openings=1, **QUICK)
    text = out.read_text()
    header, rows = read_games(out)
    assert header["openings"] == 1 and len(rows) == 2
    with pytest.raises(RefereeFileError, match="other settings"):
        referee(legal, GREEDY, 2, out, openings=1, seed=3, **QUICK)
    lines = text.splitlines()
    for edit, words in ((lambda r: r.update(winner="B" if r["winner"] != "B" else "A"), "winner"),
                        (lambda r: r.update(first="B"), "first"),
                        (lambda r: r.update(opening="4"), "opening"),
                        (lambda r: r.update(moves=r["moves"] + " 0"), "moves"),
                        (lambda r: r.update(ms={"A": [-1], "B": []}), "ms")):
        row = json.loads(lines[1])
        edit(row)
        out.write_text("\n".join([lines[0], json.dumps(row), lines[2]]) + "\n")
        with pytest.raises(RefereeFileError, match=words):
            read_games(out)
    out.write_text("\n".join([lines[0], lines[1], lines[1]]) + "\n")
    with pytest.raises(RefereeFileError, match="twice"):
        read_games(out)
    out.write_text(text + lines[2][:40])  # a row cut by a kill: skipped, the rest kept, the file as it is
    with pytest.warns(UserWarning, match="partial last line"):
        _, rows = read_games(out)
    assert len(rows) == 2 and out.read_text() == text + lines[2][:40]


def test_bad_settings_are_refused_before_any_game(tmp_path):
    with pytest.raises(ValueError, match="CMD_B has no {opening}"):
        referee(GREEDY, "prog", 2, tmp_path / "x.jsonl", openings=2)
    with pytest.raises(ValueError, match="games"):
        referee(GREEDY, GREEDY, 0, tmp_path / "x.jsonl")
    with pytest.raises(ValueError, match="cannot split"):
        command_args("prog 'open")
    assert not (tmp_path / "x.jsonl").exists()


def test_the_bot_of_a_command_and_two_bots_compared_on_the_same_games():
    from fepaper.engines.matchstats import paired
    from fepaper.engines.provenance import bot_spec, shipped_nets

    assert bot_spec("env X=1 fepaper bot '{\"name\": \"bestfirst\", \"steps\": -0.3}' --opening {opening}") == \
        {"name": "bestfirst", "steps": -0.3}
    assert bot_spec("challenger_cg --ms 100") is None
    net = shipped_nets({"name": "bestfirst", "net": "/elsewhere/snap/fepaper/data/value_engines.npz"})["net"]
    assert Path(net).is_file() and Path(net).parent.as_posix().endswith("data/strength/networks")
    assert shipped_nets({"name": "bestfirst"}) == {"name": "bestfirst"}
    with pytest.raises(ValueError, match="not one fepaper keeps: no network 'mine.npz'"):
        shipped_nets({"name": "bestfirst", "net": "/elsewhere/mine.npz"})
    # a network the bot read under another name: the shipped file of the recorded digest
    shipped = Path(net).parent / "value_engines9.npz"
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert shipped_nets({"name": "bestfirst", "net": "/elsewhere/mine.npz"},
                        {"file": "value_engines9.npz", "sha256": digest})["net"] == str(shipped)
    with pytest.raises(ValueError, match="sha256 differs"):
        shipped_nets({"name": "bestfirst", "net": "/elsewhere/mine.npz"}, {"file": "value_engines.npz", "sha256": digest})

    def game(k, winner, opening="6 5"):
        return {"game": k, "opening": opening, "first": "AB"[k % 2], "winner": winner}

    first = [game(k, "A" if k < 10 else "B") for k in range(12)]  # won games 0 to 9
    second = [game(k, "A" if k in (0, 10) else "B") for k in range(12)]  # won 0 and 10
    out = paired(first, second)
    assert (out["games"], out["both"], out["only_first"], out["only_second"], out["neither"]) == (12, 1, 9, 1, 1)
    assert out["p"] == pytest.approx(2 * (1 + 10) / 2**10)  # exact sign test, 9 against 1
    assert paired(first, first)["p"] == 1.0
    with pytest.raises(ValueError, match="game 3"):
        paired(first, [game(k, "A", "2 2" if k == 3 else "6 5") for k in range(12)])


# -- the file's readers never write; every field and number checked -----------------------------------------
def _games_file(path, games: int = 3, **changed) -> Path:
    """A referee file of ``games`` random games from the kick-off (commands ``a`` and ``b``,
    never run), written without playing; ``changed``: header fields replaced or (None) dropped."""
    from fepaper.engines.matchfile import file_settings
    from fepaper.play.randomplay import random_game

    header = {**file_settings("a", "b", "codingame", 400, 60, 0, 0, 3.0, 2.5, ("A", "B")), **changed}
    lines = [json.dumps({k: v for k, v in header.items() if v is not None})]
    for g in range(games):
        full = random_game("codingame", seed=g)
        side = {1: "A", 2: "B"} if g % 2 == 0 else {1: "B", 2: "A"}
        lines.append(json.dumps({"game": g, "opening": "", "first": side[1], "moves": full.moves,
                                 "winner": side.get(full.result.winner), "reason": full.result.reason,
                                 "forfeit": None, "ms": {"A": [], "B": []}}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_reader_never_writes_the_file(tmp_path):
    """The tracker's case: a last line without its newline was dropped and the file written
    back, so agree, valuefit --referee and searchvalues --referee each lost a whole game."""
    from fepaper.cli import main
    from fepaper.engines.training import training_rows

    out = _games_file(tmp_path / "g.jsonl", 3)
    cut = out.read_bytes()[:-1]  # the last game complete, its newline missing
    out.write_bytes(cut)
    with pytest.warns(UserWarning, match="partial last line"):
        _, rows = read_games(out)
    assert len(rows) == 2 and out.read_bytes() == cut
    with pytest.warns(UserWarning, match="partial last line"):
        assert len(training_rows([out])[0]) == 2 and len(games_of(out)) == 2
    assert out.read_bytes() == cut
    with pytest.warns(UserWarning, match="partial last line"):
        assert main(["net", "agree", "value_engines25w2.npz", "--games", str(out), "--imitate", "A", "--json"]) == 0
    assert out.read_bytes() == cut
    # the writer, and only the writer, cuts the line off (it plays that game again)
    with pytest.warns(UserWarning, match="cut off the partial last line"):
        rows = referee("a", "b", 2, out, ms_first=400, ms=60, warmup=2.5)
    assert [r["game"] for r in rows] == [0, 1] and out.read_bytes() == cut[: cut.rfind(b"\n") + 1]


def test_a_game_number_or_a_header_field_out_of_bounds_is_refused_at_once(tmp_path, capsys):
    """``"game": 1000000000`` made a reader build 5 x 10**8 openings; a header without names
    was a KeyError, with one name an IndexError: each is now one error naming line and field."""
    from fepaper.cli import main
    from fepaper.play.limits import MAX_GAMES

    out = _games_file(tmp_path / "g.jsonl", 2, openings=2, cmd_a="a {opening}", cmd_b="b {opening}")
    lines = out.read_text().splitlines()
    for number, field in ((10**9, "game: a game number from 0 to 99999"), (MAX_GAMES - 1, "opening"),
                          (-1, "game"), (True, "game")):
        row = json.loads(lines[1])
        row["game"] = number
        out.write_text("\n".join([lines[0], json.dumps(row)]) + "\n")
        with pytest.raises(RefereeFileError, match=f"line 2: {field}"):
            read_games(out)
    for changed, field in (({"names": None}, "missing names"), ({"names": ["A"]}, "names"),
                           ({"names": "AB"}, "names"), ({"openings": 10**9}, "openings: an integer from 0 to 100"),
                           ({"ms": 0}, "ms"), ({"seed": -1}, "seed"), ({"hard_factor": "3"}, "hard_factor"),
                           ({"rules": {"preset": "codingame", "max_turns": 10**23}}, "rules"),
                           ({"cmd_a": 5}, "cmd_a")):
        _games_file(out, 2, **changed)
        with pytest.raises(RefereeFileError, match=f"line 1: {field}"):
            read_games(out)
        assert main(["net", "agree", "value_engines25w2.npz", "--games", str(out), "--imitate", "A"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("fepaper net agree: error: ") and err.count("\n") == 1 and len(err) < 400, err


def test_a_second_writer_of_a_games_file_is_refused_at_once(tmp_path):
    from fepaper.play.filelock import FileBusyError, exclusive

    out = _games_file(tmp_path / "g.jsonl", 2)
    text = out.read_text()
    with exclusive(out, "games file"):
        with pytest.raises(FileBusyError, match="another run is writing this file"):
            referee("a", "b", 2, out, ms_first=400, ms=60, warmup=2.5)
    assert out.read_text() == text
    assert len(referee("a", "b", 2, out, ms_first=400, ms=60, warmup=2.5)) == 2


# -- no program outlives the referee -----------------------------------------------------------------------
def _running(tag: str) -> list[int]:
    """The ``sleep`` processes whose argument is ``tag``."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                args = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if args[0].endswith(b"sleep") and tag.encode() in args[1:]:
                found.append(int(name))
    return found


def _gone(tag: str, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while _running(tag):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _stubborn(tag: str) -> str:
    """A program that answers nothing, ignores EOF, and starts a process in a session of its own."""
    return f"sh -c 'setsid sleep 771.{tag} & exec sleep 772.{tag}'"


def test_a_program_and_what_it_started_end_with_the_game(tmp_path):
    """``setsid sleep 77 &`` escaped the cleanup even when the game ended normally."""
    tag = str(os.getpid())
    out = tmp_path / "g.jsonl"
    rows = referee(_stubborn(tag), GREEDY, 1, out, ms_first=200, ms=60, hard_factor=1.0, warmup=0.5)
    assert rows[0]["forfeit"]["why"] == "timeout"
    assert _gone(f"771.{tag}", 5) and _gone(f"772.{tag}", 5)


def test_a_killed_referee_leaves_no_program_behind(tmp_path):
    """After a SIGKILL of ``fepaper referee``, a program that ignores EOF kept running, and so did
    what it had started in another session."""
    tag = f"{os.getpid()}9"
    out = tmp_path / "g.jsonl"
    run = subprocess.Popen([sys.executable, "-m", "fepaper.cli", "referee", _stubborn(tag), _stubborn(tag + "1"),
                            "--games", "1", "--out", str(out), "--ms-first", "60000", "--warmup", "0"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 60
        names = (f"771.{tag}", f"772.{tag}", f"771.{tag}1", f"772.{tag}1")
        while not all(_running(name) for name in names):
            assert time.monotonic() < end and run.poll() is None, "the programs did not start"
            time.sleep(0.05)
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        for name in names:
            assert _gone(name, 10), f"{name} outlived the referee"
    finally:
        if run.poll() is None:
            run.kill()


@pytest.mark.parametrize("mode, why", [("legal", None), ("garbage", "garbage"), ("illegal", "illegal")])
def test_one_game_loop_plays_a_controller_against_an_outside_program(mode, why):
    """The arena's controllers and the referee's programs are players of one loop (play_out): here
    one of each in the same game; a program's fault ends the game as a forfeit at its turn."""
    from fepaper.controllers import make
    from fepaper.engines.programs import Program, ProgramPlayer
    from fepaper.play.arena import play_out

    game = Game("codingame")
    with Program(faulty(mode), "") as program:
        program.send("1\n")  # the program plays player 2
        players = {1: make({"name": "greedy", "seed": 1}), 2: ProgramPlayer(program, 0, ms_first=20_000, ms=20_000)}
        forfeit = play_out(game, players)
    if why is None:
        assert forfeit is None and game.is_over and len(players[2].ms) == len(game.history) // 2
    else:
        assert forfeit.player == 2 and forfeit.why == why and game.player == 2 and not game.is_over
        assert len(game.history) == 3  # its first answer legal, the second its fault
