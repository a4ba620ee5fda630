"""The GPIO board on gpiozero's own MockFactory, as the simulator makes it (PWM mock pins that
remember only their recent level changes)."""

from __future__ import annotations

import queue
import threading
import time

import pytest

from contract import light_timing
from contract.buttons import JudgeButton, SeatButton
from contract.inputs import ButtonEdge
from contract.lights import Light, LightMode
from controller import config
from hardware.gpio import MOCK_PIN_HISTORY, GpioBoard, make_pin_factory
from tests.support.table_configs import SMALL_TABLE, write_config


@pytest.fixture
def factory():
    factory = make_pin_factory("mock")
    yield factory
    factory.reset()
    factory.close()


@pytest.fixture
def board(tmp_path, factory):
    cfg = config.load(write_config(tmp_path, SMALL_TABLE.format(port=1883)))
    edges: queue.SimpleQueue[ButtonEdge] = queue.SimpleQueue()
    board = GpioBoard(cfg.gpio, factory=factory, now=time.monotonic, submit=edges.put)
    board.edges = edges
    yield board
    board.close()


def test_a_press_carries_the_time_of_the_pin_edge(board, factory):
    pin = factory.pin(4)
    pin.drive_low()  # pull-up wiring: pressed = low
    edge = board.edges.get(timeout=1)
    assert (edge.button, edge.pressed) == (SeatButton(1), True)
    # MockPin records the monotonic time of the change; the edge must carry that, not "now"
    assert abs(edge.t - pin._last_change) < 0.001
    pin.drive_high()
    assert board.edges.get(timeout=1).pressed is False


def test_judge_buttons_are_read_too(board, factory):
    factory.pin(10).drive_low()
    assert board.edges.get(timeout=1).button == JudgeButton("reject")


def test_pull_down_wiring_reads_high_as_pressed(tmp_path, factory):
    cfg = config.load(write_config(tmp_path, SMALL_TABLE.format(port=1883).replace(
        "debounce_ms = 20", "debounce_ms = 20\n    pull_up = false")))
    edges: queue.SimpleQueue[ButtonEdge] = queue.SimpleQueue()
    board = GpioBoard(cfg.gpio, factory=factory, now=time.monotonic, submit=edges.put)
    try:
        factory.pin(4).drive_high()
        assert edges.get(timeout=1).pressed is True
    finally:
        board.close()


def test_a_simulated_press_drives_the_mock_pin_through_the_real_callback(board, factory):
    board.drive(SeatButton(3), True)
    assert factory.pin(27).state == 0
    edge = board.edges.get(timeout=1)
    assert (edge.button, edge.pressed) == (SeatButton(3), True)


def test_mono_light_modes_set_the_pwm_pin(board, factory):
    pin = factory.pin(18)
    board.show(1, Light(LightMode.ON))
    assert pin.state == 1
    board.show(1, Light(LightMode.DIM))
    assert pin.state == pytest.approx(light_timing.DIM)
    board.show(1, Light(LightMode.OFF))
    assert pin.state == 0


def test_blink_toggles_the_pin_until_told_otherwise(board, factory):
    pin = factory.pin(18)
    pin.clear_states()
    board.show(1, Light(LightMode.BLINK))
    deadline = time.monotonic() + 3
    while sum(1 for s in pin.states if s.state == 0) < 1 or len(pin.states) < 3:
        assert time.monotonic() < deadline, f"no blinking seen: {pin.states}"
        time.sleep(0.05)
    board.show(1, Light(LightMode.ON))
    assert pin.state == 1


def test_changing_lights_between_blinks_starts_no_thread_and_still_blinks(board, factory,
                                                                          monkeypatch):
    """A flood of light commands starts no thread: one blinks them all (gpiozero's ``blink``
    started one per change and joined the last, on the event loop's thread)."""
    started: list[threading.Thread] = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start",
                        lambda thread: (started.append(thread), start(thread))[1])
    for n in range(100):  # what a flood of cmd/light does to two seats
        board.show(1, Light(LightMode.FAST_BLINK if n % 2 else LightMode.BLINK))
        board.show(2, Light(LightMode.FAST_BLINK if n % 2 else LightMode.BLINK, "#ff0000"))
    assert started == []
    pin = factory.pin(18)
    pin.clear_states()
    deadline = time.monotonic() + 5
    while [round(s.state) for s in pin.states][-3:] != [1, 0, 1]:  # seat 1 fast: on, off, on
        assert time.monotonic() < deadline, f"no blinking seen: {pin.states}"
        time.sleep(0.02)
    board.show(1, Light(LightMode.OFF))
    assert pin.state == 0


def test_a_simulated_pin_remembers_only_its_recent_level_changes(board, factory):
    """A blinking simulated light must not grow the process for ever (gpiozero keeps every
    level change of a mock pin): the history is bounded, newest kept."""
    pin = factory.pin(18)
    for _ in range(10 * MOCK_PIN_HISTORY):
        board.show(1, Light(LightMode.ON))
        board.show(1, Light(LightMode.OFF))
    board.show(1, Light(LightMode.DIM))
    assert len(pin.states) == MOCK_PIN_HISTORY
    assert pin.states[-1].state == pytest.approx(light_timing.DIM)
    assert [s.state for s in list(pin.states)[-3:-1]] == [1, 0]


def test_rgb_light_shows_the_colour(board, factory):
    red, green, blue = (factory.pin(n) for n in (22, 23, 24))
    board.show(2, Light(LightMode.ON, "#ff8000"))
    assert (red.state, green.state, blue.state) == pytest.approx((1.0, 0x80 / 255, 0.0))
    board.show(2, Light(LightMode.DIM))  # no colour: dim white
    assert (red.state, green.state, blue.state) == pytest.approx((light_timing.DIM,) * 3)


def test_a_seat_without_a_light_is_skipped(board, factory):
    board.show(5, Light(LightMode.ON))  # seat 5 has no GPIO light: nothing to drive, no error
    assert [factory.pin(n).state for n in (18, 22, 23, 24, 25)] == [0, 0, 0, 0, 0]


def test_close_turns_every_light_off_and_frees_the_pins(board, factory):
    board.show(1, Light(LightMode.ON))
    board.show(2, Light(LightMode.ON, "#00ff00"))
    board.close()
    assert [factory.pin(n).state for n in (18, 22, 23, 24)] == [0, 0, 0, 0]
    assert factory.pin(4).when_changed is None
