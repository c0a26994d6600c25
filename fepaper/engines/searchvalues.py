"""Search values as a value network's targets: each labelled position valued by a search (or by
an outside program, such as another engine).

A network fitted on game results learns from one noisy number per game (a game is often
decided by one late mistake). :func:`search_values` gives every ``every``-th position of
:func:`fepaper.engines.valuefit.positions` (by its index there) the value a
``bestfirst`` search of ``iterations`` iterations with a network gives it, for the player
to move (a proven result as 1 or -1). :func:`~fepaper.engines.valuefit.blend` mixes them into the
results: a network fitted on the blend learns what a search a few turns deep sees at each
position, the value targets of expert iteration (Anthony et al. 2017) and AlphaZero (Silver et al. 2018).
:func:`program_values` asks an outside program for the values instead (a stronger searcher's,
distilled into the network).

The values are written as they are made to a JSON-lines file, one line per game, after a
header naming the games (a digest of their moves), the network and the iterations (or the
program's command) and ``every``: a killed run resumes from the games done, and a file made for other games or
another search is refused. With a fixed number of iterations (and the search's seed 0) the
same call writes the same file.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from ..game.rules import Rules
from ..play.limits import MAX_GAMES
from ..search.valuefile import SEARCH_NET
from .jsonlines import appending, read_lines
from .valuefit import positions

__all__ = ["FORMAT", "SearchValuesError", "games_digest", "search_values", "program_values",
           "read_search_values", "values_of_file", "against_results"]

FORMAT = "fepaper-search-values-1"

#: Games one task of a pool values.
_CHUNK = 16
#: The most games (and the largest ``every``) a values file may be for.
MAX_POSITIONS = 100 * MAX_GAMES


class SearchValuesError(ValueError):
    """A search values file that does not fit the games or the search asked for."""


def games_digest(rows: list[dict]) -> str:
    """A digest of the games (their moves and who won), in order: what a values file is for."""
    h = hashlib.sha256()
    for row in rows:
        h.update(f"{row['moves']}|{row['a_player']}|{row['winner']}\n".encode())
    return h.hexdigest()[:16]


def _header(rows, rules: Rules, valuer: dict, every: int) -> dict:
    """What a values file of ``rows`` starts with; ``valuer``: what valued the positions."""
    _check_positive("every", every)
    return {"format": FORMAT, "games": len(rows), "digest": games_digest(rows), "rules": rules.to_dict(),
            **valuer, "every": every}


def _labelled(rows, every: int) -> list[list[int]]:
    """For each game, the turn numbers (0-based) of its labelled positions: those whose index in
    :func:`~fepaper.engines.valuefit.positions` is a multiple of ``every``."""
    out, index = [], 0
    for row in rows:
        n = len(row["moves"].split())
        out.append([t for t in range(n) if (index + t) % every == 0])
        index += n
    return out


def _values_of_games(rules: dict, net: str, iterations: int,
                     games: list[tuple[str, list[int]]]) -> list[list[float]]:
    """Worker: the search value of the labelled positions of each game (moves, turn numbers)."""
    from ..game.game import Game
    from ..search.bestfirst import bestfirst_search

    out = []
    for moves, turns in games:
        game, values = Game(rules), []
        for turn_number, token in enumerate(moves.split()):
            if turn_number in turns:
                r = bestfirst_search(game, iterations, evaluator="net", net=net, seed=0)
                values.append(round(float(min(max(r.value, -1.0), 1.0)), 5))
            game.push(token)
        out.append(values)
    return out


def read_search_values(path: str | Path, header: dict | None = None) -> tuple[dict, dict[int, list[float]]]:
    """The header and the values per game of a file of :func:`search_values`; with ``header``,
    a file whose header differs raises :class:`SearchValuesError` naming the field. A last line
    cut by a kill is left out, with a warning (the file is not changed:
    :func:`~fepaper.engines.jsonlines.read_lines`). Every row is checked: a game number below the
    header's ``games``, on file once, and a list of finite numbers in [-1, 1].

    Raises
    ------
    SearchValuesError
        Naming the file, the line and the field.
    """
    found, lines = read_lines(path, "search values file", SearchValuesError)
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise SearchValuesError(f"{path}: not a search values file (format {FORMAT!r} expected)")
    if header is not None:
        for key, want in header.items():
            if found.get(key) != want:
                raise SearchValuesError(f"{path}: made with {key} {_cut(found.get(key))}, not {want!r}")
    count, every = found.get("games"), found.get("every")
    for key, value in (("games", count), ("every", every)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_POSITIONS:
            raise SearchValuesError(f"{path} line 1: {key}: an integer from 1 to {MAX_POSITIONS}, "
                                    f"got {_cut(value)}")
    games: dict[int, list[float]] = {}
    for where, row in lines:
        if not (isinstance(row, dict) and set(row) == {"game", "values"}):
            raise SearchValuesError(f"{where}: expected {{\"game\": int, \"values\": [...]}}")
        k, values = row["game"], row["values"]
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < count:
            raise SearchValuesError(f"{where}: game: a game number from 0 to {count - 1} (the file is for "
                                    f"{count} games), got {_cut(k)}")
        if k in games:
            raise SearchValuesError(f"{where}: game {k} is on file twice")
        if not isinstance(values, list) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and -1.0 <= v <= 1.0 for v in values):
            raise SearchValuesError(f"{where}: values: a list of numbers from -1 to 1 (values for the "
                                    f"player to move), got {_cut(values)}")
        games[k] = [float(v) for v in values]
    return found, games


def _cut(value, width: int = 60) -> str:
    """``repr(value)`` cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _program_values_of_games(command: str, games: list[tuple[str, list[int]]]) -> list[list[float]]:
    """Worker: the values the program ``command`` gives the labelled positions of each game
    (moves, turn numbers), from one run of it (a :class:`~fepaper.engines.programs.Program`)."""
    import math

    from .programs import Program

    out = []
    with Program(command) as program:
        for moves, turns in games:
            tokens, values = moves.split(), []
            for t in turns:
                position = " ".join(tokens[:t])
                if not program.send(position + "\n"):
                    raise SearchValuesError(f"{command!r} ended before valuing the position after "
                                            f"{position!r}")
                answer = program.read_line(None)  # no deadline: a valuer takes the time it needs
                words = (answer or "").split()
                try:
                    value = float(words[0])
                except (IndexError, ValueError):
                    value = math.nan
                if not -1.0 <= value <= 1.0:
                    said = f"answered {answer.strip()!r}" if answer else "ended"
                    raise SearchValuesError(f"{command!r} {said} for the position after {position!r}, "
                                            "not a value in [-1, 1] first")
                values.append(round(value, 5))
            out.append(values)
    return out


