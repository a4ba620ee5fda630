"""Seat and judge buttons, seat lights: the GPIO side of the table, on gpiozero.

Buttons are read at pin level (``pin.when_changed(ticks, state)``), not through gpiozero's
``Button``, because the event must carry the time of the *edge*, and only the pin callback has it.
Debouncing is done by the core (``controller.core.debounce``) on those timestamps. Lights are
ordinary gpiozero ``PWMLED`` / ``RGBLED`` devices, set to a level, and blinked by one
``hardware.blinking.Blinker`` thread for all of them (gpiozero's ``blink`` would start a thread
per light change and join the last one, on the event loop's thread).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Annotated

import msgspec
from gpiozero import PWMLED, RGBLED, InputDevice
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin, PinState

from contract import light_timing
from contract.buttons import JUDGE_BUTTON_NAMES, Button, JudgeButton, SeatButton
from contract.inputs import ButtonEdge
from contract.lights import Light, LightMode
from hardware.blinking import Blinker
from hardware.header import Pin, ReservableBus
from kit.config import Section

log = logging.getLogger(__name__)

#: An edge older than this when its callback runs is taken as a clock mix-up, not a real age.
MAX_EDGE_AGE = 5.0
#: Level changes a simulated pin remembers (gpiozero's ``MockPin.states``), newest last.
MOCK_PIN_HISTORY = 64


class SeatWiring(Section):
    seat: int
    button: Pin | None = None
    light: Pin | None = None
    rgb: Annotated[list[Pin], msgspec.Meta(min_length=3, max_length=3)] | None = None


class JudgeWiring(Section):
    confirm: Pin | None = None
    reject: Pin | None = None
    next: Pin | None = None


class GpioConfig(Section):
    """The Pi's own pins (``[gpio]``): each seat's vote button and light, the judge's buttons,
    and how they are wired."""

    debounce_ms: Annotated[float, msgspec.Meta(ge=0, le=500)] = 20.0
    pull_up: bool = True
    # the current through each directly driven LED (one pin; an RGB LED has three): the
    # resistor sets it, (3.3 V - the LED's forward voltage) / R; the budget checks it
    # (controller/config/budget.py)
    led_ma: Annotated[float, msgspec.Meta(gt=0, le=50)] = 4.0
    # the Pi functions whose pins stay free: ``mafia-table pinout`` flags a pin they need
    reserve: list[ReservableBus] = msgspec.field(default_factory=lambda: ["i2c", "uart"])
    judge: JudgeWiring = msgspec.field(default_factory=JudgeWiring)
    seat: list[SeatWiring] = msgspec.field(default_factory=list)

    def buttons(self) -> dict[Button, int]:
        """Every button that has a pin, with its BCM pin number."""
        wired: dict[Button, int] = {
            SeatButton(s.seat): s.button for s in self.seat if s.button is not None
        }
        for name in JUDGE_BUTTON_NAMES:
            pin = getattr(self.judge, name)
            if pin is not None:
                wired[JudgeButton(name)] = pin
        return wired


class RecentMockPin(MockPWMPin):
    """gpiozero's ``MockPWMPin`` remembering only its last ``MOCK_PIN_HISTORY`` level changes.

    gpiozero's mock pins append every level change to ``states`` for ever, so a simulated table
    whose lights blink grew by ~190 kB a minute. A bounded deque keeps the recent history that a
    test or the virtual table looks at, and nothing older.
    """

    def clear_states(self) -> None:
        super().clear_states()
        self.states = deque([PinState(0.0, self._state)], maxlen=MOCK_PIN_HISTORY)


class PinLibraryMissing(RuntimeError):
    """The pin factory's library is not installed (``controller.doctor`` says what to do)."""


def _lgpio() -> Factory:
    """gpiozero's lgpio factory: ``PinLibraryMissing`` without the lgpio module, gpiozero's
    ``PinUnknownPi`` on a machine that is no Raspberry Pi."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as exc:
        raise PinLibraryMissing(
            "the lgpio GPIO backend needs the lgpio module: "
            "`apt install python3-lgpio` or `pip install 'mafia-table[pi]'`"
        ) from exc
    return LGPIOFactory()


#: ``backends.gpio`` -> gpiozero's pin factory: ``lgpio`` (a Pi) or ``mock`` (anywhere)
PIN_FACTORIES: dict[str, Callable[[], Factory]] = {
    "lgpio": _lgpio,
    "mock": lambda: MockFactory(pin_class=RecentMockPin),
}


def make_pin_factory(backend: str) -> Factory:
    """gpiozero's pin factory for ``backend`` (a name in ``PIN_FACTORIES``)."""
    return PIN_FACTORIES[backend]()


