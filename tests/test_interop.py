"""The adapters of fepaper.interop against the frameworks' own checks and against fepaper's Game.

OpenSpiel's random-simulation test and serialisation round-trips on every preset, its MCTS bot
through evaluate_bots, PettingZoo's api_test and seed_test, Gymnasium's check_env; seeded random
games through each adapter replayed on a plain Game (the reference: the perft-tested rules);
the observation tensor and text board against the board graph; bad actions refused, naming the
action and the position, with nothing changed.
"""

import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper.game import Game, Rules
from fepaper.game.board import DIRECTIONS
from fepaper.game.game import Result
from fepaper.interop import actions, observation
from tests.helpers import SMALL_RULES

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from fepaper.interop import gym as fgym  # noqa: E402
from fepaper.interop import openspiel as fspiel  # noqa: E402
from fepaper.interop import pettingzoo as fpz  # noqa: E402

PRESETS = ["thesis", "standard", "foo", "codingame"]
ALL_RULES = [Rules.preset(p) for p in PRESETS] + [Rules.from_spec({"preset": "thesis", "dead_end": "stop"})]
ALL_RULES += [Rules.from_spec(spec) for spec in SMALL_RULES]


def spiel_params(rules: Rules) -> dict:
    """OpenSpiel parameters for ``rules``, written as a user would: a preset and what differs."""
    preset = "thesis" if rules.middle_line else "standard"
    base = Rules.preset(preset)
    params = {"preset": preset}
    for name, value in rules.to_dict().items():
        if value != getattr(base, name):
            params[name] = 0 if name == "max_turns" and value is None else value
    return params


def replay(rules: Rules, taken: list[int]) -> Game:
    """A plain Game fed the same steps and stops."""
    game = Game(rules)
    for a in taken:
        game.stop() if a == actions.STOP else game.step(a)
    return game


def reference_planes(game: Game) -> np.ndarray:
    """The observation tensor from the board graph, node by node and direction by direction."""
    graph = game.graph
    w, h = game.rules.width, game.rules.height
    out = np.zeros((observation.PLANES, h + 3, w + 1), np.int8)
    for x, y in graph.nodes:
        for d, (dx, dy) in enumerate(DIRECTIONS):
            q = (x + dx, y + dy)
            out[d, y + 1, x] = not graph.has_edge((x, y), q) or graph.edges[(x, y), q]["marked"]
    bx, by = game.ball
    out[8, by + 1, bx] = 1
    out[8 + game.player] = 1
    out[11] = bool(game.current) and not game.is_over
    return out


def assert_same_game(game: Game, reference: Game) -> None:
    assert game.moves == reference.moves
    assert game.result == reference.result
    assert game.ball == reference.ball and game.player == reference.player
    assert np.array_equal(game.marks, reference.marks) and np.array_equal(game.owner, reference.owner)


