"""The table config: a TOML file, checked completely before anything starts.

The shape is declared once as msgspec structs (types, ranges, no unknown keys); the checks a type
cannot express (a seat beyond the table, one pin wired twice, a missing file) follow. Every
problem is reported with its key path, e.g. ``gpio.seat[2].button: pin 17 is already used by
gpio.seat[0].light``, and a config with any problem is refused whole: the service never starts
half-configured.
"""

from __future__ import annotations

import hashlib
import os
import re
import ssl
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from controller.budget import budget
from controller.core import validation
from controller.core.buttons import JUDGE_BUTTON_NAMES, Button, JudgeButton, SeatButton
from controller.core.standings import NIGHT_STEPS, NightAction, StandingRules
from controller.core.vote import VoteRules
from hardware import mcp23017, ws2812

#: BCM GPIO numbers on the Raspberry Pi 40-pin header.
Pin = Annotated[int, msgspec.Meta(ge=0, le=27)]
TABLE_ID_PATTERN = "^[A-Za-z0-9_-]{1,32}$(?!\n)"
TableId = Annotated[str, msgspec.Meta(pattern=TABLE_ID_PATTERN)]
#: what a table id may be, in the words the errors use
TABLE_ID_RULE = "a table id is 1 to 32 letters, digits, '-' or '_'"
#: the ``source`` of a ``ConfigError`` about flags, not about a file
COMMAND_LINE = "command line"


