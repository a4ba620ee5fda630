"""Every command the table accepts, written down once: its verb, payload struct and summary.

A command arrives as MQTT ``mafia/<table>/cmd/<verb>`` (``sim/<verb>`` on a simulated table)
with a JSON payload. ``COMMANDS`` maps each verb to what every party needs of it:

- ``payload``: the msgspec struct the payload decodes into (``contract.commands``); its field
  types and descriptions are also the published JSON Schema, and a client builds its command
  as that struct and sends ``contract.commands.encode(command)``;
- ``summary``: one line for the AsyncAPI document;
- ``simulated``: a ``sim/...`` verb, which only a simulated table serves.

The table serves them (``controller.core.registry`` keeps each verb's handler, keyed to these
verbs, and a test holds the two to the same set) and ``controller.asyncapi`` writes one channel
per entry (with its ``reply/<verb>`` channel), so a verb added here is both documented and, once
it has a handler, served. Every command is answered exactly once, on ``reply/<verb>`` or the
request's MQTT 5 response topic; none is retained. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from contract.commands import (
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
)


@dataclass(frozen=True)
class CommandSpec:
    """One verb. ``simulated`` commands (``sim/...``) drive a simulated table's hands: their
    verb is their whole topic, and a real table refuses them before reading the payload."""

    verb: str
    payload: type[msgspec.Struct]
    summary: str
    simulated: bool = False

    @property
    def topic(self) -> str:
        """The topic below ``mafia/<table>/``."""
        return self.verb if self.simulated else f"cmd/{self.verb}"


def _catalog(*specs: CommandSpec) -> dict[str, CommandSpec]:
    catalog: dict[str, CommandSpec] = {}
    for spec in specs:
        if spec.verb in catalog:
            raise ValueError(f"command {spec.verb!r} registered twice")
        catalog[spec.verb] = spec
    return catalog


#: Every command, in the order the AsyncAPI document lists them.
COMMANDS: dict[str, CommandSpec] = _catalog(
    CommandSpec("light", LightCommand,
                "Set seat lights. Answered on reply/light (or the MQTT 5 response topic)."),
    CommandSpec("replay", ReplayCommand,
                "Publish kept events after after_seq again, paced. Answered on reply/replay once "
                "the last of them is published, or with an error if the journal cannot read "
                "them."),
    CommandSpec("vote/start", VoteStart,
                "Start a day vote on the nominees, in nomination order."),
    CommandSpec("vote/question", VoteQuestion,
                "Start a yes/no question vote (one window; a press is yes)."),
    CommandSpec("vote/confirm", VoteAction,
                "The judge confirms the proposed count (as the station's Confirm)."),
    CommandSpec("vote/reject", VoteAction,
                "The judge rejects the proposed count; the window runs again."),
    CommandSpec("vote/next", VoteAction,
                "Judge pacing: open the next window (as the station's Next)."),
    CommandSpec("vote/cancel", VoteAction, "Abandon the running vote."),
    CommandSpec("vote/correct", VoteCorrect,
                "The judge's own count for the proposed candidate, with a reason; it becomes "
                "final."),
    CommandSpec("seats", SeatsCommand,
                "Set seats' standing: in game or out, fouls (4 remove the player), silenced, "
                "immunity."),
    CommandSpec("timer/start", TimerStart,
                "A seat takes the floor for some seconds (speech, excuse, last words)."),
    CommandSpec("timer/pause", VoteAction,
                "Pause the speech timer (the judge's Confirm too)."),
    CommandSpec("timer/resume", VoteAction, "Resume it (Confirm again)."),
    CommandSpec("timer/stop", VoteAction, "End the speech now (the judge's Next)."),
    CommandSpec("timer/add", TimerAdd,
                "More (or less) time for the speaker (the judge's Reject adds 10 s)."),
    CommandSpec("nomination/withdraw", NominationWithdraw,
                "Take back today's nomination of a seat."),
    CommandSpec("day/start", DayStart, "A new game day: today's nominations start empty."),
    CommandSpec("phase", PhaseCommand,
                "Night (public lights dark, night music fades in) or day (music fades out)."),
    CommandSpec("audio", AudioCommand,
                "The night music's volume or its next track; or a cue or a spoken number now."),
    CommandSpec("night/step", NightStepCommand,
                "Open a night step for the seats that act (keypad entries, or presses while "
                "counting)."),
    CommandSpec("night/reveal", RevealCommand,
                "Show a check result on one seat's private indicator."),
    CommandSpec("night/stop", VoteAction,
                "End the running night step now (its result is published)."),
    CommandSpec("sim/press", SimButtonCommand,
                "Simulated tables only (--sim): press a button's mock pin. Answered on "
                "reply/sim/press.", simulated=True),
    CommandSpec("sim/release", SimButtonCommand,
                "Simulated tables only (--sim): release it. Answered on reply/sim/release.",
                simulated=True),
    CommandSpec("sim/key", SimKeysCommand,
                "Simulated tables only (--sim): type keys on a seat's emulated console keypad.",
                simulated=True),
)
