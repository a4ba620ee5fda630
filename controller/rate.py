"""A token bucket: at most ``rate`` a second, ``burst`` at a time (loop thread, or one thread).

The loop takes commands by one (``controller.loop``), the intake answers refused commands by
another (``controller.shell.intake``). It takes only whole ``want``s: under a flood, a batch of
``burst`` every ``burst / rate`` seconds rather than many batches of one.
"""

from __future__ import annotations


class TokenBucket:
    def __init__(self, rate: float, burst: int, now: float):
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._at = now

    def _fill(self, now: float) -> None:
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now

    def ready(self, waiting: int, now: float) -> tuple[int, float]:
        """How many of ``waiting`` to take now (``min(burst, waiting)``, or 0), and if none,
        the seconds until they may be."""
        self._fill(now)
        need = min(self.burst, waiting)
        if self._tokens >= need:
            return need, 0.0
        return 0, (need - self._tokens) / self.rate

    def spend(self, count: int) -> None:
        self._tokens -= count

    def take(self, now: float) -> bool:
        """One, if there is one now."""
        if self.ready(1, now)[0]:
            self.spend(1)
            return True
        return False
