"""The clock the shell uses, injected so tests can hold their own.

Times inside the service are host *monotonic* seconds: they never jump, so windows and debounce
stay right when NTP steps the wall clock (a Pi has no RTC and often boots with the wrong date).
Wall time is only made at the edge of the service, when a message gets its ``ts``; the mapping
uses the offset between the two clocks at that moment, so a corrected wall clock shows at once.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

BOOT_ID_FILE = "/proc/sys/kernel/random/boot_id"


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


def host_boot_id() -> str | None:
    """The kernel's id of this boot of the host (Linux), None elsewhere.

    ``time.monotonic`` counts from the host's boot, the same clock in every process: two
    instants compare (and subtract) exactly when they carry the same boot id, whatever the
    wall clock did in between.
    """
    try:
        return Path(BOOT_ID_FILE).read_text(encoding="ascii").strip() or None
    except OSError:
        return None


@dataclass(frozen=True)
class ClockSync:
    """Whether the kernel's wall clock is synchronised (by NTP, chrony, systemd-timesyncd...)."""

    synchronized: bool | None  # None: cannot tell on this host
    max_error_ms: float | None  # the kernel's bound on the wall clock's error
    source: str


#: ``adjtimex`` return value for "the clock is not synchronised", and the status bit saying so.
_TIME_ERROR = 5
_STA_UNSYNC = 0x0040


def clock_sync() -> ClockSync:
    """Ask the kernel (``adjtimex`` with no changes: read-only, any user may) whether the wall
    clock is synchronised, as ``timedatectl``'s "System clock synchronized" does. A Pi has no
    real-time clock: until NTP answers, its clock can be off by days, and ``ts`` with it."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        timex = _Timex()  # modes = 0: only read
        state = libc.adjtimex(ctypes.byref(timex))
    except (OSError, AttributeError, TypeError):
        return ClockSync(None, None, "unknown: no adjtimex on this host")
    if state < 0:
        return ClockSync(None, None, f"unknown: adjtimex failed (errno {ctypes.get_errno()})")
    synced = state != _TIME_ERROR and not timex.status & _STA_UNSYNC
    return ClockSync(synced, timex.maxerror / 1000, "adjtimex")


class _Timex(ctypes.Structure):
    """The head of Linux's ``struct timex`` (the kernel writes the rest into the padding)."""

    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long),
                ("status", ctypes.c_int), ("_rest", ctypes.c_byte * 256)]
