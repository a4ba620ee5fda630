"""The adapters a config asks for, built in one place.

``table_setup`` is what the rules core learns of the config (fixed for the life of the service).
``console_links`` makes one ``ConsoleLink`` per ``[[console]]``. ``Devices`` holds what ``start``
opens (the GPIO board, the LED strip, the button expanders, the speaker and its cue schedule)
and closes them again; until opened, each is None and the effects meant for it are skipped.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gpiozero.pins import Factory

from controller.clock import Clock
from controller.config import Config, ConsoleConfig
from controller.core.inputs import ButtonEdge, ConsoleStatus, Input, KeyPressed
from controller.core.lights import LIGHT_OFF
from controller.core.table import TableSetup
from controller.core.vote import VoteRules
from controller.cue_schedule import CueSchedule
from controller.loop import EventLoop
from firmware_bridge.emulator import EmulatedConsole
from firmware_bridge.link import ConsoleLink
from firmware_bridge.sequence import Position
from hardware.audio import Music, Speaker
from hardware.expander import ExpanderButtons, open_bus
from hardware.gpio import GpioBoard
from hardware.strip import StripLights, open_strip

log = logging.getLogger(__name__)


def table_setup(config: Config, rules: VoteRules | None = None) -> TableSetup:
    """The facts the core takes from the config; ``rules`` over the config's own (tests)."""
    return TableSetup(
        table=config.table,
        seats=config.seats,
        wired=config.vote_buttons(),
        keypads=config.keypad_seats(),
        debounce=config.gpio.debounce_ms / 1000,
        simulated=config.backends.gpio == "mock",
        rules=rules or config.vote,
        one_nomination_per_speaker=config.day.one_nomination_per_speaker,
        one_nomination_rule=config.day.one_nomination_rule,
        night_seconds=config.night.seconds,
        night_cadence=config.night.cadence,
        standings=config.standings,
        night_steps=config.night.steps,
    )


class EmulatedConsoles:
    """``backends.consoles = "emulated"`` (``--sim``): an emulated console behind each
    ``[[console]]``, on a pty named by a symlink in a private folder; ``emulators`` by seat."""

    def __init__(self) -> None:
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self.emulators: dict[int, EmulatedConsole] = {}

    def port(self, index: int, console: ConsoleConfig) -> str:
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="mafia-consoles-")
        emulator = EmulatedConsole(Path(self._folder.name) / f"console-{index}", console.seats)
        self.emulators.update({seat: emulator for seat in console.seats})
        return str(emulator.path)

    def start(self) -> None:
        for emulator in set(self.emulators.values()):
            emulator.start()

    def close(self) -> None:
        for emulator in set(self.emulators.values()):
            emulator.close()
        if self._folder is not None:
            self._folder.cleanup()


def console_links(config: Config, *, emulated: EmulatedConsoles | None, clock: Clock,
                  loop: EventLoop, journaled: list[Position],
                  noted: Callable[[Input, ConsoleLink, Position], None],
                  on_health: Callable[[], None]) -> list[ConsoleLink]:
    """A ``ConsoleLink`` for each ``[[console]]``, behind an emulated console if ``emulated``.

    A link's inputs go to the loop, their console's position first to ``noted`` (the outbox
    journals them together); a console that goes on or off line is a ``ConsoleStatus`` input
    (if it has vote buttons: only those matter to a vote) and a change of ``health``."""

    def link_for(index: int, console: ConsoleConfig) -> ConsoleLink:
        port = console.port if emulated is None else emulated.port(index, console)
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
                 volume=music.volume, duck=music.duck, voice=music.voice)


@dataclass
class Devices:
    """What ``open`` opens on the host: each None until then, and again once closed."""

    gpio: GpioBoard | None = None
    strip: StripLights | None = None
    expanders: ExpanderButtons | None = None
    speaker: Speaker | None = None
    cues: CueSchedule | None = None
    links: list[ConsoleLink] = field(default_factory=list)

    def open(self, config: Config, *, factory: Factory, clock: Clock, loop: EventLoop,
             on_error: Callable[[], None]) -> None:
        """Open the GPIO board, then the strip and the expanders if configured, then the
        speaker. ``on_error``: on the strip's or the expanders' thread, they are failing."""
        backends = config.backends
        self.gpio = GpioBoard(config, factory=factory, now=clock.monotonic, submit=loop.submit)
        if config.strip is not None:
            self.strip = open_strip(config.strip, backends.spi, now=clock.monotonic,
                                    on_error=on_error)
        if config.expanders is not None:
            self.expanders = ExpanderButtons(
                config.expanders, open_bus(backends.i2c, config.expanders, factory),
                factory=factory, now=clock.monotonic, submit=loop.submit, on_error=on_error)
        disk = backends.audio_disk_file
        self.speaker = Speaker(backends.audio, disk_file=Path(disk) if disk else None,
                               music=music(config))
        self.cues = CueSchedule(self.speaker, now=clock.monotonic, call_at=loop.call_at)

    def describe(self) -> str:
        parts = [part.describe() for part in (self.gpio, self.strip, self.expanders)
                 if part is not None]
        return "; ".join(parts)

    def lights_off(self) -> None:
        """Release the pins and the strip (their lights go off), tell every console dark."""
        if self.gpio is not None:
            self.gpio.close()
            self.gpio = None
        if self.strip is not None:
            self.strip.close()
            self.strip = None
        if self.expanders is not None:
            self.expanders.close()
            self.expanders = None
        for link in self.links:
            for seat in link.seats:
                link.show(seat, LIGHT_OFF)
