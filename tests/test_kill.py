"""Runs killed with SIGKILL: the resumed file equals an uninterrupted run, and no worker outlives its parent."""

import csv
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fepaper.play.arena import run_games, schedule
from fepaper.play.gamefile import COLUMNS
from fepaper.play.pools import SerialExecutor

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")]

A = '{"name": "mcts", "iterations": 2000}'
B = '{"name": "mcts", "iterations": 2000, "c": 1.0}'
GAMES, SEED = 12, 5
WALL = {COLUMNS.index("seconds_a"), COLUMNS.index("seconds_b")}


def _command(out: Path, workers: int) -> list[str]:
    return [sys.executable, "-m", "fepaper.cli", "match", A, B, "--rules", "standard", "--games", str(GAMES),
            "--seed", str(SEED), "--out", str(out), "--workers", str(workers), "--json"]


def _rows(data: bytes) -> list[list[str]]:
    """The data rows of a games file without the wall-time columns."""
    rows = list(csv.reader(io.StringIO(data.decode())))[1:]
    assert all(len(r) == len(COLUMNS) for r in rows), "a damaged row"
    return [[v for i, v in enumerate(r) if i not in WALL] for r in rows]


@pytest.fixture(scope="module")
def uninterrupted():
    import json

    jobs = schedule("standard", [json.loads(A)], [json.loads(B)], GAMES, SEED)
    rows = run_games(jobs, None, SerialExecutor(), progress=False)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    writer.writerows([[r[c] for c in COLUMNS] for r in rows])
    return _rows(buffer.getvalue().encode())


def _games_on_file(out: Path) -> int:
    return max(out.read_bytes().count(b"\n") - 1, 0) if out.exists() else 0


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _kill_when(out: Path, workers: int, games: int | None) -> list[int]:
    """Start the run, SIGKILL it once ``games`` games are on file (at once if None); return its workers."""
    proc = subprocess.Popen(_command(out, workers), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    workers_seen: set[int] = set()
    while games is not None and (not out.exists() or _games_on_file(out) < games) and proc.poll() is None:
        assert time.monotonic() < deadline, "the run made no progress"
        workers_seen.update(_children(proc.pid))
        time.sleep(0.01)
    workers_seen.update(_children(proc.pid))
    assert proc.poll() is None, "the run ended before it could be killed; make its games longer"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return sorted(workers_seen)


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(map(_alive, pids)):
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


@pytest.mark.parametrize("workers", [1, 2])
def test_killed_runs_resume_to_the_uninterrupted_file(tmp_path, uninterrupted, workers):
    out = tmp_path / "m.csv"
    on_file = []
    for moment in (None, 0, 1, 4, 9):  # at start-up, once the file exists, once 1, 4 and 9 games are on it
        orphans = _kill_when(out, workers, moment)
        assert orphans or workers == 1 or not moment  # else the check below proves nothing
        on_file.append(_games_on_file(out))
        assert _gone_within(orphans, 5) == [], "pool workers outlived their killed parent"
        if out.exists():  # whatever is on file is a prefix of the games, each row whole
            rows = _rows(out.read_bytes().rsplit(b"\n", 1)[0] + b"\n")
            assert all(row in uninterrupted for row in rows)
    assert on_file[-1] >= 9 and on_file == sorted(on_file)
    done = subprocess.run(_command(out, workers), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    resumed = _rows(out.read_bytes())
    if workers == 1:
        assert resumed == uninterrupted  # row for row, in order
    else:  # a pool writes games in the order they end
        assert sorted(resumed) == sorted(uninterrupted) and len(resumed) == GAMES


def test_pool_workers_exit_when_their_parent_is_killed():
    script = ("import time\n"
              "from fepaper.play.pools import worker_pool\n"
              "pool = worker_pool(2)\n"
              "futures = [pool.submit(time.sleep, 600) for _ in range(2)]\n"
              "print('ready', flush=True)\n"
              "time.sleep(600)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 30
        while len(_children(proc.pid)) < 2:
            assert time.monotonic() < deadline, "the pool never started its workers"
            time.sleep(0.05)
        workers = _children(proc.pid)
    finally:
        proc.kill()
        proc.wait()
    assert _gone_within(workers, 5) == []


def test_every_process_pool_is_a_worker_pool():
    import pathlib

    import fepaper

    root = pathlib.Path(fepaper.__file__).parent
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "pools.py" and ("ProcessPoolExecutor" in p.read_text()
                                              or "multiprocessing.Pool" in p.read_text()
                                              or "mp.Pool" in p.read_text())]
    assert offenders == []
