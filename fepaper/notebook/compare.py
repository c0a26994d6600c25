"""Controls for rules and players (the thesis's options window), and :class:`CompareWidget`.

The thesis's options window (``Opciones``) chose "the colour of the board and level of
each player". :class:`RulesPicker` chooses the board and rules, :class:`PlayerPicker`
one side ("human" or any controller of :data:`fepaper.controllers.REGISTRY` with its
parameters as JSON). :class:`CompareWidget` plays a colour-swapped match between two
controller specs with :func:`fepaper.play.arena.match` and shows the score with its Wilson
interval, as a table and a small bar plot; a progress bar under the run button counts the games
as they are played. The board widgets are in
:mod:`fepaper.notebook.widgets`.

Examples
--------
>>> w = CompareWidget({"name": "random", "seed": 1}, "random", rules="standard", games=2)
>>> w.run()["games"]
2
>>> "score" in w.table.value
True
"""

from __future__ import annotations

import base64
import html
import io
import json
from typing import Any

import ipywidgets as W
import traitlets

from ..controllers import REGISTRY, Controller, SpecError, make
from ..game.jsonio import JSONInputError, loads
from ..game.rules import BLOCKED_VALUES, BOUNCE_VALUES, PRESETS, Rules
from ..play.arena import label, match
from ..play.pools import SerialExecutor

__all__ = ["HUMAN", "PlayerPicker", "RulesPicker", "CompareWidget", "TextLine", "CountingExecutor"]

#: The name of the side a person plays in a :class:`PlayerPicker`.
HUMAN = "human"
_ERROR_STYLE = "color: #b3261e; white-space: normal; line-height: 1.3"


class TextLine(W.HTML):
    """A line of plain text that wraps instead of being clipped (an ``ipywidgets.Label`` cuts a long
    message to one line). ``value`` is set with plain text; ``&``, ``<`` and ``>`` are escaped."""

    @traitlets.validate("value")
    def _plain(self, proposal):
        return html.escape(proposal["value"], quote=False)


# -- the options: rules and players --------------------------------------------------------
def _spec_dict(spec: Any) -> dict[str, Any] | str:
    """``"human"`` or a controller spec as a dict (not yet validated)."""
    if isinstance(spec, Controller):
        return spec.spec
    if isinstance(spec, str):
        text = spec.strip()
        if text == HUMAN:
            return HUMAN
        if not text.startswith("{"):
            return {"name": text}
        try:
            spec = loads(text, "controller spec")
        except JSONInputError as exc:
            raise SpecError(str(exc)) from None
    if not isinstance(spec, dict) or "name" not in spec:
        raise SpecError(f'a player is "human" or a controller spec with a "name"; got {spec!r}')
    return dict(spec)


