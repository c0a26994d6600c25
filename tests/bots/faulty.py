"""A CodinGame-protocol bot that misbehaves on purpose, for the referee's tests.

usage: python faulty.py MODE [AFTER] [--opening RECORD]

It plays legal turns (the first distinct turn of each position) for its first AFTER
decisions (default 1), then by MODE: ``illegal`` (a turn along a marked edge), ``garbage``
(a line that is not a turn), ``silence`` (reads on, answers nothing), ``crash`` (exits),
``overrun`` (sleeps SLEEP seconds, default 0.15, before each legal answer), ``chatty``
(writes its turn twice). ``legal`` never misbehaves.
"""

import os
import sys
import time

from fepaper.game.game import Game


def main(argv):
    mode = argv[0]
    after = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 1
    opening = argv[argv.index("--opening") + 1] if "--opening" in argv else ""
    sleep = float(argv[argv.index("--sleep") + 1]) if "--sleep" in argv else 0.15
    game = Game("codingame", opening)
    next(iter(Game("codingame").turns()))  # compiled code loaded before the id, as fepaper bot warms up: not on the clock
    me = 1 if sys.stdin.readline().strip() == "0" else 2
    decisions = 0
    while True:
        count = sys.stdin.readline()
        turn = sys.stdin.readline().strip()
        if not count:
            return 0
        if turn != "-":
            game.push(turn)
        if game.is_over or game.player != me:
            return 0
        decisions += 1
        if mode == "crash" and decisions > after:
            os._exit(3)  # at once: an interpreter's normal exit can outlast a 100 ms budget
        mine = str(next(iter(game.turns())))
        if decisions > after:
            if mode == "illegal":
                mine = mine + mine  # goes on after the turn ended, or along its own edges
            elif mode == "garbage":
                mine = "hello"
            elif mode == "silence":
                time.sleep(3600)
        if mode == "overrun":
            time.sleep(sleep)
        print(mine, flush=True)
        if mode == "chatty" and decisions > after:
            print(mine, flush=True)
        game.push(mine)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
