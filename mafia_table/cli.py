"""``mafia-table``: one command for every part of the project, each part's subcommands its own.

    mafia-table run | sim | state | consoles | check-config | doctor | watch | pinout |
                selftest | asyncapi           the table's (controller.cli)
    mafia-table judge [serve | export] ...    the judge's panel (judge.panel.cli)
    mafia-table hall board|seating ...        the hall board, the seating (hall.cli)
    mafia-table tls --dir DIR ...             the web pages' CA and certificate (kit.pki_cli)

Each part adds its subcommands to the one parser (``add_commands``), each with its handler
as ``run``; this module only composes them, so the table's CLI needs nothing of the judge's
or the hall's. Exit codes are each command's (``controller.cli`` lists the table's); a config
that cannot be used is exit 2 from any of them, with every problem named.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from controller import __version__
from controller import cli as table
from hall import cli as hall
from judge.panel import cli as judge
from kit import pki_cli as tls
from kit.config import ConfigError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mafia-table",
                                     description="The controller of a sport-mafia club table.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for part in (table, judge, hall, tls):
        part.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except ConfigError as exc:  # from any command: nothing has started
        print(exc.report(), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
