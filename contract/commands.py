"""The command payloads as structs, their one encoding, and their parsing, pure and total.

A client builds a command as its verb's struct (``contract.verbs``) and sends ``encode(it)``;
the table reads it back with ``parse``: one shape, written down once, for both ends. Parsing
takes the raw bytes of an MQTT message and returns either a typed command or an error sentence
for the reply. Nothing raises to the caller: a malformed command is an answer, not a crash.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Generic, Literal, TypeVar, get_args

import msgspec

from contract import validation
from contract.events import Surplus, TimerKind

CommandId = Annotated[str, msgspec.Meta(
    min_length=1, max_length=64, description="Chosen by the sender; echoed in the reply.")]

# Every number a command may hold is bounded by what the game can mean, so an absurd one (a seat
# 2^63, a day that would block every later day) is an error reply, never a crash or a state that
# sticks. The table then checks the seats against its own seat count.
MAX_SEATS = 24  # the largest table served (config: seats = 4..24)
#: Days of one game: a 24-seat game loses a player a day or night, so it ends within 24 days;
#: two digits leave room for days with no one out.
MAX_DAY = 99
#: Event counters: 2^53 - 1, the largest integer every JSON consumer (JavaScript) reads exactly.
MAX_SEQ = 2**53 - 1
Seat = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS, description="A seat, 1..seats.")]
GameDay = Annotated[int, msgspec.Meta(ge=1, le=MAX_DAY)]
#: ``$(?!\n)``: the end of the text, in Python's regex dialect as in JSON Schema's.
Color = Annotated[str, msgspec.Meta(pattern="^#[0-9a-fA-F]{6}$(?!\n)")]
#: A night step's name, the rules core's own ("mafia_shot", "don_check"...): the rule preset's
#: ``[night]`` tables are keyed by it.
StepName = Annotated[str, msgspec.Meta(pattern="^[a-z_]{1,32}$(?!\n)")]
#: The languages the table speaks (its numbers at night, its speech timer's words): one folder
#: of sounds each (``hardware/sounds/numbers/<voice>/``, ``hardware/sounds/words/<voice>/``).
Voice = Literal["ru", "en"]
VOICES: tuple[Voice, ...] = get_args(Voice)


#: A command whose ``ts`` is further than this from the controller's clock is refused, not run.
MAX_COMMAND_AGE = 30.0
SentAt = Annotated[datetime, msgspec.Meta(tz=True, description=(
    "When the sender sent it (ISO-8601 with its zone, e.g. 2026-11-29T21:15:04.123Z). "
    f"Optional; a command more than {MAX_COMMAND_AGE:g} s old by it (or as far ahead) is "
    "refused, not run late, while the controller's clock is synchronised (health.clock)."))]


class Stamped(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What every command may carry besides its own fields."""

    ts: SentAt | None = None


class _SentAt(msgspec.Struct):
    ts: SentAt | None = None


def stale(payload: bytes, now: float, max_age: float = MAX_COMMAND_AGE) -> str | None:
    """Why a command stamped with ``ts`` must not run at wall time ``now`` (epoch seconds):
    sent more than ``max_age`` seconds ago (it waited on a broker, or in a queue, or its sender
    is out of step), or that far ahead. None for a fresh one, or one with no (readable) ``ts``:
    its own parse says what is wrong with it."""
    try:
        sent = msgspec.json.decode(payload, type=_SentAt).ts
    except (msgspec.DecodeError, RecursionError):
        return None
    if sent is None:
        return None
    age = now - sent.timestamp()
    if age > max_age:
        return (f"ts: stale, sent {age:.1f} s ago (commands more than {max_age:g} s old are "
                "refused, not run late); send it again if it still holds")
    if age < -max_age:
        return (f"ts: {-age:.1f} s ahead of the controller's clock (more than {max_age:g} s): "
                "check both clocks")
    return None


class LightSpec(msgspec.Struct, forbid_unknown_fields=True):
    """One seat's wanted light in ``cmd/light``."""

    seat: Seat
    mode: Annotated[Literal["off", "on", "dim", "blink", "fast_blink", "auto"], msgspec.Meta(
        description="auto: give the seat back to the table's own scene (standing, speaker, vote).")]
    color: Annotated[Color | None, msgspec.Meta(
        description="#rrggbb for an RGB light; a single-colour LED shows the mode only.")] = None


class LightCommand(Stamped):
    """``cmd/light``: set one or more seat lights, each seat at most once."""

    id: CommandId
    lights: Annotated[list[LightSpec], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]


class ReplayCommand(Stamped):
    """``cmd/replay``: publish again, on their own topics, the kept events after ``after_seq``.

    A consumer sends it after every (re)connect with the last ``seq`` it has, and whenever it
    sees a gap; the replayed events carry their original ``id`` and ``seq``.
    """

    id: CommandId
    after_seq: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
    private: Annotated[bool, msgspec.Meta(
        description="Replay the private/ events (their own seq) instead of event/.")] = False


