"""Claims files as a reader reads them (notebook/claimsview.py)."""

import math

import pandas as pd
import pytest

from fepaper.experiments.thesis.claims import COLUMNS, claim, row
from fepaper.experiments.thesis.measured import arithmetic_rows
from fepaper.notebook.claimsview import (
    COLOURS,
    arithmetic_display,
    arithmetic_styler,
    claims_display,
    claims_styler,
    figure_text,
    mark,
    number_text,
    player_legend,
    player_names,
)
from fepaper.notebook.plots import changed_fields


def test_figure_text_integers_three_figures_and_blanks():
    assert [figure_text(x) for x in (76.0, 22.5, 2.25e1, 3.93624, -76.7542, 1.2004e12, 0.000214, 3518.44)] == [
        "76", "22.5", "22.5", "3.94", "-76.8", "1.2e+12", "0.000214", "3520"]
    assert [figure_text(x) for x in (0.0, 0.5, 361.236, 999.7, 0.0000123)] == ["0", "0.5", "361", "1000", "1.23e-05"]
    assert [figure_text(x) for x in (None, math.nan, "", math.inf, -math.inf)] == ["", "", "", "∞", "-∞"]
    assert figure_text(7 * 6**34) == "2.01e+27"  # a large integer is a figure, not 28 digits


def test_number_text_keeps_counts_exact():
    assert [number_text(x) for x in (2034.0, 56_052_362.0, 5.832, 0.018, 41_088_223_456_789.5, 1e15, math.nan)] == [
        "2,034", "56,052,362", "5.83", "0.018", "4.11e+13", "1e+15", ""]


def table():
    played = row(claim("cannot-win"), "thesis", "refuted", "SPRT", "H0; H1", 361.236, 214.1, 508.3, "Elo",
                 games=88, note="a long note " * 20)
    undecided = row(claim("two-better-than-first"), "thesis", "not decided", "SPRT", "h", 48.96, 8.2, 89.7, "Elo",
                    games=310, power=0.4321)
    memory = row(claim("memory"), "thesis", "not testable here", "measured", "h", 0.0, 0.0, 0.0, "MB", note="why")
    return pd.DataFrame(arithmetic_rows("thesis") + [played, undecided, memory], columns=COLUMNS)


def test_claims_display_leaves_the_arithmetic_out_and_reads_plainly():
    shown = claims_display(table())
    assert list(shown["verdict"]) == ["✘ refuted", "? not decided", "– not testable here"]
    first = shown.iloc[0]
    assert first["found"] == "361 [214, 508] Elo" and first["games"] == "88" and first["power"] == ""
    assert shown.iloc[1]["power"] == "0.432"  # the power only where not decided
    assert shown.iloc[2]["found"] == "0 MB" and shown.iloc[2]["games"] == ""
    assert "nan" not in shown.to_string().lower()
    assert shown.iloc[0]["claim"].startswith("cannot-win (§4.2.4)")


def test_the_styled_table_colours_verdicts_and_wraps_the_note():
    html = claims_styler(table(), "thesis rules").to_html()
    assert "thesis rules" in html and COLOURS["refuted"] in html and COLOURS["not testable here"] in html
    assert "white-space: normal" in html and "max-width: 17em" in html
    assert "nan" not in html.lower().replace("nanos", "")


def test_arithmetic_table_says_how_each_figure_is_read():
    shown = arithmetic_display(table())
    assert len(shown) == len(arithmetic_rows("thesis"))
    bound = shown[shown["figure"].str.contains("after a bounce")].iloc[0]
    assert bound["reading"].startswith("exact; upper bound read after the data") and bound["verdict"] == "✘ refuted"
    assert bound["recomputed"] == "6"
    assert "follows from its inputs" in arithmetic_styler(table()).to_html()


def test_mark_and_unknown_verdicts():
    assert mark("confirmed") == "✔ confirmed"
    with pytest.raises(ValueError, match="unknown verdict"):
        mark("maybe")


def test_players_are_named_by_their_roles():
    tuned = {"name": "aco", "variant": "ferdist", "n_ants": 12, "rho": 0.25}
    plain = {"name": "aco", "variant": "ferdist"}
    roster = [("tuned HoF2", "the tuned colony", tuned), ("matched", "again", tuned),
              ("thesis", "the default colony", plain)]
    legend = player_legend(roster)
    assert list(legend["player"]) == ["ACO-FerDist tuned HoF2", "ACO-FerDist thesis"]
    first = legend.iloc[0]
    assert first["role"] == "the tuned colony; again"
    assert first["differs from the defaults"] == "n_ants = 12, rho = 0.25"
    assert legend.iloc[1]["differs from the defaults"] == "none"
    name = player_names(roster)
    assert name({**tuned, "once_per_cycle": False}) == "ACO-FerDist tuned HoF2"
    with pytest.raises(ValueError, match="no label for the player ACO-FerDist"):
        name({**plain, "n_ants": 13})
    with pytest.raises(ValueError, match="two players share a label"):
        player_legend([("x", "one", tuned), ("x", "another", plain)])
    assert changed_fields(tuned) == {"n_ants": 12, "rho": 0.25} and changed_fields(plain) == {}
