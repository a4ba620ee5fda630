"""The MQTT API's payloads as types: what the controller publishes and what it accepts.

These msgspec structs are the single source of truth. ``controller.messages`` builds every
outgoing payload through them (so a message that does not fit its type is a bug caught at the
source), the command parsers in ``controller.core.commands`` decode incoming ones with them, and
``controller.asyncapi`` writes ``docs/asyncapi.yaml`` from them. Field descriptions here become
the documentation.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from controller.core.commands import (
    AudioCommand,
    Color,
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
from controller.core.night import Miss
from controller.core.vote import AnomalyKind

SCHEMA_VERSION = 1

Version = Annotated[Literal[1], msgspec.Meta(description="Schema major version.")]
Timestamp = Annotated[str, msgspec.Meta(
    pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$(?!\n)",
    description="UTC ISO-8601 to the millisecond. For events: the time of the hardware edge.",
    examples=["2026-11-29T21:22:15.481Z"],
)]
Seat = Annotated[int, msgspec.Meta(ge=1, le=24, description="Seat number as painted (1-based).")]
Source = Annotated[Literal["gpio", "console"], msgspec.Meta(
    description="What the input came through.")]


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


class StandingState(msgspec.Struct, forbid_unknown_fields=True):
    in_game: bool
    fouls: Annotated[int, msgspec.Meta(ge=0, le=4)]
    silenced: bool
    immune: bool


class SeatState(msgspec.Struct, forbid_unknown_fields=True):
    seat: Seat
    light: Annotated[LightState, msgspec.Meta(description="What the seat shows now.")]
    manual: Annotated[LightState | None, msgspec.Meta(
        description="What cmd/light set for it; null: the table's scene decides.")]
    standing: StandingState


class NominationState(msgspec.Struct, forbid_unknown_fields=True):
    by: Seat
    seat: Seat


class SeatStandingChange(StandingState):
    seat: Seat


TimerKind = Literal["speech", "excuse", "last_words", "other", "night"]
TimerSeat = Annotated[Seat | None, msgspec.Meta(
    description="Who holds the floor; null for a night countdown (kind night).")]


class TimerState(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    seat: TimerSeat
    kind: TimerKind
    running: bool
    duration_ms: int


Candidate = Annotated[int, msgspec.Meta(
    ge=0, le=24, description="The seat voted on; 0 is the 'against all' candidate of a nominee "
                             "vote, or the question itself in a question vote.")]
Stage = Literal["waiting", "open", "proposed"]


class VoteCount(msgspec.Struct, forbid_unknown_fields=True):
    candidate: Candidate
    count: int


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


class OutboxHealth(msgspec.Struct, forbid_unknown_fields=True):
    depth: Annotated[int, msgspec.Meta(
        ge=0, description="Events stored and not yet acknowledged by the broker.")]
    limit: Annotated[int, msgspec.Meta(ge=1, description="Depth above which over_limit is set.")]
    over_limit: Annotated[bool, msgspec.Meta(
        description="The outbox holds more than its limit: the broker has been away too long. "
                    "Nothing is dropped; events keep being stored on disk.")]


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


class AudioHealth(msgspec.Struct, forbid_unknown_fields=True):
    backend: Literal["sdl", "disk", "off"]
    ok: bool
    problems: Annotated[list[str], msgspec.Meta(
        description="No sound device, an unusable sound file...: the game goes on silent.")]


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


class _Event(_Payload):
    id: Annotated[str, msgspec.Meta(
        description="<store id>-<seq>: unique for all time, the same on every redelivery. "
                    "Drop duplicates by it.")]
    seq: Annotated[int, msgspec.Meta(
        ge=1, description="Counts this table's events from 1 with no gaps, across restarts. "
                          "A jump means missed events: ask for them with cmd/replay.")]


class SeatButtonEvent(_Event):
    """``event/seat/press`` and ``event/seat/release``: a seat's vote button, debounced."""

    seat: Seat
    source: Source


