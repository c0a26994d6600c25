"""A genetic algorithm over controller parameters (the thesis's §4.3), the DEAP way.

Any controller that declares genes (:func:`fepaper.controllers.genes_of`: the ant
colonies' parameters, the turn search's evaluation weights, MCTS's constants) can be
tuned. :func:`build_toolbox` registers DEAP's operators (individuals drawn within the
genes' bounds, one-point crossover, bounded polynomial mutation, tournament selection) and
the evaluation; :func:`steady_state` is the thesis's loop: a population of 16; each
generation 8 offspring replace the 8 worst; a hook after every generation writes the
checkpoint. :func:`tune` wires them together.

Fitness is the mean result of ``games`` games against a fixed opponent spec (win 1, draw
0.5, loss 0; colours alternate), plus a small tie-break that prefers quick wins and slow
losses (:mod:`fepaper.experiments.thesis.fitness`). The first individual of the first generation
is the controller's own defaults (the thesis's parameters for the colonies, clipped to the
bounds); the others are drawn uniformly.

Games run as plain-data tasks (specs and seeds) on any
:class:`concurrent.futures.Executor`; game ``k`` of the evaluation of individual ``i`` in
generation ``g`` is seeded from ``(seed, g, i, k)``, so a run is the same serially, in a
process pool or on dask. DEAP's operators draw from the global :mod:`random`, whose state
the GA swaps in only around its own draws, so nothing else in the process (a dask client,
user code) can change a run. A run started again with the same checkpoint resumes and ends
exactly where an uninterrupted one does.

Examples
--------
>>> from fepaper.play.pools import SerialExecutor
>>> result = tune({"name": "aco", "variant": "base"}, generations=1, games=2, rules="standard", seed=1,
...               population=4, offspring=2, bounds={"n_ants": (2, 4), "iterations": (1, 2)},
...               executor=SerialExecutor(), progress=False)
>>> [row["gen"] for row in result.logbook], result.best_spec["name"]
([0, 1], 'aco')
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from deap import base, creator, tools

from ...controllers import Gene, genes_of, make
from ...game import Rules
from ...play.pools import SerialExecutor, worker_pool
from .checkpoints import (
    CHECKPOINT_FORMAT,
    CHECKPOINT_VERSION,
    LOGBOOK_KEYS,
    CheckpointError,
    read_checkpoint,
    write_json_atomic,
)
from .fitness import evaluate_genomes

__all__ = ["THESIS_OPPONENT", "MCTS_OPPONENT", "CheckpointError", "TuningResult",
           "genes_for",
           "genome_to_spec", "build_toolbox", "steady_state", "tune", "fitness_noise", "noise_summary",
           "NOISE_GENERATION"]

# creator classes live at module level so that workers could unpickle them (they never need to:
# tasks carry plain lists).
if not hasattr(creator, "TuningFitness"):
    creator.create("TuningFitness", base.Fitness, weights=(1.0,))
if not hasattr(creator, "TuningIndividual"):
    creator.create("TuningIndividual", list, fitness=creator.TuningFitness, score=None)

#: The thesis's evaluator: §4.1.3 calls the dynamic alpha-beta "the chosen version to evaluate the
#: other controllers". Level 2 (the level of the thesis's memory figure), at most 15 bounces, and
#: the thesis's one-minute cap ("the search is limited to a minute") as a node budget that binds
#: in a few per cent of decisions (docs/interpretation.md). The colonies rarely win against it,
#: so the tie-break (slow losses) is what orders most of them.
THESIS_OPPONENT: dict[str, Any] = {"name": "alphabeta", "variant": "dynamic", "depth": 2, "max_bounces": 15,
                                   "max_nodes": 1_000_000}

#: The alternative opponent (fepaper 0.1's): MCTS with 20 playouts per decision. The thesis's
#: colonies score 0.2 to 0.4 against it, so their fitness has room both ways; the thesis does
#: not name it.
MCTS_OPPONENT: dict[str, Any] = {"name": "mcts", "iterations": 20}


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
        """Write :meth:`to_dict` as JSON to ``path`` atomically, in a folder that exists."""
        path = Path(path)
        write_json_atomic(path, self.to_dict())
        return path


# -- genes and specs ---------------------------------------------------------------------------
def genes_for(spec: dict | str, bounds: dict | None = None) -> list[Gene]:
    """The genes :func:`tune` tunes in ``spec`` (:func:`fepaper.controllers.genes_of`), with
    some ``(low, high)`` bounds overridden."""
    genes = genes_of(spec)
    if not genes:
        raise ValueError(f"{spec} has no genes left to tune")
    names = [g.name for g in genes]
    bounds = dict(bounds or {})
    unknown = sorted(set(bounds) - set(names))
    if unknown:
        raise ValueError(f"bounds for {unknown}: not genes of {spec}; its genes are {names}")
    out = []
    for g in genes:
        if g.name in bounds:
            pair = bounds[g.name]
            if (not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in pair)
                    or not pair[0] < pair[1]):
                raise ValueError(f"bounds[{g.name!r}] must be [low, high] with low < high, got {pair!r}")
            g = Gene(g.name, float(pair[0]), float(pair[1]), g.integer)
        out.append(g)
    if isinstance(spec, dict):  # an overridden bound the parameter itself refuses fails now, not mid-run
        middle = [(g.low + g.high) / 2 for g in out]
        for i, g in enumerate(out):
            if g.name not in bounds:
                continue
            for value in (g.low, g.high):
                try:
                    make(genome_to_spec(middle[:i] + [value] + middle[i + 1:], out, spec))
                except (ValueError, TypeError) as exc:
                    raise ValueError(f"bounds[{g.name!r}]: {exc}") from None
    return out


def genome_to_spec(genome: Sequence[float], genes: list[Gene], fixed: dict[str, Any]) -> dict[str, Any]:
    """The controller spec of a genome: ``fixed`` plus each gene's value (clipped to its
    bounds, integers rounded); a gene ``"weights.distance"`` sets ``spec["weights"]["distance"]``."""
    spec = json.loads(json.dumps(fixed))
    for value, gene in zip(genome, genes):
        value = min(max(float(value), gene.low), gene.high)
        value = int(round(value)) if gene.integer else value
        name, _, part = gene.name.partition(".")
        if part:
            spec.setdefault(name, {})[part] = value
        else:
            spec[name] = value
    return spec


def _start_genome(genes: list[Gene], fixed: dict[str, Any]) -> list[float]:
    """The controller's own defaults as a genome (clipped to the bounds)."""
    defaults = make(fixed).spec
    out = []
    for gene in genes:
        name, _, part = gene.name.partition(".")
        value = defaults.get(name, 0)
        if part:
            value = (value or {}).get(part, 0)
        out.append(min(max(float(value if value is not None else gene.low), gene.low), gene.high))
    return out