class _Section(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base for config sections: unknown keys are errors, every field is named."""


class TlsConfig(_Section):
    ca_file: str
    cert_file: str | None = None
    key_file: str | None = None


class BrokerConfig(_Section):
    host: str = "127.0.0.1"
    port: Annotated[int, msgspec.Meta(ge=1, le=65535)] = 1883
    username: str | None = None
    password_file: str | None = None
    keepalive: Annotated[int, msgspec.Meta(ge=5, le=600)] = 15
    tls: TlsConfig | None = None


class SeatWiring(_Section):
    seat: int
    button: Pin | None = None
    light: Pin | None = None
    rgb: Annotated[list[Pin], msgspec.Meta(min_length=3, max_length=3)] | None = None


class JudgeWiring(_Section):
    confirm: Pin | None = None
    reject: Pin | None = None
    next: Pin | None = None


#: the Pi functions a table can keep free of its buttons and lights (``hardware.header.BUSES``)
ReservableBus = Literal["i2c", "uart", "i2s", "spi"]


class GpioConfig(_Section):
    debounce_ms: Annotated[float, msgspec.Meta(ge=0, le=500)] = 20.0
    pull_up: bool = True
    # the current through each directly driven LED (one pin; an RGB LED has three): the resistor
    # sets it, (3.3 V - the LED's forward voltage) / R; the budget (controller/budget.py) checks it
    led_ma: Annotated[float, msgspec.Meta(gt=0, le=50)] = 4.0
    # the Pi functions whose pins stay free: ``mafia-table pinout`` flags a pin they need
    reserve: list[ReservableBus] = msgspec.field(default_factory=lambda: ["i2c", "uart"])
    judge: JudgeWiring = msgspec.field(default_factory=JudgeWiring)
    seat: list[SeatWiring] = msgspec.field(default_factory=list)


#: an MCP23017 pin: 0..7 are GPA0..GPA7, 8..15 are GPB0..GPB7 (7 and 15 are output only:
#: the config check refuses a button there)
ExpanderInput = Annotated[int, msgspec.Meta(ge=0, le=15)]


class StripSeat(_Section):
    """The LEDs of the strip that are one seat's light: ``count`` of them from ``first``
    (LED 0 is the one nearest the Pi)."""

    seat: int
    first: Annotated[int, msgspec.Meta(ge=0, le=1023)]
    count: Annotated[int, msgspec.Meta(ge=1, le=16)] = 3


class StripConfig(_Section):
    """Seat lights on one addressable LED strip (``[strip]``), fed by SPI0's MOSI (GPIO 10)
    through a 5 V level shifter; see docs/hardware.md."""

    chip: ws2812.Chip = "ws2812b"
    order: Literal["GRB", "RGB", "GRBW", "RGBW"] = "GRB"
    spi_device: Literal[0, 1] = 0  # /dev/spidev0.N: the chip select the SPI driver claims
    brightness: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.5  # the cap on every channel
    supply_amps: Annotated[float, msgspec.Meta(gt=0, le=60)] | None = None  # the 5 V supply
    seat: list[StripSeat] = msgspec.field(default_factory=list)


class ExpanderJudge(_Section):
    """Judge buttons on an expander's inputs."""

    confirm: ExpanderInput | None = None
    reject: ExpanderInput | None = None
    next: ExpanderInput | None = None


class ExpanderChip(_Section):
    """One MCP23017: its I2C address (A2..A0 strapped: 0x20..0x27), the seats whose vote
    buttons are on its inputs in order (GPA0 ... GPA6, GPB0 ... GPB6: GPA7 and GPB7 are output
    only, ``mcp23017.BUTTON_INPUTS``), and judge buttons."""

    address: Annotated[int, msgspec.Meta(ge=0x20, le=0x27)]
    seats: Annotated[list[int], msgspec.Meta(max_length=16)] = msgspec.field(
        default_factory=list)  # at most 14: the config check says why
    judge: ExpanderJudge = msgspec.field(default_factory=ExpanderJudge)

    def buttons(self) -> dict[int, Button]:
        """Input (0..15) -> the button wired to it: the seats in order, then the judge's."""
        found: dict[int, Button] = {  # (the config check refuses a 15th seat)
            pin: SeatButton(seat)
            for pin, seat in zip(mcp23017.BUTTON_INPUTS, self.seats, strict=False)}
        for name in JUDGE_BUTTON_NAMES:
            pin = getattr(self.judge, name)
            if pin is not None:
                found[pin] = JudgeButton(name)
        return found


class ExpanderConfig(_Section):
    """Buttons on MCP23017 I2C expanders (``[expanders]``): I2C1 (GPIO 2, 3) and one shared
    interrupt line (every chip's INTA, open drain, wired together) on ``interrupt``."""

    interrupt: Pin
    chip: Annotated[list[ExpanderChip], msgspec.Meta(min_length=1, max_length=8)]
    i2c_bus: Annotated[int, msgspec.Meta(ge=0, le=20)] = 1


class ConsoleConfig(_Section):
    """One console port: a single seat's console, or a hub scanning several keypads."""

    port: str
    seats: Annotated[list[int], msgspec.Meta(min_length=1, max_length=24)]
    keys_only: bool = False
    baudrate: Annotated[int, msgspec.Meta(ge=1200, le=3_000_000)] = 115200


class StoreConfig(_Section):
    path: str | None = None
    outbox_limit: Annotated[int, msgspec.Meta(ge=1)] = 10_000
    keep: Annotated[int, msgspec.Meta(ge=0)] = 20_000
    # stored events (an outage's backlog, cmd/replay) published per second at most, behind
    # live ones; consumers must keep up with it
    catch_up_rate: Annotated[int, msgspec.Meta(ge=10, le=100_000)] = 1000
    # events held in memory while the journal cannot take them (a full disk)
    hold_limit: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 10_000
    # "full": every event flushed to the card before the table goes on (see controller/store.py)
    synchronous: Literal["normal", "full"] = "normal"


class DayRules(_Section):
    """The day options of a rule preset (``[day]``)."""

    one_nomination_per_speaker: bool = True
    one_nomination_rule: str = "FIIM 4.4.3"  # what a refused second nomination cites


class NightRules(_Section):
    """The night options of a rule preset (``[night]``)."""

    seconds: Annotated[float, msgspec.Meta(gt=0, le=120)] = 10.0  # a step's time limit
    cadence: Annotated[float, msgspec.Meta(ge=0.3, le=5)] = 1.2  # count mode: per number
    # the steps that shoot or check: a target's standing may block them (``[standings]``)
    steps: dict[str, NightAction] = msgspec.field(default_factory=lambda: dict(NIGHT_STEPS))


class MusicConfig(_Section):
    """The night music (``[music]``); paths are relative to the config file."""

    playlist: list[str] = msgspec.field(default_factory=list)  # empty: the built-in track
    shuffle: bool = False
    fade_in: Annotated[float, msgspec.Meta(ge=0, le=60)] = 4.0
    fade_out: Annotated[float, msgspec.Meta(ge=0, le=60)] = 4.0
    volume: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.6
    duck: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.3
    voice: Literal["ru", "en"] = "ru"


class Backends(_Section):
    gpio: Literal["lgpio", "mock"] = "lgpio"
    consoles: Literal["serial", "emulated"] = "serial"
    audio: Literal["sdl", "disk", "off"] = "sdl"
    audio_disk_file: str | None = None
    spi: Literal["spidev", "mock"] = "spidev"  # the [strip]'s SPI: the kernel's, or recorded
    i2c: Literal["smbus2", "mock"] = "smbus2"  # the [expanders]' bus: the kernel's, or a fake


class Config(_Section):
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

    def vote_buttons(self) -> frozenset[Button]:
        """Every button the table can read: GPIO ones, the expanders' and the consoles' (not
        ``keys_only``)."""
        consoles = {SeatButton(seat) for c in self.console if not c.keys_only for seat in c.seats}
        return frozenset(self.wired_buttons()) | frozenset(self.expander_buttons()) | consoles

    def expander_buttons(self) -> dict[Button, tuple[int, int]]:
        """Every button on an expander, with (chip address, input 0..15)."""
        return {button: (chip.address, pin)
                for chip in (self.expanders.chip if self.expanders is not None else [])
                for pin, button in chip.buttons().items()}

    def keypad_seats(self) -> frozenset[int]:
        return frozenset(seat for c in self.console for seat in c.seats)

    def vote_rules(self) -> VoteRules:
        """The preset's ``[vote]`` options with the table's own ``[vote]`` over them."""
        return self.vote

    def store_path(self) -> Path:
        """The journal file: ``store.path``, else ``$STATE_DIRECTORY`` (systemd's
        ``StateDirectory=``), else ``$XDG_STATE_HOME`` or ``~/.local/state``, under
        ``mafia-table/<table>.db`` (``<table>-sim.db`` for a simulated table, so a simulation
        never resumes a real table's game, nor the other way round). ``--sim`` sets
        ``store.path`` to its own file (``sim_store_path``)."""
        if self.store.path is not None:
            return Path(self.store.path)
        name = f"{self.table}-sim.db" if self.backends.gpio == "mock" else f"{self.table}.db"
        return _state_home() / name

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

    def wired_buttons(self) -> dict[Button, int]:
        """Every button that has a pin, with its BCM pin number."""
        wired: dict[Button, int] = {
            SeatButton(s.seat): s.button for s in self.gpio.seat if s.button is not None
        }
        for name in JUDGE_BUTTON_NAMES:
            pin = getattr(self.gpio.judge, name)
            if pin is not None:
                wired[JudgeButton(name)] = pin
        return wired


#: BCM pins the strip's SPI0 takes, by ``spi_device`` (the chip select the driver claims)
STRIP_PINS = {device: [(10, "data"), (11, "sclk"), (9, "miso"), (8 - device, f"ce{device}")]
              for device in (0, 1)}


def _state_home() -> Path:
    """``$STATE_DIRECTORY`` (systemd's ``StateDirectory=``), else ``$XDG_STATE_HOME/mafia-table``,
    by default ``~/.local/state/mafia-table``."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"])
    state_home = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(state_home) / "mafia-table"


def sim_store_path(config_file: Path, table: str) -> Path:
    """The journal of a ``--sim`` run: ``<state home>/sim/<table>-<hash of the config file's
    absolute path>.db``, the state home as ``Config.store_path`` finds it. Never the config's
    own ``store.path`` (a real table's journal), and not shared by two checkouts on one
    machine: each clone's config file has its own."""
    digest = hashlib.sha256(str(config_file.resolve()).encode()).hexdigest()[:10]
    return _state_home() / "sim" / f"{table}-{digest}.db"


def table_id_problem(table: str) -> str | None:
    """Why ``table`` is no table id (``TABLE_ID_RULE``), or None when it is one."""
    if re.match(TABLE_ID_PATTERN, table):
        return None
    return f"{TABLE_ID_RULE}, got {table!r}"


class ConfigError(Exception):
    """The config cannot be used. ``problems`` lists every ``key.path: reason`` found."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))

    def report(self) -> str:
        title = ("bad command line:" if self.source == COMMAND_LINE
                 else f"config error in {self.source}:")
        return "\n".join([title, *(f"  {p}" for p in self.problems)])


@dataclass(frozen=True)
class Overrides:
    """Command-line flags that win over the file."""

    table: str | None = None
    broker: str | None = None  # HOST:PORT
    simulated: bool = False
    # another broker account (tools: ``watch``, ``selftest``): the table's own password file
    # is then neither needed nor read
    username: str | None = None
    password_file: str | None = None  # as given on the command line (relative to the cwd)


def load(path: str | Path, overrides: Overrides | None = None) -> Config:
    """Read, override and check a config file. Raises ``ConfigError`` listing every problem."""
    path = Path(path)
    config = parse(path, overrides)
    problems = _check(config, path.parent)
    if problems:
        raise ConfigError(str(path), problems)
    return _resolve_paths(config, path.parent)


def parse(path: str | Path, overrides: Overrides | None = None) -> Config:
    """Read and override a config file and check its shape (types, ranges, keys), not how its
    parts fit together: for tools that show a config's mistakes, like ``pinout``. Paths in it
    stay relative to the file."""
    path = Path(path)
    source = str(path)
    overrides = overrides or Overrides()
    _check_flags(overrides)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(source, ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(source, [f"cannot read the file: {exc}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, [f"not valid TOML: {exc}"]) from None
    _apply_overrides(raw, overrides, source)
    _merge_preset(raw, path.parent, source)
    try:
        config = msgspec.convert(raw, Config)
    except msgspec.ValidationError as exc:
        problem = validation.describe(str(exc))
        if problem.startswith("table: expected str matching regex"):
            problem = f"table: {table_id_problem(str(raw.get('table')))}"
        raise ConfigError(source, [problem]) from None
    if overrides.simulated:
        store = msgspec.structs.replace(
            config.store, path=str(sim_store_path(path, config.table)))
        config = msgspec.structs.replace(config, store=store)
    return config


def _check_flags(overrides: Overrides) -> None:
    """The flags alone, before the file: their errors name the flag, not the config file."""
    problems = []
    if overrides.table is not None and (problem := table_id_problem(overrides.table)):
        problems.append(f"--table: {problem}")
    if overrides.broker is not None:
        try:
            _host_port(overrides.broker)
        except ConfigError as exc:
            problems += exc.problems
    if overrides.password_file is not None and overrides.username is None:
        problems.append("--password-file: give --username too")
    if problems:
        raise ConfigError(COMMAND_LINE, problems)


def _apply_overrides(raw: dict[str, Any], overrides: Overrides, source: str) -> None:
    if overrides.table is not None:
        raw["table"] = overrides.table
    if overrides.broker is not None:
        broker = raw.setdefault("broker", {})
        if not isinstance(broker, dict):
            raise ConfigError(source, ["broker: expected a table"])
        broker["host"], broker["port"] = _host_port(overrides.broker)
    if overrides.username is not None:
        broker = raw.setdefault("broker", {})
        if not isinstance(broker, dict):
            raise ConfigError(source, ["broker: expected a table"])
        broker["username"] = overrides.username
        broker.pop("password_file", None)
        if overrides.password_file is not None:  # absolute: it is not relative to the config
            broker["password_file"] = str(Path(overrides.password_file).resolve())
    if overrides.simulated:
        backends = raw.setdefault("backends", {})
        if isinstance(backends, dict):
            backends.update(gpio="mock", consoles="emulated", spi="mock", i2c="mock")




class Preset(msgspec.Struct, forbid_unknown_fields=True):
    """A rule preset file (``config/rules/*.toml``): which rule book, and its vote options."""

    name: str
    book: str
    vote: dict[str, Any] = msgspec.field(default_factory=dict)
    day: dict[str, Any] = msgspec.field(default_factory=dict)
    night: dict[str, Any] = msgspec.field(default_factory=dict)
    standings: dict[str, Any] = msgspec.field(default_factory=dict)


def _merge_preset(raw: dict[str, Any], base: Path, source: str) -> None:
    """Fill ``[vote]``, ``[day]``, ``[night]`` and ``[standings]`` from the preset named by
    ``rules`` (the table's own keys win; in ``[standings]``, a standing the table names is
    taken whole from the table)."""
    name = raw.get("rules")
    if not isinstance(name, str):
        return  # absent (FIIM defaults) or not a string (reported by the type check)
    preset_path = base / name
    try:
        preset = msgspec.convert(tomllib.loads(preset_path.read_text(encoding="utf-8")), Preset)
    except FileNotFoundError:
        raise ConfigError(source, [f"rules: preset file not found: {preset_path}"]) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(source, [f"rules: cannot read preset {preset_path}: {exc}"]) from None
    except msgspec.ValidationError as exc:
        raise ConfigError(source, [f"rules: preset {preset_path}: "
                                   f"{validation.describe(str(exc))}"]) from None
    for section in ("vote", "day", "night", "standings"):
        own = raw.get(section, {})
        if isinstance(own, dict):
            raw[section] = {**getattr(preset, section), **own}


def _host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()):
        raise ConfigError(COMMAND_LINE, [f"--broker: expected HOST:PORT, got {text!r}"])
    return host, int(port)


def broker_from_flags(address: str) -> BrokerConfig:
    """A ``[broker]`` section from a ``--broker HOST:PORT`` flag alone."""
    host, port = _host_port(address)
    try:
        return msgspec.convert({"host": host, "port": port}, BrokerConfig)
    except msgspec.ValidationError as exc:
        raise ConfigError(COMMAND_LINE, [f"--broker: {validation.describe(str(exc))}"]) from None


def with_account(broker: BrokerConfig, username: str | None,
                 password_file: str | None) -> BrokerConfig:
    """``broker`` logging in as ``username`` (flags of ``watch``); the password file must exist."""
    if password_file is not None and username is None:
        raise ConfigError(COMMAND_LINE, ["--password-file: give --username too"])
    if username is None:
        return broker
    if password_file is not None and not Path(password_file).is_file():
        raise ConfigError(COMMAND_LINE, [f"--password-file: file not found: {password_file}"])
    return msgspec.structs.replace(broker, username=username, password_file=password_file)


def _check(config: Config, base: Path) -> list[str]:
    return wiring_problems(config) + budget(config).problems + _broker_problems(config, base)


def wiring_problems(config: Config) -> list[str]:
    """How the seats, pins and consoles fit together: a pin or a seat used twice, a seat beyond
    the table, a light given twice, a console seat that also has a GPIO vote button."""
    problems: list[str] = []
    seat_entries: dict[int, str] = {}
    pin_users: dict[int, str] = {}
    for pin, key in config.pin_uses():
        if pin in pin_users:
            problems.append(f"{key}: pin {pin} is already used by {pin_users[pin]}")
        else:
            pin_users[pin] = key
    for i, wiring in enumerate(config.gpio.seat):
        key = f"gpio.seat[{i}]"
        if beyond := _seat_problem(f"{key}.seat", wiring.seat, config):
            problems += beyond
        elif wiring.seat in seat_entries:
            problems.append(f"{key}.seat: seat {wiring.seat} is already wired by "
                            f"{seat_entries[wiring.seat]}")
        else:
            seat_entries[wiring.seat] = key
        if wiring.light is not None and wiring.rgb is not None:
            problems.append(f"{key}: give either light (one LED) or rgb (three pins), not both")

    gpio_buttons = {s.seat: f"gpio.seat[{i}].button" for i, s in enumerate(config.gpio.seat)
                    if s.button is not None}
    problems += _strip_problems(config)
    expander_buttons, found = _expander_problems(config, gpio_buttons)
    problems += found
    vote_buttons = {seat: f"GPIO ({key})" for seat, key in gpio_buttons.items()} | {
        seat: f"an expander ({key})" for seat, key in expander_buttons.items()}
    served: dict[int, str] = {}
    ports: dict[str, str] = {}
    for i, console in enumerate(config.console):
        key = f"console[{i}]"
        if console.port in ports:
            problems.append(f"{key}.port: {console.port} is already {ports[console.port]}")
        ports[console.port] = key
        for j, seat in enumerate(console.seats):
            if beyond := _seat_problem(f"{key}.seats[{j}]", seat, config):
                problems += beyond
            elif seat in served:
                problems.append(f"{key}.seats[{j}]: seat {seat} is already served by "
                                f"{served[seat]}")
            elif seat in vote_buttons and not console.keys_only:
                problems.append(f"{key}.seats[{j}]: seat {seat} has a vote button on "
                                f"{vote_buttons[seat]}; set {key}.keys_only = true so its "
                                "console serves the keypad only")
            served[seat] = key
    return problems


def _seat_problem(key: str, seat: int, config: Config) -> list[str]:
    """``key`` names a seat the table does not have (or nothing)."""
    if 1 <= seat <= config.seats:
        return []
    return [f"{key}: no seat {seat} at this table (seats = {config.seats})"]


def _strip_problems(config: Config) -> list[str]:
    """Strip seats on the table, each once, LED ranges apart, no seat lit twice, and a frame
    that fits one SPI transfer."""
    strip = config.strip
    if strip is None:
        return []
    problems: list[str] = []
    if ("W" in strip.order) != (strip.chip == "sk6812_rgbw"):
        problems.append(f"strip.order: {strip.order} does not fit chip {strip.chip} (RGBW "
                        "orders are for sk6812_rgbw, which needs one)")
    gpio_lights = {w.seat: f"gpio.seat[{i}]" for i, w in enumerate(config.gpio.seat)
                   if w.light is not None or w.rgb is not None}
    seats: dict[int, str] = {}
    leds: dict[int, str] = {}
    for i, entry in enumerate(strip.seat):
        key = f"strip.seat[{i}]"
        problems += _seat_problem(f"{key}.seat", entry.seat, config)
        if entry.seat in seats:
            problems.append(f"{key}.seat: seat {entry.seat} already has LEDs in "
                            f"{seats[entry.seat]}")
        elif entry.seat in gpio_lights:
            problems.append(f"{key}.seat: seat {entry.seat} already has a GPIO light in "
                            f"{gpio_lights[entry.seat]}")
        seats.setdefault(entry.seat, key)
        for led in range(entry.first, entry.first + entry.count):
            if led in leds:
                problems.append(f"{key}: LED {led} already belongs to {leds[led]}")
                break
            leds[led] = key
    encoding = ws2812.ENCODINGS[strip.chip]
    size = ws2812.frame_size(max(leds, default=-1) + 1, strip.order, encoding)
    if size > ws2812.SPIDEV_BUFSIZ:
        problems.append(f"strip: {max(leds) + 1} LEDs make a {size}-byte SPI frame, more than "
                        f"one spidev transfer ({ws2812.SPIDEV_BUFSIZ} bytes)")
    return problems


def _expander_problems(config: Config,
                       gpio_buttons: dict[int, str]) -> tuple[dict[int, str], list[str]]:
    """Each chip once, each input once, each seat's button once (GPIO or expander); returns
    the seats with an expander button (seat -> key) and the problems."""
    if config.expanders is None:
        return {}, []
    problems: list[str] = []
    addresses: dict[int, str] = {}
    seats: dict[int, str] = {}
    judges: dict[str, str] = {name: f"gpio.judge.{name}" for name in JUDGE_BUTTON_NAMES
                              if getattr(config.gpio.judge, name) is not None}
    for i, chip in enumerate(config.expanders.chip):
        key = f"expanders.chip[{i}]"
        if chip.address in addresses:
            problems.append(f"{key}.address: 0x{chip.address:02x} is already "
                            f"{addresses[chip.address]}")
        addresses[chip.address] = key
        if len(chip.seats) > len(mcp23017.BUTTON_INPUTS):
            problems.append(f"{key}.seats: {len(chip.seats)} seats, but a chip takes "
                            f"{len(mcp23017.BUTTON_INPUTS)} buttons (GPA7 and GPB7 are output "
                            "only, datasheet revision D): put the rest on another chip")
        inputs = {pin: f"{key}.seats[{j}]"
                  for j, pin in enumerate(mcp23017.BUTTON_INPUTS[:len(chip.seats)])}
        for j, seat in enumerate(chip.seats):
            problems += _seat_problem(f"{key}.seats[{j}]", seat, config)
            if seat in seats or seat in gpio_buttons:
                problems.append(f"{key}.seats[{j}]: seat {seat}'s button is already "
                                f"{seats.get(seat) or gpio_buttons[seat]}")
            seats.setdefault(seat, f"{key}.seats[{j}]")
        for name in JUDGE_BUTTON_NAMES:
            pin = getattr(chip.judge, name)
            if pin is None:
                continue
            if pin not in mcp23017.BUTTON_INPUTS:
                problems.append(f"{key}.judge.{name}: input {pin} is "
                                f"{mcp23017.input_name(pin)}, output only on an MCP23017 "
                                "(datasheet revision D): use 0-6 or 8-14")
            elif pin in inputs:
                problems.append(f"{key}.judge.{name}: input {pin} is already {inputs[pin]}")
            if name in judges:
                problems.append(f"{key}.judge.{name}: the {name} button is already "
                                f"{judges[name]}")
            inputs[pin] = judges[name] = f"{key}.judge.{name}"
    if config.backends.i2c == "mock" and config.backends.gpio != "mock":
        problems.append('backends.i2c: "mock" (the fake expanders) needs backends.gpio = '
                        '"mock": the fake drives the interrupt line\'s mock pin')
    return seats, problems


def _broker_problems(config: Config, base: Path) -> list[str]:
    problems: list[str] = []
    broker = config.broker
    if broker.password_file is not None and broker.username is None:
        problems.append("broker.password_file: set broker.username too")
    files = {"broker.password_file": broker.password_file}
    if broker.tls is not None:
        files |= {
            "broker.tls.ca_file": broker.tls.ca_file,
            "broker.tls.cert_file": broker.tls.cert_file,
            "broker.tls.key_file": broker.tls.key_file,
        }
        if (broker.tls.cert_file is None) != (broker.tls.key_file is None):
            problems.append("broker.tls: give cert_file and key_file together")
    missing = False
    for i, track in enumerate(config.music.playlist):
        files[f"music.playlist[{i}]"] = track
    for key, name in files.items():
        if name is not None and not (base / name).is_file():
            problems.append(f"{key}: file not found: {base / name}")
            missing = True
    if not missing:
        problems += _check_secrets(broker, base)
    return problems


def _check_secrets(broker: BrokerConfig, base: Path) -> list[str]:
    """Read the password and TLS files now, so a bad one stops ``check-config``, not ``run``."""
    problems = []
    if broker.password_file is not None:
        try:
            if not (base / broker.password_file).read_text(encoding="utf-8").strip():
                problems.append("broker.password_file: the file is empty")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"broker.password_file: cannot read it as text: {exc}")
    if broker.tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        try:
            context.load_verify_locations(cafile=base / broker.tls.ca_file)
        except (OSError, ssl.SSLError) as exc:
            problems.append(f"broker.tls.ca_file: not a usable CA certificate: {exc}")
        if broker.tls.cert_file is not None and broker.tls.key_file is not None:
            try:
                context.load_cert_chain(base / broker.tls.cert_file, base / broker.tls.key_file)
            except (OSError, ssl.SSLError) as exc:
                problems.append(f"broker.tls.cert_file: certificate and key_file do not load "
                                f"as a pair: {exc}")
    return problems


def _resolve_paths(config: Config, base: Path) -> Config:
    """Make file paths absolute, relative to the config file's folder."""

    def resolved(name: str | None) -> str | None:
        return None if name is None else str((base / name).resolve())

    broker = config.broker
    tls = broker.tls
    if tls is not None:
        tls = msgspec.structs.replace(
            tls,
            ca_file=resolved(tls.ca_file),
            cert_file=resolved(tls.cert_file),
            key_file=resolved(tls.key_file),
        )
    broker = msgspec.structs.replace(
        broker, password_file=resolved(broker.password_file), tls=tls
    )
    store = msgspec.structs.replace(config.store, path=resolved(config.store.path))
    music = msgspec.structs.replace(
        config.music, playlist=[str(resolved(track)) for track in config.music.playlist])
    return msgspec.structs.replace(config, broker=broker, store=store, music=music)
