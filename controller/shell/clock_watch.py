"""Whether the wall clock can be trusted, asked every ``CLOCK_CHECK_SECONDS``.

A Pi has no real-time clock: until NTP has set it, ``ts`` may be days off, and a command's age
by its ``ts`` means nothing (``controller.shell.intake`` refuses stale commands only while the
clock is synchronised). The kernel's answer (``controller.clock.clock_sync``) is asked on a
thread of its own; a change is handed to the loop, logged, and told in ``health.clock``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial

from controller.clock import ClockSync

log = logging.getLogger(__name__)

#: How often the wall clock's synchronisation is asked after.
CLOCK_CHECK_SECONDS = 30.0


class ClockWatch:
    """``sync``: the last answer (read on any thread). ``start`` begins asking every ``every``
    seconds; ``stop`` ends it."""

    def __init__(self, ask: Callable[[], ClockSync], *,
                 call_soon: Callable[[Callable[[], None]], None],
                 on_change: Callable[[], None], every: float = CLOCK_CHECK_SECONDS):
        self._ask = ask
        self._call_soon = call_soon
        self._on_change = on_change
        self._every = every
        self._stop = threading.Event()
        self.sync = ask()

    def start(self) -> None:
        if not self.sync.synchronized:
            log.warning("the wall clock is not synchronised (%s): ts may be off until it is; "
                        "mono_ms orders events meanwhile", self.sync.source)
        threading.Thread(target=self._watch, name="clock-watch", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        while not self._stop.wait(self._every):
            now = self._ask()
            if now.synchronized != self.sync.synchronized:
                self._call_soon(partial(self._changed, now))

    def _changed(self, now: ClockSync) -> None:
        self.sync = now
        if now.synchronized:
            log.info("the wall clock is synchronised now (ts can be trusted; it may have "
                     "stepped: mono_ms orders events across the step)")
        else:
            log.warning("the wall clock is not synchronised (%s): ts may be off; commands are "
                        "not refused by their age until it is", now.source)
        self._on_change()
