"""A pair check: the actor names two players and is told, on his private indicator alone,
whether they are on the same side.

The online book's journalist is named in its order of moves only («Порядок ходов ночью…»:
"…КОМИССАР, ЖУРНАЛИСТ…"), his role description missing from the copy; this is the panel's
reading (docs/rules/online-003.md, §1: "names two players each night and is told privately
whether they are on the same side (mafia / not mafia)"). The step takes two picks (``picks =
2``). Two different players in the game stand; one, the same one twice, or a seat out of the
game: no check that night.

``options``: ``side``, which cards or sides are the one side (as a check's ``yes``: the online
book's mafia and boss; its maniac is not), the two told apart by it; ``says``, the answers'
words (same side, or not); ``announce``, what the morning says of a pair check that stood,
naming nobody ("of the journalist only that he moved", as of the commissar).
"""

from __future__ import annotations

import msgspec

from judge.game.book import Book, Local, Step
from judge.game.mechanisms.base import Acted, Mechanism
from judge.game.mechanisms.check import Answers, Says, answer_problems, answers, told
from judge.game.state import Act, Game, Picks
from kit.i18n import Line, Words


class PairCheckOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    side: Answers
    says: Says = Says()
    announce: Local = {}  # the morning's words of a pair check that stood (none: nothing)


class PairCheck(Mechanism):
    name = "pair_check"
    Options = PairCheckOptions

    def check(self, book: Book, step: Step) -> list[str]:
        options: PairCheckOptions = step.options
        return [*(["picks: a pair check takes 2"] if step.picks != 2 else []),
                *answer_problems(book, "side", options.side, options.says, options.announce)]

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: PairCheckOptions = step.options
        standing = picks.standing()
        actor = next(iter(standing), None)
        pair = tuple(dict.fromkeys(standing[actor]))[:2] if actor is not None else ()
        if actor is None or len(pair) < 2 or not set(pair) <= set(game.alive):
            return Acted(None, lines=(Line(step.rule, "line.pair_check.none",
                                           step=step.words),))
        same = answers(game, options.side, pair[0]) == answers(game, options.side, pair[1])
        return Acted(Act(game.night, step.name, self.name, (actor,), pair,
                         "same" if same else "different"),
                     commands=told(picks, actor, same),
                     lines=(Line(step.rule, "line.pair_check", step=step.words, seats=list(pair),
                                 answer=self.says(step, same)),))

    def written(self, book: Book, step: Step, outcome: str, seats: list[int]) -> Words:
        """The two seats and the book's own answer ("2, 4: разные стороны")."""
        return Words("sheet.act.check", seats=seats, answer=self.says(step, outcome == "same"))

    def says(self, step: Step, same: bool) -> Local:
        options: PairCheckOptions = step.options
        return options.says.yes if same else options.says.no

    def describe(self, game: Game, act: Act) -> Words:
        step = game.book.step(act.step)
        return Words("act.pair_check", step=step.words, seats=list(act.targets),
                     answer=self.says(step, act.outcome == "same"))

    def announce(self, game: Game, act: Act) -> Words | None:
        options: PairCheckOptions = game.book.step(act.step).options
        return Words("said.check", says=options.announce) if options.announce else None


MECHANISM = PairCheck()
