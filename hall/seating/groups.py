"""Who plays at which table in each round: the pair meetings and the tables, by local search.

The seat numbers inside a game are another problem (:mod:`hall.seating.seats`): the
platform's players and tables scores depend only on who shares each game and at which table,
so this module decides ``table_of[round][player]`` (-1: sitting out) and nothing else.

The move is the platform's own: two players of one round at different tables change places.
Every such swap of a round is scored at once (numpy, integers only, so every machine takes the
same steps), and the search is an iterated local search: it descends, a round at a time, by the
best swap of the round while any swap of any round improves; at the bottom it keeps the
seating if it is the best yet, kicks the best seating with a few random swaps and descends
again. Kept-apart pairs never meet: the start keeps them apart and no swap may put them
together.

What it minimises, in fixed point (``SCALE``), lexicographically: first the platform's players
score (each pair's squared deviation from its expected meetings), with half a point more for
each meeting of an ``avoid`` pair (such a pair meets less wherever the balance hardly suffers
for it); then, where the platform's tables score can be above 0, that score (each player's
squared deviation from ``games / tables`` at each table). A swap is scored as
``players_weight x players + tables`` with ``players_weight`` above any change of the tables a
swap can make, and a seating is the best yet when its players score is lower, or equal with a
lower tables score: the tables are won only where the pairs give nothing up. (Where the two
trade, they trade one for one: hall/seating/floor.py.) Given a ``trade`` weight instead, it
minimises ``trade x players + tables``: the pairs give some up for the tables
(:func:`hall.seating.plan.make` asks for it where the pairs first are proven to hold the
tables up).

Rounds already played (a re-seating after a withdrawal: :mod:`hall.seating.plan`) count in the
meetings and the tables but are never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hall.seating.instance import Instance
from hall.seating.scores import SEATS, pair_expectations

Array = npt.NDArray[np.int64]

SCALE = 1 << 12
AVOID_COST = SCALE // 2  # per meeting of an avoid pair, in the players score
FORBIDDEN = np.int64(1) << 60
KICK = 4  # random swaps of a kick


@dataclass
class Progress:
    """What the search did: its steps (rounds scored), the step of its last best seating,
    its kicks."""

    steps: int = 0
    best_step: int = 0
    kicks: int = 0


def presence(inst: Instance, split: dict[int, int], rng: np.random.Generator) -> list[Array]:
    """The players of each round. Everyone, when the tables hold everyone; otherwise a cyclic
    turn (the seats of all rounds in a row, player after player, so nobody plays twice in a
    round and everyone plays ``games`` games), arranged so the last round, when it has fewer
    tables, holds only players its tables can take: those kept apart from nobody and those
    whose split table it has."""
    counts = inst.round_tables()
    everyone = np.arange(inst.players, dtype=np.int64)
    if inst.players == inst.tables * SEATS:
        return [everyone for _ in counts]
    last = counts[-1] * SEATS
    start = sum(counts[:-1]) * SEATS
    fits = np.array([split.get(p, 0) < counts[-1] for p in range(inst.players)])
    eligible = rng.permutation(everyone[fits])
    others = rng.permutation(np.concatenate([eligible[last:], everyone[~fits]]))
    window = [(start + k) % inst.players for k in range(last)]
    order = np.empty(inst.players, dtype=np.int64)
    order[window] = eligible[:last]
    order[np.setdiff1d(everyone, window)] = others
    seats = np.arange(inst.players * inst.games) % inst.players
    bounds = np.cumsum([0, *(c * SEATS for c in counts)])
    return [np.sort(order[seats[bounds[r]:bounds[r + 1]]]) for r in range(len(counts))]


def random_start(inst: Instance, split: dict[int, int], rng: np.random.Generator,
                 rounds: Sequence[tuple[Array, int]] | None = None) -> Array:
    """``table_of[round][player]`` (-1: sitting out): the players of each round (``rounds``:
    its players and tables; by default :func:`presence`'s at the instance's tables), those of
    the split at their split table (its tables shuffled each full round, unless someone is kept
    away from a table), the rest at random to 10 a table."""
    if rounds is None:
        rounds = list(zip(presence(inst, split, rng), inst.round_tables(), strict=True))
    table_of = np.full((len(rounds), inst.players), -1, dtype=np.int64)
    for r, (players, tables) in enumerate(rounds):
        shuffle = tables == inst.tables and not inst.away
        order = rng.permutation(tables) if shuffle else np.arange(tables)
        load = np.zeros(tables, dtype=np.int64)
        for p in players:
            if int(p) in split:
                table_of[r, p] = order[split[int(p)]]
                load[table_of[r, p]] += 1
        free = np.array([t for t in range(tables) for _ in range(SEATS - int(load[t]))],
                        dtype=np.int64)
        rest = players[table_of[r, players] < 0]
        table_of[r, rest] = rng.permutation(free)
    return table_of


class Search:
    """The seating being searched and its running counts; rounds before ``frozen`` are kept as
    they are."""

    def __init__(self, inst: Instance, start: Array, rng: np.random.Generator, frozen: int = 0):
        self.inst = inst
        self.rng = rng
        self.counts = [int((row >= 0).sum()) // SEATS for row in start]
        self.frozen = frozen
        self.table_of = start.copy()
        self.present = [np.flatnonzero(row >= 0) for row in self.table_of]
        n, t = inst.players, inst.tables
        self.meetings: Array  # [p][q]: games together
        self.at_table: Array  # [p][t]: games at table t
        self._recount()
        self.expected = self._expected()
        self.expected_table = round(inst.games * SCALE / t)
        self.tables_matter = inst.tables_matter()
        #: above any change of the tables score one swap can make (two players, each leaving
        #: one table and joining another: at most 4 x (2 games + 1) x SCALE), against the
        #: least change of the players score (half a point: an avoid pair's meeting)
        self.players_weight = 8 * (2 * inst.games + 1) + 1 if self.tables_matter else 1
        self.trade: float | None = None
        self.apart = np.zeros((n, n), dtype=np.int64)
        self.avoid = np.zeros((n, n), dtype=np.int64)
        for grid, pairs in ((self.apart, inst.apart), (self.avoid, inst.avoid)):
            for a, b in pairs:
                grid[a, b] = grid[b, a] = 1
        self.away = np.zeros((n, t), dtype=bool)
        for p, table in inst.away:
            self.away[p, table] = True
        self.cost = (0, 0)  # players, tables: relative to the start; only differences matter
        self.progress = Progress()
        self._keep()

    def _keep(self) -> None:
        """The current seating is the best yet: keep it and its counts."""
        self.best_cost = self.cost
        self.best = self.table_of.copy()
        self.best_counts = (self.meetings.copy(), self.at_table.copy())
        self.progress.best_step = self.progress.steps

    def _expected(self) -> Array:
        """Each pair's expected meetings x``SCALE``, read from its lower-numbered player as
        the platform reads it."""
        inst = self.inst
        default = inst.games * 9 / (inst.players - 1)
        rows = pair_expectations(inst.definition())
        expected = np.empty((inst.players, inst.players), dtype=np.int64)
        for p in range(inst.players):
            row = rows[p]
            expected[p, p:] = round((default if row is None else row[0]) * SCALE)
            expected[p:, p] = expected[p, p:]
        return expected

    def deltas(self, r: int) -> tuple[Array, Array, Array]:
        """Round ``r``'s players, and the change of the players and tables costs for
        swapping each two of them (players ``FORBIDDEN`` where the swap is not a move)."""
        players = self.present[r]
        tab = self.table_of[r, players]
        onehot = (tab[:, None] == np.arange(self.counts[r])[None, :]).astype(np.int64)
        same = tab[:, None] == tab[None, :]
        sub = np.ix_(players, players)
        dev = 2 * (self.meetings[sub] * SCALE - self.expected[sub])
        avoid = self.avoid[sub] * AVOID_COST
        join = dev + SCALE + avoid  # cost of one more meeting of each pair
        leave = SCALE - dev - avoid  # of one fewer
        np.fill_diagonal(leave, 0)
        joins = join @ onehot  # [i, t]: i joins everyone at t
        leaves = np.where(same, leave, 0).sum(axis=1)
        cross = joins[:, tab]  # [i, j]: i joins everyone at j's table
        players_delta = leaves[:, None] + leaves[None, :] + cross + cross.T - join - join.T
        if self.tables_matter:
            dev_t = 2 * (self.at_table[players, :self.counts[r]] * SCALE - self.expected_table)
            own = SCALE - dev_t[np.arange(len(players)), tab]  # leaving one's table
            arrive = (dev_t + SCALE)[:, tab]  # [i, j]: i arrives at j's table
            tables_delta = own[:, None] + own[None, :] + arrive + arrive.T
        else:
            tables_delta = np.zeros_like(players_delta)
        bad = same
        if self.inst.apart:
            apart = self.apart[sub]
            there = (apart @ onehot)[:, tab] - apart  # [i, j]: i's kept-apart at j's table
            bad = bad | (there > 0) | (there.T > 0)
        if self.inst.away:
            kept = self.away[players][:, tab]  # [i, j]: i kept away from j's table
            bad = bad | kept | kept.T
        return players, np.where(bad, FORBIDDEN, players_delta), tables_delta

    def swap(self, r: int, a: int, b: int) -> None:
        """Swap players ``a`` and ``b`` of round ``r`` (at different tables)."""
        ta, tb = int(self.table_of[r, a]), int(self.table_of[r, b])
        with_a = np.flatnonzero(self.table_of[r] == ta)
        with_b = np.flatnonzero(self.table_of[r] == tb)
        with_a = with_a[with_a != a]
        with_b = with_b[with_b != b]
        for p, old, new in ((a, with_a, with_b), (b, with_b, with_a)):
            self.meetings[p, old] -= 1
            self.meetings[old, p] -= 1
            self.meetings[p, new] += 1
            self.meetings[new, p] += 1
        self.at_table[a, ta] -= 1
        self.at_table[a, tb] += 1
        self.at_table[b, tb] -= 1
        self.at_table[b, ta] += 1
        self.table_of[r, a], self.table_of[r, b] = tb, ta

    def _rounds(self) -> list[int]:
        """The rounds the search may change: not frozen, with two tables or more."""
        return [r for r in range(self.frozen, len(self.counts)) if self.counts[r] > 1]

    def descend(self, budget: int) -> int:
        """Best swaps, a round at a time (in a random order), until no round has an improving
        one or ``budget`` rounds have been scored; the rounds scored."""
        free = self._rounds()
        order = [free[int(k)] for k in self.rng.permutation(len(free))]
        scored = calm = 0
        weight = self.players_weight if self.trade is None else self.trade
        while order and calm < len(order) and scored < budget:
            r = order[scored % len(order)]
            scored += 1
            players, players_delta, tables_delta = self.deltas(r)
            delta = np.where(players_delta >= FORBIDDEN, FORBIDDEN,
                             weight * players_delta + tables_delta)
            least = int(delta.min())
            if least >= 0:
                calm += 1
                continue
            choices = np.flatnonzero(delta == least)
            i, j = divmod(int(choices[self.rng.integers(len(choices))]), len(players))
            self.swap(r, int(players[i]), int(players[j]))
            self.cost = (self.cost[0] + int(players_delta[i, j]),
                         self.cost[1] + int(tables_delta[i, j]))
            calm = 0
        self.progress.steps += scored
        if self.better():
            self._keep()
        return scored

    def better(self) -> bool:
        """Whether the current seating is better than the best yet: by the players score, then
        the tables (lexicographic), or, when the search trades them (``trade``: the weight of
        the players), by ``trade x players + tables``."""
        if self.trade is None:
            return self.cost < self.best_cost
        return (self.trade * self.cost[0] + self.cost[1]
                < self.trade * self.best_cost[0] + self.best_cost[1])

    def kick(self, swaps: int) -> int:
        """A few random swaps that keep the restrictions, from the best seating; the rounds
        scored."""
        self.progress.kicks += 1
        self.restore()
        free = self._rounds()
        for _ in range(swaps):
            r = free[int(self.rng.integers(len(free)))]
            players, players_delta, tables_delta = self.deltas(r)
            options = np.flatnonzero(players_delta < FORBIDDEN)
            if len(options):
                i, j = divmod(int(options[self.rng.integers(len(options))]), len(players))
                self.swap(r, int(players[i]), int(players[j]))
                self.cost = (self.cost[0] + int(players_delta[i, j]),
                             self.cost[1] + int(tables_delta[i, j]))
        self.progress.steps += swaps
        return swaps

    def restore(self) -> None:
        """Back to the best seating found."""
        self.table_of = self.best.copy()
        self.meetings = self.best_counts[0].copy()
        self.at_table = self.best_counts[1].copy()
        self.cost = self.best_cost

    def _recount(self) -> None:
        """The running counts (meetings, games at each table) from ``table_of``."""
        n = self.inst.players
        self.meetings = np.zeros((n, n), dtype=np.int64)
        self.at_table = np.zeros((n, self.inst.tables), dtype=np.int64)
        for r, tables in enumerate(self.counts):
            for table in range(tables):
                members = np.flatnonzero(self.table_of[r] == table)
                self.meetings[np.ix_(members, members)] += 1
                self.at_table[members, table] += 1
        np.fill_diagonal(self.meetings, 0)

    def perfect(self) -> bool:
        """Whether the current seating scores 0 on players and tables, as the platform's
        rule has it (every pair within 1 of its expected meetings, no player 1 or more short
        of ``games / tables`` at a table): then nothing is left to find."""
        off = np.abs(self.meetings * SCALE - self.expected) >= SCALE
        np.fill_diagonal(off, False)
        if (off & (self.apart == 0)).any():
            return False
        return not self.tables_matter or bool(
            (self.expected_table - self.at_table * SCALE < SCALE).all())


def search(inst: Instance, start: Array, rng: np.random.Generator, budget: int,
           frozen: int = 0, trade: float | None = None,
           enough: Callable[[Array], bool] | None = None) -> tuple[Array, Progress]:
    """``table_of[round][player]``: the best seating found from ``start`` in ``budget``
    rounds scored (fewer when it is perfect, or when a new best one is ``enough``), the
    rounds before ``frozen`` kept; with ``trade``, the best by ``trade x players + tables``
    (else the players first)."""
    state = Search(inst, start, rng, frozen)
    state.trade = trade if state.tables_matter else None
    if not state._rounds() or (enough is not None and enough(state.best)):
        return state.best, state.progress  # one table a round, or enough already
    left = budget
    while left > 0:
        left -= state.descend(left)
        if state.best_cost == state.cost and state.perfect():
            break
        if enough is not None and state.progress.best_step == state.progress.steps \
                and enough(state.best):
            break
        if left > 0:
            left -= state.kick(KICK)
    return state.best, state.progress
