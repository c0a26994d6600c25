"""df-pn (fepaper._core.dfpn) against the alpha-beta solver and plain minimax.

On the smallest boards df-pn's value and its list of best first turns equal plain minimax's
(fepaper.search.reference.minimax to the end of the game), under every rule that changes who
wins, draws included; on bigger small boards and on positions drawn from seeded random games
(hypothesis) they equal the alpha-beta solver's, with a table of four slots too (the
replacement rule loses work, never a value), and with either delta rule and threshold trick.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fepaper._core import dfpn
from fepaper._core import solve as kernel
from fepaper._core.bundles import new_budget
from fepaper._core.turnsearch import TurnSearch, new_table
from fepaper.game import Game
from fepaper.play.randomplay import random_game
from fepaper.search.solve import solve

from .test_solve import RULES, reference

SMALL = [
    {"width": 2, "height": 4, "middle_line": True, "bounce": "optional"},
    {"width": 2, "height": 4, "middle_line": False, "bounce": "optional", "dead_end": "stop"},
    {"width": 2, "height": 6, "middle_line": False, "bounce": "mandatory"},
    {"width": 4, "height": 4, "middle_line": True, "bounce": "mandatory"},
    {"width": 2, "height": 4, "middle_line": False, "bounce": "mandatory", "blocked": "draw"},
]


def _answer(result):
    return result.value, sorted(result.details["best"])


def _agree(fast, slow):
    """The same value; the same best first turns where both listed them all (the alpha-beta
    solver does not always ask every first turn of a draw), else one list within the other."""
    assert fast.value == slow.value
    a, b = set(fast.details["best"]), set(slow.details["best"])
    if fast.details["best_complete"] and slow.details["best_complete"]:
        assert a == b
    else:
        assert a <= b or b <= a


@pytest.mark.parametrize("rules", [RULES[1], dict(RULES[0], max_turns=2)],
                         ids=lambda r: "-".join(str(v) for v in r.values()))
def test_kick_off_of_the_smallest_boards_equals_plain_minimax(rules):
    game = Game(rules)
    expected = reference(game, cap=10**6)
    result = solve(game, method="dfpn")
    assert _answer(result) == expected
    assert result.details["best_complete"] and result.details["stopped"] is None
    assert result.details["method"] == "dfpn"


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: "-".join(str(v) for v in r.values()))
def test_kick_off_of_small_boards_equals_alphabeta(rules):
    game = Game(rules)
    slow = solve(game)
    _agree(solve(game, method="dfpn"), slow)
    _agree(solve(game, method="dfpn", table_bits=2), slow)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 10**6), back=st.integers(1, 6))
def test_mid_game_positions_agree_with_alphabeta_and_minimax(rules, seed, back):
    full = random_game(rules, seed=seed)
    game = Game(rules, " ".join(full.history[:max(0, len(full.history) - back)]))
    assume(not game.is_over)
    expected = solve(game, table_bits=14)
    _agree(solve(game, method="dfpn", table_bits=14), expected)
    _agree(solve(game, method="dfpn", table_bits=2), expected)
    slow = reference(game)
    if slow is not None:
        assert slow == _answer(solve(game, method="dfpn")), game.moves


def _kernel_value(game, weak, epsilon):
    search = TurnSearch(game.board.arrays, game.rules.flags, np.zeros(4, np.int64), True, True, False, 0, 0,
                        64, len(game.history), new_table(0), new_budget(None, 0))
    words = (game.board.n_edges + 63) // 64
    bits = np.zeros(words, np.uint64)
    for e in np.flatnonzero(game.owner != 0):
        bits[e >> 6] |= np.uint64(1) << np.uint64(e & 63)
    dv = dfpn.Dfpn(search, dfpn.new_dfpn_table(1 << 12, words), kernel.new_ctl(0), game.player, weak, epsilon)
    _, _, _, status = dfpn.dfpn_root(game.marks.copy(), bits, game.ball_index, np.uint64(game.key), game.player,
                                     True, dv)
    return sorted(status.tolist())


def test_both_delta_rules_and_plain_thresholds_prove_the_same_turns():
    for rules in SMALL[:4]:
        game = Game(rules)
        first = _kernel_value(game, True, 0.25)
        assert 0 not in first
        assert _kernel_value(game, False, 0.0) == first
        assert _kernel_value(game, False, 0.25) == first


def test_an_exhausted_budget_answers_unknown():
    game = Game({"width": 4, "height": 6, "middle_line": False})
    for result in (solve(game, max_nodes=3, method="dfpn"), solve(game, seconds=0.001, method="dfpn")):
        assert result.value is None and result.turn == "" and result.details["winner"] is None
        assert result.details["stopped"] == "budget" and result.details["best"] == []
        assert result.details["proof"] is None


def test_a_bad_method_is_refused():
    with pytest.raises(ValueError, match="method must be one of alphabeta, dfpn, got 'pns'"):
        solve(Game({"width": 2, "height": 2}), method="pns")
