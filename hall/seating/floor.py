"""The least each score of the platform can be: the bars a seating is held to.

**Players.** The pairs' meetings add up to ``45 x games in all`` whatever the seating, so the
players score (without kept-apart pairs: ``Σ (m - e)²`` over the pairs) only grows with
``Σ m²``. Two bounds hold for that:

- **even**: the meetings spread as evenly as integers can be (each pair ``⌊e⌋`` or ``⌈e⌉``). A
  seating at this bound is perfect (score 0). One that is not perfect has a pair a meeting or
  more off, which costs ``Σ m²`` at least 2 more (one pair up and one down), so it scores at
  least the even sum of squares plus 2;
- **rounds** (everyone playing every round): ``Σ m²`` counts, for every two rounds, the pairs
  that share a table in both, and two rounds' tables share at least ``Σ C(n, 2)`` pairs when the
  ten players of each table spread over the other round's tables as evenly as they can
  (``n = ⌊10 / tables⌋`` or one more). With few tables this is the larger bound, and then no
  seating is perfect: 30 players x 10 rounds cannot score below 400.34.

A perfect seating of 100 players x 10 rounds (no pair twice) would be 10 parallel classes of a
net of order 10, which completes to an affine plane of order 10 (Bruck, 1963: a net of
deficiency one always completes), and none exists (Lam, Thiel and Swiercz, 1989); so there, and
at 11 rounds, the floor is the imperfect one.

**Numbers.** 0: every player at every number equally often, within the platform's rule, is
always possible (the generator reaches it; hall/seating/seats.py).

**Tables.** 0 when every player can be within a game of ``games / tables`` at every table,
which a full hall always can. But the tables trade with the pairs: two rounds ``r, q`` with
``N[i][j]`` players at table ``i`` in ``r`` and ``j`` in ``q`` share ``S = Σ C(N, 2)`` pairs and
``A = Σ_i N[i][i]`` players sitting at the same table number in both, and the players score is a
constant plus ``2 Σ S``, the tables score (when not 0) a constant plus ``2 Σ A``. Each row of
``N`` (ten players) gives ``C(N[i][i] + 1, 2)`` plus the pairs of the other nine as evenly split
as can be, at the least ``j`` over the diagonal value, so in a full hall without kept-apart
pairs, **players + tables ≥ J** for any seating whose tables score is not 0 (30 x 10: 510.34; 50
x 8: 875.10). A seating at the players floor of 50 x 8 (every two tables of two rounds sharing
exactly two players) has ``A = 10`` for every two rounds whatever the numbering: its tables
score is 320, no less. The bar for a seating's tables score, given its players score ``p``, is
``max(B, J - p)`` (``B``: every player as even as integers allow at the tables but one, a game
short at one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import comb

from hall.seating.instance import Instance
from hall.seating.scores import SEATS


@dataclass(frozen=True)
class Floor:
    """A score's bar: ``least`` no seating goes below (0: a perfect one may exist, or does),
    and, when that is 0 and a seating that is not perfect is held to more, ``imperfect``."""

    least: float
    imperfect: float | None = None


def _even_split(total: int, parts: int) -> int:
    """``Σ C(n, 2)`` of ``total`` split over ``parts`` as evenly as integers can be."""
    if parts <= 0:
        return 0 if total == 0 else comb(total, 2)
    per, extra = divmod(total, parts)
    return extra * comb(per + 1, 2) + (parts - extra) * comb(per, 2)


def _full(inst: Instance) -> bool:
    return inst.players == inst.tables * SEATS and not inst.apart


def _meetings_constant(inst: Instance) -> tuple[int, float, int]:
    """The meetings in all, a pair's expected meetings, the pairs."""
    pairs = inst.players * (inst.players - 1) // 2
    return comb(SEATS, 2) * inst.players * inst.games // SEATS, \
        inst.games * 9 / (inst.players - 1), pairs


def _players_score(inst: Instance, squares: int) -> float:
    """The players score of meetings whose squares sum to ``squares``."""
    total, e, pairs = _meetings_constant(inst)
    return squares - 2 * e * total + pairs * e * e


def never_perfect(inst: Instance) -> bool:
    """Whether no seating of ``inst`` has every pair within a meeting of the expected: proved
    here for a full hall of 10 tables over 10 or 11 rounds (no affine plane of order 10)."""
    return inst.tables == SEATS and _full(inst) and len(inst.round_tables()) in (10, 11)


def players(inst: Instance) -> Floor | None:
    """The floor of the platform's players score, or None when the instance keeps pairs apart
    (their weights change the sum)."""
    if inst.apart:
        return None
    total, _, pairs = _meetings_constant(inst)
    q, rem = divmod(total, pairs)
    even = rem * (q + 1) ** 2 + (pairs - rem) * q ** 2
    rounds = len(inst.round_tables())
    squares = even
    if inst.players == inst.tables * SEATS and rounds > 1:
        per, extra = divmod(SEATS, inst.tables)
        shared = inst.tables * (extra * comb(per + 1, 2) + (inst.tables - extra) * comb(per, 2))
        squares = max(even, total + rounds * (rounds - 1) * shared)
    if squares > even:
        return Floor(_players_score(inst, squares))
    imperfect = _players_score(inst, even + 2)
    return Floor(imperfect) if never_perfect(inst) else Floor(0.0, imperfect)


def players_floor(inst: Instance) -> float | None:
    """The least players score any seating can have (0 where a perfect one may exist)."""
    found = players(inst)
    return None if found is None else found.least


def numbers(inst: Instance) -> Floor:
    """The floor of the numbers score: 0."""
    return Floor(0.0)


def _spread(games: int, tables: int, e: float) -> float:
    """``Σ (e - c)²`` of ``games`` spread over ``tables`` as evenly as integers allow."""
    per, extra = divmod(games, tables)
    return extra * (per + 1 - e) ** 2 + (tables - extra) * (per - e) ** 2


def _balanced(inst: Instance) -> float:
    """The least tables sum of a seating that is not perfect: every player as even as integers
    allow over the tables but one, who is a game short of ``games / tables`` at one table
    (the most games that leaves there) and as even as can be over the others."""
    e = inst.games / inst.tables
    even = _spread(inst.games, inst.tables, e)
    short = math.floor(e - 1)
    uneven = (e - short) ** 2 + _spread(inst.games - short, inst.tables - 1, e)
    return (inst.players - 1) * even + max(even, uneven)


def joint(inst: Instance) -> float | None:
    """``J``: players + tables of any seating whose tables score is not 0, in a full hall
    without kept-apart pairs whose tables score can be above 0 (else None)."""
    if not _full(inst) or not inst.tables_matter():
        return None
    t, rounds = inst.tables, len(inst.round_tables())
    row = min(comb(d + 1, 2) + _even_split(SEATS - d, t - 1) for d in range(SEATS + 1))
    total, e, pairs = _meetings_constant(inst)
    served = inst.players * rounds  # player-rounds: Σ of every player's games at each table
    e_table = inst.games / t
    constant = (total - 2 * e * total + pairs * e * e
                + served - 2 * e_table * served + inst.players * t * e_table ** 2)
    return constant + 2 * comb(rounds, 2) * t * row


def tables(inst: Instance, players_score: float) -> Floor:
    """The floor of the tables score: 0 where it can be perfect (or cannot be above 0), and
    for a seating that is not perfect, given its players score, ``max(B, J - players)``."""
    if not inst.tables_matter():
        return Floor(0.0)
    bar = _balanced(inst)
    both = joint(inst)
    if both is not None:
        bar = max(bar, both - players_score)
    return Floor(0.0, bar)
