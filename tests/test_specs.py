"""Strict specs: declared parameters refuse what they do not declare, one line naming the field."""

import math

import pytest

from fepaper.controllers import REGISTRY, SpecError, genes_of, make
from fepaper.game import Game, IllegalTurn, Rules


@pytest.mark.parametrize("spec, words", [
    ({"name": "mcts", "solver": "false"}, "solver must be true or false"),
    ({"name": "turnsearch", "ordering": "no"}, "ordering must be true or false"),
    ({"name": "mcts", "time_limit": True}, "time_limit must be a finite number"),
    ({"name": "mcts", "time_limit": math.inf}, "time_limit must be a finite number"),
    ({"name": "mcts", "time_limit": 0}, "time_limit"),
    ({"name": "mcts", "c": True}, "c must be a finite number"),
    ({"name": "random", "seed": True}, "seed must be an integer from 0 to 9223372036854775807"),
    ({"name": "random", "seed": [1, 2]}, "seed must be an integer"),
    ({"name": "random", "seed": 2**70}, "seed must be an integer"),
    ({"name": "random", "seed": -1}, "seed must be an integer"),
    ({"name": "alphabeta", "depth": 2.5}, "depth must be an integer"),
    ({"name": []}, "unknown controller"),
    ('{"name": "random", "name": "greedy"}', "duplicate key 'name'"),
    ("[" * 100_000, "unknown controller"),
    ('{"name": "random", "mode": "steps", "oops": 1}', r"unknown parameter\(s\) \['oops'\]"),
    ({"name": "aco", "variant": "base", "w_rival": 2.0}, "w_rival does not apply here"),
])
def test_bad_specs_are_refused_naming_the_field(spec, words):
    with pytest.raises(SpecError, match=words):
        make(spec)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_spec_round_trips_and_every_gene_is_in_range(name):
    controller = make({"name": name, "seed": 5})
    spec = controller.spec
    assert make(spec).spec == spec and spec["seed"] == 5
    for gene in genes_of({"name": name}):
        assert gene.low < gene.high
        field = gene.name.partition(".")[0]
        assert field in controller.declared()


def test_whole_numbers_given_as_floats_are_integers():
    assert make({"name": "alphabeta", "depth": 3.0}).spec["depth"] == 3


def test_push_takes_turns_not_numbers_and_rules_presets_are_names():
    game = Game("thesis")
    with pytest.raises(IllegalTurn, match="got int 5"):
        game.push(5)
    assert game.moves == ""
    with pytest.raises(ValueError, match="preset must be a name"):
        Rules.from_spec({"preset": ["thesis"]})
    with pytest.raises(ValueError, match="duplicate key 'width'"):
        Rules.from_spec('{"width": 8, "width": 10}')
    with pytest.raises(ValueError, match="from 2 to 100"):
        Rules(width=200)
