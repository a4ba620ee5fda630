"""The console conversation's timing and reliability, in memory on a fake clock.

The host side (``firmware_bridge.session.HostSession``) and the real firmware logic
(``firmware.console.Console``) talk over ``tests.console_wire.Wire``: no thread, no pty, no
sleep, so nothing here depends on how busy the machine is.
"""

from __future__ import annotations

import pytest

from contract.inputs import KeyPressed
from contract.lights import Light, LightMode
from firmware_bridge import protocol as p
from firmware_bridge.firmware.console import RESEND_MS
from firmware_bridge.sequence import Sequencer
from firmware_bridge.session import MISSED_PONGS, PING_EVERY, HostSession
from tests.support.console_wire import Wire

SECOND_MS = int(PING_EVERY * 1000)


def online(wire: Wire) -> int:
    """Run until the host has the console online and a clock sample of it."""
    return wire.until(lambda: wire.host.state == "online" and wire.host.health.rtt_ms is not None)


def frames_of(wire: Wire, type: int) -> list[p.Frame]:
    return [f for f in wire.host_frames if f.type == type]


# ---- handshake and the WELCOME ack


def test_a_fresh_console_is_welcomed_with_ack_0_and_keeps_its_ring():
    wire = Wire([4])
    wire.plugged = False
    wire.press(4)  # before any host: the press waits in the console's ring buffer
    assert [seq for seq, _ in wire.console.pending] == [1, 2]
    wire.plugged = True
    wire.new_host({4})
    wire.journal = False
    online(wire)
    [welcome] = frames_of(wire, p.T_WELCOME)
    assert welcome.ack == 0  # "nothing accepted from this boot yet" (docs/protocol.md)
    # every frame up to the first journaled event says 0 too: a console that trusts the doc
    # (0 = none yet) keeps its whole ring
    assert {f.ack for f in wire.host_frames} == {0}
    wire.until(lambda: len(wire.inputs) == 2)
    assert [seq for seq, _ in wire.console.pending] == [1, 2]  # not journaled: not acked
    wire.journal_all()
    wire.until(lambda: not wire.console.pending)
    assert [d.input.pressed for d in wire.inputs] == [True, False]


def without_hellos(data: bytes) -> bytes:
    return b"".join(p.encode_frame(f.type, f.seq, f.ack, f.payload)
                    for f in p.Decoder().feed(data) if f.type != p.T_HELLO)


def test_events_before_welcome_are_not_taken_and_are_resent_after_it():
    wire = Wire([4])
    wire.to_host = without_hellos  # the host never learns who speaks: no WELCOME
    wire.press(4)
    wire.run(500)
    assert wire.inputs == [] and wire.host.health.counts["before_welcome"] >= 2
    wire.to_host = lambda data: data
    wire.until(lambda: len(wire.inputs) == 2)
    wire.run(RESEND_MS * 3)
    assert [d.input.pressed for d in wire.inputs] == [True, False]  # once each


def test_a_second_hello_of_the_same_boot_is_welcomed_again_and_loses_nothing():
    wire = Wire([4])
    online(wire)
    wire.host.show(4, Light(LightMode.ON, "#00ff00"))
    wire.host.indicate(4, 2)
    wire.press(4)
    wire.run(50)
    wire.pins.lights.clear()
    wire.pins.indicators.clear()
    welcomes = len(frames_of(wire, p.T_WELCOME))
    wire.console._hello(wire.console.hw.ticks_ms())  # as after a lost WELCOME
    wire.run(50)
    assert len(frames_of(wire, p.T_WELCOME)) == welcomes + 1
    assert wire.pins.lights == {4: (1, (0, 255, 0))} and wire.pins.indicators == {4: 2}
    wire.press(4)
    wire.run(RESEND_MS * 2)
    assert [d.input.pressed for d in wire.inputs] == [True, False, True, False]


def test_an_unknown_major_is_refused_and_nothing_more_is_said():
    wire = Wire([4])
    wire.console.protocol = (2, 0)
    wire.run(2500)
    assert wire.host.state == "refused" and "protocol 2.0" in wire.host.health.refused
    sent = len(wire.host_frames)
    wire.run(3000)
    assert len(wire.host_frames) == sent


# ---- exactly once, across a controller restart at any moment


