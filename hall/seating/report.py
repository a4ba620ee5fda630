"""The quality of a seating in words: the platform's three scores and what lies behind them.

Printed by ``mafia-table hall seating`` beside the CSV it writes: the scores (0 = perfect), how
often pairs meet, how often players take each seat number and sit at each table, and what the
seating gives up (and, where it is known, the least any seating could score).
"""

from __future__ import annotations

from collections import Counter

from hall.seating import floor
from hall.seating import plan as plan_module
from hall.seating.scores import SEATS, meetings, number_counts, table_counts


def _score(value: float) -> str:
    return "0 (perfect)" if value == 0 else f"{value:.2f}"


def _spread(values: list[int]) -> str:
    return f"{min(values)}" if min(values) == max(values) else f"{min(values)}-{max(values)}"


def describe(plan: plan_module.Plan, names: list[str]) -> list[str]:
    """The report's lines."""
    inst, layout = plan.instance, plan.layout
    defn = inst.definition()
    rounds = len(layout)
    lines = [
        f"seating: {inst.players} players, {inst.games} games each, {inst.tables} tables, "
        f"{rounds} rounds (seed {plan.seed}, {plan.work.seconds:g} s of work: {plan.start} "
        f"start, {plan.progress.steps} search steps)",
        f"scores as the platform computes them (0 = perfect): players "
        f"{_score(plan.scores.players)}, numbers {_score(plan.scores.numbers)}, tables "
        f"{_score(plan.scores.tables)}; sum {plan.scores.total:.2f}",
    ]
    m = meetings(defn, layout)
    expected = inst.games * 9 / (inst.players - 1)
    free = [m[a][b] for a in range(inst.players) for b in range(a + 1, inst.players)
            if (a, b) not in inst.apart]
    spread = Counter(free)
    lines.append(f"meetings of a pair: expected {expected:.2f}, min {min(free)}, max {max(free)}"
                 f"; pairs meeting " + ", ".join(f"{k}x {spread[k]}" for k in sorted(spread)))
    if inst.apart:
        lines.append(f"kept apart: {len(inst.apart)} pairs, never at one table")
    numbers = number_counts(defn, layout)
    lines.append(f"seat numbers (games a player takes each, min-max; expected "
                 f"{inst.games / SEATS:g}): " + ", ".join(
                     f"{s + 1}: {_spread([row[s] for row in numbers])}" for s in range(SEATS)))
    if inst.tables >= 3:
        at = table_counts(defn, layout)
        lines.append(f"tables (games a player plays at each, min-max; expected "
                     f"{inst.games / inst.tables:.2f}): " + ", ".join(
                         f"{plan_module.table_id(t)}: {_spread([row[t] for row in at])}"
                         for t in range(inst.tables)))
    lines.extend(_given_up(plan, names, m, expected))
    return lines


def _given_up(plan: plan_module.Plan, names: list[str], m: list[list[int]],
              expected: float) -> list[str]:
    inst, scores = plan.instance, plan.scores
    out = []
    if scores.players:
        off = sum(1 for a in range(inst.players) for b in range(a + 1, inst.players)
                  if (a, b) not in inst.apart and abs(m[a][b] - expected) >= 1)
        least = floor.players_floor(inst)
        bar = (f"; no seating of these numbers scores below {least:.2f}" if least else
               "; whether a perfect one exists is not known" if least == 0 else "")
        out.append(f"given up: players: {off} pairs meet a game or more off the expected"
                   f" {expected:.2f}{bar}")
    if scores.numbers:
        out.append("given up: numbers: some players take a seat number (or a pair or half "
                   "of them) a game or more off the expected")
    if scores.tables:
        at = table_counts(inst.definition(), plan.layout)
        short = sum(1 for row in at if any(inst.games / inst.tables - c >= 1 for c in row))
        least_tables = floor.tables(inst, scores.players).imperfect
        out.append(f"given up: tables: {short} players are a game or more short of the "
                   f"expected {inst.games / inst.tables:.2f} at some table"
                   + (f"; with this players score no seating scores below {least_tables:.2f}"
                      if least_tables else ""))
    for a, b in sorted(inst.avoid):
        out.append(f"avoid: {names[a]} and {names[b]} meet {m[a][b]} times (expected "
                   f"{expected:.2f})")
    if not out:
        out.append("given up: nothing: every score is perfect")
    return out
