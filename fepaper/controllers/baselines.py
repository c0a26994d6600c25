"""Baselines: ``random`` (a random walk of steps, or uniform over distinct turns)."""

from __future__ import annotations

from .. import _core
from ..game import Game
from .base import Controller, SpecError, register

__all__ = ["RandomController"]


@register
class RandomController(Controller):
    """A random player.

    ``mode="steps"``: step uniformly among the free directions and, after a bounce
    under optional bounce, stop with probability ``stop_probability`` (the random
    player of the complexity measurements). ``mode="turns"``: uniform over the
    distinct turns (reservoir sampling over the compiled walk); a position whose walk
    passes ``max_states`` states (late positions can have tens of millions of turns)
    falls back to the random walk of steps for that decision.
    """

    name = "random"

    def __init__(self, mode: str = "steps", stop_probability: float = 0.5, max_states: int = 200_000,
                 **kw) -> None:
        super().__init__(**kw)
        if mode not in ("steps", "turns"):
            raise SpecError(f"random: mode must be 'steps' or 'turns', got {mode!r}")
        if not 0 <= stop_probability <= 1:
            raise SpecError(f"random: stop_probability must be in [0, 1], got {stop_probability!r}")
        if not isinstance(max_states, int) or max_states < 1:
            raise SpecError(f"random: max_states must be a positive integer, got {max_states!r}")
        self.mode, self.stop_probability, self.max_states = mode, stop_probability, max_states
        self._params = {"mode": mode, "stop_probability": stop_probability}
        if max_states != 200_000:
            self._params["max_states"] = max_states

    def decide(self, game: Game) -> tuple[str, int]:
        if self.mode == "turns":
            b = game.board
            if game.turns().count(limit=self.max_states) >= 0:
                chosen, seen = "", 0
                for steps, _, _ in _core.iter_turns(game.marks, game.ball_index, *b.walk_arrays,
                                                    game.rules.bounce == "optional"):
                    seen += 1
                    if self.rng.integers(seen) == 0:
                        chosen = steps
                return chosen, seen
        trial = game.copy()
        turns, taken = len(trial.history), 0
        while len(trial.history) == turns:
            if trial.can_stop and self.rng.random() < self.stop_probability:
                break
            steps = trial.legal_steps()
            trial.step(steps[self.rng.integers(len(steps))])
            taken += 1
        return (trial.history[turns] if len(trial.history) > turns else trial.current), taken
