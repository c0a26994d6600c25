"""A genetic algorithm over controller parameters (the thesis's §4.3), with DEAP.

A steady-state GA: a population of 16 genomes (lists of parameter values within
per-gene bounds); each generation, tournament selection picks 8 parents,
one-point crossover and bounded polynomial mutation make 8 offspring, and these
replace the 8 worst. Fitness is the mean result of ``games`` games against a
fixed opponent spec (win 1, draw 0.5, loss 0; colours alternate), plus a small
tie-break that prefers quick wins and slow losses. The first individual of the
first generation is the thesis's own parameters (clipped to the bounds); the
others are drawn uniformly.

Games run as plain-data tasks (specs and seeds) on any
:class:`concurrent.futures.Executor`; game ``k`` of the evaluation of individual
``i`` in generation ``g`` is seeded from ``(seed, g, i, k)``, so a run is the same
serially, in a process pool or on dask. DEAP's operators draw from the global
:mod:`random`, whose state the GA swaps in only around its own draws, so nothing
else in the process (a dask client, user code) can change a run. Every
generation is written to a JSON checkpoint (atomically); a run started again
with the same checkpoint resumes and ends exactly where an uninterrupted one does.

Examples
--------
>>> from fepaper.experiments.arena import SerialExecutor
>>> result = tune(variant="base", generations=1, games=2, rules="standard", seed=1, population=4,
...               offspring=2, bounds={"n_ants": (2, 4), "iterations": (1, 2)},
...               executor=SerialExecutor(), progress=False)
>>> [row["gen"] for row in result.logbook], result.best_spec["name"]
([0, 1], 'aco')
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from deap import base, creator, tools

from ..controllers import make
from ..controllers.aco import THESIS_DEFAULTS, VARIANT_FIELDS
from ..game.rules import Rules
from .arena import SerialExecutor, play_game
from .checkpoints import (
    CHECKPOINT_FORMAT,
    CHECKPOINT_VERSION,
    LOGBOOK_KEYS,
    CheckpointError,
    read_checkpoint,
    write_json_atomic,
)

__all__ = ["QUICK_OPPONENT", "CheckpointError", "TuningResult", "GENES", "genes_for", "genome_to_spec",
           "tune", "evaluate_genomes"]

# creator classes live at module level so that workers could unpickle them (they never need to:
# tasks carry plain lists).
if not hasattr(creator, "TuningFitness"):
    creator.create("TuningFitness", base.Fitness, weights=(1.0,))
if not hasattr(creator, "TuningIndividual"):
    creator.create("TuningIndividual", list, fitness=creator.TuningFitness, score=None)


#: Per-gene bounds ``(low, high, integer)`` of the ant colonies' parameters.
GENES: dict[str, tuple[float, float, bool]] = {
    "n_ants": (4, 120, True), "iterations": (1, 30, True), "alpha": (0.0, 3.0, False),
    "beta": (0.0, 3.0, False), "rho": (0.05, 0.95, False), "heuristic": (0.0, 3.0, False),
    "w_cost": (0.0, 2.0, False), "w_dist": (0.0, 30.0, False), "w_rival": (0.0, 5.0, False),
    "tolerance": (0.0, 1.0, False), "rank_w": (2, 20, True), "tau_ratio": (0.001, 0.5, False),
}
#: The opponent of the quick budget: MCTS with 20 playouts per decision. The thesis's colonies
#: score 0.2 to 0.4 against it (their fitness has room both ways), win about 7 games in 8 against
#: ``random`` over distinct turns (a GA on 10 games then finds many perfect scores by luck) and
#: lose nearly all against ``greedy``, which stops on dead ends to block them.
QUICK_OPPONENT: dict[str, Any] = {"name": "mcts", "iterations": 20}

_SYSTEM_GENES = {"as": (), "mmas": ("tau_ratio",), "rank": ("rank_w",)}


@dataclass
class TuningResult:
    """What a tuning run found.

    Attributes
    ----------
    best_spec : dict
        The controller spec of the best individual ever seen (the hall of fame's first).
    best_fitness : float
    logbook : list of dict
        One row per generation: ``gen``, ``nevals``, ``avg``, ``std``, ``min``, ``max``
        (of fitness) and ``best_score`` (the best mean game result, without tie-break).
    hall_of_fame : list of dict
        ``{"spec", "genome", "fitness", "score"}``, best first.
    population : list of dict
        The final population, ``{"genome", "fitness", "score"}``.
    generation : int
    config : dict
        The run's settings (as in its checkpoint).
    """

    best_spec: dict[str, Any]
    best_fitness: float
    logbook: list[dict[str, Any]]
    hall_of_fame: list[dict[str, Any]]
    population: list[dict[str, Any]]
    generation: int
    config: dict[str, Any] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"best_spec": self.best_spec, "best_fitness": self.best_fitness, "logbook": self.logbook,
                "hall_of_fame": self.hall_of_fame, "population": self.population,
                "generation": self.generation, "config": self.config}

    def save(self, path: str | Path) -> Path:
        """Write :meth:`to_dict` as JSON to ``path`` atomically (folders are created)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, self.to_dict())
        return path


