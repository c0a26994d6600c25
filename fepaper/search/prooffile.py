"""The file of a certificate: a winner's strategy, compressed, named by the rules.

A certificate says who wins a position with perfect play and how: for every position of the
winner that its strategy reaches, the one turn it plays there. Whoever checks it (``fepaper
verify-proof``, :mod:`fepaper.search.reference.proofcheck`) plays every turn of the loser
against it with rules of its own, so the file needs to hold no turn of the loser: a strategy
that misses an answer, or plays a turn that does not win, is found wanting whatever the file
says.

The file is gzip-compressed text (written with no time stamp, so the same strategy gives the
same bytes). The first line is a JSON object: ``format`` (:data:`FORMAT`), ``rules`` (every
field), ``moves`` (the game before the position proven, ``""`` for the kick-off), ``winner`` (1
or 2), ``edges`` (the board's edge count) and ``records`` (how many lines follow). Each further
line is one position of the winner and its turn::

    <marked edges> <x>,<y> <turns played> <turn>

the marked edges (walls included) as a hexadecimal bit set over the board's edge numbers, the
ball's node, the turns played before the position (0 unless the rules have a turn limit) and
the turn's steps (digits 0-7).

Examples
--------
>>> proof_name({"width": 4, "height": 6, "bounce": "mandatory"})
'4x6-goal2-middle-mandatory-deadend-blocked-blocked-loss.proof.gz'
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from ..game.jsonio import JSONInputError, read_bytes
from ..game.rules import Rules
from ..game.writes import write_atomic

__all__ = ["FORMAT", "ProofFileError", "proof_name", "write_proof", "read_proof", "MAX_PROOF_BYTES"]

#: The format's name, the first field of every certificate.
FORMAT = "fepaper-proof/1"
#: The largest certificate read (compressed), and the most text it may expand to.
MAX_PROOF_BYTES = 1 << 30
_MAX_TEXT = 1 << 34
_RECORD = re.compile(r"([0-9a-f]{1,4096}) (-?[0-9]{1,4}),(-?[0-9]{1,4}) ([0-9]{1,6}) ([0-7]{1,4096})")


class ProofFileError(ValueError):
    """A certificate file that is not one fepaper writes: named with what is wrong and where."""


def proof_name(rules) -> str:
    """The file name of the certificate of ``rules``' kick-off: every field of the rules in words."""
    r = Rules.from_spec(rules)
    name = (f"{r.width}x{r.height}-goal{r.goal_width}-{'middle' if r.middle_line else 'open'}-{r.bounce}"
            f"-deadend-{r.dead_end}-blocked-{r.blocked}")
    return name + (f"-turns{r.max_turns}" if r.max_turns else "") + ".proof.gz"


def write_proof(path: str | Path, rules, moves: str, winner: int, n_edges: int,
                records: list[tuple[int, tuple[int, int], int, str]]) -> Path:
    """Write the certificate ``path`` (atomically): ``records`` are ``(marked edges as an int,
    ball node, turns played, turn)``, one per position of the winner. Returns the path."""
    header = {"format": FORMAT, "rules": Rules.from_spec(rules).to_dict(), "moves": moves, "winner": winner,
              "edges": n_edges, "records": len(records)}
    lines = [json.dumps(header, sort_keys=True)]
    lines += [f"{edges:x} {x},{y} {turn} {steps}" for edges, (x, y), turn, steps in sorted(records)]
    data = gzip.compress(("\n".join(lines) + "\n").encode("ascii"), mtime=0)
    return write_atomic(path, data, "certificate")


def read_proof(path: str | Path) -> tuple[dict, dict]:
    """The header and the strategy of the certificate ``path``: ``{(marked edges as an int, ball
    node, turns played): turn}``.

    Raises
    ------
    ProofFileError
        Naming the file and the line: not gzip, not the format, a malformed record, two records for
        one position, or a record count that is not the header's.
    """
    where = f"certificate {path}"
    try:
        data = read_bytes(path, "certificate", MAX_PROOF_BYTES)
    except JSONInputError as exc:
        raise ProofFileError(str(exc)) from None
    try:
        with gzip.GzipFile(fileobj=__import__("io").BytesIO(data)) as f:
            text = f.read(_MAX_TEXT + 1)
    except (OSError, EOFError) as exc:
        raise ProofFileError(f"{where}: not a gzip file ({exc})") from None
    if len(text) > _MAX_TEXT:
        raise ProofFileError(f"{where}: expands to more than {_MAX_TEXT:,} bytes")
    try:
        lines = text.decode("ascii").split("\n")
    except UnicodeDecodeError:
        raise ProofFileError(f"{where}: not ASCII text") from None
    if lines[-1]:
        raise ProofFileError(f"{where}, line {len(lines)}: no line ending (cut short?)")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise ProofFileError(f"{where}, line 1: not a JSON header ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ProofFileError(f"{where}, line 1: not a {FORMAT} header")
    expected = {"format", "rules", "moves", "winner", "edges", "records"}
    if set(header) != expected:
        raise ProofFileError(f"{where}, line 1: the header's fields must be {', '.join(sorted(expected))}")
    if header["winner"] not in (1, 2) or isinstance(header["winner"], bool):
        raise ProofFileError(f"{where}, line 1: winner must be 1 or 2, got {header['winner']!r}")
    if not isinstance(header["moves"], str) or not re.fullmatch(r"(?:[0-7]+(?: [0-7]+)*)?", header["moves"]):
        raise ProofFileError(f"{where}, line 1: moves must be turns of digits 0-7 separated by spaces")
    try:
        Rules.from_spec(header["rules"])
    except (ValueError, TypeError) as exc:
        raise ProofFileError(f"{where}, line 1: rules: {exc}") from None
    body = lines[1:-1]
    if header["records"] != len(body):
        raise ProofFileError(f"{where}: the header says {header['records']!r} records, the file holds "
                             f"{len(body)} (cut, or records added or removed)")
    strategy: dict = {}
    for number, line in enumerate(body, start=2):
        m = _RECORD.fullmatch(line)
        if not m:
            raise ProofFileError(f"{where}, line {number}: not a record '<marked edges in hex> <x>,<y> "
                                 f"<turns played> <turn>': {line[:80]!r}")
        key = (int(m[1], 16), (int(m[2]), int(m[3])), int(m[4]))
        if not isinstance(header["edges"], int) or key[0].bit_length() > header["edges"]:
            raise ProofFileError(f"{where}, line {number}: marked edges beyond the header's "
                                 f"{header['edges']!r} edges")
        if key in strategy:
            raise ProofFileError(f"{where}, line {number}: a second record for the same position")
        strategy[key] = m[5]
    return header, strategy
