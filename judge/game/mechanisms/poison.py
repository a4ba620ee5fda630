"""A poison (the Crow Club's «Доктор»): "доктор может отравить одного из игроков, один раз за
всю игру. В ночь когда доктор решит кого-то травить, он так же может лечить. После ночи, ведущий
объявит какой игрок был отравлен."

Its step follows the heal's and wakes the healers who still hold their poison (each his own:
"отравы за столом 2" with the thief's copy, «Вор», lost when its doctor leaves unused). The
pick is refused on the poisoner himself and on the seat he heals tonight (the digest's
readings). The poisoned player dies at morning: the heal does not save from it (its ``saves``
name the kills), the immortal's trait and night-1 immunity do; the morning names him when the
poison took.
"""

from __future__ import annotations

from typing import ClassVar

from judge.game.book import Step
from judge.game.mechanisms.base import Acted, Fate, Mechanism, holders, lead, own
from judge.game.state import Act, Game, Picks
from kit.i18n import Line, Words


class Poison(Mechanism):
    name = "poison"
    outcomes: ClassVar[dict[str, str]] = {"poison": "sheet.act.poison"}

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        """The step's holders whose poison is unused ("один раз за всю игру", each)."""
        used = {s for a in game.acts if a.step == step.name for s in a.actors}
        return tuple(s for s in holders(game, step) if s not in used)

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        pick = lead(game, step, picks)
        if pick is None or not pick.targets:
            return Acted(None, lines=(Line(step.rule, "line.poison.none", step=step.words),))
        doctor, seat = pick.actor, pick.targets[0]
        if seat == doctor:
            return Acted(None, lines=(Line(step.rule, "line.poison.self", seat=seat),))
        healed = any(a.night == game.night and a.mechanism == "heal" and seat in a.targets
                     for a in game.acts)
        if healed:
            return Acted(None, lines=(Line(step.rule, "line.poison.healed", seat=seat),))
        return Acted(Act(game.night, step.name, self.name, (doctor,), (seat,), "poison"),
                     lines=(Line(step.rule, "line.poison", step=step.words, seat=seat),))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        return (*fates, *(Fate(t, "dies", a.step) for a in own(acts, self) for t in a.targets))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.poison", step=game.book.step(act.step).words, seat=act.targets[0])

    def announce(self, game: Game, act: Act) -> Words | None:
        """"ведущий объявит какой игрок был отравлен": when the poison took."""
        return Words("said.poison", seat=act.targets[0]) if act.targets[0] in game.dying \
            else None


MECHANISM = Poison()
