"""The classic club's Laura («Laura \\ Лаура»): she freezes one player a night, and her freeze
is also her search for the Right Hand; found, she may go over to the family.

- The freeze: "Просыпается ночью, показывает ведущему, кого будет замораживать. Тот кого
  заморозила Лаура молчит днём, не может голосовать и защищаться": the ``frozen`` day standing
  (``state.NO_SPEECH``, ``NO_VOTE``, ``NO_LAST_WORDS``), as the ``mark`` mechanism's.
- The search: "Отдельно ищет правую руку мафии Johnny. Если угадала, ведущий показывает Лауре
  что угадала, и затем показывает ей всю мафию, включая Джокера." The digest's reading: the
  player she freezes is the one she searches (she shows one player); her private indicator
  answers yes when that card is the ``search`` one, no otherwise, until the night she finds it
  (once a game). That night the record names the players the judge shows her (the ``shown``
  cards in the game; who is who among them is not said).
- The side: "Затем ведущий будет спрашивать у Лауры, за кого она будет играть. За Мирных
  жителей … Или переходит на сторону мафии": that night the judge gives her answer
  (``choose``, offered as two buttons); going over makes her play for ``side`` (``Player.side``:
  every win counts her there, from that moment: the blacks at parity with her win at once)
  while her card still answers a check as Laura's; she keeps waking alone and freezing
  ("замораживать уже не мафию, а мирных жителей"). Nobody else is told. No answer that night:
  she plays on for her own side.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Literal

import msgspec

from judge.game.actions import Offer, decision
from judge.game.book import Book, Name, Step
from judge.game.end import win_check
from judge.game.mechanisms.base import Acted, Fate, own
from judge.game.mechanisms.mark import Mark
from judge.game.state import (
    STANDINGS,
    Act,
    Game,
    Picks,
    Refused,
    Result,
    set_player,
    with_note,
)
from judge.game.table import NO, YES, reveal
from kit.i18n import Line, Words

#: the note of Laura's answer to the side question: (1,) she went over, (0,) she stays
SIDE = "laura.side"


class LauraOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    search: Name  # the card her freeze searches for: the Right Hand
    shown: tuple[Name, ...]  # the cards the judge shows her when she finds it
    side: Name  # the side she may go over to
    what: Literal["frozen", "silenced"] = "frozen"


class Laura(Mark):
    name = "laura"
    outcomes: ClassVar[dict[str, str]] = {**Mark.outcomes, "found": "sheet.act.found"}
    #: her answer, given to the judge by gesture: she goes over, or stays (each offer carries
    #: its value)
    decisions: ClassVar[dict[str, Any]] = {"laura_over": Literal[True],
                                           "laura_stays": Literal[False]}
    Options = LauraOptions  # type: ignore[assignment]

    def check(self, book: Book, step: Step) -> list[str]:
        options: LauraOptions = step.options
        return [*(f"options: no role {r!r}" for r in (options.search, *options.shown)
                  if r not in book.roles),
                *([] if options.side in book.teams else [f"options.side: no team "
                                                         f"{options.side!r}"])]

    def found(self, game: Game, step: Step) -> Act | None:
        """The night's freeze that found the searched card, once it has."""
        return next((a for a in game.acts if a.step == step.name and a.outcome == "found"),
                    None)

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: LauraOptions = step.options
        frozen = super().act(game, step, picks)
        if frozen.act is None or self.found(game, step) is not None:
            return frozen  # no pick; or found already: she searches no more (once a game)
        laura, seat = frozen.act.actors[0], frozen.act.targets[0]
        if game.player(seat).role != options.search:
            return Acted(frozen.act, (reveal(laura, NO),),
                         (*frozen.lines, Line(step.rule, "line.laura.missed", seat=seat)))
        shown = tuple(p.seat for p in game.players if p.in_game and p.role in options.shown
                      and p.seat != laura)
        return Acted(replace(frozen.act, outcome="found"), (reveal(laura, YES),),
                     (*frozen.lines, Line(step.rule, "line.laura.found", seat=seat,
                                          seats=list(shown))))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        return (*fates, *(Fate(t, game.book.step(a.step).options.what, a.step)
                          for a in own(acts, self) for t in a.targets))

    def describe(self, game: Game, act: Act) -> Words:
        step = game.book.step(act.step)
        return Words("act.laura.found" if act.outcome == "found" else "act.mark",
                     step=step.words, seats=list(act.targets),
                     standing=STANDINGS[step.options.what])

    def _asking(self, game: Game, step: Step) -> bool:
        """Tonight she found the card, and the judge has not given her answer yet."""
        found = self.found(game, step)
        return game.stage == "night" and found is not None and found.night == game.night \
            and not game.note(SIDE)

    def offers(self, game: Game, step: Step | None) -> list[Offer]:
        assert step is not None  # a step's mechanism
        if not self._asking(game, step):
            return []
        side = game.book.team_title(step.options.side)
        return [decision("laura_over", step.name, key="laura-over", group="night",
                         label=Words("offer.laura.over", team=side), value=True),
                decision("laura_stays", step.name, key="laura-stays", group="night",
                         label=Words("offer.laura.stays"), value=False)]

    def choose(self, game: Game, step: Step | None, value: Any) -> Result:
        assert step is not None
        if not self._asking(game, step):
            raise Refused(Line(step.rule, "refused.laura.side"))
        if not isinstance(value, bool):
            raise Refused(Line(step.rule, "refused.laura.value"))
        laura = self.found(game, step)
        assert laura is not None
        seat = laura.actors[0]
        if not value:
            return Result(with_note(game, SIDE, (0,)), [], [
                Line(step.rule, "line.laura.stays", seat=seat)])
        side = step.options.side
        game = set_player(with_note(game, SIDE, (1,)), seat, side=side)
        said = Line(step.rule, "line.laura.over", seat=seat, team=game.book.team_title(side))
        over = win_check(game)  # she counts for her new side at once: it may be at parity now
        if over is not None:
            return Result(over.game, over.commands, [said, *over.lines])
        return Result(game, [], [said])


MECHANISM = Laura()