class SimButtonCommand(Stamped):
    """``sim/press`` and ``sim/release`` (simulated tables only): exactly one of ``seat`` or
    ``judge``; drives that button's mock pin."""

    seat: Seat | None = None
    judge: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    id: CommandId | None = None


class SimKeysCommand(Stamped):
    """``sim/key`` (simulated tables only): type ``keys`` on a seat's emulated keypad."""

    seat: Seat
    keys: Annotated[str, msgspec.Meta(pattern="^[0-9*#]{1,16}$(?!\n)")]
    id: CommandId | None = None


T = TypeVar("T")

_encoder = msgspec.json.Encoder()


def encode(command: Stamped) -> bytes:
    """The payload of ``command`` on its verb's topic: what ``parse`` reads back as the same
    struct. A client that builds its commands as these structs has a wrong field fail mypy,
    not come back as a refusal."""
    return _encoder.encode(command)


@dataclass(frozen=True)
class Parsed(Generic[T]):
    """The outcome of parsing: ``value`` on success, else ``error``. ``id`` is what the request
    carried as its id (best effort, so even a malformed command gets a correlated reply)."""

    id: str | None
    value: T | None = None
    error: str | None = None


def request_id(payload: bytes) -> str | None:
    """The ``id`` field of a JSON object payload, if there is a usable one."""
    try:
        doc = msgspec.json.decode(payload)
    except (msgspec.DecodeError, RecursionError):
        return None
    if isinstance(doc, dict):
        value = doc.get("id")
        if isinstance(value, str) and 0 < len(value) <= 64:
            return value
    return None


def parse(payload: bytes, kind: type[T]) -> Parsed[T]:
    """Decode a command's payload into its struct ``kind``: the shape only (types, bounds, no
    unknown or repeated key). What depends on the table (its seat count, its wired buttons) is
    the handler's to check."""
    try:
        value = msgspec.json.decode(payload, type=kind)
    except msgspec.ValidationError as exc:
        return Parsed(request_id(payload), error=validation.describe(str(exc)))
    except msgspec.DecodeError as exc:
        return Parsed(None, error=f"payload is not valid JSON: {exc}")
    except RecursionError:
        return Parsed(None, error="payload is nested too deeply")
    key = duplicated_key(payload)
    if key is not None:
        return Parsed(request_id(payload), error=f"{key}: given twice (each key at most once)")
    return Parsed(getattr(value, "id", None), value=value)


class _DuplicatedKey(Exception):
    pass


def _refuse_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicatedKey(key)
        seen[key] = value
    return seen


def duplicated_key(payload: bytes) -> str | None:
    """The first key an object of this (valid JSON) payload holds twice, else None.

    msgspec, like most JSON readers, keeps the last of two equal keys silently; a command that
    says ``"day": 2`` and ``"day": 3`` is ambiguous and is refused instead (stdlib ``json`` with a
    pairs hook is the one reader that shows the repeats; commands are small)."""
    try:
        json.loads(payload, object_pairs_hook=_refuse_duplicates)
    except _DuplicatedKey as exc:
        return str(exc.args[0])
    except (ValueError, RecursionError):  # what msgspec read and json cannot: no repeats seen
        return None
    return None


SeatList = Annotated[list[Seat], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]


class VoteStart(Stamped):
    """``cmd/vote/start``: vote on ``nominees`` in nomination order (4.4.4); ``voters`` are the
    seats that may vote; ``day`` 1 with a single nominee means no vote (4.4.10)."""

    id: CommandId
    nominees: SeatList
    voters: SeatList
    day: GameDay
    pacing: Literal["auto", "judge"] | None = None
    against_all: Annotated[bool | None, msgspec.Meta(
        description="Add the virtual 'against all' candidate (0), voted last; the preset's "
                    "default when absent (club rules 003: its second round).")] = None
    round: Annotated[int, msgspec.Meta(ge=1, le=9, description=(
        "1: the day's first vote; 2 and up: a re-vote among the tied, where the preset's "
        "fork (club rules 002) no longer applies."))] = 1


class VoteQuestion(Stamped):
    """``cmd/vote/question``: one window, a press is "yes" (e.g. 4.4.12.3, "shall all of
    ``subjects`` leave the table?"); majority of ``voters`` decides."""

    id: CommandId
    subjects: SeatList
    voters: SeatList
    pacing: Literal["auto", "judge"] | None = None


class VoteAction(Stamped):
    """``cmd/vote/confirm``, ``reject``, ``next``, ``cancel``: the judge's decisions."""

    id: CommandId


