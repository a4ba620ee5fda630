"""The game before this one at the table, read from its record, for what a book carries over
to the next game (``judge.game.Previous``: the Crow Club's side of the deal by called numbers,
who left early for its immunity). Pure: the panel hands it the last record it archived."""

from __future__ import annotations

from judge.game import Previous
from results.record import Record

#: the record line of a deal by called numbers (``judge.game.setup.deal``): its ``seat`` is the
#: first caller, seat 1 when it began from the first side
CALLED = "line.deal.called"


def previous(record: Record | None) -> Previous | None:
    """What ``record``'s game leaves the next one (``None``: no game before)."""
    if record is None:
        return None
    called = next((line.params.get("seat") for line in record.log if line.key == CALLED), None)
    first_day = next((d for d in record.days if d.number == 1), None)
    voted_out = next((tuple(v.eliminated) for v in (first_day.votes if first_day else [])
                      if v.eliminated), ())
    night_one = tuple(p.seat for p in record.players
                      if p.left is not None and p.left.how == "shot" and p.left.night == 1)
    night = next((n for n in record.nights if n.number == 1), None)
    kills = tuple((a.step, t) for a in (night.actions if night else [])
                  if a.outcome == "kill" for t in a.targets)
    return Previous(book=record.rules, names=tuple(p.name for p in record.players),
                    dealt_from="" if called is None else "first" if called == 1 else "last",
                    voted_out=voted_out, night_one=night_one, kills=kills)
