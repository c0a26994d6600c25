"""The branching along a game (notebook 06's plot: distinct turns turn by turn, log scale, the
current turn marked) and the comparison widget's progress bar."""

import matplotlib
import numpy as np
import pytest

from fepaper.game.game import Game
from fepaper.notebook.branching import branching_along, branching_plot
from fepaper.notebook.compare import CompareWidget
from fepaper.play.randomplay import random_game
from fepaper.search.reference.turns import count_turns

matplotlib.use("Agg")


def _record(rules="standard", seed=3):
    return " ".join(random_game(rules, seed=seed).history)


def test_the_counts_along_a_game_are_those_of_each_position():
    record = _record()
    history = record.split()
    along = branching_along(record, "standard", max_states=10**9)
    assert list(along["turn"]) == [k for k in range(len(history) + 1)
                                   if not Game("standard", " ".join(history[:k])).is_over]
    for row in along.itertuples():
        game = Game("standard", " ".join(history[: row.turn]))
        marked = frozenset(int(e) for e in np.flatnonzero(game.owner))
        assert row.exact and row.turns == row.low == row.high == count_turns(game.board, marked, game.ball)
        assert row.player == game.player
    every = branching_along(record, "standard", every=3, max_states=10**9)
    assert list(every["turn"]) == [k for k in along["turn"] if k % 3 == 0]


def test_past_the_cap_the_count_is_estimated_with_its_interval():
    along = branching_along(_record(), "standard", max_states=20)
    guessed = along[~along["exact"]]
    assert len(guessed) and (guessed["high"] >= guessed["turns"]).all() and (guessed["turns"] > 0).all()
    assert (along[along["exact"]]["turns"] <= 20).all()


@pytest.mark.parametrize("every", [0, -1, 1.5, True])
def test_a_bad_step_between_positions_is_refused(every):
    with pytest.raises(ValueError, match="every must be a positive integer"):
        branching_along("", "standard", every=every)


def test_the_plot_is_on_a_log_scale_with_the_current_turn_marked():
    import matplotlib.pyplot as plt

    along = branching_along(_record(), "standard", max_states=20)
    current = int(along["turn"].iloc[len(along) // 2])
    ax = branching_plot(along, current=current)
    try:
        assert ax.get_yscale() == "log"
        lines = ax.get_lines()
        marks = [ln for ln in lines if list(ln.get_xdata()) == [current, current] and ln.get_linestyle() == "--"]
        assert len(marks) == 1  # the vertical line at the current turn
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any(label.startswith(f"current turn ({current})") for label in labels)
        assert "counted" in labels and "estimated (95% interval)" in labels
        counted = next(ln for ln in lines if ln.get_label() == "counted")
        exact = along[along["exact"]]
        assert list(counted.get_xdata()) == list(exact["turn"]) and list(counted.get_ydata()) == list(exact["turns"])
    finally:
        plt.close(ax.figure)
    with pytest.raises(ValueError, match="current turn 999 is not one of the turns counted"):
        branching_plot(along, current=999)
    with pytest.raises(ValueError, match="no position to plot"):
        branching_plot(along.iloc[:0])


def test_the_comparison_widget_moves_its_progress_bar_game_by_game():
    w = CompareWidget({"name": "random", "seed": 1}, {"name": "random", "mode": "turns"}, rules="foo", games=3)
    seen = []
    w.progress.observe(lambda change: seen.append(change["new"]), "value")
    assert w.progress.layout.visibility == "hidden"
    summary = w.run()
    assert summary["games"] == 3 and seen == [1, 2, 3]
    assert w.progress.value == w.progress.max == 3 and w.progress.layout.visibility == "visible"
    w.games.value = 2
    seen.clear()
    w.run()
    assert seen == [0, 1, 2] and w.progress.max == 2  # a new run starts the bar again