# -- optional dependency ---------------------------------------------------------------------------
def test_fepaper_imports_without_the_frameworks_and_each_adapter_says_what_to_install():
    code = """
import sys
for name in ("pyspiel", "open_spiel", "pettingzoo", "gymnasium"):
    sys.modules[name] = None
import fepaper, fepaper.interop, fepaper.interop.actions, fepaper.interop.observation
for name in ("openspiel", "pettingzoo", "gym"):
    try:
        __import__("fepaper.interop." + name)
    except ImportError as exc:
        print(name, "|", exc)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert [line.split(" |")[0] for line in lines] == ["openspiel", "pettingzoo", "gym"]
    assert all("pip install fepaper[interop]" in line for line in lines), out
    assert "needs open_spiel" in lines[0] and "needs pettingzoo" in lines[1] and "needs gymnasium" in lines[2]


# -- OpenSpiel -------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_parameters_give_the_rules_and_the_game_string_loads_them_again(rules):
    game = pyspiel.load_game("python_paper_soccer", spiel_params(rules))
    assert game.rules == rules
    again = pyspiel.load_game(str(game))
    assert again.rules == rules and str(again) == str(game)
    assert game.max_game_length() == fspiel.max_game_length(rules)


def test_parameters_default_to_the_preset_and_bad_ones_are_named():
    assert pyspiel.load_game("python_paper_soccer").rules == Rules.preset("thesis")
    game = pyspiel.load_game("python_paper_soccer(preset=foo,middle_line=False,width=0)")
    assert game.rules == Rules.preset("foo")
    no_line = pyspiel.load_game("python_paper_soccer", {"middle_line": False}).rules
    assert no_line == Rules.preset("thesis").replace(middle_line=False)
    assert pyspiel.load_game("python_paper_soccer", {"preset": "codingame", "max_turns": 0}).rules.max_turns is None
    for params, word in (({"width": 5}, "width"), ({"preset": "nope"}, "preset 'nope'"),
                         ({"bounce": "sometimes"}, "bounce"), ({"max_turns": -3}, "max_turns"),
                         ({"colour": 1}, "colour")):
        with pytest.raises((ValueError, pyspiel.SpielError), match=word):
            pyspiel.load_game("python_paper_soccer", params)


@pytest.mark.parametrize("rules", ALL_RULES[:5], ids=str)
def test_openspiel_random_simulation_test_with_serialisation_passes_on_every_preset(rules):
    game = pyspiel.load_game("python_paper_soccer", spiel_params(rules))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@given(st.sampled_from(ALL_RULES), st.integers(0, 2**32 - 1))
def test_seeded_random_games_through_openspiel_equal_game_fed_the_same_steps(rules, seed):
    rng = np.random.default_rng(seed)
    spiel_game = pyspiel.load_game("python_paper_soccer", spiel_params(rules))
    state = spiel_game.new_initial_state()
    reference = Game(rules)
    taken, checked = [], False
    while not state.is_terminal():
        legal = state.legal_actions()
        expected = [d for d in range(8) if reference.explain_step(d) is None]
        assert legal == expected + ([actions.STOP] if reference.can_stop else [])
        assert state.current_player() == reference.player - 1
        if not checked and rng.random() < 0.2:  # the tensor against the board graph, once a game
            assert np.array_equal(np.asarray(state.observation_tensor(), np.int8).reshape(-1),
                                  reference_planes(reference).reshape(-1))
            checked = True
        action = int(rng.choice(legal))
        state.apply_action(action)
        reference.stop() if action == actions.STOP else reference.step(action)
        taken.append(action)
    assert state.history() == taken and len(taken) <= spiel_game.max_game_length()
    assert np.array_equal(np.asarray(state.observation_tensor(0), np.int8).reshape(-1),
                          reference_planes(reference).reshape(-1))
    assert_same_game(state.game, replay(rules, taken))
    winner = reference.result.winner
    assert state.returns() == ([0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 1 else [-1.0, 1.0])


def test_the_playthrough_file_replays_to_the_same_text():
    """OpenSpiel's playthrough of a game of bounces and stops (4 x 4, optional bounce): every
    state, observation, legal action and return, as text. After a deliberate change of the
    adapter, write it again with ``generate_playthrough.playthrough(game_string, actions)``
    (the game string is the file's first line, the actions its ``action:`` lines)."""
    from pathlib import Path

    from open_spiel.python.algorithms import generate_playthrough

    path = Path(__file__).parent / "data" / "playthrough_python_paper_soccer.txt"
    original = path.read_text()
    lines = original.splitlines()
    game_string = lines[0].removeprefix("game: ")
    taken = [int(line.removeprefix("action: ")) for line in lines if line.startswith("action: ")]
    assert generate_playthrough.playthrough(game_string, taken) == original
    assert "action: 8" in original and "Rewards() = [1, -1]" in original


def test_a_state_serialised_in_the_middle_of_a_bounce_comes_back_equal():
    game = pyspiel.load_game("python_paper_soccer")
    state = game.new_initial_state()
    for a in (0, 5, 4):  # the record "0 54"
        state.apply_action(a)
    state.apply_action(1)  # up-right from (4, 9) onto the kick-off node, marked: a bounce
    assert state.game.current and state.game.can_stop
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history() and str(state2) == str(state)
    assert state2.legal_actions() == state.legal_actions() and actions.STOP in state2.legal_actions()
    assert_same_game(state2.game, state.game)
    clone = state.clone()
    clone.apply_action(actions.STOP)
    assert state.game.current and not clone.game.current and state.history() != clone.history()


def test_the_observation_string_draws_the_edges_and_the_ball():
    rng = np.random.default_rng(3)
    for rules in ALL_RULES:
        game = Game(rules)
        for _ in range(int(rng.integers(1, 40))):
            if game.is_over:
                break
            a = int(rng.choice(actions.legal_actions(game)))
            actions.apply_action(game, a)
        lines = observation.text(game).splitlines()
        board = "\n".join(lines[1:])
        played = int(np.count_nonzero((game.owner == 1) | (game.owner == 2)))
        drawn = sum(board.count(c) for c in "-|/\\") + 2 * board.count("X")
        assert drawn == played
        assert board.count("=") + board.count("#") == game.board.n_walls
        bx, by = game.ball
        assert board.count("O") == 1 and lines[1 + 2 * (by + 1)][2 * bx] == "O"
        assert lines[0] == (str(game.result) if game.is_over
                            else f"player {game.player} to move" + (", bouncing" if game.current else ""))


def test_mcts_bot_plays_through_evaluate_bots_against_itself_and_a_controller():
    rules = Rules.from_spec(SMALL_RULES[0])
    game = pyspiel.load_game("python_paper_soccer", spiel_params(rules))

    def bot(seed):
        rs = np.random.RandomState(seed)
        return mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)

    for bots in ([bot(1), bot(2)], [bot(3), fspiel.ControllerBot({"name": "random", "seed": 4})],
                 [fspiel.ControllerBot({"name": "random", "seed": 5}), bot(6)]):
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
        assert state.is_terminal() and sum(returns) == 0
        reference = replay(rules, state.history())
        assert_same_game(state.game, reference)
        assert returns == state.returns()


