"""A cyclic start for a full hall: ten blocks of players, each block spread over the tables.

With ``players = 10 x tables`` and everyone playing every round, number the players ``(x, y)``:
ten blocks ``x`` of ``tables`` players, place ``y`` in the block. A ``rounds x 10`` array ``F``
over the integers modulo ``tables`` seats player ``(x, y)`` in round ``r`` at table
``y + F[r][x]``: each table gets one player of each block, ten in all. Two rounds ``r, q`` share
``n(d) = #{x: F[r][x] - F[q][x] = d}`` players between any two of their tables ``d`` apart, so
the pairs' meetings squared, summed (all the platform's players score depends on without
kept-apart pairs, the meetings' total being fixed), is
``rounds x tables x 45 + 2 x tables x Σ_{r<q} Σ_d C(n(d), 2)``: smallest when every two rounds'
differences are as even as they can be (the rows of a difference matrix). Player ``(x, y)``
sits at each table as often as column ``x`` holds each value. So the tournament is judged by a
small array, which simulated annealing settles first for the pairs alone, then for the columns
without giving up a pair: for 30 players x 10 rounds it reaches the least players score any
seating can have (hall/seating/floor.py) within a second of work.

Kept-apart players go into one block where their group fits (a block never meets itself); a
pair in two blocks ``(x, y), (x', y')`` forbids ``F[r][x'] - F[r][x] = y - y'`` in every round,
a cost far above any balance. The start is used only when all such pairs hold.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from hall.seating.instance import Instance
from hall.seating.scores import SEATS

Array = npt.NDArray[np.int64]
#: a kept-apart pair meeting, against one step of Σ C(n, 2)
VIOLATION_WEIGHT = 1000
#: the second phase's weight of a step of Σ C(n, 2) against a column's: no pair is given up
PAIRS_FIRST = 1000


def blocks(inst: Instance, rng: np.random.Generator) -> list[list[int]]:
    """Ten blocks of ``tables`` players: each group of players linked by kept-apart pairs in
    one block where it fits (largest first, into the emptiest block), the rest at random."""
    partners = inst.apart_from()
    seen: set[int] = set()
    groups = []
    for p in sorted(partners):
        if p in seen:
            continue
        group, todo = [], [p]
        seen.add(p)
        while todo:
            q = todo.pop()
            group.append(q)
            for o in sorted(partners[q] - seen):
                seen.add(o)
                todo.append(o)
        groups.append(sorted(group))
    groups.sort(key=lambda g: (-len(g), g))
    size = inst.tables
    out: list[list[int]] = [[] for _ in range(SEATS)]
    spill: list[int] = []
    for group in groups:
        room = min(range(SEATS), key=lambda x: (len(out[x]), x))
        if len(out[room]) + len(group) <= size:
            out[room].extend(group)
        else:
            spill.extend(group)
    rest = [int(p) for p in rng.permutation(inst.players) if int(p) not in seen] + spill
    for x in range(SEATS):
        while len(out[x]) < size:
            out[x].append(rest.pop(0))
    return out


class Design:
    """The array ``F``, its difference counts ``n[r][q][d]``, its column counts ``h[x][v]``,
    and the kept-apart pairs across blocks it must keep apart."""

    def __init__(self, inst: Instance, block: list[list[int]], rng: np.random.Generator):
        rounds, t = len(inst.round_tables()), inst.tables
        self.rounds, self.t = rounds, t
        self.f = [[int(v) for v in rng.integers(0, t, SEATS)] for _ in range(rounds)]
        self.n = [[[0] * t for _ in range(rounds)] for _ in range(rounds)]
        for r in range(rounds):
            for q in range(rounds):
                if r != q:
                    for x in range(SEATS):
                        self.n[r][q][(self.f[r][x] - self.f[q][x]) % t] += 1
        self.h = [[0] * t for _ in range(SEATS)]
        for row in self.f:
            for x in range(SEATS):
                self.h[x][row[x]] += 1
        where = {p: (x, y) for x, members in enumerate(block) for y, p in enumerate(members)}
        self.rules: list[list[tuple[int, int]]] = [[] for _ in range(SEATS)]  # x -> (x', d)
        for a, b in inst.apart:
            (xa, ya), (xb, yb) = where[a], where[b]
            if xa != xb:  # they meet in round r when F[r][xb] - F[r][xa] = ya - yb
                self.rules[xa].append((xb, (ya - yb) % t))
                self.rules[xb].append((xa, (yb - ya) % t))

    def _broken(self, r: int, x: int, value: int) -> int:
        """Kept-apart pairs of block ``x`` that meet in round ``r`` when ``F[r][x] = value``."""
        row = self.f[r]
        return sum(1 for other, d in self.rules[x] if (row[other] - value) % self.t == d)

    def change(self, r: int, x: int, new: int) -> tuple[int, int, int]:
        """What setting ``F[r][x] = new`` changes: Σ C(n, 2) over pairs of rounds, the
        columns' Σ (h - rounds / tables)², and the kept-apart pairs that meet."""
        old, t = self.f[r][x], self.t
        pairs = 0
        for q in range(self.rounds):
            if q != r:
                col = self.f[q][x]
                pairs += self.n[r][q][(new - col) % t] - self.n[r][q][(old - col) % t] + 1
        columns = 2 * (self.h[x][new] - self.h[x][old]) + 2
        return pairs, columns, self._broken(r, x, new) - self._broken(r, x, old)

    def set(self, r: int, x: int, new: int) -> None:
        old, t = self.f[r][x], self.t
        for q in range(self.rounds):
            if q != r:
                col = self.f[q][x]
                self.n[r][q][(old - col) % t] -= 1
                self.n[r][q][(new - col) % t] += 1
                self.n[q][r][(col - old) % t] -= 1
                self.n[q][r][(col - new) % t] += 1
        self.h[x][old] -= 1
        self.h[x][new] += 1
        self.f[r][x] = new

    def load(self, f: list[list[int]]) -> None:
        """Make the array ``f``."""
        for r, row in enumerate(f):
            for x, value in enumerate(row):
                if self.f[r][x] != value:
                    self.set(r, x, value)

    def broken(self) -> int:
        """Kept-apart pairs that meet."""
        return sum(self._broken(r, x, row[x]) for r, row in enumerate(self.f)
                   for x in range(SEATS)) // 2

    def shift_columns(self, r: int, shift: int) -> int:
        """The columns' change of adding ``shift`` to row ``r`` (renumbering the round's
        tables: the pairs and the kept-apart pairs stay as they are)."""
        row, t = self.f[r], self.t
        return sum(2 * (self.h[x][(row[x] + shift) % t] - self.h[x][row[x]]) + 2
                   for x in range(SEATS))

    def shift(self, r: int, shift: int) -> None:
        row, t = self.f[r], self.t
        for x in range(SEATS):
            self.h[x][row[x]] -= 1
            row[x] = (row[x] + shift) % t
            self.h[x][row[x]] += 1
        for q in range(self.rounds):  # every difference with round q moves by ``shift``
            if q != r:
                self.n[r][q] = self.n[r][q][-shift:] + self.n[r][q][:-shift]
                self.n[q][r] = self.n[q][r][shift:] + self.n[q][r][:shift]


