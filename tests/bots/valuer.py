"""A position-valuing program for ``fepaper net searchvalues --program``'s tests.

usage: python valuer.py [MODE [AFTER]]

It reads a position a line (the turns from the kick-off) and answers the value
``(turns played % 5) / 5 - 0.4`` with a word after it. After AFTER answers (default 0) it
misbehaves by MODE: ``garbage`` (a line that is not a number), ``outside`` (the value 1.5),
``crash`` (exits). ``good`` never misbehaves.
"""

import sys


def value(line: str) -> float:
    return (len(line.split()) % 5) / 5 - 0.4


def main(argv):
    mode = argv[0] if argv else "good"
    after = int(argv[1]) if len(argv) > 1 else 0
    for answered, line in enumerate(sys.stdin):
        if answered >= after and mode != "good":
            if mode == "crash":
                return 1
            print("no idea" if mode == "garbage" else "1.5 too sure", flush=True)
            continue
        print(f"{value(line):.5f} because", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
