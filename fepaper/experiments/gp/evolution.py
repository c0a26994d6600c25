"""Evaluations evolved by genetic programming (the thesis's §6), the DEAP way.

A population of evaluation trees (:mod:`fepaper.search.programs`) evolves in the thesis's
steady-state loop (:func:`fepaper.experiments.thesis.tuning.steady_state`: a population of 16,
8 offspring replacing the 8 worst each generation, tournament selection); each individual is the
controller ``{"name": "gp", "tree": ..., "search": "alphabeta", "depth": 2, ...}`` (the thesis's
dynamic alpha-beta with the tree at its leaves). DEAP's GP operators: ramped half-and-half trees
(:data:`INIT_HEIGHTS`), one-point crossover, uniform subtree mutation, and ``staticLimit`` on the
height of every child (:data:`MAX_HEIGHT`) against bloat. New leaves are drawn from every feature but
the two A* distances (:data:`~fepaper.search.programs.EVOLVED_FEATURES`: an A* search at every leaf
makes a decision of a million steps take seconds). The first individual is the thesis's own
evaluation, the tree ``attack``.

Fitness is the mean result against the thesis's evaluator (dynamic alpha-beta level 2,
:data:`~fepaper.experiments.thesis.tuning.THESIS_OPPONENT`), in one of two :data:`SETTINGS`:

``thesis``
    20 games from the kick-off, colours alternating: the thesis's GA (§4.3, "running 20 games and
    do the average"). Both players are deterministic, so the 20 games are two games played ten
    times each: the fitness has no noise, and the information of two games.
``paired``
    20 openings of 2 random turns, each played with both colours (40 games), one bank of openings
    per generation shared by every individual evaluated in it (common openings: candidates are
    compared on the same games), so the noise is that of the openings drawn, measured by
    :func:`fitness_noise` against the spread it selects on.

A run writes a sealed checkpoint after every generation (its population, hall of fame, logbook and
the GA's random state) and resumes from it, ending where an uninterrupted run ends; games run as
plain-data tasks on any executor (a process pool of every core by default, or dask's).
"""

from __future__ import annotations

import copy
import json
import math
import operator
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from deap import base, creator, gp, tools

from ...controllers import make
from ...game import Rules
from ...play.arena import opening_bank
from ...play.pools import SerialExecutor, worker_pool
from ...search.programs import DISTANCE, EVOLUTION_PSET, EVOLVED_FEATURES, TreeError, parse_tree
from ..thesis.checkpoints import (
    LOGBOOK_KEYS,
    CheckpointError,
    check_logbook,
    check_random_state,
    check_seal,
    is_number,
    parse,
    write_json_atomic,
)
from ..thesis.fitness import evaluate_genomes
from ..thesis.tuning import (
    NOISE_GENERATION,
    THESIS_OPPONENT,
    TuningResult,
    _check_settings,
    _GameCount,
    _Random,
    _stats,
    noise_summary,
    resume,
    steady_state,
)
from ..thesis.tuning import (
    _individual as _tuning_individual,
)

__all__ = ["SETTINGS", "MAX_HEIGHT", "INIT_HEIGHTS", "EVOLUTION_FORMAT", "EvolutionResult", "individual_spec",
           "build_toolbox", "evolve", "read_evolution_checkpoint", "fitness_noise"]

if not hasattr(creator, "ProgramFitness"):
    creator.create("ProgramFitness", base.Fitness, weights=(1.0,))
if not hasattr(creator, "ProgramIndividual"):
    creator.create("ProgramIndividual", gp.PrimitiveTree, fitness=creator.ProgramFitness, score=None)

#: The two fitness settings: games per evaluation and whether they start from common openings.
SETTINGS: dict[str, dict[str, Any]] = {"thesis": {"games": 20, "openings": False},
                                       "paired": {"games": 40, "openings": True}}
#: Koza's height limit is 17; a tree a reader can read in a notebook is much smaller.
MAX_HEIGHT = 6
#: The heights of the trees drawn for the first generation and for a mutation's new subtree.
INIT_HEIGHTS = (1, 3)
#: Turns of each random opening of the paired setting.
OPENING_TURNS = 2
EVOLUTION_FORMAT = "fepaper-gp-checkpoint"
EVOLUTION_VERSION = 1


