"""The adapters a config asks for, built in one place.

``table_setup`` is what the rules core learns of the config (fixed for the life of the service).
``console_links`` makes one ``ConsoleLink`` per ``[[console]]``, on the port its backend
(``firmware_bridge.ports.CONSOLE_PORTS``) gives. ``Devices`` holds what ``start`` opens, each
backend taken from its registry by the config's name (seat lights from
``controller.shell.seat_lights.SEAT_LIGHTS``, sound from ``hardware.audio.SOUND_OUT``), and
closes them again; until opened, each is None and the effects meant for it are skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gpiozero.pins import Factory

from contract.inputs import ButtonEdge, ConsoleStatus, Input, KeyPressed
from contract.lights import Glow, Light, SeatLights
from controller.clock import Clock
from controller.config import Config
from controller.core.state import TableSetup
from controller.core.vote import VoteRules
from controller.cue_schedule import CueSchedule
from controller.loop import EventLoop
from controller.shell.seat_lights import SEAT_LIGHTS, LightsWiring
from firmware_bridge.link import ConsoleConfig, ConsoleLink
from firmware_bridge.ports import ConsolePorts
from firmware_bridge.sequence import Position
from hardware.audio import SOUND_OUT, Music, SoundOut
from hardware.expander import ExpanderButtons, open_bus
from hardware.gpio import GpioBoard
from hardware.strip import StripLights


def table_setup(config: Config, rules: VoteRules | None = None) -> TableSetup:
    """The facts the core takes from the config; ``rules`` over the config's own (tests)."""
    return TableSetup(
        table=config.table,
        seats=config.seats,
        wired=config.vote_buttons(),
        keypads=config.keypad_seats(),
        debounce=config.gpio.debounce_ms / 1000,
        simulated=config.backends.simulated,
        rules=rules or config.vote,
        one_nomination_per_speaker=config.day.one_nomination_per_speaker,
        one_nomination_rule=config.day.one_nomination_rule,
        night_seconds=config.night.seconds,
        night_cadence=config.night.cadence,
        standings=config.standings,
        night_steps=config.night.steps,
        night_surplus=config.night.surplus,
        voice=config.music.voice,
        preset=config.preset(),
    )


def console_links(config: Config, *, ports: ConsolePorts, clock: Clock,
                  loop: EventLoop, journaled: list[Position],
                  noted: Callable[[Input, ConsoleLink, Position], None],
                  on_health: Callable[[], None]) -> list[ConsoleLink]:
    """A ``ConsoleLink`` for each ``[[console]]``, on the port ``ports`` gives it.

    A link's inputs go to the loop, their console's position first to ``noted`` (the outbox
    journals them together); a console that goes on or off line is a ``ConsoleStatus`` input
    (if it has vote buttons: only those matter to a vote) and a change of ``health``."""

    def link_for(index: int, console: ConsoleConfig) -> ConsoleLink:
        port = ports.port(index, console)
        seats = frozenset(console.seats)

        def changed() -> None:  # on the link's thread: hand it over
            if not console.keys_only:
                loop.submit(ConsoleStatus(seats, link.health.online, clock.monotonic()))
            loop.call_soon(on_health)

        def submit(inp: ButtonEdge | KeyPressed, position: Position) -> None:  # link's thread
            noted(inp, link, position)
            loop.submit(inp)

        link = ConsoleLink(port, seats, keys_only=console.keys_only, now=clock.monotonic,
                           submit=submit, on_health=changed, baudrate=console.baudrate,
                           journaled=journaled)
        return link

    return [link_for(i, c) for i, c in enumerate(config.console)]


def music(config: Config) -> Music:
    """The speaker's night music from ``[music]`` (the built-in track without a playlist)."""
    music = config.music
    return Music(playlist=[Path(t) for t in music.playlist] or Music().playlist,
                 shuffle=music.shuffle, fade_in=music.fade_in, fade_out=music.fade_out,
                 volume=music.volume, duck=music.duck)


@dataclass
class Devices:
    """What ``open`` opens on the host: each None (or empty) until then, and again once closed.

    ``lights``: the seat-light backends this table has, by their ``SEAT_LIGHTS`` name."""

    ports: ConsolePorts
    links: list[ConsoleLink] = field(default_factory=list)
    gpio: GpioBoard | None = None
    expanders: ExpanderButtons | None = None
    lights: dict[str, SeatLights] = field(default_factory=dict)
    speaker: SoundOut | None = None
    cues: CueSchedule | None = None

    @property
    def strip(self) -> StripLights | None:
        strip = self.lights.get("strip")
        return strip if isinstance(strip, StripLights) else None

    def open(self, config: Config, *, factory: Factory, clock: Clock, loop: EventLoop,
             on_error: Callable[[], None]) -> None:
        """Open the GPIO board, every seat-light backend the config has, the expanders if
        configured, then the sound. ``on_error``: on the strip's or the expanders' thread, they
        are failing."""
        backends = config.backends
        self.gpio = GpioBoard(config.gpio, factory=factory, now=clock.monotonic, submit=loop.submit)
        wiring = LightsWiring(config, self.gpio, self.links, self.ports, clock.monotonic,
                              on_error)
        for name, build in SEAT_LIGHTS.items():
            lights = build(wiring)
            if lights is not None:
                self.lights[name] = lights
        if config.expanders is not None:
            self.expanders = ExpanderButtons(
                config.expanders, open_bus(backends.i2c, config.expanders, factory),
                factory=factory, now=clock.monotonic, submit=loop.submit, on_error=on_error)
        disk = backends.audio_disk_file
        self.speaker = SOUND_OUT[backends.audio](disk_file=Path(disk) if disk else None,
                                                 music=music(config))
        self.cues = CueSchedule(self.speaker, now=clock.monotonic, call_at=loop.call_at)

    def show(self, seat: int, light: Light) -> None:
        """Seat ``seat``'s light on every backend."""
        for lights in self.lights.values():
            lights.show(seat, light)

    def glow(self, seat: int) -> Glow | None:
        """What seat ``seat``'s light puts out now, from the first backend that can tell."""
        for lights in self.lights.values():
            glow = lights.glow(seat)
            if glow is not None:
                return glow
        return None

    def describe(self) -> str:
        parts = [part.describe() for part in (self.gpio, self.strip, self.expanders)
                 if part is not None]
        return "; ".join(parts)

    def lights_off(self) -> None:
        """Every seat light off (the GPIO pins and the strip released, the consoles told), and
        the expanders released."""
        lights, self.lights = self.lights, {}
        self.gpio = None
        try:
            for backend in lights.values():
                backend.close()
        finally:
            if self.expanders is not None:
                self.expanders.close()
                self.expanders = None
