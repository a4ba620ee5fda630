"""A hostile hall on the link: a command flood, absurd numbers (docs/faults.md).

The loop puts the table's own inputs before commands and bounds the command queue; every command,
whatever it holds, gets exactly one reply, and a number the game cannot mean is refused.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import sys
import threading
import time
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from contract import commands
from contract.buttons import JudgeButton, SeatButton
from contract.inputs import ButtonEdge, CommandReceived
from contract.verbs import COMMANDS
from controller.clock import ClockSync, SystemClock, clock_sync, host_boot_id, iso_ms
from controller.core.effects import Emit, Reply
from controller.core.state import TableSetup, initial_state
from controller.core.table import step
from controller.loop import COMMAND_QUEUE, COMMANDS_PER_BATCH, EventLoop
from tests.support.mqtt import Subscriber, on_topic, with_json
from tests.support.paths import REPO
from tests.support.running import Running, online
from tests.support.waiting import until

SETUP = TableSetup("t", 10, frozenset({SeatButton(1), JudgeButton("confirm")}), debounce=0.02,
                   simulated=True, keypads=frozenset({4}))


def light(n: int, t: float) -> CommandReceived:
    doc = {"id": f"c{n}", "lights": [{"seat": 2, "mode": "on" if n % 2 else "off"}]}
    return CommandReceived("light", json.dumps(doc).encode(), t)


def test_a_press_is_applied_before_the_commands_queued_ahead_of_it():
    seen: list[object] = []
    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=seen.append)
    for n in range(200):
        assert loop.submit(light(n, 1.0 + n / 1000))
    loop.submit(ButtonEdge(SeatButton(1), True, 2.0))  # pressed after all 200 arrived
    loop.stop()
    loop.run()
    order = [e.id if isinstance(e, Reply) else "press" for e in seen
             if isinstance(e, Reply) or (isinstance(e, Emit) and e.kind == "seat/press")]
    assert len(order) == 201
    # one batch of commands, at most, went before it: the other 184 waited for the press
    assert order.index("press") <= COMMANDS_PER_BATCH
    assert order[order.index("press") + 1:] == [f"c{n}" for n in range(order.index("press"),
                                                                        200)]


def test_a_light_set_twice_in_a_batch_is_set_once_to_the_last():
    seen: list[object] = []
    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=seen.append)
    for n in range(4):
        loop.submit(light(n, 1.0 + n))
    loop.stop()
    loop.run()
    shown = [e for e in seen if type(e).__name__ == "SetLight"]
    states = [e for e in seen if type(e).__name__ == "PublishState"]
    assert [(e.seat, e.light.mode.value) for e in shown] == [(2, "on")]  # c3: on
    assert len(states) == 1 and states[0].snapshot["seats"][1]["manual"]["mode"] == "on"
    assert [e.id for e in seen if isinstance(e, Reply)] == ["c0", "c1", "c2", "c3"]


def test_a_full_command_queue_refuses_until_it_has_drained_to_half():
    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=lambda e: None,
                     command_queue=4)
    assert [loop.submit(light(n, n)) for n in range(6)] == [True] * 4 + [False] * 2
    assert loop.submit(ButtonEdge(SeatButton(1), True, 9.0))  # the table's inputs: always
    loop._next_batch(0)  # takes all four
    assert loop.submit(light(7, 7))  # drained: accepted again
    loop.stop()
    assert not loop.submit(light(8, 8))  # stopping: refused


def test_a_stop_is_obeyed_at_once_and_the_commands_it_left_are_handed_back():
    """Commands held back (their replies await the broker) do not delay a stop: the loop
    returns, and the shell answers what is left."""
    seen: list[object] = []
    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=seen.append,
                     take_commands=lambda: False)
    for n in range(3):
        loop.submit(light(n, n))
    loop.submit(ButtonEdge(SeatButton(1), True, 9.0))
    loop.stop()
    loop.run()
    assert [e.kind for e in seen if isinstance(e, Emit)] == ["seat/press"]
    assert [c.payload for c in loop.unrun_commands()] == [light(n, n).payload for n in range(3)]


def test_a_flood_is_answered_busy_at_once_and_every_command_once(table_config, broker):
    """The loop is held up while more commands arrive than the queue holds: each one beyond is
    answered busy at once (from the MQTT thread), each queued one is run when the loop is free,
    and health counts the busy answers. (Busy answers are QoS 0: the requester reads its
    replies on a client of their own, whose queue at the broker the flood does not fill.)"""
    subscriber = Subscriber(broker.port, ["mafia/t1/status", "mafia/t1/reply/#",
                                          "mafia/t1/health"])
    run = Running(table_config)
    hold = threading.Event()
    flood = COMMAND_QUEUE + 44
    sender = Subscriber(broker.port, [])
    try:
        online(subscriber)
        held = threading.Event()
        run.service.loop.call_soon(lambda: (held.set(), hold.wait()))
        assert held.wait(10)  # the loop is held, with no command taken yet
        for n in range(flood):
            sender.client.publish("mafia/t1/cmd/light", json.dumps(
                {"id": f"f{n}", "lights": [{"seat": 1 + n % 6, "mode": "on"}]}), qos=1)
        busy = subscriber.wait_for(with_json("mafia/t1/reply/light", ok=False), count=44)
        assert all(r.json()["error"].startswith("busy:") for r in busy)
        hold.set()
        replies = subscriber.wait_for(on_topic("mafia/t1/reply/light"), count=flood)
        assert sorted(r.json()["id"] for r in replies) == sorted(f"f{n}" for n in range(flood))
        assert sum(r.json()["ok"] for r in replies) == COMMAND_QUEUE
        [health] = subscriber.wait_for(
            lambda m: m.topic == "mafia/t1/health" and m.json()["commands"]["busy"] == 44)
        assert health.json()["commands"]["queue_limit"] == COMMAND_QUEUE
    finally:
        hold.set()
        sender.close()
        run.close()
        subscriber.close()


# ------------------------------------------------------------------ absurd numbers

VERBS = [*COMMANDS, "no/such", "vote/nope"]
FIELDS = ["id", "seat", "seats", "day", "after_seq", "lights", "mode", "nominees", "voters",
          "seconds", "judge", "keys", "step", "actors", "numbers", "pattern", "volume", "say"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=False) | st.text(max_size=8) | st.sampled_from(["on", "#ff0000"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(FIELDS), inner, max_size=3),
    max_leaves=12)
json_objects = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=4), json_values,
                               max_size=6)


@given(verb=st.sampled_from(VERBS), doc=json_objects)
def test_any_json_object_on_any_command_topic_gets_exactly_one_reply(verb, doc):
    payload = json.dumps(doc).encode()
    if verb == "replay":  # the shell's: parsed here, answered by the service
        parsed = commands.parse_replay(payload)
        assert (parsed.value is None) != (parsed.error is None)
        return
    _, effects = step(initial_state(SETUP), CommandReceived(verb, payload, 1.0))
    assert len([e for e in effects if isinstance(e, Reply)]) == 1


def test_a_duplicated_key_is_refused():
    _, [answer] = step(initial_state(SETUP), CommandReceived(
        "day/start", b'{"id": "d", "day": 2, "day": 3}', 1.0))
    assert not answer.ok and answer.error == "day: given twice (each key at most once)"


def test_absurd_numbers_get_an_error_reply_and_later_days_still_start(table_config,
                                                                      subscriber):
    """The two the fault tests found: a replay after 2^63 (an overflow, no reply) and a day
    2^63 - 1 (accepted, and no later day could start)."""
    run = Running(table_config)
    try:
        online(subscriber)
        subscriber.publish("mafia/t1/cmd/replay", json.dumps({"id": "r", "after_seq": 2**63}))
        [replay] = subscriber.wait_for(on_topic("mafia/t1/reply/replay"))
        assert replay.json()["error"] == f"after_seq: expected int <= {commands.MAX_SEQ}"
        subscriber.publish("mafia/t1/cmd/day/start", json.dumps({"id": "d", "day": 2**63 - 1}))
        subscriber.publish("mafia/t1/cmd/day/start", json.dumps({"id": "e", "day": 2}))
        [absurd, day2] = subscriber.wait_for(on_topic("mafia/t1/reply/day/start"), count=2)
        assert absurd.json()["error"] == f"day: expected int <= {commands.MAX_DAY}"
        assert day2.json()["ok"]
    finally:
        run.close()


# ------------------------------------------------------------------ a stolen client id


def test_a_controller_thrown_off_by_its_own_client_id_says_why(table_config, broker, subscriber,
                                                               caplog):
    """On a broker that does not bind client ids to accounts (the shipped one does, see
    test_security), a client using the controller's id throws it off, again and again as each
    reconnects: health and the log say what is most likely going on, and what to do."""
    run = Running(table_config)
    thief = None
    try:
        online(subscriber)
        thief = Subscriber(broker.port, [], client_id="mafia-table-t1")  # reconnects as we do
        [health] = subscriber.wait_for(
            lambda m: m.topic == "mafia/t1/health" and m.json()["broker"]["thrown_off"],
            timeout=60)
        assert health.json()["broker"]["disconnects"] >= 3
        assert "another client is probably connecting with this controller's client id" \
            in caplog.text
        assert "use_username_as_clientid" in caplog.text
    finally:
        if thief is not None:
            thief.close()
        run.close()


# ------------------------------------------------------------------ sessions, stale commands


def test_a_command_sent_while_the_controller_reconnects_is_delivered_when_it_is_back(
        table_config, subscriber):
    """The controller's MQTT 5 session outlives its connection: the broker keeps its
    subscription and queues what is sent meanwhile."""
    run = Running(table_config)
    try:
        online(subscriber)
        link = run.service.mqtt
        link._client.socket().shutdown(socket.SHUT_RDWR)  # the network drops under it
        until(lambda: not link.connected.is_set(), what="the controller to notice")
        subscriber.publish("mafia/t1/cmd/light", '{"id": "meanwhile", "lights": '
                                                 '[{"seat": 1, "mode": "on"}]}')
        [reply] = subscriber.wait_for(on_topic("mafia/t1/reply/light"), timeout=20)
        assert reply.json()["id"] == "meanwhile" and reply.json()["ok"]
        assert run.service.mqtt.drops.disconnects == 1
    finally:
        run.close()


def synchronised() -> ClockSync:
    return ClockSync(True, 1.0, "test")


def test_a_stale_command_is_refused_not_run_late(table_config, subscriber):
    run = Running(table_config, clock_sync=synchronised)
    try:
        online(subscriber)
        for id, age in (("old", 31), ("fresh", 1)):
            sent = datetime.now(UTC) - timedelta(seconds=age)
            subscriber.publish("mafia/t1/cmd/light", json.dumps(
                {"id": id, "ts": sent.isoformat(), "lights": [{"seat": 1, "mode": "on"}]}))
        old, fresh = (subscriber.wait_for(with_json("mafia/t1/reply/light", id=id))[0].json()
                      for id in ("old", "fresh"))
        assert not old["ok"] and old["error"].startswith("ts: stale, sent 3")
        assert fresh["ok"]
        subscriber.wait_for(lambda m: m.topic == "mafia/t1/health"
                            and m.json()["commands"]["stale"] == 1)
    finally:
        run.close()


def test_an_unsynchronised_clock_shows_in_health_and_refuses_nothing_by_age(table_config,
                                                                           subscriber):
    run = Running(table_config, clock_sync=lambda: ClockSync(False, 16000.0, "adjtimex"))
    try:
        online(subscriber)
        health = subscriber.wait_for(on_topic("mafia/t1/health"))[-1]
        assert health.json()["clock"] == {"synchronized": False, "max_error_ms": 16000.0,
                                          "source": "adjtimex"}
        subscriber.publish("mafia/t1/cmd/light", json.dumps(
            {"id": "x", "ts": "2020-01-01T00:00:00Z", "lights": [{"seat": 1, "mode": "on"}]}))
        subscriber.wait_for(with_json("mafia/t1/reply/light", id="x", ok=True))
    finally:
        run.close()


def test_the_kernel_says_whether_the_wall_clock_is_synchronised():
    sync = clock_sync()
    assert sync.source == "adjtimex" and sync.synchronized in (True, False)
    assert sync.max_error_ms is not None and sync.max_error_ms >= 0


# ------------------------------------------------------------------ a wall clock that steps


class SteppingClock(SystemClock):
    """The host's clocks, with the wall clock set back an hour when told (as NTP may step a
    Pi's clock that booted ahead)."""

    def __init__(self) -> None:
        self.step = 0.0

    def utc_iso(self, t: float) -> str:
        return iso_ms(time.time() - self.step - (time.monotonic() - t))


