"""Which bot and which network played a referee's match: the controller spec of a ``fepaper bot``
command line (:func:`bot_spec`), and its network found where fepaper keeps its networks, checked
by its sha256 when the bot read it under another name (:func:`shipped_nets`).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from ..search.valuefile import network_path

__all__ = ["bot_spec", "shipped_nets"]


def bot_spec(command: str) -> dict | None:
    """The controller spec of a ``fepaper bot '<spec>' ...`` command (as a file's ``cmd_a`` or
    ``cmd_b`` records it); ``None`` for another program."""
    found = re.search(r"\bbot\s+'(\{.*?\})'", command)
    return json.loads(found.group(1)) if found else None


def shipped_nets(spec: dict | None, shipped_as: dict | None = None) -> dict | None:
    """``spec`` with its network file (``net``) found by its name where fepaper keeps its networks
    (:func:`~fepaper.search.valuefile.network_path`: the one it ships, the others in its
    repository's ``data/strength/networks/``): a match's bot may have read the same file from a
    copy of fepaper elsewhere on the machine that played it. ``shipped_as``: ``{"file": name,
    "sha256": digest}`` for a bot that read a network under another name (one fitted before it was
    kept): the file ``name``, which must have the digest of the file the bot read.

    Raises
    ------
    ValueError
        If fepaper has no network of that name, or not the file of that digest.
    """
    if not spec or "net" not in spec:
        return spec
    name = shipped_as["file"] if shipped_as else Path(spec["net"]).name
    try:
        here = network_path(name)
    except ValueError as exc:
        raise ValueError(f"the bot's network {spec['net']} is not one fepaper keeps: {exc}") from None
    if shipped_as and hashlib.sha256(here.read_bytes()).hexdigest() != shipped_as["sha256"]:
        raise ValueError(f"the bot's network {spec['net']} is not {here}: its sha256 differs")
    return {**spec, "net": str(here)}
