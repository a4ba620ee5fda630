"""A heal: the actor picks a seat, and the night's kills on it are taken back at morning (the
Crow Club's doctor "спасает одного человека от убийства", the classic club's, the online book's
"врач лечил Г").

The step's ``options``: ``saves``, the mechanisms whose ``dies`` it takes back (a kill's; the Crow
Club's poison is not among them); ``self_times``, how many times a game the healer may pick
himself (the classic club: once, the Crow Club: twice; none: no limit); ``twice_running =
false``, never the same seat two nights running ("не более 1 раза подряд", "через раз");
``announce``, the morning names the patient, even when nobody was attacked. A
pick against a limit is not taken (the record line says which). The heal settles after the
kills it undoes: put ``heal`` after them in the book's ``[night] resolution``.
"""

from __future__ import annotations

import msgspec

from judge.game.book import Book, Name, Step
from judge.game.mechanisms.base import Acted, Fate, Mechanism, own
from judge.game.state import Act, Game, Picks


class HealOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    saves: tuple[Name, ...] = ("kill",)
    self_times: int | None = None
    twice_running: bool = True
    announce: bool = False  # the morning names the patient (the online book: "врач лечил Г")


class Heal(Mechanism):
    name = "heal"
    Options = HealOptions

    def check(self, book: Book, step: Step) -> list[str]:
        options: HealOptions = step.options
        mechanisms = {s.mechanism for s in book.night.steps}
        return [f"options.saves: no step of mechanism {m!r}" for m in options.saves
                if m not in mechanisms]

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: HealOptions = step.options
        standing = picks.standing()
        healer = next(iter(standing), None)
        if healer is None or not standing[healer]:
            return Acted(None, lines=(f"{step.rule}: no heal tonight",))
        seat = standing[healer][0]
        before = [a for a in game.acts if a.step == step.name]
        last = next((a for a in reversed(before) if a.night == game.night - 1), None)
        if not options.twice_running and last is not None and last.targets == (seat,):
            return Acted(None, lines=(f"{step.rule}: seat {seat} was healed last night: not "
                                      "taken",))
        selves = sum(1 for a in before if a.targets == a.actors)
        if seat == healer and options.self_times is not None \
                and selves >= options.self_times:
            return Acted(None, lines=(f"{step.rule}: the healer has healed himself "
                                      f"{selves} time(s) already: not taken",))
        return Acted(Act(game.night, step.name, self.name, (healer,), (seat,), "heal"),
                     lines=(f"{step.rule}: {step.words} of seat {seat}",))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        for act in own(acts, self):
            options: HealOptions = game.book.step(act.step).options
            saved = set(act.targets)
            fates = tuple(f for f in fates if not (
                f.what == "dies" and f.seat in saved
                and _mechanism_of(game, f.by) in options.saves))
        return fates

    def describe(self, act: Act) -> str:
        return f"{act.step}: heals {act.targets[0]}"

    def announce(self, game: Game, act: Act) -> str | None:
        options: HealOptions = game.book.step(act.step).options
        return f"the doctor came to seat {act.targets[0]}" if options.announce else None


def _mechanism_of(game: Game, step: str) -> str:
    found = next((s for s in game.book.night.steps if s.name == step), None)
    return found.mechanism if found is not None else step  # a trait's fate names itself


MECHANISM = Heal()
