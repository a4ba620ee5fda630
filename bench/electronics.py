"""Strip and expander benchmark: the sans-I/O encodings and the expander read path, on fakes.

    .venv/bin/python -m bench.electronics [--runs 5000]
    .venv/bin/python -m bench.electronics --quick    # seconds: that it runs (bench/quick.py)

* strip: one frame of the 24-seat example table (95 WS2812B LEDs) from the seats' lights to
  SPI bytes (``strip.frame`` + ``ws2812.encode_frame``); the floor is copying a buffer of the
  frame's size (what any write of it costs at least).
* expander decode: ``mcp23017.decode`` of one interrupt read.
* expander read path: a hand on a fake MCP23017 input to the ``ButtonEdge`` handed to the loop:
  the INT line's gpiozero mock pin falls, its callback (``EdgeButton``) times the edge, both
  chips of the example are read through ``FakeExpanderBus`` and decoded. The floor is the same
  mock pin's edge reaching a callback that does nothing (gpiozero's own dispatch).

A real bus adds the I2C transfer this cannot measure; docs/hardware.md works it out from the
bus clock.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from gpiozero import InputDevice
from gpiozero.pins.mock import MockFactory

from bench import quick
from bench.gpio import percentiles
from contract.buttons import SeatButton
from contract.lights import Light, LightMode
from controller import config
from hardware import mcp23017, strip, ws2812
from hardware.expander import ExpanderButtons, FakeExpanderBus
from tests.support.paths import REPO

EXAMPLE_24 = REPO / "config" / "table-24.example.toml"


def timed(runs: int, work: Callable[[], object]) -> list[float]:
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        samples.append((time.perf_counter() - began) * 1000)
    return samples


def bench_strip(cfg: config.Config, runs: int) -> None:
    lit = cfg.strip
    assert lit is not None
    seat_leds = {s.seat: range(s.first, s.first + s.count) for s in lit.seat}
    leds = max(r.stop for r in seat_leds.values())
    modes = list(LightMode)
    shown = {seat: (Light(modes[seat % len(modes)], "#ff8000"), 0.0) for seat in seat_leds}
    encoding = ws2812.ENCODINGS[lit.chip]
    size = ws2812.frame_size(leds, lit.order, encoding)
    buffer = bytearray(size)
    floor = timed(runs, lambda: bytes(buffer))
    encode = timed(runs, lambda: ws2812.encode_frame(
        strip.frame(shown, seat_leds, leds, lit.brightness, 12.34), lit.order, encoding))
    print(f"strip frame, {leds} LEDs -> {size} SPI bytes: {percentiles(encode)}")
    print(f"  floor (copy {size} bytes):            {percentiles(floor)}")


def bench_decode(runs: int) -> None:
    block = bytes([0x08, 0x00, 0xF7, 0xFF, 0xD7, 0xFF])
    samples = timed(runs, lambda: mcp23017.decode(block, 0xFFFF))
    print(f"expander decode of one read:  {percentiles(samples)}")


def bench_read_path(cfg: config.Config, runs: int) -> None:
    assert cfg.expanders is not None
    factory = MockFactory()
    interrupt = factory.pin(cfg.expanders.interrupt)
    bus = FakeExpanderBus([c.address for c in cfg.expanders.chip], interrupt)
    got: list[float] = []
    buttons = ExpanderButtons(cfg.expanders, bus, factory=factory, now=time.monotonic,
                              submit=lambda edge: got.append(time.perf_counter()))
    try:
        samples = []
        for i in range(runs):
            began = time.perf_counter()
            buttons.drive(SeatButton(17), i % 2 == 0)
            samples.append((got[-1] - began) * 1000)
        reads = sum(chip.reads for chip in bus.chips.values())
        print(f"expander read path (hand -> ButtonEdge, {len(bus.chips)} chips): "
              f"{percentiles(samples)}; {reads / runs:.1f} chip reads an edge")
    finally:
        buttons.close()
    floor_pin = factory.pin(5)
    device = InputDevice(5, pull_up=True, pin_factory=factory)
    seen: list[float] = []

    def changed(ticks: float, state: int) -> None:  # held here: gpiozero keeps a weak reference
        seen.append(time.perf_counter())

    device.pin.when_changed = changed
    floor = []
    for i in range(runs):
        began = time.perf_counter()
        (floor_pin.drive_low if i % 2 == 0 else floor_pin.drive_high)()
        floor.append((seen[-1] - began) * 1000)
    device.close()
    factory.close()
    print(f"  floor (mock pin edge -> empty callback): {percentiles(floor)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5000)
    args = quick.arguments(parser, {"runs": 200})
    cfg = config.load(EXAMPLE_24, config.Overrides(simulated=True))
    bench_strip(cfg, args.runs)
    bench_decode(args.runs)
    bench_read_path(cfg, args.runs)


if __name__ == "__main__":
    main()
