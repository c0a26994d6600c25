"""From a GA run to a tuned spec: the hall of fame played again on fresh games.

A GA's best-ever individual is the luckiest of many noisy evaluations (the winner's curse:
an individual that scored well on its 20 games by chance keeps that fitness forever). So a
spec is called *tuned* only after :func:`confirm` has played each member of the run's hall
of fame, and any other candidates (the thesis's own parameters), on new games against the
run's opponent, seeded apart from the run's: the tuned spec is the candidate with the best
fitness on those games, by the GA's own measure
(:func:`~fepaper.experiments.thesis.fitness.fitness_of`). The games append to a games file as
they finish, so a killed confirmation resumes.

Examples
--------
>>> from fepaper.play.pools import SerialExecutor
>>> from fepaper.experiments.thesis.tuning import tune
>>> run = tune({"name": "aco", "variant": "base"}, generations=1, games=2, rules="standard", seed=1,
...            population=4, offspring=2, bounds={"n_ants": (2, 4), "iterations": (1, 2)},
...            opponent={"name": "random"}, executor=SerialExecutor(), progress=False, hof_size=2)
>>> found = confirm(run, games=4, seed=9, executor=SerialExecutor())
>>> [c["source"] for c in found["candidates"]], found["tuned_spec"] == found["candidates"][0]["spec"]
(['hall of fame 1', 'hall of fame 2'], True)
"""

from __future__ import annotations

from concurrent.futures import Executor
from pathlib import Path

from ...controllers import spec_of
from ...play.arena import run_games, run_meta, schedule
from .fitness import fitness_of
from .tuning import TuningResult

__all__ = ["confirm"]


def confirm(result: TuningResult, games: int, seed: int, out: str | Path | None = None,
            executor: Executor | None = None, extra: dict[str, dict] | None = None,
            progress: bool = False, budget: str | None = None) -> dict:
    """Play the hall of fame of ``result`` (and ``extra`` candidates, by label) ``games`` games
    each against the run's opponent, and pick the tuned spec.

    Games are played as the GA plays them (colours alternating, no opening), seeded from
    ``(seed, candidate, game)``: choose a seed the run did not use.

    Returns
    -------
    dict
        ``tuned_spec``; ``candidates``, best first: ``source``, ``spec``, ``ga_fitness`` and
        ``ga_score`` (the run's own, NaN for extra candidates), ``fitness``, ``score`` and
        ``games`` on the fresh games; ``games`` and ``seed``.
    """
    config = result.config
    candidates = [(f"hall of fame {k + 1}", h["spec"], h["fitness"], h["score"])
                  for k, h in enumerate(result.hall_of_fame)]
    seen = {repr(spec_of(c[1])): k for k, c in enumerate(candidates)}
    for label, spec in (extra or {}).items():
        key = repr(spec_of(spec))
        if key in seen:  # a candidate the hall already holds is played once, under both names
            k = seen[key]
            candidates[k] = (f"{candidates[k][0]} ({label})",) + candidates[k][1:]
        else:
            seen[key] = len(candidates)
            candidates.append((label, spec, float("nan"), float("nan")))
    specs = [c[1] for c in candidates]
    opponent = config["opponent"]
    jobs = schedule(config["rules"], specs, [opponent] * len(specs), games, seed, opening_turns=0)
    meta = {**run_meta(config["rules"], specs + [opponent], games, seed, budget, 0), "confirms": config}
    rows = run_games(jobs, out, executor, progress=progress, meta=meta)
    results: list[list] = [[] for _ in specs]
    for r in rows:
        results[r["pairing"]].append((r["score_a"], r["turns"]))
    found = []
    for (source, spec, ga_fitness, ga_score), games_of in zip(candidates, results):
        fitness, score = fitness_of(games_of, config["tie_break"])
        found.append({"source": source, "spec": spec_of(spec), "ga_fitness": ga_fitness, "ga_score": ga_score,
                      "fitness": fitness, "score": score, "games": len(games_of)})
    found.sort(key=lambda c: -c["fitness"])
    return {"tuned_spec": found[0]["spec"], "candidates": found, "games": games, "seed": seed}