def search_values(rows: list[dict], out: str | Path, *, net: str = SEARCH_NET,
                  iterations: int = 100, every: int = 4, rules="codingame", executor=None,
                  progress: bool = True) -> np.ndarray:
    """The search value of every ``every``-th position of ``rows`` (NaN for the others), made or
    resumed in ``out``.

    ``rows``: games as :func:`~fepaper.engines.valuefit.positions` reads them (e.g.
    :func:`fepaper.engines.training.training_rows`); ``net``: the network the search values
    its leaves with (a shipped name or a path); ``executor``: a pool to value games in
    (default this process).

    Raises
    ------
    SearchValuesError
        If ``out`` exists for other games or another search, or a line of it is damaged.
    ValueError
        If ``iterations`` or ``every`` is not a positive integer.
    """
    _check_positive("iterations", iterations)
    rules = Rules.from_spec(rules)
    header = _header(rows, rules, {"net": str(net), "iterations": iterations}, every)
    return _make(rows, out, header, _values_of_games, (rules.to_dict(), str(net), iterations), executor,
                 progress, "games valued by search")


def program_values(rows: list[dict], out: str | Path, command: str, *, every: int = 4, rules="codingame",
                   executor=None, progress: bool = True) -> np.ndarray:
    """The values an outside program gives every ``every``-th position of ``rows`` (NaN for the
    others), made or resumed in ``out`` like :func:`search_values`' (the header names the
    ``command`` instead of a network and iterations).

    The program (``command``, split like a shell would; one started per chunk of games) reads a
    position a line on its standard input: the turns played from the kick-off, space-separated,
    in the CodinGame protocol's notation (an empty line: the kick-off); it answers each with one
    line whose first word is the position's value for the player to move, in [-1, 1] (1: a
    win), e.g. another engine's search value. A program may search at random: the same
    command need not write the same file.

    Raises
    ------
    SearchValuesError
        If ``out`` exists for other games or another command, a line of it is damaged, or the
        program ends, or answers anything but a number in [-1, 1] (naming the position).
    ValueError
        If ``every`` is not a positive integer.
    """
    rules = Rules.from_spec(rules)
    header = _header(rows, rules, {"program": command}, every)
    return _make(rows, out, header, _program_values_of_games, (command,), executor, progress,
                 "games valued by the program")


