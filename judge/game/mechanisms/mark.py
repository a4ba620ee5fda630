"""A mark for the coming day: the actor picks a seat, which carries a day standing
(``state.DAY_STANDINGS``) from the morning to the next nightfall: ``frozen`` (the classic club's
Laura: "молчит днём, не может голосовать и защищаться"; the online book's boss, read the same
way) or ``silenced`` (the Crow Club's firefighter: no monologue "1 круг (включая голосование)").
The morning announces it, the table blocks the player's floor, the engine skips the player's
speeches (and, frozen, leaves them out of the votes and their last words).

``options``: ``what`` the standing. A book's own twist (the firefighter's three when he dies,
Laura's search for the Right Hand) is its own mechanism, which may build on this one.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from judge.game.book import Step
from judge.game.mechanisms.base import Acted, Fate, Mechanism, own
from judge.game.state import STANDINGS, Act, Game, Picks
from kit.i18n import Line, Words


class MarkOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    what: Literal["frozen", "silenced"]


class Mark(Mechanism):
    name = "mark"
    outcomes: ClassVar[dict[str, str]] = {"frozen": "sheet.act.frozen",
                                          "silenced": "sheet.act.silenced"}
    Options = MarkOptions

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: MarkOptions = step.options
        standing = picks.standing()
        actor = next(iter(standing), None)
        if actor is None or not standing[actor]:
            return Acted(None, lines=(Line(step.rule, "line.mark.none", step=step.words),))
        marked = standing[actor]
        return Acted(Act(game.night, step.name, self.name, (actor,), marked, options.what),
                     lines=(Line(step.rule, "line.mark", step=step.words, seats=list(marked),
                                 standing=STANDINGS[options.what]),))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        return (*fates, *(Fate(t, a.outcome, a.step) for a in own(acts, self)
                          for t in a.targets))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.mark", step=game.book.step(act.step).words, seats=list(act.targets),
                     standing=STANDINGS[act.outcome])


MECHANISM = Mark()
