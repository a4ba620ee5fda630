"""The whole service in-process, against a real mosquitto and gpiozero's mock pins."""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract import light_timing
from contract.inputs import CommandReceived
from contract.lights import Light, LightMode
from controller.core.effects import Reply
from controller.core.state import initial_state
from controller.core.table import step
from tests.support.core_tables import SETUP, payloads
from tests.support.mqtt import Subscriber, on_topic, with_json
from tests.support.running import Running, online


def epoch(ts: str) -> float:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


@pytest.fixture
def running(table_config):
    run = Running(table_config)
    yield run
    run.close()


def test_a_press_is_one_event_stamped_with_the_edge_time_not_the_processing_time(
        table_config, subscriber):
    run = Running(table_config)
    busy = threading.Event()
    try:
        online(subscriber)
        run.service.loop.call_soon(busy.wait)  # the loop is busy until we say
        pressed_at = time.time()
        run.pin(4).drive_low()
        time.sleep(0.3)  # the press waits in the loop's inbox for 300 ms
        busy.set()
        [event] = subscriber.wait_for(on_topic("mafia/t1/event/seat/press"))
        doc = event.json()
        assert doc["seat"] == 1 and doc["v"] == 1 and doc["seq"] == 1
        assert doc["id"] == f"{run.service.store.store_id}-1"
        assert abs(epoch(doc["ts"]) - pressed_at) < 0.005
        assert event.at - pressed_at >= 0.3
        run.pin(4).drive_high()
        subscriber.wait_for(on_topic("mafia/t1/event/seat/release"))
        assert len(subscriber.matching(on_topic("mafia/t1/event/seat/press"))) == 1
    finally:
        busy.set()
        run.close()


def test_status_and_state_are_retained_for_late_subscribers(running, broker, subscriber):
    online(subscriber)
    subscriber.wait_for(on_topic("mafia/t1/state"))  # retained only once it has been published
    late = Subscriber(broker.port, ["mafia/#"])
    try:
        [status] = late.wait_for(with_json("mafia/t1/status", state="online"))
        [state] = late.wait_for(on_topic("mafia/t1/state"))
        assert status.retain and state.retain
        assert status.json()["boot_id"] == "boot1"
        assert [s["seat"] for s in state.json()["seats"]] == [1, 2, 3, 4, 5, 6]
    finally:
        late.close()


def test_cmd_light_drives_the_pins_and_updates_the_retained_state(running, subscriber):
    online(subscriber)
    subscriber.publish("mafia/t1/cmd/light", json.dumps({"id": "L1", "lights": [
        {"seat": 1, "mode": "on"}, {"seat": 2, "mode": "on", "color": "#0000ff"}]}))
    [reply] = subscriber.wait_for(with_json("mafia/t1/reply/light", id="L1"))
    assert reply.json()["ok"] is True and reply.json()["error"] is None
    assert running.pin(18).state == 1
    assert [running.pin(n).state for n in (22, 23, 24)] == [0, 0, 1]
    state = subscriber.wait_for(on_topic("mafia/t1/state"), count=2)[-1].json()
    assert state["seats"][0]["light"] == {"mode": "on", "color": None}
    assert state["seats"][1]["light"] == {"mode": "on", "color": "#0000ff"}


def test_replies_honour_the_mqtt5_response_topic_and_correlation_data(running, subscriber):
    online(subscriber)
    subscriber.publish("mafia/t1/cmd/light", '{"id": "r", "lights": [{"seat": 9, "mode": "on"}]}',
                       response_topic="mafia/t1/reply/core-7", correlation=b"\x00\x07")
    [reply] = subscriber.wait_for(on_topic("mafia/t1/reply/core-7"))
    assert reply.correlation == b"\x00\x07"
    assert reply.json()["ok"] is False and "no seat 9" in reply.json()["error"]


def test_a_response_topic_outside_the_tables_reply_subtree_is_not_used(running, broker):
    sub = Subscriber(broker.port, ["#"])
    try:
        online(sub)
        for topic in ("mafia/t1/status", "elsewhere/replies"):
            sub.publish("mafia/t1/cmd/light", '{"id": "s", "lights": []}', response_topic=topic)
        assert len(sub.wait_for(with_json("mafia/t1/reply/light", id="s"), count=2)) == 2
        assert sub.matching(on_topic("elsewhere/replies")) == []
        assert [m.json()["state"] for m in sub.matching(on_topic("mafia/t1/status"))] == [
            "online"]
    finally:
        sub.close()


def test_a_retained_command_is_never_applied(table_config, broker, subscriber):
    subscriber.client.publish("mafia/t1/cmd/light", '{"id": "stale", "lights": [{"seat": 1, '
                              '"mode": "on"}]}', qos=1, retain=True).wait_for_publish(5)
    run = Running(table_config)
    try:
        online(subscriber)
        subscriber.publish("mafia/t1/cmd/light", '{"id": "live", "lights": [{"seat": 2, '
                                                 '"mode": "on"}]}')
        subscriber.wait_for(with_json("mafia/t1/reply/light", id="live"))
        assert subscriber.matching(with_json("mafia/t1/reply/light", id="stale")) == []
        # the scene, not the stale "on"
        assert run.pin(18).state == pytest.approx(light_timing.DIM)
    finally:
        run.close()