def _check_positive(name: str, v) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ValueError(f"{name} must be a positive integer, got {v!r}")


def _make(rows, out, header: dict, worker, arguments: tuple, executor, progress: bool,
          label: str) -> np.ndarray:
    """Write (or resume) the values file ``out`` of ``rows`` under its lock (a second writer is
    refused at once: :func:`~fepaper.engines.jsonlines.appending`): ``worker(*arguments, games)`` values each
    chunk of games (their moves and labelled turn numbers); each chunk is written as it comes."""
    from ..game.progress import bar
    from ..play.arena import in_order
    from ..play.pools import SerialExecutor

    turns = _labelled(rows, header["every"])

    def on_file(path: Path) -> dict[int, list[float]]:
        _, found = read_search_values(path, header)
        _check_counts(path, found, turns)
        return found

    with appending(out, header, "search values file", on_file) as (found, append):
        done: dict[int, list[float]] = found or {}
        todo = [k for k in range(len(rows)) if k not in done]
        chunks = [todo[i : i + _CHUNK] for i in range(0, len(todo), _CHUNK)]
        tasks = ((*arguments, [(rows[k]["moves"], turns[k]) for k in chunk]) for chunk in chunks)
        with bar(len(rows), label, "game", disable=not progress, initial=len(done)) as shown:
            for chunk, valued in zip(chunks, in_order(executor or SerialExecutor(), worker, tasks)):
                for k, values in zip(chunk, valued):  # kept as each comes
                    append({"game": k, "values": values})
                    done[k] = values
                shown.update(len(chunk))
    return _assemble(rows, turns, done)


def _assemble(rows, turns, done) -> np.ndarray:
    values = np.full(sum(len(r["moves"].split()) for r in rows), np.nan, np.float32)
    index = 0
    for k, row in enumerate(rows):
        for t, v in zip(turns[k], done[k]):
            values[index + t] = v
        index += len(row["moves"].split())
    return values


def values_of_file(rows: list[dict], path: str | Path) -> np.ndarray:
    """The values :func:`search_values` wrote to ``path`` for ``rows`` (NaN where none), read
    without searching.

    Raises
    ------
    SearchValuesError
        If the file was made for other games or holds fewer games than ``rows`` (a run not
        finished: ``fepaper net searchvalues`` resumes it).
    """
    wanted = {"format": FORMAT, "games": len(rows), "digest": games_digest(rows)}
    header, done = read_search_values(path, wanted)
    if len(done) < len(rows):
        raise SearchValuesError(f"{path}: {len(rows) - len(done)} of its {len(rows)} games are not valued "
                                "yet (fepaper net searchvalues resumes the run)")
    turns = _labelled(rows, header["every"])
    _check_counts(path, done, turns)
    return _assemble(rows, turns, done)


def _check_counts(path, done: dict[int, list[float]], turns: list[list[int]]) -> None:
    """Each game on file has one value per labelled position."""
    for k, values in sorted(done.items()):
        if len(values) != len(turns[k]):
            raise SearchValuesError(f"{path}: game {k} has {len(values)} values, not {len(turns[k])}")



def against_results(rows: list[dict], values: np.ndarray, net, rules="codingame") -> list[dict]:
    """How well the search values, and the values of the network ``net`` (a
    :class:`~fepaper._core.valuenet.ValueNet`) alone, foretell the results of the positions the
    search valued: per source, ``positions``, the mean squared error against the result for
    the player to move (+1, -1 or 0), the correlation with it, and the share valued as a
    proven result (+1 or -1 exactly)."""
    from .._core.valuenet import net_values
    from ..game.game import Game

    rules = Rules.from_spec(rules)
    pos = positions(rows, rules)
    has = ~np.isnan(values)
    result = pos["target"][has].astype(np.float64)
    own = net_values(net, pos["marks"][has], pos["ball"][has], pos["mover"][has], pos["played"][has],
                     rules.flags.max_turns, Game(rules).board.arrays)
    out = []
    for source, v in (("network", own), ("search", values[has].astype(np.float64))):
        out.append({"source": source, "positions": int(has.sum()),
                    "squared_error": float(np.mean((v - result) ** 2)),
                    "correlation": float(np.corrcoef(v, result)[0, 1]),
                    "proven": float(np.mean(np.abs(v) >= 1.0))})
    return out
