"""Whether the restrictions can hold: one round's split of the players over the tables.

With everyone playing every round, the kept-apart pairs and the tables players are kept away
from can hold for the whole tournament exactly when they can in one round: a table for each
player who is kept apart from someone or away from a table, no two of a pair at one table, no
one at a table kept from them, and no table over its 10 seats (the other players fill what is
left). That is a list colouring of the graph of kept-apart pairs with ``tables`` colours of at
most 10 vertices each, found (or proved impossible) by an exhaustive search that takes the most
constrained player first (DSATUR) and, while no one is kept from a table, never tries two unused
tables for the same player.
With players sitting out, such a split is enough (the sitting out is arranged around it), and
the generator asks for it there too, though rotating who sits out could sometimes keep a
pair apart without one.
"""

from __future__ import annotations

from hall.seating.instance import Instance, Refused
from hall.seating.scores import SEATS
from kit.i18n import Words

#: how many partial splits the search may try before it gives up deciding
TRIES = 200_000


def split(inst: Instance, tries: int = TRIES) -> dict[int, int]:
    """A table (0-based) for each player kept apart from someone or away from a table, or
    :class:`Refused` with the reason the restrictions cannot hold."""
    partners = inst.apart_from()
    away = inst.away_from()
    for p in away:
        partners.setdefault(p, set())
    if not partners:
        return {}
    crowded = _crowded(inst, away)
    if crowded:
        raise Refused([crowded])
    tables = inst.tables
    colour: dict[int, int] = {}
    load = [0] * tables
    budget = [tries]

    def pick() -> int:
        def constraint(p: int) -> tuple[int, int, int]:
            used = {colour[q] for q in partners[p] if q in colour} | away.get(p, set())
            return (len(used), len(partners[p]), -p)
        return max((p for p in partners if p not in colour), key=constraint)

    def search() -> bool:
        if len(colour) == len(partners):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        p = pick()
        taken = {colour[q] for q in partners[p] if q in colour} | away.get(p, set())
        opened = False
        for t in range(tables):
            if t in taken or load[t] >= SEATS:
                continue
            if load[t] == 0 and not away:
                if opened:
                    continue  # every unused table is the same: try one
                opened = True
            colour[p] = t
            load[t] += 1
            if search():
                return True
            load[t] -= 1
            del colour[p]
        return False

    if search():
        return colour
    if budget[0] < 0:
        raise Refused([Words("seating.plan.tangled", tables=tables, tries=tries)])
    raise Refused([_why(inst, partners)])


def _crowded(inst: Instance, away: dict[int, set[int]]) -> Words | None:
    """Why the players kept from tables cannot all be seated at the others, ten a table, if
    they cannot (a matching of players to allowed tables, by augmenting paths; when it falls
    short, the players it cannot place and the tables open to them are the witness)."""
    tables = range(inst.tables)
    allowed = {p: [t for t in tables if t not in kept] for p, kept in sorted(away.items())}
    seated: dict[int, list[int]] = {t: [] for t in tables}

    def place(p: int, seen: set[int]) -> bool:
        for t in allowed[p]:
            if t in seen:
                continue
            seen.add(t)
            if len(seated[t]) < SEATS:
                seated[t].append(p)
                return True
            for q in seated[t]:
                if place(q, seen):
                    seated[t].remove(q)
                    seated[t].append(p)
                    return True
        return False

    for p in allowed:
        seen: set[int] = set()
        if not place(p, seen):
            # the tables reachable from p: all full, and their players can go nowhere else
            players = sorted({p, *(q for t in seen for q in seated[t])})
            return Words("seating.plan.away_room", players=len(players),
                         tables=", ".join(str(t + 1) for t in sorted(seen)),
                         seats=SEATS * len(seen))
    return None


def _why(inst: Instance, partners: dict[int, set[int]]) -> Words:
    """The reason a split does not exist, as plainly as it can be found."""
    for p, others in sorted(partners.items()):
        if len(others) > inst.players - SEATS:
            return Words("seating.plan.lonely", player=p + 1, apart=len(others),
                         rest=inst.players - 1 - len(others))
    clique = _clique(partners, inst.tables + 1)
    if len(clique) == 2:
        return Words("seating.plan.one_table", a=clique[0] + 1, b=clique[1] + 1)
    if clique:
        return Words("seating.plan.clique", players=[p + 1 for p in clique], size=len(clique),
                     tables=inst.tables)
    return Words("seating.plan.no_split", tables=inst.tables)


def _clique(partners: dict[int, set[int]], size: int) -> list[int]:
    """``size`` players pairwise kept apart, if there are (a short search: a witness for the
    reason, not the decision)."""
    budget = [TRIES]

    def grow(chosen: list[int], candidates: set[int]) -> list[int]:
        if len(chosen) == size:
            return chosen
        budget[0] -= 1
        if budget[0] < 0 or len(chosen) + len(candidates) < size:
            return []
        for p in sorted(candidates):
            found = grow([*chosen, p], {q for q in candidates & partners[p] if q > p})
            if found:
                return found
        return []

    return grow([], set(partners))
