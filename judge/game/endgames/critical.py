"""«Критика» (the Crow Club's «Критикой называется…»): "Момент когда до критики ещё остается 1
человек - называется полукритикой. Пример: 4 мафии, 6 мирных жителей. - В этом случае при
поднятии мирного жителя и при отсутствии за столом маньяков, ночь не наступает." The digest's
reading: the night would give the blacks their parity, so they win without it.

At a day's end (``at_nightfall``), with none of the ``without`` sides in the game (the maniacs:
"Если за столом есть команда маньяков … ночь наступит, и отстрел маньяка решит исход игры")
and more than ``above`` players (three are the «угадайка»), when the ``of`` sides are exactly
``gap`` more than the row's side, the row's side wins. The book weighs no doctor or immortal
here, and neither does this. After a removal it never holds: parity is another row's.
"""

from __future__ import annotations

import msgspec

from judge.game.book import Endgame as EndgameRow
from judge.game.book import Name
from judge.game.endgames.base import Dusk, Endgame, count
from judge.game.state import Game
from kit.i18n import Line


class CriticalOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    of: tuple[Name, ...]  # the sides the row's side is one short of
    without: tuple[Name, ...] = ()
    above: int = 3
    gap: int = 1


class Critical(Endgame):
    name = "critical"
    Options = CriticalOptions

    def holds(self, game: Game, row: EndgameRow) -> bool:
        return False

    def at_nightfall(self, game: Game, row: EndgameRow) -> Dusk | None:
        options: CriticalOptions = row.options
        ours, theirs = count(game, row.team), count(game, *options.of)
        if count(game, *options.without) or len(game.alive) <= options.above \
                or ours == 0 or theirs != ours + options.gap:
            return None
        return Dusk(True, Line(row.rule, "line.critical", ours=ours, theirs=theirs))


ENDGAME = Critical()
