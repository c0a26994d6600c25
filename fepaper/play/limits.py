"""The bounds of the numbers that size a run: checked before they size anything.

A number read from a file or an argument (a game number, a count of games, a sample) that
is allowed to size a list or an array can exhaust the machine's memory or time before any
result comes out: ``"game": 1000000000`` in a referee file once made a reader build half a
billion openings. Each bound here is far above what any of fepaper's runs uses, and is
named in the message of the error that refuses a number beyond it.
"""

from __future__ import annotations

__all__ = ["MAX_GAMES", "MAX_SAMPLE", "MAX_ORACLE_POSITIONS", "count_within"]

#: Games of one run (per pairing of a tournament; a referee's games; a game's number is below it).
#: fepaper's largest runs play 500.
MAX_GAMES = 100_000
#: Positions compared per decision (``valuefit --sample``, ``agree --limit``).
MAX_SAMPLE = 100_000
#: Solved positions of ``solve --fixture`` (each tries at most 100 seeded games; fepaper's tests use
#: 6): a million on the 2 x 2 board, which has far fewer such positions, never ended.
MAX_ORACLE_POSITIONS = 100


def count_within(value, low: int, high: int, what: str) -> int:
    """``value`` if it is an integer (not a bool) from ``low`` to ``high``.

    >>> count_within(3, 1, MAX_GAMES, "games")
    3
    >>> count_within(10**20, 1, MAX_GAMES, "games")
    Traceback (most recent call last):
    ...
    ValueError: games must be an integer from 1 to 100000, got 100000000000000000000

    Raises
    ------
    ValueError
        Naming ``what`` and the bounds.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        text = repr(value)
        raise ValueError(f"{what} must be an integer from {low} to {high}, got "
                         f"{text if len(text) <= 40 else text[:37] + '...'}")
    return value
