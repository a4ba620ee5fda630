"""A tournament's games played as the tables would send them: the scripted FIIM game with its
players named by a round's seating (hall/tournament.py's tests)."""

from __future__ import annotations

import msgspec

from hall import tournament as tm
from hall.store import Held
from results import feed
from tests.support.record_game import built, whole_game


def played(tournament: tm.Tournament, number: int, table: str, *, revision: int = 1,
           of: str | None = None, finished: bool = True) -> Held:
    """The scripted game (red wins, seat 7 shot on night 1, best move 1 2 3) played at
    ``table`` in round ``number``, its players named by the round's seating."""
    inputs = whole_game().inputs if finished else whole_game().inputs[:-1]
    base = built(inputs)
    seats = tournament.round(number).seating[table]  # type: ignore[union-attr]
    record = msgspec.structs.replace(
        base, table=table, id=f"{table}-r{number}",
        players=[msgspec.structs.replace(p, name=seats[p.seat]) for p in base.players])
    message = feed.message(table, record.id, revision, 1.0, record,
                           tournament=tournament.id if of is None else of, round=number)
    return Held(*feed.decode(feed.topic(table, record.id), feed.encode(message)), 1.0)


def every_game(tournament: tm.Tournament, stage: str = "main") -> list[Held]:
    return [played(tournament, r.number, t) for r in tournament.stage(stage)
            for t in sorted(r.seating)]
