"""The Crow Club's vote («Голосование», «Вилка или автокатастрофа», «Топ и вилка»): the day's
nominees in nomination order; the table counts (no abstaining: "последние голоса идут в
последнего выставленного", its preset's ``leftover``) and names a fork, every nominee within
``fork_gap`` (2) of the leader, in the day's first vote only (the preset's rule, read there).

- No nominee: no vote, night. One on day 1: no vote (the preset's ``single_nominee_first_day``,
  FIIM 4.4.10's reading); on a later day he is voted, and every vote ends on him.
- The first vote: the most votes leaves. A fork ("с разницей в 2 голоса (5 и 5, 3 и 5)"):
  - **top** ("Топ происходит в том случае когда 2 игрока набирают равное количество голосов, а
    третий на 1-2 голоса больше"): one leader and two or more level below him. The level ones
    speak (30 s each, «вилка»), the city votes among them and the most go up ("кто из них
    пойдет на голосование к тому игроку"; level again: all of them, "в топ выводится 3
    игрока"); then the final fork: the leader and those who went up speak and are voted again;
  - otherwise a **fork** of all of them: 30 s each, then a re-vote among them, where "даже
    если разница в один голос … покинет стол тот игрок, у кого голосов больше".
- A re-vote (the fork's, the final) level at the top: "вопрос о поднятии двух игроков … или о
  том чтобы оставить их играть дальше": the table asks whether they all leave (more than half
  of the players in the game, FIIM 4.4.12.3's reading), else all stay; night falls.
- The «угадайка» (the book's endgame that plays a day instead of the night, three left): no
  nominations needed, every player in the game is a candidate, the most votes leaves; level
  (1-1-1): they speak 30 s each and are voted again, until one has the most; never the
  question ("1х1").

Every leaver has his testament (``leaving``). The running part is the vote's ``kind``
(``nominees``, ``fork``, ``top``, ``final``, ``guess``, ``question``); the top's leader is kept
in the game's notes while the level ones are voted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from contract import events
from judge.game import table
from judge.game.end import at_nightfall
from judge.game.leaving import last_words
from judge.game.state import Game, Go, Result, Vote, with_note
from judge.game.votes.base import Procedure, ended
from kit.i18n import Line

#: the top's leader, while the level ones below him are voted
TOP = "fork_top.top"


class ForkTop(Procedure):
    name = "fork_top"
    titles: ClassVar[dict[str, str]] = {"fork": "sheet.vote.fork", "top": "sheet.vote.top",
                                        "final": "sheet.vote.final", "guess": "sheet.vote.guess"}
    cites = ("no_nominees", "one_nominee", "vote", "most_votes", "fork", "top", "revote",
             "question")
    timings: ClassVar[dict[str, str]] = {
        "defence": "each speech of the fork, the top and the final fork before their vote"}

    def start(self, game: Game) -> Result:
        cite = game.rules.cite
        guess = _guess(game)
        if guess is not None:
            return self._vote(game, Vote("guess", game.alive), 2,
                              Line(guess, "line.vote.guess", seats=list(game.alive)))
        candidates = tuple(c for c in game.nominees if c in game.alive)
        if not candidates:
            return _nobody(game)
        if game.day == 1 and len(candidates) == 1 \
                and game.rules.preset.vote.single_nominee_first_day == "no_vote":
            return Result(replace(game, vote=None), [], [], Go(
                "nightfall", Line(cite("one_nominee"), "line.vote.one", seat=candidates[0])))
        return self._vote(game, Vote("nominees", candidates), 1,
                          Line(cite("vote"), "line.vote", seats=list(candidates)))

    def revote(self, game: Game) -> Result:
        """The defence speeches are over: the fork's, the top's or the final re-vote."""
        assert game.vote is not None  # a defence is for a vote's candidates
        vote = replace(game.vote, candidates=tuple(c for c in game.vote.candidates
                                                   if c in game.alive), counts=())
        if not vote.candidates:  # every one of them left during the speeches (fouls)
            return _nobody(game)
        return self._vote(game, vote, 2, Line(game.rules.cite("revote"), "line.vote.revote",
                                              seats=list(vote.candidates)))

    def _vote(self, game: Game, vote: Vote, round: int, said: Line) -> Result:
        return Result(replace(game, stage="vote", vote=vote),
                      [table.vote_start(vote.candidates, game.voters, game.table_day,
                                        round=round)], [said])

    def on_result(self, game: Game, result: events.VoteResult) -> Result:
        cite = game.rules.cite
        assert game.vote is not None  # the result of the vote the game runs
        kind, candidates = game.vote.kind, game.vote.candidates
        game = replace(game, vote=replace(game.vote, proposed=None))
        outcome = result.outcome
        tied = tuple(s for s in result.tied if s in game.alive)
        if outcome == "eliminated" and result.eliminated in game.alive:
            seat = result.eliminated
            if kind == "top":  # the city chose who goes up to the leader
                return self._final(game, (seat,))
            return last_words(game, (seat,), Line(cite("most_votes"), "line.vote.out",
                                                  seat=seat), "night")
        if outcome in ("fork", "tie") and tied:
            if kind == "nominees":
                return self._fork(game, tied, {c.candidate: c.count for c in result.counts})
            if kind == "top":  # level again: all of them go up
                return self._final(game, tied)
            if kind == "guess":
                return _defence(game, Vote("guess", tied),
                                Line(_guess(game) or cite("tie"), "line.vote.guess.tie",
                                     seats=list(tied), seconds=game.timings.defence))
            return Result(replace(game, stage="question", vote=Vote("question", tied)),
                          [table.vote_question(tied, game.voters)],
                          [Line(cite("question"), "line.vote.question", seats=list(tied))])
        if outcome == "yes":
            leave = tuple(s for s in candidates if s in game.alive)
            return last_words(game, leave, Line(cite("question"), "line.vote.all_leave"),
                              "night")
        if outcome == "no":
            return _night(game, Line(cite("question"), "line.vote.all_stay"))
        if outcome == "no_vote":
            return _night(game, Line(cite("one_nominee"), "line.vote.no_vote"))
        return _night(game, ended(outcome))

    def _fork(self, game: Game, tied: tuple[int, ...], counts: dict[int, int]) -> Result:
        """The first vote's fork: a top when one leads and the rest are level below him."""
        cite = game.rules.cite
        most = max(counts.get(s, 0) for s in tied)
        leaders = [s for s in tied if counts.get(s, 0) == most]
        below = tuple(s for s in tied if s not in leaders)
        if len(leaders) == 1 and len(below) >= 2 and len({counts.get(s) for s in below}) == 1:
            return _defence(with_note(game, TOP, (leaders[0],)), Vote("top", below),
                            Line(cite("top"), "line.vote.top", seat=leaders[0],
                                 seats=list(below), seconds=game.timings.defence))
        return _defence(game, Vote("fork", tied),
                        Line(cite("fork"), "line.vote.fork", seats=list(tied),
                             seconds=game.timings.defence))

    def _final(self, game: Game, up: tuple[int, ...]) -> Result:
        """The top's last fork: the leader and those who went up to him."""
        final = tuple(s for s in game.nominees if s in (*game.note(TOP), *up) and s in game.alive)
        return _defence(with_note(game, TOP, ()), Vote("final", final),
                        Line(game.rules.cite("top"), "line.vote.final", seats=list(up),
                             final=list(final), seconds=game.timings.defence))


def _defence(game: Game, vote: Vote, said: Line) -> Result:
    """The candidates of ``vote`` speak in turn (the defence's seconds each), then it runs."""
    return Result(replace(game, stage="defence", speakers=vote.candidates, floor=None,
                          vote=vote), [], [said])


def _night(game: Game, why: Line) -> Result:
    return Result(game, [], [], Go("nightfall", why))


def _guess(game: Game) -> str | Mapping[str, str] | None:
    """The rule of the day the book plays instead of a night (the «угадайка»), when today is
    that day; else ``None``."""
    ending = at_nightfall(game)
    return ending[1].line.cite if ending is not None and not ending[1].wins else None


def _nobody(game: Game) -> Result:
    """No candidate in the game: nobody leaves, night falls."""
    return _night(replace(game, vote=None), Line(game.rules.cite("no_nominees"),
                                                 "line.vote.nobody"))


PROCEDURE = ForkTop()
