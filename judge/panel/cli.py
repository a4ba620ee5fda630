"""``mafia-table judge``: the judge's panel for one table (docs/judge.md), one of its games
exported for a rating site (``judge export``, docs/exports.md), the live channel's JSON
Schema (``judge schema``, docs/judge-api.md), or each book's timings (``judge timings``,
docs/book-timings.md). ``mafia_table.cli`` composes
this command with the table's and the hall's.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from kit.logs import setup_logging

if TYPE_CHECKING:
    from judge.panel.config import JudgeConfig


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The judge's subcommand, with its handler as ``run``."""
    judge = sub.add_parser("judge", help="run the judge's panel: a game of a club's rule book "
                                         "on one table, from a browser (docs/judge.md); "
                                         "'judge export' prints a game for a rating site "
                                         "(docs/exports.md); 'judge schema' the live "
                                         "channel's JSON Schema (docs/judge-api.md); "
                                         "'judge timings' each book's timings "
                                         "(docs/book-timings.md)")
    judge.set_defaults(run=_judge)
    judge.add_argument("action", nargs="?", choices=("serve", "export", "schema", "timings"),
                       default="serve")
    judge.add_argument("--config", metavar="FILE",
                       help="judge config (TOML; not for schema, timings)")
    judge.add_argument("--game", metavar="ID", help="export: the game's id")
    judge.add_argument("--format", default="mafiaratings", choices=("mafiaratings",),
                       help="export: the format (default mafiaratings)")
    for option in ("club", "event", "tournament", "moderator"):
        judge.add_argument(f"--{option}", metavar="ID", help=f"export: the platform's {option} id")
    judge.add_argument("--language", metavar="XX", help="export: two letters (default: ru)")
    judge.add_argument("--listen", metavar="HOST:PORT", help="override [panel] listen")
    judge.add_argument("-v", "--verbose", action="store_true", help="debug logging")


def _judge(args: argparse.Namespace) -> int:
    import asyncio  # the panel's stack loads only for this command

    if args.action == "schema":
        from judge.panel.api_schema import render

        sys.stdout.write(render())
        return 0
    if args.action == "timings":
        from judge.panel.book_timings import render_doc

        sys.stdout.write(render_doc())
        return 0
    from judge.panel import config as judge_config
    from judge.panel.service import serve

    if not args.config:
        print(f"mafia-table judge {args.action}: --config FILE is needed", file=sys.stderr)
        return 2
    cfg = judge_config.load(args.config, args.listen)
    if args.action == "export":
        return _judge_export(args, cfg)
    setup_logging(args.verbose)
    try:
        asyncio.run(serve(cfg, freeze=True))
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # the listen address is taken or not ours
        print(f"mafia-table judge: cannot listen on {cfg.panel.listen}: {exc}", file=sys.stderr)
        return 1
    return 0


def _judge_export(args: argparse.Namespace, cfg: JudgeConfig) -> int:
    from judge.panel import export

    if not args.game:
        print("mafia-table judge export: --game ID is needed (the ids: GET /api/games)",
              file=sys.stderr)
        return 2
    options = {k: getattr(args, k) for k in ("club", "event", "tournament", "moderator",
                                             "language") if getattr(args, k) is not None}
    try:
        data = export.export(cfg, args.game, options)
    except export.ExportFailed as exc:
        print(f"mafia-table judge export: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(data.decode() + "\n")
    return 0