class PlayerPicker:
    """Who plays one side: "human" or a controller of the registry, with JSON parameters.

    Parameters
    ----------
    spec : "human", str, dict or Controller
        The initial choice: ``"human"``, a registry name, or a spec.
    description : str
        The label of the dropdown, e.g. ``"player 1"``.
    allow_human : bool
        Whether "human" is offered.

    Attributes
    ----------
    name : ipywidgets.Dropdown
        "human" and the names in :data:`fepaper.controllers.REGISTRY` (read when built).
    params : ipywidgets.Text
        The spec's other fields as a JSON object, e.g. ``{"depth": 2}``; empty means the
        defaults. Hidden for a human.
    error : ipywidgets.HTML
        Under the two: why the spec is not valid, if it is not.
    """

    def __init__(self, spec: Any = HUMAN, description: str = "player", allow_human: bool = True) -> None:
        names = ([HUMAN] if allow_human else []) + sorted(REGISTRY)
        spec = _spec_dict(spec)
        if spec == HUMAN and not allow_human:
            raise SpecError(f"{description}: a controller is needed here, not a human")
        name = spec if spec == HUMAN else spec["name"]
        if name not in names:
            raise SpecError(f"{description}: unknown controller {name!r}; valid names: {sorted(REGISTRY)}")
        params = {} if spec == HUMAN else {k: v for k, v in spec.items() if k != "name"}
        self.description = description
        self.name = W.Dropdown(options=names, value=name, description=description,
                               layout=W.Layout(width="220px"))
        # The placeholder reads as an instruction, not as a value already there.
        self.params = W.Text(value=json.dumps(params) if params else "",
                             placeholder="defaults; type a JSON object to change some",
                             description="params", layout=W.Layout(width="360px"))
        self.error = W.HTML(value="", layout=W.Layout(max_width="580px"))
        self.error.add_class("fepaper-error")
        self._on_name()
        self.name.observe(lambda _: self._on_name(), "value")
        self.box = W.VBox([W.HBox([self.name, self.params]), self.error])

    def _on_name(self) -> None:
        """No parameters for a human; for a controller, its parameter names in the tooltip."""
        human = self.name.value == HUMAN
        self.params.disabled = human
        self.params.layout.display = "none" if human else ""
        if not human:
            names = [p.name for p in REGISTRY[self.name.value].PARAMS]
            self.params.tooltip = f"parameters of {self.name.value}: {', '.join(names) or 'none'}"
        self.show_error("")

    def show_error(self, text: str) -> None:
        """Show ``text`` under the fields (an empty text clears it)."""
        self.error.value = f'<div style="{_ERROR_STYLE}">{html.escape(text)}</div>' if text else ""

    @property
    def is_human(self) -> bool:
        return self.name.value == HUMAN

    @property
    def spec(self) -> dict[str, Any] | str:
        """``"human"`` or the controller spec; raises :class:`SpecError` naming the side."""
        if self.is_human:
            return HUMAN
        text = self.params.value.strip()
        try:
            params = loads(text, f"{self.description} params") if text else {}
        except JSONInputError as exc:
            self._fail(f'{exc}; write an object such as {{"seed": 1}}')
        if not isinstance(params, dict):
            self._fail(f'{self.description} params must be a JSON object such as {{"seed": 1}}, got {text!r}')
        return {"name": self.name.value, **params}

    def _fail(self, text: str):
        self.show_error(text)
        raise SpecError(text)

    def controller(self) -> Controller | None:
        """A new controller built from the spec (``None`` for a human); a spec that is not valid
        raises :class:`SpecError`, and its reason is shown under the fields."""
        spec = self.spec
        if spec == HUMAN:
            return None
        try:
            controller = make(spec)
        except SpecError as exc:
            self._fail(f"{self.description}: {exc}")
        self.show_error("")
        return controller

    def observe(self, callback) -> None:
        """Call ``callback()`` when the choice changes."""
        self.name.observe(lambda _: callback(), "value")
        self.params.observe(lambda _: callback(), "value")


class RulesPicker:
    """The rules from controls: a preset board, and the bounce and blocked rules.

    Choosing a preset sets the toggles to that preset's values; the toggles then
    override them (e.g. the thesis board with a mandatory bounce).
    """

    def __init__(self, rules: Any = "thesis") -> None:
        rules = Rules.from_spec(rules)
        base = next((name for name, r in PRESETS.items()
                     if r.replace(bounce=rules.bounce, blocked=rules.blocked) == rules), None)
        self._bases = dict(PRESETS)
        if base is None:
            base = "custom"
            self._bases[base] = rules
        self._quiet = False
        self._callbacks: list = []
        self.preset = W.Dropdown(options=list(self._bases), value=base, description="board",
                                 layout=W.Layout(width="220px"))
        self.bounce = W.ToggleButtons(options=BOUNCE_VALUES, value=rules.bounce, description="bounce")
        self.blocked = W.ToggleButtons(options=BLOCKED_VALUES, value=rules.blocked, description="blocked")
        for toggles in (self.bounce, self.blocked):
            toggles.style.button_width = "100px"
        self.preset.observe(self._on_preset, "value")
        self.bounce.observe(self._changed, "value")
        self.blocked.observe(self._changed, "value")
        self.box = W.VBox([self.preset, self.bounce, self.blocked])

    @property
    def rules(self) -> Rules:
        return self._bases[self.preset.value].replace(bounce=self.bounce.value, blocked=self.blocked.value)

    def _on_preset(self, _change) -> None:
        base = self._bases[self.preset.value]
        self._quiet = True
        try:
            self.bounce.value, self.blocked.value = base.bounce, base.blocked
        finally:
            self._quiet = False
        self._changed(None)

    def _changed(self, _change) -> None:
        if not self._quiet:
            for callback in self._callbacks:
                callback()

    def observe(self, callback) -> None:
        """Call ``callback()`` once per change of the rules."""
        self._callbacks.append(callback)


