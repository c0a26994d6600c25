"""The GA: same run serially, in a pool and on dask; checkpoints resume exactly; corrupt ones refused."""

import json
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from fepaper.cli import build_parser
from fepaper.controllers import SpecError, make
from fepaper.experiments.thesis.checkpoints import seal
from fepaper.experiments.thesis.fitness import fitness_of
from fepaper.experiments.thesis.tuning import (
    CheckpointError,
    genes_for,
    genome_to_spec,
    tune,
)
from fepaper.play.pools import SerialExecutor

from .helpers import DyingExecutor, Interrupt

FERDIST = {"name": "aco", "variant": "ferdist"}
TINY = dict(spec=FERDIST, games=2, rules="standard", seed=7, population=4, offspring=2,
            bounds={"n_ants": (2, 5), "iterations": (1, 2)}, progress=False)


def _same(a, b):
    return a.population == b.population and a.logbook == b.logbook and a.hall_of_fame == b.hall_of_fame


@pytest.fixture(scope="module")
def straight():
    """Three generations without interruption, serially."""
    return tune(generations=3, executor=SerialExecutor(), **TINY)


def test_result_shape_and_records(straight):
    assert [row["gen"] for row in straight.logbook] == [0, 1, 2, 3]
    assert straight.logbook[0]["nevals"] == 4
    assert all(row["nevals"] <= 2 for row in straight.logbook[1:])
    assert len(straight.population) == 4 and straight.generation == 3
    best = straight.hall_of_fame[0]
    assert best["spec"] == straight.best_spec and best["fitness"] == straight.best_fitness
    assert straight.best_fitness == max(h["fitness"] for h in straight.hall_of_fame)
    assert straight.best_fitness >= straight.logbook[0]["max"]  # (a genome evaluated again may differ)
    make(straight.best_spec)  # a valid controller spec
    for row in straight.population:
        spec = genome_to_spec(row["genome"], genes_for(FERDIST, TINY["bounds"]), {"name": "aco"})
        assert 2 <= spec["n_ants"] <= 5 and 1 <= spec["iterations"] <= 2
        assert 0.05 <= spec["rho"] <= 0.95
    json.dumps(straight.to_dict())


def test_generation_zero_starts_from_the_thesis_parameters(straight):
    gens = genes_for(FERDIST, TINY["bounds"])
    result = tune(generations=0, executor=SerialExecutor(), **TINY)
    spec = genome_to_spec(result.population[0]["genome"], gens, {"name": "aco", "variant": "ferdist"})
    assert spec["n_ants"] == 5 and spec["iterations"] == 2  # 87 and 15 clipped to the bounds
    assert (spec["alpha"], spec["beta"], spec["rho"], spec["w_dist"]) == (1.15, 0.87, 0.4, 10.0)


def test_same_run_with_a_process_pool(straight):
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = tune(generations=3, executor=pool, **TINY)
    assert _same(straight, pooled)


def test_same_run_on_dask(straight):
    distributed = pytest.importorskip("distributed")
    state = random.getstate()
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = tune(generations=3, executor=client.get_executor(), **TINY)
    random.setstate(state)
    assert _same(straight, on_dask)


def test_the_global_random_state_does_not_change_a_run(straight):
    random.seed(12345)
    again = tune(generations=3, executor=SerialExecutor(), **TINY)
    assert _same(straight, again)
    assert random.getstate() == (random.seed(12345) or random.getstate())  # left as it was


def test_resume_ends_where_an_uninterrupted_run_ends(straight, tmp_path):
    path = tmp_path / "ga.json"
    two = tune(generations=2, executor=SerialExecutor(), checkpoint=path, **TINY)
    assert json.loads(path.read_text())["generation"] == 2 == two.generation
    resumed = tune(generations=3, executor=SerialExecutor(), checkpoint=path, **TINY)
    assert _same(straight, resumed)
    assert not list(tmp_path.glob("*.tmp"))
    again = tune(generations=3, executor=SerialExecutor(), checkpoint=path, **TINY)  # nothing left to do
    assert _same(straight, again)


@pytest.mark.parametrize("tasks", [1, 5, 7])
def test_a_run_killed_mid_generation_resumes_exactly(straight, tmp_path, tasks):
    path = tmp_path / "ga.json"
    with pytest.raises(Interrupt):
        tune(generations=3, executor=DyingExecutor(tasks), checkpoint=path, **TINY)
    resumed = tune(generations=3, executor=SerialExecutor(), checkpoint=path, **TINY)
    assert _same(straight, resumed)


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "ga.json"
    tune(generations=1, executor=SerialExecutor(), checkpoint=path, **TINY)
    return path


