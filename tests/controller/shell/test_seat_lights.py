"""One behaviour, every seat-light backend of ``controller.shell.seat_lights.SEAT_LIGHTS``: the GPIO
board (gpiozero's MockPWMPin), the LED strip (its SPI frames recorded and decoded) and the
consoles (an emulated console running the firmware, over a real pty and the host's link) must
show the same light the same way."""

from __future__ import annotations

import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import assume, given
from hypothesis import strategies as st

from contract import light_timing
from contract.lights import Light, LightMode
from controller import config
from controller.shell.seat_lights import SEAT_LIGHTS, LightsWiring
from firmware_bridge.link import ConsoleConfig, ConsoleLink
from firmware_bridge.ports import CONSOLE_PORTS
from hardware import strip as strip_module
from hardware import ws2812
from hardware.gpio import GpioBoard
from hardware.strip import StripConfig, StripSeat
from tests.support.table_configs import SMALL_TABLE, write_config

STRIP = StripConfig(chip="ws2812b", order="GRB", brightness=0.4, seat=[
    StripSeat(seat=1, first=0, count=3), StripSeat(seat=2, first=3, count=3)])


@dataclass
class Lights:
    """A backend under test: ``show`` and ``glow`` as the service uses them, and ``seen`` (the
    glows it has put out for a seat so far, read back from what reached the hardware)."""

    show: Callable[[int, Light], None]
    glow: Callable[[int], tuple[float, float, float] | None]
    seen: Callable[[int], list[float]]
    close: Callable[[], None]


def _gpio(tmp_path) -> Lights:
    factory = MockFactory(pin_class=MockPWMPin)
    cfg = config.load(write_config(tmp_path, SMALL_TABLE.format(port=1883)))
    board = GpioBoard(cfg.gpio, factory=factory, now=time.monotonic, submit=lambda edge: None)
    pins = {1: factory.pin(18), 2: factory.pin(22)}  # seat 1's LED, seat 2's red

    def close() -> None:
        board.close()
        factory.reset()
        factory.close()

    return Lights(board.show, board.glow, lambda seat: [s.state for s in pins[seat].states],
                  close)


def _strip(tmp_path) -> Lights:
    device = strip_module.RecordingSpi()
    lights = strip_module.StripLights(STRIP, device, now=time.monotonic)
    def seen(seat: int) -> list[float]:
        led = {1: 0, 2: 3}[seat]
        with device.changed:
            frames = [f for _, f in device.frames]
        enc = ws2812.ENCODINGS["ws2812b"]
        return [ws2812.to_rgb(ws2812.decode_frame(f, "GRB", enc)[led], "GRB")[0]
                / 255 / STRIP.brightness for f in frames]

    return Lights(lights.show, lights.glow, seen, lights.close)


def _consoles(tmp_path) -> Lights:
    """Seats 1 and 2 on one emulated console, built by the registry as ``--sim`` builds it."""
    cfg = config.load(write_config(tmp_path, SMALL_TABLE.format(port=1883)))
    ports = CONSOLE_PORTS["emulated"]()
    console = ConsoleConfig(port="", seats=[1, 2])
    link = ConsoleLink(ports.port(0, console), frozenset(console.seats), keys_only=False,
                       now=time.monotonic, submit=lambda inp, position: None,
                       on_health=lambda: None)
    backend = SEAT_LIGHTS["consoles"](LightsWiring(cfg, None, [link], ports,  # type: ignore[arg-type]
                                                   time.monotonic, lambda: None))
    assert backend is not None
    ports.start()
    link.start()
    _eventually(lambda: link.health.online, "the console never came online", timeout=30)
    sampled: dict[int, list[float]] = {1: [], 2: []}

    def seen(seat: int) -> list[float]:  # the console's pins, sampled each time we look
        sampled[seat].append(backend.glow(seat)[0])
        return sampled[seat]

    def close() -> None:
        backend.close()
        link.stop()
        ports.close()

    return Lights(backend.show, backend.glow, seen, close)


BACKENDS = {"gpio": _gpio, "strip": _strip, "consoles": _consoles}


def test_every_registered_backend_is_under_test():
    assert set(BACKENDS) == set(SEAT_LIGHTS)


@pytest.fixture(params=sorted(BACKENDS))
def lights(request, tmp_path):
    backend = BACKENDS[request.param](tmp_path)
    yield backend
    backend.close()


