"""``mafia-table hall seating``: make a tournament's seating (docs/hall.md, "Making the seating").

    mafia-table hall seating --players N --rounds R [--tables T] [--seed S] [--seconds S]
        [--restrictions FILE] [--names FILE] [--output FILE]

Writes the CSV the hall board reads (``round,table,seat,player``) to ``--output`` or stdout and
its quality to stderr. ``--rounds`` is the games each player plays: the rounds, when the tables
hold everyone (the default: players / 10 tables). ``--seconds`` is work, not time: the same
seed and seconds give the same seating on any machine (hall/seating/plan.py).

Exit codes: 0 written, 2 refused (the reasons on stderr: bad arguments or files, an instance
that cannot be seated), 1 the output file cannot be written.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

DEFAULT_SECONDS = 30.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's options, on a parser of the caller's (a subcommand's)."""
    parser.add_argument("--players", type=int, required=True, metavar="N")
    parser.add_argument("--rounds", type=int, required=True, metavar="R",
                        help="games each player plays (the rounds, when everyone plays "
                             "every round)")
    parser.add_argument("--tables", type=int, metavar="T",
                        help="tables a round (default: players / 10)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the same seed gives the same seating (default 1)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, metavar="S",
                        help=f"work to spend, in seconds of the reference machine (default "
                             f"{DEFAULT_SECONDS:g}; a slower machine takes longer for the same "
                             "seating)")
    parser.add_argument("--restrictions", metavar="FILE",
                        help="pairs kept apart / meeting rarely (docs/hall.md)")
    parser.add_argument("--names", metavar="FILE", help="the players' names, one a line")
    parser.add_argument("--output", metavar="FILE", help="write the CSV here (default: stdout)")
    parser.set_defaults(run=run)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mafia-table hall seating",
                                     description="Make a tournament's seating.")
    add_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """The command on parsed arguments."""
    from hall.seating import chart as seating
    from hall.seating import inputs, plan, report
    from hall.seating.instance import Refused

    def refuse(reasons: list[str]) -> int:
        for reason in reasons:
            print(f"mafia-table hall seating: {reason}", file=sys.stderr)
        return 2

    if not 0 < args.seconds < math.inf:
        return refuse([f"--seconds {args.seconds}: a number of seconds above 0"])
    if args.players < 0:
        return refuse([f"--players {args.players}: a number of players"])
    try:
        names = inputs.default_names(args.players)
        if args.names:
            names = inputs.names(_read(args.names), args.players, args.names)
        rules = inputs.Restrictions()
        if args.restrictions:
            rules = inputs.restrictions(_read(args.restrictions), names, args.restrictions)
        seats, made = plan.seated(names, args.rounds, args.tables, rules, args.seed,
                                  args.seconds)
    except inputs.InputError as exc:
        return refuse([f"{exc.source}: {problem}" for problem in exc.problems])
    except Refused as exc:
        return refuse([f"cannot be seated: {reason}" for reason in exc.reasons])
    except OSError as exc:
        return refuse([f"cannot read {exc.filename}: {exc.strerror}"])
    text = seating.render(seats)
    seating.parse(text, seats=10)  # what the board will read: refuses here, never there
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"mafia-table hall seating: cannot write {args.output}: {exc.strerror}",
                  file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    for line in report.describe(made, names):
        print(line, file=sys.stderr)
    return 0


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
