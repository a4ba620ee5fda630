"""A console on the host: the real firmware logic on emulated pins, over a real pty.

For ``--sim`` and the tests. ``firmware.console.Console`` runs unchanged; the pin layer here
holds key and button levels that ``press``/``release``/``type`` set, and records what the host
asked the lights to show. The host side opens ``path``: a symlink to the pty, the way udev's
``/dev/serial/by-id/...`` links point at ``/dev/ttyACM0``. ``unplug`` closes the pty (the host
sees the device vanish) while the console keeps scanning and buffering presses, and ``replug``
gives it a fresh pty behind the same path; ``reboot`` restarts the firmware with a new boot id
(its unacknowledged events are lost, as on a real reset).

The console clock is the host's monotonic clock in ms plus a random offset, so the host must
really map it.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import select
import tempfile
import threading
import time
import tty
from collections import deque
from pathlib import Path

from contract.buttons import Button, SeatButton
from contract.light_timing import light_level
from firmware_bridge.firmware.console import Console, elapsed
from firmware_bridge.link import ConsoleConfig

log = logging.getLogger(__name__)

POLL_S = 0.001  # the firmware's main loop period while an input settles
IDLE_S = 0.2  # ...and while nothing moves (a hand wakes it at once): an idle table costs ~nothing
KEY_DOWN_S = 0.04  # how long ``type`` holds each key
#: Keys that may wait to be typed (a finger types a dozen a second); more are dropped, logged.
MAX_TYPING = 64


class EmulatedPins:
    """The pin layer of ``Console`` (see its module docstring), in memory."""

    def __init__(self, seats: list[int]):
        self.clock_offset_ms = random.randrange(1 << 31)
        self.keys: dict[int, bytes] = {seat: b"" for seat in seats}
        self.buttons: dict[int, bool] = {seat: False for seat in seats}
        self.lights: dict[int, tuple[int, tuple[int, int, int]]] = {}
        self.indicators: dict[int, int] = {}
        self.since: dict[tuple[str, int], int] = {}  # ("light" | "indicator", seat) -> ticks set
        self.fd: int | None = None
        self.noise = 0.0

    def ticks_ms(self) -> int:
        return (int(time.monotonic() * 1000) + self.clock_offset_ms) & 0xFFFFFFFF

    def keys_down(self, seat: int) -> bytes:
        return self.keys[seat]

    def button_down(self, seat: int) -> bool:
        return self.buttons[seat]

    def show_light(self, seat: int, mode: int, rgb: tuple[int, int, int]) -> None:
        self.lights[seat] = (mode, rgb)
        self.since["light", seat] = self.ticks_ms()

    def show_indicator(self, seat: int, pattern: int) -> None:
        self.indicators[seat] = pattern
        self.since["indicator", seat] = self.ticks_ms()

    def shown_for(self, part: str, seat: int) -> int:
        """Milliseconds since the seat's light (``part`` "light") or indicator was set: what
        ``light_level`` and ``indicator_on`` time a blink from."""
        return elapsed(self.ticks_ms(), self.since.get((part, seat), 0))

    def write(self, data: bytes) -> None:
        """Bytes to the host; lost when unplugged or when the host does not read (like USB).
        With ``noise`` > 0, each byte has that chance of a flipped bit (tests)."""
        if self.fd is None:
            return
        if self.noise:
            data = bytes(b ^ (1 << random.randrange(8)) if random.random() < self.noise else b
                         for b in data)
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self.fd, data)


class EmulatedConsole:
    """One emulated console serving ``seats``, reachable at ``path``."""

    def __init__(self, path: Path, seats: list[int], *, unique_id: bytes | None = None):
        self.path = Path(path)
        self.seats = list(seats)
        self.unique_id = unique_id or random.randbytes(8)
        self.pins = EmulatedPins(self.seats)
        self.console = self._firmware()
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._typing: deque[tuple[int, str]] = deque()  # (seat, key) still to be pressed
        self._typist: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._thread = threading.Thread(target=self._run, name=f"emulated {path.name}",
                                        daemon=True)

    def _firmware(self) -> Console:
        return Console(self.pins, self.unique_id, random.randrange(1 << 32), self.seats)

    def start(self) -> None:
        self.replug()
        self._thread.start()

    def close(self) -> None:
        with self._lock:
            self._typing.clear()  # the typist ends after the key it holds
            typist = self._typist
        if typist is not None:
            typist.join(5)  # before the wake-up pipe it touches is closed
        self._stop.set()
        self._touch()
        if self._thread.is_alive():
            self._thread.join(5)
        self.unplug()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def _touch(self) -> None:
        """Wake the main loop now: an input moved."""
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake_w, b"!")

    # the USB cable

    def unplug(self) -> None:
        with self._lock:
            self.pins.fd = None
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    def replug(self) -> None:
        with self._lock:
            master, slave = os.openpty()
            tty.setraw(slave)  # raw before anything is written: no echo, no line discipline
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.pins.fd = master
            tmp = self.path.with_suffix(".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(os.ttyname(slave))
            tmp.replace(self.path)

    def reboot(self) -> None:
        """A reset: new boot id, and what was not acknowledged is gone."""
        with self._lock:
            self.console = self._firmware()

    # hands on the console

    def press(self, seat: int) -> float:
        """Put the fist on seat ``seat``'s button; returns the host monotonic time of it."""
        self.pins.buttons[seat] = True
        self._touch()
        return time.monotonic()

    def release(self, seat: int) -> float:
        self.pins.buttons[seat] = False
        self._touch()
        return time.monotonic()

    def type(self, seat: int, keys: str) -> None:
        """Press ``keys`` one after another on seat ``seat``'s keypad (in the background). Keys
        typed while earlier ones are still going down wait their turn, as fingers would; past
        ``MAX_TYPING`` waiting, the rest are dropped (a ``sim/key`` flood)."""
        with self._lock:
            room = MAX_TYPING - len(self._typing)
            if len(keys) > room:
                log.warning("emulated console: %d keys wait to be typed; %r dropped",
                            len(self._typing), keys[max(0, room):])
            self._typing.extend((seat, key) for key in keys[:max(0, room)])
            if self._typist is None:
                self._typist = threading.Thread(target=self._type_queued, daemon=True)
                self._typist.start()

    def _type_queued(self) -> None:
        while True:
            with self._lock:
                if not self._typing:
                    self._typist = None
                    return
                seat, key = self._typing.popleft()
            for held in (key.encode(), b""):
                self.pins.keys[seat] = held
                self._touch()
                time.sleep(KEY_DOWN_S)
                self._until_taken(seat, key, bool(held))

    def _until_taken(self, seat: int, key: str, down: bool) -> None:
        """Hold on until the firmware's debounce took the key's change, as a finger would stay
        on a key until it clicks (a busy host may not run the firmware's loop for a while)."""
        deadline = time.monotonic() + 2
        while (self.console.keys[seat][ord(key)].stable != down and not self._stop.is_set()
               and time.monotonic() < deadline):
            time.sleep(POLL_S)

    # the firmware's main loop

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                master, console = self._master, self.console
            wait = POLL_S if console.settling() else IDLE_S
            sources = [self._wake_r] if master is None else [master, self._wake_r]
            try:
                ready, _, _ = select.select(sources, [], [], wait)
                if self._wake_r in ready:
                    os.read(self._wake_r, 64)
                if master is not None and master in ready:
                    with self._lock:  # unplugged meanwhile, its number may be a socket's now
                        data = os.read(master, 4096) if self._master == master else b""
                    console.receive(data)
            except OSError as exc:
                # EIO: the host closed; EBADF/EAGAIN: unplugged under our feet
                if exc.errno not in (errno.EIO, errno.EBADF, errno.EAGAIN):
                    raise
                time.sleep(POLL_S)
            console.poll()


