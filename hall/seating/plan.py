"""A tournament's seating from start to end, deterministic by seed and work.

1. :mod:`~hall.seating.split`: can the kept-apart pairs and the tables kept from players hold
   at all (else refused)?
2. A start: :mod:`~hall.seating.cyclic` for a full hall (everyone playing every round), else the
   split's random start (:func:`hall.seating.groups.random_start`); for a re-seating
   (:mod:`~hall.seating.reseat`) the rounds played, then a random start of the rounds to come.
3. :mod:`~hall.seating.groups`: who meets whom and at which table (local search).
4. :mod:`~hall.seating.labels`: each round's tables renumbered for the tables score.
5. :mod:`~hall.seating.seats`: the seat numbers inside each game, the fixed ones held.

The work is counted, not timed: ``seconds`` buys a number of steps of each phase at the rates
the development machine runs them (``RATES``), so the same seed and seconds give the same
seating on any machine (with the same numpy: its generators' streams may change between
versions), however busy; a slower machine, a Raspberry Pi, takes longer for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hall.seating import cyclic, floor, groups, labels, reseat, seats
from hall.seating.chart import Seating
from hall.seating.inputs import Restrictions
from hall.seating.instance import Instance, Refused, instance
from hall.seating.scores import SEATS, Layout, Scores, score
from hall.seating.split import split
from kit.i18n import Words

#: microseconds a step of each phase takes on the development VM (one core of its Intel Xeon,
#: Python 3.11, numpy 2; measured by ``python -m bench.seating --calibrate``): scoring one
#: round's swaps costs ``a + b * players²`` (``APART_FACTOR`` times that with kept-apart pairs),
#: a step of the cyclic start's tabu search ``a + b * rounds² * tables``, renumbering one
#: round's tables ``a + b * tables³``
ROUND_US = (40.0, 0.032)
APART_FACTOR = 1.4
CYCLIC_STEP_US = (89.0, 0.057)
SEAT_STEP_US = 5.0
RELABEL_ROUND_US = (40.0, 0.03)
SEAT_STEPS = 50_000  # the least seat-number steps (they stop once the numbers are perfect)
#: a pair's squared deviation against the tables' where the pairs give some up for the tables
#: (``_grouped``): at 50 x 8 and 60 s, weight 2 ended at (703, 226), 2.5 at (683, 242) and
#: (697, 242), 3 at (691, 236), against (555.10, 320) without the trade and the platform's
#: (709-721, 250-282)
TRADE = 3.0


@dataclass(frozen=True)
class Work:
    """The steps of each phase that ``seconds`` buy."""

    seconds: float
    cyclic: int
    search: int
    relabel: int
    seats: int


def work(inst: Instance, seconds: float, reseating: bool = False) -> Work:
    """How ``seconds`` are spent on ``inst``: 30 % on the cyclic start where there is one,
    5 % on the seat numbers where they are not exact already (some fixed, or a re-seating),
    2 % renumbering the tables, the rest searching."""
    budget = seconds * 1e6
    rounds = len(inst.round_tables())
    players = inst.tables * SEATS
    cyclic_share = 0.3 if not reseating and uses_cyclic(inst) else 0.0
    seats_share = 0.05 if inst.games % SEATS or inst.seats or reseating else 0.0
    relabel_round = RELABEL_ROUND_US[0] + RELABEL_ROUND_US[1] * inst.tables ** 3
    cyclic_step = CYCLIC_STEP_US[0] + CYCLIC_STEP_US[1] * rounds ** 2 * inst.tables
    return Work(
        seconds=seconds,
        cyclic=int(budget * cyclic_share / cyclic_step),
        search=max(1, int(budget * (0.98 - cyclic_share - seats_share)
                          / ((ROUND_US[0] + ROUND_US[1] * players ** 2)
                             * (APART_FACTOR if inst.apart else 1.0)))),
        relabel=max(1, int(budget * 0.02 / (relabel_round * rounds))),
        seats=max(SEAT_STEPS, int(budget * seats_share / SEAT_STEP_US)) if seats_share else 0)


def uses_cyclic(inst: Instance) -> bool:
    """A full hall of two tables or more: everyone plays every round."""
    return inst.players == inst.tables * SEATS and inst.tables >= 2


@dataclass(frozen=True)
class Plan:
    """A seating and how it came about."""

    instance: Instance
    seed: int
    work: Work
    layout: Layout  # [round][table][seat] -> player, 0-based
    scores: Scores
    start: str  # "cyclic", "random" or "kept" (a re-seating)
    progress: groups.Progress


def make(inst: Instance, seed: int, seconds: float, keep: reseat.Keep | None = None) -> Plan:
    """The seating of ``inst`` (with ``keep``: its rounds played kept and the rest seated
    again), or :class:`~hall.seating.instance.Refused` when its restrictions cannot hold."""
    if keep is not None:
        reseat.check(inst, keep)
    kept = split(inst if keep is None else reseat.without(inst, keep.gone))
    rng = np.random.default_rng(seed)
    spend = work(inst, seconds, reseating=keep is not None)
    frozen, start, kind = 0, None, "random"
    if keep is not None:
        frozen, kind = len(keep.layout), "kept"
        rest = groups.random_start(inst, kept, rng, reseat.rounds_to_come(inst, keep, kept, rng))
        start = np.concatenate([reseat.table_rows(inst, keep.layout), rest])
    elif uses_cyclic(inst):
        start = cyclic.start(inst, rng, spend.cyclic)
        kind = "random" if start is None else "cyclic"
    if start is None:
        start = groups.random_start(inst, kept, rng)
    table_of, progress = _grouped(inst, kept, start, rng, spend.search, frozen)
    table_of = labels.renumber(inst, table_of, rng, spend.relabel, frozen)
    count = [int((row >= 0).sum()) // SEATS for row in table_of]
    games = [[[int(p) for p in np.flatnonzero(table_of[r] == t)] for t in range(count[r])]
             for r in range(frozen, len(count))]
    layout = ([[list(game) for game in round_] for round_ in keep.layout] if keep else []) \
        + seats.colour(inst.players, games)
    fixed = seats.fix(layout, [(r, p, s) for r, p, s in inst.seats if r >= frozen])
    played = {(r, t, s) for r in range(frozen) for t in range(count[r]) for s in range(SEATS)}
    seats.anneal(inst.players, inst.games, layout, rng, spend.seats, fixed | played)
    return Plan(inst, seed, spend, layout, score(inst.definition(), layout), kind, progress)


def _grouped(inst: Instance, kept: dict[int, int], start: np.ndarray, rng: np.random.Generator,
             budget: int, frozen: int) -> tuple[np.ndarray, groups.Progress]:
    """Who sits at which table: the pairs first; but where that search reaches the pairs'
    floor with the tables at the least the pairs' floor allows (``J - players``:
    hall/seating/floor.py), nothing more can be won in that order, and the rest of the work
    trades pairs for tables from a random start (``TRADE``), the traded seating kept when
    its tables score is lower. At 50 players x 8 games the pairs' floor holds the tables at
    320 whatever the numbering; the platform's optimizer, pairs well above their floor, ends
    its tables at 250-282."""
    proven = _at_both_floors(inst) if not frozen else None
    table_of, progress = groups.search(inst, start, rng, budget, frozen, enough=proven)
    left = budget - progress.steps
    if proven is None or left <= 0 or not proven(table_of):
        return table_of, progress
    traded, more = groups.search(inst, groups.random_start(inst, kept, rng), rng, left,
                                 trade=TRADE)
    steps = groups.Progress(progress.steps + more.steps, progress.steps + more.best_step,
                            progress.kicks + more.kicks)
    if _grouped_scores(inst, traded).tables < _grouped_scores(inst, table_of).tables:
        return traded, steps
    return table_of, steps


def _at_both_floors(inst: Instance) -> Callable[[np.ndarray], bool] | None:
    """Whether a seating is at the players floor with its tables at the least that allows
    (None where no such floor is known: pairs kept apart, players sitting out, tables that
    cannot score)."""
    joint, least = floor.joint(inst), floor.players(inst)
    if joint is None or least is None or not least.least:
        return None
    bar = least.least

    def proven(table_of: np.ndarray) -> bool:
        got = _grouped_scores(inst, table_of)
        return math.isclose(got.players, bar, abs_tol=1e-6) and \
            got.tables <= joint - got.players + 1e-6
    return proven


def _grouped_scores(inst: Instance, table_of: np.ndarray) -> Scores:
    """The players and tables scores of ``table_of`` (the numbers score: not decided yet)."""
    layout = [[[int(p) for p in np.flatnonzero(row == t)] for t in range(int(row.max()) + 1)]
              for row in table_of]
    return score(inst.definition(), layout)


def table_id(table: int) -> str:
    """The id of table ``table`` (0-based) in the CSV: ``table-1``, ``table-2``, ..."""
    return f"table-{table + 1}"


def named(layout: Layout, names: list[str]) -> Seating:
    """The seating the board reads (:mod:`hall.seating.chart`): rounds, tables and seats from 1."""
    return {r + 1: {table_id(t): {s + 1: names[p] for s, p in enumerate(game)}
                    for t, game in enumerate(round_)}
            for r, round_ in enumerate(layout)}


def seated(names: list[str], games: int, tables: int | None, rules: Restrictions, seed: int,
           seconds: float) -> tuple[Seating, Plan]:
    """The seating of these players, each playing ``games`` games at ``tables`` tables a round
    (``None``: players / 10), by name, and how it came about: what ``mafia-table hall seating``
    writes and the board's tournament generates. :class:`~hall.seating.instance.Refused`
    with the reasons when it cannot be seated."""
    return seat(names, instance(len(names), games, tables), rules, seed, seconds)


def seat(names: list[str], shape: Instance, rules: Restrictions, seed: int, seconds: float,
         keep: reseat.Keep | None = None) -> tuple[Seating, Plan]:
    """The seating of ``shape``'s players (its numbers: players, games, tables) under ``rules``
    (``keep``: the rounds played kept, the rest seated again), by name, and how it came
    about."""
    rounds = len(shape.round_tables())
    inst = instance(shape.players, shape.games, shape.tables, rules.apart, rules.avoid,
                    rules.away, rules.fixed(rounds))
    made = make(inst, seed, seconds, keep)
    return named(made.layout, names), made


def reseated(names: list[str], shape: Instance, rules: Restrictions, seating: Seating,
             start: int, gone: list[str], seed: int, seconds: float) -> tuple[Seating, Plan]:
    """``seating`` (rounds from 1, its tables any ids) with its rounds before ``start`` kept
    and the rest seated again without the ``gone`` players: the seating by name, its tables
    named as the seating names them, and how it came about."""
    index = {name: k for k, name in enumerate(names)}
    ids = sorted({t for tables in seating.values() for t in tables}, key=_table_order)
    unknown = sorted(({p for tables in seating.values() for seats_ in tables.values()
                       for p in seats_.values()} | set(gone)) - set(index))
    reasons = [Words("seating.reseat.strangers", players=", ".join(unknown[:5]))] if unknown \
        else []
    if sorted(seating) != list(range(1, len(shape.round_tables()) + 1)):
        reasons.append(Words("seating.reseat.rounds_of", rounds=len(shape.round_tables())))
    if reasons:
        raise Refused(reasons)
    layout = [[[index[seats_[s]] for s in sorted(seats_)] for t in ids
               if (seats_ := seating[r].get(t)) is not None]
              for r in range(1, start)]
    made, plan = seat(names, shape, rules, seed, seconds,
                      reseat.Keep(layout, frozenset(index[p] for p in gone)))
    return {r: {ids[int(t.split("-")[1]) - 1]: game for t, game in tables.items()}
            for r, tables in made.items()}, plan


def _table_order(table: str) -> tuple[int, str]:
    """Tables in their number's order (``table-2`` before ``table-10``), others by name."""
    head, _, number = table.rpartition("-")
    return (int(number), head) if number.isdigit() else (1 << 30, table)