# -- a match between two controllers ------------------------------------------------------
class CountingExecutor(SerialExecutor):
    """A :class:`~fepaper.play.pools.SerialExecutor` that adds one to ``bar.value`` after each
    task it runs (a task of :func:`~fepaper.play.arena.match` is one game), so a progress bar
    moves while the kernel plays."""

    def __init__(self, bar: W.IntProgress) -> None:
        self.bar = bar

    def submit(self, fn, /, *args, **kwargs):
        future = super().submit(fn, *args, **kwargs)
        self.bar.value += 1
        return future


class CompareWidget:
    """Two controller specs, the rules and a number of games; "run" plays the match.

    Parameters
    ----------
    spec_a, spec_b : str, dict or Controller
        The two sides (A and B swap colours every other game; see
        :func:`fepaper.play.arena.match`).
    rules : Rules, str or dict
        The initial rules.
    games, seed : int
        The initial number of games and the match's seed.

    Attributes
    ----------
    progress : ipywidgets.IntProgress
        The games played of the run in progress (or of the last run).
    table : ipywidgets.HTML
        The results: wins, draws, losses, score with its 95% Wilson interval, seconds
        and nodes per game, for A and B.
    plot : ipywidgets.Output
        A bar plot of both scores with their intervals.
    summary : dict or None
        What :func:`fepaper.play.arena.match` returned for the last run (rows included).
    """

    def __init__(self, spec_a: Any = "random", spec_b: Any = "random", *, rules: Any = "standard",
                 games: int = 10, seed: int = 0) -> None:
        self.players = {"A": PlayerPicker(spec_a, "A", allow_human=False),
                        "B": PlayerPicker(spec_b, "B", allow_human=False)}
        self.rules_picker = RulesPicker(rules)
        self.games = W.BoundedIntText(value=games, min=1, max=100_000, description="games",
                                      layout=W.Layout(width="180px"))
        self.seed = W.IntText(value=seed, description="seed", layout=W.Layout(width="180px"))
        self.run_button = W.Button(description="run", button_style="primary")
        self.run_button.on_click(lambda _: self.run())
        self.message = TextLine(value="", layout=W.Layout(max_width="640px"))
        self.progress = W.IntProgress(value=0, min=0, max=games, description="games",
                                      layout=W.Layout(width="420px", visibility="hidden"))
        self.table = W.HTML(value="")
        self.plot = W.Output()
        self.summary: dict[str, Any] | None = None
        self.figure = None
        self.box = W.VBox([self.players["A"].box, self.players["B"].box, self.rules_picker.box,
                           W.HBox([self.games, self.seed, self.run_button]), self.progress, self.message,
                           self.table, self.plot])
        self.box.add_class("fepaper-compare-widget")

    def run(self) -> dict[str, Any] | None:
        """Play the match in this process; fill :attr:`table` and :attr:`plot`.

        Returns the summary, or ``None`` (with :attr:`message` saying why) when a spec
        is not valid.
        """
        try:
            a, b = (self.players[k].controller() for k in "AB")
        except SpecError as exc:
            self.message.value = str(exc)
            return None
        rules, games = self.rules_picker.rules, int(self.games.value)
        self.message.value = f"playing {games} games of {label(a.spec)} against {label(b.spec)} ({rules})…"
        self.run_button.disabled = True
        self.progress.value, self.progress.max = 0, games
        self.progress.layout.visibility = "visible"
        try:
            summary = match(rules, a.spec, b.spec, games=games, seed=int(self.seed.value),
                            executor=CountingExecutor(self.progress), progress=False)
        finally:
            self.run_button.disabled = False
        self.summary = summary
        self.table.value = _table(summary, label(a.spec), label(b.spec))
        self.figure = _figure(summary, label(a.spec), label(b.spec))
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        # Set as the Output's content directly: works the same with or without a kernel.
        self.plot.outputs = ({"output_type": "display_data", "metadata": {},
                              "data": {"image/png": base64.b64encode(buffer.getvalue()).decode(),
                                       "text/plain": f"<score plot of {games} games>"}},)
        self.message.value = f"{games} games played ({rules}, seed {self.seed.value})"
        return summary

    def snapshot_html(self) -> str:
        """The widget's state as static HTML: what a saved notebook or the report shows without a kernel."""
        image = ""
        if self.plot.outputs:
            png = self.plot.outputs[0]["data"]["image/png"]
            image = f'<img alt="scores" src="data:image/png;base64,{png}">'
        specs = " against ".join(f"<code>{html.escape(_spec_text(self.players[k]))}</code>" for k in "AB")
        return (f'<div class="fepaper-snapshot"><p>Comparison widget: {specs}. {self.message.value}</p>'
                f"{self.table.value}{image}</div>")

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.box._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.snapshot_html()
        return bundle


