"""Seat numbers inside each game: every player at every number equally often.

Who shares a game is decided (:mod:`hall.seating.groups`); which of the ten seats each of
them takes is what the platform's numbers score judges, and it can be decided on its own.

The start is exact: a player's games, in order, are cut into runs of ten ("copies" of the
player); copies and games make a bipartite multigraph in which no vertex has more than ten
edges, so (König) its edges can be coloured with ten colours, no two edges of a vertex alike:
colour = seat number. Each game then seats its ten players at ten different numbers and each
copy takes ten different numbers. When every player's games are a multiple of ten, every copy
takes every number once, so every player takes every number ``games / 10`` times, every seat
pair ``games / 5`` times and every half ``games / 2`` times: the numbers score is 0. The colouring
is the classic one: an edge takes a colour free at both ends, or one end's free colour after
the two colours are swapped along the path that alternates them from the other end.

Otherwise a player's last copy has fewer than ten games and its numbers come out of the
colouring as they fall; simulated annealing then swaps two players' seats inside a game,
judged by the platform's numbers score (in integers: x100), each squared deviation of 1 or more
counting as a violation far above any balance, so the search goes for "perfect" first; its
temperature falls and starts again until the numbers are perfect or the work is spent.

Fixed seats (a final's, or a player who must sit at one end) are put in place after the
colouring, by swapping inside the game, and the annealing never moves them; nor does it touch
the games of rounds already played (a re-seating keeps them as they were).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence

import numpy as np

from hall.seating.scores import SEAT_WEIGHT, SEATS

Games = Sequence[Sequence[Sequence[int]]]  # [round][table] -> the game's players, any order
Place = tuple[int, int, int]  # (round, table, seat), all from 0
VIOLATION = 10_000_000
CYCLE = 50_000  # steps of one fall of the temperature


def colour(players: int, games: Games) -> list[list[list[int]]]:
    """Each game's players in seat order, by the edge colouring."""
    flat = [list(game) for round_ in games for game in round_]
    seen = [0] * players
    edges = []  # (copy, game, player)
    copies: dict[tuple[int, int], int] = {}
    for g, game in enumerate(flat):
        for p in game:
            key = (p, seen[p] // SEATS)
            seen[p] += 1
            edges.append((copies.setdefault(key, len(copies)), g, p))
    left = [[-1] * SEATS for _ in copies]  # [copy][colour] -> edge
    right = [[-1] * SEATS for _ in flat]  # [game][colour] -> edge
    colour_of = [-1] * len(edges)
    for e, (u, v, _) in enumerate(edges):
        a = left[u].index(-1)
        b = right[v].index(-1)
        if right[v][a] != -1:
            _swap_path(v, a, b, edges, left, right, colour_of)
        colour_of[e] = a
        left[u][a] = right[v][a] = e
    seated = [[0] * SEATS for _ in flat]
    for e, (_, g, p) in enumerate(edges):
        seated[g][colour_of[e]] = p
    out, k = [], 0
    for round_ in games:
        out.append(seated[k:k + len(round_)])
        k += len(round_)
    return out


def _swap_path(v: int, a: int, b: int, edges: list[tuple[int, int, int]],
               left: list[list[int]], right: list[list[int]], colour_of: list[int]) -> None:
    """Swap colours ``a`` and ``b`` along the path from game ``v`` that alternates them (``a``
    first), so that ``a`` becomes free at ``v``."""
    path, at_game, node, want = [], True, v, a
    while True:
        e = right[node][want] if at_game else left[node][want]
        if e == -1:
            break
        path.append(e)
        node = edges[e][0] if at_game else edges[e][1]
        at_game, want = not at_game, b if want == a else a
    for e in path:
        u, g, _ = edges[e]
        old = colour_of[e]
        if left[u][old] == e:
            left[u][old] = -1
        if right[g][old] == e:
            right[g][old] = -1
    for e in path:
        u, g, _ = edges[e]
        new = b if colour_of[e] == a else a
        colour_of[e] = new
        left[u][new] = right[g][new] = e


def row_cost(row: Sequence[int], games: int) -> int:
    """One player's part of the numbers score x100 (``row[s]``: games at seat ``s + 1``), plus
    ``VIOLATION`` for each deviation that makes the score imperfect."""
    cost = 0
    for s in range(SEATS):
        d = games - SEATS * row[s]
        cost += 4 * SEAT_WEIGHT[s] * d * d + (VIOLATION if abs(d) >= SEATS else 0)
    for s in range(0, SEATS, 2):
        d = 2 * games - SEATS * (row[s] + row[s + 1])
        cost += 2 * d * d + (VIOLATION if abs(d) >= SEATS else 0)
    for s in (0, 5):
        d = 5 * games - SEATS * sum(row[s:s + 5])
        cost += d * d + (VIOLATION if abs(d) >= SEATS else 0)
    return cost


def fix(seated: list[list[list[int]]], fixed: Iterable[tuple[int, int, int]]) -> set[Place]:
    """Each fixed ``(round, player, seat)`` made so by swapping the player into that seat of
    their game, in place; the places it fixed (``(round, table, seat)``). A fixed player who
    does not play that round is skipped."""
    places: set[Place] = set()
    for r, p, seat in sorted(fixed):
        for t, game in enumerate(seated[r]):
            if p in game:
                at = game.index(p)
                game[at], game[seat] = game[seat], game[at]
                places.add((r, t, seat))
    return places


def anneal(players: int, games: int, seated: list[list[list[int]]], rng: np.random.Generator,
           steps: int, locked: Collection[Place] = ()) -> int:
    """Swap seats inside games for at most ``steps`` tries, in place, never moving a ``locked``
    place (``(round, table, seat)``); the steps taken. It stops when the numbers score is
    perfect; its temperature falls from hot to cold over each ``CYCLE`` steps and starts again,
    and it ends at the best seating it saw at the end of a cycle or of the steps."""
    flat = [game for round_ in seated for game in round_]
    where = [(r, t) for r, round_ in enumerate(seated) for t in range(len(round_))]
    free = [[s for s in range(SEATS) if (r, t, s) not in locked] for r, t in where]
    movable = [g for g, seats_free in enumerate(free) if len(seats_free) > 1]
    counts = [[0] * SEATS for _ in range(players)]
    for game in flat:
        for s, p in enumerate(game):
            counts[p][s] += 1
    cost = [row_cost(row, games) for row in counts]
    violations = sum(c // VIOLATION for c in cost)
    if not movable:
        return 0
    hot, cold = 200.0 * games, 1.0
    cycle = min(steps, CYCLE)
    picks = rng.integers(0, len(movable), size=steps)
    seats = rng.integers(0, SEATS, size=(steps, 2))
    chance = rng.random(steps)
    total = sum(cost)
    best, best_games = total, [game[:] for game in flat]
    for k in range(steps):
        if violations == 0:
            return k
        if k % cycle == cycle - 1 and total < best:
            best, best_games = total, [game[:] for game in flat]
        g = movable[picks[k]]
        game, choices = flat[g], free[g]
        i, j = choices[seats[k, 0] % len(choices)], choices[seats[k, 1] % len(choices)]
        if i == j:
            continue
        a, b = game[i], game[j]
        ra, rb = counts[a], counts[b]
        ra[i] -= 1
        ra[j] += 1
        rb[j] -= 1
        rb[i] += 1
        ca, cb = row_cost(ra, games), row_cost(rb, games)
        delta = ca + cb - cost[a] - cost[b]
        heat = hot * (cold / hot) ** ((k % cycle) / cycle)
        if delta <= 0 or chance[k] < math.exp(-delta / heat):
            game[i], game[j] = b, a
            violations += (ca + cb) // VIOLATION - (cost[a] + cost[b]) // VIOLATION
            cost[a], cost[b] = ca, cb
            total += delta
        else:
            ra[i] += 1
            ra[j] -= 1
            rb[j] += 1
            rb[i] -= 1
    if best < total:
        for game, kept in zip(flat, best_games, strict=True):
            game[:] = kept
    return steps