@pytest.mark.parametrize("crash_at_ms", range(0, 400, 9))
def test_a_restart_at_any_moment_publishes_every_press_exactly_once(crash_at_ms):
    """The host journals a delivered input every third millisecond (an event loop's delay);
    the controller dies at ``crash_at_ms`` and what was accepted but not journaled is lost
    with it. The next controller starts from the journal: each press is journaled (so
    published) exactly once, with its edge time."""
    wire = Wire([4])
    online(wire)
    wire.journal = False
    moved = []
    for tick in range(400 + 4000):
        if tick in (0, 60, 120):
            moved.append(wire.now + 0.001)
            wire.pins.buttons[4] = True
        if tick in (30, 90, 150):
            moved.append(wire.now + 0.001)
            wire.pins.buttons[4] = False
        if tick == crash_at_ms:
            wire.unjournaled.clear()  # the dying controller's memory
            wire.new_host({4})
        wire.run()
        if wire.ms % 3 == 0:
            wire.journal_all()
    assert [(pos.seq, pos.count) for pos in wire.journaled] == [(n, n) for n in range(1, 7)]
    assert not wire.console.pending
    kept = {d.position: d.input for d in wire.inputs}
    times = [kept[pos].t for pos in wire.journaled]
    assert [kept[pos].pressed for pos in wire.journaled] == [True, False] * 3
    assert all(abs(t - at) <= 0.001 for t, at in zip(times, moved, strict=True)), times


def test_a_restart_after_journaling_but_before_the_console_heard_the_ack():
    wire = Wire([4])
    online(wire)
    wire.to_console = lambda data: b""  # the acks never arrive
    wire.press(4)
    assert len(wire.journaled) == 2
    wire.new_host({4})  # restarted from the journal
    wire.to_console = lambda data: data
    wire.until(lambda: not wire.console.pending)
    assert len(wire.inputs) == 2  # not delivered again: the new host's WELCOME acks them
    assert frames_of(wire, p.T_WELCOME)[-1].ack == 2


def test_positions_of_two_journals_are_merged_by_count_not_by_wrapping_seq():
    uid, boot = b"12345678", 9
    from firmware_bridge.sequence import Position

    s = Sequencer([Position(uid, boot, 255, 255), Position(uid, boot, 2, 257),
                   Position(uid, boot, 200, 200)])
    s.hello(uid, boot, first_seq=3)
    assert s.ack == 2
    assert s.offer(3)[0] == "deliver" and s.offer(255)[0] == "duplicate"


def test_a_lost_first_event_of_a_new_boot_is_not_skipped():
    s = Sequencer()
    s.hello(b"id", 7, first_seq=1)
    assert s.offer(2)[0] == "gap"  # seq 1 was damaged on the line: wait for its resend
    assert s.offer(1)[0] == "deliver" and s.offer(2)[0] == "deliver"


# ---- timing: resends, damage, liveness


def test_a_damaged_event_that_passes_the_crc_is_not_taken_for_the_real_one():
    """A flipped trailing delimiter (0x00 -> 0x01) yields the frame with one byte more, and the
    CRC accepts it (docs/protocol.md). Taken as the event of its seq, it was acknowledged and the
    real event of that seq, sent next, was dropped as a duplicate: a lost press."""
    wire = Wire([4])
    online(wire)
    damaged = []

    def flip_first_event(data: bytes) -> bytes:
        if not damaged and [f for f in p.Decoder().feed(data) if f.type == p.T_EVENT]:
            damaged.append(data)
            return data[:-1] + b"\x01"  # the next frame's leading 0x00 ends it
        return data

    wire.to_host = flip_first_event
    wire.press(4)
    wire.run(RESEND_MS * 2)
    assert wire.host.health.counts["bad_event"] == 1
    assert [d.input.pressed for d in wire.inputs] == [True, False]
    assert "duplicates" not in wire.host.health.counts


def test_an_offline_console_s_presses_are_taken_at_once():
    wire = Wire([4])
    online(wire)
    wire.plugged = False  # the line stalls (the port stays open)
    wire.until(lambda: wire.host.state == "welcomed", within_ms=(MISSED_PONGS + 2) * SECOND_MS)
    assert not wire.host.health.online
    wire.plugged = True
    wire.pins.buttons[4] = True
    waited = wire.until(lambda: wire.inputs)
    assert waited <= 15  # the debounce (10 ms) and a poll: no re-handshake first
    assert wire.host.health.online


def test_a_press_is_timed_by_the_console_clock_within_the_round_trip():
    wire = Wire([4])
    online(wire)
    for _ in range(5):
        at = wire.press(4)
        assert abs(wire.pressed()[-2][2] - at) <= 0.002  # the memory wire's round trip: 1 ms


def test_keys_are_key_inputs_and_foreign_seats_are_counted():
    wire = Wire([4, 6], host_seats={4})
    online(wire)
    wire.press(6)
    wire.pins.keys[4] = b"9"
    wire.run(30)
    wire.pins.keys[4] = b""
    wire.run(RESEND_MS * 2)
    assert [(d.input.seat, d.input.key) for d in wire.inputs] == [(4, "9")]
    assert isinstance(wire.inputs[0].input, KeyPressed)
    assert wire.host.health.counts["foreign_seat"] == 2
    assert not wire.console.pending  # foreign events are acknowledged all the same


