"""Small helpers the command handlers share (pure)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.core.commands import Parsed
from controller.core.effects import Effect, Reply
from controller.core.inputs import CommandReceived
from controller.core.seats import seat_problem as seat_problem  # the handlers' check

if TYPE_CHECKING:
    from controller.core.table import TableState

#: a command handler: (state, parsed command, t) -> (new state, effects, error or None)
Handler = Callable[["TableState", Any, float], tuple["TableState", list[Effect], str | None]]


def reply(cmd: CommandReceived, id: str | None, error: str | None) -> Reply:
    return Reply(cmd.verb, id, error is None, error, cmd.response_topic, cmd.correlation)


def answer(state: TableState, cmd: CommandReceived, parsed: Parsed[Any],
           handler: Handler) -> tuple[TableState, list[Effect]]:
    """Run a parsed command through ``handler`` and reply: a malformed or refused command
    changes nothing and gets its error; an accepted one its effects, then ``ok``."""
    if parsed.value is None:
        return state, [reply(cmd, parsed.id, parsed.error)]
    new, effects, error = handler(state, parsed.value, cmd.t)
    if error is not None:
        return state, [reply(cmd, parsed.id, error)]
    return new, [*effects, reply(cmd, parsed.id, None)]
