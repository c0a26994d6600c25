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
from fepaper.experiments.arena import SerialExecutor, run_games, schedule
from fepaper.experiments.filelock import FileBusyError, exclusive
from fepaper.experiments.pools import worker_pool

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
    code = ("import sys, time; from fepaper.experiments.filelock import exclusive\n"
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
    from fepaper.experiments.gamefile import GameFileError, sidecar

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
