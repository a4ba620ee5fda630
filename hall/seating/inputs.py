"""The generator's input files: the players' names and the restrictions, checked whole.

Names: one player a line (1 to 64 characters; blank lines and ``#`` comments are skipped),
exactly as many as ``--players``, no name twice. Without a file the players are
``Player 1`` .. ``Player N``.

Restrictions: one rule a line, its fields separated by commas, a kind, then what the kind
needs, players by name or by number 1..N::

    # a club, a family: no two of them ever at one table
    apart, Anna, Boris, Clara
    # may meet, as rarely as the balance allows
    avoid, Dmitry, 7
    # the judge of table 2 is their relative: never at table 2 (a number, or table-2)
    away, 2, Elena, Fedor
    # fixed seats: seat 1 for Anna in every round; seat 10 for Boris in rounds 2 and 3
    seat, 1, Anna
    seat, 10, Boris, 2, 3

``apart`` and ``avoid`` give every pair of the line's players the rule (two players or more).
Whether a table or round is in the tournament is the instance's question
(:func:`hall.seating.instance.instance`). Any mistake refuses the whole file, each named by its
line, so a half-read file never seats anyone.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field

from hall.seating.instance import Away, Pair, pair
from kit.i18n import Words

KINDS = ("apart", "avoid", "away", "seat")
#: a seat rule's rounds: every round of the stage, however many it has
EVERY_ROUND = -1


class InputError(ValueError):
    """A file with mistakes; ``problems`` names each by its line, as words (``str()``: the
    English; the tournament page renders them in its reader's language)."""

    def __init__(self, source: str, problems: list[Words]):
        super().__init__(f"{source}: " + "; ".join(str(p) for p in problems))
        self.source = source
        self.problems = problems


def default_names(players: int) -> list[str]:
    return [f"Player {k}" for k in range(1, players + 1)]


def names(text: str, players: int, source: str = "names") -> list[str]:
    """The names of a names file, or :class:`InputError`."""
    found: list[str] = []
    problems: list[Words] = []
    where: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        name = raw.strip()
        if not name or name.startswith("#"):
            continue
        if len(name) > 64:
            problems.append(Words("seating.input.long", line=number))
        elif name in where:
            problems.append(Words("seating.input.again", line=number, name=name,
                                  first=where[name]))
        else:
            where[name] = number
            found.append(name)
    if not problems and len(found) != players:
        problems.append(Words("seating.input.names", names=len(found), players=players))
    if problems:
        raise InputError(source, problems)
    return found


@dataclass
class Restrictions:
    """The rules of a restrictions file, players and tables numbered from 0; ``seats``:
    ``(round, player, seat)``, the round ``EVERY_ROUND`` for every round."""

    apart: set[Pair] = field(default_factory=set)
    avoid: set[Pair] = field(default_factory=set)
    away: set[Away] = field(default_factory=set)
    seats: set[tuple[int, int, int]] = field(default_factory=set)

    def fixed(self, rounds: int) -> set[tuple[int, int, int]]:
        """The fixed seats over ``rounds`` rounds: each every-round rule in each."""
        return {(r, p, s) for rule, p, s in self.seats
                for r in (range(rounds) if rule == EVERY_ROUND else (rule,))}


def _number(token: str, prefix: str = "") -> int | None:
    """A number from 1 written ``N`` (or ``<prefix>N``), as 0-based; None if it is not one."""
    if prefix and token.lower().startswith(prefix):
        token = token[len(prefix):]
    return int(token) - 1 if token.isdigit() and int(token) >= 1 else None


def restrictions(text: str, players: list[str], source: str = "restrictions",
                 key: Callable[[str], str] = str) -> Restrictions:
    """The rules of a restrictions file (players numbered from 0), or :class:`InputError`; a
    name is a player's when their ``key`` is one (the tournament reads `` anna `` as ``Anna``:
    ``hall.tournament.identity``)."""
    index = {key(name): k for k, name in enumerate(players)}
    found = Restrictions()
    problems: list[Words] = []
    for number, cells in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in cells]
        if not any(cells) or cells[0].startswith("#"):
            continue
        kind, given = cells[0].lower(), [c for c in cells[1:] if c]
        if kind not in KINDS:
            problems.append(Words("seating.input.rule", line=number, rule=cells[0],
                                  kinds=", ".join(KINDS)))
            continue

        def player(token: str, line: int = number) -> int | None:
            return _player(line, token, index, key, len(players), problems)

        if kind == "away":
            _away(number, given, player, found, problems)
            continue
        if kind == "seat":
            _seat(number, given, player, found, problems)
            continue
        chosen = [p for p in map(player, given) if p is not None]
        if len(chosen) < len(given):
            continue
        if len(set(chosen)) != len(chosen):
            problems.append(Words("seating.input.twice", line=number))
        elif len(given) < 2:
            problems.append(Words("seating.input.pair", line=number, kind=kind))
        else:
            rule = found.apart if kind == "apart" else found.avoid
            rule.update(pair(a, b) for k, a in enumerate(chosen) for b in chosen[k + 1:])
    if problems:
        raise InputError(source, problems)
    return found


def _player(number: int, token: str, index: dict[str, int], key: Callable[[str], str],
            players: int, problems: list[Words]) -> int | None:
    """The player ``token`` names on line ``number`` (a name, or a number 1..``players``),
    or None with the problem said."""
    if key(token) in index:
        return index[key(token)]
    if token.isdigit() and 1 <= int(token) <= players:
        return int(token) - 1
    problems.append(Words("seating.input.player", line=number, token=token, most=players))
    return None


def _away(number: int, given: list[str], player: Callable[[str], int | None],
          found: Restrictions, problems: list[Words]) -> None:
    """``away, <table>, player, ...``."""
    table = _number(given[0], "table-") if given else None
    if table is None or len(given) < 2:
        problems.append(Words("seating.input.away", line=number))
        return
    chosen = [player(token) for token in given[1:]]
    found.away.update((p, table) for p in chosen if p is not None)


def _seat(number: int, given: list[str], player: Callable[[str], int | None],
          found: Restrictions, problems: list[Words]) -> None:
    """``seat, <seat 1..10>, player[, round, ...]``."""
    seat = _number(given[0]) if given else None
    if seat is None or seat >= 10 or len(given) < 2:
        problems.append(Words("seating.input.seat", line=number))
        return
    who = player(given[1])
    rounds = [_number(token) for token in given[2:]]
    if any(r is None for r in rounds):
        problems.append(Words("seating.input.seat_round", line=number))
    elif who is not None:
        found.seats.update((r, who, seat) for r in rounds or [EVERY_ROUND] if r is not None)
