"""Where a run plays its games: this process, a process pool, or a dask cluster by its scheduler's
address (fepaper.play.pools.executor), and how the notebooks and `fepaper reproduce` choose it."""

import pytest

from fepaper.cli import main
from fepaper.notebook import budget
from fepaper.play.arena import match
from fepaper.play.pools import SerialExecutor, executor


def test_one_worker_plays_in_this_process_and_bad_counts_are_refused():
    with executor(1) as run:
        assert isinstance(run, SerialExecutor)
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="positive integer"), executor(bad):
            pass


def test_a_scheduler_address_plays_the_same_games_on_its_cluster():
    distributed = pytest.importorskip("distributed")
    strip = lambda rows: [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in rows]  # noqa: E731
    with executor(1) as run:
        here = match("standard", {"name": "greedy"}, {"name": "random"}, games=4, seed=3, executor=run,
                     progress=False)["rows"]
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            executor(4, scheduler=cluster.scheduler_address) as run:
        there = match("standard", {"name": "greedy"}, {"name": "random"}, games=4, seed=3, executor=run,
                      progress=False)["rows"]
    assert strip(here) == strip(there)


def test_notebooks_read_workers_and_scheduler_from_the_environment(monkeypatch):
    monkeypatch.delenv(budget.WORKERS_ENV, raising=False)
    monkeypatch.delenv(budget.SCHEDULER_ENV, raising=False)
    assert budget.workers(3) == 3 and budget.scheduler() is None
    monkeypatch.setenv(budget.WORKERS_ENV, "2")
    monkeypatch.setenv(budget.SCHEDULER_ENV, "tcp://10.0.0.1:8786")
    assert budget.workers(3) == 2 and budget.scheduler() == "tcp://10.0.0.1:8786"
    monkeypatch.setenv(budget.WORKERS_ENV, "two")
    with pytest.raises(ValueError, match="FEPAPER_WORKERS must be a positive integer"):
        budget.workers(3)


def test_reproduce_hands_workers_and_scheduler_to_the_notebooks(monkeypatch):
    import fepaper.notebook.runner as runner

    seen = {}
    monkeypatch.setattr(runner, "run_notebooks", lambda *a, **k: seen.update(
        workers=budget.workers(0), scheduler=budget.scheduler()) or 0)
    for name in (budget.WORKERS_ENV, budget.SCHEDULER_ENV):  # set first, so that the test's end unsets it
        monkeypatch.setenv(name, "1")
        monkeypatch.delenv(name)
    assert main(["reproduce", "--workers", "3", "--scheduler", "tcp://h:8786", "notebooks/01_rules_and_board.ipynb"]) == 0
    assert seen == {"workers": 3, "scheduler": "tcp://h:8786"}
