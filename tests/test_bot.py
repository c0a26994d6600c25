"""Two `fepaper bot` processes play each other through a small referee."""

import io
import os
import subprocess
import sys

import pytest

from fepaper.engines.bot import ProtocolError, run_bot
from fepaper.game.game import Game


def spawn(spec: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "fepaper.cli", "bot", spec, "--rules", "codingame", "--ms-first", "500",
         "--ms", "50"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
    )


def referee(spec_1: str, spec_2: str) -> Game:
    bots = {1: spawn(spec_1), 2: spawn(spec_2)}
    try:
        bots[1].stdin.write("0\n")
        bots[2].stdin.write("1\n")
        game = Game("codingame")
        last = "-"
        while not game.is_over:
            bot = bots[game.player]
            bot.stdin.write(f"{1 if last == '-' else len(last)}\n{last}\n")
            bot.stdin.flush()
            turn = bot.stdout.readline().strip()
            assert turn, f"player {game.player} sent nothing"
            game.push(turn)  # raises if the bot's turn is illegal
            last = turn
        for bot in bots.values():
            bot.stdin.close()
            assert bot.wait(timeout=30) == 0
        return game
    finally:
        for bot in bots.values():
            if bot.poll() is None:
                bot.kill()


def test_two_bots_play_a_legal_game_to_the_end():
    game = referee('{"name": "random", "seed": 1}', '{"name": "random", "mode": "turns", "seed": 2}')
    assert game.is_over
    assert game.result.reason in ("goal", "own goal", "blocked", "turn limit")
    assert len(game.history) <= 66


def test_bot_in_process_answers_each_turn():
    out = io.StringIO()
    game = run_bot({"name": "random", "seed": 3}, "codingame", stdin=io.StringIO("1\n1\n0\n"), stdout=out)
    assert game.history[0] == "0" and out.getvalue().strip() == game.history[1]


def test_bot_refuses_bad_input():
    with pytest.raises(ProtocolError, match="player id"):
        run_bot({"name": "random"}, stdin=io.StringIO("x\n"), stdout=io.StringIO())
    with pytest.raises(ProtocolError, match="does not match"):
        run_bot({"name": "random"}, stdin=io.StringIO("1\n3\n0\n"), stdout=io.StringIO())


def test_the_warm_up_runs_what_only_a_later_decision_runs():
    # a kept tree is taken up two turns on: compiling that on the clock made every game forfeit
    from fepaper.engines.bot import warm_up

    game = Game("codingame", "2 0")
    spec = {"name": "bestfirst", "evaluator": "distance", "reuse": True, "iterations": 300, "seed": 5}
    first, second = warm_up(spec, game)
    assert game.moves == "2 0"
    assert len(first.decisions) == 2 and len(second.decisions) == 1
    assert first.decisions[0].details["reused"] == 0 and first.decisions[1].details["reused"] > 0


@pytest.mark.slow
def test_the_warm_up_of_a_fresh_copy_takes_a_kept_tree_up_before_the_clock_runs(tmp_path):
    """From an empty numba cache (a fresh copy of fepaper), the first warm-up decision spends
    its time compiling and keeps no tree; the warm-up still ends with a decision that took a
    kept tree up, so the game's second decision compiles nothing on the clock."""
    script = (
        "from fepaper.engines.bot import warm_up\n"
        "from fepaper.game import Game\n"
        "spec = {'name': 'bestfirst', 'evaluator': 'net', 'net': 'value_engines25w2.npz', 'reuse': True}\n"
        "first, second = warm_up(spec, Game('codingame'))\n"
        "print(first.decisions[-1].details['reused'])\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.split()[-1]) > 0


def test_a_warm_up_whose_kept_tree_missed_the_reply_plays_again_with_more_time(monkeypatch):
    """On a loaded machine a 0.1 s decision may keep a tree without the reply played: the warm-up
    then plays its three turns again with twice the seconds, and stops once a tree is taken up."""
    import fepaper.engines.bot as bot

    limits = []
    made = bot.make

    def starved(spec):  # below 0.2 s a decision no kept tree is taken up, from 0.2 s one always is
        limits.append(spec["time_limit"])
        player = made(spec)
        decide = player.choose_turn

        def choose_turn(game):
            turn = decide(game)
            player.decisions[-1].details["reused"] = int(spec["time_limit"] >= 0.2)
            return turn

        player.choose_turn = choose_turn
        return player

    monkeypatch.setattr(bot, "make", starved)
    spec = {"name": "bestfirst", "evaluator": "distance", "reuse": True, "seed": 5}
    first, _ = bot.warm_up(spec, Game("codingame", "2 0"), seconds=0.1)
    assert limits[:-2] == [0.1, 0.1, 0.1, 0.1, 0.2, 0.2]  # two rounds at 0.1 s, a third at 0.2 s, then done
    assert limits[-2] <= 0.001 and first.decisions[-1].details["reused"] == 1


def test_the_warm_up_loads_what_a_millisecond_decision_runs(monkeypatch):
    """With ``--ms 5`` the bot leaves its controller 1 ms; best-first then answers before its root
    is listed, code the warm-up at 0.1 s never ran: loading it on the clock took 24 ms of the
    5 ms turn. The warm-up now makes a decision of 1 ms too (the game left as it was)."""
    import fepaper.engines.bot as bot

    limits = []
    made = bot.make

    def recording(spec):
        limits.append(spec.get("time_limit"))
        return made(spec)

    monkeypatch.setattr(bot, "make", recording)
    game = Game("codingame", "2 0 3")
    bot.warm_up({"name": "bestfirst"}, game, seconds=0.02)
    assert min(limits) <= 0.001 and game.moves == "2 0 3"
