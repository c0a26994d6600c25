"""docs/reliability.md's promises across modules: one writer per file, the CLI's bounds, files
that are not regular, outputs that are not overwritten, and processes that do not outlive
the referee."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fepaper.cli import main
from fepaper.play.arena import run_games, schedule
from fepaper.play.filelock import FileBusyError, exclusive
from fepaper.play.pools import SerialExecutor, worker_pool

A, B = {"name": "random", "seed": 1}, {"name": "random", "seed": 2}
CLI = [sys.executable, "-m", "fepaper.cli"]


def _wait_for(condition, seconds: float = 60.0, what: str = "the condition") -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what} not met within {seconds} s")
        time.sleep(0.05)


# -- one writer per append-as-you-go file ------------------------------------------------------------------
def _holder(path: Path) -> subprocess.Popen:
    """Another process holding the lock of ``path`` (as a run writing it does) until it is killed."""
    code = ("import sys, time; from fepaper.play.filelock import exclusive\n"
            "with exclusive(sys.argv[1]):\n    print('held', flush=True); time.sleep(600)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "held\n"
    return holder


def test_a_second_writer_of_a_games_file_is_refused_at_once_and_a_killed_one_frees_it(tmp_path):
    """Two runs writing one games file left duplicates refused only at the next resume; now the
    second is refused before it reads the file, with one line; the lock dies with its process."""
    out = tmp_path / "m.csv"
    holder = _holder(out)
    try:
        run = subprocess.run([*CLI, "match", "random", "random", "--games", "2", "--out", str(out)],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2
        assert run.stderr.startswith("fepaper match: error: games file ") and \
            "another run is writing this file" in run.stderr and run.stderr.count("\n") == 1
        assert out.read_text() == ""
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert main(["match", "random", "random", "--games", "2", "--out", str(out), "--json"]) == 0
    assert len(out.read_text().splitlines()) == 1 + 2


def test_the_lock_ends_with_the_run_not_with_its_pool(tmp_path):
    """A pool's workers forked while the lock is held do not keep it: the same run again in the
    same process, with the same pool, is not refused; a run refused before its first row
    leaves no file behind."""
    from fepaper.play.gamefile import GameFileError, sidecar

    out = tmp_path / "m.csv"
    jobs = schedule("standard", [A], [B], games=2, seed=1)
    with worker_pool(2) as pool:
        first = run_games(jobs, out, pool, progress=False)
        assert run_games(jobs, out, pool, progress=False) == first
    with exclusive(out, "games file"):
        with pytest.raises(FileBusyError):
            run_games(jobs, out, SerialExecutor(), progress=False)
    fresh = tmp_path / "fresh.csv"
    sidecar(fresh).write_text(sidecar(out).read_text())
    with pytest.raises(GameFileError, match="another run"):
        run_games(schedule("standard", [A], [B], games=2, seed=2), fresh, SerialExecutor(), progress=False)
    assert not fresh.exists()


# -- outputs: no symbolic link followed, nothing overwritten without --force, no raw HTML from data ----------
def test_an_output_never_follows_a_link_nor_overwrites_a_file_without_force(tmp_path, capsys):
    """``show --svg``, ``tune --out`` and ``valuefit --out`` overwrote an unrelated file without
    asking, and ``show --svg`` followed a symbolic link into its target."""
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "board.svg"
    link.symlink_to(target)
    cases = [(["show", "--svg", str(link)], "is a symbolic link"),
             (["show", "--svg", str(target)], "exists; give --force to overwrite it"),
             (["tune", "--out", str(target), "--generations", "0"], "exists; give --force"),
             (["net", "fit", "--out", str(target), "--games", "1"], "exists; give --force"),
             (["match", "random", "random", "--out", str(link)], "is a symbolic link"),
             (["show", "--svg", str(link), "--force"], "is a symbolic link")]
    for argv, words in cases:
        assert main(argv) == 2
        err = capsys.readouterr().err
        command = " ".join(argv[:2]) if argv[0] == "net" else argv[0]  # net's commands: "net fit"
        assert err.startswith(f"fepaper {command}: error: ") and words in err, err
        assert target.read_text() == "keep me" and link.is_symlink()
    assert main(["show", "--svg", str(target), "--force"]) == 0
    assert target.read_text().startswith("<svg")


def test_the_report_escapes_raw_html_in_markdown_built_from_data(tmp_path):
    """A ``text/markdown`` output was rendered with its raw HTML kept: a ``<script>`` in a table
    built from a data file reached the page."""
    import nbformat

    from fepaper.notebook.report import write_page

    evil = "| player |\n|---|\n| <script>alert(1)</script> |\n\n[x](javascript:alert(2)) <img src=x onerror=alert(3)>"
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("show(table)")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/markdown": evil})]
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), cell]
    page = write_page(nb, tmp_path / "p.html", title="t", source="notebooks/x.ipynb", budget="smoke").read_text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=x" not in page and 'href="javascript:' not in page
    assert "<td>" in page  # the table is still a table


@pytest.mark.parametrize("collector_on", [True, False])
def test_the_garbage_collector_is_off_in_a_timed_decision_and_as_it_was_after(monkeypatch, collector_on):
    """A full collection took 32 to 42 ms of CPU time in the clock benchmark's process: it waits until a
    timed decision is over, whether the decision answers or raises; an untimed one leaves it alone."""
    import gc

    from fepaper.controllers import make
    from fepaper.game import Game

    seen = []

    def decide(self, game, fail=False):
        seen.append(gc.isenabled())
        if fail:
            raise RuntimeError("a search that fails")
        return original(self, game)

    timed, untimed = make({"name": "greedy", "time_limit": 0.5}), make("greedy")
    original = type(timed).decide
    monkeypatch.setattr(type(timed), "decide", decide)
    (gc.enable if collector_on else gc.disable)()
    try:
        timed.choose_turn(Game("codingame"))
        assert seen.pop() is False and gc.isenabled() is collector_on
        untimed.choose_turn(Game("codingame"))
        assert seen.pop() is collector_on and gc.isenabled() is collector_on
        monkeypatch.setattr(type(timed), "decide", lambda self, game: decide(self, game, fail=True))
        with pytest.raises(RuntimeError, match="a search that fails"):
            timed.choose_turn(Game("codingame"))
        assert seen.pop() is False and gc.isenabled() is collector_on
    finally:
        gc.enable()


@pytest.mark.parametrize("name", ["mcts", "minimax"])
def test_a_budget_below_what_a_controller_keeps_is_refused_saying_so(name):
    """fepaper bench clock: at 1 ms a few MCTS and minimax decisions passed 1.1 times the budget in CPU
    time, at 5 ms none, so they refuse less than 5 ms; best-first keeps 1 ms and takes it."""
    from fepaper.controllers import make
    from fepaper.controllers.base import SpecError

    with pytest.raises(SpecError, match="below 0.005 s"):
        make({"name": name, "time_limit": 0.001})
    assert make({"name": name, "time_limit": 0.005}).time_limit == 0.005
    assert make({"name": "bestfirst", "time_limit": 0.001}).time_limit == 0.001