def refused_light(payload: bytes) -> bool:
    """The 6-seat table refuses this cmd/light (its reply is the last effect)."""
    answer = step(initial_state(SETUP), CommandReceived("light", payload, 1.0))[1][-1]
    assert isinstance(answer, Reply)
    return not answer.ok


bad_light_payloads = payloads.filter(refused_light)


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(bad_light_payloads, min_size=100, max_size=100))
def test_a_flood_of_malformed_commands_gets_error_replies_and_changes_nothing(
        running, subscriber, batch):
    """20 batches of 100: 2,000 generated malformed commands against one running service."""
    online(subscriber)
    before = running.service.loop.state.lights
    first = len(subscriber.matching(on_topic("mafia/t1/reply/light")))
    for payload in batch:
        subscriber.client.publish("mafia/t1/cmd/light", payload, qos=1)
    replies = subscriber.wait_for(on_topic("mafia/t1/reply/light"), count=first + len(batch))
    assert [r.json() for r in replies[first:] if r.json()["ok"]] == []
    assert running.service.loop.state.lights == before
    # ...and the service still works
    alive = f"alive-{first}"
    subscriber.publish("mafia/t1/cmd/light", json.dumps(
        {"id": alive, "lights": [{"seat": 3, "mode": "off"}]}))
    subscriber.wait_for(with_json("mafia/t1/reply/light", id=alive, ok=True))


def test_sim_topics_press_through_the_real_pin_path(running, subscriber):
    online(subscriber)
    subscriber.publish("mafia/t1/sim/press", '{"judge": "confirm"}')
    [event] = subscriber.wait_for(on_topic("mafia/t1/event/judge/press"))
    assert event.json()["button"] == "confirm"
    assert running.pin(9).state == 0  # the mock pin itself moved
    subscriber.publish("mafia/t1/sim/press", '{"seat": 5}')
    [reply] = subscriber.wait_for(with_json("mafia/t1/reply/sim/press", ok=False))
    assert reply.json()["error"] == "seat 5 has no button on this table"


def test_a_clean_stop_publishes_offline_and_turns_the_lights_off(table_config, subscriber):
    run = Running(table_config)
    online(subscriber)
    subscriber.publish("mafia/t1/cmd/light", '{"id": "a", "lights": [{"seat": 1, "mode": "on"}]}')
    subscriber.wait_for(with_json("mafia/t1/reply/light", id="a"))
    assert run.pin(18).state == 1
    run.close()
    [offline] = subscriber.wait_for(with_json("mafia/t1/status", state="offline"))
    assert offline.json()["boot_id"] == "boot1"
    assert run.pin(18).state == 0


def test_after_a_broker_restart_status_state_and_commands_come_back(
        table_config, broker, subscriber):
    run = Running(table_config)
    try:
        online(subscriber)
        subscriber.publish("mafia/t1/cmd/light",
                           '{"id": "x", "lights": [{"seat": 2, "mode": "blink"}]}')
        subscriber.wait_for(with_json("mafia/t1/reply/light", id="x"))
        broker.stop()  # no persistence: the broker forgets every retained message
        broker.start()
        fresh = Subscriber(broker.port, ["mafia/#"])
        try:
            fresh.wait_for(with_json("mafia/t1/status", state="online"), timeout=15)
            [state] = fresh.wait_for(on_topic("mafia/t1/state"))
            assert state.json()["seats"][1]["light"] == {"mode": "blink", "color": None}
            # the command subscription came back with the connection
            fresh.publish("mafia/t1/cmd/light",
                          '{"id": "y", "lights": [{"seat": 1, "mode": "on"}]}')
            fresh.wait_for(with_json("mafia/t1/reply/light", id="y", ok=True))
            assert run.pin(18).state == 1
        finally:
            fresh.close()
        assert run.service.loop.state.light(2) == Light(LightMode.BLINK)
    finally:
        run.close()


def test_a_speech_timer_cut_by_a_restart_is_reported_stopped(table_config, subscriber):
    run = Running(table_config)
    online(subscriber)
    subscriber.publish("mafia/t1/cmd/timer/start", '{"id": "sp", "seat": 2, "seconds": 60}')
    subscriber.wait_for(with_json("mafia/t1/event/timer", state="started"))
    run.close()
    run = Running(table_config)  # same journal: the timer's time ran on unseen
    try:
        [stopped] = subscriber.wait_for(with_json("mafia/t1/event/timer", state="stopped"))
        assert (stopped.json()["timer"], stopped.json()["seat"]) == ("sp", 2)
        assert run.service.loop.state.timer is None
    finally:
        run.close()
