"""The win conditions, one module each: ``ENDGAMES`` maps a book's ``[[endgames]] kind`` to it.
Adding one is adding a module (docs/judge-engine.md)."""

from __future__ import annotations

from judge.game.discovery import discover
from judge.game.endgames.base import Endgame

ENDGAMES: dict[str, Endgame] = discover(__name__, __path__, "ENDGAME", Endgame)
