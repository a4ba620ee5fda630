"""The speech timer: one seat holds the floor for a set time (FIIM 4.3.1: one minute), pure.

At night the same timer is the judge's countdown (kind ``night``, no seat: the mafia's minute of
FIIM 4.2.1, the Sheriff's 20 s of 4.2.3): it lights no seat, and its cues are the same for
whoever is awake, so they give nobody away. By day, with no seat, it is the whole table's
discussion (kind ``discussion``: the classic club's five minutes), which lights no seat either.

Times are data: the timer keeps when it will end (``ends_at``, host monotonic) while running, or
how much is left while paused, and asks the loop for a tick at each moment something happens:
the warning at ``WARN`` seconds left, the last ``FINAL`` seconds, and the end. Each of those is
an ``event/timer``, exact to the clock (the loop's tick carries the planned time, not the time
it woke); the warning and the end are heard too. The warning is its tone and then, ``SAY_AFTER``
later, ``WARN_WORDS`` said in the table's voice ("десять секунд", "ten seconds"): a speaker
looking at the table rather than at their light hears how long is left, in the club's language.
The end is its tone alone: a speaker stops at it, and a word would talk over the next one. A
timer stopped (or replaced) takes back its words not yet said: they were for that speech.
"""

from __future__ import annotations

import msgspec

from contract.events import TimerEvent, TimerMoment
from contract.events import TimerKind as Kind
from controller.core.effects import CancelCues, Cue, Effect, Emit, WakeAt, spoken

WARN = 10.0
FINAL = 5.0
#: what the warning says after its tone: ``WARN`` in words (``hardware/sounds/words/<voice>/``)
WARN_WORDS = "ten_seconds"
#: s from the warning's tone (0.28 s long) to its words
SAY_AFTER = 0.4


class SpeechTimer(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    seat: int | None  # None: a night countdown, nobody's floor
    kind: Kind
    duration: float
    ends_at: float | None  # while running
    left: float | None = None  # while paused
    since: float = 0.0  # the last start, resume or change: no moment is reported before it
    warned: bool = False
    final: bool = False

    @property
    def running(self) -> bool:
        return self.ends_at is not None

    def remaining(self, t: float) -> float:
        if self.ends_at is None:
            return self.left or 0.0
        return max(0.0, self.ends_at - t)


def holder(timer: SpeechTimer) -> str:
    """Whose the running timer is, in a refusal's words."""
    if timer.seat is not None:
        return f"seat {timer.seat} holds the floor"
    return "the table's discussion runs" if timer.kind == "discussion" \
        else "the night countdown runs"


def _event(timer: SpeechTimer, state: TimerMoment, t: float) -> Emit:
    return Emit(TimerEvent(timer=timer.id, seat=timer.seat, kind=timer.kind, state=state,
                           remaining_ms=round(timer.remaining(t) * 1000),
                           duration_ms=round(timer.duration * 1000)), t)


def _sounds(timer: SpeechTimer) -> str:
    """The group of the timer's warning sounds (``CancelCues`` when it stops)."""
    return f"timer/{timer.id}"


def _wakes(timer: SpeechTimer) -> list[Effect]:
    if timer.ends_at is None:
        return []
    moments = [timer.ends_at]
    if not timer.final:
        moments.append(timer.ends_at - FINAL)
    if not timer.warned:
        moments.append(timer.ends_at - WARN)
    return [WakeAt(at) for at in sorted(moments)]


def start(id: str, seat: int | None, kind: Kind, duration: float, t: float) \
        -> tuple[SpeechTimer, list[Effect]]:
    timer = SpeechTimer(id=id, seat=seat, kind=kind, duration=duration, ends_at=t + duration,
                        since=t, warned=duration <= WARN, final=duration <= FINAL)
    return timer, [_event(timer, "started", t), *_wakes(timer)]


def tick(timer: SpeechTimer, t: float, voice: str) -> tuple[SpeechTimer | None, list[Effect]]:
    """The moments that have come: warning, final seconds, end (at their planned times); the
    warning's words in ``voice``, one sound with its tone (``_sounds``)."""
    ends = timer.ends_at
    if ends is None:
        return timer, []
    effects: list[Effect] = []

    def moment(left: float) -> float:  # a mark passed by a change is reported at the change
        return max(ends - left, timer.since)

    if not timer.warned and t >= ends - WARN:
        at = moment(WARN)
        timer = msgspec.structs.replace(timer, warned=True)
        effects += [_event(timer, "warning", at), Cue("warning", at, _sounds(timer)),
                    Cue(spoken(voice, WARN_WORDS), at + SAY_AFTER, _sounds(timer))]
    if not timer.final and t >= ends - FINAL:
        timer = msgspec.structs.replace(timer, final=True)
        effects.append(_event(timer, "final", moment(FINAL)))
    if t >= ends:
        at = moment(0.0)
        return None, [*effects, _event(timer, "ended", at), Cue("end", at)]
    return timer, effects


def pause(timer: SpeechTimer, t: float) -> tuple[SpeechTimer, list[Effect]]:
    timer = msgspec.structs.replace(timer, ends_at=None, left=timer.remaining(t), since=t)
    return timer, [_event(timer, "paused", t)]


def resume(timer: SpeechTimer, t: float) -> tuple[SpeechTimer, list[Effect]]:
    timer = msgspec.structs.replace(timer, ends_at=t + (timer.left or 0.0), left=None, since=t)
    return timer, [_event(timer, "resumed", t), *_wakes(timer)]


def add(timer: SpeechTimer, seconds: float, t: float) -> tuple[SpeechTimer, list[Effect]]:
    """More time (or less, never below zero); the warning and final marks come again if the
    time left goes back above them."""
    left = max(0.0, timer.remaining(t) + seconds)
    running = timer.running
    timer = msgspec.structs.replace(
        timer, duration=max(0.0, timer.duration + seconds),
        ends_at=t + left if running else None, left=None if running else left, since=t,
        warned=left <= WARN and timer.warned, final=left <= FINAL and timer.final)
    return timer, [_event(timer, "changed", t), *_wakes(timer)]


def stop(timer: SpeechTimer, t: float) -> tuple[None, list[Effect]]:
    return None, [_event(timer, "stopped", t), CancelCues(_sounds(timer))]
