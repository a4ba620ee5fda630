"""The judge's part in every count (FIIM 4.4.6), whatever the book's vote procedure: the
table proposes each candidate's count, the judge confirms it, throws it away (counted again) or
corrects it, and the confirmed counts are kept with the vote. A procedure that counts a vote
its book's way (``Procedure.counted``: the classic club's detective votes as the chief) turns
the judge's confirm into a correction with the voters the book counts, and says why; the same
hook gives the record line of each confirmed count (the online book's verdict "for")."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from contract import events
from judge.game import table
from judge.game.state import Game, Refused, Result
from judge.game.votes import procedure
from kit.i18n import Line, Words, cited

#: the reasons the table keeps for a count the judge corrected without one, and for one the book
#: counted without a citation (the sheet gives them back in its reader's words)
JUDGES_COUNT, BOOKS_COUNT = "judge's count", "the book's count"


def decide(game: Game, verb: Literal["confirm", "reject", "correct"],
           voters: tuple[int, ...] = (), reason: str = "") -> Result:
    """FIIM 4.4.6: the judge announces the count: the table's proposal confirmed, thrown away
    (counted again) or corrected."""
    count = game.rules.cite("count")
    if game.vote is None or game.vote.proposed is None or not _voting(game):
        raise Refused(Line(count, "refused.count.none"))
    if verb == "correct":
        chosen = sorted(set(voters))
        bad = [v for v in chosen if v not in game.alive]
        if bad:
            raise Refused(Line(game.rules.cite("voters"), "refused.count.out", seats=bad,
                               count=len(bad)))
        voters, reason = tuple(chosen), reason or JUDGES_COUNT
    candidate = game.vote.proposed.candidate
    lines = [decided(game, verb, candidate)]
    if verb == "confirm":
        booked = procedure(game).counted(game, game.vote.proposed)
        if booked.voters is not None and booked.why is not None:
            # the book counts these: the table is told as a correction
            voters, verb = booked.voters, "correct"
            reason = cited(booked.why.cite, "en") if booked.why.cite else BOOKS_COUNT
            lines = [decided(game, verb, candidate), booked.why]
    # the count is decided: a second tap (another tab's) finds nothing proposed
    return Result(replace(game, vote=replace(game.vote, proposed=None)),
                  [table.vote_decision(verb, voters, reason)], lines)


_DECIDED = {"confirm": "line.count.confirm", "reject": "line.count.reject",
            "correct": "line.count.correct"}
#: the same for candidate 0, named by the vote's kind in its procedure's words
_DECIDED_ASKED = {"confirm": "line.count.confirm.asked", "reject": "line.count.reject.asked",
                  "correct": "line.count.correct.asked"}


def decided(game: Game, verb: str, candidate: int) -> Line:
    """The record line of the judge's decision on a count: a seat's, or candidate 0's in the
    procedure's words for the vote's kind ("the yes votes on «all leave?»", 4.4.12.3; there is
    no seat 0)."""
    count = game.rules.cite("count")
    asked = procedure(game).asked
    kind = "" if game.vote is None else game.vote.kind
    if candidate == 0 and kind in asked:
        return Line(count, _DECIDED_ASKED[verb], asked=Words(asked[kind]))
    return Line(count, _DECIDED[verb], seat=candidate)


def _voting(game: Game) -> bool:
    return game.stage in procedure(game).stages


def on_count(game: Game, event: events.Event) -> Result | None:
    """The table's counts of the running vote: proposed, confirmed, rejected."""
    vote = game.vote
    if vote is None:
        return None
    if isinstance(event, events.VoteProposed):
        return Result(replace(game, vote=replace(vote, proposed=event)), [], [])
    if isinstance(event, events.VoteConfirmed):
        counts = (*vote.counts, (event.candidate, event.count))
        counted = (*vote.counted, *event.voters, *event.leftover)
        return Result(replace(game, vote=replace(vote, proposed=None, counts=counts,
                                                 counted=counted)), [],
                      [procedure(game).counted(game, event).line])
    if isinstance(event, events.VoteRejected):
        return Result(replace(game, vote=replace(vote, proposed=None)), [], [])
    return None