def _eventually(check: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _approx(glow, want):
    return glow == pytest.approx(want, abs=0.01)


class TestEveryLightsBackend:
    def test_on_shows_white_at_full(self, lights):
        lights.show(1, Light(LightMode.ON))
        _eventually(lambda: _approx(lights.glow(1), (1.0, 1.0, 1.0)), "seat 1 never lit")

    def test_a_colour_shows_as_that_colour(self, lights):
        lights.show(2, Light(LightMode.ON, "#ff8000"))
        _eventually(lambda: _approx(lights.glow(2), (1.0, 0x80 / 255, 0.0)), "no orange")

    def test_dim_is_the_consoles_dim(self, lights):
        lights.show(1, Light(LightMode.DIM))
        _eventually(lambda: _approx(lights.glow(1), (light_timing.DIM,) * 3), "not dim")

    def test_off_after_on_is_dark(self, lights):
        lights.show(1, Light(LightMode.ON))
        _eventually(lambda: lights.glow(1)[0] > 0.9, "never lit")
        lights.show(1, Light(LightMode.OFF))
        _eventually(lambda: _approx(lights.glow(1), (0.0, 0.0, 0.0)), "never dark again")

    def test_a_seat_without_a_light_is_skipped(self, lights):
        lights.show(5, Light(LightMode.ON))
        assert lights.glow(5) is None

    @pytest.mark.parametrize("mode", [LightMode.BLINK, LightMode.FAST_BLINK])
    def test_blinking_goes_on_and_off_until_told_otherwise(self, lights, mode):
        lights.show(2, Light(mode, "#ff0000"))

        def blinked() -> bool:  # lit, dark, lit again
            levels = [round(v) for v in lights.seen(2)]
            return [k for i, k in enumerate(levels) if i == 0 or levels[i - 1] != k][-3:] == [
                1, 0, 1]

        _eventually(blinked, f"{mode} never went on, off, on")
        lights.show(2, Light(LightMode.ON, "#ff0000"))
        _eventually(lambda: _approx(lights.glow(2), (1.0, 0.0, 0.0)), "did not stay on")


BLINK_SECONDS = light_timing.BLINK_MS / 1000
FAST_BLINK_SECONDS = light_timing.FAST_BLINK_MS / 1000


def test_the_strip_blinks_on_the_gpio_lights_clock():
    """Both backends take the consoles' constants: a light's level at any moment is on for
    ``BLINK_MS``, then off as long (on first)."""
    for mode, half in ((LightMode.BLINK, BLINK_SECONDS), (LightMode.FAST_BLINK,
                                                          FAST_BLINK_SECONDS)):
        light = Light(mode)
        for k in range(6):
            middle = (k + 0.5) * half
            assert strip_module.level(light, 100.0, 100.0 + middle) == (1.0 if k % 2 == 0 else 0.0)


modes = st.sampled_from(list(LightMode))
times = st.floats(0, 1e5, allow_nan=False)


@given(mode=modes, since=times, after=st.floats(0, 100))
def test_the_strip_picture_holds_until_next_change_and_changes_there(mode, since, after):
    light = Light(mode)
    now = since + after
    due = strip_module.next_change({1: (light, since)}, now)
    if mode not in (LightMode.BLINK, LightMode.FAST_BLINK):
        assert due is None
        return
    half = BLINK_SECONDS if mode == LightMode.BLINK else FAST_BLINK_SECONDS
    assert now < due <= now + half + 1e-9  # a float's rounding past the half period
    before = strip_module.level(light, since, now)
    middle = now + (due - now) / 2
    assume(middle < due)  # not when ``now`` is within a float's step of the change
    assert strip_module.level(light, since, middle) == before
    assert strip_module.level(light, since, due + 1e-3) != before


@given(mode=modes, colour=st.sampled_from([None, "#ff8000", "#00ff00", "#2040ff"]),
       brightness=st.floats(0.01, 1), t=times)
def test_no_pixel_ever_exceeds_the_brightness_cap(mode, colour, brightness, t):
    pixels = strip_module.frame({1: (Light(mode, colour), 0.0)}, {1: range(0, 3)}, 4,
                                brightness, t)
    assert max(max(p) for p in pixels) <= round(255 * brightness)
    assert pixels[3] == (0, 0, 0)  # an LED of no seat stays dark


def test_close_turns_the_strip_dark_and_releases_the_device():
    device = strip_module.RecordingSpi()
    lights = strip_module.StripLights(STRIP, device, now=time.monotonic)
    lights.show(1, Light(LightMode.ON))
    _eventually(lambda: device.last() is not None and any(device.last()), "never lit")
    lights.close()
    last = ws2812.decode_frame(device.last(), "GRB", ws2812.ENCODINGS["ws2812b"])
    assert set(last) == {(0, 0, 0)} and device.closed


class FailingOnce(strip_module.RecordingSpi):
    """An SPI device whose first write fails, as a device unplugged for a moment would."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 1

    def write(self, frame: bytes) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError(5, "Input/output error")
        super().write(frame)


def test_a_failed_spi_write_is_logged_and_the_next_change_is_written(caplog):
    device = FailingOnce()
    told: list[int] = []
    lights = strip_module.StripLights(STRIP, device, now=time.monotonic,
                                      on_error=lambda: told.append(1))
    try:
        _eventually(lambda: device.failures == 0, "the first (blank) frame was never tried")
        lights.show(1, Light(LightMode.ON, "#00ff00"))
        _eventually(lambda: _approx(lights.glow(1), (0.0, 1.0, 0.0)), "never green")
        assert "strip: SPI write failed" in caplog.text
        assert told == [1] and lights.health()["write_errors"] == 1
    finally:
        lights.close()


def test_a_failed_frame_is_written_again_with_no_change_of_the_picture():
    """A steady picture (a whole day phase) must not stay wrong on the strip: the failed frame
    is retried after ``RETRY_SECONDS`` though no light changes."""
    device = FailingOnce()
    lights = strip_module.StripLights(STRIP, device, now=time.monotonic)
    try:
        with device.changed:  # the first (blank) frame fails, its retry is the one recorded
            assert device.changed.wait_for(lambda: device.frames, timeout=10), "never retried"
        assert device.failures == 0 and lights.health()["write_errors"] == 1
    finally:
        lights.close()


def test_failures_are_told_at_1_2_4_8_not_every_time():
    from hardware import is_worth_telling

    assert [n for n in range(1, 40) if is_worth_telling(n)] == [1, 2, 4, 8, 16, 32]


def test_a_pi_without_spi_enabled_is_told_how(monkeypatch):
    """``/dev/spidev0.0`` missing (SPI off) is a message with the fix, not spidev's traceback."""
    class NoSpi:
        def open(self, bus: int, device: int) -> None:
            raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=NoSpi))
    with pytest.raises(RuntimeError, match=r"cannot open /dev/spidev0.0 .*dtparam=spi=on"):
        strip_module.SpidevPort(0, 0, 2_400_000)
