"""The genetic-programming controller decided, not asserted: its duels, declared before their games.

Three claims (:data:`CLAIMS`), each the hypothesis ``better`` of the thesis's claims
(:data:`~fepaper.experiments.thesis.claims.HYPOTHESES`: H0 elo <= 0, H1 elo >= 70, logistic Elo of
the evolved controller over its opponent) decided by Wald's sequential test on colour-swapped pairs
of games from seeded random openings (:class:`~fepaper.experiments.thesis.duels.SPRT`, pentanomial,
alpha = beta = 0.05), under the thesis's rules, each pairing stopped at its budget's ``max_games``
(then *not decided*):

``gp-beats-distance``
    the best evolved evaluation in the thesis's dynamic alpha-beta at level 2 against the same
    search with the hand-written distance: the thesis's best controller (§4.1.3), so this one duel
    answers both "against the distance at the same search" and "against the thesis's best";
``gp-beats-distance-turns``
    the same tree at the leaves of the complete-turn search (depth 2) against that search with its
    own distance evaluation (the tree transplanted to a search it did not evolve in);
``gp-beats-best-colony``
    the evolved controller against the thesis's best colony by its own account (§4.2: "the last
    version was quite better than the previous versions"): FerDistRival updated once per cycle, as
    the GA tuned it (notebook 03's ``03_aco_tuned.json``).

The *best evolved evaluation* is fixed before any duel (:func:`best_tree`): the first of the hall of
fame of the paired-setting run (its fitness compares candidates on common openings, the thesis
setting's on two games); the duels' games are seeded apart from every evolution game, so the
winner's curse of its fitness does not carry into them.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...controllers import spec_of
from ..thesis.claims import HYPOTHESES, Claim, verdict_row
from ..thesis.duels import SPRT, Pairing, PairingResult
from ..thesis.tuning import THESIS_OPPONENT
from .evolution import individual_spec

__all__ = ["CLAIMS", "TESTS", "BEST_COLONY", "MAX_GAMES", "OPENING_TURNS", "best_tree", "pairings",
           "claims_rows", "hypotheses_rows"]

_WHERE = "13_genetic_programming"
_QUOTE = ("a genetic programming controller was begun, but it cannot be finished. In future work it will be "
          "ended")
#: The claims, in the order of their pairings.
CLAIMS = (
    Claim("gp-beats-distance", "§6, §4.1", _QUOTE,
          "the evolved evaluation beats the hand-written distance in the thesis's dynamic alpha-beta "
          "(level 2), the thesis's best controller", _WHERE),
    Claim("gp-beats-distance-turns", "§6, §4.1", _QUOTE,
          "the evolved evaluation beats the distance at the leaves of the complete-turn search (depth 2)",
          _WHERE),
    Claim("gp-beats-best-colony", "§6, §4.2", _QUOTE,
          "the evolved controller beats the thesis's best colony (FerDistRival once per cycle, tuned)",
          _WHERE),
)
#: Every claim's test, declared before its games: ``better``, by an SPRT on pairs.
TESTS = {c.key: SPRT(HYPOTHESES["better"].elo0, HYPOTHESES["better"].elo1) for c in CLAIMS}
#: The key of the best colony in notebook 03's tuned specs.
BEST_COLONY = "ferdistrival, once per cycle"
#: The turn search's depth in ``gp-beats-distance-turns``.
TURN_DEPTH = 2
#: Games at most per duel, by budget (a duel still undecided there is *not decided*).
MAX_GAMES = {"smoke": 2, "quick": 60, "paper": 400, "full": 1000}
#: Turns of each pair's random opening.
OPENING_TURNS = 4


def best_tree(paired_run: Mapping) -> str:
    """The best evolved evaluation: the first of the hall of fame of the paired-setting run (its
    result as :meth:`~fepaper.experiments.gp.evolution.EvolutionResult.to_dict` writes it)."""
    if paired_run.get("config", {}).get("setting") != "paired":
        raise ValueError("the best evolved evaluation is the paired-setting run's; got a run of setting "
                         f"{paired_run.get('config', {}).get('setting')!r}")
    return paired_run["hall_of_fame"][0]["tree"]


def pairings(tree: str, colony: dict, max_games: int) -> list[Pairing]:
    """The three duels of :data:`CLAIMS` for the evolved ``tree`` (the evolved controller is A)."""
    evolved = individual_spec(tree, THESIS_OPPONENT)
    turns = spec_of({"name": "gp", "tree": tree, "search": "turnsearch", "depth": TURN_DEPTH})
    opponents = {"gp-beats-distance": (evolved, spec_of(THESIS_OPPONENT)),
                 "gp-beats-distance-turns": (turns, spec_of({"name": "turnsearch", "depth": TURN_DEPTH})),
                 "gp-beats-best-colony": (evolved, spec_of(colony))}
    return [Pairing(c.key, *opponents[c.key], {"better": TESTS[c.key]}, max_games=max_games) for c in CLAIMS]


def hypotheses_rows(max_games: int) -> list[dict]:
    """The declared tests, one row a claim, for the table written before any game."""
    return [{"key": c.key, "section": c.section, "thesis": c.thesis,
             "hypothesis": HYPOTHESES["better"].text, "test": "SPRT on colour-swapped pairs (pentanomial)",
             "alpha": TESTS[c.key].alpha, "beta": TESTS[c.key].beta, "max_games": max_games} for c in CLAIMS]


def claims_rows(results: Mapping[str, PairingResult], rules: str = "thesis") -> list[dict]:
    """The claims-style rows (verdict, estimate and interval in Elo, games) of the played duels."""
    return [verdict_row(c, rules, results[c.key].verdicts["better"], HYPOTHESES["better"]) for c in CLAIMS]