def _corrupt(path, change):
    """Edit a checkpoint and seal it again, so the checks behind the checksum are reached."""
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(seal(data)))


@pytest.mark.parametrize("change, words", [
    (lambda d: d.pop("random_state"), "missing key.*random_state"),
    (lambda d: d.pop("population"), "missing key.*population"),
    (lambda d: d.__setitem__("generation", "1"), "generation must be"),
    (lambda d: d["population"][2].__setitem__("genome", "abc"), r"population\[2\].genome"),
    (lambda d: d["population"][0]["genome"].pop(), r"population\[0\].genome must be a list of"),
    (lambda d: d["population"][1].__setitem__("fitness", None), r"population\[1\].fitness"),
    (lambda d: d["halloffame"].clear(), "halloffame must be a non-empty list"),
    (lambda d: d["logbook"].pop(), "logbook must be a list of 2 rows"),
    (lambda d: d["logbook"][1].__setitem__("max", "x"), r"logbook\[1\]"),
    (lambda d: d["random_state"][1].pop(), "random_state"),
    (lambda d: d.__setitem__("format", "other"), "not a fepaper-tuning-checkpoint"),
    (lambda d: d["config"].__setitem__("seed", 8), "another run.*seed"),
    (lambda d: d["population"].pop(), "population has 3 individuals"),
])
def test_corrupt_checkpoints_are_refused_with_what_is_wrong(saved, change, words):
    _corrupt(saved, change)
    before = saved.read_text()
    with pytest.raises(CheckpointError, match=words):
        tune(generations=2, executor=SerialExecutor(), checkpoint=saved, **TINY)
    assert saved.read_text() == before  # never written over


