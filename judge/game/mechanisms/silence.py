"""The firefighter's silence (the Crow Club's «Пожарный»): "Просыпается каждую ночь и тушит
(отбирает право монолога) у любого игрока … Действует тушение 1 круг (включая голосование)";
"При убийстве Пожарного, ведущий будит его ночью и пожарный выбирает 3х игроков, которые будут
потушены после его ухода."

Each pick is silenced for the coming day (the day standing ``silenced``: no monologue, so no
nomination and no defence in that day's fork; the vote and the testament stay): the morning
announces it, the table blocks the floor. The night the firefighter dies (by anything before
his step: the shot, the maniac, the poison; the digest's reading, every night death) he names
``dying_picks`` instead of one. A second step with ``again = true``, after the paranoid's,
wakes him once more when the paranoid's take-along is what kills him, for his three; it opens
for no one else. Fewer names than asked are taken as named.
"""  # noqa: RUF002 (the book's Russian, quoted)

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

import msgspec

from judge.game.book import Step
from judge.game.mechanisms.base import Acted, Fate, Mechanism, holders, lead, own
from judge.game.state import STANDINGS, Act, Game, Picks
from kit.i18n import Line, Words

#: an act made by a firefighter who dies tonight: his last, the three
LAST = "silenced_last"


class SilenceOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    dying_picks: int = 3
    again: bool = False  # the wake after the paranoid's: only for one who dies by it


class Silence(Mechanism):
    name = "silence"
    outcomes: ClassVar[dict[str, str]] = {"silenced": "sheet.act.silenced",
                                          LAST: "sheet.act.silenced_last"}
    Options = SilenceOptions

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        options: SilenceOptions = step.options
        seats = holders(game, step)
        if not options.again:
            return seats
        named = {s for a in game.acts if a.night == game.night and a.outcome == LAST
                 for s in a.actors}
        return tuple(s for s in seats if s in game.dying and s not in named)

    def picks(self, game: Game, step: Step) -> int:
        options: SilenceOptions = step.options
        dying = any(s in game.dying for s in self.actors(game, step))
        return options.dying_picks if dying else step.picks

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        # the three may be fewer: the table calls an actor short of his picks "missing"
        named = Picks(step.name, tuple(replace(p, miss=None) for p in picks.picks
                                       if p.whole or p.miss == "missing"))
        pick = lead(game, step, named)
        if pick is None or not pick.targets:
            return Acted(None, lines=(Line(step.rule, "line.silence.none", step=step.words),))
        actor, targets = pick.actor, tuple(dict.fromkeys(pick.targets))
        outcome = LAST if actor in game.dying else "silenced"
        return Acted(Act(game.night, step.name, self.name, (actor,), targets, outcome),
                     lines=(Line(step.rule, "line.silence.last" if outcome == LAST
                                 else "line.silence", step=step.words, seats=list(targets),
                                 standing=STANDINGS["silenced"]),))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        return (*fates, *(Fate(t, "silenced", a.step) for a in own(acts, self)
                          for t in a.targets))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.silence", step=game.book.step(act.step).words,
                     seats=list(act.targets))


MECHANISM = Silence()
