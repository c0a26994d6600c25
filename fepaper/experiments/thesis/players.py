"""The thesis's players at a scale: its alpha-beta in four versions and its six ant colonies.

The alpha-beta players are the thesis's (§4.1): level 2, 15 bounces per turn, each decision capped
in steps (:class:`Scale`). Below the `full` budget the cap is 10^6 steps and the no-cycles version
keeps the 15-bounce limit (:data:`REDUCED_SCALE`); at `full` they are the thesis's own
(:data:`THESIS_SCALE`: the minute at the thesis's stated speed, no bounce limit for no-cycles).
The colonies are the six of §4.2 (:data:`COLONIES`), as notebook 03's GA tuned them
(:func:`colonies`), at matched parameters or at the thesis's own (:func:`colony_sets`).
:func:`roster` names every player of the duels by what it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...controllers.aco import THESIS_DEFAULTS
from .claims import COLONY_SETS, LARGER_STEPS, MINUTE_STEPS

__all__ = ["CAP_NODES", "LONG_NODES", "Scale", "REDUCED_SCALE", "THESIS_SCALE", "scale_of", "ALPHABETA",
           "COLONIES", "ADDED_COLONY", "THESIS_COLONIES", "FAMILIES", "SHARED_GENES", "FUTURE_SYSTEMS",
           "alphabeta", "colonies", "colony_sets", "thesis_counts", "tuned_source", "roster"]


#: The one-minute cap below the full budget as steps searched per decision (docs/interpretation.md,
#: entry 45), and the longer search it is compared with (twenty times the steps).
CAP_NODES = 1_000_000

LONG_NODES = 20_000_000

@dataclass(frozen=True)
class Scale:
    """How large the thesis's alpha-beta players are: each decision's cap in steps, the longer
    search ``cap-little-loss`` sets beside it, and the no-cycles version's bounce limit (None:
    none)."""

    cap: int
    longer: int
    nocycles_bounces: int | None
    what: str

#: Below the full budget: a cap of 10^6 steps (a fraction of a second), 600 times smaller than the
#: thesis's minute, and the no-cycles version with the 15-bounce limit of the others.
REDUCED_SCALE = Scale(CAP_NODES, LONG_NODES, 15, "a cap of 10^6 steps, the no-cycles version at 15 bounces")

#: The thesis's own scale (the full budget, docs/interpretation.md entry 108): the minute at its slower
#: stated speed (6 x 10^8 steps), the longer search the minute at its faster one (6 x 10^9), and the
#: no-cycles version without the bounce limit it was built to remove (§4.1.2).
THESIS_SCALE = Scale(MINUTE_STEPS, LARGER_STEPS, None,
                     "the thesis's minute, 6 x 10^8 steps, the no-cycles version without a bounce limit")

def scale_of(budget: str) -> Scale:
    """The alpha-beta players' scale at notebook budget ``budget``."""
    return THESIS_SCALE if budget == "full" else REDUCED_SCALE

#: The thesis's alpha-beta: level 2 (its memory figure), 15 bounces per turn (§2.1).
ALPHABETA = {"name": "alphabeta", "depth": 2, "max_bounces": 15, "max_nodes": CAP_NODES}

#: The six colonies of §4.2, by label: each version per ant and once per cycle.
COLONIES = {
    "base": {"name": "aco", "variant": "base"},
    "base, once per cycle": {"name": "aco", "variant": "base", "once_per_cycle": True},
    "ferdist": {"name": "aco", "variant": "ferdist"},
    "ferdist, once per cycle": {"name": "aco", "variant": "ferdist", "once_per_cycle": True},
    "ferdistrival": {"name": "aco", "variant": "ferdistrival"},
    "ferdistrival, once per cycle": {"name": "aco", "variant": "ferdistrival", "once_per_cycle": True},
}