class _GameCount:
    """Counts a generation's games into the postfix of the generations bar."""

    def __init__(self, generations_bar) -> None:
        self.bar, self.best = generations_bar, None
        self.gen = self.done = self.total = 0

    def start(self, gen: int, total: int) -> None:
        self.gen, self.done, self.total = gen, 0, total
        self._show()

    def update(self, n: int) -> None:
        self.done += n
        self._show()

    def _show(self) -> None:
        best = "" if self.best is None else f", best {self.best:.3f}"
        self.bar.set_postfix_str(f"{self.done}/{self.total} games{best}")


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


# -- DEAP: toolbox and loop --------------------------------------------------------------------
def _individual(genome, fitness: float | None = None, score: float | None = None, kind=None):
    """An individual of ``kind`` (a DEAP creator class; default a genome of numbers) with its
    fitness and score."""
    ind = (kind or creator.TuningIndividual)(genome)
    if fitness is not None:
        ind.fitness.values = (fitness,)
    ind.score = score
    return ind


def _as_row(ind) -> dict[str, Any]:
    return {"genome": list(ind), "fitness": ind.fitness.values[0], "score": ind.score}


def _snap(genome, genes: list[Gene]) -> list[float]:
    """Clip to the bounds and round the integer genes (so a genome is its spec)."""
    out = []
    for value, g in zip(genome, genes):
        value = min(max(float(value), g.low), g.high)
        out.append(float(round(value)) if g.integer else value)
    return out


def _draw(genes: list[Gene]) -> list[float]:
    return [float(random.randint(int(g.low), int(g.high))) if g.integer else random.uniform(g.low, g.high)
            for g in genes]


