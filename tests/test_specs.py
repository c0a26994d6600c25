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


@pytest.fixture
def slow_first_call():
    """A controller whose first decision without a time limit costs 0.3 s, as a first compile does."""
    import time

    from fepaper.controllers import Controller, register
    from fepaper.controllers.params import Int
    from fepaper.search import SearchResult

    class SlowFirstCall(Controller):
        name = "_slow_first_call"
        PARAMS = (Int("iterations", 100, 1, 1000),)
        WARM = {"iterations": 1}
        compiled: list = []

        def decide(self, game):
            if not self.compiled:
                time.sleep(0.3)
                self.compiled.append(self.spec)
            self.rng.random()
            return SearchResult(next(iter(game.turns())).steps, None, self.iterations)

    register(SlowFirstCall)
    yield SlowFirstCall
    del REGISTRY[SlowFirstCall.name]


def test_a_time_limited_controller_warms_up_before_its_clock(slow_first_call):
    bot = make({"name": slow_first_call.name, "time_limit": 0.1, "seed": 3})
    state = bot.rng.bit_generator.state
    bot.choose_turn(Game("standard", "0"))
    assert slow_first_call.compiled == [{"name": slow_first_call.name, "iterations": 1, "seed": 0}]  # the twin's
    assert bot.last.seconds < 0.2 and bot.last.nodes == 100  # the warm-up's 0.3 s are not the decision's
    assert len(bot.decisions) == 1
    fresh = make({"name": slow_first_call.name, "seed": 3})
    fresh.rng.bit_generator.state = state
    assert bot.rng.random() == (fresh.rng.random(), fresh.rng.random())[1]  # one draw: its own decision's
    assert bot.warm_up(Rules.preset("standard")) == 0.0  # once per process, spec and rules


def test_warm_up_decides_with_every_choice_of_every_searching_family():
    from fepaper.controllers.warmup import warm_specs

    specs = list(warm_specs())
    for spec in specs:
        make(spec)  # each a valid spec
    families = {s["name"] for s in specs}
    assert families == {name for name, cls in REGISTRY.items() if cls.WARM is not None}
    assert {"alphabeta", "bestfirst", "mcts", "turnsearch", "minimax", "foo", "greedy"} <= families
    variants = {s.get("variant") for s in specs if s["name"] == "alphabeta"}
    assert variants == {None, "static", "costs", "nocycles"}
    assert {s.get("costs") for s in specs if s["name"] == "alphabeta"} > {None}  # in the costs variant
