"""The paranoid's take-along (the Crow Club's «Параноик»): "После того, как подвергнется
убийству, забирает с собой ночью еще одного участника на собственный выбор"; "то- же самое
происходит, если параноика поднимают на голосовании"; "Актуально для всех поднятий, кроме
поднятия на угадайке".

- At night his step opens only when a kill of tonight (a step of the ``kills`` mechanisms) on
  him stands as the night is so far: shot and not healed, not immune (the digest's reading: not
  when poisoned). He names one other player, who leaves at morning with him (a night death:
  the heal, the immortal's trait and night-1 immunity take it back when the book's resolution
  puts them after this).
- Voted out, he names one during his testament, which the judge enters (``choose``): the
  player leaves with him, after a testament of his own; not at the «угадайка» (the day the
  book's endgames play instead of a night), where "игра уже проиграна "один в один"".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

import msgspec

from judge.game.actions import Offer, Param, Seat, decision
from judge.game.book import Name, Step
from judge.game.end import at_nightfall
from judge.game.mechanisms.base import Acted, Fate, Mechanism, holders, lead, own
from judge.game.state import Act, Game, Picks, Refused, Result, with_note
from kit.i18n import Line, Words

#: the paranoids who took one with them by day
TOOK = "revenge.day"


class RevengeOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    kills: tuple[Name, ...] = ("kill",)  # the mechanisms whose death on him wakes him


class Revenge(Mechanism):
    name = "revenge"
    outcomes: ClassVar[dict[str, str]] = {"takes": "sheet.act.takes"}
    #: the paranoid voted out names the one he takes with him
    decisions: ClassVar[dict[str, Any]] = {"revenge": Seat}
    Options = RevengeOptions

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        options: RevengeOptions = step.options
        shot = {t for a in game.acts if a.night == game.night and a.outcome == "kill"
                and a.mechanism in options.kills for t in a.targets}
        return tuple(s for s in holders(game, step) if s in shot and s in game.dying)

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        pick = lead(game, step, picks)
        if pick is None or not pick.targets:
            return Acted(None, lines=(Line(step.rule, "line.revenge.none", step=step.words),))
        paranoid, seat = pick.actor, pick.targets[0]
        if seat == paranoid or not game.player(seat).in_game:
            return Acted(None, lines=(Line(step.rule, "line.revenge.other", seat=seat),))
        return Acted(Act(game.night, step.name, self.name, (paranoid,), (seat,), "takes"),
                     lines=(Line(step.rule, "line.revenge", step=step.words, seat=seat),))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        return (*fates, *(Fate(t, "dies", a.step) for a in own(acts, self) for t in a.targets))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.revenge", step=game.book.step(act.step).words, seat=act.targets[0])

    # ------------------------------------------------------------------ voted out

    def offers(self, game: Game, step: Step | None) -> list[Offer]:
        assert step is not None  # a step's mechanism
        paranoid = _voted_out(game, step)
        if paranoid is None or not _takeable(game, paranoid):
            return []
        return [decision("revenge", step.name, key=f"choose-{step.name}", group="seat",
                         label=Words("offer.revenge", seat=paranoid),
                         params=[Param(name="value", kind="seat",
                                       seats=_takeable(game, paranoid))])]

    def choose(self, game: Game, step: Step | None, value: Any) -> Result:
        assert step is not None
        paranoid = _voted_out(game, step)
        if paranoid is None:
            raise Refused(Line(step.rule, "refused.revenge.when"))
        if not isinstance(value, int) or isinstance(value, bool) \
                or value not in _takeable(game, paranoid):
            raise Refused(Line(step.rule, "refused.revenge.seat", seat=value))
        game = replace(game, leaving=(*game.leaving, value),
                       speakers=(*game.speakers, value) if game.book.leaving.last_words
                       else game.speakers)
        return Result(with_note(game, TOOK, (*game.note(TOOK), paranoid)), [],
                      [Line(step.rule, "line.revenge.day", paranoid=paranoid, seat=value)])


def _voted_out(game: Game, step: Step) -> int | None:
    """The paranoid voted out now who has not named his one yet; ``None`` at the «угадайка»
    (a day the book plays instead of a night: its vote is the game's last)."""
    if game.stage != "last_words" or game.after_last_words != "night":
        return None
    ending = at_nightfall(game)
    if ending is not None and not ending[1].wins:
        return None
    paranoids = set(holders(game, step))
    return next((s for s in game.leaving if s in paranoids and s not in game.note(TOOK)), None)


def _takeable(game: Game, paranoid: int) -> list[int]:
    return [s for s in game.alive if s not in game.leaving and s != paranoid]


MECHANISM = Revenge()
