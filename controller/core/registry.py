"""The table's command handlers, keyed to the contract's verbs (pure).

Every command the table accepts is written down once, in ``contract.verbs.COMMANDS`` (its
verb, payload struct and summary). ``HANDLERS`` gives each of those verbs its pure handler: the
function that checks the decoded command against the table and returns the new state, the
effects and the refusal (``controller.core.replies.Handler``). ``dispatch`` decodes a received
command by its verb's payload struct and runs the handler;
``tests/controller/core/test_registry.py`` holds ``HANDLERS`` and ``COMMANDS`` to the same verbs.

One verb is the shell's: ``cmd/replay`` reads the event journal, which the core does not hold,
so it has no handler here: the shell's intake hands it to ``controller.shell.replay`` before the
table sees it.
"""

from __future__ import annotations

from contract.commands import parse, request_id
from contract.inputs import CommandReceived
from contract.verbs import COMMANDS
from controller.core import (
    audio_commands,
    day_commands,
    light_commands,
    night_commands,
    phase_commands,
    sim_commands,
    standing_commands,
    timer_commands,
    vote_commands,
)
from controller.core.effects import Effect
from controller.core.replies import Handler, answer, reply
from controller.core.state import TableState

NOT_SIMULATED = "this table is not simulated (start it with --sim)"

#: verb (``contract.verbs.COMMANDS``) -> its handler; every verb but the shell's ``replay``
HANDLERS: dict[str, Handler] = {
    "light": light_commands.set_lights,
    "vote/start": vote_commands.start,
    "vote/question": vote_commands.start,
    "vote/confirm": vote_commands.confirm,
    "vote/reject": vote_commands.reject,
    "vote/next": vote_commands.next_window,
    "vote/cancel": vote_commands.cancel,
    "vote/correct": vote_commands.correct,
    "seats": standing_commands.set_standings,
    "timer/start": timer_commands.start,
    "timer/pause": timer_commands.pause,
    "timer/resume": timer_commands.resume,
    "timer/stop": timer_commands.stop,
    "timer/add": timer_commands.add,
    "nomination/withdraw": day_commands.withdraw,
    "day/start": day_commands.start,
    "phase": phase_commands.switch,
    "audio": audio_commands.play,
    "night/step": night_commands.open_step,
    "night/reveal": night_commands.reveal,
    "night/stop": night_commands.stop,
    "sim/press": sim_commands.press,
    "sim/release": sim_commands.release,
    "sim/key": sim_commands.type_keys,
}


def dispatch(state: TableState, cmd: CommandReceived) -> tuple[TableState, list[Effect]]:
    """Decode ``cmd`` by its verb's payload type and run its handler; always one reply.

    An unknown verb (or the shell's own, should it reach the table) and a simulator command on
    a real table are refused with the id the payload carries, if it has a readable one."""
    spec, handler = COMMANDS.get(cmd.verb), HANDLERS.get(cmd.verb)
    if spec is None or handler is None:
        return state, [reply(cmd, request_id(cmd.payload), f"unknown command {cmd.verb!r}")]
    if spec.simulated and not state.setup.simulated:
        return state, [reply(cmd, request_id(cmd.payload), NOT_SIMULATED)]
    return answer(state, cmd, parse(cmd.payload, spec.payload), handler)