# -- genes and specs ---------------------------------------------------------------------------
def genes_for(variant: str, system: str = "as",
              bounds: dict | None = None) -> list[tuple[str, float, float, bool]]:
    """The genes ``(name, low, high, integer)`` tuned for an ant colony variant and system.

    ``bounds`` overrides some ``(low, high)`` pairs (e.g. tiny colonies for a smoke run).
    """
    if variant not in VARIANT_FIELDS:
        raise ValueError(f"variant must be one of {sorted(VARIANT_FIELDS)}, got {variant!r}")
    if system not in _SYSTEM_GENES:
        raise ValueError(f"system must be one of {sorted(_SYSTEM_GENES)}, got {system!r}")
    names = [n for n in VARIANT_FIELDS[variant] if n in GENES] + list(_SYSTEM_GENES[system])
    bounds = dict(bounds or {})
    unknown = sorted(set(bounds) - set(names))
    if unknown:
        raise ValueError(f"bounds for {unknown}: not genes of {variant!r}/{system!r}; genes are {names}")
    out = []
    for name in names:
        lo, hi, integer = GENES[name]
        if name in bounds:
            pair = bounds[name]
            if (not isinstance(pair, Sequence) or len(pair) != 2
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in pair)
                    or not pair[0] < pair[1]):
                raise ValueError(f"bounds[{name!r}] must be (low, high) with low < high, got {pair!r}")
            lo, hi = pair
        out.append((name, float(lo), float(hi), integer))
    return out


def genome_to_spec(genome: Sequence[float], genes, fixed: dict[str, Any]) -> dict[str, Any]:
    """The controller spec of a genome: ``fixed`` plus each gene's value (integers rounded)."""
    spec = dict(fixed)
    for value, (name, lo, hi, integer) in zip(genome, genes):
        value = min(max(float(value), lo), hi)
        spec[name] = int(round(value)) if integer else value
    return spec


def _game_seed(seed: int, generation: int, individual: int, k: int) -> int:
    return int(np.random.SeedSequence([seed, generation, individual, k]).generate_state(1)[0])


# -- evaluation (plain-data tasks) --------------------------------------------------------------
def _play_games(rules: dict, spec: dict, opponent: dict,
                jobs: list[tuple[int, int]]) -> list[tuple[float, int]]:
    """Task: play ``spec`` against ``opponent`` for each ``(k, seed)``; A is player 1 when k is even."""
    out = []
    for k, seed in jobs:
        row = play_game(rules, spec, opponent, seed=seed, a_player=1 if k % 2 == 0 else 2)
        out.append((row["score_a"], row["turns"]))
    return out


def _fitness(results: list[tuple[float, int]], tie_break: float) -> tuple[float, float]:
    """(fitness, mean score): the mean score plus ``tie_break`` times the mean of
    ``(2 score - 1) * 10 / (10 + turns)`` (quick wins up, quick losses down)."""
    score = sum(s for s, _ in results) / len(results)
    speed = sum((2 * s - 1) * 10 / (10 + t) for s, t in results) / len(results)
    return score + tie_break * speed, score


