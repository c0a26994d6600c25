"""The statistics of the matches against the public engines (notebook 08), and the manifest of
their files.

A *lever* is one change to fepaper's bot (a setting, a network, more time) measured against an
engine. Its match file is compared **game by game** with another file against the same engine
(the same seed and opening length: game ``k`` of both has the same opening and the same first
player, :func:`pair_matches`), by the exact two-sided sign test on the games only one of the
two bots won. Each test belongs to a *family* (the hypothesis it was chosen for, before its
games); Holm's correction runs within each family. A *pool* is one test chosen over several
files: their discordant games summed, one sign test, counted once in its family
(:func:`family_tests`). Whether a bot scores more than a share against an engine is the
one-sided exact binomial test on its wins, Holm over the specs that played that engine
(:func:`above_share`).

``data/strength/MANIFEST.json`` says what every file of the folder is (:func:`read_manifest`);
:func:`check_manifest` checks it against the files.

Examples
--------
Two tests in one family, the second pooled over two files (5 games against 1):

>>> tests = family_tests([
...     {"file": "x", "family": "F", "pool": None, "only_first": 9, "only_second": 1},
...     {"file": "y", "family": "F", "pool": "P", "only_first": 3, "only_second": 1},
...     {"file": "z", "family": "F", "pool": "P", "only_first": 2, "only_second": 0}])
>>> [(t["test"], t["only_first"], t["only_second"], round(t["p"], 4), round(t["p_holm"], 4))
...  for t in tests.values()]
[('x', 9, 1, 0.0215, 0.043), ('P', 5, 1, 0.2188, 0.2188), ('P', 5, 1, 0.2188, 0.2188)]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..search.valuefile import network_path
from ..stats.binomial import sign_test, wins_above
from ..stats.multiple import holm
from .matchstats import paired, summary

__all__ = ["MANIFEST", "pair_matches", "family_tests", "above_share", "match_row", "lever_rows",
           "read_manifest", "check_manifest"]

#: The manifest's file name in a folder of match files.
MANIFEST = "MANIFEST.json"


def pair_matches(runs: Mapping[str, tuple[dict, list[dict]]],
                 compared_with: Mapping[str, str | None]) -> dict[str, dict]:
    """Each file of ``runs`` (``name: (settings, games)`` as
    :func:`~fepaper.engines.matchfile.read_games` returns them) that ``compared_with`` pairs with
    another, game by game with that one (:func:`~fepaper.engines.matchstats.paired`): ``{name:
    {"games", "both", "only_first", "only_second", "neither", "p"}}``, "first" the file itself.

    Raises
    ------
    ValueError
        If the file compared with is not in ``runs``, or the two files do not share the opponent,
        the seed and the opening length of their games (then game ``k`` is not the same game).
    """
    out = {}
    for name, other in compared_with.items():
        if other is None:
            continue
        for needed in (name, other):
            if needed not in runs:
                raise ValueError(f"{name}: compared with {other}, but {needed} is not among the matches read")
        (mine, games), (theirs, their_games) = runs[name], runs[other]
        for key in ("seed", "openings"):
            if mine[key] != theirs[key]:
                raise ValueError(f"{name}: its games have {key} {mine[key]}, those of {other} {theirs[key]}: "
                                 "not the same games")
        if mine["names"][1] != theirs["names"][1]:
            raise ValueError(f"{name}: played {mine['names'][1]}, {other} played {theirs['names'][1]}")
        out[name] = paired(games, their_games)
    return out


def _count(row: Mapping, key: str) -> int:
    value = row[key]
    if isinstance(value, bool) or int(value) != value or value < 0:
        raise ValueError(f"{row['file']}: {key} must be a count of games, got {value!r}")
    return int(value)


def family_tests(rows: Sequence[Mapping]) -> dict[str, dict]:
    """The sign tests chosen before the games, with Holm's correction within each family.

    ``rows``: one per compared file, ``{"file", "family", "pool", "only_first", "only_second"}``
    (the counts of :func:`pair_matches`; ``pool`` ``None`` for a test of its own). A file whose
    ``family`` is ``None`` has no test and is left out. Returns ``{file: {"test", "family",
    "only_first", "only_second", "p", "p_holm"}}``: ``test`` is the pool's name or the file's,
    the counts are the test's (a pool's summed over its files), ``p`` the exact two-sided sign
    test and ``p_holm`` Holm's adjusted p-value over the family's tests (a pool counts once).

    Raises
    ------
    ValueError
        If a count is not a non-negative integer, or a pool's files lie in several families.
    """
    tests: dict[str, dict] = {}
    of_file: dict[str, str] = {}
    for row in rows:
        if row.get("family") is None:
            continue
        first, second = _count(row, "only_first"), _count(row, "only_second")
        test = row.get("pool") or row["file"]
        entry = tests.setdefault(test, {"test": test, "family": row["family"], "only_first": 0,
                                        "only_second": 0})
        if entry["family"] != row["family"]:
            raise ValueError(f"pool {test!r} holds files of the families {entry['family']!r} and "
                             f"{row['family']!r}")
        entry["only_first"] += first
        entry["only_second"] += second
        of_file[row["file"]] = test
    for entry in tests.values():
        entry["p"] = sign_test(entry["only_first"], entry["only_second"])
    families: dict[str, list[dict]] = {}
    for entry in tests.values():
        families.setdefault(entry["family"], []).append(entry)
    for members in families.values():
        adjusted, _ = holm([e["p"] for e in members])
        for entry, value in zip(members, adjusted):
            entry["p_holm"] = float(value)
    return {file: dict(tests[test]) for file, test in of_file.items()}


def above_share(wins: Sequence[int], games: Sequence[int], share: float = 0.5) -> list[float]:
    """Holm-adjusted p-values of "scores more than ``share``" for specs that played the same
    engine: the one-sided exact binomial test on each one's ``wins`` of its ``games`` (a draw
    is a game not won), Holm over them.

    >>> [round(p, 4) for p in above_share([8, 5], [10, 10])]
    [0.1094, 0.623]
    """
    if len(wins) != len(games):
        raise ValueError(f"above_share: {len(wins)} win counts for {len(games)} game counts")
    if not wins:
        return []
    return [float(p) for p in holm([wins_above(int(w), int(n), share) for w, n in zip(wins, games)])[0]]


def read_manifest(folder: str | Path) -> dict:
    """``folder``'s :data:`MANIFEST` (``data/strength/MANIFEST.json``) as a dict.

    Raises
    ------
    ValueError
        If there is none, or it is not JSON with ``files``, ``engines`` and ``families``.
    """
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise ValueError(f"{path}: no manifest")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e})") from None
    missing = [k for k in ("files", "engines", "families") if not isinstance(manifest.get(k), dict)]
    if missing:
        raise ValueError(f"{path}: no {', '.join(missing)}")
    return manifest


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _network(name: str) -> Path | None:
    """The file of the network ``name`` (:func:`~fepaper.search.valuefile.network_path`), or
    ``None`` when none is found."""
    try:
        path = network_path(name)
    except ValueError:
        return None
    return path if path.is_file() else None


def check_manifest(folder: str | Path) -> list[str]:
    """What is wrong between ``folder``'s manifest and its files (an empty list: nothing).

    Every file the manifest lists exists (but ``tables``: what notebook 08 writes, some of it at
    one budget only) and every network of ``networks`` is found by its name; every file of
    ``folder`` is listed, as a file, under ``tables``, or (``networks/*.npz``) under ``networks``
    with its sha256; each file's engine is
    one ``engines`` describes, its family one of ``families`` and its ``compared_with`` a
    listed file; each network's sha256 is that of the file a bot's spec names
    (:func:`~fepaper.search.valuefile.network_path`).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    files, tables = manifest["files"], manifest.get("tables", {})
    problems = [f"{name}: listed, but no such file" for name in files if not (folder / name).is_file()]
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and name.startswith("networks/"):
            listed = manifest.get("networks", {}).get(path.name)
            if listed is None:
                problems.append(f"{name}: not in the manifest's networks")
            elif _sha256(path) != listed["sha256"]:
                problems.append(f"{name}: another sha256 than the manifest's")
        elif path.is_file() and name != MANIFEST and name not in files and name not in tables:
            problems.append(f"{name}: not in the manifest")
    for net, about in manifest.get("networks", {}).items():
        if not (folder / "networks" / net).is_file() and _network(net) is None:
            problems.append(f"network {net}: listed, but not found ({about.get('where')})")
    folder_of = {name: name.rpartition("/")[0] for name in files}
    for name, about in files.items():
        if about.get("engine") is not None and about["engine"] not in manifest["engines"]:
            problems.append(f"{name}: engine {about['engine']!r} is not described under 'engines'")
        if about.get("family") is not None and about["family"] not in manifest["families"]:
            problems.append(f"{name}: family {about['family']!r} is not one of 'families'")
        other = about.get("compared_with")
        if other is not None:
            if about.get("family") is None:
                problems.append(f"{name}: compared with {other} in no family")
            if "/".join(filter(None, (folder_of[name], other))) not in files:
                problems.append(f"{name}: compared with {other}, which the manifest does not list")
        net = about.get("net")
        if net is not None:
            path = _network(net["file"])
            if path is None:
                problems.append(f"{name}: its network {net['file']} is not found")
            elif _sha256(path) != net["sha256"]:
                problems.append(f"{name}: its network {net['file']} has another sha256 than the manifest's")
    return problems


def match_row(settings: dict, games: list[dict]) -> dict:
    """One match file as a row: its opponent, openings, budget, side A's score with its 95 %
    Wilson interval (:func:`~fepaper.engines.matchstats.summary`), the bot's later decisions in
    ms (median, p99, max, how many past 110 % of the budget), the engine's median, forfeits."""
    s = summary(games, settings["ms_first"], settings["ms"])
    bot, engine = s["time"]["A"], s["time"]["B"]
    return {"opponent": settings["names"][1], "seed": settings["seed"], "openings": settings["openings"],
            "budget_ms": f"{settings['ms_first']} / {settings['ms']}", "games": s["games"],
            "wins": s["wins_a"],
            "score": s["score_a"], "score_low": s["score_a_low"], "score_high": s["score_a_high"],
            "bot_later_median_ms": bot["later"].get("median"), "bot_later_p99_ms": bot["later"].get("p99"),
            "bot_later_max_ms": bot["later"].get("max"), "bot_over_10pct": bot["over_10pct"],
            "engine_later_median_ms": engine["later"].get("median"),
            "forfeits": sum(s["forfeits"]["A"].values())}


def _verdict(row: dict, referenced: set[str], alpha: float) -> str:
    if row.get("p_holm") is not None:
        if row["p_holm"] > alpha:
            return "not told apart"
        return "higher" if row["test_only_first"] > row["test_only_second"] else "lower"
    if row.get("screen_goes_on_at") is not None:
        return "goes on" if row["score"] >= row["screen_goes_on_at"] else "stops"
    if row.get("screen") is not None:
        return "screened"
    return "reference" if row["file"] in referenced else "measured"


def lever_rows(files: Mapping[str, dict], runs: Mapping[str, tuple[dict, list[dict]]],
               alpha: float = 0.05) -> list[dict]:
    """Every match of ``runs`` as a row of the table of levers: :func:`match_row`, what the
    manifest's ``files`` (``data/strength/MANIFEST.json``) say of it (the lever, the engine build,
    the bot's commit, the family of its test, its pool, the file it is compared with), the
    discordant games of that comparison (:func:`pair_matches`), the test's counts, ``p`` and
    ``p_holm`` (:func:`family_tests`) and a ``verdict``: ``higher`` or ``lower`` when Holm's
    adjusted p-value is at most ``alpha``, else ``not told apart``; for a screen with a rule,
    ``goes on`` or ``stops`` by its score against ``screen_goes_on_at`` (``screened`` without
    one); ``reference`` for a match others are compared with, ``measured`` for any other.
    ``compared_with`` is read in the file's own folder; it and the result columns are
    ``None`` where there is none.

    Raises
    ------
    ValueError
        If a match is not in the manifest, or a comparison pairs other games
        (:func:`pair_matches`).
    """
    missing = [name for name in runs if name not in files]
    if missing:
        raise ValueError(f"not in the manifest: {', '.join(missing)}")

    def other(name: str) -> str | None:
        partner = files[name].get("compared_with")
        folder = name.rpartition("/")[0]
        return None if partner is None else "/".join(filter(None, (folder, partner)))

    pairs = pair_matches(runs, {name: other(name) for name in runs})
    rows = []
    for name, (settings, games) in runs.items():
        about = files[name]
        row = {"file": name, **match_row(settings, games), "lever": about.get("lever", about.get("what")),
               "engine": about.get("engine"), "fepaper": about.get("fepaper"), "family": about.get("family"),
               "pool": about.get("pool"), "compared_with": other(name), "chosen_before": about.get("test"),
               "screen": about.get("screen"), "screen_goes_on_at": about.get("screen_goes_on_at")}
        paired_counts = pairs.get(name, {})
        row.update({"paired_games": paired_counts.get("games"), "only_first": paired_counts.get("only_first"),
                    "only_second": paired_counts.get("only_second")})
        rows.append(row)
    tests = family_tests([r for r in rows if r["family"] is not None])
    referenced = {r["compared_with"] for r in rows}
    for row in rows:
        test = tests.get(row["file"], {})
        row.update({"test": test.get("test"), "test_only_first": test.get("only_first"),
                    "test_only_second": test.get("only_second"), "p": test.get("p"),
                    "p_holm": test.get("p_holm")})
        row["verdict"] = _verdict(row, referenced, alpha)
    return rows
