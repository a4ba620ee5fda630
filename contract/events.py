"""The table's events as types: one msgspec struct per event, the very types the MQTT API documents.

The core builds them (``Emit(VoteProposed(...), t)``); the shell stamps each with the envelope
(``contract.api.Envelope``: ``v``, ``ts``, ``id``, ``seq``, ``host_boot``, ``mono_ms``) and
publishes it on ``event/<kind>`` (``private/<kind>``). ``contract.api`` derives the payload
types of the AsyncAPI document from these, so a field added here is documented, encoded and
decoded alike. Field descriptions here become the documentation.

Each event kind, timer kind and anomaly kind is written here once; everything else (the API's
topic table, ``docs/asyncapi.yaml``, the judge's panel) takes them from here. Pure: no I/O.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

Seat = Annotated[int, msgspec.Meta(ge=1, le=24, description="Seat number as painted (1-based).")]
Source = Annotated[Literal["gpio", "console"], msgspec.Meta(
    description="What the input came through.")]
#: A key of a seat's console keypad.
Key = Literal["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "#"]
Candidate = Annotated[int, msgspec.Meta(
    ge=0, le=24, description="The seat voted on; 0 is the 'against all' candidate of a nominee "
                             "vote, or the question itself in a question vote.")]
#: Where a vote stands: waiting for its window, window open, or count proposed to the judge.
Stage = Literal["waiting", "open", "proposed"]
#: What a timer times (``cmd/timer/start``): a night countdown and a day's discussion (the whole
#: table talks at once: the classic club's five minutes) hold no seat.
TimerKind = Literal["speech", "excuse", "last_words", "other", "discussion", "night"]
#: What just happened to the timer (``event/timer``).
TimerMoment = Literal["started", "paused", "resumed", "changed", "warning", "final", "ended",
                      "stopped"]
TimerSeat = Annotated[Seat | None, msgspec.Meta(
    description="Who holds the floor; null for a night countdown (kind night) or the whole "
                "table's discussion (kind discussion).")]
#: The vote's flags for the judge (``controller.core.vote``); never a vote by themselves.
AnomalyKind = Literal["held_from_before", "between_windows", "second_press", "stuck", "restarted",
                      "console_offline", "not_a_voter"]
VoteOutcome = Literal["eliminated", "tie", "fork", "night", "against_all", "no_vote", "yes",
                      "no"]
NominationOutcome = Literal["accepted", "supported", "refused", "withdrawn"]
#: Why a night actor's picks do not stand (FIIM 4.5.5, ``controller.core.night``).
Miss = Literal["missing", "several_targets", "disagree"]
#: What a night step does with more distinct numbers than its ``picks`` from one actor: ``void``
#: them all (FIIM 4.5.5, the mafia's shot: several targets is a miss) or keep the ``first``
#: ones (4.5.8: one check a night; 4.5.9: three best-move numbers) and refuse the rest.
Surplus = Annotated[Literal["void", "first"], msgspec.Meta(
    description="More distinct numbers than picks from one actor: void voids them all (FIIM "
                "4.5.5, the shot), first keeps the first picks and refuses the rest (4.5.8 "
                "checks, 4.5.9 best move).")]


class Event(msgspec.Struct, forbid_unknown_fields=True):
    """One thing that happened at the table. ``KIND`` is its topic below ``event/`` (or
    ``private/``); a type without one is a payload shared by the kinds of its subclasses
    (a button's press and release)."""

    KIND: ClassVar[str]


class StandingState(msgspec.Struct, forbid_unknown_fields=True):
    in_game: bool
    fouls: Annotated[int, msgspec.Meta(ge=0, le=4)]
    silenced: bool
    immune: bool


class SeatStandingChange(StandingState):
    seat: Seat


class VoteCount(msgspec.Struct, forbid_unknown_fields=True):
    candidate: Candidate
    count: int


class SeatButtonEvent(Event):
    """``event/seat/press`` and ``event/seat/release``: a seat's vote button, debounced."""

    seat: Seat
    source: Source


class KeyEvent(Event):
    """``event/seat/key``: a key of a seat's console keypad."""

    KIND = "seat/key"

    seat: Seat
    key: Key
    source: Source


class EntryEvent(Event):
    """``event/seat/entry``: a number a player entered on the keypad and confirmed with ``#``
    (digits, then ``#``; ``*`` clears; an entry untouched for 4 s is forgotten)."""

    KIND = "seat/entry"

    seat: Seat
    value: Annotated[int, msgspec.Meta(ge=0, le=99)]
    source: Source


class JudgeButtonEvent(Event):
    """``event/judge/press`` and ``event/judge/release``: a judge station button."""

    button: Literal["confirm", "reject", "next"]
    source: Source


class _VoteEvent(Event):
    session: Annotated[str, msgspec.Meta(description="The id of the cmd/vote/... that began it.")]


class VoteStarted(_VoteEvent):
    """``event/vote/started``."""

    KIND = "vote/started"

    kind: Literal["nominees", "question"]
    candidates: list[Candidate]
    voters: list[Seat]
    subjects: Annotated[list[Seat], msgspec.Meta(description="Question votes: who it is about.")]
    day: int
    pacing: Literal["auto", "judge"]


class VoteWindow(_VoteEvent):
    """``event/vote/window``: a candidate's window opened (``ts`` = its start) or closed."""

    KIND = "vote/window"

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

    KIND = "vote/proposed"

    candidate: Candidate
    attempt: int
    voters: list[Seat]
    leftover: Annotated[list[Seat], msgspec.Meta(
        description="Voters who voted for no one, counted for the last nominee (FIIM 4.4.8).")]
    count: int
    anomalies: list[VoteAnomaly]


class VoteConfirmed(_VoteEvent):
    """``event/vote/confirmed``: the judge made a count final (only these are final)."""

    KIND = "vote/confirmed"

    candidate: Candidate
    attempt: int
    voters: list[Seat]
    leftover: list[Seat]
    count: int
    by: Literal["button", "command", "correction"]
    reason: Annotated[str | None, msgspec.Meta(description="The judge's reason for a correction.")]


class VoteRejected(_VoteEvent):
    """``event/vote/rejected``: the judge threw a count away; the window runs again."""

    KIND = "vote/rejected"

    candidate: Candidate
    attempt: int
    by: Literal["button", "command"]


class VoteResumed(_VoteEvent):
    """``event/vote/resumed``: the controller restarted in the middle of this vote."""

    KIND = "vote/resumed"

    candidate: Candidate
    attempt: int
    stage: Stage


class VoteCancelled(_VoteEvent):
    """``event/vote/cancelled`` (``cmd/vote/cancel``)."""

    KIND = "vote/cancelled"


class VoteResult(_VoteEvent):
    """``event/vote/result``: every count confirmed. A tie names the tied seats in nomination
    order; the rules core starts their re-vote (FIIM 4.4.12). A fork (the preset's
    ``fork_gap``, club rules 002) names the candidates within the gap of the leader, for a
    re-vote; night (the preset's ``abstain_wins``, club rules 003): more voters voted for no
    one than for any candidate, nobody leaves and night falls. ``reason`` cites the rule."""

    KIND = "vote/result"

    kind: Literal["nominees", "question"]
    outcome: VoteOutcome
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


class TimerEvent(Event):
    """``event/timer``: every change of the speech timer. ``warning`` comes at 10 s left (the
    speaker's light blinks, with a cue), ``final`` at 5 s (it blinks fast), then ``ended``
    (with a cue). A night countdown (kind night) and a discussion (kind discussion, the whole
    table's) light nothing; their cues are the same."""

    KIND = "timer"

    timer: Annotated[str, msgspec.Meta(description="The id of the cmd/timer/start.")]
    seat: TimerSeat
    kind: TimerKind
    state: TimerMoment
    remaining_ms: Annotated[int, msgspec.Meta(ge=0)]
    duration_ms: Annotated[int, msgspec.Meta(ge=0)]


class NominationEvent(Event):
    """``event/nomination``: a speaker typed a seat and ``#`` (FIIM 4.4.2-4.4.3)."""

    KIND = "nomination"

    by: Seat
    seat: Annotated[int, msgspec.Meta(ge=0, le=99, description="As typed; may be no seat.")]
    outcome: NominationOutcome
    reason: str | None
    day: int
    nominees: Annotated[list[Seat], msgspec.Meta(description="Today's nominees, in order.")]


class SeatsEvent(Event):
    """``event/seats``: standings changed by cmd/seats (the new standing of each seat named)."""

    KIND = "seats"

    seats: list[SeatStandingChange]


class PhaseEvent(Event):
    """``event/phase``: night fell (public lights dark, music) or day came (cmd/phase)."""

    KIND = "phase"

    phase: Literal["day", "night"]


class DayEvent(Event):
    """``event/day``: a new game day began (cmd/day/start)."""

    KIND = "day"

    day: int


#: a night step's id at the table: new at every ``cmd/night/step``, the same in its pick and
#: result events; the table counts no nights (the rules core numbers them: docs/mqtt-api.md)
NightStepId = Annotated[str, msgspec.Meta(
    description="The step's id at the table, new at every cmd/night/step and the same in its "
                "pick and result events. The table counts no nights: the rules core numbers "
                "them (the first night, before day 1, is night 0; the night after day N is "
                "night N, in every book).")]


class NightStepEvent(Event):
    """``private/night/step``: a night step began (cmd/night/step)."""

    KIND = "night/step"

    night_step: NightStepId
    step: str
    state: Literal["started"]
    actors: list[Seat]
    picks: int
    allowed: list[int]
    mode: Literal["keypad", "count"]
    seconds: float
    surplus: Surplus


class NightPickEvent(Event):
    """``private/night/pick``: a seat's entry or press during a step; ``taken`` if it counts as
    the actor's pick (the actor's private indicator shows it: steady taken, double blink not),
    else refused with a ``reason``."""

    KIND = "night/pick"

    night_step: NightStepId
    step: str
    actor: Annotated[Seat, msgspec.Meta(
        description="The seat whose keypad or button made the entry: one of the step's actors, "
                    "or any other seat, whose entry is then refused (reason: it does not act "
                    "in this step). The field keeps its name for both.")]
    value: int | None
    taken: bool
    reason: Annotated[str | None, msgspec.Meta(
        description="Why it is not taken (not an actor, time up, no number spoken, not a "
                    "target, picked already, several targets: the picks are void, FIIM 4.5.5, "
                    "or the first picks stand, surplus first); null when taken.")]
    picks: list[int]


class NightPickList(msgspec.Struct, forbid_unknown_fields=True):
    actor: Seat
    picks: Annotated[list[int], msgspec.Meta(
        description="The distinct numbers the actor confirmed: surplus void keeps one more "
                    "than the step's picks (it voids them); surplus first keeps the first picks "
                    "only.")]
    miss: Annotated[Miss | None, msgspec.Meta(
        description="Why the actor's picks do not stand (FIIM 4.5.5): missing (fewer than "
                    "picks), several_targets (more, in a surplus void step only), disagree (a "
                    "group whose valid picks differ); null: they stand.")]


class NightResultEvent(Event):
    """``private/night/result``: the step's time is up (or it was stopped): each actor's picks
    and why they do not stand; for a group (the mafia, FIIM 4.5.4-4.5.5) whether the shot is
    agreed: every actor picked the same seat, and only it."""

    KIND = "night/result"

    night_step: NightStepId
    step: str
    picks: list[NightPickList]
    missing: list[Seat]
    agreed: bool | None


class SeatPress(SeatButtonEvent):
    KIND = "seat/press"


class SeatRelease(SeatButtonEvent):
    KIND = "seat/release"


class JudgePress(JudgeButtonEvent):
    KIND = "judge/press"


class JudgeRelease(JudgeButtonEvent):
    KIND = "judge/release"


#: Every event the core emits, by kind, in the order the API documents them.
KINDS: dict[str, type[Event]] = {event.KIND: event for event in (
    SeatPress, SeatRelease, KeyEvent, EntryEvent, JudgePress, JudgeRelease,
    VoteStarted, VoteWindow, VoteProposed, VoteConfirmed, VoteRejected, VoteResumed,
    VoteCancelled, VoteResult, TimerEvent, NominationEvent, SeatsEvent, DayEvent, PhaseEvent,
    NightStepEvent, NightPickEvent, NightResultEvent)}

#: The payload types the API documents: a button's press and release share one.
PAYLOADS: tuple[type[Event], ...] = tuple(dict.fromkeys(
    event.__base__ if event.__base__ in (SeatButtonEvent, JudgeButtonEvent) else event
    for event in KINDS.values()))

#: Events only ever on ``private/<kind>`` (the rules core's eyes only): the night steps.
SECRET: tuple[type[Event], ...] = (NightStepEvent, NightPickEvent, NightResultEvent)
#: Events that may go on ``private/<kind>``: the secret ones, and at night every seat input
#: (who pressed a button or typed would give an actor away).
PRIVATE: tuple[type[Event], ...] = (*SECRET, SeatPress, SeatRelease, KeyEvent, EntryEvent)


def topic(event: type[Event], private: bool = False) -> str:
    """The topic below ``mafia/<table>/`` that an event of this type goes on."""
    return ("private/" if private else "event/") + event.KIND


def payload_type(event: type[Event]) -> type[Event]:
    """The documented payload of an event type (a press's is its button's event)."""
    return next(base for base in event.__mro__ if base in PAYLOADS)
