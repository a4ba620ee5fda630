"""The table kept across a restart: saved on every change, read back at start.

The core hands the shell ``PublishState`` (the whole table, the retained ``state`` document) and
``PersistSession`` (the running vote and the night's step) whenever they change; ``save_state``
and ``save_session`` keep them in the journal under the keys of ``controller.stored_state.SAVED``.
At start ``restored_state`` turns them back into the core's ``TableState``, if they fit this
table; anything unreadable is logged and left out, and the table starts afresh rather than
refusing to start.
"""

from __future__ import annotations

import logging

import msgspec

from contract import api
from contract.lights import Light, LightMode
from controller.config import Config
from controller.core.day import Day, Nomination
from controller.core.night import NightStep
from controller.core.scene import Standing
from controller.core.state import TableSetup, TableState, initial_state
from controller.core.timer import SpeechTimer
from controller.core.vote import VoteSession
from controller.journal import Journal
from controller.stored_state import NIGHT_STEP, SESSION, STATE

log = logging.getLogger(__name__)


def save_state(store: Journal, document: bytes) -> None:
    """Keep the ``state`` document (as published) for the next start."""
    store.save(STATE, document)


def save_session(store: Journal, session: VoteSession | None, night_step: NightStep | None) -> None:
    """Keep the running vote and the night's step (None: there is none) for the next start."""
    store.save(SESSION, msgspec.json.encode(session))
    store.save(NIGHT_STEP, msgspec.json.encode(night_step))


def restored_state(store: Journal, config: Config, setup: TableSetup) -> TableState:
    """The table as it was before a restart (manual lights, standings, today's nominations, the
    running vote), if the saved state fits this table; else a new one."""
    session = _saved_session(store)
    saved = store.load(STATE)
    if saved is None:
        return initial_state(setup, session=session)
    try:
        state = msgspec.json.decode(saved, type=api.State)
    except msgspec.ValidationError as exc:
        log.warning("saved table state not used (%s); starting afresh", exc)
        return initial_state(setup, session=session)
    if state.table != config.table or len(state.seats) != config.seats:
        log.warning("saved table state is for another table layout; starting afresh")
        return initial_state(setup, session=session)
    log.info("table state restored from %s", store.path)
    return initial_state(
        setup,
        lights=tuple(None if s.manual is None else Light(LightMode(s.manual.mode),
                                                           s.manual.color)
                     for s in state.seats),
        session=session,
        standings=tuple(Standing(**msgspec.structs.asdict(s.standing)) for s in state.seats),
        today=Day(number=state.day,
                  nominations=tuple(Nomination(n.by, n.seat) for n in state.nominations),
                  nominators=tuple(n.by for n in state.nominations)),
        # a timer that ran when the controller went down: Boot reports it stopped
        night=state.phase == "night",
        night_step=_saved_night_step(store),
        interrupted=None if state.timer is None else SpeechTimer(
            id=state.timer.id, seat=state.timer.seat, kind=state.timer.kind,
            duration=state.timer.duration_ms / 1000, ends_at=None, left=0.0))


def _saved_session(store: Journal) -> VoteSession | None:
    """The vote that was running before a restart, to be resumed (see ``vote.resume``)."""
    saved = store.load(SESSION)
    if saved is None:
        return None
    try:
        session = msgspec.json.decode(saved, type=VoteSession | None)
    except msgspec.ValidationError as exc:
        log.error("saved vote session unreadable (%s); it is dropped", exc)
        return None
    if session is not None:
        log.warning("resuming vote session %r, interrupted by a restart", session.id)
    return session


def _saved_night_step(store: Journal) -> NightStep | None:
    saved = store.load(NIGHT_STEP)
    if saved is None:
        return None
    try:
        return msgspec.json.decode(saved, type=NightStep | None)
    except msgspec.ValidationError as exc:
        log.error("saved night step unreadable (%s); dropped", exc)
        return None
