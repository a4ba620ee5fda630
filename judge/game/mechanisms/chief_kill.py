"""The classic club's police chief's kill («Шеф Полиции \\ Police Chief»): "Ночью указывает на
игрока, которого хочет проверить, если угадал, следующей ночью может его убить. Если не угадал,
ищет дальше".

The step opens only the night after the chief's check (the step ``of``) answered yes, while the
player it found is in the game and the checker who was answered wakes for it (the acting chief
after him kills on his own checks: «Детектив \\ Detective», "исполняющим обязанности"). That
night it replaces the check (``replaces``): the kill is set against searching on
("если угадал … Если не угадал, ищет дальше": the digest's reading). The chief may kill only
the player found ("его"): another seat is not taken, no pick is no kill ("может": he may
not). The kill lands at morning with the night's others, and a heal takes it back when the
doctor's step ``saves`` it (the digest's reading of "например").
"""  # noqa: RUF002 (the book's Cyrillic ghe, which the project's confusables do not allow)

from __future__ import annotations

import msgspec

from judge.game.book import Book, Local, Name, Step, local_problems
from judge.game.mechanisms.base import Acted
from judge.game.mechanisms.kill import Kill
from judge.game.state import Act, Game, Picks
from kit.i18n import Line, Words


class ChiefKillOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    of: Name  # the check step whose "yes" opens the kill the next night
    who: Local  # who kills, per language: { ru = "Шеф Полиции", en = "the chief" }


class ChiefKill(Kill):
    name = "chief_kill"
    Options = ChiefKillOptions  # type: ignore[assignment]

    def check(self, book: Book, step: Step) -> list[str]:
        options: ChiefKillOptions = step.options
        checks = [s.name for s in book.night.steps if s.mechanism == "check"]
        return [*([] if options.of in checks else [f"options.of: no check step {options.of!r}"]),
                *local_problems([("options.who", options.who)])]

    def _answered_yes(self, game: Game, step: Step) -> Act | None:
        """Last night's check of ``of``, when it answered yes."""
        options: ChiefKillOptions = step.options
        check = next((a for a in game.acts if a.step == options.of
                      and a.night == game.night - 1), None)
        return check if check is not None and check.outcome == "yes" else None

    def found(self, game: Game, step: Step) -> Act | None:
        """Last night's check of ``of`` that answered yes, when its player is still in the game
        and its checker wakes for this step tonight."""
        check = self._answered_yes(game, step)
        if check is None or check.targets[0] not in game.alive:
            return None
        return check if check.actors[0] in self.actors(game, step) else None

    def opens(self, game: Game, step: Step) -> bool:
        return self.found(game, step) is not None

    def replaces(self, game: Game, step: Step) -> tuple[str, ...]:
        options: ChiefKillOptions = step.options
        return (options.of,)

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: ChiefKillOptions = step.options
        # the step opened on last night's yes, which does not change; the player found may
        # have left since (removed by the judge while the step ran): then nobody is killed
        check = self._answered_yes(game, step)
        assert check is not None
        chief, found = check.actors[0], check.targets[0]
        chosen = picks.standing().get(chief, ())
        if not chosen or found not in game.alive:
            return Acted(Act(game.night, step.name, self.name, (), (), "miss"),
                         lines=(Line(step.rule, "line.chief_kill.none", who=options.who),))
        if chosen != (found,):
            return Acted(Act(game.night, step.name, self.name, (chief,), (), "miss"),
                         lines=(Line(step.rule, "line.chief_kill.other", who=options.who,
                                     seats=list(chosen), found=found),))
        return Acted(Act(game.night, step.name, self.name, (chief,), (found,), "kill"),
                     lines=(Line(step.rule, "line.chief_kill", who=options.who, seat=found),))

    def announce(self, game: Game, act: Act) -> Words | None:
        return None  # the morning names the dead, not who killed them («2. День»)


MECHANISM = ChiefKill()
