"""A cyclic start for a full hall: ten blocks of players, each block spread over the tables.

With ``players = 10 x tables`` and everyone playing every round, number the players ``(x, y)``:
ten blocks ``x`` of ``tables`` players, place ``y`` in the block. A ``rounds x 10`` array ``F``
over the integers modulo ``tables`` seats player ``(x, y)`` in round ``r`` at table
``y + F[r][x]``: each table gets one player of each block, ten in all. Two rounds ``r, q`` share
``n(d) = #{x: F[r][x] - F[q][x] = d}`` players between any two of their tables ``d`` apart, so
the pairs' meetings squared, summed (all the platform's players score depends on without
kept-apart pairs, the meetings' total being fixed), is
``rounds x tables x 45 + 2 x tables x Σ_{r<q} Σ_d C(n(d), 2)``: smallest when every two rounds'
differences are as even as they can be. Player ``(x, y)`` sits at each table as often as column
``x`` holds each value, so the tables score (where it can be above 0) is
``tables x Σ_x Σ_v (games / tables - h[x][v])²`` over the columns' counts ``h``. Adding a number
to a whole row (renumbering a round's tables) changes no pair.

So the tournament is judged by a small array, searched by **tabu search** (numpy, integers):
every change of one entry is scored at once, and the best one not forbidden by the recent moves
(or one that beats the best array yet) is taken; at the end the rounds are renumbered (rows
shifted, best first, from a few random renumberings) for the columns. The cost is
lexicographic: first the restrictions (kept-apart pairs
that would meet, players at a table they are kept away from: must be none), then
``Σ C(n(d), 2)`` (the pairs), then ``Σ h²`` (the columns; only where the platform's tables score
can be above 0: 3 tables or more and ``games / tables`` at least 1). When the search stalls it
starts again from the best array with a few entries changed at random. For 30 players x 10
rounds and 50 x 8 it reaches the least players score any seating can have
(hall/seating/floor.py) within a second of work; for 200 x 12 it leaves a handful of blocks'
pairs meeting twice.

Kept-apart players go into one block where their group fits (a block never meets itself); a
pair in two blocks ``(x, y), (x', y')`` meets in round ``r`` when ``F[r][x'] - F[r][x] = y - y'``.
A player ``(x, y)`` kept away from table ``u`` sits there when ``F[r][x] = u - y``. The start is
used only when every restriction holds.
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt

from hall.seating.instance import Instance
from hall.seating.scores import SEATS

Array = npt.NDArray[np.int64]
#: the tabu tenure: a changed entry may not take its old value back for this many steps
TENURE = (5, 15)
#: steps without a new best array before the search starts again from the best, and how many
#: of its entries it then changes at random
STALL, SHAKE = 3000, 3
BLOCKED = np.int64(1) << 62
#: random renumberings of all rounds the columns' settling starts from
RESTARTS = 20


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
    """The array ``F``, its difference counts ``n[r][q][d]`` and column counts ``h[x][v]``, and
    the restrictions as entries: ``rules`` (block, other block, difference at which a kept-apart
    pair of theirs meets) and ``away[x][v]`` (players of block ``x`` at a table they are kept
    away from when an entry of column ``x`` is ``v``)."""

    def __init__(self, inst: Instance, block: list[list[int]], rng: np.random.Generator):
        self.rounds, self.t = len(inst.round_tables()), inst.tables
        self.f: Array = rng.integers(0, self.t, size=(self.rounds, SEATS)).astype(np.int64)
        self.columns = inst.tables_matter()
        where = {p: (x, y) for x, members in enumerate(block) for y, p in enumerate(members)}
        rules = []
        for a, b in sorted(inst.apart):
            (xa, ya), (xb, yb) = where[a], where[b]
            if xa != xb:  # they meet in round r when F[r][xb] - F[r][xa] = ya - yb
                rules.append((xa, xb, (ya - yb) % self.t))
                rules.append((xb, xa, (yb - ya) % self.t))
        self.rules = np.array(rules, dtype=np.int64).reshape(-1, 3)
        self.away = np.zeros((SEATS, self.t), dtype=np.int64)
        for p, table in inst.away:
            x, y = where[p]
            self.away[x, (table - y) % self.t] += 1
        self.recount()

    def recount(self) -> None:
        values = np.arange(self.t)
        differences = (self.f[:, None, :] - self.f[None, :, :]) % self.t
        self.n: Array = (differences[..., None] == values).sum(axis=2)
        self.n[np.arange(self.rounds), np.arange(self.rounds)] = 0
        self.h: Array = (self.f[..., None] == values).sum(axis=0)

    def pairs(self) -> int:
        """``Σ_{r<q} Σ_d C(n(d), 2)``."""
        return int((self.n * (self.n - 1) // 2).sum()) // 2

    def least_pairs(self) -> int:
        """The least ``Σ C(n, 2)`` any array can have: every two rows' ten differences as even
        as they can be over the ``tables`` values."""
        per, extra = divmod(SEATS, self.t)
        return comb(self.rounds, 2) * (extra * comb(per + 1, 2) + (self.t - extra) * comb(per, 2))

    def least_columns(self) -> int:
        per, extra = divmod(self.rounds, self.t)
        return SEATS * (extra * (per + 1) ** 2 + (self.t - extra) * per ** 2)

    def column_cost(self) -> int:
        return int((self.h * self.h).sum()) if self.columns else 0

    def broken(self) -> int:
        """Restrictions broken: kept-apart pairs meeting, players at a table kept from them
        (each round counted)."""
        away = int(self.away[np.arange(SEATS)[None, :], self.f].sum())
        if not len(self.rules):
            return away
        xa, xb, d = self.rules.T
        return away + int(((self.f[:, xb] - self.f[:, xa]) % self.t == d).sum()) // 2

    def changes(self) -> tuple[Array, Array, Array]:
        """For every entry ``[r, x]`` and value ``v``: the change of the pairs, the columns
        and the restrictions broken, were ``F[r][x]`` set to ``v``."""
        rounds, t = self.rounds, self.t
        values = np.arange(t)
        r_ = np.arange(rounds)
        # gain[r, q, x, v] = n[r][q][v - F[q][x]]: the pairs ``v`` would add in rounds r, q
        into = (values[None, None, :] - self.f[:, :, None]) % t  # [q, x, v]
        gain = self.n[r_[:, None, None, None], r_[None, :, None, None], into[None]]
        lose = np.take_along_axis(self.n, (self.f[:, None, :] - self.f[None, :, :]) % t,
                                  axis=2) - 1  # [r, q, x]
        other = ~np.eye(rounds, dtype=bool)[:, :, None, None]
        pairs = np.where(other, gain - lose[..., None], 0).sum(axis=1)
        if self.columns:
            held = self.h[np.arange(SEATS)[None, :], self.f]  # [r, x]
            columns = 2 * (self.h[None, :, :] - held[:, :, None]) + 2
        else:
            columns = np.zeros_like(pairs)
        broken = self.away[None, :, :] - self.away[np.arange(SEATS)[None, :], self.f][..., None]
        if len(self.rules):
            xa, xb, d = self.rules.T
            meets = np.zeros((rounds, SEATS, t), dtype=np.int64)
            # x = xa meets its partner in xb when v = F[r][xb] - d
            np.add.at(meets, (r_[:, None], xa[None, :], (self.f[:, xb] - d[None, :]) % t), 1)
            now = meets[r_[:, None], np.arange(SEATS)[None, :], self.f]
            broken = broken + meets - now[..., None]
        return pairs, columns, broken

    def set(self, r: int, x: int, value: int) -> None:
        old, t = int(self.f[r, x]), self.t
        q = np.flatnonzero(np.arange(self.rounds) != r)  # one entry each: plain indexing
        col = self.f[q, x]
        self.n[r, q, (old - col) % t] -= 1
        self.n[r, q, (value - col) % t] += 1
        self.n[q, r, (col - old) % t] -= 1
        self.n[q, r, (col - value) % t] += 1
        self.h[x, old] -= 1
        self.h[x, value] += 1
        self.f[r, x] = value

    def shifts(self) -> Array:
        """``[r, s]``: the change of the columns and restrictions (in the search's cost: the
        restrictions first) were row ``r`` shifted by ``s``; the pairs do not change."""
        t = self.t
        x_ = np.arange(SEATS)[None, :]
        held_h = self.h[x_, self.f] if self.columns else None
        held_away = self.away[x_, self.f]
        out = np.zeros((self.rounds, t), dtype=np.int64)
        for s in range(1, t):
            moved = (self.f + s) % t
            away = (self.away[x_, moved] - held_away).sum(axis=1)
            columns = (2 * (self.h[x_, moved] - held_h) + 2).sum(axis=1) if held_h is not None \
                else 0
            out[:, s] = away * self.weights()[0] + columns
        out[:, 0] = BLOCKED
        return out

    def weights(self) -> tuple[int, int]:
        """The cost's weights of a broken restriction and of a pair unit: each above anything
        the lower terms can change, so the cost is lexicographic."""
        pair = SEATS * self.rounds ** 2 + 1 if self.columns else 1
        return pair * (comb(SEATS, 2) * self.rounds ** 2 + 1), pair

    def cost(self) -> int:
        broken, pair = self.weights()
        return broken * self.broken() + pair * self.pairs() + self.column_cost()

    def done(self) -> bool:
        """Nothing left to find: no restriction broken, the pairs and columns at their least."""
        return (self.broken() == 0 and self.pairs() == self.least_pairs()
                and (not self.columns or self.column_cost() == self.least_columns()))


def tabu(design: Design, rng: np.random.Generator, steps: int) -> int:
    """Tabu search of ``design`` for at most ``steps`` steps; it leaves ``design`` at the best
    array it saw and returns the steps taken."""
    broken_w, pair_w = design.weights()
    tabu_until = np.zeros((design.rounds, SEATS, design.t), dtype=np.int64)
    cost = best = design.cost()
    best_f, best_step = design.f.copy(), 0
    step = 0
    for step in range(steps):
        if design.done():
            break
        pairs, columns, broken = design.changes()
        delta = broken_w * broken + pair_w * pairs + columns
        delta[np.arange(design.rounds)[:, None], np.arange(SEATS)[None, :], design.f] = BLOCKED
        delta[(tabu_until > step) & (cost + delta >= best)] = BLOCKED
        least = delta.min()
        if least >= BLOCKED:
            break
        choices = np.flatnonzero(delta == least)
        r, x, v = np.unravel_index(int(choices[rng.integers(len(choices))]), delta.shape)
        tabu_until[r, x, design.f[r, x]] = step + int(rng.integers(*TENURE))
        design.set(int(r), int(x), int(v))
        cost += int(least)
        if cost < best:
            best, best_f, best_step = cost, design.f.copy(), step
        elif step - best_step > STALL:
            design.f = best_f.copy()
            for _ in range(SHAKE):
                design.f[rng.integers(design.rounds), rng.integers(SEATS)] = rng.integers(design.t)
            design.recount()
            cost, best_step = design.cost(), step
    design.f = best_f
    design.recount()
    return step + 1


def shift_row(design: Design, r: int, s: int) -> None:
    design.f[r] = (design.f[r] + s) % design.t
    design.recount()


def settle(design: Design, rng: np.random.Generator, restarts: int = RESTARTS) -> None:
    """The rounds renumbered (each row shifted) for the least columns and tables kept away,
    which changes no pair: the best shift of any row while one helps, from the array as it is
    and from ``restarts`` random renumberings; ``design`` left at the best."""
    if not design.columns and not design.away.any():
        return
    best_f, best = design.f.copy(), design.cost()
    for attempt in range(restarts + 1):
        design.f = best_f.copy()
        if attempt:
            design.f = (design.f + rng.integers(0, design.t, size=(design.rounds, 1))) % design.t
        design.recount()
        while True:
            shift = design.shifts()
            r, s = np.unravel_index(int(shift.argmin()), shift.shape)
            if shift[r, s] >= 0:
                break
            shift_row(design, int(r), int(s))
        if design.cost() < best:
            best_f, best = design.f.copy(), design.cost()
    design.f = best_f
    design.recount()


def start(inst: Instance, rng: np.random.Generator, steps: int) -> Array | None:
    """The cyclic start (``table_of[round][player]``) after at most ``steps`` steps of tabu
    search; ``None`` when a restriction is broken in it."""
    block = blocks(inst, rng)
    design = Design(inst, block, rng)
    tabu(design, rng, steps)
    settle(design, rng)
    if design.broken():
        return None
    return seating(inst, block, design.f)


def seating(inst: Instance, block: list[list[int]], f: Array) -> Array:
    """``table_of[round][player]`` of the array."""
    table_of = np.empty((len(f), inst.players), dtype=np.int64)
    for r, row in enumerate(f):
        for x, members in enumerate(block):
            for y, p in enumerate(members):
                table_of[r, p] = (y + int(row[x])) % inst.tables
    return table_of