def individual_spec(tree, opponent: dict | None = None) -> dict[str, Any]:
    """The controller spec of an individual: the opponent's search (the thesis's dynamic alpha-beta,
    its level, bounce limit and node cap) with ``tree`` at its leaves."""
    opponent = THESIS_OPPONENT if opponent is None else opponent
    return make({"name": "gp", "tree": str(tree), "search": "alphabeta", "depth": opponent["depth"],
                 "max_bounces": opponent.get("max_bounces", 15),
                 **({"max_nodes": opponent["max_nodes"]} if opponent.get("max_nodes") else {})}).spec


@dataclass
class EvolutionResult(TuningResult):
    """What an evolution found, as a :class:`~fepaper.experiments.thesis.tuning.TuningResult`: the
    best tree ever seen (``best_tree``, the hall of fame's first) and its spec; the logbook's rows
    have besides ``height`` and ``size`` (the population's mean tree height and node count); the
    hall of fame and the final population are ``{"tree", "fitness", "score"}``."""

    best_tree: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"best_tree": self.best_tree, **super().to_dict()}


def _individual(tree, fitness: float | None = None, score: float | None = None):
    return _tuning_individual(tree, fitness, score, creator.ProgramIndividual)


def _as_row(ind) -> dict[str, Any]:
    return {"tree": str(ind), "fitness": ind.fitness.values[0], "score": ind.score}


def build_toolbox(evaluate, tournsize: int = 3, max_height: int = MAX_HEIGHT) -> base.Toolbox:
    """DEAP's GP toolbox: ``individual`` (ramped half and half, :data:`INIT_HEIGHTS`), ``mate``
    (one-point crossover) and ``mutate`` (a subtree replaced by a new full tree), both under
    ``gp.staticLimit`` on the height (a child taller than ``max_height`` is its parent again), new
    leaves drawn from :data:`~fepaper.search.programs.EVOLUTION_PSET` (no A* distance),
    ``select`` (tournament), ``snap`` (nothing to round), ``clone`` and ``evaluate``."""
    toolbox = base.Toolbox()
    low, high = INIT_HEIGHTS
    toolbox.register("expr", gp.genHalfAndHalf, pset=EVOLUTION_PSET, min_=low, max_=high)
    toolbox.register("individual", lambda: _individual(toolbox.expr()))
    toolbox.register("mate", gp.cxOnePoint)
    toolbox.register("expr_mut", gp.genFull, min_=0, max_=2)
    toolbox.register("mutate", lambda ind: gp.mutUniform(ind, expr=toolbox.expr_mut,
                                                         pset=EVOLUTION_PSET))
    limit = gp.staticLimit(key=operator.attrgetter("height"), max_value=max_height)
    toolbox.decorate("mate", limit)
    toolbox.decorate("mutate", limit)
    toolbox.register("select", tools.selTournament, tournsize=tournsize)
    toolbox.register("snap", lambda ind: None)
    toolbox.register("clone", copy.deepcopy)
    toolbox.register("evaluate", evaluate)
    return toolbox