class VoteCorrect(Stamped):
    """``cmd/vote/correct``: the judge's own count for the proposed candidate, and why."""

    id: CommandId
    voters: Annotated[list[Seat], msgspec.Meta(max_length=MAX_SEATS)]
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class SeatStanding(msgspec.Struct, forbid_unknown_fields=True):
    """One seat in ``cmd/seats``: only the fields given change."""

    seat: Seat
    in_game: bool | None = None
    fouls: Annotated[int, msgspec.Meta(ge=0, le=4, description="4 fouls remove the player.")] \
        | None = None
    silenced: Annotated[bool | None, msgspec.Meta(
        description="May not speak this round (firefighter, Laura).")] = None
    immune: bool | None = None


class SeatsCommand(Stamped):
    """``cmd/seats``: set seats' standing: in game or out, fouls, silenced, immunity."""

    id: CommandId
    seats: Annotated[list[SeatStanding], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]


Seconds = Annotated[float, msgspec.Meta(gt=0, le=600)]


class TimerStart(Stamped):
    """``cmd/timer/start``: ``seat`` holds the floor for ``seconds`` (FIIM 4.3.1: 60). By day
    ``kind`` ``discussion`` with no seat: the whole table talks at once (the classic club's
    «3. Обсуждение», five minutes), which lights no seat. At night only ``kind`` ``night``
    with no seat: the judge's countdown (4.2.1: the mafia's minute, 4.2.3: the Sheriff's
    20 s), which lights no seat either."""

    id: CommandId
    seconds: Seconds
    seat: Seat | None = None
    kind: TimerKind = "speech"
    replace: Annotated[bool, msgspec.Meta(
        description="Take the floor from a speaker whose timer still runs.")] = False


class TimerAdd(Stamped):
    """``cmd/timer/add``: more time (negative: less; never below zero)."""

    id: CommandId
    seconds: Annotated[float, msgspec.Meta(ge=-600, le=600)]


class NominationWithdraw(Stamped):
    """``cmd/nomination/withdraw``: take back the nomination of ``seat``."""

    id: CommandId
    seat: Seat


class DayStart(Stamped):
    """``cmd/day/start``: a new game day: today's nominations start empty."""

    id: CommandId
    day: Annotated[GameDay, msgspec.Meta(description=f"1..{MAX_DAY}, after today's.")]


class PhaseCommand(Stamped):
    """``cmd/phase``: night (public lights dark, night music fades in) or day (music fades
    out, lights come back)."""

    id: CommandId
    phase: Literal["day", "night"]


class AudioCommand(Stamped):
    """``cmd/audio``: the music's volume, its next track, a sound now (a cue, a number
    spoken: what ``mafia-table selftest`` plays to check the speaker), or the language the
    table speaks from now on (``voice``: the judge's panel sends its own at every start of the
    table, so a club chooses once)."""

    id: CommandId
    volume: Annotated[float, msgspec.Meta(ge=0, le=1)] | None = None
    next_track: bool = False
    cue: Literal["tick", "window", "warning", "end"] | None = None
    say: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS, description="A number to speak, in the "
                                     "table's voice.")] | None = None
    voice: Annotated[Voice | None, msgspec.Meta(
        description="The language the table speaks from now on: the night's numbers and the "
                    "speech timer's words (a say in the same command already in it). Until "
                    "one is given, and again after a restart: the table's [music] voice.")] = None


class NightStepCommand(Stamped):
    """``cmd/night/step``: one night step ("mafia_shot", "don_check", "best_move"...) for the
    seats that act. ``targets``: any seat, seats in game, or the numbers 1..``numbers``
    (roulette). ``mode``: ``keypad`` entries within ``seconds``, or ``count`` (the numbers are
    spoken one by one, ``cadence`` seconds each, the first 0.3 s after the step opens, and a
    press picks the number being spoken; such a step lasts as long as its numbers, so
    ``seconds`` is refused with it). ``surplus``: what more distinct numbers than ``picks``
    from one actor do: ``void`` his picks (FIIM 4.5.5, the shot) or leave the ``first`` ones
    standing (4.5.8, 4.5.9); not given, the preset's ``[night] surplus`` for ``step``."""

    id: CommandId
    step: StepName
    actors: SeatList
    picks: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    targets: Literal["seats", "alive", "numbers"] = "alive"
    numbers: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)] = 7
    mode: Literal["keypad", "count"] = "keypad"
    seconds: Annotated[float, msgspec.Meta(gt=0, le=120)] | None = None  # the preset's
    cadence: Annotated[float, msgspec.Meta(ge=0.3, le=5)] | None = None  # the preset's
    surplus: Annotated[Surplus | None, msgspec.Meta(
        description="Null: the rule preset's [night] surplus for this step (a step it does not "
                    "list: first).")] = None


class RevealCommand(Stamped):
    """``cmd/night/reveal``: show a pattern on one seat's private indicator (a check result:
    only that player sees it). 0 off, 1 on, 2 blink, 3 double blink."""

    id: CommandId
    seat: Seat
    pattern: Annotated[int, msgspec.Meta(ge=0, le=3)]


def parse_replay(payload: bytes) -> Parsed[ReplayCommand]:
    """Parse ``cmd/replay``."""
    return parse(payload, ReplayCommand)
