"""``mafia-table hall seating``: make a tournament's seating (docs/hall.md, "Making the seating").

    mafia-table hall seating --players N --rounds R [--tables T] [--seed S] [--seconds S]
        [--restrictions FILE] [--names FILE] [--output FILE]
        [--reseat FILE --from-round K [--withdraw NAME]... [--substitute NAME=NEW]...]

Writes the CSV the hall board reads (``round,table,seat,player``) to ``--output`` or stdout and
its quality to stderr. ``--rounds`` is the games each player plays: the rounds, when the tables
hold everyone (the default: players / 10 tables). ``--seconds`` is work, not time: the same
seed and seconds give the same seating on any machine (hall/seating/plan.py).

``--reseat`` reads the tournament's seating so far and keeps its rounds before ``--from-round``
as they are: a ``--substitute`` takes the seats of the player they replace from that round on,
and after a ``--withdraw`` the rounds from that one on are seated again without the player
(hall/seating/reseat.py).

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
    parser.add_argument("--reseat", metavar="FILE",
                        help="the seating so far (CSV): keep its rounds before --from-round")
    parser.add_argument("--from-round", type=int, metavar="K",
                        help="with --reseat: the first round seated again")
    parser.add_argument("--withdraw", action="append", default=[], metavar="NAME",
                        help="with --reseat: a player who plays no more from --from-round on")
    parser.add_argument("--substitute", action="append", default=[], metavar="NAME=NEW",
                        help="with --reseat: NEW takes NAME's seats from --from-round on")
    parser.set_defaults(run=run)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mafia-table hall seating",
                                     description="Make a tournament's seating.")
    add_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """The command on parsed arguments."""
    from hall.seating import chart as seating
    from hall.seating import inputs, plan, report, reseat
    from hall.seating.instance import Refused, instance, named

    def refuse(reasons: list[str]) -> int:
        for reason in reasons:
            print(f"mafia-table hall seating: {reason}", file=sys.stderr)
        return 2

    if not 0 < args.seconds < math.inf:
        return refuse([f"--seconds {args.seconds}: a number of seconds above 0"])
    if args.players < 0:
        return refuse([f"--players {args.players}: a number of players"])
    wrong = _reseat_arguments(args)
    if wrong:
        return refuse(wrong)
    made = None
    names = inputs.default_names(args.players)
    try:
        if args.names:
            names = inputs.names(_read(args.names), args.players, args.names)
        rules = inputs.Restrictions()
        if args.restrictions:
            rules = inputs.restrictions(_read(args.restrictions), names, args.restrictions)
        if args.reseat:
            seats = seating.parse(_read(args.reseat), seats=10)
            if args.withdraw:
                seats, made = plan.reseated(names, instance(args.players, args.rounds,
                                                            args.tables),
                                            rules, seats, args.from_round, args.withdraw,
                                            args.seed, args.seconds)
            swaps = dict(part.split("=", 1) for part in args.substitute)
            seats = reseat.substitute(seats, args.from_round,
                                      {old.strip(): new.strip() for old, new in swaps.items()},
                                      names)
        else:
            seats, made = plan.seated(names, args.rounds, args.tables, rules, args.seed,
                                      args.seconds)
    except inputs.InputError as exc:
        return refuse([f"{exc.source}: {problem}" for problem in exc.problems])
    except seating.SeatingError as exc:
        return refuse([f"{args.reseat}: {problem}" for problem in exc.problems])
    except Refused as exc:
        return refuse([f"cannot be seated: {named(reason, names)}" for reason in exc.reasons])
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
    if made is not None:
        for line in report.describe(made, names):
            print(line, file=sys.stderr)
    return 0


def _reseat_arguments(args: argparse.Namespace) -> list[str]:
    """What is wrong with the re-seating options, if anything."""
    given = args.from_round is not None or args.withdraw or args.substitute
    if not args.reseat:
        return ["--from-round, --withdraw and --substitute go with --reseat"] if given else []
    wrong = []
    if args.from_round is None or args.from_round < 2:
        wrong.append("--reseat needs --from-round K, the first round seated again (2 or more)")
    if not args.withdraw and not args.substitute:
        wrong.append("--reseat needs a --withdraw or a --substitute")
    wrong += [f"--substitute {given!r}: NAME=NEW expected" for given in args.substitute
              if "=" not in given or not all(part.strip() for part in given.split("=", 1))]
    return wrong


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