def build_toolbox(genes: list[Gene], evaluate: Callable[[list, int], None], eta: float = 5.0,
                  tournsize: int = 3) -> base.Toolbox:
    """DEAP's toolbox of the GA: ``individual`` (drawn uniformly within the bounds),
    ``mate`` (one-point crossover), ``mutate`` (bounded polynomial, per-gene probability
    ``1 / len(genes)``), ``select`` (tournament), ``snap`` (clip and round in place), ``clone`` (a
    child's copy of a parent, fitness and score kept) and ``evaluate`` (``evaluate(individuals,
    generation)`` sets their fitness and score)."""
    toolbox = base.Toolbox()
    toolbox.register("individual", lambda: _individual(_draw(genes)))
    toolbox.register("mate", tools.cxOnePoint)
    toolbox.register("mutate", tools.mutPolynomialBounded, eta=eta, low=[g.low for g in genes],
                     up=[g.high for g in genes], indpb=1.0 / len(genes))
    toolbox.register("select", tools.selTournament, tournsize=tournsize)
    toolbox.register("snap", lambda ind: ind.__setitem__(slice(None), _snap(ind, genes)))
    toolbox.register("clone", lambda ind: _individual(list(ind), ind.fitness.values[0], ind.score))
    toolbox.register("evaluate", evaluate)
    return toolbox


def steady_state(population: list, toolbox: base.Toolbox, rng: _Random, offspring: int, generations: int,
                 cxpb: float, mutpb: float, stats: tools.Statistics, halloffame: tools.HallOfFame,
                 logbook: tools.Logbook, start: int = 0,
                 on_generation: Callable[[int, list], None] | None = None, reevaluate: bool = False) -> list:
    """The thesis's steady-state GA from generation ``start`` to ``generations``.

    Generation 0 evaluates ``population``; each later one selects ``offspring`` parents,
    mates and mutates copies of them (``toolbox.clone``; any individuals: number genomes, trees),
    evaluates the children whose genome changed (every
    child with ``reevaluate``) and puts them in place of the ``offspring`` worst.
    ``on_generation(gen, population)`` runs after each generation (the checkpoint).
    Returns the final population.
    """
    for gen in range(start, generations + 1):
        if gen == 0:
            toolbox.evaluate(population, 0)
            halloffame.update(population)
            fresh = population
        else:
            with rng.active():
                parents = toolbox.select(population, offspring)
                children = [toolbox.clone(p) for p in parents]
                for a, b in zip(children[::2], children[1::2]):
                    if random.random() < cxpb:
                        toolbox.mate(a, b)
                        del a.fitness.values, b.fitness.values
                for c in children:
                    if random.random() < mutpb:
                        toolbox.mutate(c)
                        del c.fitness.values
                for c in children:
                    toolbox.snap(c)
            fresh = children if reevaluate else [c for c in children if not c.fitness.valid]
            toolbox.evaluate(fresh, gen)
            order = sorted(range(len(population)), key=lambda i: -population[i].fitness.values[0])
            population = [population[i] for i in sorted(order[: len(population) - offspring])] + children
            halloffame.update(children)
        logbook.record(gen=gen, nevals=len(fresh), **stats.compile(population),
                       best_score=float(max(i.score for i in population)))
        if on_generation is not None:
            on_generation(gen, population)
    return population


def _stats() -> tools.Statistics:
    stats = tools.Statistics(key=lambda ind: ind.fitness.values[0])
    stats.register("avg", lambda v: float(np.mean(v)))
    stats.register("std", lambda v: float(np.std(v)))
    stats.register("min", lambda v: float(np.min(v)))
    stats.register("max", lambda v: float(np.max(v)))
    return stats


def _check_settings(**values) -> None:
    lows = {"generations": 0, "games": 1, "population": 2, "offspring": 2, "tournsize": 1, "hof_size": 1,
            "max_height": 1}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < lows[name]:
            raise ValueError(f"{name} must be an integer >= {lows[name]}, got {value!r}")
    if values["offspring"] > values["population"] or values["offspring"] % 2:
        raise ValueError(f"offspring must be even and at most population ({values['population']}), "
                         f"got {values['offspring']}")


# -- the whole run -----------------------------------------------------------------------------
def resume(path: Path | None, read: Callable[[Path], dict], config: dict, individual: Callable[[dict], Any],
           hof: tools.HallOfFame, logbook: tools.Logbook, rng: _Random, generations: int) -> tuple[list, int]:
    """The population and the first generation to run: ``([], 0)`` without a checkpoint at
    ``path``, else the checkpoint's (``read`` checks it; ``individual`` makes an individual of one
    of its rows), its hall of fame, logbook and random state put back into ``hof``, ``logbook``
    and ``rng``. A checkpoint of another run (another ``config``), or one past the last of the
    ``generations`` asked for (its result would not be the run asked for), is a
    :class:`CheckpointError`."""
    if path is None or not path.exists():
        return [], 0
    data = read(path)
    if data["config"] != config:
        old = data["config"]
        diff = sorted(k for k in set(config) | set(old) if config.get(k) != old.get(k))
        raise CheckpointError(f"checkpoint {path} belongs to another run: it differs in {diff}")
    if data["generation"] > generations:
        raise CheckpointError(f"checkpoint {path} is at generation {data['generation']}, past the "
                              f"{generations} asked for: ask for {data['generation']} or more, or start "
                              "without it")
    for r in reversed(data["halloffame"]):  # HallOfFame.insert puts equals first: worst in first
        hof.insert(individual(r))
    for row in data["logbook"]:
        logbook.record(**row)
    rng.state = _Random.from_json(data["random_state"])
    return [individual(r) for r in data["population"]], data["generation"] + 1



