"""The solver as leaf jobs (fepaper.experiments.complexity.jobsolve): the same value as one df-pn
search, on this process, a dask LocalCluster and an executor that loses jobs; a solve killed after
a few answers resumes from its journal to the same value, sending only what is missing; the solve
command on a pool of processes."""

import json
from concurrent.futures import Future

import pytest

from fepaper.cli import main
from fepaper.experiments.complexity.jobsolve import JournalError, job_solve, job_table_bits
from fepaper.game import Game
from fepaper.play.pools import SerialExecutor
from fepaper.search.solve import solve

BOARD = {"width": 2, "height": 6, "middle_line": True, "bounce": "optional"}  # first player wins


def test_leaf_jobs_reach_the_value_of_one_search():
    run = job_solve(BOARD, SerialExecutor(), job_nodes=100, memory_gb=1.0)
    assert run["value"] == solve(Game(BOARD), method="dfpn").value == 1 and run["winner"] == 1
    assert run["jobs"] > 1 and run["leaves"] > 1


class _Records(SerialExecutor):
    """Runs each job here and keeps the game of every job sent."""

    def __init__(self):
        self.sent = []

    def submit(self, fn, /, *args, **kwargs):
        self.sent.append(args[1])
        return super().submit(fn, *args, **kwargs)


def test_the_same_solve_sends_the_same_jobs():
    """Answers are taken in the order their jobs were sent (a set of finished futures came in the
    order of their addresses, so two runs sent other jobs)."""
    first, second = _Records(), _Records()
    job_solve(BOARD, first, job_nodes=100, memory_gb=1.0)
    job_solve(BOARD, second, job_nodes=100, memory_gb=1.0)
    assert first.sent == second.sent and len(first.sent) > 4


def test_a_killed_solve_resumes_from_its_journal_to_the_same_value(tmp_path):
    journal = tmp_path / "journal.json"
    fresh = job_solve(BOARD, SerialExecutor(), job_nodes=100, memory_gb=1.0)
    killed = job_solve(BOARD, SerialExecutor(), job_nodes=100, memory_gb=1.0, journal=journal,
                       stop_after=3)
    assert killed["stopped"] and killed["value"] is None
    kept = json.loads(journal.read_text())["answers"]  # the first wave's splits, then the three answers
    assert kept[0] == ["", None] and len(kept) > 3
    again = _Records()
    resumed = job_solve(BOARD, again, job_nodes=100, memory_gb=1.0, journal=journal)
    assert resumed["value"] == fresh["value"] and resumed["resumed"] == len(kept)
    # nothing the journal answered is sent again (the jobs in flight at the kill are)
    assert resumed["jobs"] == len(again.sent) and not set(again.sent) & {game for game, _ in kept}
    with pytest.raises(JournalError, match="not a journal of this solve"):
        job_solve(BOARD, SerialExecutor(), job_nodes=1000, journal=journal)


class _LosesJobs(SerialExecutor):
    """Every third job's worker dies (its future fails), as a killed process's would."""

    def __init__(self):
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs):
        self.calls += 1
        if self.calls % 3 == 0:
            future = Future()
            future.set_exception(RuntimeError("worker died"))
            return future
        return super().submit(fn, *args, **kwargs)


def test_a_second_solve_on_one_journal_is_refused_at_once_and_leaves_it(tmp_path):
    """Two solves writing one journal would replace each other's answers: the second is refused
    while the first holds the journal's folder lock, and the journal is left as the first wrote it."""
    from fepaper.play.filelock import FileBusyError, exclusive_folder

    journal = tmp_path / "journal.json"
    job_solve(BOARD, SerialExecutor(), job_nodes=100, memory_gb=1.0, journal=journal, stop_after=2)
    before = journal.read_bytes()
    with exclusive_folder(journal, "journal"):  # another run holding it
        with pytest.raises(FileBusyError, match="another run is updating"):
            job_solve(BOARD, SerialExecutor(), job_nodes=100, memory_gb=1.0, journal=journal)
    assert journal.read_bytes() == before
    assert job_solve(BOARD, SerialExecutor(), job_nodes=100, memory_gb=1.0, journal=journal)["value"] == 1


def test_a_job_lost_with_its_worker_runs_again():
    run = job_solve(BOARD, _LosesJobs(), job_nodes=100, memory_gb=1.0)
    assert run["value"] == 1


def test_on_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        run = job_solve({"width": 2, "height": 6, "middle_line": False, "bounce": "mandatory"},
                        client.get_executor(), job_nodes=100, memory_gb=1.0)
    assert run["value"] == -1 and run["winner"] == 2


def test_rules_with_draws_are_refused():
    with pytest.raises(ValueError, match="rules with draws"):
        job_solve(dict(BOARD, blocked="draw"), SerialExecutor())


def test_the_first_wave_gives_every_job_in_flight_a_leaf():
    journal_free = job_solve(BOARD, SerialExecutor(), job_nodes=100_000, memory_gb=1.0, in_flight=4)
    assert journal_free["value"] == 1 and 2 <= journal_free["jobs"] and journal_free["leaves"] > 4


def test_a_job_table_is_sized_by_its_nodes():
    assert job_table_bits(100) == 8 and job_table_bits(20_000) == 16 and job_table_bits(10**9) == 24


def test_the_solve_command_on_leaf_jobs_resumes_from_its_journal(tmp_path, capsys):
    journal = tmp_path / "journal.json"
    args = ["solve", "--rules", json.dumps(BOARD), "--method", "dfpn", "--leaf-jobs", "--workers", "2",
            "--job-nodes", "100", "--journal", str(journal), "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["value"] == 1 and first["winner"] == 1 and journal.exists()
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["value"] == 1 and again["jobs"] == 0 and again["resumed"] > 0
    assert main(["solve", "--rules", json.dumps(BOARD), "--leaf-jobs"]) == 2
    assert "give --method dfpn" in capsys.readouterr().err
    assert main(["solve", "--rules", json.dumps(BOARD), "--method", "dfpn", "--journal", str(journal)]) == 2
    assert "give --leaf-jobs" in capsys.readouterr().err
