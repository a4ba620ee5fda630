"""Seat consoles: the real firmware logic, emulated, over real ptys to the host link."""

from __future__ import annotations

import json
import queue
import time
from datetime import datetime

import pytest

from contract.inputs import ButtonEdge, KeyPressed
from contract.lights import Light, LightMode
from controller import config as config_module
from firmware_bridge.emulator import MAX_TYPING, EmulatedConsole
from firmware_bridge.link import ConsoleLink
from tests.support.mqtt import with_json
from tests.support.running import Running, online
from tests.support.table_configs import CONSOLES, SMALL_TABLE, write_config
from tests.support.waiting import until


def epoch(ts: str) -> float:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


@pytest.fixture
def table(tmp_path, broker, subscriber):
    cfg = config_module.load(write_config(tmp_path, SMALL_TABLE.format(port=broker.port)
                                          + CONSOLES))
    run = Running(cfg)
    online(subscriber)
    until(lambda: all(link.health.online for link in run.service.consoles), what="consoles")
    yield run
    run.close()


def test_a_console_press_is_an_event_timed_by_the_console_clock(table, subscriber):
    """Held in the console while unplugged, the press arrives late but keeps the time the
    hand moved (the console's clock, mapped): not the time it arrived."""
    console = table.service.emulators[4]
    link = next(link for link in table.service.consoles if 4 in link.seats)
    console.unplug()
    until(lambda: not link.health.online, what="offline")
    before = time.time()
    console.press(4)
    until(lambda: console.console.pending, what="the console noticed the press")
    noticed = time.time()
    time.sleep(0.5)  # the delay the event must not be stamped with
    console.replug()
    [event] = subscriber.wait_for(with_json("mafia/t1/event/seat/press", seat=4))
    arrived = time.time()
    assert event.json()["source"] == "console"
    # the host's wall clock is its monotonic one plus an offset read under load: allow 20 ms,
    # far below the 500 ms the press was held back
    slack = 0.02
    assert before - slack <= epoch(event.json()["ts"]) <= noticed + slack
    assert arrived - noticed >= 0.5


def test_keys_become_key_events_and_a_confirmed_entry(table, subscriber):
    subscriber.publish("mafia/t1/sim/key", json.dumps({"seat": 2, "keys": "17#"}))
    [entry] = subscriber.wait_for(lambda m: m.topic == "mafia/t1/event/seat/entry")
    assert entry.json()["seat"] == 2 and entry.json()["value"] == 17
    keys = [m.json()["key"] for m in subscriber.matching(
        lambda m: m.topic == "mafia/t1/event/seat/key")]
    assert keys == ["1", "7", "#"]
    subscriber.publish("mafia/t1/sim/key", json.dumps({"seat": 6, "keys": "1"}))
    subscriber.wait_for(with_json("mafia/t1/reply/sim/key", ok=False,
                                  error="seat 6 has no console keypad on this table"))


def test_lights_follow_the_controller_on_the_console(table, subscriber):
    subscriber.publish("mafia/t1/cmd/light", json.dumps(
        {"id": "c", "lights": [{"seat": 5, "mode": "blink", "color": "#ff8000"}]}))
    console = table.service.emulators[5]
    until(lambda: console.pins.lights.get(5) == (3, (255, 128, 0)), what="the light")


def test_health_shows_the_consoles(table, subscriber):
    table.service.loop.call_soon(table.service._publish_health)
    health = subscriber.wait_for(lambda m: m.topic == "mafia/t1/health"
                                 and all(c["online"] for c in m.json()["consoles"])
                                 and m.json()["consoles"])[-1]
    consoles = health.json()["consoles"]
    assert [c["seats"] for c in consoles] == [[1, 2, 3], [4, 5]]
    assert consoles[1]["firmware"] == "1.3.0" and consoles[1]["rtt_ms"] > 0  # its speed: bench/


def test_keys_typed_faster_than_fingers_wait_only_so_far(tmp_path, caplog):
    """A ``sim/key`` flood must not grow the emulated console's queue of keys for ever."""
    console = EmulatedConsole(tmp_path / "console", [4])
    try:
        console.type(4, "7" * (MAX_TYPING + 10))
        assert len(console._typing) <= MAX_TYPING
        assert "keys wait to be typed" in caplog.text
    finally:
        console.close()


# ---- the link alone, against an emulated console on a real pty


