"""The online book's day vote, «Дневное голосование…»: the first vote ("…мы посадим сегодня?"),
the accused's last word and the verdict for or against him, or, on a tie, the second round with
«против всех».

1. **The first vote** (``cite.vote``): "Каждый игрок выдвигает одну кандидатуру (можно
   воздержаться, … проголосовать за ночь)". There are no nominations: every player in the
   game is a candidate, in seat order, and each voter (the frozen do not vote) raises a hand
   for one of them or for none, a vote for night. The table counts it by its preset
   (``leftover = "abstain"``, ``abstain_wins``): more votes for night than for every candidate
   is outcome ``night``: "Если большинство голосов отдано за ночь, наступает ночь".
2. **The accused** (``cite.accused``): one candidate with the most votes "отправляется на
   скамью подсудимых. Ему предоставляется последнее слово" (the ``defence`` timing; a frozen
   accused has none), "после чего проходит второе голосование": **the verdict**
   (``cite.verdict``), for or against jailing him, the table's yes/no question: a hand raised
   is for, none against ("ПРОТИВ"), so more than half of the voters for jails him (the
   preset's ``question_tie``: an even split does not); otherwise nobody, and night.
3. **The second round** (``cite.second_round``): two or more level at the most each have a last
   word, then "на голосование выносятся все кандидатуры, победившие в первом туре, …
   виртуальный кандидат «против всех»" (``against_all``: candidate 0, voted last). "Набравший
   большинство голосов сажается в тюрьму" at once; a tie again, «против всех» with the most,
   or more votes for night than for any of them ("не могут договориться"): nobody, night.
4. **One on one** (``options.one_on_one``, ``cite.deciding``): when the day's speeches end
   with exactly one player of each of its ``teams`` left, "правом решающего голоса обладает
   последний убитый честный житель": the last player of the ``decider`` side killed at night
   (none killed: the last of that side out) names one of the two, the judge enters it
   (``choose``), and that player is jailed. The two would only split 1-1.

The jailed leave as the book's ``[leaving]`` says (the online book: card shown, no last words);
the wins are checked as they leave. The procedure's own votes are ``Vote.kind`` ``accuse``,
``verdict`` and ``second_round`` (the record keeps each as a round of the day); the accused
and the level candidates speak in stage ``defence`` (``Vote.kind`` ``accused``, ``tied``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

import msgspec

from contract import events
from judge.game import table
from judge.game.actions import Offer, Param, Seat, decision
from judge.game.book import Book, Name
from judge.game.leaving import last_words
from judge.game.state import Game, Go, Refused, Result, Vote, with_note
from judge.game.votes.base import Counted, Procedure, ended
from kit.i18n import Line, Words

#: the note that holds the deciding voter while the deciding vote waits for the judge
DECIDER = "accuse.decider"


class OneOnOne(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """«Если в конце игры…»: "один маф и один честный" are ``teams``; the deciding vote is the
    last player of ``decider`` killed."""

    teams: tuple[Name, Name]
    decider: Name


class AccuseOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    one_on_one: OneOnOne | None = None


class Accuse(Procedure):
    name = "accuse"
    Options = AccuseOptions
    titles: ClassVar[dict[str, str]] = {"verdict": "sheet.vote.verdict",
                                        "second_round": "sheet.vote.second_round"}
    results: ClassVar[dict[str, dict[str, str]]] = {
        "accuse": {"eliminated": "sheet.outcome.accused"},
        "verdict": {"yes": "sheet.outcome.jailed", "no": "sheet.outcome.acquitted"}}
    asked: ClassVar[dict[str, str]] = {"verdict": "words.asked.verdict",
                                       "second_round": "words.asked.against_all"}
    cites = ("vote", "accused", "verdict", "second_round", "deciding")
    #: the deciding voter's choice at one on one, as the judge enters it
    decisions: ClassVar[dict[str, Any]] = {"deciding_vote": Seat}
    timings: ClassVar[dict[str, str]] = {
        "defence": "the accused's last word before the verdict, and each level candidate's "
                   "before the second round"}

    def check(self, book: Book, options: Any) -> list[str]:
        pair: OneOnOne | None = options.one_on_one
        if pair is None:
            return []
        return [f"options.one_on_one: no team {t!r}" for t in (*pair.teams, pair.decider)
                if t not in book.teams]

    # ------------------------------------------------------------------ the day's votes

    def start(self, game: Game) -> Result:
        """The speeches are over: the deciding vote at one on one, else the first vote."""
        cite = game.rules.cite
        decider = deciding_voter(game)
        if decider is not None:
            killed = game.player(decider).left == "shot"
            return Result(with_note(replace(game, stage="vote", vote=None), DECIDER, (decider,)),
                          [], [Line(cite("deciding"), "line.accuse.deciding" if killed
                                    else "line.accuse.deciding.out", voter=decider,
                                    seats=list(game.alive))])
        candidates = game.alive
        return Result(replace(game, stage="vote", vote=Vote("accuse", candidates)),
                      [table.vote_start(candidates, game.voters, game.table_day)],
                      [Line(cite("vote"), "line.accuse.vote", seats=list(candidates))])

    def revote(self, game: Game) -> Result:
        """The last words are over: the accused's verdict, or the level candidates' second
        round."""
        cite = game.rules.cite
        vote = game.vote
        candidates = tuple(s for s in vote.candidates if s in game.alive) if vote else ()
        if not candidates:  # out during their last word (a heart attack)
            return _night(replace(game, vote=None), Line(cite("vote"), "line.accuse.nobody"))
        if vote is not None and vote.kind == "accused":
            (seat,) = candidates
            return Result(replace(game, stage="question", vote=Vote("verdict", candidates)),
                          [table.vote_question(candidates, game.voters)],
                          [Line(cite("verdict"), "line.accuse.verdict", seat=seat)])
        return Result(replace(game, stage="vote", vote=Vote("second_round", candidates)),
                      [table.vote_start(candidates, game.voters, game.table_day,
                                        against_all=True, round=2)],
                      [Line(cite("second_round"), "line.accuse.second_round",
                            seats=list(candidates))])

    def on_result(self, game: Game, result: events.VoteResult) -> Result:
        vote = game.vote
        if vote is None:  # no vote of ours runs (the deciding vote is the judge's)
            return Result(game, [], [])
        game = replace(game, vote=replace(vote, proposed=None))
        if vote.kind == "accuse":
            return self._first(game, result)
        if vote.kind == "verdict":
            return self._verdict(game, vote.candidates[0], result)
        return self._second(game, result)

    def _first(self, game: Game, result: events.VoteResult) -> Result:
        cite = game.rules.cite
        if result.outcome == "eliminated" and result.eliminated in game.alive:
            seat = result.eliminated
            return _speak(game, Vote("accused", (seat,)), Line(
                cite("accused"), "line.accuse.accused", seat=seat,
                seconds=game.timings.defence))
        tied = tuple(s for s in result.tied if s in game.alive)
        if result.outcome == "tie" and tied:
            return _speak(game, Vote("tied", tied), Line(
                cite("second_round"), "line.accuse.tie", seats=list(tied),
                seconds=game.timings.defence))
        if result.outcome == "night":
            return _night(game, Line(cite("vote"), "line.accuse.night"))
        return _night(game, ended(result.outcome))

    def _verdict(self, game: Game, seat: int, result: events.VoteResult) -> Result:
        cite = game.rules.cite
        if result.outcome == "yes" and seat in game.alive:
            return last_words(game, (seat,), Line(cite("verdict"), "line.accuse.jailed",
                                                  seat=seat), "night")
        return _night(game, Line(cite("verdict"), "line.accuse.acquitted", seat=seat))

    def _second(self, game: Game, result: events.VoteResult) -> Result:
        cite = game.rules.cite
        if result.outcome == "eliminated" and result.eliminated in game.alive:
            seat = result.eliminated
            return last_words(game, (seat,), Line(cite("second_round"),
                                                  "line.accuse.second_round.jailed",
                                                  seat=seat), "night")
        why = {"tie": "line.accuse.second_round.tie",
               "against_all": "line.accuse.second_round.against_all",
               "night": "line.accuse.second_round.night"}.get(result.outcome)
        if why is None:
            return _night(game, ended(result.outcome))
        return _night(game, Line(cite("second_round"), why))

    def counted(self, game: Game, count: events.VoteProposed | events.VoteConfirmed
                ) -> Counted:
        """Candidate 0 is the verdict's "for", or the second round's «против всех»."""
        if count.candidate:
            return super().counted(game, count)
        cite = game.rules.cite
        if game.vote is not None and game.vote.kind == "verdict":
            return Counted(Line(cite("verdict"), "line.accuse.votes.for", count=count.count))
        return Counted(Line(cite("second_round"), "line.accuse.votes.against_all",
                            count=count.count))

    # ------------------------------------------------------------------ the deciding vote

    def offers(self, game: Game) -> list[Offer]:
        decider = _deciding(game)
        if decider is None:
            return []
        return [decision("deciding_vote", "vote", key="deciding-vote",
                         label=Words("offer.accuse.deciding", seat=decider), primary=True,
                         group="vote", params=[Param(name="value", kind="seat",
                                                     seats=list(game.alive))])]

    def choose(self, game: Game, value: Any) -> Result:
        """The deciding voter's choice, as the judge enters it: one of the two is jailed."""
        decider = _deciding(game)
        if decider is None:
            return super().choose(game, value)
        cite = game.rules.cite("deciding")
        if isinstance(value, bool) or value not in game.alive:
            raise Refused(Line(cite, "refused.accuse.deciding", seats=list(game.alive)))
        game = with_note(game, DECIDER, ())
        return last_words(game, (value,), Line(cite, "line.accuse.decided", voter=decider,
                                               seat=value), "night")


