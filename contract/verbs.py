"""Every command the table accepts, written down once: its verb, payload struct and summary.

A command arrives as MQTT ``mafia/<table>/cmd/<verb>`` (``sim/<verb>`` on a simulated table)
with a JSON payload. Each verb is one ``CommandSpec`` constant here (``LIGHT``, ``TIMER_START``,
``VOTE_CONFIRM``...), typed by its payload struct, and ``COMMANDS`` maps each verb to what every
party needs of it:

- ``payload``: the msgspec struct the payload decodes into (``contract.commands``); its field
  types and descriptions are also the published JSON Schema;
- ``summary``: one line for the AsyncAPI document;
- ``simulated``: a ``sim/...`` verb, which only a simulated table serves.

The table serves them (``controller.core.registry`` keeps each verb's handler, keyed to these
verbs, and a test holds the two to the same set) and ``controller.asyncapi`` writes one channel
per entry (with its ``reply/<verb>`` channel), so a verb added here is both documented and, once
it has a handler, served. Every command is answered exactly once, on ``reply/<verb>`` or the
request's MQTT 5 response topic; none is retained.

A client says what it sends as a ``TableCommand``: a verb's spec with its payload struct, the
one tied to the other's type, so a wrong field or the wrong struct for a verb fails mypy rather
than coming back as a refusal; it publishes ``contract.commands.encode(command.stamped(id))``
on ``command.spec.topic``. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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
    Stamped,
    TimerAdd,
    TimerStart,
    VoteAction,
    VoteCorrect,
    VoteQuestion,
    VoteStart,
)

P = TypeVar("P", bound=Stamped)


@dataclass(frozen=True)
class CommandSpec(Generic[P]):
    """One verb and the struct ``P`` its payload is. ``simulated`` commands (``sim/...``) drive
    a simulated table's hands: their verb is their whole topic, and a real table refuses them
    before reading the payload."""

    verb: str
    payload: type[P]
    summary: str
    simulated: bool = False

    @property
    def topic(self) -> str:
        """The topic below ``mafia/<table>/``."""
        return self.verb if self.simulated else f"cmd/{self.verb}"


#: The ``id`` of a command not sent yet. Every payload needs an id chosen by its sender (the
#: table echoes it in the reply), but the one who decides a command is not always the one who
#: sends it: the judge's pure game core decides, and has no counter, clock or run of its own to
#: draw ids from. So the decider builds the payload with ``id=UNSTAMPED`` and the sender stamps
#: a fresh id as it publishes (``TableCommand.stamped``). The command stays a plain value: the
#: core's tests compare it field for field, and the id is chosen where the replies are matched.
#: Empty, so a command sent unstamped is refused by the table (an id has a character at least),
#: never run under an id nobody waits for.
UNSTAMPED = ""


@dataclass(frozen=True)
class TableCommand(Generic[P]):
    """One command for the table: the verb's spec and its payload, ``P`` the same for both, so
    ``TableCommand(PHASE, PhaseCommand(...))`` type-checks and ``TableCommand(PHASE,
    TimerStart(...))`` does not. The payload's ``id`` is ``UNSTAMPED`` until ``stamped``."""

    spec: CommandSpec[P]
    payload: P

    def stamped(self, id: str) -> P:
        """The payload as sent, with the sender's ``id`` in it."""
        return msgspec.structs.replace(self.payload, id=id)


def bare_command(spec: CommandSpec[VoteAction]) -> TableCommand[VoteAction]:
    """A command that carries nothing but its id (``vote/confirm``, ``timer/stop``,
    ``night/stop``...), unstamped."""
    return TableCommand(spec, VoteAction(id=UNSTAMPED))


def _catalog(*specs: CommandSpec[Any]) -> dict[str, CommandSpec[Any]]:
    catalog: dict[str, CommandSpec[Any]] = {}
    for spec in specs:
        if spec.verb in catalog:
            raise ValueError(f"command {spec.verb!r} registered twice")
        catalog[spec.verb] = spec
    return catalog


LIGHT = CommandSpec("light", LightCommand,
                    "Set seat lights. Answered on reply/light (or the MQTT 5 response topic).")
