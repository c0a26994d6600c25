"""Searches keep their memory bound on the heaviest positions known (docs/reliability.md).

Each search runs in a subprocess whose address space is capped with ``resource.setrlimit``
(RLIMIT_AS, 2 GiB: an unbounded listing of one of these positions, more than 10**8 turns,
would need tens of GiB) with a time limit, and must answer a legal turn. Before the time and
memory discipline the turn search ran 9.6 s for a 1 s budget on the second position and died of
memory on the first. How close each search keeps its clock on these same positions is measured,
not asserted: ``fepaper bench clock`` (``TRACKER_POSITIONS``).
"""

import json
import subprocess
import sys
import time

import pytest

from fepaper.game import Game

#: The tracker's two heavy positions (standard-rules records, legal under the CodinGame rules too).
HEAVY = (
    "5 6 0 7 61 1 3 6 4 2 532 2 0 3 2 7 5771 60 2 43 0 61 3 63 1 63 07 0 14 57 5312 4167545",
    "2 0 3 1 7 0 5 5 31 654 3 3 0 0 3 55 5 7 2 7 447 6 1 1 2 57 46 43177 27",
)
CAP_BYTES = 2 << 30
BUDGET = 1.0

SCRIPT = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
from fepaper.game import Game
from fepaper.search.turnsearch import search_turns
from fepaper.search.bestfirst import bestfirst_search
rules, record, engine, budget = json.loads(sys.argv[1])
game = Game(rules, record)
search = {{"turnsearch": lambda: search_turns(game, 32, time_limit=budget),
          "bestfirst": lambda: bestfirst_search(game, time_limit=budget)}}[engine]
result = search()
print(json.dumps({{"turn": result.turn}}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["turnsearch", "bestfirst"])
@pytest.mark.parametrize("rules", ["codingame", "standard"])
@pytest.mark.parametrize("record", HEAVY, ids=["first", "second"])
def test_a_search_of_a_heavy_position_keeps_its_memory_bound(engine, rules, record):
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(cap=CAP_BYTES),
                           json.dumps([rules, record, engine, BUDGET])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["turn"] in Game(rules, record).turns()


# -- work bounded by what it asks for -----------------------------------------------------------------
def test_an_mcts_tree_stops_at_its_memory_cap(monkeypatch):
    """``iterations`` 10**9 grew the tree to 3.0 GB in 40 s: at MAX_TREE_BYTES it stops, saying so."""
    from fepaper._core import mcts as kernel
    from fepaper.search import mcts

    mcts.mcts_search(Game("standard"), 8, seed=0)  # loaded: the warm-up's trees are not this search's
    first = sum(a.nbytes for a in kernel.new_tree(1, 1 << 14, 1 << 18))  # what a search starts with
    monkeypatch.setattr(mcts, "MAX_TREE_BYTES", 2 * first)  # room for one growth, not two
    result = mcts.mcts_search(Game("standard"), 10**9, seed=1)
    assert result.details["stopped"] == "memory" and result.details["iterations"] < 10**6
    assert result.turn in {t.steps for t in Game("standard").turns()}
    assert mcts.mcts_search(Game("standard"), 50, seed=1).details["stopped"] is None


def test_oracle_positions_are_bounded_before_any_game():
    from fepaper.cli import main
    from fepaper.experiments.complexity.solved import oracle_positions

    for count in (0, 101, 10**6, True, 2.0):
        with pytest.raises(ValueError, match="count must be an integer from 1 to 100"):
            oracle_positions("standard", count)
    with pytest.raises(SystemExit):
        main(["solve", "--rules", "standard", "--fixture", "unused.json", "--positions", "1000000"])


def test_a_search_clock_starts_after_its_kernels_are_loaded(monkeypatch):
    """The first decisions of a process loaded kernels on the clock: 45 ms, then 12.6 ms, of 2 ms."""
    from fepaper.search import bestfirst, budget, mcts

    rules = Game("codingame").rules
    loads = []
    monkeypatch.setattr(budget, "_WARMED", set())
    real = budget.warm_once

    def slow_warm(key, warm):
        if key not in budget._WARMED:
            loads.append(key[0])
            time.sleep(0.3)  # a load that would pass the budget many times over on the clock
        real(key, warm)

    monkeypatch.setattr(bestfirst, "warm_once", slow_warm)
    monkeypatch.setattr(mcts, "warm_once", slow_warm)
    game = Game(rules, HEAVY[1])
    for _ in range(2):
        assert bestfirst.bestfirst_search(game, time_limit=0.002).seconds < 0.15  # slack for a loaded machine
        assert mcts.mcts_search(game, None, time_limit=0.005, seed=0).seconds < 0.15
    assert loads == ["bestfirst", "mcts"]  # once each, before the first clock