#: The thesis's five colonies: its three versions per ant and "these versions" (the two last
#: ones) once per cycle (§4.2.4). The base colony once per cycle is fepaper's own addition: it is
#: tuned and played, and reported apart, never in a family.
ADDED_COLONY = "base, once per cycle"

THESIS_COLONIES = [label for label in COLONIES if label != ADDED_COLONY]

#: The colonies' families ("the FerDistRival version" is both of its members), the thesis's only.
FAMILIES = {"base": ["base"], "ferdist": ["ferdist", "ferdist, once per cycle"],
            "ferdistrival": ["ferdistrival", "ferdistrival, once per cycle"]}

#: The genes every colony version shares (the rest are a version's own: its deposit weights and
#: tolerance); a matched comparison gives every version the same values of these.
SHARED_GENES = ("n_ants", "iterations", "alpha", "beta", "rho", "heuristic")

#: The systems of the thesis's future work (§6), each played with the last colony's tuned spec.
FUTURE_SYSTEMS = ("mmas", "rank")

def alphabeta(variant: str, scale: Scale = REDUCED_SCALE, **fields) -> dict:
    """The thesis's alpha-beta in version ``variant`` at ``scale``.

    >>> alphabeta("nocycles", THESIS_SCALE)["max_bounces"] is None, alphabeta("nocycles")["max_bounces"]
    (True, 15)
    """
    spec = {**ALPHABETA, "variant": variant, "max_nodes": scale.cap}
    if variant == "nocycles":
        spec["max_bounces"] = scale.nocycles_bounces
    return {**spec, **fields}

def colonies(tuned: Mapping[str, dict]) -> dict[str, dict]:
    """The six colonies' specs from ``tuned`` (label to spec, notebook 03's file), checked."""
    missing = sorted(set(COLONIES) - set(tuned))
    if missing:
        raise ValueError(f"the tuned specs lack the colonies {missing} (run notebook 03)")
    for label, spec in COLONIES.items():
        got = tuned[label]
        if (got.get("name") != "aco" or got.get("variant") != spec["variant"]
                or bool(got.get("once_per_cycle", False)) != spec.get("once_per_cycle", False)):
            raise ValueError(f"the spec tuned as {label!r} is another colony: {got}")
    return {label: dict(tuned[label]) for label in COLONIES}

def colony_sets(tuned: Mapping[str, dict]) -> dict[str, dict[str, dict]]:
    """The thesis's five colonies at each parameter set of
    :data:`~fepaper.experiments.thesis.claims.COLONY_SETS` (label to spec): ``matched``, the base
    colony's tuned :data:`SHARED_GENES` and every version's own genes at the thesis's values;
    ``thesis-set``, the thesis's own parameters (the controller's defaults).

    >>> sets = colony_sets({label: {**spec, "n_ants": 40} for label, spec in COLONIES.items()})
    >>> sorted(sets), sets["matched"]["ferdistrival"]["n_ants"], "n_ants" in sets["thesis-set"]["ferdist"]
    (['matched', 'thesis-set'], 40, False)
    """
    col = colonies(tuned)
    shared = {gene: col["base"][gene] for gene in SHARED_GENES if gene in col["base"]}
    out = {"matched": {label: {**COLONIES[label], **shared} for label in THESIS_COLONIES},
           "thesis-set": {label: dict(COLONIES[label]) for label in THESIS_COLONIES}}
    assert list(out) == list(COLONY_SETS)
    return out

def thesis_counts(label: str, tuned_spec: Mapping) -> dict:
    """Colony ``label`` with the thesis's parameters but the heuristic, which keeps its value in
    ``tuned_spec``: the thesis's 0.87 "decreases the probabilities" by another formula than
    fepaper's (docs/interpretation.md, entry 20), so its number means nothing here.

    >>> thesis_counts("base", {"heuristic": 2.5})["heuristic"], thesis_counts("base", {}).get("n_ants")
    (2.5, None)
    """
    return {**COLONIES[label], "heuristic": tuned_spec.get("heuristic", THESIS_DEFAULTS["heuristic"])}


