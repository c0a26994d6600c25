"""A round robin's config file (``fepaper tournament CONFIG``): ``{"rules": ..., "players": [specs],
"games": N, "seed": S, "opening_turns": T, "out": "data/....csv"}``, read as untrusted input: every
key checked, the players made (so a bad spec is named before any game), defaults filled in."""

from __future__ import annotations

from ..controllers import checked_spec
from ..game.jsonio import load
from ..game.rules import Rules
from .arena import BOUNDS

__all__ = ["MAX_PLAYERS", "read_tournament_config"]

_CONFIG_INTEGERS = {"games": 1, "seed": 0, "opening_turns": 0}
#: The most players of a round robin (each pair plays its games).
MAX_PLAYERS = 64


def _cut(value, width: int = 60) -> str:
    shown = repr(value)
    return shown if len(shown) <= width else shown[: width - 3] + "..."


def read_tournament_config(path: str) -> dict:
    """The round robin's config at ``path``, every key checked, defaults filled in (rules thesis,
    10 games a pairing, seed 0, 2 opening turns).

    Raises
    ------
    ValueError
        Naming the file and what was wrong.
    """
    where = f"tournament config {path}"
    config = load(path, "tournament config", limit=1 << 20)
    known = {"rules", "players", "out", *_CONFIG_INTEGERS}
    if not isinstance(config, dict) or "players" not in config or set(config) - known:
        raise ValueError(f"{where}: must be a JSON object with 'players' and only keys from {sorted(known)}")
    config = {"rules": "thesis", "games": 10, "seed": 0, "opening_turns": 2, **config}
    for key, low in _CONFIG_INTEGERS.items():
        value = config[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{where}: {key} must be an integer >= {low}, got {_cut(value)}")
        if value > BOUNDS[key]:
            raise ValueError(f"{where}: {key} must be at most {BOUNDS[key]:,}, got {_cut(value)}")
    if "out" in config and not isinstance(config["out"], str):
        raise ValueError(f"{where}: out must be a file name, got {config['out']!r}")
    try:
        config["rules"] = Rules.from_spec(config["rules"])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: rules: {exc}") from None
    players = config["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"{where}: players must be a list of at least 2 controller specs (at most "
                         f"{MAX_PLAYERS}), got {_cut(players)}")
    config["players"] = [checked_spec(p, f"{where}: players[{i}]") for i, p in enumerate(players)]
    return config
