"""The ghosts' forfeit (the Crow Club's «Касперами…»): "Касперами, называются игроки которые
покинули игровой стол, из за действий других персонажей (отстрел, отрава, поднятие)"; "Если
каспер залез игру, влияя на ход игры (давая цвета после ухода, апеллируя комментариями по своему
уходу, жестикулируя с "живыми" игроками …) игра останавливается и победа присуждается команде
противоположной от каспера. В случае если команды за столом было 3 - маньяк, мафия и мирные,
победа не присуждается никому, в городе ничья, или "крест"".

The judge's decision (``declare``): he names the ghost, a player out of the game by another's
action (``how``: the night's shot or poison, the vote; not his fouls or the judge's removal).
The sides "за столом" are those of the players in the game and the ghost's own (the digest's
reading): of two, the other wins; of three, nobody: the row's team (``draw``, "крест").
It never holds by itself.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from judge.game.actions import Offer, Param, decision
from judge.game.book import Endgame as EndgameRow
from judge.game.endgames.base import Declared, Endgame
from judge.game.state import Game, Refused
from kit.i18n import Line, Words


class ForfeitOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    how: tuple[str, ...] = ("shot", "voted_out")  # how a ghost left (``Player.left``)


class Forfeit(Endgame):
    name = "forfeit"
    Options = ForfeitOptions
    decisions: ClassVar[dict[str, Any]] = {"forfeit": int}  # the ghost's seat

    def holds(self, game: Game, row: EndgameRow) -> bool:
        return False

    def offers(self, game: Game, row: EndgameRow) -> list[Offer]:
        if game.stage in ("setup", "over") or not _ghosts(game, row):
            return []
        return [decision("forfeit", row.kind, key="forfeit", label=Words("offer.forfeit"),
                         group="seat",
                         params=[Param(name="value", kind="seat", seats=_ghosts(game, row))])]

    def declare(self, game: Game, row: EndgameRow, value: Any) -> Declared:
        if not isinstance(value, int) or isinstance(value, bool) \
                or value not in _ghosts(game, row):
            raise Refused(Line(row.rule, "refused.forfeit.ghost", seat=value))
        ghost = game.team(value)
        sides = {game.team(s) for s in game.alive} | {ghost}
        others = sides - {ghost}
        winner = next(iter(others)) if len(sides) == 2 else row.team
        return Declared(winner, Line(row.rule, "line.forfeit", seat=value))


def _ghosts(game: Game, row: EndgameRow) -> list[int]:
    """The players out of the game by another's action: who may interfere as a ghost."""
    options: ForfeitOptions = row.options
    return [p.seat for p in game.players if not p.in_game and p.left in options.how]


ENDGAME = Forfeit()
