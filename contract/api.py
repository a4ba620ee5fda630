"""The MQTT API's payloads as types: what the controller publishes and what it accepts.

These msgspec structs are the single source of truth. ``controller.messages`` builds every
outgoing payload through them (so a message that does not fit its type is a bug caught at the
source), a client decodes them with the same types, and ``controller.asyncapi`` writes
``docs/asyncapi.yaml`` from them. Field descriptions here become the documentation. What the
controller accepts is in ``contract.verbs``: each verb's payload struct (``contract.commands``),
which the table decodes with and the document describes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, TypeVar, cast

import msgspec

from contract import events
from contract.commands import Color, Voice
from contract.events import (
    Candidate,
    Event,
    NightPickList,
    Seat,
    Stage,
    StandingState,
    TimerKind,
    TimerSeat,
    VoteAnomaly,
    VoteCount,
)

SCHEMA_VERSION: Final = 1

Version = Annotated[Literal[1], msgspec.Meta(description="Schema major version.")]
Timestamp = Annotated[str, msgspec.Meta(
    pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$(?!\n)",
    description="UTC ISO-8601 to the millisecond. For events: the time of the hardware edge.",
    examples=["2026-11-29T21:22:15.481Z"],
)]


class _Payload(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    v: Version
    ts: Timestamp


class Status(_Payload):
    """``status`` (retained; also the last will, with ``state: offline``)."""

    state: Literal["online", "offline"]
    version: Annotated[str, msgspec.Meta(description="Controller package version.")]
    boot_id: Annotated[str, msgspec.Meta(
        description="New at every start of the service: a change means it restarted.")]


class LightState(msgspec.Struct, forbid_unknown_fields=True):
    mode: Literal["off", "on", "dim", "blink", "fast_blink"]
    color: Annotated[Color | None, msgspec.Meta(description="#rrggbb, or null for white.")]


class SeatState(msgspec.Struct, forbid_unknown_fields=True):
    seat: Seat
    light: Annotated[LightState, msgspec.Meta(description="What the seat shows now.")]
    manual: Annotated[LightState | None, msgspec.Meta(
        description="What cmd/light set for it; null: the table's scene decides.")]
    standing: StandingState


class NominationState(msgspec.Struct, forbid_unknown_fields=True):
    by: Seat
    seat: Seat




class TimerState(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    seat: TimerSeat
    kind: TimerKind
    running: bool
    duration_ms: int




class VoteSummary(msgspec.Struct, forbid_unknown_fields=True):
    """The running vote as ``state`` shows it."""

    id: str
    kind: Literal["nominees", "question"]
    candidates: list[Candidate]
    candidate: Annotated[Candidate, msgspec.Meta(description="The one being voted on now.")]
    attempt: int
    stage: Annotated[Stage, msgspec.Meta(
        description="waiting for its window, window open, or count proposed to the judge")]
    confirmed: list[VoteCount]


#: a rule preset's name: its file's, without the folder and ``.toml`` (``config/rules/fiim.toml``)
PresetName = Annotated[str, msgspec.Meta(min_length=1, max_length=255)]


class State(_Payload):
    """``state`` (retained): the whole table, republished after every change and reconnect.
    The lights are what the seats show: during a vote, the candidate blinks and, once the count
    is proposed, the seats that voted for it are lit for the judge."""

    table: str
    phase: Literal["idle", "vote", "night"]
    seats: list[SeatState]
    vote: VoteSummary | None
    day: Annotated[int, msgspec.Meta(ge=0, description="From cmd/day/start; 0 before.")]
    nominations: Annotated[list[NominationState], msgspec.Meta(
        description="Today's accepted nominations, in order.")]
    timer: TimerState | None
    voice: Annotated[Voice, msgspec.Meta(
        description="The language the table speaks: its [music] voice until a cmd/audio "
                    "gives one.")] = "ru"
    rules: Annotated[PresetName | None, msgspec.Meta(
        description="The rule preset the table plays: its config's rules file without its "
                    "folder and .toml (rules = \"rules/fiim.toml\": fiim); null when the "
                    "config names none (the table's own defaults, FIIM's readings). A judge's "
                    "rule book names the preset it needs (its table_preset), and the judge's "
                    "panel starts no game on a table that plays another (docs/judge.md).")] \
        = None


class OutboxHealth(msgspec.Struct, forbid_unknown_fields=True):
    depth: Annotated[int, msgspec.Meta(
        ge=0, description="Events stored and not yet acknowledged by the broker.")]
    limit: Annotated[int, msgspec.Meta(ge=1, description="Depth above which over_limit is set.")]
    over_limit: Annotated[bool, msgspec.Meta(
        description="The outbox holds more than its limit: the broker has been away too long. "
                    "Nothing is dropped; events keep being stored on disk.")]


# The host's session of each port keeps one and updates it as the conversation goes
# (firmware_bridge.session); health publishes a copy.
class ConsoleHealth(msgspec.Struct, forbid_unknown_fields=True):
    """One configured console port."""

    port: str
    seats: list[Seat]
    online: bool
    refused: Annotated[str | None, msgspec.Meta(
        description="Why the controller will not talk to it (e.g. an unknown protocol major).")]
    firmware: str | None
    unique_id: str | None
    boot_id: int | None
    rtt_ms: Annotated[float | None, msgspec.Meta(
        description="Best PING/PONG round trip: console times are mapped within half of it.")]
    clock_offset_ms: Annotated[float | None, msgspec.Meta(
        description="Host monotonic clock minus the console clock, by that best sample.")]
    counts: Annotated[dict[str, int], msgspec.Meta(
        description="Since this controller started (health's boot_id), by kind: frames "
                    "dropped (bad_crc, bad_cobs, short, oversize, bad_version), events "
                    "bad_event (damaged), before_welcome, out_of_order, duplicates, "
                    "foreign_seat (for a seat not its own), ignored_event; docs/protocol.md.")]


#: how ``AudioHealth.problems`` says the machine has no sound device at all (no sound card, a
#: simulated table on a server); ``sound`` tells this from a speaker fault by it
NO_SOUND_DEVICE = "no sound device"

#: the speaker in a word (``sound``)
Sound = Literal["ok", "off", "silent", "fault"]


def sound(health: Mapping[str, Any] | None) -> Sound | None:
    """The speaker in a word from a ``health`` document (as JSON data), for the judge's panel
    and the hall board alike: ``off`` (its sound is off by its configuration, ``backends.audio
    = "off"``), ``silent`` (a simulated table, ``gpio`` ``mock``, on a machine with no sound
    device: nothing to fix, the simulation plays on without sound), ``fault`` (a speaker that
    should sound and does not: a real table's missing sound device is one), ``ok``; ``None``
    before the table says."""
    audio = (health or {}).get("audio")
    if not isinstance(audio, Mapping):
        return None
    if audio.get("backend") == "off":
        return "off"
    if audio.get("ok"):
        return "ok"
    problems = [str(p) for p in audio.get("problems") or []]
    simulated = (health or {}).get("gpio") == "mock"
    if simulated and problems and all(p.startswith(NO_SOUND_DEVICE) for p in problems):
        return "silent"
    return "fault"


class AudioHealth(msgspec.Struct, forbid_unknown_fields=True):
    backend: Literal["sdl", "disk", "off"]
    ok: bool
    problems: Annotated[list[str], msgspec.Meta(
        description="No sound device (a problem beginning with NO_SOUND_DEVICE), an unusable "
                    "sound file...: the game goes on silent.")]


class StripHealth(msgspec.Struct, forbid_unknown_fields=True):
    """The seat lights' LED strip (``[strip]``)."""

    backend: Literal["spidev", "mock"]
    leds: int
    write_errors: Annotated[int, msgspec.Meta(
        ge=0, description="SPI writes that failed since the start (each is tried again a "
                          "second later, or with the next change of the picture).")]


class ExpanderHealth(msgspec.Struct, forbid_unknown_fields=True):
    """The MCP23017 button expanders (``[expanders]``)."""

    backend: Literal["smbus2", "mock"]
    chips: Annotated[list[int], msgspec.Meta(description="The chips' I2C addresses.")]
    read_errors: Annotated[int, msgspec.Meta(
        ge=0, description="Interrupt reads that failed since the start (a loose SDA/SCL "
                          "wire?); the chip is read again, no press is lost.")]


class JournalHealth(msgspec.Struct, forbid_unknown_fields=True):
    """The event journal (both of its files, public and private, together)."""

    ok: Annotated[bool, msgspec.Meta(
        description="Every event and saved document is on disk, none was refused, and no "
                    "journal was moved aside at start. False: the table is in trouble; the "
                    "fields below say how, the log says more.")]
    problems: Annotated[list[str], msgspec.Meta(
        description="Why the journal cannot take writes now (e.g. 'database or disk is full'), "
                    "naming the file: set at the first failed write, cleared once everything "
                    "held is written. Also a journal found unreadable while running (corrupted "
                    "pages: restart to move it aside).")]
    held: Annotated[int, msgspec.Meta(
        ge=0, description="Events numbered, published while connected, and kept in memory "
                          "because the journal could not take them; written in seq order, "
                          "without gaps, when it can (tried every second).")]
    hold_limit: Annotated[int, msgspec.Meta(
        ge=1, description="[store] hold_limit: the most events held in memory, for each "
                          "journal file (the public and the private one).")]
    dropped: Annotated[int, msgspec.Meta(
        ge=0, description="Events refused since this start because hold_limit was reached: "
                          "never numbered (seq keeps no gap), never published; each is logged.")]
    moved_aside: Annotated[list[str], msgspec.Meta(
        description="Journals found corrupt at start, moved aside (kept for the technician) "
                    "and replaced by new ones: event ids get a new store id and seq starts "
                    "again at 1.")]


class CommandHealth(msgspec.Struct, forbid_unknown_fields=True):
    """The command queue: the table's own inputs always go first; commands wait in a bounded
    queue (``sim/`` ones in a lane of their own, ahead) and one that does not fit is refused
    ``busy`` at once."""

    queue_limit: Annotated[int, msgspec.Meta(ge=1, description="Commands that may wait.")]
    refusing: Annotated[bool, msgspec.Meta(
        description="The queue is full right now: commands are answered busy.")]
    busy: Annotated[int, msgspec.Meta(ge=0, description="Commands refused busy since start.")]
    stale: Annotated[int, msgspec.Meta(
        ge=0, description="Commands refused since start because their ts was too old.")]
    unanswered: Annotated[int, msgspec.Meta(
        ge=0, description="Of the busy and stale refusals, those not answered: the commands "
                          "sent at QoS 0 (their senders asked for no guarantee), and those "
                          "beyond 100 answers a second (a flood).")] = 0
    repeats: Annotated[int, msgspec.Meta(
        ge=0, description="Commands received again with a verb, id and payload already "
                          "taken: not run again; answered with the first copy's reply.")] = 0


class BrokerLinkHealth(msgspec.Struct, forbid_unknown_fields=True):
    """The controller's own connection to the broker, since the start."""

    disconnects: Annotated[int, msgspec.Meta(ge=0, description="Connections lost.")]
    taken_over: Annotated[int, msgspec.Meta(
        ge=0, description="Of those, how many because another client connected with the "
                          "controller's client id (MQTT 5 'Session taken over'): a broker "
                          "that does not bind client ids to accounts (config/mosquitto/).")]
    last_reason: Annotated[str | None, msgspec.Meta(
        description="Why the last connection was lost, as the broker or paho said it.")]
    thrown_off: Annotated[bool, msgspec.Meta(
        description="Lost 3 times within a minute: most likely another client connects with "
                    "the controller's client id (mosquitto 2.0 gives no reason); see the log.")]
    sessions_lost: Annotated[int, msgspec.Meta(
        ge=0, description="Reconnects where the broker had lost the controller's session (a "
                          "broker restarted without persistence, or killed before it saved "
                          "it): commands sent meanwhile may be lost; senders send them again.")
    ] = 0


class ClockHealth(msgspec.Struct, forbid_unknown_fields=True):
    """The controller host's wall clock, which every ``ts`` comes from."""

    synchronized: Annotated[bool | None, msgspec.Meta(
        description="The kernel says the wall clock is synchronised (NTP, chrony, "
                    "timesyncd; as timedatectl's 'System clock synchronized'); null: cannot "
                    "tell. A Pi has no real-time clock: until this is true, ts may be days off "
                    "and may step; order and time events by host_boot and mono_ms.")]
    max_error_ms: Annotated[float | None, msgspec.Meta(
        description="The kernel's bound on the wall clock's error.")]
    source: Annotated[str, msgspec.Meta(description="adjtimex, or why it is unknown.")]


class Health(_Payload):
    """``health`` (retained): republished when anything in it changes and on every connect."""

    boot_id: str
    gpio: Annotated[Literal["lgpio", "mock"], msgspec.Meta(description="GPIO backend.")]
    outbox: OutboxHealth
    consoles: list[ConsoleHealth] = []
    audio: AudioHealth | None = None
    strip: StripHealth | None = None
    expanders: ExpanderHealth | None = None
    journal: JournalHealth | None = None


    commands: CommandHealth | None = None
    broker: BrokerLinkHealth | None = None
    clock: ClockHealth | None = None


class Envelope(_Payload, kw_only=True, forbid_unknown_fields=False):
    """The stamp the shell puts on every event the core emits (``controller.messages``): the
    published payload is these fields beside the event's own (``contract.events``).
    Decoding a payload as ``Envelope`` reads the stamp alone; as its ``EVENT_TYPES`` type, the
    whole event."""

    id: Annotated[str, msgspec.Meta(
        description="<store id>-<seq>: unique for all time, the same on every redelivery. "
                    "Drop duplicates by it.")]
    seq: Annotated[int, msgspec.Meta(
        ge=1, description="Counts this table's events from 1 with no gaps, across restarts. "
                          "A jump means missed events: ask for them with cmd/replay.")]
    host_boot: Annotated[str | None, msgspec.Meta(
        description="The controller host's kernel boot id (its service boot id where the host "
                    "has none): mono_ms of two events compare only when this is the same. "
                    "Absent from events journaled before it existed.")] = None
    mono_ms: Annotated[int | None, msgspec.Meta(
        description="When it happened (the edge, the key) on the host's monotonic clock, ms "
                    "since the host booted: it never steps, so it orders and times events "
                    "within one host boot even when ts (the wall clock) jumps, e.g. when NTP "
                    "first sets a Pi's clock.")] = None


E = TypeVar("E", bound=Event)


def _stamped(payload: type[E]) -> type[E]:
    """``payload`` as published: a subclass with the envelope's fields after its own, under the
    same name and description (what the AsyncAPI document shows)."""
    fields = [(f.name, f.type) if f.default is msgspec.NODEFAULT else (f.name, f.type, f.default)
              for f in msgspec.structs.fields(Envelope)]
    return cast("type[E]", msgspec.defstruct(
        payload.__name__, fields, bases=(payload,), kw_only=True, module=__name__,
        namespace={"__doc__": payload.__doc__}))


class Reply(_Payload):
    """``reply/<verb>`` (or the request's MQTT 5 response topic): one per command."""

    id: Annotated[str | None, msgspec.Meta(
        description="The command's id; null when the payload was too broken to read one.")]
    ok: bool
    error: Annotated[str | None, msgspec.Meta(
        description="Why the command was refused (key path first); null when ok.")]


#: The published type of each payload of the core's events (a press and a release share one).
_PUBLISHED: dict[type[Event], type[Event]] = {p: _stamped(p) for p in events.PAYLOADS}

#: Event kinds (the topic below ``event/``) and their payload types as published.
EVENT_TYPES: dict[str, type[Event]] = {
    kind: _PUBLISHED[events.payload_type(event)] for kind, event in events.KINDS.items()}

#: Events published on ``private/<kind>`` (``contract.events.PRIVATE``).
PRIVATE_KINDS = tuple(event.KIND for event in events.PRIVATE)

__all__ = [
    "EVENT_TYPES",
    "PRIVATE_KINDS",
    "SCHEMA_VERSION",
    "Envelope",
    "Health",
    "NightPickList",
    "Reply",
    "State",
    "Status",
    "VoteAnomaly",
]