# ---- lights and indicators: kept, pushed again after every WELCOME


def test_lights_and_indicators_are_pushed_again_after_a_reboot():
    wire = Wire([4, 5])
    online(wire)
    wire.host.show(4, Light(LightMode.BLINK, "#ff8000"))
    wire.host.indicate(5, 3)
    wire.run(5)
    assert wire.pins.lights == {4: (3, (255, 128, 0))} and wire.pins.indicators == {4: 0, 5: 3}
    wire.console = type(wire.console)(wire.pins, b"\x01" * 8, 0xBEEF, [4, 5])  # a reset
    wire.pins.lights.clear()
    wire.pins.indicators.clear()
    wire.host.close()
    wire.host.open(wire.now)
    online(wire)
    assert wire.pins.lights == {4: (3, (255, 128, 0))} and wire.pins.indicators == {4: 0, 5: 3}
    wire.host.indicate(5, 0)  # the core turns it off (at day): off on the console too
    wire.run(2)
    assert wire.pins.indicators[5] == 0


def test_a_1_0_console_gets_blink_for_fast_blink():
    wire = Wire([4])
    wire.console.protocol = (1, 0)
    online(wire)
    wire.host.show(4, Light(LightMode.FAST_BLINK))
    wire.run(2)
    assert wire.pins.lights[4][0] == 3
    wire.console.protocol = (1, 1)
    wire.console._hello(wire.console.hw.ticks_ms())
    wire.run(5)
    assert wire.pins.lights[4][0] == 4


def test_a_better_clock_sample_never_times_a_later_event_before_an_earlier_one():
    """The loop applies a batch in time order and journals each input's position as it goes:
    were the later event timed earlier, its position (a cumulative ack) would be journaled and
    acknowledged before the earlier event was on disk."""
    host = HostSession("memory", frozenset({4}), keys_only=False)
    host.open(0.0)
    uid, boot = b"\x01" * 8, 0xB007

    def say(type: int, payload: bytes, now: float, seq: int = 0) -> list:
        return host.receive_data(p.encode_frame(type, seq, 0, payload), now)

    def pinged() -> int:
        [ping] = [f for f in p.Decoder().feed(host.data_to_send()) if f.type == p.T_PING]
        return p.unpack_ping(ping.payload)

    say(p.T_HELLO, p.pack_hello((1, 2, 0), 0x0F, uid, boot, [4]), 10.0)
    say(p.T_PONG, p.pack_pong(pinged(), 5000), 10.2)  # a slow round trip: offset 5.1 s
    [first] = say(p.T_EVENT, p.pack_event(4, p.EV_KEY, ord("7"), 5300), 10.3, seq=1)
    host.timer(11.0)
    say(p.T_PONG, p.pack_pong(pinged(), 5995), 11.01)  # a fast one: offset 5.01 s
    [second] = say(p.T_EVENT, p.pack_event(4, p.EV_KEY, ord("#"), 5301), 11.02, seq=2)
    assert first.input.t == pytest.approx(10.4)
    assert second.input.t >= first.input.t
    assert [first.position.count, second.position.count] == [1, 2]


def test_an_event_for_no_one_is_not_acknowledged_before_the_events_ahead_of_it_are_journaled():
    """The ack is cumulative: acknowledging a foreign seat's event at once also acknowledged
    the press before it, still on its way to the journal (lost if the controller died then)."""
    wire = Wire([4, 6], host_seats={4})
    online(wire)
    wire.journal = False
    wire.pins.buttons[4] = True
    wire.until(lambda: wire.unjournaled)
    wire.pins.buttons[6] = True  # a seat this port does not serve: nothing to journal
    wire.until(lambda: wire.host.health.counts.get("foreign_seat"))
    wire.run(RESEND_MS * 2)
    assert [seq for seq, _ in wire.console.pending][:1] == [1]  # the press is not acked
    wire.journal_all()
    wire.until(lambda: not wire.console.pending)  # now both are


def test_a_restart_after_events_for_no_one_does_not_wedge_the_console():
    """Events acknowledged without a journaled position (a foreign seat's) are forgotten by
    the console; the next controller learns from HELLO's ``first_seq`` that they are gone,
    instead of dropping every later event as out of order."""
    wire = Wire([4, 6], host_seats={4})
    online(wire)
    wire.press(4)
    wire.press(6)
    wire.until(lambda: not wire.console.pending)
    wire.new_host({4})  # restarted from the journal, which has the seat-4 press only
    online(wire)
    wire.press(4)
    wire.until(lambda: len(wire.inputs) == 4)
    assert "out_of_order" not in wire.host.health.counts
    assert [d.input.pressed for d in wire.inputs] == [True, False, True, False]
