"""Drive the pure core the way the event loop does, on a fake timeline (no threads, no sleep)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from contract.inputs import Input, Tick
from controller.core.effects import Effect, WakeAt
from controller.core.table import TableState, step


class Timeline:
    """Feeds inputs in time order and delivers every tick the core asked for when it is due."""

    def __init__(self, state: TableState):
        self.state = state
        self.effects: list[Effect] = []
        self._wakes: list[float] = []

    def feed(self, inputs: Iterable[Input]) -> list[Effect]:
        produced: list[Effect] = []
        for inp in sorted(inputs, key=lambda i: i.t):
            produced += self._fire_until(inp.t)
            produced += self._apply(inp)
        return produced

    def run_until(self, t: float) -> list[Effect]:
        return self._fire_until(t)

    def _fire_until(self, t: float) -> list[Effect]:
        produced: list[Effect] = []
        while self._wakes and self._wakes[0] <= t:
            produced += self._apply(Tick(heapq.heappop(self._wakes)))
        return produced

    def _apply(self, inp: Input) -> list[Effect]:
        self.state, effects = step(self.state, inp)
        out = []
        for effect in effects:
            if isinstance(effect, WakeAt):
                heapq.heappush(self._wakes, effect.t)
            else:
                out.append(effect)
        self.effects += out
        return out