def anneal(design: Design, rng: np.random.Generator, steps: int, pairs_weight: int,
           columns_weight: int) -> None:
    """Simulated annealing of ``design`` for ``steps`` steps (a step: set an entry, swap two
    entries of a column, or shift a row) on ``pairs_weight x Σ C(n, 2) + columns_weight x
    columns + VIOLATION_WEIGHT x pairs_weight x kept-apart meetings``, its temperature from 3
    down to 0.05; it leaves ``design`` at the best array it saw."""
    hot, cold = 3.0, 0.05
    broken_weight = VIOLATION_WEIGHT * pairs_weight
    cost = best = 0
    best_f = [row[:] for row in design.f]
    cells = rng.integers(0, design.rounds * SEATS, size=steps)
    values = rng.integers(0, design.t, size=steps)
    partner = rng.integers(0, design.rounds, size=steps)
    kind = rng.integers(0, 3, size=steps)  # 0 set an entry, 1 swap in a column, 2 shift a row
    chance = rng.random(steps)
    for k in range(steps):
        r, x = divmod(int(cells[k]), SEATS)
        heat = hot * (cold / hot) ** (k / steps)
        moves: list[tuple[int, int, int]] = []
        if kind[k] == 2:
            shift = int(values[k])
            if shift == 0:
                continue
            delta = columns_weight * design.shift_columns(r, shift)
            if delta <= 0 or chance[k] < math.exp(-delta / heat):
                design.shift(r, shift)
                cost += delta
        else:
            if kind[k] == 1:
                q = int(partner[k])
                if q == r or design.f[r][x] == design.f[q][x]:
                    continue
                moves = [(r, x, design.f[q][x]), (q, x, design.f[r][x])]
            else:
                if int(values[k]) == design.f[r][x]:
                    continue
                moves = [(r, x, int(values[k]))]
            delta, done = 0, []
            for move in moves:
                pairs, columns, broken = design.change(*move)
                delta += pairs_weight * pairs + columns_weight * columns + broken_weight * broken
                done.append((move[0], move[1], design.f[move[0]][move[1]]))
                design.set(*move)
            if delta <= 0 or chance[k] < math.exp(-delta / heat):
                cost += delta
            else:
                for move in reversed(done):
                    design.set(*move)
                continue
        if cost < best:
            best = cost
            best_f = [row[:] for row in design.f]
    design.load(best_f)


def start(inst: Instance, rng: np.random.Generator, steps: int) -> Array | None:
    """The cyclic start (``table_of[round][player]``) after ``steps`` steps of annealing:
    first the pairs alone, then the columns without giving up any pair; ``None`` when a
    kept-apart pair meets in it."""
    block = blocks(inst, rng)
    design = Design(inst, block, rng)
    anneal(design, rng, steps * 3 // 4, 1, 0)
    anneal(design, rng, steps - steps * 3 // 4, PAIRS_FIRST, 1)
    if design.broken():
        return None
    return seating(inst, block, design.f)


def seating(inst: Instance, block: list[list[int]], f: list[list[int]]) -> Array:
    """``table_of[round][player]`` of the array."""
    table_of = np.empty((len(f), inst.players), dtype=np.int64)
    for r, row in enumerate(f):
        for x, members in enumerate(block):
            for y, p in enumerate(members):
                table_of[r, p] = (y + row[x]) % inst.tables
    return table_of
