"""The maniac's gift (the Crow Club's «Маньяк»): "Маньяк может отдать победу мирным - в случае,
если он играл за мирных и весь стол знает что он маньяк."

The judge's decision (``declare``): he names the player who gives it, one of the ``by`` sides
in the game (the maniacs); the row's team wins (the reds). Whether he "играл за мирных" and
"весь стол знает" is the judge's to see. It never holds by itself.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from judge.game.actions import Offer, Param, decision
from judge.game.book import Endgame as EndgameRow
from judge.game.book import Name
from judge.game.endgames.base import Declared, Endgame
from judge.game.state import Game, Refused
from kit.i18n import Line, Words


class GiftOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    by: tuple[Name, ...]  # the sides whose player may give the row's team the win


class Gift(Endgame):
    name = "gift"
    Options = GiftOptions
    decisions: ClassVar[dict[str, Any]] = {"gift": int}  # the giver's seat

    def holds(self, game: Game, row: EndgameRow) -> bool:
        return False

    def offers(self, game: Game, row: EndgameRow) -> list[Offer]:
        if game.stage in ("setup", "over") or not _givers(game, row):
            return []
        return [decision("gift", row.kind, key="gift",
                         label=Words("offer.gift", team=game.book.team_title(row.team)),
                         group="seat",
                         params=[Param(name="value", kind="seat", seats=_givers(game, row))])]

    def declare(self, game: Game, row: EndgameRow, value: Any) -> Declared:
        if not isinstance(value, int) or isinstance(value, bool) \
                or value not in _givers(game, row):
            raise Refused(Line(row.rule, "refused.gift.seat", seat=value))
        return Declared(row.team, Line(row.rule, "line.gift", seat=value,
                                       team=game.book.team_title(row.team)))


def _givers(game: Game, row: EndgameRow) -> list[int]:
    options: GiftOptions = row.options
    return [s for s in game.alive if game.team(s) in options.by]


ENDGAME = Gift()
