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
