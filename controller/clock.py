"""The clock the shell uses, injected so tests can hold their own.

Times inside the service are host *monotonic* seconds: they never jump, so windows and debounce
stay right when NTP steps the wall clock (a Pi has no RTC and often boots with the wrong date).
Wall time is only made at the edge of the service, when a message gets its ``ts``; the mapping
uses the offset between the two clocks at that moment, so a corrected wall clock shows at once.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float:
        """Host monotonic seconds, the time base of every input."""

    def utc_iso(self, t: float) -> str:
        """The UTC ISO-8601 time, to the millisecond, of monotonic instant ``t``."""


def iso_ms(epoch_seconds: float) -> str:
    """``2026-11-29T21:15:04.123Z``."""
    moment = datetime.fromtimestamp(epoch_seconds, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class SystemClock:
    """The real clocks: ``time.monotonic`` for inputs, ``time.time`` for message timestamps."""

    def monotonic(self) -> float:
        return time.monotonic()

    def utc_iso(self, t: float) -> str:
        return iso_ms(time.time() - (time.monotonic() - t))
