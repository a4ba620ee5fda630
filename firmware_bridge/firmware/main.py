"""Console firmware entry point for a Raspberry Pi Pico (RP2040) running MicroPython.

Copy ``main.py``, ``console.py``, ``board.py`` (your wiring), ``../protocol.py`` and
``contract/light_timing.py`` to the Pico
(``mpremote cp ...``, see README.md in this folder). This file is the *pin layer*: it reads the
keypad matrix and the vote button, drives the public RGB light and the private indicator, talks
USB serial, feeds the watchdog, and leaves every decision to ``console.Console``.
"""

import os
import select
import sys
import time

import board  # the wiring of this console: pins and the seats it serves
import machine
import micropython
from console import Console, elapsed
from light_timing import indicator_on, light_level

WATCHDOG_MS = 2000
LOOP_MS = 1


class Pins:
    """The pin layer for ``Console`` on the RP2040."""

    def __init__(self):
        self.rows = [machine.Pin(n, machine.Pin.OUT, value=1) for n in board.KEYPAD_ROWS]
        self.cols = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP)
                     for n in board.KEYPAD_COLS]
        self.button = machine.Pin(board.BUTTON, machine.Pin.IN, machine.Pin.PULL_UP)
        self.rgb = [machine.PWM(machine.Pin(n)) for n in board.RGB]
        for channel in self.rgb:
            channel.freq(1000)
        self.indicator = machine.Pin(board.INDICATOR, machine.Pin.OUT, value=0)
        self.out = sys.stdout.buffer
        self.clock = 0
        self.last_ticks = time.ticks_ms()
        self.light = (0, (0, 0, 0), 0)  # mode, colour, when set
        self.pattern = (0, 0)
        self.shown = None

    def ticks_ms(self):
        """A 32-bit millisecond clock (MicroPython's own wraps at 2**30): the protocol's t_ms."""
        now = time.ticks_ms()
        self.clock = (self.clock + time.ticks_diff(now, self.last_ticks)) & 0xFFFFFFFF
        self.last_ticks = now
        return self.clock

    def keys_down(self, seat):
        """Scan the 4x3 matrix: drive one row low at a time, read the columns."""
        down = bytearray()
        for r, row in enumerate(self.rows):
            row.value(0)
            for c, col in enumerate(self.cols):
                if not col.value():
                    down.append(board.KEYMAP[r][c])
            row.value(1)
        return bytes(down)

    def button_down(self, seat):
        return not self.button.value()

    def show_light(self, seat, mode, rgb):
        self.light = (mode, rgb, self.ticks_ms())
        self.shown = None  # ``refresh`` drives the pins at once

    def show_indicator(self, seat, pattern):
        self.pattern = (pattern, self.ticks_ms())

    def refresh(self):
        """Drive the light and the indicator as their modes look now (blinks are timed here,
        the host sends a mode once)."""
        now = self.ticks_ms()
        mode, rgb, since = self.light
        duty = [int(c * 257 * light_level(mode, elapsed(now, since))) for c in rgb]
        if duty != self.shown:
            for i in range(3):  # (MicroPython's zip has no strict=)
                self.rgb[i].duty_u16(duty[i])
            self.shown = duty
        pattern, since = self.pattern
        self.indicator.value(1 if indicator_on(pattern, elapsed(now, since)) else 0)

    def write(self, data):
        self.out.write(data)


def main():
    # every frame starts with 0x00 then bytes like 0x03: without this, MicroPython takes 0x03
    # for Ctrl-C, swallows it and drops to the REPL
    micropython.kbd_intr(-1)
    if len(board.SEATS) != 1:
        raise ValueError("this pin layer serves one seat; a hub needs a board per keypad")
    pins = Pins()
    boot_id = int.from_bytes(os.urandom(4), "big")  # new at every reset
    console = Console(pins, machine.unique_id()[:8], boot_id, board.SEATS)
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    poller = select.poll()
    poller.register(sys.stdin.buffer, select.POLLIN)
    while True:
        if poller.poll(LOOP_MS):
            console.receive(sys.stdin.buffer.read(1))
        console.poll()
        pins.refresh()
        watchdog.feed()


main()