class KeyEvent(_Event):
    """``event/seat/key``: a key of a seat's console keypad."""

    seat: Seat
    key: Literal["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "#"]
    source: Source


class EntryEvent(_Event):
    """``event/seat/entry``: a number a player entered on the keypad and confirmed with ``#``
    (digits, then ``#``; ``*`` clears; an entry untouched for 4 s is forgotten)."""

    seat: Seat
    value: Annotated[int, msgspec.Meta(ge=0, le=99)]
    source: Source


class JudgeButtonEvent(_Event):
    """``event/judge/press`` and ``event/judge/release``: a judge station button."""

    button: Literal["confirm", "reject", "next"]
    source: Source


class _VoteEvent(_Event):
    session: Annotated[str, msgspec.Meta(description="The id of the cmd/vote/... that began it.")]


class VoteStarted(_VoteEvent):
    """``event/vote/started``."""

    kind: Literal["nominees", "question"]
    candidates: list[Candidate]
    voters: list[Seat]
    subjects: Annotated[list[Seat], msgspec.Meta(description="Question votes: who it is about.")]
    day: int
    pacing: Literal["auto", "judge"]


class VoteWindow(_VoteEvent):
    """``event/vote/window``: a candidate's window opened (``ts`` = its start) or closed."""

    candidate: Candidate
    attempt: Annotated[int, msgspec.Meta(ge=1, description="2 and up after a rejection.")]
    state: Literal["opened", "closed"]
    duration_ms: int | None = None


class VoteAnomaly(msgspec.Struct, forbid_unknown_fields=True):
    seat: Seat
    kind: Annotated[AnomalyKind, msgspec.Meta(
        description="For the judge's eye; never a vote by itself.")]


class VoteProposed(_VoteEvent):
    """``event/vote/proposed``: the table's count for one candidate, awaiting the judge.
    Published again if a late press changes it."""

    candidate: Candidate
    attempt: int
    voters: list[Seat]
    leftover: Annotated[list[Seat], msgspec.Meta(
        description="Voters who voted for no one, counted for the last nominee (FIIM 4.4.8).")]
    count: int
    anomalies: list[VoteAnomaly]


class VoteConfirmed(_VoteEvent):
    """``event/vote/confirmed``: the judge made a count final (only these are final)."""

    candidate: Candidate
    attempt: int
    voters: list[Seat]
    leftover: list[Seat]
    count: int
    by: Literal["button", "command", "correction"]
    reason: Annotated[str | None, msgspec.Meta(description="The judge's reason for a correction.")]


class VoteRejected(_VoteEvent):
    """``event/vote/rejected``: the judge threw a count away; the window runs again."""

    candidate: Candidate
    attempt: int
    by: Literal["button", "command"]


class VoteResumed(_VoteEvent):
    """``event/vote/resumed``: the controller restarted in the middle of this vote."""

    candidate: Candidate
    attempt: int
    stage: Stage


class VoteCancelled(_VoteEvent):
    """``event/vote/cancelled`` (``cmd/vote/cancel``)."""


class VoteResult(_VoteEvent):
    """``event/vote/result``: every count confirmed. A tie names the tied seats in nomination
    order; the rules core starts their re-vote (FIIM 4.4.12). A fork (the preset's
    ``fork_gap``, club rules 002) names the candidates within the gap of the leader, for a
    re-vote; night (the preset's ``abstain_wins``, club rules 003): more voters voted for no
    one than for any candidate, nobody leaves and night falls. ``reason`` cites the rule."""

    kind: Literal["nominees", "question"]
    outcome: Literal["eliminated", "tie", "fork", "night", "against_all", "no_vote", "yes", "no"]
    counts: list[VoteCount] = []
    eliminated: Seat | None = None
    tied: Annotated[list[Candidate], msgspec.Meta(
        description="Tied (or forked) candidates in voting order; 0 when 'against all' is "
                    "among them.")] = []
    abstained: Annotated[list[Seat], msgspec.Meta(
        description="outcome night: the voters who voted for no one (for night).")] = []
    reason: str | None = None
    subjects: list[Seat] = []
    yes: list[Seat] = []
    yes_count: int | None = None
    voters_count: int | None = None


class TimerEvent(_Event):
    """``event/timer``: every change of the speech timer. ``warning`` comes at 10 s left (the
    speaker's light blinks, with a cue), ``final`` at 5 s (it blinks fast), then ``ended``
    (with a cue). A night countdown (kind night) lights nothing; its cues are the same."""

    timer: Annotated[str, msgspec.Meta(description="The id of the cmd/timer/start.")]
    seat: TimerSeat
    kind: TimerKind
    state: Literal["started", "paused", "resumed", "changed", "warning", "final", "ended",
                   "stopped"]
    remaining_ms: Annotated[int, msgspec.Meta(ge=0)]
    duration_ms: Annotated[int, msgspec.Meta(ge=0)]


class NominationEvent(_Event):
    """``event/nomination``: a speaker typed a seat and ``#`` (FIIM 4.4.2-4.4.3)."""

    by: Seat
    seat: Annotated[int, msgspec.Meta(ge=0, le=99, description="As typed; may be no seat.")]
    outcome: Literal["accepted", "supported", "refused", "withdrawn"]
    reason: str | None
    day: int
    nominees: Annotated[list[Seat], msgspec.Meta(description="Today's nominees, in order.")]


class SeatsEvent(_Event):
    """``event/seats``: standings changed by cmd/seats (the new standing of each seat named)."""

    seats: list[SeatStandingChange]


class PhaseEvent(_Event):
    """``event/phase``: night fell (public lights dark, music) or day came (cmd/phase)."""

    phase: Literal["day", "night"]


class DayEvent(_Event):
    """``event/day``: a new game day began (cmd/day/start)."""

    day: int


class NightStepEvent(_Event):
    """``private/night/step``: a night step began (cmd/night/step)."""

    night_step: str
    step: str
    state: Literal["started"]
    actors: list[Seat]
    picks: int
    allowed: list[int]
    mode: Literal["keypad", "count"]
    seconds: float


class NightPickEvent(_Event):
    """``private/night/pick``: a seat's entry or press during a step; ``taken`` if it counts as
    the actor's pick (the actor's private indicator shows it: steady taken, double blink not),
    else refused with a ``reason``."""

    night_step: str
    step: str
    actor: Seat
    value: int | None
    taken: bool
    reason: Annotated[str | None, msgspec.Meta(
        description="Why it is not taken (not an actor, time up, no number spoken, not a "
                    "target, picked already, several targets: FIIM 4.5.5); null when taken.")]
    picks: list[int]


class NightPickList(msgspec.Struct, forbid_unknown_fields=True):
    actor: Seat
    picks: Annotated[list[int], msgspec.Meta(
        description="Every distinct number the actor confirmed (one more than the step's "
                    "picks is kept: it voids them).")]
    miss: Annotated[Miss | None, msgspec.Meta(
        description="Why the actor's picks do not stand (FIIM 4.5.5): missing (fewer than "
                    "picks), several_targets (more), disagree (a group whose valid picks "
                    "differ); null: they stand.")]


class NightResultEvent(_Event):
    """``private/night/result``: the step's time is up (or it was stopped): each actor's picks
    and why they do not stand; for a group (the mafia, FIIM 4.5.4-4.5.5) whether the shot is
    agreed: every actor picked the same seat, and only it."""

    night_step: str
    step: str
    picks: list[NightPickList]
    missing: list[Seat]
    agreed: bool | None


class Reply(_Payload):
    """``reply/<verb>`` (or the request's MQTT 5 response topic): one per command."""

    id: Annotated[str | None, msgspec.Meta(
        description="The command's id; null when the payload was too broken to read one.")]
    ok: bool
    error: Annotated[str | None, msgspec.Meta(
        description="Why the command was refused (key path first); null when ok.")]


#: Event kinds (the topic below ``event/``) and their payload types.
EVENT_TYPES: dict[str, type[_Event]] = {
    "seat/press": SeatButtonEvent,
    "seat/release": SeatButtonEvent,
    "seat/key": KeyEvent,
    "seat/entry": EntryEvent,
    "judge/press": JudgeButtonEvent,
    "judge/release": JudgeButtonEvent,
    "vote/started": VoteStarted,
    "vote/window": VoteWindow,
    "vote/proposed": VoteProposed,
    "vote/confirmed": VoteConfirmed,
    "vote/rejected": VoteRejected,
    "vote/resumed": VoteResumed,
    "vote/cancelled": VoteCancelled,
    "vote/result": VoteResult,
    "timer": TimerEvent,
    "nomination": NominationEvent,
    "seats": SeatsEvent,
    "day": DayEvent,
    "phase": PhaseEvent,
    "night/step": NightStepEvent,
    "night/pick": NightPickEvent,
    "night/result": NightResultEvent,
}

#: Events published on ``private/<kind>`` (the rules core's eyes only): the night steps, and at
#: night every seat input (who pressed a button or typed would give an actor away).
PRIVATE_KINDS = ("night/step", "night/pick", "night/result", "seat/press", "seat/release",
                 "seat/key", "seat/entry")

__all__ = [
    "EVENT_TYPES",
    "PRIVATE_KINDS",
    "SCHEMA_VERSION",
    "AudioCommand",
    "DayStart",
    "Health",
    "JudgeButtonEvent",
    "LightCommand",
    "NightStepCommand",
    "NominationWithdraw",
    "PhaseCommand",
    "ReplayCommand",
    "Reply",
    "RevealCommand",
    "SeatButtonEvent",
    "SeatsCommand",
    "SimButtonCommand",
    "SimKeysCommand",
    "State",
    "Status",
    "TimerAdd",
    "TimerStart",
    "VoteAction",
    "VoteCorrect",
    "VoteQuestion",
    "VoteStart",
]
