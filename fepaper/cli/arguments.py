"""The command line's argument types and checks: each turns a bad value into a one-line error."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..game.rules import PRESETS, Rules

RULES_HELP = (
    f"a preset ({', '.join(PRESETS)}) or a JSON object of Rules fields, optionally with a "
    """"preset" to start from, e.g. '{"preset": "thesis", "bounce": "mandatory"}'"""
)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``fepaper CMD: error: ...``, exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


#: The largest integer an argument takes (numba's int64).
LARGEST = 2**63 - 1


def integer_at_least(low: int, high: int = LARGEST):
    """An argument type: an integer from ``low`` to ``high``, the bounds in the error."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{cut(text)} is not an integer") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, got {cut(text, 40)}")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse


def cut(text, width: int = 60) -> str:
    """``repr(text)`` cut to ``width`` characters: an input is named in an error, never echoed whole."""
    shown = repr(text)
    return shown if len(shown) <= width else shown[: width - 3] + "..."


def number_within(text: str, low: float, high: float, what: str) -> float:
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{cut(text)} is not a number") from None
    if not (math.isfinite(value) and low <= value <= high):
        raise argparse.ArgumentTypeError(f"must be {what}, got {cut(text, 40)}")
    return value


def fraction(text: str) -> float:
    value = number_within(text, 0.0, 1.0, "a fraction from 0 to below 1")
    if value >= 1:
        raise argparse.ArgumentTypeError(f"must be a fraction from 0 to below 1, got {text}")
    return value


def positive_number(text: str, high: float = 100.0) -> float:
    """A finite number above 0 and at most ``high`` (``inf`` and ``nan`` refused)."""
    value = number_within(text, 0.0, high, f"a number above 0 and at most {high:g}")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number above 0 and at most {high:g}, got {text}")
    return value


def weight(text: str) -> float:
    return number_within(text, 0.0, 1.0, "a weight from 0 to 1")


def at_least_one(text: str) -> float:
    return number_within(text, 1.0, 1000.0, "a number from 1 to 1000")


def seconds(text: str) -> float:
    return number_within(text, 0.0, 60.0, "seconds from 0 to 60")


def json_value(text: str, what: str):
    from ..game.jsonio import loads

    return loads(text, what)


def rules(text: str) -> Rules:
    try:
        return Rules.from_spec(json_value(text, "rules") if text.strip().startswith("{") else text)
    except (ValueError, TypeError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def controller_spec(value, what: str) -> dict:
    """A controller spec from the command line or a config (JSON text, bare name or dict), checked."""
    from ..controllers import checked_spec

    if isinstance(value, str) and value.strip().startswith("{"):
        value = json_value(value, what)
    return checked_spec(value, what)


def json_object(text: str | None, what: str) -> dict | None:
    if text is None:
        return None
    value = json_value(text, what)
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object, got {text!r}")
    return value


def count_seconds(text: str) -> float:
    value = number_within(text, 0.0, 86400.0, "seconds from 0 to 86400")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def two_names(text: str) -> tuple[str, str]:
    names = tuple(n.strip() for n in text.split(","))
    if len(names) != 2 or not all(names):
        raise argparse.ArgumentTypeError(f"two names separated by a comma, got {text!r}")
    return names


def memory_gb(text: str) -> float:
    value = number_within(text, 0.0, 1024.0, "gigabytes from 0 to 1024")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 GB, got {text}")
    return value


def in_checkout(relative: str, flag: str) -> Path:
    """The default of ``flag``: ``relative`` inside the fepaper checkout the command is run in (or
    the one fepaper is installed from); outside one, an error asking for ``flag``."""
    from ..notebook.budget import project_root

    try:
        return project_root() / relative
    except ValueError:
        raise ValueError(f"{flag} defaults to a checkout's {relative}, and {Path.cwd()} is in no fepaper "
                         f"checkout: give {flag}") from None