@pytest.fixture
def rig(tmp_path):
    """An emulated console claiming seats 4 and 6, and a host link that owns only seat 4."""
    console = EmulatedConsole(tmp_path / "by-id-console", [4, 6])
    inputs: queue.SimpleQueue = queue.SimpleQueue()
    link = journaling_link(str(console.path), frozenset({4}), inputs)
    console.start()
    link.start()
    until(lambda: link.health.online, what="online")
    yield console, link, inputs
    link.stop()
    console.close()


def journaling_link(port: str, seats: frozenset[int], inputs: queue.SimpleQueue) -> ConsoleLink:
    """A host link whose inputs go to ``inputs`` and count as journaled at once."""
    def submit(inp, position) -> None:
        inputs.put(inp)
        link.journaled(position)

    link = ConsoleLink(port, seats, keys_only=False, now=time.monotonic, submit=submit,
                       on_health=lambda: None)
    return link


def presses(inputs: queue.SimpleQueue, n: int) -> list:
    # generous: under noise a lost frame waits for the console's resend (and a loaded CI
    # machine can be slow); a lost press would never come at all
    return [inputs.get(timeout=15) for _ in range(n)]


def nothing_before_a_marker(console: EmulatedConsole, inputs: queue.SimpleQueue) -> None:
    """The next input is a marker key typed now: the console sends in order, so anything
    delivered twice would have come before it (an event to wait for, not a sleep)."""
    console.type(4, "#")
    marker = inputs.get(timeout=15)
    assert isinstance(marker, KeyPressed) and marker.key == "#", marker


def tap(console: EmulatedConsole, seat: int, times: int) -> None:
    """Press and release, each held until the console's debounce took it (a busy machine may
    not run the console's loop for a while: a press shorter than that would never be seen)."""
    for _ in range(times):
        for down in (True, False):
            (console.press if down else console.release)(seat)
            until(lambda down=down: console.console.buttons[seat].stable == down,
                  what="the console to take the edge")


def test_unplugged_mid_stream_every_press_arrives_once_in_order(rig):
    console, link, inputs = rig
    tap(console, 4, 2)
    console.unplug()
    until(lambda: not link.health.online, what="offline")
    tap(console, 4, 3)  # pressed while unplugged: kept in the console's ring buffer
    console.replug()
    tap(console, 4, 1)
    got = presses(inputs, 12)
    assert [e.pressed for e in got] == [True, False] * 6
    assert [e.t for e in got] == sorted(e.t for e in got)
    assert all(isinstance(e, ButtonEdge) and e.button.seat == 4 for e in got)
    nothing_before_a_marker(console, inputs)  # anything more would be a duplicate


def test_a_rebooted_console_is_not_taken_for_duplicates(rig):
    console, link, inputs = rig
    tap(console, 4, 1)
    assert len(presses(inputs, 2)) == 2
    console.reboot()  # new boot id: its seq starts at 1 again
    console.unplug()
    console.replug()
    until(lambda: link.health.online, what="back online")
    tap(console, 4, 2)
    # the new boot numbers from 1 again: none of it is mistaken for the old boot's events
    assert [e.pressed for e in presses(inputs, 4)] == [True, False, True, False]
    nothing_before_a_marker(console, inputs)  # nothing is delivered twice


def test_lights_are_pushed_again_after_a_replug(rig):
    console, link, _inputs = rig
    link.show(4, Light(LightMode.ON, "#00ff00"))
    until(lambda: console.pins.lights.get(4) == (1, (0, 255, 0)), what="light")
    console.reboot()
    console.pins.lights.clear()
    console.unplug()
    console.replug()
    until(lambda: console.pins.lights.get(4) == (1, (0, 255, 0)), what="light again")


def test_standings_show_on_gpio_pwm_and_rgb_lights_and_on_consoles(table, subscriber):
    subscriber.publish("mafia/t1/cmd/seats", json.dumps({"id": "s", "seats": [
        {"seat": 1, "in_game": False}, {"seat": 2, "fouls": 1}, {"seat": 4, "silenced": True},
        {"seat": 5, "fouls": 4}]}))
    subscriber.wait_for(with_json("mafia/t1/reply/seats", id="s", ok=True))
    pin = table.pin
    until(lambda: pin(18).state == 0, what="seat 1 dark (out)")
    dim = 0.15
    until(lambda: [round(pin(n).state, 3) for n in (22, 23, 24)]
          == [round(dim, 3), round(dim * 0xC0 / 255, 3), 0.0], what="seat 2 amber, one foul")
    assert round(pin(25).state, 3) == round(dim, 3)  # seat 3: in game, dim
    until(lambda: table.service.emulators[4].pins.lights.get(4) == (1, (0x20, 0x40, 0xFF)),
          what="seat 4 blue on its console (silenced)")
    until(lambda: table.service.emulators[5].pins.lights.get(5) == (0, (255, 255, 255)),
          what="seat 5 dark: the fourth foul")