def _spec_text(picker: PlayerPicker) -> str:
    try:
        return json.dumps(picker.spec)
    except SpecError:
        return f"{picker.name.value} (parameters not valid)"


def _sides(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Per side: wins, draws, losses, score and its interval, seconds and nodes per game."""
    rows, n = summary["rows"], summary["games"]
    a = {"wins": summary["wins_a"], "draws": summary["draws"], "losses": summary["wins_b"],
         "score": summary["score_a"], "low": summary["score_a_low"], "high": summary["score_a_high"],
         "seconds": sum(r["seconds_a"] for r in rows) / n, "nodes": sum(r["nodes_a"] for r in rows) / n}
    b = {"wins": a["losses"], "draws": a["draws"], "losses": a["wins"], "score": 1 - a["score"],
         "low": 1 - a["high"], "high": 1 - a["low"],
         "seconds": sum(r["seconds_b"] for r in rows) / n, "nodes": sum(r["nodes_b"] for r in rows) / n}
    return [a, b]


def _table(summary: dict[str, Any], name_a: str, name_b: str) -> str:
    import pandas as pd

    frame = pd.DataFrame([
        {"side": side, "controller": name, "wins": s["wins"], "draws": s["draws"], "losses": s["losses"],
         "score": f"{s['score']:.3f}", "95% interval": f"[{s['low']:.3f}, {s['high']:.3f}]",
         "seconds / game": f"{s['seconds']:.3g}", "nodes / game": f"{s['nodes']:.3g}"}
        for side, name, s in zip("AB", (name_a, name_b), _sides(summary))
    ])
    return frame.to_html(index=False, escape=True, classes="fepaper-results")


def _figure(summary: dict[str, Any], name_a: str, name_b: str):
    """The two scores as bars with their Wilson intervals (no pyplot state is touched)."""
    from matplotlib.figure import Figure

    sides = _sides(summary)
    fig = Figure(figsize=(5, 2.2), layout="tight")  # whatever layout the rcParams ask for
    ax = fig.add_subplot()
    scores = [s["score"] for s in sides]
    errors = [[s["score"] - s["low"] for s in sides], [s["high"] - s["score"] for s in sides]]
    ax.barh([0, 1], scores, xerr=errors, color=["#1f66c2", "#d1342b"], capsize=4, height=0.6)
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks([0, 1], [f"A: {name_a}", f"B: {name_b}"])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"score over {summary['games']} games (wins + draws / 2), 95% Wilson interval")
    for y, s in enumerate(sides):
        ax.text(0.01, y, f"{s['wins']}-{s['draws']}-{s['losses']}", va="center", color="white", fontsize=8)
    return fig
