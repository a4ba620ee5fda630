"""The command registry: every command the table accepts, written down once (pure).

A command arrives as MQTT ``mafia/<table>/cmd/<verb>`` (``sim/<verb>`` on a simulated table)
with a JSON payload. ``COMMANDS`` maps each verb to what the rest of the code needs of it:

- ``payload``: the msgspec struct the payload decodes into (``controller.core.commands``); its
  field types and descriptions are also the published JSON Schema;
- ``handler``: the pure function that checks the decoded command against the table and returns
  the new state, the effects and the refusal (``controller.core.replies.Handler``);
- ``summary``: one line for the AsyncAPI document.

``dispatch`` runs a received command through its entry, and ``controller.asyncapi`` writes one
channel per entry (with its ``reply/<verb>`` channel), so a verb added here is both served and
documented, and one missing here is neither. Every command is answered exactly once, on
``reply/<verb>`` or the request's MQTT 5 response topic; none is retained.

One verb is the shell's: ``cmd/replay`` reads the event journal, which the core does not hold,
so its handler is None: the shell's intake hands every such verb to ``controller.shell.replay``
before the table sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

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
from controller.core.commands import (
    AudioCommand,
    DayStart,
    LightCommand,
    NightStepCommand,
    NominationWithdraw,
    PhaseCommand,
    ReplayCommand,
    RevealCommand,
    SeatsCommand,
    SimButtonCommand,
    SimKeysCommand,
    TimerAdd,
    TimerStart,
    VoteAction,
    VoteCorrect,
    VoteQuestion,
    VoteStart,
    parse,
    request_id,
)
from controller.core.effects import Effect
from controller.core.inputs import CommandReceived
from controller.core.replies import Handler, answer, reply

if TYPE_CHECKING:
    from controller.core.table import TableState

NOT_SIMULATED = "this table is not simulated (start it with --sim)"


@dataclass(frozen=True)
class Command:
    """One verb's entry. ``simulated`` commands (``sim/...``) drive a simulated table's hands:
    their verb is their whole topic, and a real table refuses them before reading the payload."""

    verb: str
    payload: type[msgspec.Struct]
    handler: Handler | None
    summary: str
    simulated: bool = False

    @property
    def topic(self) -> str:
        """The topic below ``mafia/<table>/``."""
        return self.verb if self.simulated else f"cmd/{self.verb}"


def _registry(*entries: Command) -> dict[str, Command]:
    registry: dict[str, Command] = {}
    for entry in entries:
        if entry.verb in registry:
            raise ValueError(f"command {entry.verb!r} registered twice")
        registry[entry.verb] = entry
    return registry


#: Every command, in the order the AsyncAPI document lists them.
COMMANDS: dict[str, Command] = _registry(
    Command("light", LightCommand, light_commands.set_lights,
            "Set seat lights. Answered on reply/light (or the MQTT 5 response topic)."),
    Command("replay", ReplayCommand, None,
            "Publish kept events after after_seq again, paced. Answered on reply/replay once the "
            "last of them is published, or with an error if the journal cannot read them."),
    Command("vote/start", VoteStart, vote_commands.start,
            "Start a day vote on the nominees, in nomination order."),
    Command("vote/question", VoteQuestion, vote_commands.start,
            "Start a yes/no question vote (one window; a press is yes)."),
    Command("vote/confirm", VoteAction, vote_commands.confirm,
            "The judge confirms the proposed count (as the station's Confirm)."),
    Command("vote/reject", VoteAction, vote_commands.reject,
            "The judge rejects the proposed count; the window runs again."),
    Command("vote/next", VoteAction, vote_commands.next_window,
            "Judge pacing: open the next window (as the station's Next)."),
    Command("vote/cancel", VoteAction, vote_commands.cancel, "Abandon the running vote."),
    Command("vote/correct", VoteCorrect, vote_commands.correct,
            "The judge's own count for the proposed candidate, with a reason; it becomes final."),
    Command("seats", SeatsCommand, standing_commands.set_standings,
            "Set seats' standing: in game or out, fouls (4 remove the player), silenced, "
            "immunity."),
    Command("timer/start", TimerStart, timer_commands.start,
            "A seat takes the floor for some seconds (speech, excuse, last words)."),
    Command("timer/pause", VoteAction, timer_commands.pause,
            "Pause the speech timer (the judge's Confirm too)."),
    Command("timer/resume", VoteAction, timer_commands.resume, "Resume it (Confirm again)."),
    Command("timer/stop", VoteAction, timer_commands.stop,
            "End the speech now (the judge's Next)."),
    Command("timer/add", TimerAdd, timer_commands.add,
            "More (or less) time for the speaker (the judge's Reject adds 10 s)."),
    Command("nomination/withdraw", NominationWithdraw, day_commands.withdraw,
            "Take back today's nomination of a seat."),
    Command("day/start", DayStart, day_commands.start,
            "A new game day: today's nominations start empty."),
    Command("phase", PhaseCommand, phase_commands.switch,
            "Night (public lights dark, night music fades in) or day (music fades out)."),
    Command("audio", AudioCommand, audio_commands.play,
            "The night music's volume or its next track; or a cue or a spoken number now."),
    Command("night/step", NightStepCommand, night_commands.open_step,
            "Open a night step for the seats that act (keypad entries, or presses while "
            "counting)."),
    Command("night/reveal", RevealCommand, night_commands.reveal,
            "Show a check result on one seat's private indicator."),
    Command("night/stop", VoteAction, night_commands.stop,
            "End the running night step now (its result is published)."),
    Command("sim/press", SimButtonCommand, sim_commands.press,
            "Simulated tables only (--sim): press a button's mock pin. Answered on "
            "reply/sim/press.", simulated=True),
    Command("sim/release", SimButtonCommand, sim_commands.release,
            "Simulated tables only (--sim): release it. Answered on reply/sim/release.",
            simulated=True),
    Command("sim/key", SimKeysCommand, sim_commands.type_keys,
            "Simulated tables only (--sim): type keys on a seat's emulated console keypad.",
            simulated=True),
)


def dispatch(state: TableState, cmd: CommandReceived) -> tuple[TableState, list[Effect]]:
    """Decode ``cmd`` by its verb's payload type and run its handler; always one reply.

    An unknown verb (or the shell's own, should it reach the table) and a simulator command on
    a real table are refused with the id the payload carries, if it has a readable one."""
    entry = COMMANDS.get(cmd.verb)
    if entry is None or entry.handler is None:
        return state, [reply(cmd, request_id(cmd.payload), f"unknown command {cmd.verb!r}")]
    if entry.simulated and not state.setup.simulated:
        return state, [reply(cmd, request_id(cmd.payload), NOT_SIMULATED)]
    return answer(state, cmd, parse(cmd.payload, entry.payload), entry.handler)
