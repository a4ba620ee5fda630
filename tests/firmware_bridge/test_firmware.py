"""The console firmware logic on a fake clock: debounce, the ring buffer, acks, blanking.

These tests also run under real MicroPython (tests/firmware_bridge/test_micropython.py): keep them
to its subset (no pytest fixtures, no `(a, *b)` displays, plain asserts)."""

from __future__ import annotations

from firmware_bridge import protocol as p
from firmware_bridge.firmware.console import DEBOUNCE_MS, HOST_SILENCE_MS, RESEND_MS, RING, Console


class FakePins:
    def __init__(self) -> None:
        self.now = 1000
        self.keys = b""
        self.button = False
        self.lights: dict[int, tuple] = {}
        self.indicators: dict[int, int] = {}
        self.sent: list[p.Frame] = []
        self._decoder = p.Decoder()

    def ticks_ms(self) -> int:
        return self.now

    def keys_down(self, seat: int) -> bytes:
        return self.keys

    def button_down(self, seat: int) -> bool:
        return self.button

    def show_light(self, seat, mode, rgb) -> None:
        self.lights[seat] = (mode, rgb)

    def show_indicator(self, seat, pattern) -> None:
        self.indicators[seat] = pattern

    def write(self, data: bytes) -> None:
        self.sent += self._decoder.feed(data)


def console() -> tuple[Console, FakePins]:
    pins = FakePins()
    return Console(pins, b"12345678", 0xB007, [3]), pins


def run(c: Console, pins: FakePins, ms: int) -> None:
    for _ in range(ms):
        pins.now += 1
        c.poll()


def events(pins: FakePins) -> list[tuple]:
    # (f.seq, *rest) is not MicroPython
    return [(f.seq,) + p.unpack_event(f.payload)  # noqa: RUF005
            for f in pins.sent if f.type == p.T_EVENT]


def welcome(c: Console, ack: int = 0) -> None:
    c.receive(p.encode_frame(p.T_WELCOME, 0, ack, p.pack_welcome(0xB007)))


def test_hello_at_boot_and_every_second_until_welcomed():
    c, pins = console()
    run(c, pins, 2500)
    assert [f.type for f in pins.sent].count(p.T_HELLO) == 3
    welcome(c)
    run(c, pins, 3000)
    assert [f.type for f in pins.sent].count(p.T_HELLO) == 3


def test_a_press_is_stamped_with_its_first_edge_once_stable():
    c, pins = console()
    welcome(c)
    run(c, pins, 5)
    pins.button = True
    pressed_at = pins.now + 1
    run(c, pins, 3)
    pins.button = False  # chatter
    run(c, pins, 1)
    pins.button = True
    chatter_end = pins.now + 1
    run(c, pins, DEBOUNCE_MS + 2)
    [(seq, seat, kind, _, t_ms)] = events(pins)
    assert (seq, seat, kind) == (1, 3, p.EV_BUTTON_DOWN)
    assert t_ms == chatter_end and t_ms > pressed_at  # the edge that stayed


def test_keys_are_events_with_their_ascii_value():
    c, pins = console()
    welcome(c)
    pins.keys = b"7"
    run(c, pins, DEBOUNCE_MS + 2)
    pins.keys = b""
    run(c, pins, DEBOUNCE_MS + 2)
    assert [(kind, chr(value)) for _, _, kind, value, _ in events(pins)] == [(p.EV_KEY, "7")]


def test_unacknowledged_events_are_sent_again_and_acked_ones_forgotten():
    c, pins = console()
    welcome(c)
    for _ in range(2):
        pins.button = not pins.button
        run(c, pins, DEBOUNCE_MS + 2)
    assert [e[0] for e in events(pins)] == [1, 2]
    run(c, pins, RESEND_MS)
    assert [e[0] for e in events(pins)] == [1, 2, 1, 2]
    c.receive(p.encode_frame(p.T_ACK, 0, 1))
    run(c, pins, RESEND_MS)
    assert [e[0] for e in events(pins)][-1:] == [2] and [s for s, _ in c.pending] == [2]