def test_the_clock_map_holds_across_the_console_clock_wrap():
    from firmware_bridge.clockmap import ClockMap

    clock = ClockMap()
    wrap = 1 << 32
    clock.add(100.000, 100.002, wrap - 1000)  # console at 2**32 - 1 s
    clock.add(102.000, 102.002, 1000)  # 2 s later it has wrapped to 1 s
    assert abs(clock.to_host(wrap - 500) - 100.501) < 0.002
    assert abs(clock.to_host(1500) - 102.501) < 0.002


# ---- exactly once across a real controller restart


def test_a_press_journaled_but_not_yet_acknowledged_is_published_once_across_a_kill(
        tmp_path, broker, subscriber):
    """The controller journals and publishes a press, then is killed (SIGKILL) before the
    console hears the acknowledgement; the console still holds the press and sends it to the
    next controller, which knows it from the journal: one event, one id, one time."""
    from tests.support.process import finish, kill_if_running, start_service

    console = EmulatedConsole(tmp_path / "seat-4", [4])
    config = write_config(tmp_path, SMALL_TABLE.format(port=broker.port).replace(
        'consoles = "emulated"', 'consoles = "serial"') + f"""
    [[console]]
    port = "{console.path}"
    seats = [4]
    """)
    console.start()
    hearing = console.console.receive
    first = start_service("--config", str(config))
    try:
        subscriber.wait_for(lambda m: m.topic == "mafia/t1/health"
                            and [c["online"] for c in m.json()["consoles"]] == [True],
                            timeout=20)
        console.console.receive = lambda data: None  # deaf: no acknowledgement arrives
        console.press(4)
        until(lambda: console.console.pending, what="the press noticed")
        console.release(4)
        subscriber.wait_for(lambda m: m.topic == "mafia/t1/event/seat/release", timeout=20)
        assert [seq for seq, _ in console.console.pending] == [1, 2]  # the console holds both
        first.kill()
        finish(first)
        console.console.receive = hearing
        second = start_service("--config", str(config))
        try:
            until(lambda: not console.console.pending, timeout=20, what="the new controller's ack")
            subscriber.wait_for(lambda m: m.topic == "mafia/t1/status"
                                and m.json()["state"] == "online", count=2, timeout=20)
            # a marker key: the console sends in order and the controller publishes in
            # journal order, so anything published twice comes before the marker
            console.type(4, "7")
            subscriber.wait_for(with_json("mafia/t1/event/seat/key", key="7"), timeout=20)
        finally:
            kill_if_running(second)
    finally:
        kill_if_running(first)
        console.close()
    events = subscriber.matching(lambda m: m.topic.startswith("mafia/t1/event/seat/"))
    by_id = {}
    for message in events:  # QoS 1 may deliver one message twice: with the same id
        by_id.setdefault(message.json()["id"], set()).add(message.payload)
    assert [m.json()["seat"] for m in events] and len(by_id) == 3  # press, release, marker
    assert all(len(payloads) == 1 for payloads in by_id.values())


def test_the_journal_keeps_each_console_s_latest_position_across_a_reopen(tmp_path):
    from controller.journal import Journal

    uid = b"\x01" * 8
    store = Journal(tmp_path / "t.db", keep=100)
    [event] = store.append_console_input([("event/seat/press", lambda seq: b"{}")],
                                         (uid, 7, 1, 1))
    store.append_console_input([], (uid, 7, 2, 2))  # an input that caused no event
    assert store.console_positions() == [(uid, 7, 2, 2)]
    store.append_console_input([("event/seat/press", lambda seq: b"{}")], (uid, 9, 1, 1))
    store.close()
    reopened = Journal(tmp_path / "t.db", keep=100)
    try:
        assert reopened.console_positions() == [(uid, 9, 1, 1)]  # the earlier boot is gone
        assert [e.seq for e in reopened.unacked_after(0, 10)] == [event.seq, event.seq + 1]
    finally:
        reopened.close()
