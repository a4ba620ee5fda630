"""Seating the rest of a tournament after a withdrawal, keeping the rounds already played.

A substitute simply takes the seats of the player they replace, from the round they join
(:func:`substitute`). A player who withdraws without one leaves the rounds to come one player
short. Those rounds are seated again: the rounds played stay exactly as they were (their
meetings and tables count in the balance of the rest), the withdrawn players play no more, and
each round to come keeps its tables while the players left fill them (a full hall loses a
table: 29 players seat 2 tables of 10, nine sitting out in turn). The seats to come go to the
players left so that everyone's games in all (played and to come) are as even as they can be:
the players with fewest games first, never two games in a round, and a restricted player only
in rounds whose tables hold their split table (hall/seating/split.py).
"""

from __future__ import annotations

import dataclasses
import heapq
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from hall.seating.chart import Seating
from hall.seating.instance import Instance, Refused
from hall.seating.scores import SEATS, Layout
from kit.i18n import Words

Array = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Keep:
    """What a re-seating keeps: the rounds played (``layout``: ``[round][table][seat]``, players
    from 0) and the players who play no more (``gone``)."""

    layout: Layout
    gone: frozenset[int] = field(default=frozenset())


def check(inst: Instance, keep: Keep) -> None:
    """:class:`Refused` with every reason ``keep`` cannot continue ``inst``."""
    reasons: list[Words] = []
    rounds = len(inst.round_tables())
    if not 1 <= len(keep.layout) < rounds:
        reasons.append(Words("seating.reseat.rounds", played=len(keep.layout), rounds=rounds))
    for r, round_ in enumerate(keep.layout):
        seen: set[int] = set()
        for game in round_:
            if len(game) != SEATS or any(not 0 <= p < inst.players for p in game) \
                    or seen & set(game) or len(set(game)) != SEATS:
                reasons.append(Words("seating.reseat.round", round=r + 1))
                break
            seen |= set(game)
    for p in sorted(keep.gone):
        if not 0 <= p < inst.players:
            reasons.append(Words("seating.plan.seat_player", player=p + 1,
                                 players=inst.players))
    if inst.players - len(keep.gone) < SEATS:
        reasons.append(Words("seating.reseat.few", players=inst.players - len(keep.gone)))
    if reasons:
        raise Refused(reasons)


def without(inst: Instance, gone: frozenset[int]) -> Instance:
    """``inst`` with no restriction of the players who play no more (a withdrawn player's
    club-mate may then sit anywhere)."""
    return dataclasses.replace(
        inst, apart=frozenset(p for p in inst.apart if not set(p) & gone),
        avoid=frozenset(p for p in inst.avoid if not set(p) & gone),
        away=frozenset(a for a in inst.away if a[0] not in gone),
        seats=frozenset(s for s in inst.seats if s[1] not in gone))


def tables_to_come(inst: Instance, keep: Keep) -> list[int]:
    """The tables of each round to come: as planned, at most as many as the players left
    fill."""
    most = (inst.players - len(keep.gone)) // SEATS
    return [min(tables, most) for tables in inst.round_tables()[len(keep.layout):]]


def played(inst: Instance, keep: Keep) -> list[int]:
    """Each player's games in the rounds kept."""
    games = [0] * inst.players
    for round_ in keep.layout:
        for game in round_:
            for p in game:
                games[p] += 1
    return games


def rounds_to_come(inst: Instance, keep: Keep, split: dict[int, int],
                   rng: np.random.Generator) -> list[tuple[Array, int]]:
    """The players and tables of each round to come (see the module's docstring)."""
    tables = tables_to_come(inst, keep)
    left = [p for p in range(inst.players) if p not in keep.gone]
    fits = {p: [r for r, count in enumerate(tables) if split.get(p, 0) < count] for p in left}
    total = dict(zip(left, (played(inst, keep)[p] for p in left), strict=True))
    need = dict.fromkeys(left, 0)
    tie = {p: float(rng.random()) for p in left}
    queue = [(total[p], tie[p], p) for p in left if fits[p]]
    heapq.heapify(queue)
    for _ in range(SEATS * sum(tables)):  # the seats to come, to the fewest games first
        if not queue:
            break
        _, _, p = heapq.heappop(queue)
        need[p] += 1
        if need[p] < len(fits[p]):
            heapq.heappush(queue, (total[p] + need[p], tie[p], p))
    out: list[tuple[Array, int]] = []
    for r, count in enumerate(tables):
        rest = len(tables) - r
        available = [p for p in left if r in fits[p] and need[p] > 0]
        # the most urgent first: games still owed against the rounds still open to them
        available.sort(key=lambda q: (-need[q] / sum(1 for k in fits[q] if k >= r), tie[q]))
        chosen = available[:SEATS * count]
        if len(chosen) < SEATS * count:
            raise Refused([Words("seating.reseat.short", round=len(keep.layout) + r + 1,
                                 rest=rest)])
        for p in chosen:
            need[p] -= 1
        out.append((np.array(sorted(chosen), dtype=np.int64), count))
    return out


def table_rows(inst: Instance, layout: Layout) -> Array:
    """``table_of[round][player]`` (-1: sitting out) of a layout."""
    table_of = np.full((len(layout), inst.players), -1, dtype=np.int64)
    for r, round_ in enumerate(layout):
        for t, game in enumerate(round_):
            table_of[r, list(game)] = t
    return table_of


def substitute(seating: Seating, start: int, swaps: dict[str, str],
               names: list[str]) -> Seating:
    """``seating`` (by name) with each substitute in the seats of the player they replace
    (``swaps``: player -> substitute) from round ``start`` on: nothing else changes, the
    substitute taking over the player's meetings and tables as they stand. :class:`Refused`
    when a replaced player is no player, or a substitute is one already."""
    new = list(swaps.values())
    reasons = [Words("seating.reseat.strangers", players=old) for old in swaps
               if old not in names]
    reasons += [Words("seating.reseat.taken", name=name) for name in sorted(set(new))
                if name in names or new.count(name) > 1 or not 1 <= len(name) <= 64]
    if reasons:
        raise Refused(reasons)
    return {r: {t: {s: swaps.get(p, p) if r >= start else p for s, p in game.items()}
                for t, game in tables.items()}
            for r, tables in seating.items()}