def tune(spec: dict | str = "aco", generations: int = 10, opponent: dict | str = "random", games: int = 20,
         rules="thesis", seed: int = 0, executor: Executor | None = None,
         checkpoint: str | Path | None = None, progress: bool = True, population: int = 16,
         offspring: int = 8, bounds: dict | None = None, tie_break: float = 0.01, cxpb: float = 0.9,
         mutpb: float = 0.5, tournsize: int = 3, eta: float = 5.0, hof_size: int = 5,
         reevaluate: bool = False, workers: int | None = None) -> TuningResult:
    """Tune the genes of a controller spec with the thesis's steady-state GA.

    Parameters
    ----------
    spec : dict or str
        The controller and its fixed fields, e.g. ``{"name": "aco", "variant": "ferdist",
        "once_per_cycle": True}`` or ``{"name": "turnsearch", "depth": 2}``; every gene it
        does not fix is tuned (:func:`fepaper.controllers.genes_of`).
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
        Where games run; default a process pool of ``workers`` processes
        (:func:`~fepaper.play.pools.worker_pool`), created and shut down here.
    checkpoint : path, optional
        JSON checkpoint written after every generation; if it exists the run resumes
        from it (it must be of the same run: same settings and seed).
    progress : bool
        Show one progress bar: generations, and the games of the one being played.
    population, offspring : int
        16 and 8 in the thesis: ``offspring`` new individuals replace the worst each generation.
    bounds : dict, optional
        ``{gene: (low, high)}`` overriding the declared bounds.
    tie_break : float
        Weight of the quick-win/slow-loss term; below ``0.5 / games`` it only orders
        equal scores. 0 disables it.
    cxpb, mutpb, tournsize, eta, hof_size
        Crossover and mutation probabilities per offspring (pair), tournament size,
        crowding of the polynomial mutation, and the hall of fame's size.
    reevaluate : bool
        Evaluate every child each generation, even one whose genome did not change.

    Returns
    -------
    TuningResult

    Raises
    ------
    ValueError
        For settings out of range; :class:`SpecError` for a bad spec or opponent;
        :class:`CheckpointError` for a corrupt checkpoint or one of another run.
    """
    from ...game.progress import bar

    _check_settings(generations=generations, games=games, population=population, offspring=offspring,
                    tournsize=tournsize, hof_size=hof_size)
    if isinstance(spec, str):
        spec = json.loads(spec) if spec.strip().startswith("{") else {"name": spec.strip()}
    fixed = json.loads(json.dumps(spec))
    make(fixed)  # a SpecError now rather than in a worker
    genes = genes_for(fixed, bounds)
    make(genome_to_spec([g.low for g in genes], genes, fixed))
    opponent_spec = make(opponent).spec
    rules_dict = Rules.from_spec(rules).to_dict()
    config = {"spec": fixed, "opponent": opponent_spec, "games": games, "rules": rules_dict, "seed": seed,
              "population": population, "offspring": offspring,
              "genes": [[g.name, g.low, g.high, g.integer] for g in genes], "tie_break": tie_break,
              "cxpb": cxpb, "mutpb": mutpb, "tournsize": tournsize, "eta": eta, "hof_size": hof_size,
              "reevaluate": reevaluate}
    config = json.loads(json.dumps(config))  # the form it takes in a checkpoint

    rng = _Random(seed)
    hof = tools.HallOfFame(hof_size)
    logbook = tools.Logbook()
    logbook.header = list(LOGBOOK_KEYS)
    path = Path(checkpoint) if checkpoint is not None else None
    pop, start_gen = resume(path, read_checkpoint, config,
                            lambda r: _individual(r["genome"], r["fitness"], r["score"]), hof, logbook, rng,
                            generations)

    own_pool = executor is None and start_gen <= generations
    if own_pool:
        executor = SerialExecutor() if workers == 1 else worker_pool(workers)
    # One bar (generations), its postfix counting the games of the generation being played:
    # two nested bars redraw over each other and leave duplicated lines in many terminals.
    gen_bar = bar(generations + 1, "generations", "gen", initial=min(start_gen, generations + 1),
                  disable=not progress)
    game_count = _GameCount(gen_bar)

    def evaluate(individuals: list, gen: int) -> None:
        specs = [genome_to_spec(i, genes, fixed) for i in individuals]
        game_count.start(gen, games * len(specs))
        values = evaluate_genomes(specs, opponent_spec, rules_dict, games, seed, gen, executor, tie_break,
                                  bar=game_count)
        for ind, (fit, score) in zip(individuals, values):
            ind.fitness.values = (fit,)
            ind.score = score

    def on_generation(gen: int, population: list) -> None:
        if path is not None:
            write_json_atomic(path, {
                "format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, "config": config,
                "generation": gen, "population": [_as_row(i) for i in population],
                "halloffame": [_as_row(i) for i in hof], "logbook": [dict(r) for r in logbook],
                "random_state": rng.to_json()})
        game_count.best = hof[0].fitness.values[0]
        gen_bar.update(1)

    toolbox = build_toolbox(genes, evaluate, eta, tournsize)
    if start_gen == 0:
        with rng.active():
            pop = [_individual(_start_genome(genes, fixed))] + [toolbox.individual()
                                                                for _ in range(population - 1)]
    try:
        pop = steady_state(pop, toolbox, rng, offspring, generations, cxpb, mutpb, _stats(), hof, logbook,
                           start_gen, on_generation, reevaluate)
    finally:
        gen_bar.close()
        if own_pool:
            executor.shutdown()
    last = logbook[-1]["gen"] if len(logbook) else 0
    return TuningResult(
        best_spec=genome_to_spec(hof[0], genes, fixed), best_fitness=hof[0].fitness.values[0],
        logbook=[dict(r) for r in logbook],
        hall_of_fame=[{"spec": genome_to_spec(i, genes, fixed), **_as_row(i)} for i in hof],
        population=[_as_row(i) for i in pop], generation=last, config=config)



