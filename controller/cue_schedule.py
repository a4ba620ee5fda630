"""The one place that plays each sound at its time (``Cue.t``), and takes back those not yet due.

The core says *when* a sound belongs (a night step's numbers at ``start + i * cadence``, the
``cmd/audio`` number a second after its tone); this shell part keeps the ones still to come
and asks the event loop to wake it ``EARLY`` before the first one's time
(``EventLoop.call_at``: the loop's own wait, no sleeping thread). Then it hands the speaker that
cue together with every other waiting cue of its group, as one sound with each cue after its own
stretch of silence: the numbers of a count step are then exactly ``cadence`` apart in what the
players hear, however late the loop woke or however busy the machine is. A cue whose time has
passed plays on the loop's next turn, after the rest of the input that made it (a speech's
warning is its tone and its words, two cues), and a group later than its first cue's time is
played late whole, each cue as far after the first as its time says: never squeezed together.
``CancelCues`` drops the waiting cues of a group and stops its sound (a step ended early), or
all of them (the phase changed).

The music ducks under each cue as it sounds and comes back once the last one sounding has
ended: more timed calls on the same loop.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from controller.core.effects import CancelCues, Cue

#: how long before a cue's time the loop is woken to hand it to the speaker (the most a loop
#: may be late and the first sound of a group still start on its time)
EARLY = 0.15


class Player(Protocol):
    def play(self, parts: list[tuple[str, float]]) -> tuple[Any, list[tuple[float, float]]]:
        """Play the named cues, each ``after`` seconds from now, as one sound; what stops it,
        and each part's (start, length) from now."""
        ...

    def stop(self, playing: Any) -> None: ...

    def duck(self) -> None: ...

    def restore(self) -> None: ...


class CueSchedule:
    """Cues waiting for their time; ``now`` and ``call_at`` come from the event loop."""

    def __init__(self, player: Player, *, now: Callable[[], float],
                 call_at: Callable[[float, Callable[[], object]], None]):
        self._player = player
        self._now = now
        self._call_at = call_at
        self._waiting: list[Cue] = []
        self._sounding: dict[str | None, Any] = {}  # group -> what play() started
        #: when each cue handed over sounds, and its group (a cancel takes its spans back)
        self._spans: list[tuple[float, float, str | None]] = []

    @property
    def waiting(self) -> tuple[Cue, ...]:
        """The cues not handed to the speaker yet, in time order."""
        return tuple(sorted(self._waiting, key=lambda cue: cue.t))

    def add(self, cue: Cue) -> None:
        """Play ``cue`` (with its group) ``EARLY`` before its time; if that has passed, on the
        loop's next turn: once the input that made it has added its group's other cues."""
        self._waiting.append(cue)
        self._call_at(cue.t - EARLY, self._play_due)

    def cancel(self, cancel: CancelCues) -> None:
        """Take back the cues of ``cancel.group`` (all: None) not yet heard."""
        self._waiting = [cue for cue in self._waiting
                         if cancel.group is not None and cue.group != cancel.group]
        for group in [g for g in self._sounding if cancel.group in (None, g)]:
            self._player.stop(self._sounding.pop(group))
        self._spans = [span for span in self._spans
                       if cancel.group is not None and span[2] != cancel.group]
        self._restore_if_quiet()

    def _play_due(self) -> None:
        now = self._now()
        for cue in sorted((c for c in self._waiting if c.t - EARLY <= now), key=lambda c: c.t):
            if cue not in self._waiting:
                continue  # gone out with an earlier cue of its group
            together = [cue] if cue.group is None else [
                c for c in self._waiting if c.group == cue.group]
            self._waiting = [c for c in self._waiting if c not in together]
            self._play(together, now)

    def _play(self, cues: list[Cue], now: float) -> None:
        """``cues`` as one sound, each at its time; all of them ``late`` if the first one's has
        passed (a warning's words ``SAY_AFTER`` its tone, a loop late or not)."""
        late = max(0.0, now - min(c.t for c in cues))
        playing, parts = self._player.play([(c.name, c.t + late - now) for c in cues])
        group = cues[0].group
        if group is not None and parts:
            self._sounding[group] = playing
            self._call_at(now + max(start + length for start, length in parts),
                          lambda: self._ended(group, playing))
        for start, length in parts:
            span = (now + start, now + start + length, group)
            self._spans.append(span)
            self._call_at(now + start, partial(self._duck_if_held, span))
            self._call_at(now + start + length, self._restore_if_quiet)

    def _ended(self, group: str, playing: Any) -> None:
        """A group's sound has run out: forget it, unless a newer sound of that group plays."""
        if self._sounding.get(group) is playing:
            del self._sounding[group]

    def _duck_if_held(self, span: tuple[float, float, str | None]) -> None:
        """A cue starts: the music ducks, unless a cancel took that cue back (it is not heard)."""
        if any(held is span for held in self._spans):  # this very cue, not an equal later one
            self._player.duck()

    def _restore_if_quiet(self) -> None:
        """A cue has ended: the music comes back unless another one sounds now."""
        now = self._now()
        self._spans = [span for span in self._spans if span[1] > now]
        if not any(start <= now for start, _, _ in self._spans):
            self._player.restore()
