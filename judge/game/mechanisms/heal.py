"""A heal: the actor picks a seat, and the night's kills on it are taken back at morning (the
Crow Club's doctor "спасает одного человека от убийства", the classic club's, the online book's
"врач лечил Г").

The step's ``options``: ``saves``, the mechanisms whose ``dies`` it takes back (a kill's; the Crow
Club's poison is not among them); ``self_times``, how many times a game the healer may pick
himself (the classic club: once, the Crow Club: twice; none: no limit); ``twice_running =
false``, never the same seat two nights running ("не более 1 раза подряд", "через раз");
``announce``, the morning names the patient, even when nobody was attacked, and ``who``
healed him in the book's words ("врач лечил Г", "врач приходил к Альбе"). A
pick against a limit is not taken (the record line says which). The heal settles after the
kills it undoes: put ``heal`` after them in the book's ``[night] resolution``.

Two healers of one step (the Crow Club's thief who copied the doctor, «Вор») heal one player a
night, the card holder's pick standing; a heal of either is a heal of "себя", ``self_times``
each ("Лечений в случае двух докторов "себя" 4"), the past heals of the healers still awake
counted; and never three nights running on the healers themselves ("в третью ночь, нужно лечить
другого человека").
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from judge.game.book import Book, Local, Name, Step, local_problems
from judge.game.mechanisms.base import Acted, Fate, Mechanism, lead, own
from judge.game.state import Act, Game, Picks
from kit.i18n import Line, Words


class HealOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    saves: tuple[Name, ...] = ("kill",)
    self_times: int | None = None
    twice_running: bool = True
    announce: bool = False  # the morning names the patient (the online book: "врач лечил Г")
    who: Local = msgspec.field(default_factory=lambda: {"en": "the doctor", "ru": "доктор"})


class Heal(Mechanism):
    name = "heal"
    outcomes: ClassVar[dict[str, str]] = {"heal": "sheet.act.heal"}
    Options = HealOptions

    def check(self, book: Book, step: Step) -> list[str]:
        options: HealOptions = step.options
        mechanisms = {s.mechanism for s in book.night.steps}
        return [*(f"options.saves: no step of mechanism {m!r}" for m in options.saves
                  if m not in mechanisms), *local_problems([("options.who", options.who)])]

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: HealOptions = step.options
        pick = lead(game, step, picks)
        if pick is None or not pick.targets:
            return Acted(None, lines=(Line(step.rule, "line.heal.none", step=step.words),))
        healer, seat = pick.actor, pick.targets[0]
        healers = {p.actor for p in picks.picks} | set(picks.missing)
        before = [a for a in game.acts if a.step == step.name]
        last = next((a for a in reversed(before) if a.night == game.night - 1), None)
        if not options.twice_running and last is not None and last.targets == (seat,):
            return Acted(None, lines=(Line(step.rule, "line.heal.twice", seat=seat),))
        selves = sum(1 for a in before if set(a.targets) <= healers)
        if seat in healers and options.self_times is not None \
                and selves >= options.self_times * len(healers):
            return Acted(None, lines=(Line(step.rule, "line.heal.self", count=selves),))
        if seat in healers and len(healers) > 1 and _on_healers(before, game.night, healers):
            return Acted(None, lines=(Line(step.rule, "line.heal.pair", seat=seat),))
        return Acted(Act(game.night, step.name, self.name, (healer,), (seat,), "heal"),
                     lines=(Line(step.rule, "line.heal", step=step.words, seat=seat),))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        for act in own(acts, self):
            options: HealOptions = game.book.step(act.step).options
            saved = set(act.targets)
            fates = tuple(f for f in fates if not (
                f.what == "dies" and f.seat in saved
                and _mechanism_of(game, f.by) in options.saves))
        return fates

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.heal", step=game.book.step(act.step).words, seat=act.targets[0])

    def announce(self, game: Game, act: Act) -> Words | None:
        options: HealOptions = game.book.step(act.step).options
        return Words("said.heal", who=options.who, seat=act.targets[0]) \
            if options.announce else None


def _on_healers(before: list[Act], night: int, healers: set[int]) -> bool:
    """Whether the last two nights' heals were both on the healers themselves."""
    last_two = [a for a in before if a.night in (night - 1, night - 2)]
    return len(last_two) == 2 and all(set(a.targets) <= healers for a in last_two)


def _mechanism_of(game: Game, step: str) -> str:
    found = next((s for s in game.book.night.steps if s.name == step), None)
    return found.mechanism if found is not None else step  # a trait's fate names itself


MECHANISM = Heal()
