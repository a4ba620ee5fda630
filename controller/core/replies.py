"""Small helpers the command handlers share (pure)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contract.commands import Parsed
from contract.inputs import CommandReceived
from controller.core.effects import Effect, Reply
from controller.core.state import TableState

#: what a command handler returns: the new state, its effects, and the refusal (None: accepted).
#: A refused command's state and effects are dropped by ``answer``; only its error is replied.
Outcome = tuple["TableState", list[Effect], str | None]
#: a command handler: (state, parsed command, t) -> Outcome
Handler = Callable[["TableState", Any, float], Outcome]


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
