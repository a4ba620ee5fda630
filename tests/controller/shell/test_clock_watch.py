"""The wall clock's watch: a change of synchronisation is told once, when it happens, whether
or not systemd watches the service (it once only started beside the systemd watchdog)."""

from __future__ import annotations

import threading

from controller.clock import ClockSync
from controller.shell.clock_watch import ClockWatch

UNSYNCED = ClockSync(False, 16000.0, "adjtimex")
SYNCED = ClockSync(True, 2.0, "adjtimex")


class Kernel:
    """Answers ``UNSYNCED`` until told, then ``SYNCED``; counts the questions."""

    def __init__(self) -> None:
        self.answer = UNSYNCED
        self.asked = 0
        self.changed = threading.Condition()

    def ask(self) -> ClockSync:
        with self.changed:
            self.asked += 1
            self.changed.notify_all()
            return self.answer

    def wait_asked(self, times: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.asked >= times, timeout=10), self.asked


def test_a_clock_that_becomes_synchronised_is_told_once_and_then_trusted():
    kernel = Kernel()
    told: list[ClockSync] = []
    heard = threading.Event()
    watch = ClockWatch(kernel.ask, call_soon=lambda fn: fn(),
                       on_change=lambda: (told.append(watch.sync), heard.set()), every=0.005)
    assert watch.sync == UNSYNCED  # asked at once, before the first interval
    watch.start()
    try:
        kernel.wait_asked(3)
        assert told == []  # the same answer again is no news
        kernel.answer = SYNCED
        assert heard.wait(10)
        kernel.wait_asked(kernel.asked + 3)
        assert told == [SYNCED] and watch.sync == SYNCED
    finally:
        watch.stop()
