"""Which table each game of a round is played at: the tables score, without touching who meets.

Renumbering the tables of one round changes nothing but the tables score, and with every other
round fixed, the best numbering of that round is an assignment problem: giving the game of
players ``g`` table ``t`` changes the score by ``Σ_{p in g} (2 (c[p][t] - games / tables) + 1)``
(``c``: ``p``'s games at ``t`` in the other rounds), whatever the other games get. So each round
in turn gets its optimal numbering (the Hungarian method), until a whole pass changes nothing;
then a few rounds are renumbered at random and the passes start again, keeping the best.

A table a player is kept away from costs their game more than any balance (``AWAY``), so the
numbering keeps every such rule (the seating it starts from does); rounds already played
(before ``frozen``) keep their numbers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from hall.seating.instance import Instance

Array = npt.NDArray[np.int64]
AWAY = np.int64(1) << 40


def assignment(cost: list[list[int]]) -> list[int]:
    """The column of each row of a square cost matrix in a cheapest assignment (Hungarian
    method with potentials, O(n³))."""
    n = len(cost)
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    match, way = [0] * (n + 1), [0] * (n + 1)
    for i in range(1, n + 1):
        match[0], j0 = i, 0
        least, used = [inf] * (n + 1), [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = match[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < least[j]:
                        least[j], way[j] = cur, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    column = [0] * n
    for j in range(1, n + 1):
        column[match[j] - 1] = j - 1
    return column


def tables_cost(inst: Instance, table_of: Array) -> int:
    """The raw tables score x ``tables`` ² (an integer; 0 below 3 tables, as the platform)."""
    return tables_key(inst, table_of)[1]


def tables_key(inst: Instance, table_of: Array) -> tuple[bool, int]:
    """How the platform ranks a numbering: imperfect (a player a game or more short of
    ``games / tables`` at a table) after perfect, then by :func:`tables_cost`."""
    if inst.tables < 3:
        return False, 0
    counts = np.zeros((inst.players, inst.tables), dtype=np.int64)
    for row in table_of:
        playing = row >= 0
        np.add.at(counts, (np.flatnonzero(playing), row[playing]), 1)
    short = inst.games - counts * inst.tables
    return bool((short >= inst.tables).any()), int((short ** 2).sum())


def renumber(inst: Instance, table_of: Array, rng: np.random.Generator, passes: int,
             frozen: int = 0) -> Array:
    """``table_of`` with each round's tables (from round ``frozen`` on) renumbered for the
    least tables score, in at most ``passes`` passes over the rounds."""
    if not inst.tables_matter():
        return table_of
    table_of = table_of.copy()
    counts_of = [int((row >= 0).sum()) // 10 for row in table_of]
    free = [r for r in range(frozen, len(counts_of)) if counts_of[r] > 1]
    t = inst.tables
    away = np.zeros((inst.players, t), dtype=np.int64)
    for p, table in inst.away:
        away[p, table] = AWAY
    counts = np.zeros((inst.players, t), dtype=np.int64)
    for row in table_of:
        playing = np.flatnonzero(row >= 0)
        np.add.at(counts, (playing, row[playing]), 1)
    best, best_cost = table_of.copy(), tables_key(inst, table_of)
    calm = 0
    for _ in range(passes):
        changed = False
        for r in free:
            tables = counts_of[r]
            playing = np.flatnonzero(table_of[r] >= 0)
            games = table_of[r, playing]
            np.add.at(counts, (playing, games), -1)
            # cost[g][t]: the game at table g moved to table t, x tables
            step = 2 * (counts[playing, :tables] * t - inst.games) + t + away[playing, :tables]
            cost = np.zeros((tables, tables), dtype=np.int64)
            np.add.at(cost, games, step)
            column = assignment(cost.tolist())
            moved = np.array(column, dtype=np.int64)[games]
            changed |= bool((moved != games).any())
            table_of[r, playing] = moved
            np.add.at(counts, (playing, moved), 1)
        cost_now = tables_key(inst, table_of)
        if cost_now < best_cost:
            best, best_cost = table_of.copy(), cost_now
        if not changed:
            calm += 1
            if not best_cost[0]:  # perfect: nothing left to find
                break
            for r in rng.choice(free, size=min(2, len(free)), replace=False) if free else ():
                playing = np.flatnonzero(table_of[r] >= 0)
                games = table_of[r, playing]
                moved = rng.permutation(counts_of[r])[games]
                if away[playing, moved].any():
                    continue  # a numbering that breaks a rule is no kick
                np.add.at(counts, (playing, games), -1)
                table_of[r, playing] = moved
                np.add.at(counts, (playing, moved), 1)
    return best