def deciding_voter(game: Game) -> int | None:
    """«Если в конце игры…»: with one player of each of the one-on-one ``teams`` left, "последний
    убитый честный житель": the last of the ``decider`` side killed at night, else the last of
    it out in any way; ``None`` when it is not one on one (or the book has no such vote)."""
    options: AccuseOptions = game.book.vote.options
    pair = options.one_on_one
    if pair is None or sorted(game.team(s) for s in game.alive) != sorted(pair.teams):
        return None
    out = [s for s in game.departed if game.team(s) == pair.decider]
    killed = [s for s in out if game.player(s).left == "shot"]
    chosen = killed or out
    return chosen[-1] if chosen else None


def _deciding(game: Game) -> int | None:
    """The deciding voter whose vote the judge is to enter now, if any."""
    noted = game.note(DECIDER)
    return noted[0] if noted and game.stage == "vote" and game.vote is None else None


def _speak(game: Game, vote: Vote, why: Line) -> Result:
    """The accused, or the level candidates, have their last word before the next vote."""
    return Result(replace(game, stage="defence", speakers=vote.candidates, floor=None,
                          vote=vote), [], [why])


def _night(game: Game, why: Line) -> Result:
    return Result(game, [], [], Go("nightfall", why))


PROCEDURE = Accuse()