REPLAY = CommandSpec("replay", ReplayCommand,
                     "Publish kept events after after_seq again, paced. Answered on reply/replay "
                     "once the last of them is published, or with an error if the journal cannot "
                     "read them.")
VOTE_START = CommandSpec("vote/start", VoteStart,
                         "Start a day vote on the nominees, in nomination order.")
VOTE_QUESTION = CommandSpec("vote/question", VoteQuestion,
                            "Start a yes/no question vote (one window; a press is yes).")
VOTE_CONFIRM = CommandSpec("vote/confirm", VoteAction,
                           "The judge confirms the proposed count (as the station's Confirm).")
VOTE_REJECT = CommandSpec("vote/reject", VoteAction,
                          "The judge rejects the proposed count; the window runs again.")
VOTE_NEXT = CommandSpec("vote/next", VoteAction,
                        "Judge pacing: open the next window (as the station's Next).")
VOTE_CANCEL = CommandSpec("vote/cancel", VoteAction, "Abandon the running vote.")
VOTE_CORRECT = CommandSpec("vote/correct", VoteCorrect,
                           "The judge's own count for the proposed candidate, with a reason; it "
                           "becomes final.")
SEATS = CommandSpec("seats", SeatsCommand,
                    "Set seats' standing: in game or out, fouls (4 remove the player), silenced, "
                    "immunity.")
TIMER_START = CommandSpec("timer/start", TimerStart,
                          "A seat takes the floor for some seconds (speech, excuse, last words).")
TIMER_PAUSE = CommandSpec("timer/pause", VoteAction,
                          "Pause the speech timer (the judge's Confirm too).")
TIMER_RESUME = CommandSpec("timer/resume", VoteAction, "Resume it (Confirm again).")
TIMER_STOP = CommandSpec("timer/stop", VoteAction, "End the speech now (the judge's Next).")
TIMER_ADD = CommandSpec("timer/add", TimerAdd,
                        "More (or less) time for the speaker (the judge's Reject adds 10 s).")
NOMINATION_WITHDRAW = CommandSpec("nomination/withdraw", NominationWithdraw,
                                  "Take back today's nomination of a seat.")
DAY_START = CommandSpec("day/start", DayStart, "A new game day: today's nominations start empty.")
PHASE = CommandSpec("phase", PhaseCommand,
                    "Night (public lights dark, night music fades in) or day (music fades out).")
AUDIO = CommandSpec("audio", AudioCommand,
                    "The night music's volume or its next track; a cue or a spoken number now; "
                    "or the language the table speaks.")
NIGHT_STEP = CommandSpec("night/step", NightStepCommand,
                         "Open a night step for the seats that act (keypad entries, or presses "
                         "while counting).")
NIGHT_REVEAL = CommandSpec("night/reveal", RevealCommand,
                           "Show a check result on one seat's private indicator.")
NIGHT_STOP = CommandSpec("night/stop", VoteAction,
                         "End the running night step now (its result is published).")
SIM_PRESS = CommandSpec("sim/press", SimButtonCommand,
                        "Simulated tables only (--sim): press a button's mock pin. Answered on "
                        "reply/sim/press.", simulated=True)
SIM_RELEASE = CommandSpec("sim/release", SimButtonCommand,
                          "Simulated tables only (--sim): release it. Answered on "
                          "reply/sim/release.", simulated=True)
SIM_KEY = CommandSpec("sim/key", SimKeysCommand,
                      "Simulated tables only (--sim): type keys on a seat's emulated console "
                      "keypad.", simulated=True)

#: Every command, in the order the AsyncAPI document lists them.
COMMANDS: dict[str, CommandSpec[Any]] = _catalog(
    LIGHT, REPLAY, VOTE_START, VOTE_QUESTION, VOTE_CONFIRM, VOTE_REJECT, VOTE_NEXT, VOTE_CANCEL,
    VOTE_CORRECT, SEATS, TIMER_START, TIMER_PAUSE, TIMER_RESUME, TIMER_STOP, TIMER_ADD,
    NOMINATION_WITHDRAW, DAY_START, PHASE, AUDIO, NIGHT_STEP, NIGHT_REVEAL, NIGHT_STOP, SIM_PRESS,
    SIM_RELEASE, SIM_KEY,
)
