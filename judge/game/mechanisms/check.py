"""A check: the actor picks a seat and is answered yes or no on their private indicator alone
(FIIM 4.5.6: "is it the Sheriff?", 4.5.7: "is it black?"; the clubs' sheriff, chief, commissar).

The answer is a table in the step's ``options``: ``yes`` when the seat's card is one of
``yes.roles`` or its side one of ``yes.teams`` (so the Crow Club's maniac, of his own side,
answers red to "black?", and the classic club's joker, not of the family's roles, answers "not
mafia"). ``says`` are the answers' words for the record and the stream overlay. The first
standing pick is the check (one a night: FIIM 4.5.8), a card holder's before one acting as it
(the Crow Club's thief who copied the sheriff); every actor of the step sees the answer.
``announce``: what the morning says of a check that stood, to the whole table, in the book's
words and naming nobody (the online book's «Утром ведущий произносит…»: of the commissar only
that he "проверил … документы", whose is not told).
"""

from __future__ import annotations

import msgspec

from judge.game.book import Book, Local, Name, Step, local_problems
from judge.game.mechanisms.base import Acted, Mechanism, lead
from judge.game.state import Act, Command, Game, Picks
from judge.game.table import NO, YES, reveal
from kit.i18n import Line, Words


class Answers(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    roles: tuple[Name, ...] = ()
    teams: tuple[Name, ...] = ()


class Says(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The answers' words, per language (``{ ru = "чёрный", en = "black" }``)."""

    yes: Local = msgspec.field(default_factory=lambda: {"en": "yes", "ru": "да"})
    no: Local = msgspec.field(default_factory=lambda: {"en": "no", "ru": "нет"})


class CheckOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    yes: Answers
    says: Says = Says()
    announce: Local = {}  # the morning's words of a check that stood (none: nothing is said)


class Check(Mechanism):
    name = "check"
    Options = CheckOptions

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        pick = lead(game, step, picks)
        if pick is None or not pick.targets:
            return Acted(None, lines=(Line(step.rule, "line.check.none", step=step.words),))
        checker, seat = pick.actor, pick.targets[0]
        answer = self.answer(game, step, seat)
        return Acted(Act(game.night, step.name, self.name, (checker,), (seat,),
                         "yes" if answer else "no"),
                     commands=told(picks, checker, answer),
                     lines=(Line(step.rule, "line.check", step=step.words, seat=seat,
                                 answer=self.says(step, answer)),))

    def check(self, book: Book, step: Step) -> list[str]:
        options: CheckOptions = step.options
        return answer_problems(book, "yes", options.yes, options.says, options.announce)

    def answer(self, game: Game, step: Step, seat: int) -> bool:
        """The check's answer for ``seat``: its card or its side in the ``yes`` table."""
        options: CheckOptions = step.options
        return answers(game, options.yes, seat)

    def written(self, book: Book, step: Step, outcome: str, seats: list[int]) -> Words:
        """The checked seat and the book's own answer ("3: мафия")."""
        return Words("sheet.act.check", seats=seats, answer=self.says(step, outcome == "yes"))

    def says(self, step: Step, yes: bool) -> Local:
        options: CheckOptions = step.options
        return options.says.yes if yes else options.says.no

    def describe(self, game: Game, act: Act) -> Words:
        step = game.book.step(act.step)
        return Words("act.check", step=step.words, seat=act.targets[0],
                     answer=self.says(step, act.outcome == "yes"))

    def announce(self, game: Game, act: Act) -> Words | None:
        options: CheckOptions = game.book.step(act.step).options
        return Words("said.check", says=options.announce) if options.announce else None


def told(picks: Picks, actor: int, answer: bool) -> tuple[Command, ...]:
    """The answer on the private indicator of every actor of the step, ``actor`` first."""
    woke = [p.actor for p in picks.picks] + list(picks.missing)
    return tuple(reveal(s, YES if answer else NO)
                 for s in (actor, *(a for a in woke if a != actor)))


def answer_problems(book: Book, key: str, table: Answers, says: Says,
                    announce: Local) -> list[str]:
    """What is wrong with an answer table (``options.<key>``: a role or a side the book does
    not have) and its words."""
    return [*(f"options.{key}.roles: no role {r!r}" for r in table.roles
              if r not in book.roles),
            *(f"options.{key}.teams: no team {t!r}" for t in table.teams
              if t not in book.teams),
            *local_problems([("options.says.yes", says.yes), ("options.says.no", says.no),
                             *([("options.announce", announce)] if announce else [])])]


def answers(game: Game, table: Answers, seat: int) -> bool:
    """Whether ``seat``'s card is one of ``table.roles`` or its side one of ``table.teams``."""
    return game.player(seat).role in table.roles or game.team(seat) in table.teams


MECHANISM = Check()
