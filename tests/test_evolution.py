"""Genetic programming: a seeded evolution is reproducible and resumes where it stopped; the paired
fitness compares candidates on common openings; a checkpoint is refused whole when wrong."""

import json

import pytest

from fepaper.experiments.gp.evolution import (
    EVOLUTION_FORMAT,
    evolve,
    individual_spec,
    read_evolution_checkpoint,
)
from fepaper.experiments.thesis.checkpoints import CheckpointError, write_json_atomic
from fepaper.experiments.thesis.fitness import evaluate_genomes
from fepaper.play.arena import opening_bank
from fepaper.play.pools import SerialExecutor

OPPONENT = {"name": "alphabeta", "variant": "dynamic", "depth": 1}
TINY = {"rules": "standard", "seed": 3, "population": 4, "offspring": 2, "games": 2, "opponent": OPPONENT,
        "executor": SerialExecutor(), "progress": False}


def test_a_seeded_evolution_is_reproducible_and_resumes_where_it_stopped(tmp_path):
    whole = evolve("thesis", generations=2, **TINY)
    again = evolve("thesis", generations=2, **TINY)
    assert whole.to_dict() == again.to_dict()
    assert [row["gen"] for row in whole.logbook] == [0, 1, 2]
    assert whole.logbook[0]["nevals"] == 4 and whole.config["individual"]["tree"] == "attack"
    checkpoint = tmp_path / "evolution.json"
    evolve("thesis", generations=0, checkpoint=checkpoint, **TINY)
    evolve("thesis", generations=1, checkpoint=checkpoint, **TINY)
    resumed = evolve("thesis", generations=2, checkpoint=checkpoint, **TINY)
    assert resumed.to_dict() == whole.to_dict()
    with pytest.raises(CheckpointError, match="is at generation 2, past the 1 asked for"):
        evolve("thesis", generations=1, checkpoint=checkpoint, **TINY)  # not a longer run's result
    assert all(row["height"] <= 6 for row in whole.logbook)  # the bloat limit holds


def test_a_checkpoint_of_another_run_or_edited_is_refused(tmp_path):
    checkpoint = tmp_path / "evolution.json"
    evolve("thesis", generations=0, checkpoint=checkpoint, **TINY)
    with pytest.raises(CheckpointError, match=r"belongs to another run: it differs in \['seed'\]"):
        evolve("thesis", generations=1, checkpoint=checkpoint, **{**TINY, "seed": 4})
    data = json.loads(checkpoint.read_text())
    data["population"][0]["tree"] = "add(attack)"
    del data["checksum"]
    write_json_atomic(checkpoint, data)  # sealed again: only the tree's own check can refuse it
    assert data["format"] == EVOLUTION_FORMAT
    with pytest.raises(CheckpointError, match="add takes 2 arguments, got 1"):
        read_evolution_checkpoint(checkpoint)


def test_the_paired_fitness_plays_every_candidate_on_the_same_openings():
    openings = opening_bank("standard", 2, 2, seed=3)
    spec = individual_spec("attack", OPPONENT)
    same = evaluate_genomes([spec, spec], OPPONENT, {"preset": "standard"}, 4, 3, 0, SerialExecutor(),
                            openings=openings)
    assert same[0] == same[1]
    with pytest.raises(ValueError, match="4 games need 2 openings, got 1"):
        evaluate_genomes([spec], OPPONENT, {"preset": "standard"}, 4, 3, 0, SerialExecutor(),
                         openings=openings[:1])
    with pytest.raises(ValueError, match="setting must be one of"):
        evolve("noisy", generations=0, **TINY)
    paired = evolve("paired", generations=0, **{**TINY, "population": 2, "offspring": 2})
    assert paired.config["openings"] and paired.logbook[0]["nevals"] == 2


def test_the_claims_are_declared_with_their_tests_and_the_best_tree_is_the_paired_runs():
    from fepaper.experiments.gp import claims

    duels = claims.pairings("sub(attack, bounce)", {"name": "aco", "variant": "ferdistrival"}, 40)
    assert [d.key for d in duels] == [c.key for c in claims.CLAIMS]
    assert all(d.tests["better"].elo0 == 0 and d.tests["better"].elo1 == 70 for d in duels)
    assert duels[0].a["tree"] == "sub(attack, bounce)" and duels[0].b["name"] == "alphabeta"
    assert duels[1].a["search"] == "turnsearch" and duels[2].b["variant"] == "ferdistrival"
    run = {"config": {"setting": "paired"}, "hall_of_fame": [{"tree": "attack"}]}
    assert claims.best_tree(run) == "attack"
    with pytest.raises(ValueError, match="the paired-setting run's"):
        claims.best_tree({**run, "config": {"setting": "thesis"}})
