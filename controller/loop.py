"""The single event loop that owns the table state.

Adapters run on their own threads (gpiozero's edge callbacks, paho's network thread). They never
touch the state: they ``submit`` inputs (or ``call_soon`` shell work), which is thread-safe and
never blocks. The loop thread
takes whatever has arrived, adds the timer ticks that have come due, orders the batch by input
time and applies it through the pure core, then performs the effects.

Ordering by input time (not arrival) means a press that was queued behind a slow command is still
seen at the instant the hand made it; rules decide by those timestamps, not by when the loop got
round to them.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext

from controller.clock import Clock
from controller.core.effects import Effect, WakeAt
from controller.core.inputs import Input, Tick
from controller.core.table import TableState, step

log = logging.getLogger(__name__)

_STOP = object()


class EventLoop:
    """Applies inputs to the core in time order and hands effects to ``perform``.

    ``perform`` is called on the loop thread for every effect except ``WakeAt``, which the loop
    keeps itself. An exception while applying one input is logged with the input and the state is
    left as it was before it: one bad input must not stop the table.

    ``applying(inp)``, when given, is a context manager entered around each input and the
    performing of its effects: the shell uses it to journal a console input's events together
    with the console's position (one transaction), then acknowledge the console.
    """

    def __init__(self, state: TableState, *, clock: Clock, perform: Callable[[Effect], None],
                 applying: Callable[[Input], AbstractContextManager[object]] | None = None):
        self._state = state
        self._clock = clock
        self._perform = perform
        self._applying = applying or (lambda inp: nullcontext())
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._wakes: list[float] = []
        self._settles: list[float] = []  # the debounce wakes among them
        self._calls: list[tuple[float, int, Callable[[], object]]] = []  # call_at, by time
        self._order = itertools.count()  # ties in _calls run in the order they were asked

    @property
    def state(self) -> TableState:
        """The current table state (read it from the loop thread, or after ``run`` returned)."""
        return self._state

    def submit(self, inp: Input) -> None:
        """Hand an input to the loop. Thread-safe, never blocks."""
        self._inbox.put(inp)

    def call_soon(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the loop thread before the next inputs. Thread-safe, never blocks.

        For shell work that must touch what the loop thread owns (the store), such as the
        broker's acknowledgements arriving on paho's thread.
        """
        self._inbox.put(fn)

    def call_at(self, t: float, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the loop thread once the clock reaches ``t`` (host monotonic). Loop
        thread only (from ``perform`` or a ``call_soon``): the shell's own timers, such as a
        sound to play at its time, woken by the same wait as the core's ticks."""
        heapq.heappush(self._calls, (t, next(self._order), fn))

    def stop(self) -> None:
        """Ask ``run`` to return after the inputs already submitted. Thread-safe."""
        self._inbox.put(_STOP)

    def run(self, start: Iterable[Effect] = ()) -> None:
        """Perform ``start`` effects, then loop until ``stop``."""
        self._perform_all(start)
        while not self._run_batch(self._next_batch()):
            pass

    def drain(self, done: Callable[[], bool], timeout: float) -> None:
        """After ``run`` returned: keep working until ``done()`` or ``timeout`` seconds pass.

        For a clean stop that waits for the broker's last acknowledgements.
        """
        deadline = self._clock.monotonic() + timeout
        while not done():
            left = deadline - self._clock.monotonic()
            if left <= 0:
                return
            self._run_batch(self._next_batch(left))

    def _run_batch(self, batch: list[object]) -> bool:
        """Run one batch: shell calls, then inputs and due ticks in time order. True on stop."""
        for fn in [item for item in batch if callable(item)]:
            self._run_call(fn)
        self._run_due_calls()
        inputs = [item for item in batch if item is not _STOP and not callable(item)]
        inputs.extend(self._due_ticks(self._clock.monotonic()))
        inputs.sort(key=lambda inp: inp.t)  # type: ignore[attr-defined]
        for inp in inputs:
            self.apply(inp)  # type: ignore[arg-type]
        if _STOP not in batch:
            return False
        # settle a release still inside its debounce lockout, so no button is left pressed;
        # a timer's or a vote's later moments are not run early
        while self._settles:
            last = max(self._settles)
            self._settles.clear()
            for tick in self._due_ticks(last):
                self.apply(tick)
        return True

    def apply(self, inp: Input) -> None:
        """Apply one input through the core and perform its effects."""
        try:
            with self._applying(inp):
                try:
                    self._state, effects = step(self._state, inp)
                except Exception:
                    log.exception("input %r was not applied (internal error); table state "
                                  "unchanged", inp)
                    return
                self._perform_all(effects)
        except Exception:
            log.exception("input %r: its effects were not all kept", inp)

    def _perform_all(self, effects: Iterable[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, WakeAt):
                heapq.heappush(self._wakes, effect.t)
                if effect.settle:
                    self._settles.append(effect.t)
                continue
            try:
                self._perform(effect)
            except Exception:
                log.exception("effect %r failed", effect)

    def _run_due_calls(self) -> None:
        now = self._clock.monotonic()
        while self._calls and self._calls[0][0] <= now:
            self._run_call(heapq.heappop(self._calls)[2])

    def _run_call(self, fn: Callable[[], object]) -> None:
        try:
            fn()
        except Exception:
            log.exception("call %r failed", fn)

    def _next_batch(self, limit: float | None = None) -> list[object]:
        timeout = limit
        first = min([*self._wakes[:1], *(call[0] for call in self._calls[:1])], default=None)
        if first is not None:
            timeout = min(timeout if timeout is not None else float("inf"),
                          max(0.0, first - self._clock.monotonic()))
        try:
            batch = [self._inbox.get(timeout=timeout)]
        except queue.Empty:
            return []
        while True:
            try:
                batch.append(self._inbox.get_nowait())
            except queue.Empty:
                return batch

    def _due_ticks(self, now: float) -> list[Tick]:
        """Ticks for the wakes due by ``now``."""
        if self._settles:
            self._settles = [t for t in self._settles if t > now]
        ticks = []
        while self._wakes and self._wakes[0] <= now:
            t = heapq.heappop(self._wakes)
            if not ticks or ticks[-1].t != t:
                ticks.append(Tick(t))
        return ticks