def tuned_source(tuned: Mapping, label: str) -> str:
    """Where colony ``label``'s tuned spec in ``tuned`` (notebook 03's file) came from, as a tag:
    ``HoF3`` for the third of its GA run's hall of fame (the candidate that scored best when the
    hall of fame was played again on fresh games), ``thesis`` when the thesis's own parameters
    did (also when the GA found them); ``""`` for a file without its runs (a smoke run's stand-in).

    >>> [tuned_source({"runs": {"base": {"candidates": [{"source": s}]}}}, "base")
    ...  for s in ("hall of fame 3", "hall of fame 1 (thesis)", "thesis")]
    ['HoF3', 'thesis', 'thesis']
    """
    candidates = tuned.get("runs", {}).get(label, {}).get("candidates")
    if not candidates:
        return ""
    source = candidates[0]["source"]
    if source.endswith(")"):  # a member of the hall of fame that is also another candidate: that one
        source = source[source.rindex("(") + 1:-1]
    return "HoF" + source.removeprefix("hall of fame ") if source.startswith("hall of fame ") else source


def roster(tuned: Mapping, scale: Scale) -> list[tuple[str, str, dict]]:
    """Every player of notebook 04's duels as ``(tag, role, spec)``: the tag is what tells the
    players of one controller name apart, the role what the player is in the experiment.

    The alpha-beta versions at ``scale`` have no tag, the costs version with every step costing 1
    ``steps``, the longer search ``x10`` (its cap over the scale's); a colony as notebook 03 tuned
    it ``tuned`` and :func:`tuned_source`, at the matched parameters ``matched``, at the thesis's
    own ``thesis``, at the thesis's own but the tuned heuristic ``thesis+heuristic``. A spec can
    have several roles (the base colony tuned is the base colony matched).

    >>> tags = [tag for tag, _, _ in roster({"specs": dict(COLONIES)}, REDUCED_SCALE)]
    >>> tags[:6], tags.count("matched"), tags.count("thesis")
    (['', '', '', '', 'steps', 'x20'], 5, 5)
    """
    players = [("", f"the thesis's alpha-beta, {v} version", alphabeta(v, scale))
               for v in ("dynamic", "static", "costs", "nocycles")]
    players.append(("steps", "the thesis's alpha-beta, costs version, every step costing 1 "
                    "(costs-unnecessary-steps)", alphabeta("costs", scale, costs="steps")))
    players.append((f"x{scale.longer // scale.cap}", f"the dynamic alpha-beta with the longer search, "
                    f"{scale.longer:,} steps (cap-little-loss)",
                    alphabeta("dynamic", scale, max_nodes=scale.longer)))
    tuned_specs = colonies(tuned["specs"])
    tags = {label: f"tuned {tuned_source(tuned, label)}".rstrip() for label in tuned_specs}
    players += [(tags[label], f"the colony '{label}' as notebook 03 tuned it", spec)
                for label, spec in tuned_specs.items()]
    for name, specs in colony_sets(tuned["specs"]).items():
        tag = {"thesis-set": "thesis"}.get(name, name)
        players += [(tag, f"the colony '{label}' with the parameter set '{name}'", spec)
                    for label, spec in specs.items()]
    players += [("thesis+heuristic", f"the colony '{label}' with the thesis's parameters but the tuned "
                 "heuristic (thesis-parameters-tuned-heuristic)", thesis_counts(label, tuned_specs[label]))
                for label in ("base", "ferdist", "ferdistrival")]
    last = THESIS_COLONIES[-1]
    players += [(tags[last], f"the colony '{last}' as tuned, with the ant system '{system}' "
                 "(colonies-improvable)", {**tuned_specs[last], "system": system})
                for system in FUTURE_SYSTEMS]
    return players
