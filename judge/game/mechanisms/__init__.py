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
from kit.i18n import Line

MECHANISMS: dict[str, Mechanism] = discover(__name__, __path__, "MECHANISM", Mechanism)


def mechanism(name: str) -> Mechanism:
    return MECHANISMS[name]


def used(book: Book) -> tuple[str, ...]:
    """Every mechanism the book uses: its steps', its roles' traits, its resolution's."""
    names = [s.mechanism for s in book.night.steps]
    return tuple(dict.fromkeys([*names, *stepless(book)]))


def stepless(book: Book) -> tuple[str, ...]:
    """The mechanisms the book uses that run no step: its roles' traits (the immortal) and
    those only its resolution names (the Crow Club's immunity, a player's, not a card's)."""
    steps = {s.mechanism for s in book.night.steps}
    names = [t for role in book.roles.values() for t in role.traits]
    names += list(book.night.resolution)
    return tuple(n for n in dict.fromkeys(names) if n not in steps)


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


def barred(game: Game, seat: int, action: str) -> Line | None:
    """Why a mechanism of the book forbids the day's ``action`` on ``seat`` now
    (``Mechanism.bars``: an immune player is not nominated on day 1), or ``None``."""
    for name in used(game.book):
        why = MECHANISMS[name].bars(game, seat, action) if name in MECHANISMS else None
        if why is not None:
            return why
    return None
