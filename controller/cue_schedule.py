"""The one place that plays each sound at its time (``Cue.t``), and takes back those not yet due.

The core says *when* a sound belongs (a night step's numbers at ``start + i * cadence``, the
``cmd/audio`` number a second after its tone); this shell part keeps the ones still to come
and asks the event loop to wake it at each one's time (``EventLoop.call_at``: the loop's own
wait, no sleeping thread). A ``CancelCues`` drops the waiting ones of a group (a step ended
early) or all of them (the phase changed).

The music ducks under every sound played and comes back once the last one playing has ended:
the restore is one more timed call on the same loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.core.effects import CancelCues, Cue


class Player(Protocol):
    def cue(self, name: str) -> float:
        """Play ``name`` now, ducking the music; how long it lasts (0: nothing played)."""
        ...

    def restore(self) -> None:
        """Bring the music back to its volume after the sounds that ducked it."""
        ...


class CueSchedule:
    """Cues waiting for their time; ``now`` and ``call_at`` come from the event loop."""

    def __init__(self, player: Player, *, now: Callable[[], float],
                 call_at: Callable[[float, Callable[[], object]], None]):
        self._player = player
        self._now = now
        self._call_at = call_at
        self._waiting: list[Cue] = []
        self._ducked_until = float("-inf")

    @property
    def waiting(self) -> tuple[Cue, ...]:
        """The cues not played yet, in time order."""
        return tuple(sorted(self._waiting, key=lambda cue: cue.t))

    def add(self, cue: Cue) -> None:
        """Play ``cue`` now if its time has come, else when it does."""
        if cue.t <= self._now():
            self._play(cue)
            return
        self._waiting.append(cue)
        self._call_at(cue.t, self._play_due)

    def cancel(self, cancel: CancelCues) -> None:
        self._waiting = [cue for cue in self._waiting
                         if cancel.group is not None and cue.group != cancel.group]

    def _play_due(self) -> None:
        now = self._now()
        due = sorted((cue for cue in self._waiting if cue.t <= now), key=lambda cue: cue.t)
        self._waiting = [cue for cue in self._waiting if cue.t > now]
        for cue in due:
            self._play(cue)

    def _play(self, cue: Cue) -> None:
        length = self._player.cue(cue.name)
        if length <= 0:
            return
        self._ducked_until = max(self._ducked_until, self._now() + length)
        self._call_at(self._ducked_until, self._restore_if_quiet)

    def _restore_if_quiet(self) -> None:
        if self._now() >= self._ducked_until:
            self._player.restore()
