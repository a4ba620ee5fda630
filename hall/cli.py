"""``mafia-table hall board`` (the hall board) and ``mafia-table hall seating`` (a tournament's
seating), docs/hall.md. ``mafia_table.cli`` composes this command with the table's and the
judge's; each subcommand's stack (``hall.board``'s web and MQTT, the seating's numpy) loads only
when it runs.
"""

from __future__ import annotations

import argparse

from hall.seating import cli as seating_cli
from kit import i18n

DESCRIPTION = "The organisers' board of a tournament hall."


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The hall's subcommands, each with its handler as ``run``."""
    hall = sub.add_parser("hall", help="the tournament hall: its board, its seating (docs/hall.md)",
                          description=DESCRIPTION)
    tools = hall.add_subparsers(dest="hall_command", required=True, metavar="board|seating")
    board = tools.add_parser("board", help="run the hall board: every table of a tournament hall "
                                           "for the organisers", description=DESCRIPTION)
    seating_cli.add_arguments(tools.add_parser("seating", help="make a tournament's seating CSV",
                                               description="Make a tournament's seating."))
    board.set_defaults(run=_board)
    board.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT",
                       help="the hall broker (default 127.0.0.1:1883)")
    board.add_argument("--username", default="hall-board", help="its account (hall-board)")
    board.add_argument("--password-file", required=True, metavar="FILE",
                       help="file holding that account's password")
    board.add_argument("--ca-file", metavar="FILE", help="TLS to the broker: the hall's CA")
    board.add_argument("--cert-file", metavar="FILE", help="TLS client certificate")
    board.add_argument("--key-file", metavar="FILE", help="TLS client key")
    board.add_argument("--listen", default="127.0.0.1:8090", metavar="HOST:PORT",
                       help="where the page is served (default 127.0.0.1:8090); an address "
                            "others reach needs --tls-dir (or --insecure-http)")
    board.add_argument("--tls-dir", metavar="DIR",
                       help="HTTPS with the certificate `mafia-table tls --dir DIR` makes")
    board.add_argument("--trust-listen", metavar="HOST:PORT",
                       help="plain HTTP page offering that CA to the organisers' devices")
    board.add_argument("--insecure-http", action="store_true",
                       help="plain HTTP on an address others reach: the password and the "
                            "board in the clear (a network nobody else uses)")
    board.add_argument("--board-password-file", required=True, metavar="FILE",
                       help="file holding the organisers' password for the page")
    board.add_argument("--language", choices=i18n.languages(), default=i18n.DEFAULT,
                       help="the page's language until an organiser switches it (default "
                            f"{i18n.DEFAULT})")
    board.add_argument("--count-wait", type=float, default=30.0, metavar="S",
                       help="alert when a vote count waits for its judge longer (default 30)")
    board.add_argument("--store", default="hall-board.db", metavar="FILE",
                       help="the hall's SQLite: the tournament and every game the tables send "
                            "(default hall-board.db)")


def _board(args: argparse.Namespace) -> int:
    from hall.board import run

    return run(args)
