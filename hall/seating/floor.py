"""The least players score any seating of a tournament can have: the bar a seating is held to.

The pairs' meetings add up to ``45 x games in all`` whatever the seating, so the players score
(without kept-apart pairs: ``Σ (m - e)²``) only grows with ``Σ m²``. Two bounds hold for that:

- **even**: the meetings spread as evenly as integers can be (each pair ``⌊e⌋`` or ``⌈e⌉``); a
  seating at this bound is perfect (score 0);
- **rounds** (everyone playing every round): ``Σ m²`` counts, for every two rounds, the pairs
  that share a table in both, and two rounds' tables share at least ``Σ C(n, 2)`` pairs when the
  ten players of each table spread over the other round's tables as evenly as they can
  (``n = ⌊10 / tables⌋`` or one more). With few tables this is the larger bound, and then no
  seating is perfect: 30 players x 10 rounds cannot score below 400.34.
"""

from __future__ import annotations

from math import comb

from hall.seating.instance import Instance
from hall.seating.scores import SEATS


def players_floor(inst: Instance) -> float | None:
    """The floor of the platform's players score, or None when the instance keeps pairs apart
    (their weights change the sum)."""
    if inst.apart:
        return None
    pairs = inst.players * (inst.players - 1) // 2
    total = comb(SEATS, 2) * inst.players * inst.games // SEATS
    q, rem = divmod(total, pairs)
    even = rem * (q + 1) ** 2 + (pairs - rem) * q ** 2
    rounds = len(inst.round_tables())
    squares = even
    if inst.players == inst.tables * SEATS and rounds > 1:
        per, extra = divmod(SEATS, inst.tables)
        shared = inst.tables * (extra * comb(per + 1, 2) + (inst.tables - extra) * comb(per, 2))
        squares = max(even, total + rounds * (rounds - 1) * shared)
    if squares == even:
        return 0.0
    e = inst.games * 9 / (inst.players - 1)
    return squares - 2 * e * total + pairs * e * e