def evaluate_genomes(specs: list[dict], opponent: dict, rules: dict, games: int, seed: int, generation: int,
                     executor: Executor, tie_break: float = 0.01, chunk: int = 5,
                     bar=None) -> list[tuple[float, float]]:
    """Fitness ``(fitness, score)`` of each spec: ``games`` games against ``opponent``.

    Game ``k`` of spec ``i`` is seeded from ``(seed, generation, i, k)`` and played
    in tasks of ``chunk`` games on ``executor``; ``bar`` (a tqdm bar) counts games.
    """
    futures = {}
    for i, spec in enumerate(specs):
        jobs = [(k, _game_seed(seed, generation, i, k)) for k in range(games)]
        for start in range(0, games, chunk):
            future = executor.submit(_play_games, rules, spec, opponent, jobs[start:start + chunk])
            futures[future] = (i, start)
    results: list[list] = [[None] * games for _ in specs]
    for future in as_completed(futures):
        i, start = futures[future]
        part = future.result()
        results[i][start:start + len(part)] = part
        if bar is not None:
            bar.update(len(part))
    return [_fitness(r, tie_break) for r in results]


# -- the random module's state, kept apart ------------------------------------------------------
class _Random:
    """The GA's own state of the global :mod:`random`, swapped in only around the GA's draws."""

    def __init__(self, seed: int) -> None:
        saved = random.getstate()
        random.seed(seed)
        self.state = random.getstate()
        random.setstate(saved)

    @contextmanager
    def active(self):
        saved = random.getstate()
        random.setstate(self.state)
        try:
            yield
        finally:
            self.state = random.getstate()
            random.setstate(saved)

    def to_json(self) -> list:
        version, internal, gauss = self.state
        return [version, list(internal), gauss]

    @staticmethod
    def from_json(data: list) -> tuple:
        return (data[0], tuple(data[1]), data[2])


# -- checkpoints --------------------------------------------------------------------------------
def _individual(genome, fitness: float | None, score: float | None):
    ind = creator.TuningIndividual(genome)
    if fitness is not None:
        ind.fitness.values = (fitness,)
    ind.score = score
    return ind


def _as_row(ind) -> dict[str, Any]:
    return {"genome": list(ind), "fitness": ind.fitness.values[0], "score": ind.score}


# -- the GA -------------------------------------------------------------------------------------
def _stats() -> tools.Statistics:
    stats = tools.Statistics(key=lambda ind: ind.fitness.values[0])
    stats.register("avg", lambda v: float(np.mean(v)))
    stats.register("std", lambda v: float(np.std(v)))
    stats.register("min", lambda v: float(np.min(v)))
    stats.register("max", lambda v: float(np.max(v)))
    return stats