# -- PettingZoo ------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["standard", SMALL_RULES[0]], ids=["standard", "small-optional"])
def test_pettingzoo_api_test_and_seed_test_pass(rules):
    api_test(fpz.env(rules), num_cycles=300)
    seed_test(lambda: fpz.env(rules), num_cycles=100)


@given(st.sampled_from(ALL_RULES + [Rules.preset("standard").replace(max_turns=3)]), st.integers(0, 2**32 - 1))
def test_seeded_random_games_through_pettingzoo_equal_game_fed_the_same_steps(rules, seed):
    rng = np.random.default_rng(seed)
    env = fpz.env(rules)
    env.reset(seed=seed)
    taken, rewards, ends = [], {}, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent], ends[agent] = reward, (terminated, truncated)
            env.step(None)
            continue
        assert agent == f"player_{env.unwrapped.game.player}"
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == actions.legal_actions(env.unwrapped.game)
        assert np.array_equal(obs["observation"], observation.planes(env.unwrapped.game))
        action = int(rng.choice(legal))
        env.step(action)
        taken.append(action)
    game = env.unwrapped.game
    reference = replay(rules, taken)
    assert_same_game(game, reference)
    assert np.array_equal(env.unwrapped.observe("player_1")["observation"], reference_planes(reference))
    winner = reference.result.winner
    assert rewards == {"player_1": 0 if winner is None else (1 if winner == 1 else -1),
                       "player_2": 0 if winner is None else (1 if winner == 2 else -1)}
    limited = reference.result.reason == "turn limit"
    assert ends == {a: (not limited, limited) for a in fpz.AGENTS} and env.agents == []


def test_pettingzoo_renders_text_and_pictures():
    for mode in ("ansi", "rgb_array"):
        env = fpz.env("standard", render_mode=mode)
        env.reset(seed=0)
        env.step(0)
        picture = env.render()
        if mode == "ansi":
            assert picture == observation.text(env.unwrapped.game)
        else:
            assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
            assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 3  # a drawing, not a blank
    with pytest.raises(ValueError, match="render_mode"):
        fpz.env("standard", render_mode="human")


# -- Gymnasium -------------------------------------------------------------------------------------
@pytest.mark.parametrize("player", [1, 2])
def test_gymnasium_check_env_passes(player):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(fgym.ENV_ID, rules="standard", player=player, illegal="lose")
    check_env(env.unwrapped)


