"""The judge's part in every count (FIIM 4.4.6), whatever the book's vote procedure: the
table proposes each candidate's count, the judge confirms it, throws it away (counted again) or
corrects it, and the confirmed counts are kept with the vote."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from contract import events
from judge.game import table
from judge.game.state import Game, Refused, Result
from judge.game.votes import procedure


def decide(game: Game, verb: Literal["confirm", "reject", "correct"],
           voters: tuple[int, ...] = (), reason: str = "") -> Result:
    """FIIM 4.4.6: the judge announces the count: the table's proposal confirmed, thrown away
    (counted again) or corrected."""
    count = game.rules.cite("count")
    if game.vote is None or game.vote.proposed is None or not _voting(game):
        raise Refused(f"{count}: there is no proposed count to decide on")
    if verb == "correct":
        chosen = sorted(set(voters))
        bad = [v for v in chosen if v not in game.alive]
        if bad:
            raise Refused(f"{game.rules.cite('voters')}: seats {bad} do not vote (out of the "
                          "game)")
        voters, reason = tuple(chosen), reason or "judge's count"
    candidate = game.vote.proposed.candidate
    # the count is decided: a second tap (another tab's) finds nothing proposed
    return Result(replace(game, vote=replace(game.vote, proposed=None)),
                  [table.vote_decision(verb, voters, reason)],
                  [f"{count}: the judge {verb}s the count for {candidate}"])


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
        return Result(replace(game, vote=replace(vote, proposed=None, counts=counts)), [],
                      [f"{game.rules.cite('count')}: seat {event.candidate}: {event.count} "
                       "votes"])
    if isinstance(event, events.VoteRejected):
        return Result(replace(game, vote=replace(vote, proposed=None)), [], [])
    return None
