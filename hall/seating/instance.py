"""A tournament to seat, and every reason it cannot be seated.

``players`` each play ``games`` games at ``tables`` tables a round, ten to a table (the
platform's ``SeatingDef``: players, tables, games). With ``tables = players / 10`` (the default)
everyone plays every round and ``games`` is the number of rounds; with fewer tables players take
turns sitting out, the tournament has ``players * games / (10 * tables)`` rounds rounded up, and
the last round may have fewer tables, as the platform makes it. Players are numbered from 0.

``apart`` pairs never share a table (same club, family: the platform's restriction groups,
``PAIR_POLICY_SEPARATE``); ``avoid`` pairs may meet, as rarely as the balance allows
(``PAIR_POLICY_AVOID``); ``away`` keeps a player from a table in every round (a judge's relative:
the platform's judges' table restrictions); ``seats`` fixes a player's seat number in a round
(a final's seats, or a player who must sit at one end).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

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


#: the generator's parameters that number a player (from 1, in the players' order)
_PLAYER_PARAMS = ("player", "first", "a", "b")


def named(reason: Words, names: list[str]) -> Words:
    """The seating generator's ``reason`` with each player it numbers (it knows players by
    their place in the list) named as the organiser typed them ("1, 2, 3, 4" says nothing to
    an organiser who typed names; the command line's are its names file's, or Player k)."""
    def name(number: Any) -> Any:
        fits = isinstance(number, int) and 0 < number <= len(names)
        return names[number - 1] if fits else number

    params = {key: name(value) if key in _PLAYER_PARAMS else value
              for key, value in reason.params.items()}
    players = params.get("players")
    if isinstance(players, list):
        params["players"] = [name(n) for n in players]
    return Words(reason.key, **params)


Pair = tuple[int, int]
Away = tuple[int, int]  # (player, table), both from 0
Fixed = tuple[int, int, int]  # (round, player, seat), all from 0


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Instance:
    players: int
    games: int
    tables: int
    apart: frozenset[Pair] = field(default=frozenset())
    avoid: frozenset[Pair] = field(default=frozenset())
    away: frozenset[Away] = field(default=frozenset())
    seats: frozenset[Fixed] = field(default=frozenset())

    def round_tables(self) -> list[int]:
        """Tables of each round: full rounds, then the rest of the games on fewer tables (the
        platform's ``generateInitialSeating``)."""
        full, rest = divmod(self.players * self.games // SEATS, self.tables)
        return [self.tables] * full + ([rest] if rest else [])

    def definition(self) -> Definition:
        """The platform's view of it, to score a seating as the platform does."""
        return Definition(self.players, self.tables, self.games, sorted(self.apart))

    def tables_matter(self) -> bool:
        """Whether the platform's tables score can be above 0: 3 tables or more, and a player
        can fall a game or more short of ``games / tables`` at a table."""
        return self.tables >= 3 and self.games >= self.tables

    def away_from(self) -> dict[int, set[int]]:
        """The tables each player is kept away from."""
        tables: dict[int, set[int]] = {}
        for p, table in self.away:
            tables.setdefault(p, set()).add(table)
        return tables

    def apart_from(self) -> dict[int, set[int]]:
        partners: dict[int, set[int]] = {}
        for a, b in self.apart:
            partners.setdefault(a, set()).add(b)
            partners.setdefault(b, set()).add(a)
        return partners


def instance(players: int, games: int, tables: int | None = None,
             apart: Iterable[Pair] = (), avoid: Iterable[Pair] = (), away: Iterable[Away] = (),
             seats: Iterable[Fixed] = ()) -> Instance:
    """The instance, or :class:`Refused` with every reason its numbers cannot work (whether its
    kept-apart pairs and tables can hold is :func:`hall.seating.split.split`'s question)."""
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
    away_set = _away(players, tables, away, reasons)
    rounds = len(Instance(players, games, tables).round_tables()) if not reasons else 0
    seats_set = _seats(players, rounds, seats, apart_set, reasons)
    if reasons:
        raise Refused(reasons)
    return Instance(players, games, tables, frozenset(apart_set), frozenset(avoid_set),
                    frozenset(away_set), frozenset(seats_set))


def _away(players: int, tables: int, away: Iterable[Away], reasons: list[Words]) -> set[Away]:
    found: set[Away] = set()
    for p, table in away:
        if not 0 <= p < players:
            reasons.append(Words("seating.plan.away_player", player=p + 1, players=players))
        elif not 0 <= table < tables:
            reasons.append(Words("seating.plan.away_table", player=p + 1, table=table + 1,
                                 tables=tables))
        else:
            found.add((p, table))
    for p in sorted({p for p, _ in found}):
        if all((p, t) in found for t in range(tables)):
            reasons.append(Words("seating.plan.away_all", player=p + 1, tables=tables))
    return found


def _seats(players: int, rounds: int, seats: Iterable[Fixed], apart: set[Pair],
           reasons: list[Words]) -> set[Fixed]:
    """The fixed seats; two players may hold one seat number in a round only when they are
    kept apart (so never at one table)."""
    found: set[Fixed] = set()
    taken: dict[tuple[int, int], list[int]] = {}
    held: dict[tuple[int, int], int] = {}
    for r, p, seat in sorted(seats):
        if not 0 <= p < players:
            reasons.append(Words("seating.plan.seat_player", player=p + 1, players=players))
        elif rounds and not 0 <= r < rounds:
            reasons.append(Words("seating.plan.seat_round", player=p + 1, round=r + 1,
                                 rounds=rounds))
        elif not 0 <= seat < SEATS:
            reasons.append(Words("seating.plan.seat_number", player=p + 1, seat=seat + 1))
        elif (r, p) in held and held[r, p] != seat:
            reasons.append(Words("seating.plan.two_seats", player=p + 1, round=r + 1,
                                 seat=held[r, p] + 1, then=seat + 1))
        elif clash := [q for q in taken.get((r, seat), []) if q != p and pair(p, q) not in apart]:
            reasons.append(Words("seating.plan.seat_taken", player=p + 1, round=r + 1,
                                 seat=seat + 1, first=clash[0] + 1))
        else:
            taken.setdefault((r, seat), []).append(p)
            held[r, p] = seat
            found.add((r, p, seat))
    return found