class EdgeButton(InputDevice):
    """A button reported edge by edge, each with the host monotonic time of the edge itself.

    gpiozero passes the pin factory's ticks of the edge; we turn them into host monotonic seconds
    by their age (``ticks_diff`` from now), which is right whatever the factory's tick unit is.
    """

    def __init__(self, pin: int, *, pull_up: bool, now: Callable[[], float],
                 on_edge: Callable[[bool, float], None], pin_factory: Factory):
        super().__init__(pin, pull_up=pull_up, pin_factory=pin_factory)
        self._now = now
        self._on_edge = on_edge
        self.pin.edges = "both"
        self.pin.when_changed = self._changed

    def _changed(self, ticks: float, state: int) -> None:
        factory = self.pin_factory
        now = self._now()
        age = factory.ticks_diff(factory.ticks(), ticks)
        if not 0 <= age <= MAX_EDGE_AGE:
            log.warning("pin %s: edge ticks %r are %.3f s from now; using the callback time",
                        self.pin, ticks, age)
            age = 0.0
        self._on_edge(bool(self._state_to_value(state)), now - age)

    def close(self) -> None:
        if getattr(self, "_pin", None) is not None:
            self.pin.when_changed = None
        super().close()


class GpioBoard:
    """Every GPIO part of one table, built from its ``[gpio]`` map (``GpioConfig``).

    Edges go to ``submit`` as ``ButtonEdge`` inputs (from gpiozero's callback thread); lights are
    set with ``show`` (from the loop thread).
    """

    def __init__(self, gpio: GpioConfig, *, factory: Factory, now: Callable[[], float],
                 submit: Callable[[ButtonEdge], object]):
        self._factory = factory
        self._pull_up = gpio.pull_up
        self._buttons: dict[Button, EdgeButton] = {}
        self._lights: dict[int, PWMLED | RGBLED] = {}
        self._blinker = Blinker(self._put, now)
        try:
            for button, pin in gpio.buttons().items():
                self._buttons[button] = EdgeButton(
                    pin, pull_up=self._pull_up, now=now, pin_factory=factory,
                    on_edge=partial(_submit_edge, submit, button),
                )
            for wiring in gpio.seat:
                if wiring.rgb is not None:
                    self._lights[wiring.seat] = RGBLED(*wiring.rgb, pin_factory=factory)
                elif wiring.light is not None:
                    self._lights[wiring.seat] = PWMLED(wiring.light, pin_factory=factory)
        except Exception:
            self.close()
            raise

    def show(self, seat: int, light: Light) -> None:
        """Make seat ``seat``'s light show ``light`` (a seat with no wired light is skipped)."""
        if seat in self._lights:
            self._blinker.show(seat, light)

    def _put(self, seat: int, light: Light, level: float) -> None:
        """The blinker's: seat ``seat``'s LED at ``level`` of ``light`` (dim is its own level)."""
        device = self._lights.get(seat)
        if device is None:
            return
        if light.mode is LightMode.DIM:
            level = light_timing.DIM
        if isinstance(device, RGBLED):
            device.color = tuple(c * level for c in light.rgb())
        else:
            device.value = level

    def glow(self, seat: int) -> tuple[float, float, float] | None:
        """What seat ``seat``'s light puts out this instant, as red, green, blue in 0..1 (a
        single LED is white), read back from its pins; None for a seat with no light wired."""
        device = self._lights.get(seat)
        if device is None:
            return None
        if isinstance(device, RGBLED):
            return tuple(device.value)
        return (device.value,) * 3

    def has_button(self, button: Button) -> bool:
        return button in self._buttons

    def drive(self, button: Button, pressed: bool) -> None:
        """Simulation only: move a mock button pin as a hand would."""
        pin = self._buttons[button].pin
        if not isinstance(pin, MockPin):
            raise RuntimeError(f"{button} is a real pin; only mock pins can be driven")
        if pressed == self._pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def close(self) -> None:
        """Turn every light off and release every pin."""
        self._blinker.close()
        for light in self._lights.values():
            light.off()
            light.close()
        for button in self._buttons.values():
            button.close()
        self._lights.clear()
        self._buttons.clear()

    def describe(self) -> str:
        seats = sorted(b.seat for b in self._buttons if isinstance(b, SeatButton))
        return (f"{len(seats)} seat buttons, {len(self._buttons) - len(seats)} judge buttons, "
                f"{len(self._lights)} lights on {type(self._factory).__name__}")


def _submit_edge(submit: Callable[[ButtonEdge], object], button: Button, pressed: bool,
                 t: float) -> None:
    """An ``EdgeButton``'s edge, handed to the loop as the input of ``button``."""
    submit(ButtonEdge(button, pressed, t))