class EmulatedConsoles:
    """The ``emulated`` port backend (``firmware_bridge.ports``, ``--sim``): an emulated console
    behind each ``[[console]]``, on a pty named by a symlink in a private folder."""

    def __init__(self) -> None:
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self.emulators: dict[int, EmulatedConsole] = {}  # by seat

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

    def glow(self, seat: int) -> tuple[float, float, float] | None:
        """What seat ``seat``'s console light puts out now (0..1 red, green, blue), as the
        firmware drives its pins; None for a seat with no emulated console."""
        console = self.emulators.get(seat)
        if console is None:
            return None
        mode, rgb = console.pins.lights.get(seat, (0, (0, 0, 0)))
        level = light_level(mode, console.pins.shown_for("light", seat))
        return (rgb[0] / 255 * level, rgb[1] / 255 * level, rgb[2] / 255 * level)

    def has_button(self, button: Button) -> bool:
        return isinstance(button, SeatButton) and button.seat in self.emulators

    def drive(self, button: Button, pressed: bool) -> None:
        """Put a fist on (or lift it from) a seat's vote button."""
        assert isinstance(button, SeatButton)
        emulator = self.emulators[button.seat]
        (emulator.press if pressed else emulator.release)(button.seat)

    def type(self, seat: int, keys: str) -> None:
        """Type ``keys`` on seat ``seat``'s keypad (a seat with no emulated console: nothing)."""
        emulator = self.emulators.get(seat)
        if emulator is not None:
            emulator.type(seat, keys)


def main() -> None:
    """``python -m firmware_bridge.emulator PATH SEAT...``: an emulated console in its own
    process, as a real one would be (for benches). Reads ``press N`` / ``release N`` lines on
    stdin, and ``dump``, to which it answers with a ``frame <seq> <time.monotonic()>`` line per
    EVENT frame written since the last dump (each seq once: when it was first written) and
    ``end``. The times wait in memory until asked for, so that telling the bench does not
    compete with the host for the CPU at the moment being measured."""
    import sys

    from firmware_bridge import protocol as p

    console = EmulatedConsole(Path(sys.argv[1]), [int(s) for s in sys.argv[2:]])
    write = console.pins.write
    written: list[tuple[int, float]] = []  # appended on the console's thread
    recent: deque[int] = deque(maxlen=64)  # seqs (they wrap at 256) written lately: resends

    def noting(data: bytes) -> None:
        # noted before the bytes go out: once the host can read a frame, a dump has it
        events = [frame.seq for frame in p.Decoder().feed(data) if frame.type == p.T_EVENT]
        at = time.monotonic()
        for seq in events:
            if seq not in recent:
                written.append((seq, at))
                recent.append(seq)
        write(data)

    console.pins.write = noting  # type: ignore[method-assign]  # watch every frame written
    console.start()
    print("ready", flush=True)
    for line in sys.stdin:
        verb, _, seat = line.partition(" ")
        if verb.strip() == "dump":
            count = len(written)
            for seq, at in written[:count]:
                print(f"frame {seq} {at}")
            del written[:count]
            print("end", flush=True)
        else:
            (console.press if verb == "press" else console.release)(int(seat))
    console.close()


if __name__ == "__main__":
    main()
