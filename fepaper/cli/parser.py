"""The ``fepaper`` command line built from its commands: each group's module declares its commands
(:class:`~fepaper.cli.command.Command`: help, arguments and what it does, together); this module
only puts them under one parser, ``fepaper net`` holding the value networks' tools, and lists them
by group in ``fepaper --help``."""

from __future__ import annotations

import argparse

from . import engines, game, networks, speed, thesis
from .arguments import Parser
from .command import Command

__all__ = ["COMMANDS", "GROUPS", "build_parser"]

#: Every command, its group's module by its group's module, in the order of ``fepaper --help``.
COMMANDS: list[Command] = [*game.COMMANDS, *thesis.COMMANDS, *speed.COMMANDS, *engines.COMMANDS,
                           *networks.COMMANDS]
#: The commands as ``fepaper --help`` lists them, by what they are for.
GROUPS: dict[str, tuple[str, ...]] = {}
for _c in COMMANDS:
    GROUPS[_c.group] = (*GROUPS.get(_c.group, ()), _c.name)
del _c
#: The parent of the value networks' tools.
NET_HELP = ("the value networks' research tools: fit, agree, searchvalues",
            "The value networks of bestfirst: fit one (fepaper net fit), compare networks on an engine's "
            "choices (fepaper net agree), value the positions of referee games by a search or a program "
            "(fepaper net searchvalues). fepaper net COMMAND --help says more.")


def _grouped() -> str:
    width = max(len(c.name) for c in COMMANDS) + 2
    lines = []
    for title, names in GROUPS.items():
        helps = {c.name: c.help for c in COMMANDS}
        lines += ["", f"{title}:"] + [f"  {name:<{width}}{helps[name]}" for name in names]
    return "\n".join(lines[1:])


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the traceback of an error instead of one line")
    parser = Parser(
        prog="fepaper", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Paper soccer (Fútbol en papel) research tools: exact rules, perft, "
        "benchmarks and the notebooks that reproduce the thesis.", epilog=_grouped(),
    )
    parser.add_argument("--version", action="version", version=f"fepaper {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser,
                                help="one of the commands below; fepaper COMMAND --help says more")
    net_sub = None
    for c in COMMANDS:
        if c.name.startswith("net "):
            if net_sub is None:
                nets = sub.add_parser("net", parents=[common], description=NET_HELP[1])
                net_sub = nets.add_subparsers(dest="net_command", required=True, metavar="COMMAND",
                                              parser_class=Parser)
            p = net_sub.add_parser(c.name.split()[1], parents=[common], help=c.help,
                                   description=c.description)
            p.set_defaults(command=c.name)  # errors say "fepaper net NAME: error: ..."
        else:
            p = sub.add_parser(c.name, parents=[common], description=c.description)  # --debug after it too
        c.arguments(p)
        p.set_defaults(func=c.run)
    return parser
