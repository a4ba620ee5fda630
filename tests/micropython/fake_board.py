"""A fake RP2040 for ``firmware/main.py`` under MicroPython: ``machine``, ``os``, ``select``,
``sys`` and ``time`` stand-ins put in ``sys.modules`` before ``main`` is imported.

A keypad matrix: a column reads low while the row driven low has a held key on it. A vote
button to ground. PWM channels and the indicator pin record what they were set to. The host
side of USB serial is two byte queues. The watchdog's ``feed`` (once per main-loop turn) runs
``script`` (a function of the turn number) and ends the run after ``turns`` turns. The clock
is the board's own: it moves only while the firmware waits for the host (``poll``'s timeout),
so a run reads the same however busy the machine running it (on the real clock, a 400-turn run
that took over 5 s, the suite's workers sharing two cores, had the console blank its light for
the host's silence).
"""

_TICKS = 1 << 30  # MicroPython's ticks_ms wraps here

KEYMAP = [b"123", b"456", b"789", b"*0#"]


class Stop(Exception):
    pass


class Board:
    def __init__(self):
        self.held = b""  # keys held on the keypad
        self.button = False
        self.pins = {}
        self.pwm = {}
        self.from_host = bytearray()
        self.to_host = bytearray()
        self.turn = 0
        self.turns = 0
        self.ms = 0  # the board's clock
        self.script = None


board = Board()


class Pin:
    OUT = 1
    IN = 0
    PULL_UP = 2

    def __init__(self, number, mode=IN, pull=None, value=None):
        self.number = number
        self.mode = mode
        self.level = 1 if value is None else value
        board.pins[number] = self

    def value(self, level=None):
        if level is not None:
            self.level = level
            return None
        return self._read() if self.mode == Pin.IN else self.level

    def _read(self):
        import board as wiring

        if self.number == wiring.BUTTON:
            return 0 if board.button else 1
        col = wiring.KEYPAD_COLS.index(self.number)
        for r, row in enumerate(wiring.KEYPAD_ROWS):
            if board.pins[row].level == 0 and KEYMAP[r][col] in board.held:
                return 0
        return 1


class PWM:
    def __init__(self, pin):
        self.pin = pin
        board.pwm[pin.number] = 0

    def freq(self, hz):
        self.hz = hz

    def duty_u16(self, duty):
        board.pwm[self.pin.number] = duty


class WDT:
    def __init__(self, timeout):
        self.timeout = timeout

    def feed(self):
        board.turn += 1
        if board.script is not None:
            board.script(board.turn)
        if board.turn >= board.turns:
            raise Stop()


def unique_id():
    return b"\xe6\x61\x4c\x31\x1b\x7e\x6f\x35"


class machine:
    Pin = Pin
    PWM = PWM
    WDT = WDT
    unique_id = staticmethod(unique_id)


class os:
    @staticmethod
    def urandom(n):
        return bytes(range(0xA1, 0xA1 + n))  # the boot id is 0xA1A2A3A4


class time:
    @staticmethod
    def ticks_ms():
        return board.ms % _TICKS

    @staticmethod
    def ticks_diff(later, earlier):
        return (later - earlier + _TICKS // 2) % _TICKS - _TICKS // 2

    @staticmethod
    def sleep_ms(ms):
        board.ms += ms


class _In:
    def read(self, n):
        data = bytes(board.from_host[:n])
        board.from_host[:n] = b""
        return data


class _Out:
    def write(self, data):
        board.to_host.extend(data)


class _Stream:
    def __init__(self, buffer):
        self.buffer = buffer


class sys:
    stdin = _Stream(_In())
    stdout = _Stream(_Out())


class _Poll:
    def register(self, stream, events):
        pass

    def poll(self, ms):
        if board.from_host:
            return [(sys.stdin.buffer, 1)]
        time.sleep_ms(ms)
        return []


class select:
    POLLIN = 1

    @staticmethod
    def poll():
        return _Poll()
