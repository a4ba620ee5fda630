"""A tournament's standings: pure, from its finished games and the scoring preset.

``standings(games, rounds, preset)`` scores every game by the preset (``results.scoring``) and
adds each player's points up: a table per round, one per stage (the main rounds; the final,
scored apart), and the overall one. Each table orders its players by total, then by the preset's
tie-break keys in turn (``[standings] tie_break``: the rating platform's default is its
``(epg)wsk``: the extra, penalty and best-move points together, then wins, wins as the Sheriff or
the Don, times shot on night 1; include/scoring.php ``compare_scores``), the higher first.
Players the keys leave equal share their places (``Row.place`` to ``Row.last``: "3-4"), listed by
name; with ``[standings] by_id`` (the platform's last key) they stand by their ids on the
platform, the lower first, when the tournament knows every one's id. The order is total and the
same however the games are given.

As the platform computes a tournament (include/scoring.php ``_tournament_scores``): a stage is a
group of rounds scored apart, so the Ci compensation (``[compensation.ci]``) counts each
player's games and first-night deaths within the stage alone (the final's within the final), and
the overall table adds the stages up. A round's table is the round alone, as the platform scores
one event (``_event_scores``): adding a game to a round changes that round, its stage and the
overall table, nothing else. Only finished games count (an abandoned game has no result); a
seat with no name counts for nobody. Points are rounded to a millionth, so equal sums of
tenths compare equal.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Final

import msgspec

from results.record import Record, team_of
from results.scoring import Preset, first_victim, score

#: the points a player's total is made of (``scoring.PlayerScore``'s, and the platform's Ci)
PARTS = ("win", "best_move", "penalty", "compensation", "ci", "extra")
#: the stages of a tournament: its main rounds, and the final, scored apart
MAIN: Final = "main"
FINAL: Final = "final"


@dataclass(frozen=True)
class Game:
    """A game of the tournament: its record and the round it was played in."""

    record: Record
    round: int


@dataclass(frozen=True)
class Round:
    """A round of the tournament and its stage (``main`` or ``final``: scored apart)."""

    number: int
    stage: str = MAIN


class Row(msgspec.Struct, kw_only=True):
    """One player's line: their place in the table (shared by ``place`` to ``last`` with
    players the tie-breaks leave equal), the points by part and the counts the tie-break
    reads."""

    place: int
    player: str
    last: int = 0  # the last place shared (``place`` when nobody shares it)
    total: float
    win: float = 0.0
    best_move: float = 0.0
    penalty: float = 0.0
    compensation: float = 0.0
    ci: float = 0.0
    extra: float = 0.0
    games: int = 0
    wins: int = 0
    special_role_wins: int = 0
    first_killed: int = 0


class Table(msgspec.Struct, kw_only=True):
    """A ranking: ``rows`` in order, of ``games`` games."""

    games: int
    rows: list[Row]


class Standings(msgspec.Struct, kw_only=True):
    """Every table of a tournament: ``overall``, by ``stage`` (in the rounds' order) and by
    ``round`` (every round given, played or not)."""

    overall: Table
    stages: dict[str, Table]
    rounds: dict[int, Table]


@dataclass
class _Tally:
    """One player's sums over some games, and the games that earn Ci (shot first, lost)."""

    points: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    games: int = 0
    wins: int = 0
    special_role_wins: int = 0
    first_killed: int = 0
    ci_games: int = 0

    def add(self, other: _Tally) -> None:
        for part in PARTS:
            self.points[part] += other.points[part]
        self.games += other.games
        self.wins += other.wins
        self.special_role_wins += other.special_role_wins
        self.first_killed += other.first_killed
        self.ci_games += other.ci_games

    def value(self, name: str) -> float:
        """A tie-break name's value (``results.scoring.TIE_BREAK_NAMES``)."""
        return self.points[name] if name in self.points else float(getattr(self, name))

    def total(self) -> float:
        return _exact(sum(self.points.values()))


def standings(games: Iterable[Game], rounds: Sequence[Round], preset: Preset,
              players: Iterable[str] = (), ids: Mapping[str, int] | None = None) -> Standings:
    """The tournament's tables. ``games`` of a round not in ``rounds``, and unfinished ones, are
    left out; ``players`` (the registered ones) stand in the overall table even before their
    first game, with nothing; ``ids``: each player's id on the rating platform, where known
    (``[standings] by_id``)."""
    ids = ids or {}
    stage_of = {r.number: r.stage for r in rounds}
    counted = [g for g in games if g.round in stage_of and g.record.status == "finished"
               and g.record.winner is not None]
    stages = list(dict.fromkeys(r.stage for r in rounds))
    by_stage = {s: _tallies([g for g in counted if stage_of[g.round] == s], preset)
                for s in stages}
    overall: dict[str, _Tally] = {name: _Tally() for name in players}
    for tallies in by_stage.values():
        for name, tally in tallies.items():
            overall.setdefault(name, _Tally()).add(tally)
    in_round = {r.number: [g for g in counted if g.round == r.number] for r in rounds}
    return Standings(
        overall=_table(overall, len(counted), preset, ids),
        stages={s: _table(by_stage[s], sum(stage_of[g.round] == s for g in counted), preset,
                          ids) for s in stages},
        rounds={n: _table(_tallies(of, preset), len(of), preset, ids)
                for n, of in in_round.items()})


def _tallies(games: Sequence[Game], preset: Preset) -> dict[str, _Tally]:
    """Each named player's sums over ``games``, with the Ci their games earn among these."""
    tallies: dict[str, _Tally] = {}
    black = preset.best_move.team
    special = set(preset.standings.special_roles)
    for game in games:
        record = game.record
        victim = first_victim(record)
        teams = {p.seat: team_of(p) for p in record.players}
        for s in score(record, preset):
            if not s.name:
                continue
            tally = tallies.setdefault(s.name, _Tally())
            for part in ("win", "best_move", "penalty", "compensation", "extra"):
                tally.points[part] += getattr(s, part)
            tally.games += 1
            tally.wins += s.won
            tally.special_role_wins += s.won and s.role in special
            if victim == s.seat and teams.get(s.seat) != black:
                tally.first_killed += 1
                tally.ci_games += not s.won
    ci = preset.compensation.ci
    if ci is not None:
        for tally in tallies.values():
            if tally.ci_games:
                expected = _php_round(tally.games * ci.share)
                each = ci.cap if expected == 0 else tally.first_killed * ci.points / expected
                tally.points["ci"] = tally.ci_games * max(min(each, ci.cap), 0.0)
    return tallies


def _table(tallies: dict[str, _Tally], games: int, preset: Preset,
           ids: Mapping[str, int]) -> Table:
    keys = [key.split("+") for key in preset.standings.tie_break]

    def rank(tally: _Tally) -> tuple[float, ...]:
        return (-tally.total(), *(-_exact(sum(tally.value(n) for n in key)) for key in keys))

    ordered = sorted(tallies.items(), key=lambda item: (rank(item[1]), item[0]))
    rows: list[Row] = []
    for _, equal in groupby(ordered, key=lambda item: rank(item[1])):
        group = list(equal)
        if preset.standings.by_id and all(name in ids for name, _ in group):
            group.sort(key=lambda item: ids[item[0]])
            bands = [[item] for item in group]
        else:
            bands = [group]
        for band in bands:
            first = len(rows) + 1
            rows += [Row(place=first, last=first + len(band) - 1, player=name,
                         total=tally.total(),
                         **{part: _exact(tally.points[part]) for part in PARTS},
                         games=tally.games, wins=tally.wins,
                         special_role_wins=tally.special_role_wins,
                         first_killed=tally.first_killed)
                     for name, tally in band]
    return Table(games=games, rows=rows)


def place_text(row: Row) -> str:
    """A row's place as the tables write it: ``3``, or ``3-4`` (an en dash) when shared."""
    return str(row.place) if row.last <= row.place else f"{row.place}\u2013{row.last}"


def _exact(points: float) -> float:
    """Points to a millionth: 0.1 + 0.2 and 0.3 are the same total (``+ 0.0``: no -0.0)."""
    return round(points, 6) + 0.0


def _php_round(value: float) -> float:
    """PHP's ``round``, half away from zero (the platform's formulas use it; Python's rounds
    half to even)."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


__all__ = ["FINAL", "MAIN", "PARTS", "Game", "Round", "Row", "Standings", "Table", "place_text",
           "standings"]
