"""The three scores of a seating, as the rating platform mafiaratings computes them.

A faithful port of ``SeatingDef::calculatePlayersScore``, ``calculateNumbersScore`` and
``calculateTablesScore`` (its ``include/seating.php``): the same terms, the same order of
arithmetic, the same quirks, so a seating scores here exactly what it scores there
(``tests/hall/seating/test_seating_scores.py`` holds vectors the platform's own PHP computed). Each
score is a sum of squared deviations from what a perfectly balanced seating would give, and is 0
when it is "perfect": every single deviation squared below 1 (for tables: every shortfall below 1).

A seating here is the platform's array: ``layout[round][table]`` is the game's ten players in
seat order (seat 1 first), players numbered from 0.

- **players**: how often each pair meets, against ``games * 9 / (players - 1)``. A pair kept
  apart (``apart``, the platform's restriction groups) is expected to meet 0 times, its
  deviation weighed x10 before squaring; a player kept apart from ``k`` others expects
  ``games * 9 / (players - 1 - k)`` meetings with each of the rest. The pair's expectation is
  read from its lower-numbered player, as the platform does.
- **numbers**: per player and seat, against ``games / 10``: seat 1 x4, seat 2 x3, seat 10 x2,
  the whole term x4; per player and seat pair (1-2, 3-4, ...) against ``games / 5``, x2; per
  player and half (1-5, 6-10) against ``games / 2``.
- **tables** (3 tables or more): per player and table, against ``games / tables``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Layout = Sequence[Sequence[Sequence[int]]]  # [round][table][seat] -> player (0-based)

SEATS = 10
#: seat weights of the single-number term (seat 1 x4, seat 2 x3, seat 10 x2)
SEAT_WEIGHT = (4, 3, 1, 1, 1, 1, 1, 1, 1, 2)


@dataclass(frozen=True)
class Definition:
    """What the platform's ``SeatingDef`` knows of a tournament: ``players``, ``tables`` per
    round, ``games`` each player plays, and ``apart``: groups of players no two of whom may share
    a table (the platform drops them below 12 players)."""

    players: int
    tables: int
    games: int
    apart: Sequence[Sequence[int]] = field(default=())

    def groups(self) -> Sequence[Sequence[int]]:
        return () if self.players < 12 else self.apart


def pair_expectations(defn: Definition) -> list[tuple[float, dict[int, int]] | None]:
    """Per player: ``None`` (the default expectation) or ``(expected meetings with the others,
    {kept-apart partner: 0})``, built as ``_createPlayersExpectations`` builds it. Its quirk is
    kept: for a player kept apart from everyone, the entry keyed by ``players - 1 - k`` (that
    is, 0 or less) is dropped and the player's own expectation stays unset (PHP reads ``null``:
    0)."""
    partners: dict[int, dict[int, int]] = {}
    for group in defn.groups():
        for a in range(len(group)):
            for b in range(a + 1, len(group)):
                partners.setdefault(group[a], {})[group[b]] = 0
                partners.setdefault(group[b], {})[group[a]] = 0
    table: dict[int, tuple[float, dict[int, int]]] = {p: (0.0, ps) for p, ps in partners.items()}
    for p, ps in partners.items():  # PHP walks a copy: a dropped entry is still visited
        rest = defn.players - 1 - len(ps)
        if rest <= 0:
            table.pop(rest, None)
        elif p in table:
            table[p] = (defn.games * 9 / rest, ps)
    return [table.get(p) for p in range(defn.players)]


def meetings(defn: Definition, layout: Layout) -> list[list[int]]:
    """``m[p][q]``: the games ``p`` and ``q`` play together."""
    m = [[0] * defn.players for _ in range(defn.players)]
    for round_ in layout:
        for game in round_:
            for a in range(SEATS):
                for b in range(a + 1, SEATS):
                    m[game[a]][game[b]] += 1
                    m[game[b]][game[a]] += 1
    return m


def players_score(defn: Definition, layout: Layout) -> float:
    """``calculatePlayersScore``."""
    default = defn.games * 9 / (defn.players - 1)
    expectations = pair_expectations(defn)
    m = meetings(defn, layout)
    perfect = True
    score: float = 0
    for p1 in range(defn.players):
        expectation = expectations[p1]
        for p2 in range(p1 + 1, defn.players):
            diff: float = m[p1][p2]
            if expectation is None:
                diff -= default
            elif p2 in expectation[1]:
                diff = (diff - expectation[1][p2]) * 10
            else:
                diff -= expectation[0]
            diff *= diff
            if diff >= 1:
                perfect = False
            score += diff
    return 0 if perfect else score


def _tally(players: int, width: int, places: Iterable[tuple[int, int]]) -> list[list[int]]:
    counts = [[0] * width for _ in range(players)]
    for player, place in places:
        counts[player][place] += 1
    return counts


def number_counts(defn: Definition, layout: Layout) -> list[list[int]]:
    """``counts[p][s]``: the games ``p`` plays at seat ``s + 1``."""
    return _tally(defn.players, SEATS, ((player, seat) for round_ in layout for game in round_
                                        for seat, player in enumerate(game)))


def numbers_score(defn: Definition, layout: Layout) -> float:
    """``calculateNumbersScore``."""
    counts = number_counts(defn, layout)
    perfect = True
    score: float = 0
    expected = defn.games / 10
    for row in counts:
        for seat in range(SEATS):
            diff = expected - row[seat]
            diff *= diff
            if diff >= 1:
                perfect = False
            score += diff * SEAT_WEIGHT[seat] * 4
    expected = defn.games / 5
    for row in counts:
        for seat in range(0, SEATS, 2):
            diff = expected - row[seat] - row[seat + 1]
            diff *= diff
            if diff >= 1:
                perfect = False
            score += diff * 2
    expected = defn.games / 2
    for row in counts:
        for seat in range(0, SEATS, 5):
            diff = expected
            for k in range(5):
                diff -= row[seat + k]
            diff *= diff
            if diff >= 1:
                perfect = False
            score += diff
    return 0 if perfect else score


def table_counts(defn: Definition, layout: Layout) -> list[list[int]]:
    """``counts[p][t]``: the games ``p`` plays at table ``t + 1``."""
    return _tally(defn.players, defn.tables, ((player, table) for round_ in layout
                                              for table, game in enumerate(round_)
                                              for player in game))


def tables_score(defn: Definition, layout: Layout) -> float:
    """``calculateTablesScore``: 0 below 3 tables. Only a shortfall of 1 or more makes it
    imperfect (a player over the expectation at one table is short at another)."""
    if defn.tables < 3:
        return 0
    expected = defn.games / defn.tables
    perfect = True
    score: float = 0
    for row in table_counts(defn, layout):
        for count in row:
            diff = expected - count
            score += diff * diff
            if diff >= 1:
                perfect = False
    return 0 if perfect else score


@dataclass(frozen=True)
class Scores:
    players: float
    numbers: float
    tables: float

    @property
    def total(self) -> float:
        return self.players + self.numbers + self.tables


def score(defn: Definition, layout: Layout) -> Scores:
    """All three."""
    return Scores(players_score(defn, layout), numbers_score(defn, layout),
                  tables_score(defn, layout))
