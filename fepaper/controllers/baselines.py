"""Baselines: ``random`` (a random walk of steps, or uniform over distinct turns) and ``greedy``."""

from __future__ import annotations

from ..game import Game
from ..game.walks import TooManyTurns, iter_turns
from ..search.budget import reserve
from ..search.playouts import choose_turns
from ..search.result import SearchResult
from .base import Controller, register
from .params import Choice, Float, Int, SpecError

__all__ = ["RandomController", "GreedyController"]


@register
class RandomController(Controller):
    """A random player.

    ``mode="steps"``: step uniformly among the free directions and, after a bounce
    under optional bounce, stop with probability ``stop_probability`` (the random
    player of the complexity measurements). ``mode="turns"``: uniform over the
    distinct turns (reservoir sampling over one compiled walk); a position whose walk
    passes ``max_states`` states (late positions can have tens of millions of turns)
    falls back to the random walk of steps for that decision.
    """

    name = "random"
    PARAMS = (
        Choice("mode", "steps", ("steps", "turns"), doc="a random walk of steps, or uniform over turns"),
        Float("stop_probability", 0.5, 0.0, 1.0, doc="chance of stopping on a bounce (optional bounce)"),
        Int("max_states", 200_000, 1, 10**9, shown="changed", doc="cap on the walk of mode 'turns'"),
    )

    def decide(self, game: Game) -> SearchResult:
        if self.mode == "turns":
            chosen, seen = "", 0
            try:
                for steps, _, _ in iter_turns(game.marks, game.ball_index, game.board, game.rules,
                                              max_states=self.max_states):
                    seen += 1
                    if self.rng.integers(seen) == 0:
                        chosen = steps
                extra = 1 if game.can_stop else 0
                return SearchResult(chosen, None, seen + extra)
            except TooManyTurns:
                pass  # too many turns to draw uniformly: walk at random below
        trial = game.copy()
        turns, taken = len(trial.history), 0
        while len(trial.history) == turns:
            if trial.can_stop and self.rng.random() < self.stop_probability:
                break
            steps = trial.legal_steps()
            trial.step(steps[self.rng.integers(len(steps))])
            taken += 1
        turn = trial.history[turns] if len(trial.history) > turns else trial.current
        return SearchResult(turn, None, taken)


@register
class GreedyController(Controller):
    """The best end after one turn (docs/rules.md's distances), walked in the compiled core.

    Among the distinct turns: a goal wins at once; then a turn that leaves the
    opponent blocked when that wins (``blocked="loss"``); then the turn whose end
    node is nearest to the goal the player attacks; a turn that ends the game in a
    draw (a blocked player under ``blocked="draw"``, the turn limit) only when no
    turn plays on; an own goal or being blocked under ``blocked="loss"`` only when
    nothing else is left. Ties are broken with the seeded rng. The walk of a huge
    position stops after ``max_states`` states and chooses among the turns seen.
    """

    name = "greedy"
    WARM = {}
    PARAMS = (Int("max_states", 1_000_000, 0, 10**9, doc="cap on the walk's states (0: none)"),)

    def setup(self) -> None:
        if 0 < self.max_states < 1000:
            raise SpecError(f"greedy: max_states must be 0 (no cap) or >= 1000, got {self.max_states!r}")

    def decide(self, game: Game) -> SearchResult:
        limit = None if self.time_limit is None else self.time_limit - reserve(self.time_limit)
        turns, seen, _ = choose_turns(game, 1, "nearest", seed=self.rng, max_states=self.max_states,
                                      stop_at_win=True, time_limit=limit)
        if turns:
            return SearchResult(turns[0][0], None, seen)
        # the capped walk met no whole turn (a long mandatory bounce): finish one at random
        trial, played = game.copy(), len(game.history)
        while len(trial.history) == played:
            steps = trial.legal_steps()
            trial.step(steps[self.rng.integers(len(steps))])
        return SearchResult(trial.history[played], None, seen)
