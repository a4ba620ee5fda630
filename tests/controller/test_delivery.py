"""Nothing lost: broker outages and a killed controller, against real mosquitto brokers."""

from __future__ import annotations

import json
import threading
import time

import pytest

from controller.journal import Journal
from kit.local_broker import LocalBroker
from tests.support.mqtt import Consumer, Subscriber, with_json
from tests.support.process import finish, kill_if_running, start_service, stop_cleanly
from tests.support.running import Running, online
from tests.support.table_configs import SMALL_TABLE, make_table_config, write_config

SEAT_PINS = (4, 17, 27)
TOGGLE_EVERY = 0.04  # longer than the 20 ms debounce: every edge is a separate event


class PressStream(threading.Thread):
    """Seat buttons pressed and released in turn, one edge every 40 ms, until ``stop``;
    ``made`` waits until it has made so many (a busy machine makes fewer a second)."""

    def __init__(self, toggle):
        super().__init__(daemon=True)
        self.toggle = toggle
        self.edges = 0
        self._halt = threading.Event()
        self._counted = threading.Condition()

    def run(self) -> None:
        while not self._halt.wait(TOGGLE_EVERY):
            self.toggle(self.edges)
            with self._counted:
                self.edges += 1
                self._counted.notify_all()

    def made(self, edges: int, timeout: float = 60.0) -> None:
        with self._counted:
            if not self._counted.wait_for(lambda: self.edges >= edges, timeout):
                raise TimeoutError(f"the stream made {self.edges} edges of {edges}")

    def stop(self) -> None:
        self._halt.set()
        self.join(5)


@pytest.mark.parametrize("persistence", [False, True], ids=["plain-broker", "persistent-broker"])
def test_a_10_s_broker_outage_in_a_stream_of_presses_loses_no_event(tmp_path, persistence):
    with LocalBroker(persistence=persistence, workdir=tmp_path / "broker") as broker:
        consumer = Consumer(broker.port, "t1", client_id="rules-core", persistent=persistence)
        run = Running(make_table_config(tmp_path, broker.port))
        pins = [run.pin(n) for n in SEAT_PINS]

        def toggle(i: int) -> None:
            pin = pins[(i // 2) % len(pins)]
            pin.drive_low() if i % 2 == 0 else pin.drive_high()

        stream = PressStream(toggle)
        try:
            online(consumer)
            stream.start()
            stream.made(40)  # presses flow through a live broker...
            broker.stop()
            away = stream.edges
            time.sleep(10)  # ...then ten seconds with no broker at all...
            stream.made(away + 200)  # ...and 200 presses at least in them...
            broker.start()
            stream.made(stream.edges + 40)  # ...and presses on through the reconnect
            stream.stop()
            consumer.wait_for_seq(stream.edges)
        finally:
            stream.stop()
            run.close()
            consumer.close()
    assert sorted(consumer.events) == list(range(1, stream.edges + 1))
    for seq, copies in consumer.events.items():  # duplicates are exact copies, same id
        assert len({c.payload for c in copies}) == 1, seq
        assert copies[0].json()["id"].endswith(f"-{seq}")


def test_a_sigkilled_controller_comes_back_with_its_state_and_every_event(tmp_path, broker):
    config_file = write_config(tmp_path, SMALL_TABLE.format(port=broker.port))
    consumer = Consumer(broker.port, "t1")
    watcher = Subscriber(broker.port, ["mafia/t1/state", "mafia/t1/status"])
    sent = 0

    def press(i: int) -> None:
        verb = "press" if i % 2 == 0 else "release"
        consumer.client.publish(f"mafia/t1/sim/{verb}", json.dumps({"seat": 1 + (i // 2) % 3}))

    process = start_service("--config", str(config_file))
    try:
        online(consumer)
        consumer.publish("mafia/t1/cmd/light",
                         '{"id": "l", "lights": [{"seat": 3, "mode": "dim"}]}')
        stream = PressStream(press)
        stream.start()
        stream.made(25)
        process.kill()  # SIGKILL in the middle of the stream
        finish(process)
        stream.stop()
        sent = stream.edges
        watcher.wait_for(with_json("mafia/t1/status", state="offline"))

        process = start_service("--config", str(config_file))
        watcher.wait_for(with_json("mafia/t1/status", state="online"), count=2)
        restored = watcher.wait_for(lambda m: m.topic == "mafia/t1/state", count=3)[-1].json()
        assert restored["seats"][2]["light"] == {"mode": "dim", "color": None}
        consumer.publish("mafia/t1/sim/press", '{"seat": 2}')  # the new boot goes on counting
        consumer.wait_for(lambda m: m.topic == "mafia/t1/event/seat/press"
                          and m.json()["seat"] == 2 and m.json()["seq"] > 1, count=1)
        stop_cleanly(process)
    finally:
        kill_if_running(process)
        watcher.close()
    store = Journal(tmp_path / "t1.db", keep=100)
    try:
        last, depth = store.last_seq, store.depth
    finally:
        store.close()
    consumer.wait_for_seq(last)
    consumer.close()
    assert depth == 0  # everything the broker got was acknowledged and marked so
    assert sorted(consumer.events) == list(range(1, last + 1))
    assert sent >= 25  # the kill came in the middle of a real stream


def test_seq_goes_on_after_a_reopen_even_when_pruning_left_no_event(tmp_path):
    payload = b"{}"
    store = Journal(tmp_path / "j.db", keep=0)  # keep nothing once acknowledged
    for _ in range(3):
        store.append("event/seat/press", lambda seq: payload)
    for seq in (1, 2, 3):
        store.acked(seq)
    assert store.since(0, 10) == []
    store.close()
    store = Journal(tmp_path / "j.db", keep=100)
    try:
        assert store.last_seq == 3
        assert store.append("event/seat/press", lambda seq: payload).seq == 4
    finally:
        store.close()
    store = Journal(tmp_path / "j.db", keep=100)  # not acknowledged, not pruned: the row says it
    try:
        assert (store.last_seq, store.depth) == (4, 1)
    finally:
        store.close()