#: The generation whose seeds the noise measurement uses: far past any run's, so its games are
#: new to the candidate (game ``k`` of repeat ``r`` is seeded from ``(seed, NOISE_GENERATION, r, k)``).
NOISE_GENERATION = 1_000_000


def fitness_noise(result: TuningResult, spec: dict, repeats: int, games: int = 20,
                  executor: Executor | None = None) -> list[dict[str, float]]:
    """The GA's own noise: ``spec`` evaluated ``repeats`` times, each time on ``games`` new games
    against the run's opponent, by the run's fitness (``fitness`` and ``score`` per repeat);
    ``executor`` defaults to this process.

    Beside the spread across the run's population (:func:`noise_summary`) it says whether an
    evaluation of ``games`` games can tell two candidates apart: if one candidate's fitness
    spreads as much as the population's, the GA mostly selects noise."""
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 2:
        raise ValueError(f"repeats must be an integer >= 2 (a spread needs two), got {repeats!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    config = result.config
    pool = executor if executor is not None else SerialExecutor()
    found = evaluate_genomes([dict(spec)] * repeats, config["opponent"], config["rules"], games,
                             config["seed"], NOISE_GENERATION, pool, tie_break=config["tie_break"])
    return [{"repeat": r, "fitness": f, "score": s} for r, (f, s) in enumerate(found)]


def noise_summary(repeats: Sequence[dict], population: Sequence[dict]) -> dict[str, float]:
    """The spread (sample standard deviation) of one candidate's repeated fitness beside the
    spread of a population's fitness (``population``: the run's final one), and their ratio:
    near 1 or above, the population's differences are as large as one candidate's noise."""
    one = np.array([r["fitness"] for r in repeats], float)
    many = np.array([p["fitness"] for p in population], float)
    if len(one) < 2 or len(many) < 2:
        raise ValueError(f"a spread needs at least two values, got {len(one)} repeats and {len(many)} "
                         "individuals")
    sd_one, sd_many = float(one.std(ddof=1)), float(many.std(ddof=1))
    return {"repeats": len(one), "candidate_mean": float(one.mean()), "candidate_sd": sd_one,
            "candidate_range": float(one.max() - one.min()), "population": len(many),
            "population_sd": sd_many,
            "noise_over_population": sd_one / sd_many if sd_many > 0 else float("inf")}
