"""The night's mechanisms, one module each: ``MECHANISMS`` maps a book step's ``mechanism`` to it.

Every module of this folder but ``base`` defines ``MECHANISM``, an instance of a
``base.Mechanism`` subclass; adding a mechanism is adding a module (docs/judge-engine.md). The
modules are found when this package is imported, so two people adding one each never edit the
same line. ``settle_night`` settles tonight's acts in the book's resolution order.
"""

from __future__ import annotations

from judge.game.book import Book
from judge.game.discovery import discover
from judge.game.mechanisms.base import Fate, Mechanism
from judge.game.state import Game

MECHANISMS: dict[str, Mechanism] = discover(__name__, __path__, "MECHANISM", Mechanism)


def mechanism(name: str) -> Mechanism:
    return MECHANISMS[name]


def used(book: Book) -> tuple[str, ...]:
    """Every mechanism the book uses: its steps' and its roles' traits."""
    names = [s.mechanism for s in book.night.steps]
    names += [t for role in book.roles.values() for t in role.traits]
    return tuple(dict.fromkeys(names))


def settle_night(game: Game) -> tuple[Fate, ...]:
    """Tonight's fates so far: each mechanism of the book's ``[night] resolution`` settles
    tonight's acts in turn (a mechanism the order leaves out settles after the others, in
    wake order)."""
    tonight = tuple(a for a in game.acts if a.night == game.night)
    order = list(game.book.night.resolution)
    order += [m for m in used(game.book) if m not in order]
    fates: tuple[Fate, ...] = ()
    for name in order:
        if name in MECHANISMS:  # an unbuilt one's book plays no game
            fates = MECHANISMS[name].settle(game, tonight, fates)
    return fates


def dying(fates: tuple[Fate, ...]) -> tuple[int, ...]:
    """The seats the night's fates take out, each once, in the order they came."""
    return tuple(dict.fromkeys(f.seat for f in fates if f.what == "dies"))