def test_events_carry_the_host_boot_and_monotonic_time_which_order_them_across_a_clock_step(
        table_config, subscriber):
    clock = SteppingClock()
    run = Running(table_config, clock=clock)
    try:
        online(subscriber)
        run.pin(4).drive_low()  # seat 1 pressed
        pressed = time.monotonic()
        subscriber.wait_for(on_topic("mafia/t1/event/seat/press"))
        clock.step = 3600.0
        run.pin(4).drive_high()  # released after the wall clock stepped back an hour
        subscriber.wait_for(on_topic("mafia/t1/event/seat/release"))
        press, release = (subscriber.wait_for(on_topic(f"mafia/t1/event/seat/{kind}"))[0].json()
                          for kind in ("press", "release"))
        assert release["ts"] < press["ts"]  # the wall clock says the release came first
        # the monotonic clock knows better (never backwards; the same ms on a fast machine)
        assert press["mono_ms"] <= release["mono_ms"]
        assert abs(press["mono_ms"] - pressed * 1000) < 1000
        assert press["host_boot"] == release["host_boot"] == host_boot_id()
    finally:
        run.close()


# ------------------------------------------------------------------ a consumer that loses nothing


def example_table_class():
    spec = importlib.util.spec_from_file_location("fiim_game", REPO / "examples" / "fiim_game.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fiim_game", module)  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module.Table


def test_the_example_consumer_replays_what_a_broker_restart_lost(table_config, broker):
    """docs/mqtt-api.md, "Losing nothing": the example rules core is away while the broker
    restarts without persistence (its session and the event queued in it are gone); back, it
    sees the table online and asks for what follows its last seq."""
    run = Running(table_config)
    game = example_table_class()("127.0.0.1", broker.port, "t1")
    try:
        game.wait(lambda m: m.topic == "status" and m.body["state"] == "online")
        run.pin(4).drive_low()  # seq 1
        game.wait(lambda m: m.topic == "event/seat/press")
        game.client.disconnect()  # away (its session stays at the broker)
        game.client.loop_stop()
        run.pin(4).drive_high()  # seq 2: queued in the session...
        until(lambda: run.service.store.depth == 0, what="seq 2 at the broker")
        broker.stop()  # ...which the restart loses
        broker.start()
        until(lambda: run.service.mqtt.connected.is_set(), timeout=20, what="the controller")
        game.client.reconnect()
        game.client.loop_start()
        release = game.wait(lambda m: m.topic == "event/seat/release", timeout=20)
        assert release.body["seq"] == 2 and game.last_seq["event/"] == 2
    finally:
        game.close()
        run.close()
