"""The day's vote procedures, one module each: ``PROCEDURES`` maps a book's ``[vote] procedure``
to it. Adding one is adding a module (docs/judge-engine.md)."""

from __future__ import annotations

from judge.game.discovery import discover
from judge.game.state import Game
from judge.game.votes.base import Procedure

PROCEDURES: dict[str, Procedure] = discover(__name__, __path__, "PROCEDURE", Procedure)


def procedure(game: Game) -> Procedure:
    """The procedure of the game's book."""
    return PROCEDURES[game.book.vote.procedure]
