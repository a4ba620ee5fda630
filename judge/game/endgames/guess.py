"""The «угадайка» (the Crow Club's «Угадайкой называется…»): "момент когда за столом остаётся 3
человека. Это конец игры и от исхода угадайки зависит то, какая команда победила"; and the
maniac's win it ends in, «Победа маньяка»: "выигрывает тогда, когда остается 1х1 с кем то на
"угадайке", даже если маньяк остался 1х1 с черным".

- With ``at`` (3) players left and no win, no night is played: the day ends and a new one
  begins (``at_nightfall``); the book's vote procedure votes all of them then (``fork_top``:
  no nominations, level votes spoken for and voted again, never the question).
- The row's side wins when at most two are left and one of them is of it (``holds``: the
  maniac one on one, with anyone). When the two left hold none of it, the other rows decide
  (a black among them: parity; two reds: no black and no maniac left).

``rule`` (the options') is what the day without a night cites; the row's own ``rule`` the win.
"""

from __future__ import annotations

import msgspec

from judge.game.book import Cite
from judge.game.book import Endgame as EndgameRow
from judge.game.endgames.base import Dusk
from judge.game.endgames.last_two import LastTwo
from judge.game.state import Game
from kit.i18n import Line


class GuessOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    rule: Cite
    at: int = 3


class Guess(LastTwo):
    name = "guess"
    Options = GuessOptions

    def at_nightfall(self, game: Game, row: EndgameRow) -> Dusk | None:
        options: GuessOptions = row.options
        if len(game.alive) != options.at:
            return None
        return Dusk(False, Line(options.rule, "line.guess", seats=list(game.alive)))


ENDGAME = Guess()
