"""Drive the pure core the way the event loop does, on a fake timeline (no threads, no sleep)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from contract.inputs import Input, Tick
from controller.core.effects import WakeAt
from controller.core.performed import StepEffect
from controller.core.state import TableState
from controller.core.table import step


class Timeline:
    """Feeds inputs in time order and delivers every tick the core asked for when it is due."""

    def __init__(self, state: TableState):
        self.state = state
        self.effects: list[StepEffect] = []
        self._wakes: list[float] = []

    def feed(self, inputs: Iterable[Input]) -> list[StepEffect]:
        produced: list[StepEffect] = []
        for inp in sorted(inputs, key=lambda i: i.t):
            produced += self._fire_until(inp.t)
            produced += self._apply(inp)
        return produced

    def run_until(self, t: float) -> list[StepEffect]:
        return self._fire_until(t)

    def _fire_until(self, t: float) -> list[StepEffect]:
        produced: list[StepEffect] = []
        while self._wakes and self._wakes[0] <= t:
            produced += self._apply(Tick(heapq.heappop(self._wakes)))
        return produced

    def _apply(self, inp: Input) -> list[StepEffect]:
        self.state, effects = step(self.state, inp)
        out = []
        for effect in effects:
            if isinstance(effect, WakeAt):
                heapq.heappush(self._wakes, effect.t)
            else:
                out.append(effect)
        self.effects += out
        return out
