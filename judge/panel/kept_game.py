"""The game being played, kept: the core's game and its record lines, and the journal they come
back from.

The core (``judge.game``) is pure and deterministic, so the panel keeps the game's inputs, not its
states: ``apply`` journals each input that changes the game (``judge.panel.journal``) before the
core's commands for it are sent, so no command leaves for a decision the journal could forget;
and a panel started again replays the journal and stands exactly where it stood, record lines
included. ``history`` plays it again for whoever needs the game at every step (the overlay).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from contract.verbs import TableCommand
from judge.game import Action, Game, Refused, Replayed, TableEvent, replay, step
from judge.panel.journal import Journal
from kit.i18n import Line

log = logging.getLogger("judge")
#: the record lines kept for the judge's page (the whole record is the journal's)
LINES = 200


def _refused_on_replay(given: Action | TableEvent, exc: Refused) -> None:
    # cannot happen with a journal this code wrote
    log.error("journal input %s refused on replay: %s", given, exc)


class KeptGame:
    """The game being played (``game``), its latest record lines (``lines``), kept in
    ``journal``: the one object that moves the game on. ``fresh`` makes a new game of the
    panel's book (``JudgeConfig.new_game``)."""

    def __init__(self, journal: Journal, fresh: Callable[[], Game]):
        self.journal, self.fresh = journal, fresh
        self.game, self.lines = fresh(), deque[Line](maxlen=LINES)
        for replayed in self._replayed():
            self.game = replayed.game
            self.lines.extend(replayed.records)

    def apply(self, given: Action | TableEvent, now: float) -> list[TableCommand[Any]] | None:
        """One input at wall time ``now``: the core decides, the journal keeps the input, and
        the core's commands for it are returned, for the table. None when the input changed
        nothing (it is not journalled); ``Refused`` goes to the caller with nothing changed."""
        game, commands, records = step(self.game, given, now)
        if game is self.game:
            return None
        self.journal.append(given, now)
        self.game = game
        self.lines.extend(records)
        return commands

    def history(self) -> Iterator[Game]:
        """The game after each input of the journal, in order, up to the game now."""
        return (replayed.game for replayed in self._replayed())

    def start_over(self) -> None:
        """A fresh game: the journal's inputs go (the table's ``seq`` stays)."""
        self.journal.clear()
        self.game, self.lines = self.fresh(), deque(maxlen=LINES)

    def _replayed(self) -> Iterator[Replayed]:
        return replay(self.fresh(), self.journal.inputs(), _refused_on_replay)
