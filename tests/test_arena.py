import csv
import json
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from fepaper.controllers import Controller, make, register
from fepaper.game.game import Game
from fepaper.play.arena import (
    ArenaError,
    GameFileError,
    opening_bank,
    play_game,
    round_robin,
    run_games,
    schedule,
    seeded_specs,
    sidecar,
)
from fepaper.play.arena import match as play_match
from fepaper.play.pools import SerialExecutor
from fepaper.search import SearchResult
from fepaper.stats.binomial import wilson
from fepaper.stats.ratings import bradley_terry, rate

from .helpers import DyingExecutor, Interrupt

A = {"name": "random", "stop_probability": 0.2}
B = {"name": "random", "mode": "turns"}


@register
class _Cheat(Controller):
    """A controller that answers an illegal turn (for the arena's error path)."""

    name = "test-cheat"

    def decide(self, game):
        return SearchResult("44444444")


def test_play_game_row_replays():
    row = play_game("thesis", A, B, seed=5, opening="0 54", a_player=2)
    game = Game("thesis", row["moves"])
    assert game.is_over and row["moves"].startswith("0 54 ")
    assert row["turns"] == len(game.history) - 2
    assert row["steps"] == sum(len(t) for t in game.history[2:])
    winner = game.result.winner
    assert row["winner"] == ("draw" if winner is None else "a" if winner == 2 else "b")
    assert row["reason"] == game.result.reason
    again = play_game("thesis", A, B, seed=5, opening="0 54", a_player=2)
    assert again["moves"] == row["moves"]


def test_a_games_decisions_play_again_from_its_seeded_specs():
    row = play_game("standard", A, B, seed=8, opening="0 2", a_player=2)
    seeded = dict(zip((2, 1), seeded_specs(A, B, 8)))
    players = {p: make(spec) for p, spec in seeded.items()}
    game = Game("standard", "0 2")
    for turn in row["moves"].split()[2:]:
        assert players[game.player].choose_turn(game) == turn
        game.push(turn)
    assert seeded_specs({**A, "seed": 4}, B, 8)[0]["seed"] == 4


def test_illegal_turn_is_an_error_naming_the_side():
    with pytest.raises(ArenaError, match="B .*test-cheat.* illegal turn"):
        play_game("standard", A, {"name": "test-cheat"}, seed=1)


def test_schedule_swaps_colours_and_shares_openings():
    jobs = schedule("standard", [A], [B], games=6, seed=2)
    assert [j["a_player"] for j in jobs] == [1, 2, 1, 2, 1, 2]
    assert jobs[0]["opening"] == jobs[1]["opening"] != jobs[2]["opening"]
    assert len({j["seed"] for j in jobs}) == 6
    bank = opening_bank("standard", 5, turns=2, seed=2)
    assert len(set(bank)) == 5 and all(len(o.split()) == 2 for o in bank)


def test_serial_and_parallel_give_the_same_rows():
    strip = lambda rows: [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in rows]  # noqa: E731
    serial = play_match("standard", A, B, games=6, seed=9, executor=SerialExecutor(), progress=False)
    with ProcessPoolExecutor(2) as pool:
        parallel = play_match("standard", A, B, games=6, seed=9, executor=pool, progress=False)
    assert strip(serial["rows"]) == strip(parallel["rows"])
    assert serial["games"] == 6 and serial["wins_a"] + serial["wins_b"] + serial["draws"] == 6


@pytest.mark.parametrize("played", [0, 1, 5])
def test_a_serial_run_writes_each_game_before_the_next(tmp_path, played):
    out = tmp_path / "m.csv"
    jobs = schedule("standard", [A], [B], games=8, seed=4)
    full = run_games(jobs, None, SerialExecutor(), progress=False)
    with pytest.raises(Interrupt):
        run_games(jobs, out, DyingExecutor(played), progress=False)
    with out.open() as f:
        assert len(list(csv.DictReader(f))) == played  # every finished game is on file
    resumed = run_games(jobs, out, SerialExecutor(), progress=False)
    with out.open() as f:
        lines = list(csv.DictReader(f))
    assert [(int(r["pairing"]), int(r["game"])) for r in lines] == [(0, k) for k in range(8)]
    assert [r["moves"] for r in resumed] == [r["moves"] for r in full]


