"""A tournament to seat, and every reason it cannot be seated.

``players`` each play ``games`` games at ``tables`` tables a round, ten to a table (the
platform's ``SeatingDef``: players, tables, games). With ``tables = players / 10`` (the default)
everyone plays every round and ``games`` is the number of rounds; with fewer tables players take
turns sitting out, the tournament has ``players * games / (10 * tables)`` rounds rounded up, and
the last round may have fewer tables, as the platform makes it. Players are numbered from 0.

``apart`` pairs never share a table (same club, a judge's relatives: the platform's
``PAIR_POLICY_SEPARATE``); ``avoid`` pairs may meet, as rarely as the balance allows
(``PAIR_POLICY_AVOID``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hall.seating.scores import SEATS, Definition
from kit.i18n import Words

#: the largest tournament the generator takes (its work grows with players² per round)
MAX_PLAYERS = 500
MAX_GAMES = 60


class Refused(ValueError):
    """What cannot be seated; ``reasons`` says why, each as words (``str()``: the English; the
    tournament page renders them in its reader's language, docs/i18n.md)."""

    def __init__(self, reasons: list[Words]):
        super().__init__("; ".join(str(r) for r in reasons))
        self.reasons = reasons


Pair = tuple[int, int]


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Instance:
    players: int
    games: int
    tables: int
    apart: frozenset[Pair] = field(default=frozenset())
    avoid: frozenset[Pair] = field(default=frozenset())

    def round_tables(self) -> list[int]:
        """Tables of each round: full rounds, then the rest of the games on fewer tables (the
        platform's ``generateInitialSeating``)."""
        full, rest = divmod(self.players * self.games // SEATS, self.tables)
        return [self.tables] * full + ([rest] if rest else [])

    def definition(self) -> Definition:
        """The platform's view of it, to score a seating as the platform does."""
        return Definition(self.players, self.tables, self.games, sorted(self.apart))

    def apart_from(self) -> dict[int, set[int]]:
        partners: dict[int, set[int]] = {}
        for a, b in self.apart:
            partners.setdefault(a, set()).add(b)
            partners.setdefault(b, set()).add(a)
        return partners


def instance(players: int, games: int, tables: int | None = None,
             apart: Iterable[Pair] = (), avoid: Iterable[Pair] = ()) -> Instance:
    """The instance, or :class:`Refused` with every reason its numbers cannot work (whether its
    kept-apart pairs can hold is :func:`hall.seating.split.split`'s question)."""
    reasons: list[Words] = []
    if players < SEATS:
        reasons.append(Words("seating.plan.few", players=players))
    elif players > MAX_PLAYERS:
        reasons.append(Words("seating.plan.many", players=players, most=MAX_PLAYERS))
    if not 1 <= games <= MAX_GAMES:
        reasons.append(Words("seating.plan.games", games=games, most=MAX_GAMES))
    if tables is None:
        tables = max(1, players // SEATS)
    if tables < 1:
        reasons.append(Words("seating.plan.no_tables", tables=tables))
    elif tables > max(1, players // SEATS):
        reasons.append(Words("seating.plan.tables", tables=tables, players=players,
                             most=max(1, players // SEATS)))
    if players * games % SEATS:
        reasons.append(Words("seating.plan.multiple", players=players, games=games,
                             seats=players * games))
    apart_set: set[Pair] = set()
    avoid_set: set[Pair] = set()
    for kind, given, into in (("apart", apart, apart_set), ("avoid", avoid, avoid_set)):
        for a, b in given:
            if not (0 <= a < players and 0 <= b < players):
                reasons.append(Words("seating.plan.pair_range", kind=kind, a=a + 1, b=b + 1,
                                     players=players))
            elif a == b:
                reasons.append(Words("seating.plan.pair_self", kind=kind, a=a + 1, b=b + 1))
            else:
                into.add(pair(a, b))
    for a, b in sorted(apart_set & avoid_set):
        reasons.append(Words("seating.plan.both", a=a + 1, b=b + 1))
    if reasons:
        raise Refused(reasons)
    return Instance(players, games, tables, frozenset(apart_set), frozenset(avoid_set))