def test_truncated_and_non_object_checkpoints(saved):
    text = saved.read_text()
    saved.write_text(text[: len(text) // 2])
    with pytest.raises(CheckpointError, match="not valid JSON"):
        tune(generations=2, executor=SerialExecutor(), checkpoint=saved, **TINY)
    saved.write_text("[1, 2]")
    with pytest.raises(CheckpointError, match="JSON object"):
        tune(generations=2, executor=SerialExecutor(), checkpoint=saved, **TINY)


def test_fitness_and_tie_break_arithmetic():
    assert fitness_of([(1.0, 10), (0.0, 30)], 0.0) == (0.5, 0.5)
    fit, score = fitness_of([(1.0, 10), (0.0, 30)], 0.01)
    assert score == 0.5 and fit == pytest.approx(0.5 + 0.01 * (0.5 - 0.25) / 2)
    assert fitness_of([(0.5, 4)], 0.01) == (0.5, 0.5)  # a draw has no tie-break


def test_genes_come_from_the_declarations():
    def names(spec):
        return [g.name for g in genes_for(spec)]

    assert names({"name": "aco", "variant": "base"}) == ["n_ants", "iterations", "alpha", "beta", "rho",
                                                         "heuristic"]
    assert names(FERDIST)[6:] == ["w_cost", "w_dist", "tolerance"]
    assert names({"name": "aco", "variant": "ferdistrival", "system": "rank"})[6:] == [
        "w_cost", "w_dist", "w_rival", "tolerance", "rank_w"]
    assert names({"name": "aco", "variant": "base", "n_ants": 20, "alpha": 1.0}) == [
        "iterations", "beta", "rho", "heuristic"]  # what the spec fixes is not tuned
    assert names({"name": "turnsearch", "depth": 2}) == [
        "weights.distance", "weights.attack", "weights.mobility", "weights.bounce"]
    assert [g.integer for g in genes_for({"name": "turnsearch", "depth": 2})] == [True] * 4
    assert "c" in names({"name": "mcts", "iterations": 50})
    with pytest.raises(ValueError, match="low < high"):
        genes_for({"name": "aco"}, {"n_ants": (5, 5)})
    with pytest.raises(ValueError, match="not genes"):
        genes_for({"name": "aco"}, {"w_rival": (0, 1)})
    with pytest.raises(ValueError, match="no genes"):
        genes_for({"name": "random"})


def test_genomes_of_structured_genes_make_specs():
    genes = genes_for({"name": "turnsearch", "depth": 2})
    spec = genome_to_spec([2.4, -1.0, 0.0, 3.0], genes, {"name": "turnsearch", "depth": 2})
    assert spec == {"name": "turnsearch", "depth": 2, "weights": {"distance": 2, "attack": -1, "mobility": 0,
                                                                  "bounce": 3}}
    assert make(spec).spec["weights"] == {"distance": 2, "attack": -1, "bounce": 3}


def test_the_turn_search_evaluation_can_be_tuned():
    result = tune({"name": "turnsearch", "depth": 1}, generations=1, games=2, rules={"width": 4, "height": 6},
                  seed=3, population=4, offspring=2, executor=SerialExecutor(), progress=False,
                  opponent={"name": "random"})
    assert set(result.best_spec) >= {"name", "depth"} and result.best_spec["depth"] == 1
    assert set(result.best_spec.get("weights", {})) <= {"distance", "attack", "mobility", "bounce"}
    make(result.best_spec)


@pytest.mark.parametrize("kw, error, words", [
    ({"generations": -1}, ValueError, "generations"),
    ({"games": 0}, ValueError, "games"),
    ({"offspring": 3}, ValueError, "offspring"),
    ({"spec": {"name": "mcts", "solver": "yes"}}, SpecError, "solver"),
    ({"opponent": {"name": "nobody"}}, SpecError, "nobody"),
    ({"spec": {**FERDIST, "system": "acs"}}, SpecError, "system"),
    ({"spec": {"name": "greedy"}}, ValueError, "no genes"),
])
def test_bad_settings(kw, error, words):
    with pytest.raises(error, match=words):
        tune(**{**TINY, "executor": SerialExecutor(), **kw})


def test_command_line(tmp_path):
    parser = build_parser()
    out = tmp_path / "tuned.json"
    args = parser.parse_args([
        "tune", "aco", "--variant", "base", "--generations", "1", "--games", "2", "--rules", "standard",
        "--opponent", '{"name": "random"}', "--population", "4", "--offspring", "2", "--workers", "1",
        "--bounds", '{"n_ants": [2, 4], "iterations": [1, 2]}', "--out", str(out), "--quiet",
        "--checkpoint", str(tmp_path / "ck.json")])
    assert args.func(args) == 0
    data = json.loads(out.read_text())
    assert data["best_spec"]["name"] == "aco" and len(data["logbook"]) == 2
    assert (tmp_path / "ck.json").exists()
    help_text = parser._subparsers._group_actions[0].choices["tune"].format_help()
    assert "--checkpoint" in help_text and "tournament selection" in help_text


def test_the_hall_of_fame_is_re_evaluated_on_fresh_games(tmp_path):
    """confirm plays each hall-of-fame member and each extra candidate on new games against the
    run's opponent, picks the best by the GA's own fitness on those games, and resumes."""
    from fepaper.experiments.thesis.tuned import confirm

    run = tune({"name": "aco", "variant": "base"}, generations=1, games=2, rules="standard", seed=3,
               population=4, offspring=2, bounds={"n_ants": (2, 4), "iterations": (1, 2)},
               opponent={"name": "random"}, executor=SerialExecutor(), progress=False, hof_size=3)
    thesis = {"name": "aco", "variant": "base", "n_ants": 3, "iterations": 1}
    out = tmp_path / "confirm.csv"
    found = confirm(run, games=4, seed=77, out=out, executor=SerialExecutor(), extra={"thesis": thesis})
    fitness = [c["fitness"] for c in found["candidates"]]
    assert fitness == sorted(fitness, reverse=True) and found["tuned_spec"] == found["candidates"][0]["spec"]
    assert all(c["games"] == 4 for c in found["candidates"])
    sources = {c["source"] for c in found["candidates"]}
    assert {"hall of fame 1"} <= sources and len(found["candidates"]) <= 4
    again = confirm(run, games=4, seed=77, out=out, executor=SerialExecutor(), extra={"thesis": thesis})
    assert repr(again) == repr(found)  # NaN (the GA fitness of an extra candidate) is not equal to itself


def test_a_candidate_the_hall_already_holds_is_played_once_under_both_names():
    from fepaper.experiments.thesis.tuned import confirm

    run = tune({"name": "aco", "variant": "base"}, generations=0, games=2, rules="standard", seed=5,
               population=4, offspring=2, bounds={"n_ants": (2, 4), "iterations": (1, 2)},
               opponent={"name": "random"}, executor=SerialExecutor(), progress=False, hof_size=2)
    found = confirm(run, games=2, seed=8, executor=SerialExecutor(), extra={"thesis": run.hall_of_fame[1]["spec"]})
    assert sorted(c["source"] for c in found["candidates"]) == ["hall of fame 1", "hall of fame 2 (thesis)"]
