"""The next Don (the Crow Club's «Дон Мафии»): "Дон может назначить следующего дона после своего
ухода с дневного голосования или в случае отравы, убийства ночью во время следующей ночи после
своего ухода(ведущий оповещает об этом)"; "В случае отсутствия игрока рядом с игровым столом,
ведущий назначает следующего Дона самостоятельно."

Its step comes first in the night's wake order, before the shot, so that the new Don decides
it. It opens while no one holds the ``role`` (or acts as it), two or more of its side are in the
game (the last of them is the Don: the shot is his alone anyway), and a Don who left by the
vote or at night has not passed it on: he wakes (out of the game, as the book has him) and
names one of his side, who acts as the ``role`` from then on (``Player.acts``; the kill's
``deciders`` read it). The judge names the next Don instead (``choose``) whenever there is none
at night: the departed Don is not at the table, named no one or an outsider, or left by fouls
or the judge's removal, which takes his testament too (the digest's reading).
"""  # noqa: RUF002 (the book's Russian, quoted)

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from judge.game.actions import Offer, Param, Seat, decision
from judge.game.book import Book, Name, Step
from judge.game.mechanisms.base import Acted, Mechanism, lead
from judge.game.state import Act, Game, Picks, Refused, Result, set_player, with_note
from kit.i18n import Line, Words

#: the departed Dons the judge passed over by naming the next one himself
PASSED = "succession.passed"


class SuccessionOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    role: Name = "don"  # the role passed on (its side is who may take it)


class Succession(Mechanism):
    name = "succession"
    outcomes: ClassVar[dict[str, str]] = {"named": "sheet.act.succession"}
    #: the judge names the next holder of the role, one of its side
    decisions: ClassVar[dict[str, Any]] = {"successor": Seat}
    Options = SuccessionOptions

    def check(self, book: Book, step: Step) -> list[str]:
        options: SuccessionOptions = step.options
        return [] if options.role in book.roles else [f"options.role: no role {options.role!r}"]

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        if not _wanted(game, step):
            return ()
        role = _role(step)
        passed = {*game.note(PASSED), *(s for a in game.acts if a.step == step.name
                                        for s in a.actors)}
        departed = [p.seat for p in game.players if not p.in_game and role in (p.role, p.acts)
                    and p.left in ("voted_out", "shot") and p.seat not in passed]
        return tuple(departed[-1:])

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        pick = lead(game, step, picks)
        if pick is None or not pick.targets:
            return Acted(None, lines=(Line(step.rule, "line.succession.none", step=step.words),))
        seat = pick.targets[0]
        if seat not in _side(game, step):
            return Acted(None, lines=(Line(step.rule, "line.succession.outsider", seat=seat),))
        return Acted(Act(game.night, step.name, self.name, (pick.actor,), (seat,), "named"),
                     lines=(Line(step.rule, "line.succession", seat=seat),),
                     becomes=((seat, _role(step)),))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.succession", step=game.book.step(act.step).words, seat=act.targets[0])

    def offers(self, game: Game, step: Step | None) -> list[Offer]:
        assert step is not None  # a step's mechanism
        if game.stage != "night" or game.running_step is not None or not _wanted(game, step):
            return []
        return [decision("successor", step.name, key=f"choose-{step.name}", group="night",
                         label=Words("offer.succession", step=step.words),
                         params=[Param(name="value", kind="seat",
                                       seats=list(_side(game, step)))])]

    def choose(self, game: Game, step: Step | None, value: Any) -> Result:
        assert step is not None
        if game.stage != "night" or game.running_step is not None or not _wanted(game, step):
            raise Refused(Line(step.rule, "refused.succession.when"))
        if not isinstance(value, int) or isinstance(value, bool) \
                or value not in _side(game, step):
            raise Refused(Line(step.rule, "refused.succession.seat", seat=value))
        role = _role(step)
        departed = tuple(p.seat for p in game.players if not p.in_game
                         and role in (p.role, p.acts))
        game = with_note(set_player(game, value, acts=role), PASSED,
                         tuple(dict.fromkeys((*game.note(PASSED), *departed))))
        return Result(game, [], [Line(step.rule, "line.succession.judge", seat=value)])


def _role(step: Step) -> str:
    options: SuccessionOptions = step.options
    return options.role


def _side(game: Game, step: Step) -> tuple[int, ...]:
    """The players in the game of the role's side: who may take it."""
    side = game.book.team_of(_role(step))
    return tuple(s for s in game.alive if game.team(s) == side)


def _wanted(game: Game, step: Step) -> bool:
    """No one holds the role, and two or more of its side are in the game."""
    return not game.with_role(_role(step)) and len(_side(game, step)) >= 2


MECHANISM = Succession()
