"""Immunity (the Crow Club's «Иммунитет у игрока…»): "отсутствие возможности поднять его в
первый день, а так же как либо отстрелить/отравить в первую ночь".

A player's, not a card's: it was earned by leaving early in the previous game (the digest's
reading), so the judge names the immune players at setup (``choose``, a set of seats), and may
change them during day 1's first round, the zero round ("Иммунитет возможно передать только в
случае передачи своей иммунитетной игровой карты на нулевом кругу"). The table holds it as the
seat's ``immune`` standing (``cmd/seats``; its preset says what that blocks: being nominated, a
night step that shoots). The engine keeps the same rule itself, for a pick the judge enters:

- day 1: an immune player is not nominated (``bars``);
- night 1: every night death of an immune player misses (``settle``: the shot, the maniac's
  kill, the poison, the paranoid's take-along, "как либо");
- "Иммунитет не переносится на следующий игровой день": it ends with night 1 (``morning``).

It runs no step: the book names it in its ``[night] resolution`` only, after the deaths it
takes back, and cites its section as ``[cite] immunity``.
"""  # noqa: RUF002 (the book's Russian, quoted)

from __future__ import annotations

from typing import Any, ClassVar

from contract.commands import SeatStanding
from judge.game import table
from judge.game.actions import Offer, Param, Seats, decision
from judge.game.book import Step
from judge.game.mechanisms.base import Fate, Mechanism
from judge.game.state import Act, Game, Refused, Result, set_player
from kit.i18n import Line, Words

#: the day and the night it protects on ("в первый день", "в первую ночь")
DAY = NIGHT = 1


class Immunity(Mechanism):
    name = "immunity"
    cites = ("immunity",)
    #: the players immune from the previous game (none: an empty list)
    decisions: ClassVar[dict[str, Any]] = {"immunity": Seats}

    def offers(self, game: Game, step: Step | None) -> list[Offer]:
        if not _naming(game):
            return []
        return [decision("immunity", self.name, key="immunity", label=Words("offer.immunity"),
                         group="setup" if game.stage == "setup" else "seat",
                         params=[Param(name="value", kind="seats",
                                       seats=[p.seat for p in game.players if p.in_game])])]

    def choose(self, game: Game, step: Step | None, value: Any) -> Result:
        rule = game.rules.cite("immunity")
        if not _naming(game):
            raise Refused(Line(rule, "refused.immunity.when"))
        if not isinstance(value, list) or any(isinstance(s, bool) for s in value):
            raise Refused(Line(rule, "refused.immunity.seats"))
        for seat in value:
            if not game.player(seat).in_game:
                raise Refused(Line(game.rules.cite("seats"), "refused.out", seat=seat))
        immune = set(value)
        changed = [p.seat for p in game.players if p.immune != (p.seat in immune)]
        for seat in changed:
            game = set_player(game, seat, immune=seat in immune)
        commands = [] if game.stage == "setup" or not changed else [table.seats(
            SeatStanding(seat=s, immune=s in immune) for s in changed)]
        return Result(game, commands, [Line(rule, "line.immunity" if immune
                                            else "line.immunity.none", seats=sorted(immune))])

    def bars(self, game: Game, seat: int, action: str) -> Line | None:
        if action == "nominated" and game.day == DAY and game.player(seat).immune:
            return Line(game.rules.cite("immunity"), "refused.immunity.nominated", seat=seat)
        return None

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        if game.night != NIGHT:
            return fates
        return tuple(f for f in fates
                     if not (f.what == "dies" and game.player(f.seat).immune))

    def morning(self, game: Game) -> Result:
        immune = [p.seat for p in game.players if p.immune]
        if game.night != NIGHT or not immune:
            return Result(game, [], [])
        for seat in immune:
            game = set_player(game, seat, immune=False)
        return Result(game, [table.seats(SeatStanding(seat=s, immune=False) for s in immune)],
                      [Line(game.rules.cite("immunity"), "line.immunity.over",
                            seats=immune)])


def _naming(game: Game) -> bool:
    """The judge names the immune players at setup, and may move it in the zero round (day
    1's first round)."""
    return game.stage == "setup" or (game.stage == "day" and game.day == DAY
                                     and game.round == 0)


MECHANISM = Immunity()
