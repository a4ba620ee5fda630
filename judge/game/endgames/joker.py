"""The classic club's joker («Joker \\ Джокер»): "Может сам выиграть всю игру, если остаётся 1
из мафиози, когда активных ролей нет, одни мирные с ним за одним столом."

The digest's reading: "1 из мафиози" is the joker himself, the last of those who wake with the
family; so the joker's side wins when a player of it is in the game and everyone else in it
holds a ``plain`` card (no night action: the civilians). No black is then left (Laura gone over
plays black and holds no plain card), nor an active role (the chief, the detective, the doctor,
the maniac, Laura). Put it before red's win: it is checked first.
"""

from __future__ import annotations

import msgspec

from judge.game.book import Endgame as EndgameRow
from judge.game.book import Name
from judge.game.endgames.base import Endgame, count
from judge.game.state import Game


class JokerOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    plain: tuple[Name, ...] = ("civilian",)  # the cards without a night action


class Joker(Endgame):
    name = "joker"
    Options = JokerOptions

    def holds(self, game: Game, row: EndgameRow) -> bool:
        options: JokerOptions = row.options
        others = [s for s in game.alive if game.team(s) != row.team]
        return count(game, row.team) >= 1 and all(
            game.player(s).role in options.plain for s in others)


ENDGAME = Joker()
