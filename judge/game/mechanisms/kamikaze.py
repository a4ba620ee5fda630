"""The kamikaze: once a game he names another player, and both leave at morning.

The online book names him in its order of moves only («Порядок ходов ночью…»: "…БОСС, ЯКУДЗА,
КАМИКАДЗЕ, ВРАЧ…") and its role descriptions are missing from the copy; this is the panel's
reading (docs/rules/online-003.md, §1: "the kamikaze, honest, once a game names a player, and
both die that night"). His pick stands when it is another player in the game; his own seat,
a seat out of the game or no pick is no move, and his one move is kept for a later night ("Любой
ролевой персонаж имеет право не делать хода ночью"). Once he has moved the step opens no more.

At morning the one he named leaves unless the night's heal saves him (the heal's ``saves``
lists ``kamikaze``); the kamikaze himself leaves whatever the heal does: his is no kill but his
own act, a fate ``by`` ``SELF``, which no step is. ``options``: ``who``, the morning's word for
him when the one he named leaves ("камикадзе: убит игрок 5", as the morning names every killer,
«Утром ведущий произносит…»); a save is not told apart from no move.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from judge.game.book import Book, Local, Step, local_problems
from judge.game.mechanisms.base import Acted, Fate, Mechanism, holders, own
from judge.game.state import Act, Game, Picks
from kit.i18n import Line, Words

#: the ``by`` of the kamikaze's own fate: not a step, so no heal's ``saves`` names it
SELF = "kamikaze_self"


class KamikazeOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    who: Local = msgspec.field(default_factory=lambda: {"en": "the kamikaze", "ru": "камикадзе"})


class Kamikaze(Mechanism):
    name = "kamikaze"
    outcomes: ClassVar[dict[str, str]] = {"kamikaze": "sheet.act.kamikaze"}
    Options = KamikazeOptions

    def check(self, book: Book, step: Step) -> list[str]:
        options: KamikazeOptions = step.options
        return local_problems([("options.who", options.who)])

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        """The living holders who have not moved yet (once a game)."""
        moved = {s for a in game.acts if a.step == step.name for s in a.actors}
        return tuple(s for s in holders(game, step) if s not in moved)

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        standing = picks.standing()
        actor = next(iter(standing), None)
        if actor is None or not standing[actor]:
            return Acted(None, lines=(Line(step.rule, "line.kamikaze.none", step=step.words),))
        seat = standing[actor][0]
        if seat == actor or seat not in game.alive:
            return Acted(None, lines=(Line(step.rule, "line.kamikaze.not", step=step.words,
                                           seat=seat),))
        return Acted(Act(game.night, step.name, self.name, (actor,), (seat,), "kamikaze"),
                     lines=(Line(step.rule, "line.kamikaze", step=step.words, actor=actor,
                                 seat=seat),))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        return (*fates, *(fate for a in own(acts, self) for fate in (
            Fate(a.targets[0], "dies", a.step), Fate(a.actors[0], "dies", SELF))))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.kamikaze", step=game.book.step(act.step).words, seat=act.targets[0])

    def announce(self, game: Game, act: Act) -> Words | None:
        options: KamikazeOptions = game.book.step(act.step).options
        if act.targets[0] not in game.dying:
            return None
        return Words("said.kill", who=options.who, seat=act.targets[0])


MECHANISM = Kamikaze()
