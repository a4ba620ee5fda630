"""Console clock to host clock, from PING/PONG round trips (pure; no I/O).

Each sample is (host send time, host receive time, console ``t_ms`` in the PONG). The console
answered somewhere inside the round trip, so ``(send + receive) / 2 - t_ms / 1000`` estimates
the offset between the clocks within half the round trip. The sample with the smallest round
trip among the last ``window`` is the best; every event's ``t_ms`` is mapped with it.

``t_ms`` wraps at 2**32 ms (49.7 days); times are unwrapped against the latest PONG, so an event
within ±24 days of it maps right.
"""

from __future__ import annotations

from collections import deque

WRAP = 1 << 32


class ClockMap:
    def __init__(self, window: int = 16):
        self._samples: deque[tuple[float, float]] = deque(maxlen=window)  # (rtt, offset)
        self._last_ms: int | None = None  # unwrapped: grows past 2**32

    def _unwrap(self, t_ms: int) -> int:
        if self._last_ms is None:
            return t_ms
        delta = (t_ms - self._last_ms) % WRAP
        if delta >= WRAP // 2:
            delta -= WRAP
        return self._last_ms + delta

    def add(self, sent: float, received: float, t_ms: int) -> None:
        rtt = received - sent
        if rtt < 0:
            return
        t_ms = self._unwrap(t_ms)
        self._samples.append((rtt, (sent + received) / 2 - t_ms / 1000))
        self._last_ms = t_ms

    @property
    def ready(self) -> bool:
        return bool(self._samples)

    @property
    def best_rtt(self) -> float | None:
        return min(self._samples)[0] if self._samples else None

    @property
    def offset_ms(self) -> float | None:
        """Host monotonic minus console clock, by the best sample (for ``health``)."""
        return round(min(self._samples)[1] * 1000, 3) if self._samples else None

    def to_host(self, t_ms: int) -> float | None:
        """Host monotonic seconds of console time ``t_ms``; None before the first sample."""
        if not self._samples or self._last_ms is None:
            return None
        _, offset = min(self._samples)
        return self._unwrap(t_ms) / 1000 + offset
