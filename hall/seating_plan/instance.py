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

from hall.seating_plan.scores import SEATS, Definition

#: the largest tournament the generator takes (its work grows with players² per round)
MAX_PLAYERS = 500
MAX_GAMES = 60


class Refused(ValueError):
    """What cannot be seated; ``reasons`` says why, each in a sentence."""

    def __init__(self, reasons: list[str]):
        super().__init__("; ".join(reasons))
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
    kept-apart pairs can hold is :func:`hall.seating_plan.split.split`'s question)."""
    reasons = []
    if players < SEATS:
        reasons.append(f"{players} players: a game needs 10")
    elif players > MAX_PLAYERS:
        reasons.append(f"{players} players: the generator takes up to {MAX_PLAYERS}")
    if not 1 <= games <= MAX_GAMES:
        reasons.append(f"{games} games a player: 1 to {MAX_GAMES} can be seated")
    if tables is None:
        tables = max(1, players // SEATS)
    if tables < 1:
        reasons.append(f"{tables} tables: at least 1 is needed")
    elif tables > max(1, players // SEATS):
        reasons.append(f"{tables} tables: {players} players fill at most "
                       f"{max(1, players // SEATS)} tables of 10 in a round")
    if players * games % SEATS:
        reasons.append(f"{players} players x {games} games = {players * games} seats, not a "
                       "multiple of 10: the players cannot all play the same number of games")
    apart_set: set[Pair] = set()
    avoid_set: set[Pair] = set()
    for kind, given, into in (("apart", apart, apart_set), ("avoid", avoid, avoid_set)):
        for a, b in given:
            if not (0 <= a < players and 0 <= b < players):
                reasons.append(f"{kind} pair ({a + 1}, {b + 1}): the players are 1..{players}")
            elif a == b:
                reasons.append(f"{kind} pair ({a + 1}, {b + 1}): a player with themself")
            else:
                into.add(pair(a, b))
    for a, b in sorted(apart_set & avoid_set):
        reasons.append(f"players {a + 1} and {b + 1} are both kept apart and allowed to meet")
    if reasons:
        raise Refused(reasons)
    return Instance(players, games, tables, frozenset(apart_set), frozenset(avoid_set))
