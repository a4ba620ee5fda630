"""Drive the pure core the way the event loop does, on a fake timeline (no threads, no sleep),
with the hands' inputs built as the shell would build them."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import cast

from contract.buttons import JudgeButton, JudgeButtonName, SeatButton
from contract.events import Key
from contract.inputs import ButtonEdge, Input, KeyPressed, Tick
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
        out: list[StepEffect] = []
        for effect in effects:
            if isinstance(effect, WakeAt):
                heapq.heappush(self._wakes, effect.t)
            else:
                out.append(effect)
        self.effects += out
        return out


def press(seat: int, t: float, hold: float = 0.3) -> list[ButtonEdge]:
    """A fist on the table at ``t``, lifted ``hold`` seconds later."""
    return [ButtonEdge(SeatButton(seat), True, t), ButtonEdge(SeatButton(seat), False, t + hold)]


def judge(name: JudgeButtonName, t: float) -> list[ButtonEdge]:
    """A tap of the judge's button ``name`` at ``t``, released 0.2 s later."""
    return [ButtonEdge(JudgeButton(name), True, t), ButtonEdge(JudgeButton(name), False, t + 0.2)]


def typed(seat: int, keys: str, t: float) -> list[KeyPressed]:
    """``keys`` typed on ``seat``'s keypad from ``t``, a tenth of a second apart."""
    return [KeyPressed(seat, cast(Key, k), t + i * 0.1) for i, k in enumerate(keys)]
