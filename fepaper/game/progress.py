"""Progress bars that show where a person is looking, and nowhere else.

Every long loop of fepaper (games of a match or a tournament, a GA's games, a count of turns, a
notebook's measurements) makes its bar with :func:`bar`, which every layer above ``game/`` may
import:

* in a terminal or a live notebook it is an ordinary ``tqdm.auto`` bar;
* when ``$FEPAPER_PROGRESS`` names a file (``fepaper reproduce`` sets it while it executes a
  notebook headless), the bar writes plain text lines to that file at most every few
  seconds, and the runner prints them in the terminal as they come. Nothing then reaches
  the notebook's outputs, so the saved report holds no bars.

Examples
--------
>>> with bar(3, "positions") as b:
...     for _ in range(3):
...         b.update(1)
>>> b.n
3
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sized

__all__ = ["PROGRESS_ENV", "bar", "track"]

#: The environment variable that sends bars to a file (set by ``fepaper reproduce``).
PROGRESS_ENV = "FEPAPER_PROGRESS"

# Seconds between two lines written to the progress file.
_FILE_INTERVAL = 5.0


def bar(total: int | None = None, desc: str = "", unit: str = "it", *, disable: bool = False,
        initial: int = 0, leave: bool = True, bar_format: str | None = None):
    """A tqdm bar: ``tqdm.auto`` normally, plain lines in ``$FEPAPER_PROGRESS`` when it is set.

    Parameters
    ----------
    total : int, optional
        Units of work in all (``None``: unknown).
    desc, unit : str
        What is counted, e.g. ``bar(40, "games", "game")``.
    disable : bool
        No bar at all (nothing is shown or counted).
    initial : int
        Units already done (a resumed run).
    leave : bool
        Whether a terminal keeps the finished bar.
    bar_format : str, optional
        tqdm's format of the bar's line, for a bar that says more than so many of so many.
    """
    path = os.environ.get(PROGRESS_ENV)
    if path and not disable:
        from tqdm import tqdm

        stream = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (closed with the bar)
        progress = tqdm(total=total, desc=desc, unit=unit, initial=initial, file=stream, ascii=True,
                        mininterval=_FILE_INTERVAL, maxinterval=_FILE_INTERVAL, ncols=100, leave=True,
                        dynamic_ncols=False, bar_format=bar_format)
        close = progress.close

        def close_stream() -> None:
            if stream.closed:  # tqdm closes again when it is garbage-collected
                return
            close()
            stream.write("\n")
            stream.close()

        progress.close = close_stream
        return progress
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=unit, initial=initial, disable=disable, leave=leave,
                bar_format=bar_format)


def track(iterable: Iterable, desc: str = "", total: int | None = None, unit: str = "it"):
    """Iterate over ``iterable`` with a :func:`bar` (``total`` from ``len`` when it has one).

    >>> list(track(range(3), "steps"))
    [0, 1, 2]
    """
    if total is None and isinstance(iterable, Sized):
        total = len(iterable)
    with bar(total, desc, unit) as progress:
        for item in iterable:
            yield item
            progress.update(1)
