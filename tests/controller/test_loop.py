"""The event loop: time order within a batch, timers for the core, one bad effect is not fatal."""

from __future__ import annotations

import threading
import time

from contract.buttons import SeatButton
from contract.inputs import ButtonEdge
from controller.clock import SystemClock
from controller.core.effects import Emit, SetLight
from controller.core.state import TableSetup, initial_state
from controller.loop import EventLoop

SEAT = SeatButton(1)
SETUP = TableSetup("t", 4, frozenset({SEAT, SeatButton(2)}), debounce=0.02)


def test_a_batch_is_applied_in_input_time_order_not_arrival_order():
    seen: list[Emit] = []
    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=seen.append)
    loop.submit(ButtonEdge(SeatButton(2), True, 2.0))  # arrives first, happened later
    loop.submit(ButtonEdge(SEAT, True, 1.0))
    loop.stop()
    loop.run()
    assert [(e.kind, e.event.seat, e.t) for e in seen] == [
        ("seat/press", 1, 1.0), ("seat/press", 2, 2.0)]


def test_the_loop_delivers_the_tick_the_core_asked_for():
    clock = SystemClock()
    events: list[Emit] = []
    loop = EventLoop(initial_state(SETUP), clock=clock, perform=lambda e: (
        events.append(e), e.kind == "seat/release" and loop.stop()))
    now = clock.monotonic()
    loop.submit(ButtonEdge(SEAT, True, now))
    loop.submit(ButtonEdge(SEAT, False, now + 0.001))  # inside the lockout: settles at now + 20 ms
    runner = threading.Thread(target=loop.run)
    runner.start()
    runner.join(5)
    assert not runner.is_alive()
    assert [(e.kind, e.t) for e in events] == [("seat/press", now), ("seat/release", now + 0.001)]
    assert clock.monotonic() >= now + 0.02  # the release waited for the lockout to end


def test_a_stop_settles_a_release_still_inside_its_lockout():
    seen: list[Emit] = []
    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=seen.append)
    now = time.monotonic()
    loop.submit(ButtonEdge(SEAT, True, now))
    loop.submit(ButtonEdge(SEAT, False, now + 0.005))
    loop.stop()
    loop.run()
    assert [(e.kind, e.t) for e in seen] == [("seat/press", now), ("seat/release", now + 0.005)]


def test_an_effect_that_fails_is_logged_and_the_loop_goes_on(caplog):
    done: list[object] = []

    def perform(effect):
        if isinstance(effect, SetLight) and effect.seat == 1:
            raise OSError("LED driver gone")
        done.append(effect)

    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=perform)
    loop.submit(ButtonEdge(SEAT, True, time.monotonic()))
    loop.stop()
    loop.run(start=[SetLight(1, initial_state(SETUP).light(1)),
                    SetLight(2, initial_state(SETUP).light(2))])
    assert [type(e).__name__ for e in done] == ["SetLight", "Emit"]
    assert "LED driver gone" in caplog.text


def test_call_at_runs_the_shells_timers_on_the_loop_thread_in_time_order():
    clock = SystemClock()
    loop = EventLoop(initial_state(SETUP), clock=clock, perform=lambda e: None)
    ran: list[tuple[str, float, bool]] = []
    runner = threading.Thread(target=loop.run)
    now = clock.monotonic()

    def mark(name: str) -> None:
        ran.append((name, clock.monotonic(), threading.current_thread() is runner))
        if name == "last":
            loop.stop()

    loop.call_soon(lambda: [loop.call_at(now + 0.06, lambda: mark("last")),
                            loop.call_at(now + 0.03, lambda: mark("first"))])
    runner.start()
    runner.join(5)
    assert [name for name, _, _ in ran] == ["first", "last"]
    assert all(on_loop for _, _, on_loop in ran)
    assert ran[0][1] >= now + 0.03 and ran[1][1] >= now + 0.06  # never early
