"""Baselines: ``random`` (a random walk of steps, or uniform over distinct turns)."""

from __future__ import annotations

from .. import _core
from ..game.game import Game
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


@register
class GreedyController(Controller):
    """The best end after one turn (RULES.md's distances), walked in the compiled core.

    Among the distinct turns: a goal wins at once; then a turn that leaves the
    opponent blocked when that wins (``blocked="loss"``); then the turn whose end
    node is nearest to the goal the player attacks; a turn that ends the game in a
    draw (a blocked player under ``blocked="draw"``, the turn limit) only when no
    turn plays on; an own goal or being blocked under ``blocked="loss"`` only when
    nothing else is left. Ties are broken with the seeded rng. The walk of a huge
    position stops after ``max_states`` states and chooses among the turns seen.
    """

    name = "greedy"

    def __init__(self, max_states: int = 1_000_000, **kw) -> None:
        super().__init__(**kw)
        if isinstance(max_states, bool) or not isinstance(max_states, int) or not (
                max_states == 0 or max_states >= 1000):
            raise SpecError(f"greedy: max_states must be 0 (no cap) or >= 1000, got {max_states!r}")
        self.max_states = max_states
        self._params = {"max_states": max_states}

    def decide(self, game: Game) -> tuple[str, int]:
        from .._core.playout import choose_turns

        turns, seen, _ = choose_turns(game, 1, "nearest", seed=self.rng, max_states=self.max_states,
                                      stop_at_win=True)
        if turns:
            return turns[0][0], seen
        # the capped walk met no whole turn (a long mandatory bounce): finish one at random
        trial, played = game.copy(), len(game.history)
        while len(trial.history) == played:
            steps = trial.legal_steps()
            trial.step(steps[self.rng.integers(len(steps))])
        return trial.history[played], seen


__all__ += ["GreedyController"]
