"""A check: the actor picks a seat and is answered yes or no on their private indicator alone
(FIIM 4.5.6: "is it the Sheriff?", 4.5.7: "is it black?"; the clubs' sheriff, chief, commissar).

The answer is a table in the step's ``options``: ``yes`` when the seat's card is one of
``yes.roles`` or its side one of ``yes.teams`` (so the Crow Club's maniac, of his own side,
answers red to "black?", and the classic club's joker, not of the family's roles, answers "not
mafia"). ``says`` are the answers' words for the record and the stream overlay. The first
standing pick is the check (one a night: FIIM 4.5.8); every actor of the step sees the answer.
"""

from __future__ import annotations

import msgspec

from judge.game.book import Book, Name, Step
from judge.game.mechanisms.base import Acted, Mechanism
from judge.game.state import Act, Game, Picks
from judge.game.table import NO, YES, reveal


class Answers(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    roles: tuple[Name, ...] = ()
    teams: tuple[Name, ...] = ()


class Words(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    yes: str = "yes"
    no: str = "no"


class CheckOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    yes: Answers
    says: Words = Words()


class Check(Mechanism):
    name = "check"
    Options = CheckOptions

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        standing = picks.standing()
        checker = next(iter(standing), None)
        if checker is None or not standing[checker]:
            return Acted(None, lines=(f"{step.rule}: no check tonight",))
        seat = standing[checker][0]
        answer = self.answer(game, step, seat)
        woke = [p.actor for p in picks.picks] + list(picks.missing)
        told = [checker, *(a for a in woke if a != checker)]
        return Acted(Act(game.night, step.name, self.name, (checker,), (seat,),
                         "yes" if answer else "no"),
                     commands=tuple(reveal(s, YES if answer else NO) for s in told),
                     lines=(f"{step.rule}: {step.words} of seat {seat}: "
                            f"{'yes' if answer else 'no'}",))

    def check(self, book: Book, step: Step) -> list[str]:
        options: CheckOptions = step.options
        return [*(f"options.yes.roles: no role {r!r}" for r in options.yes.roles
                  if r not in book.roles),
                *(f"options.yes.teams: no team {t!r}" for t in options.yes.teams
                  if t not in book.teams)]

    def answer(self, game: Game, step: Step, seat: int) -> bool:
        """The check's answer for ``seat``: its card or its side in the ``yes`` table."""
        options: CheckOptions = step.options
        return game.player(seat).role in options.yes.roles \
            or game.team(seat) in options.yes.teams

    def says(self, step: Step, yes: bool) -> str:
        options: CheckOptions = step.options
        return options.says.yes if yes else options.says.no

    def describe(self, act: Act) -> str:
        return f"{act.step} {act.targets[0]}: {act.outcome}"


MECHANISM = Check()
