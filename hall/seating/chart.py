"""The tournament's seating: a CSV of ``round,table,seat,player`` lines, checked whole.

Sent to each table as ``mafia/<table>/seating`` (retained): ``{"v": 1, "round": 2,
"seats": [{"seat": 1, "player": "Anna"}, ...]}`` (and a tournament's ``"tournament"`` id), which
the judge's panel reads to fill in names (``results.feed.SeatingMessage``).
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from kit.i18n import Words

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
HEADER = ["round", "table", "seat", "player"]


class SeatingError(ValueError):
    """A seating file with mistakes; ``problems`` names each by its line, as words in no
    language yet (the board renders them in its reader's, docs/i18n.md; ``str()`` is the
    English)."""

    def __init__(self, problems: list[Words]):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


Seating = dict[int, dict[str, dict[int, str]]]  # round -> table -> seat -> player


def parse(text: str, *, seats: int = 24) -> Seating:
    """Read a seating CSV (a header line ``round,table,seat,player`` is optional). Every
    mistake is collected; any mistake refuses the whole file, so a half-read seating is never
    sent."""
    seating: Seating = {}
    problems: list[Words] = []
    for number, line in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in line]
        if not any(cells) or (number == 1 and [c.lower() for c in cells] == HEADER):
            continue
        if len(cells) != 4:
            problems.append(Words("seating.refused.fields", line=number, found=len(cells)))
            continue
        round_, table, seat, player = cells
        if not round_.isdigit() or not 1 <= int(round_) <= 999:
            problems.append(Words("seating.refused.round", line=number, round=round_))
        elif not TABLE_ID.match(table):
            problems.append(Words("seating.refused.table", line=number, table=table))
        elif not seat.isdigit() or not 1 <= int(seat) <= seats:
            problems.append(Words("seating.refused.seat", line=number, seat=seat, most=seats))
        elif not player or len(player) > 64:
            problems.append(Words("seating.refused.name", line=number))
        else:
            at = seating.setdefault(int(round_), {}).setdefault(table, {})
            if int(seat) in at:
                problems.append(Words("seating.refused.twice", line=number, round=int(round_),
                                      table=table, seat=int(seat), first=at[int(seat)],
                                      then=player))
            at[int(seat)] = player
    for round_no, tables in seating.items():
        players: dict[str, tuple[str, int]] = {}
        for table, seats_ in tables.items():
            for seat_, player in seats_.items():
                if player in players:
                    first_table, first_seat = players[player]
                    problems.append(Words("seating.refused.player_twice", round=round_no,
                                          player=player, table=first_table, seat=first_seat,
                                          then_table=table, then_seat=seat_))
                players[player] = (table, seat_)
    if problems:
        raise SeatingError(problems)
    if not seating:
        raise SeatingError([Words("seating.refused.empty")])
    return seating


def render(seating: Seating) -> str:
    """The CSV of a seating, header first, in the seating's order: what :func:`parse` reads
    back to the same seating."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for round_, tables in seating.items():
        for table, seats in tables.items():
            for seat, player in seats.items():
                writer.writerow([round_, table, seat, player])
    return out.getvalue()


def messages(seating: Seating, round_: int,
             tournament: str | None = None) -> dict[str, dict[str, Any]]:
    """The ``seating`` documents of ``round_``, by table (``results.feed.SeatingMessage``);
    a tournament's carry its id, which comes back with each game its seating named."""
    if round_ not in seating:
        raise SeatingError([Words("seating.refused.no_round", round=round_,
                                  rounds=sorted(seating))])
    of = {} if tournament is None else {"tournament": tournament}
    return {table: {"v": 1, "round": round_,
                    "seats": [{"seat": s, "player": p} for s, p in sorted(seats.items())],
                    **of}
            for table, seats in seating[round_].items()}
