"""The immortal's trait (the Crow Club's «Бессмертный»): no night takes him out. "Убрать его
со стола можно только во время дневного голосования или по фоллам": every ``dies`` fate the
night gives a holder (the shot, the maniac's kill, the poison, the paranoid's take-along) is
taken back, and the morning says nothing of it (a shot at him reads as a plain miss: "он лишает
мирный город возможности промаха у мафии"). A trait: the roles that carry it list it in their
``traits``, and it settles after every night death in the book's ``[night] resolution``.
"""  # noqa: RUF002 (the book's Russian, quoted)

from __future__ import annotations

from judge.game.mechanisms.base import Fate, Mechanism
from judge.game.state import Act, Game


class Immortal(Mechanism):
    name = "immortal"

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        roles = [name for name, role in game.book.roles.items() if self.name in role.traits]
        holders = set(game.with_role(*roles))
        return tuple(f for f in fates if not (f.what == "dies" and f.seat in holders))


MECHANISM = Immortal()