class _Counting(SerialExecutor):
    """Records the arguments of every task submitted."""

    def __init__(self):
        self.submitted = []

    def submit(self, fn, /, *args, **kwargs):
        self.submitted.append(args)
        return super().submit(fn, *args, **kwargs)


def test_few_tasks_are_in_flight():
    from fepaper.play.arena import _as_finished

    counting = _Counting()
    tasks = [[k] for k in range(6)]
    ahead = [len(counting.submitted) - k for k, _ in enumerate(_as_finished(counting, len, tasks, 2))]
    assert max(ahead) == 2 and len(counting.submitted) == 6


def test_in_order_yields_in_the_tasks_order_with_few_in_flight():
    from fepaper.play.arena import in_order
    from fepaper.play.pools import worker_pool

    counting = _Counting()
    tasks = [(2, k) for k in range(6)]
    ahead = [len(counting.submitted) - k for k, _ in enumerate(in_order(counting, pow, tasks))]
    assert max(ahead) == 1 and len(counting.submitted) == 6  # a serial run: one task before its result is kept
    with worker_pool(2) as pool:
        assert list(in_order(pool, pow, iter(tasks))) == [2 ** k for k in range(6)]


def test_another_runs_file_is_refused(tmp_path):
    out = tmp_path / "m.csv"
    run_games(schedule("standard", [A], [B], games=2, seed=1), out, SerialExecutor(), progress=False)
    with pytest.raises(GameFileError, match="describes another run"):
        run_games(schedule("standard", [A], [B], games=2, seed=2), out, SerialExecutor(), progress=False)


def test_sidecar_describes_the_run(tmp_path):
    out = tmp_path / "m.csv"
    play_match("standard", A, B, games=2, seed=1, out=out, executor=SerialExecutor(), progress=False,
               budget="smoke")
    meta = json.loads(sidecar(out).read_text())
    assert meta["seed"] == 1 and meta["games"] == 2 and meta["budget"] == "smoke"
    assert meta["rules"]["width"] == 8 and meta["specs"][0]["name"] == "random"
    assert meta["scheduled"] == 2 and meta["fingerprint"].startswith("sha256:")
    with pytest.raises(GameFileError, match=r"another run \(it differs in budget\)"):
        play_match("standard", A, B, games=2, seed=1, out=out, executor=SerialExecutor(), progress=False,
                   budget="quick")


@pytest.mark.parametrize("kw, words", [
    ({"games": "2"}, "games must be an integer"),
    ({"games": 0}, "games must be an integer >= 1"),
    ({"seed": 1.5}, "seed must be"),
    ({"opening_turns": -1}, "opening_turns"),
])
def test_bad_settings_are_refused(kw, words):
    with pytest.raises(ValueError, match=words):
        play_match("standard", A, B, **{"games": 2, **kw}, executor=SerialExecutor(), progress=False)


@pytest.mark.parametrize("players", ["random", [], [A], {"name": "random"}])
def test_a_round_robin_needs_a_list_of_two_players(players):
    with pytest.raises(ValueError, match="at least 2 specs"):
        round_robin("standard", players, games=2, executor=SerialExecutor(), progress=False)


def test_round_robin_tables():
    specs = [A, B, {"name": "random", "stop_probability": 0.9}]
    rr = round_robin("standard", specs, games=4, seed=3, executor=SerialExecutor(), progress=False)
    assert rr["played"].sum() == 2 * 3 * 4
    assert np.allclose(rr["score"] + rr["score"].T, rr["played"])
    assert len(rr["ratings"]) == 3 and abs(sum(r["elo"] for r in rr["ratings"])) < 1e-6
    with pytest.raises(ValueError, match="same"):
        round_robin("standard", [A, A], games=2, executor=SerialExecutor(), progress=False)