@given(st.sampled_from(ALL_RULES[:4] + [SMALL_RULES[0]]), st.sampled_from([1, 2]), st.integers(0, 2**32 - 1))
def test_seeded_gym_episodes_replay_and_their_rewards_follow_the_result(rules, player, seed):
    def episode():
        env = fgym.PaperSoccerEnv(rules, opponent={"name": "random"}, player=player)
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            assert np.array_equal(obs, observation.planes(env.game))
            assert env.game.player == player and np.array_equal(env.action_masks(), info["action_mask"] == 1)
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += reward
            done = terminated or truncated
        return env.game, total, truncated

    game, total, truncated = episode()
    again, _, _ = episode()
    assert again.moves == game.moves
    assert_same_game(game, Game(game.rules, game.moves))
    winner = game.result.winner
    assert total == (0.0 if winner is None else 1.0 if winner == player else -1.0)
    assert truncated == (game.result.reason == "turn limit")


# -- bad actions -----------------------------------------------------------------------------------
def test_bad_actions_through_openspiel_name_the_action_and_the_position_and_change_nothing():
    game = pyspiel.load_game("python_paper_soccer")
    state = game.new_initial_state()
    for action, words in ((2, "action 2 (right) is illegal at ball (5, 8), player 1 to move, moves ''"),
                          (8, "action 8 (stop) is illegal at ball (5, 8)"),
                          (9, "action 9 is not an action id"), (-2, "action -2 is not an action id"),
                          (-1, "action -1 is not an action id")):  # before OpenSpiel's kInvalidAction
        with pytest.raises(pyspiel.SpielError, match=words.replace("(", r"\(").replace(")", r"\)")):
            state.apply_action(action)
        assert state.history() == [] and state.game.moves == "" and state.legal_actions() == [0, 1, 3, 4, 5, 7]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    before = (state.history(), str(state))
    with pytest.raises(pyspiel.SpielError, match=r"action 0 \(up\) comes after the end of the game"):
        state.apply_action(0)
    assert (state.history(), str(state)) == before


def test_bad_actions_through_pettingzoo_name_the_action_and_the_position_and_change_nothing():
    env = fpz.env("thesis")
    env.reset(seed=0)
    before = env.observe("player_1")
    for action, words in ((6, r"action 6 \(left\) is illegal at ball \(5, 8\)"), (8, "stop"),
                          (11, "not an action id")):
        with pytest.raises(actions.IllegalAction, match=words):
            env.step(action)
        assert env.unwrapped.game.moves == "" and env.agent_selection == "player_1"
        assert all(np.array_equal(before[k], v) for k, v in env.observe("player_1").items())
    while not any(env.unwrapped.terminations.values()):
        env.step(actions.legal_actions(env.unwrapped.game)[0])
    moves = env.unwrapped.game.moves
    with pytest.raises(actions.IllegalAction, match=r"action 0 \(up\) comes after the end of the game"):
        env.step(0)
    assert env.unwrapped.game.moves == moves and len(env.agents) == 2


def test_bad_actions_through_gymnasium_raise_or_lose_as_asked():
    env = fgym.PaperSoccerEnv("thesis", opponent="random")
    env.reset(seed=0)
    with pytest.raises(actions.IllegalAction, match=r"action 2 \(right\) is illegal at ball \(5, 8\)"):
        env.step(2)
    assert env.game.moves == ""
    lose = fgym.PaperSoccerEnv("thesis", opponent="random", illegal="lose")
    lose.reset(seed=0)
    obs, reward, terminated, truncated, info = lose.step(2)
    assert (reward, terminated, truncated) == (-1.0, True, False) and "middle line" in info["illegal"]
    assert lose.game.moves == "" and np.array_equal(obs, observation.planes(Game("thesis")))
    assert lose.result == Result(2, "illegal action") and not lose.action_masks().any()
    for action in (0, 9, None):  # the episode is over: every action refused, nothing changes
        with pytest.raises(actions.IllegalAction, match="comes after the end of the episode"):
            lose.step(action)
    assert lose.game.moves == "" and lose.result.reason == "illegal action"
    lose.reset(seed=0)
    assert lose.result is None and lose.action_masks().any()
    with pytest.raises(actions.IllegalAction, match="not an action id"):
        env.step(9)
    while not env.game.is_over:
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    moves = env.game.moves
    with pytest.raises(actions.IllegalAction, match="comes after the end of the game"):
        env.step(0)
    assert env.game.moves == moves
    with pytest.raises(ValueError, match="illegal must be one of"):
        fgym.PaperSoccerEnv("thesis", illegal="ignore")