def _openings(rules, setting: dict, games: int, seed: int, generation: int) -> list[str] | None:
    """The openings of a generation's games (None: the kick-off): one bank per generation."""
    if not setting["openings"]:
        return None
    bank_seed = int(np.random.SeedSequence([seed, generation, 13]).generate_state(1)[0])
    return opening_bank(rules, (games + 1) // 2, OPENING_TURNS, seed=bank_seed)


def read_evolution_checkpoint(path: Path) -> dict[str, Any]:
    """Load and check an evolution's checkpoint before anything of it is used.

    Raises
    ------
    CheckpointError
        For a file that is not strict JSON, not sealed by this version, whose checksum does not
        match, or with a field missing or malformed (a tree that does not parse among them).
    """
    where = f"checkpoint {path}"
    data = parse(path)
    check_seal(data, where, EVOLUTION_FORMAT, EVOLUTION_VERSION)
    keys = {"format", "version", "checksum", "config", "generation", "population", "halloffame", "logbook",
            "random_state"}
    missing = sorted(keys - set(data))
    if missing:
        raise CheckpointError(f"{where}: missing key(s) {missing}")
    config, gen = data["config"], data["generation"]
    if not isinstance(config, dict) or not is_number(config.get("tie_break")):
        raise CheckpointError(f"{where}: config must be an object with a tie_break")
    if isinstance(gen, bool) or not isinstance(gen, int) or gen < 0:
        raise CheckpointError(f"{where}: generation must be a non-negative integer, got {gen!r}")
    tie_break = config["tie_break"]
    for name in ("population", "halloffame"):
        rows = data[name]
        if not isinstance(rows, list) or not rows:
            raise CheckpointError(f"{where}: {name} must be a non-empty list")
        for i, row in enumerate(rows):
            if not isinstance(row, dict) or set(row) != {"tree", "fitness", "score"}:
                raise CheckpointError(f"{where}: {name}[{i}] must be an object with keys tree, fitness, "
                                      "score")
            try:
                parse_tree(row["tree"])
            except TreeError as exc:
                raise CheckpointError(f"{where}: {name}[{i}]: {exc}") from None
            if not (is_number(row["score"]) and 0 <= row["score"] <= 1 and is_number(row["fitness"])
                    and abs(row["fitness"] - row["score"]) <= tie_break + 1e-9):
                raise CheckpointError(f"{where}: {name}[{i}] holds a score or fitness no run writes: {row}")
    if len(data["population"]) != config.get("population"):
        raise CheckpointError(f"{where}: population has {len(data['population'])} individuals, config says "
                              f"{config.get('population')!r}")
    check_logbook(where, [{k: r.get(k) for k in LOGBOOK_KEYS} if isinstance(r, dict) else r
                          for r in data["logbook"]] if isinstance(data["logbook"], list) else data["logbook"],
                  gen, len(data["population"]), tie_break)
    check_random_state(where, data["random_state"])
    return data


def evolve(setting: str = "thesis", generations: int = 10, rules="thesis", seed: int = 0,
           executor: Executor | None = None, checkpoint: str | Path | None = None, progress: bool = True,
           population: int = 16, offspring: int = 8, games: int | None = None,
           opponent: dict | None = None, tie_break: float = 0.01, cxpb: float = 0.5, mutpb: float = 0.5,
           tournsize: int = 3, max_height: int = MAX_HEIGHT, hof_size: int = 5,
           workers: int | None = None) -> EvolutionResult:
    """Evolve evaluation trees with the thesis's steady-state GA.

    Parameters
    ----------
    setting : {"thesis", "paired"}
        The fitness (:data:`SETTINGS`): 20 games from the kick-off, or 40 from common openings.
    generations : int
        Generations after the first (generation 0 evaluates the whole population).
    rules : Rules, str or dict
    seed : int
        Seeds the GA's draws, the openings and every game.
    executor : Executor, optional
        Where games run; default a process pool of ``workers`` processes (every core), created and
        shut down here.
    checkpoint : path, optional
        A checkpoint written after every generation; if it exists the run resumes from it (it must
        be of the same run: same settings and seed).
    progress : bool
        One bar: generations, and the games of the one being played, with the best fitness.
    population, offspring : int
        16 and 8 in the thesis.
    games : int, optional
        Games per evaluation (default: the setting's).
    opponent : dict, optional
        The opponent's spec (default: the thesis's dynamic alpha-beta at level 2); the individuals
        search as it does.
    tie_break, cxpb, mutpb, tournsize, hof_size
        As for :func:`fepaper.experiments.thesis.tuning.tune`.
    max_height : int
        The bloat limit: a child taller than this is its parent again (``gp.staticLimit``).

    Returns
    -------
    EvolutionResult

    Raises
    ------
    ValueError
        For settings out of range; :class:`CheckpointError` for a corrupt checkpoint or one of
        another run.
    """
    from ...game.progress import bar

    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {sorted(SETTINGS)}, got {setting!r}")
    chosen = SETTINGS[setting]
    games = chosen["games"] if games is None else games
    _check_settings(generations=generations, games=games, population=population, offspring=offspring,
           tournsize=tournsize, hof_size=hof_size, max_height=max_height)
    opponent_spec = make(opponent if opponent is not None else THESIS_OPPONENT).spec
    rules_dict = Rules.from_spec(rules).to_dict()
    config = json.loads(json.dumps({
        "setting": setting, "openings": chosen["openings"], "opening_turns": OPENING_TURNS,
        "features": list(EVOLVED_FEATURES),
        "individual": individual_spec(DISTANCE, opponent_spec), "opponent": opponent_spec, "games": games,
        "rules": rules_dict, "seed": seed, "population": population, "offspring": offspring,
        "tie_break": tie_break, "cxpb": cxpb, "mutpb": mutpb, "tournsize": tournsize,
        "max_height": max_height, "hof_size": hof_size}))

    rng = _Random(seed)
    hof = tools.HallOfFame(hof_size, similar=lambda a, b: str(a) == str(b))
    logbook = tools.Logbook()
    logbook.header = [*LOGBOOK_KEYS, "height", "size"]
    path = Path(checkpoint) if checkpoint is not None else None
    pop, start_gen = resume(path, read_evolution_checkpoint, config,
                            lambda r: _individual(parse_tree(r["tree"]), r["fitness"], r["score"]),
                            hof, logbook, rng, generations)

    own_pool = executor is None and start_gen <= generations
    if own_pool:
        executor = SerialExecutor() if workers == 1 else worker_pool(workers)
    gen_bar = bar(generations + 1, f"evolution ({setting})", "gen", initial=min(start_gen, generations + 1),
                  disable=not progress)
    game_count = _GameCount(gen_bar)

    def evaluate(individuals: list, gen: int) -> None:
        specs = [individual_spec(i, opponent_spec) for i in individuals]
        game_count.start(gen, games * len(specs))
        openings = _openings(rules_dict, chosen, games, seed, gen)
        values = evaluate_genomes(specs, opponent_spec, rules_dict, games, seed, gen, executor, tie_break,
                                  bar=game_count, openings=openings)
        for ind, (fit, score) in zip(individuals, values):
            ind.fitness.values = (fit,)
            ind.score = score

    class _Book:
        """The logbook, each row completed with the population's mean tree height and size."""

        header = logbook.header

        def __init__(self):
            self.population: list = []

        def record(self, **row):
            logbook.record(**row, height=float(np.mean([i.height for i in self.population])),
                           size=float(np.mean([len(i) for i in self.population])))

    book = _Book()

    def on_generation(gen: int, current: list) -> None:
        if path is not None:
            write_json_atomic(path, {
                "format": EVOLUTION_FORMAT, "version": EVOLUTION_VERSION, "config": config, "generation": gen,
                "population": [_as_row(i) for i in current], "halloffame": [_as_row(i) for i in hof],
                "logbook": [dict(r) for r in logbook], "random_state": rng.to_json()})
        game_count.best = hof[0].fitness.values[0]
        gen_bar.update(1)

    class _Stats:
        """The GA's statistics; remembers the population so the logbook row can describe its trees."""

        def compile(self, current):
            book.population = current
            return _stats().compile(current)

    toolbox = build_toolbox(evaluate, tournsize, max_height)
    if start_gen == 0:
        with rng.active():
            pop = [_individual(parse_tree(DISTANCE))] + [toolbox.individual() for _ in range(population - 1)]
    try:
        pop = steady_state(pop, toolbox, rng, offspring, generations, cxpb, mutpb, _Stats(), hof, book,
                           start_gen, on_generation)
    finally:
        gen_bar.close()
        if own_pool:
            executor.shutdown()
    best = hof[0]
    return EvolutionResult(
        best_tree=str(best), best_spec=individual_spec(best, opponent_spec),
        best_fitness=best.fitness.values[0],
        logbook=[dict(r) for r in logbook], hall_of_fame=[_as_row(i) for i in hof],
        population=[_as_row(i) for i in pop], generation=logbook[-1]["gen"] if len(logbook) else 0,
        config=config)


def fitness_noise(result: EvolutionResult, tree: str, repeats: int,
                  executor: Executor | None = None) -> dict[str, float]:
    """The noise of the run's fitness: ``tree`` evaluated ``repeats`` times as the run evaluates
    (its setting, games and opponent), each time on new games (new openings in the paired setting),
    beside the spread of the run's final population (:func:`~fepaper.experiments.thesis.tuning.noise_summary`:
    ``noise_over_population`` below 1 means the differences selected on exceed one candidate's noise)."""
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 2:
        raise ValueError(f"repeats must be an integer >= 2 (a spread needs two), got {repeats!r}")
    config = result.config
    pool = executor if executor is not None else SerialExecutor()
    spec = individual_spec(tree, config["opponent"])
    rows = []
    for r in range(repeats):
        gen = NOISE_GENERATION + r
        openings = _openings(config["rules"], config, config["games"], config["seed"], gen)
        ((fit, score),) = evaluate_genomes([spec], config["opponent"], config["rules"], config["games"],
                                           config["seed"], gen, pool, config["tie_break"], openings=openings)
        rows.append({"repeat": r, "fitness": fit, "score": score})
    summary = noise_summary(rows, result.population)
    summary["distinct_results"] = len({round(r["fitness"], 12) for r in rows})
    if math.isinf(summary["noise_over_population"]) and summary["candidate_sd"] == 0:
        summary["noise_over_population"] = 0.0
    return summary
