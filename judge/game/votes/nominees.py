"""FIIM's vote (4.4): the day's nominees in nomination order; the most votes leaves; a tie
speaks (30 s each) and is voted again; the same set tied again is asked whether all of them
leave.

- 4.4.1: only today's nominees are voted; none: no vote, night falls.
- 4.4.10: one nominee on day 1 is no vote, when the table preset says so
  (``single_nominee_first_day = "no_vote"``: the table's rule, read from its preset).
- 4.4.11: most votes leaves (the table's plurality; ties go to 4.4.12).
- 4.4.12-4.4.12.2: a tie: each tied nominee speaks, then a re-vote among them; a tie among
  fewer is voted again the same way.
- 4.4.12.3: the same seats tied again: "shall they all leave?" (the table's question: more
  than half of the voters for it is yes, the preset's ``question_tie`` decides an even split).
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from contract import events
from judge.game import table
from judge.game.leaving import last_words
from judge.game.state import Game, Go, Result, Vote
from judge.game.votes.base import Procedure, ended
from kit.i18n import Line


class Nominees(Procedure):
    name = "nominees"
    cites = ("no_nominees", "one_nominee", "vote", "most_votes", "tie", "revote", "question")
    timings: ClassVar[dict[str, str]] = {"defence": "each tied nominee's speech before the re-vote"}

    def start(self, game: Game) -> Result:
        return self._vote(game, game.nominees, first=True)

    def revote(self, game: Game) -> Result:
        return self._vote(game, game.vote.candidates if game.vote else (), first=False)

    def _vote(self, game: Game, candidates: tuple[int, ...], first: bool) -> Result:
        """4.4.1: only today's nominees are voted, in nomination order (4.4.4)."""
        cite = game.rules.cite
        candidates = tuple(c for c in candidates if c in game.alive)
        if not candidates:
            return Result(replace(game, vote=None), [], [],
                          Go("nightfall", Line(cite("no_nominees"), "line.vote.nobody")))
        if first and game.day == 1 and len(candidates) == 1 \
                and game.rules.preset.vote.single_nominee_first_day == "no_vote":
            return Result(replace(game, vote=None), [], [], Go(
                "nightfall", Line(cite("one_nominee"), "line.vote.one", seat=candidates[0])))
        return Result(replace(game, stage="vote", vote=Vote("nominees", candidates)),
                      [table.vote_start(candidates, game.voters, game.table_day)],
                      [Line(cite("vote"), "line.vote", seats=list(candidates))])

    def on_result(self, game: Game, result: events.VoteResult) -> Result:
        cite = game.rules.cite
        outcome = result.outcome
        game = replace(game, vote=replace(game.vote, proposed=None) if game.vote else None)
        if outcome == "eliminated" and result.eliminated in game.alive:
            seat = result.eliminated
            return last_words(game, (seat,), Line(cite("most_votes"), "line.vote.out", seat=seat),
                              "night")
        if outcome == "tie":
            tied = tuple(s for s in result.tied if s in game.alive)
            if tied and set(tied) == set(game.previous_tie):
                return Result(replace(game, stage="question", vote=Vote("question", tied)),
                              [table.vote_question(tied, game.voters)],
                              [Line(cite("question"), "line.vote.question", seats=list(tied))])
            return Result(replace(game, stage="defence", speakers=tied, floor=None,
                                  previous_tie=tied, vote=Vote("nominees", tied)), [],
                          [Line(cite("tie"), "line.vote.tie", seats=list(tied),
                                seconds=game.timings.defence, revote=cite("revote"))])
        if outcome == "yes":
            tied = tuple(s for s in game.vote.candidates if s in game.alive) \
                if game.vote else ()
            return last_words(game, tied, Line(cite("question"), "line.vote.all_leave"),
                              "night")
        if outcome == "no":
            return self._night(game, Line(cite("question"), "line.vote.all_stay"))
        if outcome == "no_vote":
            return self._night(game, Line(cite("one_nominee"), "line.vote.no_vote"))
        return self._night(game, ended(outcome))

    def _night(self, game: Game, why: Line) -> Result:
        return Result(game, [], [], Go("nightfall", why))


PROCEDURE = Nominees()