def test_acks_before_welcome_are_ignored_they_may_belong_to_the_previous_boot():
    c, pins = console()
    pins.button = True
    run(c, pins, DEBOUNCE_MS + 2)
    c.receive(p.encode_frame(p.T_PING, 0, 1, p.pack_ping(5)))  # ack 1 of another boot
    assert [s for s, _ in c.pending] == [1]
    welcome(c, ack=1)  # WELCOME itself carries the ack of this boot
    c.receive(p.encode_frame(p.T_ACK, 0, 1))
    assert c.pending == []


def test_a_full_ring_keeps_the_oldest_and_counts_the_rest():
    c, pins = console()
    for _ in range(RING + 4):
        pins.button = not pins.button
        run(c, pins, DEBOUNCE_MS + 2)
    assert len(c.pending) == RING and c.overflow == 4
    assert c.pending[0][0] == 1


def test_lights_follow_the_host_and_go_dark_when_it_falls_silent():
    c, pins = console()
    welcome(c)
    c.receive(p.encode_frame(p.T_LIGHT, 0, 0, p.pack_light(3, 1, (255, 0, 0))))
    c.receive(p.encode_frame(p.T_INDICATOR, 0, 0, p.pack_indicator(3, 2)))
    c.receive(p.encode_frame(p.T_LIGHT, 0, 0, p.pack_light(9, 1, (1, 1, 1))))  # not its seat
    assert pins.lights == {3: (1, (255, 0, 0))} and pins.indicators == {3: 2}
    run(c, pins, HOST_SILENCE_MS - 10)
    assert pins.lights[3][0] == 1
    run(c, pins, 20)
    assert pins.lights[3] == (0, (0, 0, 0)) and pins.indicators[3] == 0


def test_a_ping_is_answered_with_the_console_clock():
    c, pins = console()
    c.receive(p.encode_frame(p.T_PING, 0, 0, p.pack_ping(42)))
    [pong] = [f for f in pins.sent if f.type == p.T_PONG]
    assert p.unpack_pong(pong.payload) == (42, pins.now)


def test_the_oldest_event_is_resent_on_time_even_while_new_ones_keep_coming():
    c, pins = console()
    welcome(c)
    for _ in range(8):  # an event every 50 ms, none acknowledged
        pins.button = not pins.button
        run(c, pins, 50)
    first_sends = [f for f in pins.sent if f.type == p.T_EVENT and f.seq == 1]
    assert len(first_sends) >= 2  # resent within ~RESEND_MS, not starved by the new events


def test_intervals_hold_across_the_32_bit_clock_wrap():
    c, pins = console()
    pins.now = 0xFFFFFFFF - 3
    welcome(c)
    pins.button = True
    for _ in range(DEBOUNCE_MS + 5):
        pins.now = (pins.now + 1) & 0xFFFFFFFF
        c.poll()
    [(_, _, kind, _, t_ms)] = events(pins)
    assert kind == p.EV_BUTTON_DOWN and t_ms == 0xFFFFFFFF - 2


def test_hello_tells_the_first_unacknowledged_seq():
    c, pins = console()
    for _ in range(3):
        pins.button = not pins.button
        run(c, pins, DEBOUNCE_MS + 2)
    welcome(c)
    c.receive(p.encode_frame(p.T_ACK, 0, 2))
    c.receive(p.encode_frame(p.T_HELLO_REQUEST, 0, 0))
    hello = [f for f in pins.sent if f.type == p.T_HELLO][-1]
    assert p.unpack_hello(hello.payload)["first_seq"] == 3


def test_lights_blink_on_the_console_itself_as_they_do_on_gpio():
    """The host sends a mode once; the console times the blinking (as gpiozero does on GPIO)."""
    from contract.light_timing import indicator_on, light_level

    assert [light_level(0, 0), light_level(1, 12345), light_level(2, 7)] == [0.0, 1.0, 0.15]
    blink = [light_level(3, t) for t in (0, 499, 500, 999, 1000)]
    assert blink == [1.0, 1.0, 0.0, 0.0, 1.0]  # starts lit, 500 ms on, 500 ms off
    assert [light_level(4, t) for t in (0, 149, 150, 299, 300)] == [1.0, 1.0, 0.0, 0.0, 1.0]
    double = [indicator_on(3, t) for t in range(0, 1000, 60)]
    assert double[:7] == [True, True, False, False, True, True, False] and not any(double[7:])
    assert [indicator_on(2, t) for t in (0, 499, 500, 999)] == [True, True, False, False]
    assert indicator_on(1, 999_999) and not indicator_on(0, 0)
