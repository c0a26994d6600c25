"""Head-to-head pairings played in colour-swapped pairs, round by round, until their tests decide.

This is how engine testers settle "A is stronger than B" (Stockfish's fishtest): state the
hypotheses and error rates before playing, play pairs of games that share an opening with
colours swapped, score each pair (0, 0.5, 1, 1.5 or 2 points for A: the pentanomial
model) and stop as soon as the test decides. A :class:`Pairing` carries its tests: a
:class:`~fepaper.stats.sequential.SPRT` stops early, a :class:`FixedSample` waits
for the number of games a power calculation asked for; a pairing without tests plays its
``max_games`` (a league whose games feed Bradley-Terry ratings). "Not decided" means the
pairing reached ``max_games`` first.

:func:`play_pairings` plays every pairing of a run on one games file
(:func:`~fepaper.play.arena.run_games` with a plan): each round adds
``round_pairs`` pairs to every pairing still undecided, and a test looks at the games only
at the end of a round, in schedule order. So which games are played, and every verdict,
depend only on the settings: the same serially, in a process pool or on a dask cluster,
and after any number of kills and resumes. The sidecar binds the file to the pairings and
their tests, so the hypotheses cannot change once games are on file.

Examples
--------
>>> from fepaper.play.pools import SerialExecutor
>>> strong, weak = {"name": "greedy"}, {"name": "random"}
>>> duel = Pairing("greedy-beats-random", strong, weak, {"better": SPRT(0, 200)}, max_games=40)
>>> result = play_pairings("standard", [duel], seed=1, executor=SerialExecutor(), progress=False)
>>> result["greedy-beats-random"].verdicts["better"].verdict
'confirmed'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path

from ...play.arena import run_games, run_meta, schedule
from ...stats.fixed import score_test
from ...stats.scores import tally
from ...stats.sequential import SPRT, run_sprt
from ...stats.verdicts import Verdict

__all__ = ["SPRT", "FixedSample", "Pairing", "PairingResult", "decide", "play_pairings", "pair_scores",
           "settings_of"]


@dataclass(frozen=True)
class FixedSample:
    """A fixed number of ``games`` (a power calculation's, even), then the one-sided z-test of
    :func:`~fepaper.stats.fixed.score_test` on the pair scores: confirmed when
    H0: elo <= elo0 is rejected at ``alpha``, refuted when H1: elo >= elo1 is at ``beta``."""

    elo0: float
    elo1: float
    games: int
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        games = self.games
        if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
            raise ValueError(f"games must be an even integer >= 2 (colour-swapped pairs), got {self.games!r}")
        if not self.elo0 <= self.elo1:
            raise ValueError(f"elo0 must not exceed elo1, got elo0={self.elo0}, elo1={self.elo1}")


def settings_of(test) -> dict:
    """A test as plain data (for a sidecar, a plan or a table)."""
    if isinstance(test, SPRT):
        return {"test": "SPRT", "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
                "model": test.model}
    if isinstance(test, FixedSample):
        return {"test": "fixed", "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
                "games": test.games}
    raise TypeError(f"a pairing's test is an SPRT or a FixedSample, got {test!r}")


@dataclass(frozen=True)
class Pairing:
    """A (as ``a``) against B (``b``): at most ``max_games`` games (an even number), and the
    tests that decide on them, by name."""

    key: str
    a: dict
    b: dict
    tests: Mapping[str, SPRT | FixedSample] = field(default_factory=dict)
    max_games: int = 200

    def __post_init__(self):
        if not isinstance(self.key, str) or not self.key:
            raise ValueError(f"a pairing needs a key (a non-empty string), got {self.key!r}")
        if (isinstance(self.max_games, bool) or not isinstance(self.max_games, int) or self.max_games < 2
                or self.max_games % 2):
            raise ValueError(f"pairing {self.key}: max_games must be an even integer >= 2, "
                             f"got {self.max_games!r}")
        for name, test in self.tests.items():
            settings = settings_of(test)
            if isinstance(test, SPRT) and test.model != "pentanomial":
                raise ValueError(f"pairing {self.key}: test {name} must use the pentanomial model (pairs)")
            if settings.get("games", 0) > self.max_games:
                raise ValueError(f"pairing {self.key}: test {name} needs {settings['games']} games, "
                                 "more than "
                                 f"max_games={self.max_games}")


@dataclass
class PairingResult:
    """What a pairing played: its rows in schedule order, the pair scores of A (0..2) over the
    complete pairs, and each test's :class:`~fepaper.stats.verdicts.Verdict`."""

    pairing: Pairing
    rows: list[dict]
    pairs: list[float]
    verdicts: dict[str, Verdict]

    @property
    def games(self) -> int:
        return len(self.rows)

    @property
    def score(self) -> float:
        """A's mean score per game over the complete pairs."""
        return sum(self.pairs) / (2 * len(self.pairs)) if self.pairs else math.nan


def pair_scores(rows: Sequence[dict]) -> list[float]:
    """A's points in each complete colour-swapped pair (games 2k and 2k + 1) of ``rows``, which
    must be the games 0, 1, 2, ... of one pairing."""
    return [rows[k]["score_a"] + rows[k + 1]["score_a"] for k in range(0, len(rows) - 1, 2)]


def decide(test, pairs: Sequence[float], max_games: int) -> Verdict | None:
    """The verdict of ``test`` on the pair scores ``pairs``, or None if it needs more games and
    ``max_games`` allows them. An SPRT stops at the first pair where it decides."""
    games = 2 * len(pairs)
    if isinstance(test, SPRT):
        verdict = run_sprt(test, pairs, max_games)
        if verdict.verdict != "not decided" or games + 2 > max_games:
            return verdict
        return None
    if isinstance(test, FixedSample):
        if games < test.games:
            return None
        return score_test(tally(pairs[: test.games // 2], "pentanomial"), test.elo0, test.elo1, test.alpha,
                          test.beta)
    raise TypeError(f"a pairing's test is an SPRT or a FixedSample, got {test!r}")


def _prefix(done: Mapping, p: int) -> list[dict]:
    """The games 0, 1, 2, ... of pairing ``p`` on file, up to the first one missing."""
    rows = []
    while (p, len(rows)) in done:
        rows.append(done[(p, len(rows))])
    return rows


def _verdicts(pairing: Pairing, rows: list[dict]) -> dict[str, Verdict | None]:
    pairs = pair_scores(rows)
    return {name: decide(test, pairs, pairing.max_games) for name, test in pairing.tests.items()}


def _wants(pairing: Pairing, rows: list[dict], round_games: int) -> range:
    """The games pairing ``pairing`` plays next, having ``rows`` (its prefix) on file: the rest
    of a round cut short, else a new round while a test is undecided (or, without tests,
    until ``max_games``)."""
    played = len(rows)
    if played >= pairing.max_games:
        return range(0)
    if played % round_games:
        return range(played, min(pairing.max_games, played + round_games - played % round_games))
    if pairing.tests and all(v is not None for v in _verdicts(pairing, rows).values()):
        return range(0)
    return range(played, min(pairing.max_games, played + round_games))


def play_pairings(rules, pairings: Sequence[Pairing], seed: int = 0, out: str | Path | None = None,
                  executor: Executor | None = None, round_pairs: int = 4, opening_turns: int = 4,
                  budget: str | None = None, progress: bool = True) -> dict[str, PairingResult]:
    """Play ``pairings`` round by round on one games file until each one's tests decide.

    Parameters
    ----------
    rules : Rules, str or dict
    pairings : list of Pairing
        Keys must differ. Pairing ``p`` is the schedule's pairing ``p``.
    seed : int
        The run's seed: game ``k`` of pairing ``p`` is seeded from ``(seed, p, k)``.
    out : path, optional
        The games file (resumable; its sidecar holds every pairing and test).
    executor : Executor, optional
        Default: a pool of this machine's cores.
    round_pairs : int
        Pairs added to each undecided pairing per round; a test looks at the games only
        between rounds.
    opening_turns : int
        Turns of each pair's random opening (a seeded bank, one opening per pair).
    budget : str, optional
        Recorded in the sidecar.
    progress : bool

    Returns
    -------
    dict
        :class:`PairingResult` by pairing key. A test's verdict is "not decided" when its
        pairing reached ``max_games`` first.
    """
    if not pairings:
        raise ValueError("play_pairings needs at least one pairing")
    keys = [p.key for p in pairings]
    if len(set(keys)) != len(keys):
        raise ValueError(f"pairing keys must differ, got {keys}")
    if isinstance(round_pairs, bool) or not isinstance(round_pairs, int) or round_pairs < 1:
        raise ValueError(f"round_pairs must be a positive integer, got {round_pairs!r}")
    most = max(p.max_games for p in pairings)
    jobs = schedule(rules, [p.a for p in pairings], [p.b for p in pairings], most, seed, opening_turns)
    meta = {**run_meta(rules, [], most, seed, budget, opening_turns), "round_pairs": round_pairs,
            "pairings": [{"key": p.key, "max_games": p.max_games,
                          "tests": {name: settings_of(t) for name, t in p.tests.items()}} for p in pairings]}
    del meta["specs"]  # each game's specs are in the schedule the fingerprint covers
    round_games = 2 * round_pairs

    def plan(done):
        return [(p, k) for p, pairing in enumerate(pairings)
                for k in _wants(pairing, _prefix(done, p), round_games)]

    rows = run_games(jobs, out, executor, progress=progress, meta=meta, plan=plan)
    by_pairing: dict[int, dict] = {}
    for row in rows:
        by_pairing.setdefault(row["pairing"], {})[(row["pairing"], row["game"])] = row
    out_results = {}
    for p, pairing in enumerate(pairings):
        prefix = _prefix(by_pairing.get(p, {}), p)
        verdicts = {}
        for name, verdict in _verdicts(pairing, prefix).items():
            if verdict is None:  # only when max_games cut a round short of a fixed test's games
                raise ValueError(f"pairing {pairing.key}: test {name} could not decide within max_games")
            verdicts[name] = verdict
        out_results[pairing.key] = PairingResult(pairing, prefix, pair_scores(prefix), verdicts)
    return out_results
