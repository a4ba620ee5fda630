"""The shape of a table config, declared once as msgspec structs.

Each ``[section]`` of the TOML file is one struct: its fields are the keys, their types and
``msgspec.Meta`` ranges are the first check, and ``forbid_unknown_fields`` makes a misspelt key
an error rather than a silently ignored one. ``msgspec.convert(raw, Config)`` therefore refuses a
wrongly typed or out-of-range value with its key path; what a type cannot express (a pin wired
twice, a seat beyond the table, a missing file) is checked after it, by ``wiring`` and
``credentials``.

The ``Config`` methods answer questions about one checked config (which buttons it reads, which
pins it uses, where its journal lives); they compute, they never fail.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from contract.buttons import JUDGE_BUTTON_NAMES, Button, SeatButton
from contract.commands import StepName
from contract.events import Surplus
from controller.config.paths import state_home
from controller.core import night
from controller.core.standings import NIGHT_STEPS, NightAction, StandingRules
from controller.core.vote import VoteRules
from firmware_bridge.link import ConsoleConfig
from hardware.audio import MusicConfig
from hardware.expander import ExpanderConfig
from hardware.gpio import GpioConfig
from hardware.strip import STRIP_PINS, StripConfig
from kit.config import Section
from kit.mqtt import BrokerConfig

TABLE_ID_PATTERN = "^[A-Za-z0-9_-]{1,32}$(?!\n)"
TableId = Annotated[str, msgspec.Meta(pattern=TABLE_ID_PATTERN)]
#: what a table id may be, in the words the errors use
TABLE_ID_RULE = "a table id is 1 to 32 letters, digits, '-' or '_'"


class StoreConfig(Section):
    path: str | None = None
    outbox_limit: Annotated[int, msgspec.Meta(ge=1)] = 10_000
    keep: Annotated[int, msgspec.Meta(ge=0)] = 20_000
    # stored events (an outage's backlog, cmd/replay) published per second at most, behind
    # live ones; consumers must keep up with it
    catch_up_rate: Annotated[int, msgspec.Meta(ge=10, le=100_000)] = 1000
    # events held in memory while the journal cannot take them (a full disk)
    hold_limit: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 10_000
    # "full": every event flushed to the card before the table goes on
    # (see controller/journal/checkpoint.py)
    synchronous: Literal["normal", "full"] = "normal"


class DayRules(Section):
    """The day options of a rule preset (``[day]``)."""

    one_nomination_per_speaker: bool = True
    one_nomination_rule: str = "FIIM 4.4.3"  # what a refused second nomination cites


class NightRules(Section):
    """The night options of a rule preset (``[night]``)."""

    seconds: Annotated[float, msgspec.Meta(gt=0, le=120)] = 10.0  # a step's time limit
    cadence: Annotated[float, msgspec.Meta(ge=0.3, le=5)] = 1.2  # count mode: per number
    # the steps that shoot or check: a target's standing may block them (``[standings]``)
    steps: dict[str, NightAction] = msgspec.field(default_factory=lambda: dict(NIGHT_STEPS))
    # what each step does with more picks than it takes: "void" or "first" (a step not listed:
    # ``night.UNLISTED``; a command's own ``surplus`` wins)
    surplus: dict[StepName, Surplus] = msgspec.field(default_factory=lambda: dict(night.SURPLUS))


class Backends(Section):
    gpio: Literal["lgpio", "mock"] = "lgpio"
    consoles: Literal["serial", "emulated"] = "serial"
    audio: Literal["sdl", "disk", "off"] = "sdl"
    audio_disk_file: str | None = None
    spi: Literal["spidev", "mock"] = "spidev"  # the [strip]'s SPI: the kernel's, or recorded
    i2c: Literal["smbus2", "mock"] = "smbus2"  # the [expanders]' bus: the kernel's, or a fake

    @property
    def simulated(self) -> bool:
        """A simulated table (``--sim``): its buttons on gpiozero's mock pins, which ``sim/...``
        commands and the virtual table's hand may drive; its journal kept apart from a real
        table's. The one place that says what makes a table simulated."""
        return self.gpio == "mock"