def tune(controller: str = "aco", variant: str = "ferdistrival", generations: int = 10,
         opponent: dict | str = "random", games: int = 20, rules="thesis", seed: int = 0,
         executor: Executor | None = None, checkpoint: str | Path | None = None, progress: bool = True,
         population: int = 16, offspring: int = 8, fixed: dict | None = None, bounds: dict | None = None,
         tie_break: float = 0.01, cxpb: float = 0.9, mutpb: float = 0.5, tournsize: int = 3,
         eta: float = 5.0, hof_size: int = 5, workers: int | None = None) -> TuningResult:
    """Tune a controller's parameters with the thesis's steady-state GA.

    Parameters
    ----------
    controller : "aco"
        The controller family (only the ant colonies have genes so far).
    variant : {"base", "ferdist", "ferdistrival"}
    generations : int
        Generations after the first (generation 0 evaluates the whole population).
    opponent : dict or str
        The spec every individual plays against.
    games : int
        Games per evaluation (colours alternate: the individual is player 1 in even games).
    rules : Rules, str or dict
    seed : int
        Seeds the GA's draws and every game.
    executor : Executor, optional
        Where games run; default a :class:`~concurrent.futures.ProcessPoolExecutor`
        of ``workers`` processes, created and shut down here.
    checkpoint : path, optional
        JSON checkpoint written after every generation; if it exists the run resumes
        from it (it must be of the same run: same settings and seed).
    progress : bool
        Show tqdm bars of generations and games.
    population, offspring : int
        16 and 8 in the thesis: ``offspring`` new individuals replace the worst each generation.
    fixed : dict, optional
        Spec fields that every individual shares, e.g. ``{"system": "mmas", "once_per_cycle": True}``.
    bounds : dict, optional
        ``{gene: (low, high)}`` overriding :data:`GENES`.
    tie_break : float
        Weight of the quick-win/slow-loss term; below ``0.5 / games`` it only orders
        equal scores. 0 disables it.
    cxpb, mutpb, tournsize, eta, hof_size
        Crossover and mutation probabilities per offspring (pair), tournament size,
        crowding of the polynomial mutation (its per-gene probability is
        ``1 / n_genes``), and the hall of fame's size.

    Returns
    -------
    TuningResult

    Raises
    ------
    ValueError
        For settings out of range; :class:`SpecError` for a bad opponent or fixed fields;
        :class:`CheckpointError` for a corrupt checkpoint or one of another run.
    """
    from tqdm.auto import tqdm

    if controller != "aco":
        raise ValueError(f"controller must be 'aco' (the only family with genes), got {controller!r}")
    for name, value, low in (("generations", generations, 0), ("games", games, 1),
                             ("population", population, 2), ("offspring", offspring, 2),
                             ("tournsize", tournsize, 1), ("hof_size", hof_size, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if offspring > population or offspring % 2:
        raise ValueError(f"offspring must be even and at most population ({population}), got {offspring}")
    rules_dict = Rules.from_spec(rules).to_dict()
    fixed = {"name": "aco", "variant": variant, **(fixed or {})}
    if fixed["name"] != controller or fixed["variant"] != variant:
        raise ValueError("fixed must not change the controller's name or variant")
    genes = genes_for(variant, fixed.get("system", "as"), bounds)
    gene_names = {g[0] for g in genes}
    clash = sorted(gene_names & set(fixed))
    if clash:
        raise ValueError(f"fixed fields {clash} are genes; bound them instead")
    make(genome_to_spec([g[1] for g in genes], genes, fixed))  # SpecError now rather than in a worker
    opponent_spec = make(opponent).spec
    config = {"controller": controller, "variant": variant, "fixed": fixed, "opponent": opponent_spec,
              "games": games, "rules": rules_dict, "seed": seed, "population": population,
              "offspring": offspring, "genes": [list(g) for g in genes], "tie_break": tie_break, "cxpb": cxpb,
              "mutpb": mutpb, "tournsize": tournsize, "eta": eta, "hof_size": hof_size}
    config = json.loads(json.dumps(config))  # the form it takes in a checkpoint
    lows, highs = [g[1] for g in genes], [g[2] for g in genes]

    rng = _Random(seed)
    hof = tools.HallOfFame(hof_size)
    logbook = tools.Logbook()
    logbook.header = list(LOGBOOK_KEYS)
    stats = _stats()
    pop: list = []
    start_gen = 0
    path = Path(checkpoint) if checkpoint is not None else None
    if path is not None and path.exists():
        data = read_checkpoint(path)
        if data["config"] != config:
            old = data["config"]
            diff = sorted(k for k in set(config) | set(old) if config.get(k) != old.get(k))
            raise CheckpointError(f"checkpoint {path} belongs to another run: it differs in {diff}")
        pop = [_individual(r["genome"], r["fitness"], r["score"]) for r in data["population"]]
        for r in reversed(data["halloffame"]):  # HallOfFame.insert puts equals first: worst in first
            hof.insert(_individual(r["genome"], r["fitness"], r["score"]))
        for row in data["logbook"]:
            logbook.record(**row)
        rng.state = _Random.from_json(data["random_state"])
        start_gen = data["generation"] + 1

    def save(gen: int) -> None:
        if path is None:
            return
        write_json_atomic(path, {
            "format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, "config": config, "generation": gen,
            "population": [_as_row(i) for i in pop], "halloffame": [_as_row(i) for i in hof],
            "logbook": [dict(r) for r in logbook], "random_state": rng.to_json()})

    def record(gen: int, nevals: int) -> None:
        logbook.record(gen=gen, nevals=nevals, **stats.compile(pop),
                       best_score=float(max(i.score for i in pop)))

    own_pool = executor is None and start_gen <= generations
    if own_pool:
        executor = SerialExecutor() if workers == 1 else ProcessPoolExecutor(max_workers=workers)
    gen_bar = tqdm(total=generations + 1, initial=min(start_gen, generations + 1), desc="generations",
                   disable=not progress, position=0)
    game_bar = tqdm(total=0, desc="games", unit="game", disable=not progress, position=1,
                    leave=False)

    def evaluate(individuals: list, gen: int) -> None:
        specs = [genome_to_spec(i, genes, fixed) for i in individuals]
        game_bar.reset(total=games * len(specs))
        game_bar.set_description(f"games of generation {gen}")
        values = evaluate_genomes(specs, opponent_spec, rules_dict, games, seed, gen, executor, tie_break,
                                  bar=game_bar)
        for ind, (fit, score) in zip(individuals, values):
            ind.fitness.values = (fit,)
            ind.score = score

    try:
        for gen in range(start_gen, generations + 1):
            if gen == 0:
                defaults = [min(max(float(THESIS_DEFAULTS[g[0]]), g[1]), g[2]) for g in genes]
                with rng.active():
                    drawn = [[_draw(lo, hi, integer) for _, lo, hi, integer in genes]
                             for _ in range(population - 1)]
                pop = [_individual(g, None, None) for g in [defaults] + drawn]
                evaluate(pop, 0)
                hof.update(pop)
                record(0, len(pop))
            else:
                with rng.active():
                    parents = tools.selTournament(pop, offspring, tournsize)
                    children = [creator.TuningIndividual(list(p)) for p in parents]
                    for c, p in zip(children, parents):
                        c.fitness.values, c.score = p.fitness.values, p.score
                    for a, b in zip(children[::2], children[1::2]):
                        if random.random() < cxpb:
                            tools.cxOnePoint(a, b)
                            del a.fitness.values, b.fitness.values
                    for c in children:
                        if random.random() < mutpb:
                            tools.mutPolynomialBounded(c, eta, lows, highs, 1.0 / len(genes))
                            del c.fitness.values
                    for c in children:
                        c[:] = _snap(c, genes)
                fresh = [c for c in children if not c.fitness.valid]
                evaluate(fresh, gen)
                order = sorted(range(len(pop)), key=lambda i: -pop[i].fitness.values[0])
                pop = [pop[i] for i in sorted(order[: population - offspring])] + children
                hof.update(children)
                record(gen, len(fresh))
            save(gen)
            gen_bar.update(1)
            gen_bar.set_postfix(best=f"{hof[0].fitness.values[0]:.3f}")
    finally:
        game_bar.close()
        gen_bar.close()
        if own_pool:
            executor.shutdown()
    last = logbook[-1]["gen"] if len(logbook) else 0
    return TuningResult(
        best_spec=genome_to_spec(hof[0], genes, fixed), best_fitness=hof[0].fitness.values[0],
        logbook=[dict(r) for r in logbook],
        hall_of_fame=[{"spec": genome_to_spec(i, genes, fixed), **_as_row(i)} for i in hof],
        population=[_as_row(i) for i in pop], generation=last, config=config)


def _draw(lo: float, hi: float, integer: bool) -> float:
    return float(random.randint(int(lo), int(hi))) if integer else random.uniform(lo, hi)


def _snap(genome, genes) -> list[float]:
    """Clip to the bounds and round the integer genes (so a genome is its spec)."""
    out = []
    for value, (_, lo, hi, integer) in zip(genome, genes):
        value = min(max(float(value), lo), hi)
        out.append(float(round(value)) if integer else value)
    return out