def test_wilson_and_bradley_terry():
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-12
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == pytest.approx(1)
    with pytest.raises(ValueError):
        wilson(11, 10)
    # strengths that generate the expected scores are recovered
    p = np.array([4.0, 2.0, 1.0])
    m = np.array([[1000 * p[i] / (p[i] + p[j]) if i != j else 0 for j in range(3)] for i in range(3)])
    est = bradley_terry(m, prior=0)
    assert np.allclose(est / est[2], p / p[2], rtol=1e-6)
    r = rate(["x", "y"], [(0, 1, 1.0)] * 9 + [(0, 1, 0.0)])
    assert r[0]["elo"] > 0 > r[1]["elo"] and r[0]["elo_low"] <= r[0]["elo"] <= r[0]["elo_high"]


def test_tables_of_a_round_robin():
    from fepaper.experiments.thesis.tables import cross_table, player_table

    specs = [A, B]
    rr = round_robin("standard", specs, games=4, seed=3, executor=SerialExecutor(), progress=False)
    cross = cross_table(rr)
    assert cross.iloc[0, 1] + cross.iloc[1, 0] == pytest.approx(1)
    players = player_table(rr)
    assert set(players["games"]) == {4} and (players["seconds_per_decision"] >= 0).all()
    assert players["score"].sum() == pytest.approx(1)


def test_same_rows_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    strip = lambda rows: [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in rows]  # noqa: E731
    serial = play_match("standard", A, B, games=4, seed=9, executor=SerialExecutor(), progress=False)
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = play_match("standard", A, B, games=4, seed=9, executor=client.get_executor(),
                             progress=False)
    assert strip(serial["rows"]) == strip(on_dask["rows"])


@pytest.mark.parametrize("rr, words", [
    ({"players": ["x"], "rows": []}, "at least 2 players"),
    ({"players": ["x", "y"], "rows": []}, "at least one game"),
])
def test_tables_say_what_they_need(rr, words):
    from fepaper.experiments.thesis.tables import cross_table, player_table

    for table in (cross_table, player_table):
        with pytest.raises(ValueError, match=words):
            table(rr)


def test_the_progress_bar_moves_as_each_game_ends(monkeypatch):
    from fepaper.play import arena

    events = []

    class Bar:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def update(self, n):
            events.append(f"bar+{n}")

    class Recording(SerialExecutor):
        def submit(self, fn, /, *args, **kwargs):
            events.append("play")
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(arena, "_bar", lambda *args: Bar())
    run_games(schedule("standard", [A], [B], games=3, seed=1), None, Recording())
    assert events == ["play", "bar+1"] * 3


def test_the_state_loop_plays_any_state_game_and_stops_where_told():
    import random

    from fepaper.games.aboyne import Aboyne
    from fepaper.games.toygames import ConnectFour
    from fepaper.play.states import RandomStatePlayer, play_state

    seen = []
    state, player = ConnectFour(), RandomStatePlayer(np.random.default_rng(3))
    assert play_state(state, {0: player, 1: player}, max_moves=5, before=lambda s: seen.append(s.clone())) == 5
    assert len(state.history) == 5 and [len(s.history) for s in seen] == [0, 1, 2, 3, 4]
    again = ConnectFour()
    for action in state.history:  # the same draws, one by one
        legal = again.legal_actions()
        assert action in legal
        again.apply_action(action)
    game, rng = Aboyne(max_plies=50), random.Random(4)
    moves = play_state(game, {0: RandomStatePlayer(rng), 1: RandomStatePlayer(rng)})
    assert game.is_terminal() and moves == len(game.history) <= 50