#: What no adapter takes for an action, though pybind or ``==`` would have made one of some of them.
NOT_ACTIONS = (True, False, np.bool_(True), 1.0, np.float32(2.0), np.float64(0.0), float("nan"), None, "1",
               2**63, [1])


def test_every_adapter_refuses_what_is_not_an_integer_action_naming_it_and_the_position():
    state = pyspiel.load_game("python_paper_soccer", {"preset": "standard"}).new_initial_state()
    gym_env = fgym.PaperSoccerEnv("standard", illegal="lose")
    gym_env.reset(seed=0)
    pz_env = fpz.env("standard")
    pz_env.reset(seed=0)
    for action in NOT_ACTIONS:
        words = rf"action {re.escape(repr(action))} is not an action id.*at ball \(4, 5\), player 1 to move"
        with pytest.raises(pyspiel.SpielError, match=words):
            state.apply_action(action)
        for env in (gym_env, pz_env):
            with pytest.raises(actions.IllegalAction, match=words):
                env.step(action)
    assert state.history() == [] and gym_env.game.moves == "" and gym_env.result is None
    assert pz_env.unwrapped.game.moves == ""
    state.apply_action(np.int64(0))  # numpy's integers are integers
    assert state.history() == [0]


def test_openspiel_refuses_a_loaded_state_that_disagrees_with_its_game():
    import base64
    import pickle

    game = pyspiel.load_game("python_paper_soccer", {"preset": "standard"})
    state = game.new_initial_state()
    state.apply_action(0)
    text = pyspiel.serialize_game_and_state(game, state)
    assert pyspiel.deserialize_game_and_state(text)[1].game.moves == "0"

    def crafted(held) -> str:
        field = "__dict__=" + base64.b64encode(pickle.dumps({"_held": held})).decode()
        return "\n".join(field if line.startswith("__dict__=") else line for line in text.split("\n"))

    narrow = Rules.from_spec({"preset": "standard", "width": 4, "height": 6})
    with pytest.raises(ValueError, match="rules .*'width': 4.* are not the game's .*'width': 8"):
        pyspiel.deserialize_game_and_state(crafted(fspiel._replay(narrow.to_dict(), ["0"], "")))
    with pytest.raises(ValueError, match=r"moves '1' .* are not those of its history of actions \[0\]"):
        pyspiel.deserialize_game_and_state(crafted(fspiel._replay(game.rules.to_dict(), ["1"], "")))
    with pytest.raises(ValueError, match="expected a fepaper game"):
        pyspiel.deserialize_game_and_state(crafted(5))
    assert fspiel.PaperSoccerGame({"max_turns": 10**6}).rules.max_turns == 10**6
    with pytest.raises(ValueError, match="max_turns must be an integer from 1 to 1000000"):
        fspiel.PaperSoccerGame({"max_turns": 2**62})


def test_pettingzoo_last_after_the_end_is_the_end_not_a_key_error():
    env = fpz.env("standard")
    env.reset(seed=0)
    while not any(env.terminations.values()):
        env.step(actions.legal_actions(env.unwrapped.game)[0])
    ends = []
    for _ in range(3):  # each agent's dead step, then one more look
        _, reward, terminated, truncated, _ = env.last()
        ends.append((terminated, truncated))
        if env.agents:
            env.step(None)
    assert ends == [(True, False)] * 3 and env.agents == []


def test_the_interop_benchmark_plays_the_same_games_three_ways():
    from fepaper.bench.interop import bench_interop

    figures = bench_interop(repeat=1, games=3, rules=SMALL_RULES[0])
    assert figures["steps"] > 0 and figures["games"] == 3
    for key in ("game_steps_per_s", "openspiel_steps_per_s", "pettingzoo_steps_per_s"):
        assert figures[key] > 0
    assert figures["openspiel_over_game"] > 0 and figures["pettingzoo_over_game"] > 0


@given(st.sampled_from(ALL_RULES), st.integers(0, 2**32 - 1))
def test_the_action_mask_marks_exactly_the_legal_actions(rules, seed):
    rng = np.random.default_rng(seed)
    game = Game(rules)
    while True:
        mask = actions.action_mask(game)
        assert mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == actions.legal_actions(game)
        if game.is_over:
            assert not mask.any()
            break
        actions.apply_action(game, int(rng.choice(actions.legal_actions(game))))