class Config(Section):
    table: TableId
    seats: Annotated[int, msgspec.Meta(ge=4, le=24)]
    rules: str | None = None
    vote: VoteRules = msgspec.field(default_factory=VoteRules)
    day: DayRules = msgspec.field(default_factory=DayRules)
    night: NightRules = msgspec.field(default_factory=NightRules)
    standings: StandingRules = msgspec.field(default_factory=StandingRules)
    broker: BrokerConfig = msgspec.field(default_factory=BrokerConfig)
    backends: Backends = msgspec.field(default_factory=Backends)
    gpio: GpioConfig = msgspec.field(default_factory=GpioConfig)
    strip: StripConfig | None = None
    expanders: ExpanderConfig | None = None
    store: StoreConfig = msgspec.field(default_factory=StoreConfig)
    console: list[ConsoleConfig] = msgspec.field(default_factory=list)
    music: MusicConfig = msgspec.field(default_factory=MusicConfig)

    def preset(self) -> str | None:
        """The rule preset the table plays: ``rules``'s file name without its folder and
        ``.toml`` (``rules/fiim.toml``: ``fiim``), or None when the config names none."""
        return None if self.rules is None else Path(self.rules).name.removesuffix(".toml")

    def vote_buttons(self) -> frozenset[Button]:
        """Every button the table can read: GPIO ones, the expanders' and the consoles' (not
        ``keys_only``)."""
        consoles = {SeatButton(seat) for c in self.console if not c.keys_only for seat in c.seats}
        return frozenset(self.gpio.buttons()) | frozenset(self.expander_buttons()) | consoles

    def expander_buttons(self) -> dict[Button, tuple[int, int]]:
        """Every button on an expander, with (chip address, input 0..15)."""
        return {button: (chip.address, pin)
                for chip in (self.expanders.chip if self.expanders is not None else [])
                for pin, button in chip.buttons().items()}

    def keypad_seats(self) -> frozenset[int]:
        return frozenset(seat for c in self.console for seat in c.seats)

    def store_path(self) -> Path:
        """The journal file: ``store.path``, else ``$STATE_DIRECTORY`` (systemd's
        ``StateDirectory=``), else ``$XDG_STATE_HOME`` or ``~/.local/state``, under
        ``mafia-table/<table>.db`` (``<table>-sim.db`` for a simulated table, so a simulation
        never resumes a real table's game, nor the other way round). ``--sim`` sets
        ``store.path`` to its own file (``sim_store_path``)."""
        if self.store.path is not None:
            return Path(self.store.path)
        name = f"{self.table}-sim.db" if self.backends.simulated else f"{self.table}.db"
        return state_home() / name

    def private_store_path(self) -> Path:
        """The journal of ``private/`` events, beside ``store_path``: ``<name>-private.db``."""
        path = self.store_path()
        return path.with_name(f"{path.stem}-private{path.suffix}")

    def pin_uses(self) -> list[tuple[int, str]]:
        """Every configured pin with the key that names it, in file order (a pin wired twice
        appears twice)."""
        uses: list[tuple[int, str]] = []
        for i, wiring in enumerate(self.gpio.seat):
            key = f"gpio.seat[{i}]"
            uses += [(pin, f"{key}.{part}") for part, pin in (("button", wiring.button),
                                                             ("light", wiring.light))
                     if pin is not None]
            uses += [(pin, f"{key}.rgb[{j}]") for j, pin in enumerate(wiring.rgb or [])]
        uses += [(getattr(self.gpio.judge, name), f"gpio.judge.{name}")
                 for name in JUDGE_BUTTON_NAMES if getattr(self.gpio.judge, name) is not None]
        if self.strip is not None:  # the SPI0 driver claims all of its pins
            uses += [(pin, f"strip.{signal}") for pin, signal in STRIP_PINS[self.strip.spi_device]]
        if self.expanders is not None:
            uses += [(2, "expanders.sda"), (3, "expanders.scl"),
                     (self.expanders.interrupt, "expanders.interrupt")]
        return uses


def table_id_problem(table: str) -> str | None:
    """Why ``table`` is no table id (``TABLE_ID_RULE``), or None when it is one."""
    if re.match(TABLE_ID_PATTERN, table):
        return None
    return f"{TABLE_ID_RULE}, got {table!r}"
