"""The hall broker restarted under five bridged tables (SIGTERM, or SIGKILL after or before its
autosave): each documented hall consumer, following docs/mqtt-api.md "Losing nothing", ends
with every event of every table (issue 26). On the shipped configs (hall.sim)."""

from __future__ import annotations

import paho.mqtt.client as mqtt
import pytest

from hall.sim import SimulatedHall, password
from tests.support.mqtt import Consumer, Received, Subscriber, with_json
from tests.support.waiting import until

TABLES = 5
#: the accounts docs/hall.md and config/mosquitto/README.md give a hall consumer (in the order
#: they come back after an outage: the rules core, which could always replay, last)
CONSUMERS = ("observer", "hall-board", "rules-core")
SHIPPED_AUTOSAVE = "autosave_interval 10"
NOT_AUTHORIZED = 135  # MQTT 5 reason code


class TablePlay:
    """A client on each table's own broker: presses its seats (``sim/press``) and records the
    events the table publishes there, what the table made whatever the hall does."""

    def __init__(self, hall: SimulatedHall):
        self.local = {name: Subscriber(t.broker.port, [f"mafia/{name}/event/#",
                                                       f"mafia/{name}/status"])
                      for name, t in hall.tables.items()}
        self.pressed = 0
        for name, client in self.local.items():  # its controller has started
            client.wait_for(with_json(f"mafia/{name}/status", state="online"), timeout=60)

    def play(self, seats: int = 3) -> None:
        """``seats`` more seats pressed and released at every table; back once each table's
        own broker has them."""
        for seat in range(self.pressed + 1, self.pressed + seats + 1):
            for name, client in self.local.items():
                for verb in ("press", "release"):
                    client.publish(f"mafia/{name}/sim/{verb}", f'{{"seat": {seat % 10 + 1}}}')
        self.pressed += seats
        for name, client in self.local.items():
            client.wait_until(lambda messages: len(seqs(messages)) >= 2 * self.pressed,
                              timeout=30, what=f"{2 * self.pressed} events at {name}")

    def last(self, name: str) -> int:
        return max(seqs(self.local[name].messages))

    def close(self) -> None:
        for client in self.local.values():
            client.close()


def seqs(messages: list[Received]) -> set[int]:
    return {m.json()["seq"] for m in messages if "/event/" in m.topic}


@pytest.fixture
def hall_for(tmp_path):
    """A fresh hall (five tables with their controllers) on the shipped configs, the hall
    broker's ``autosave_interval`` replaced for the test; closed after it."""
    halls: list[SimulatedHall] = []

    def start(autosave: str) -> SimulatedHall:
        hall = SimulatedHall(tmp_path / "hall", TABLES)
        assert SHIPPED_AUTOSAVE in hall.hall.config
        hall.hall.config = hall.hall.config.replace(SHIPPED_AUTOSAVE, autosave)
        halls.append(hall)
        hall.start()
        return hall

    yield start
    for hall in halls:
        hall.close()


def test_every_hall_consumer_may_ask_a_table_to_replay(tmp_path):
    """Each account that reads events may send ``cmd/replay`` and read its reply: after a
    broker killed before its autosave, nothing else brings their events back."""
    hall = SimulatedHall(tmp_path / "hall", 1, spare_tables=1)
    hall.start(controllers=False)
    try:
        for account in CONSUMERS:
            client = Subscriber(hall.port, [], auth=(account, password(account)))
            try:
                outcome = client.publish_outcome("mafia/table-1/cmd/replay",
                                                 '{"id": "r", "after_seq": 0}')
                assert not outcome.is_failure, account
                light = client.publish_outcome("mafia/table-1/cmd/light", "{}")  # no more
                assert (light == NOT_AUTHORIZED) is (account != "rules-core"), account
            finally:
                client.close()
    finally:
        hall.close()


def test_only_a_session_begun_without_clean_start_outlives_a_broker_restart(tmp_path):
    """Why "Losing nothing" says never a clean start, not even the first time: mosquitto writes
    a session to its database only if its connection began without clean start, so paho's
    ``MQTT_CLEAN_START_FIRST_ONLY`` (what the docs once said) loses it at a restart, SIGTERM
    included, with what was queued in it."""
    hall = SimulatedHall(tmp_path / "hall", 1, spare_tables=1)
    hall.start(controllers=False)
    sessions = {clean: Subscriber(hall.port, ["mafia/+/event/#"], client_id=account,
                                  persistent=True, clean_start=clean,
                                  auth=(account, password(account)))
                for clean, account in ((False, "observer"),
                                       (mqtt.MQTT_CLEAN_START_FIRST_ONLY, "hall-board"))}
    # afresh on purpose: one connect with clean start, then never again
    fresh = Subscriber(hall.port, ["mafia/+/event/#"], client_id="technician", persistent=True,
                       clean_start=True, auth=("technician", password("technician")))
    away(fresh)
    bounced = Subscriber(hall.port, [], client_id="technician", persistent=True,
                         auth=("technician", password("technician")))
    table = Subscriber(hall.port, [], auth=("table-2", password("table-2")))
    try:
        for consumer in (*sessions.values(), bounced):
            away(consumer)
        table.publish("mafia/table-2/event/seat/press", '{"seq": 1}')  # queued for all three
        hall.hall.stop()
        hall.hall.start()
        for consumer in (*sessions.values(), bounced):
            back(consumer)
        for kept in (sessions[False], bounced):
            kept.wait_for(lambda m: m.topic == "mafia/table-2/event/seat/press")
        lost = sessions[mqtt.MQTT_CLEAN_START_FIRST_ONLY]
        lost.wait_until(lambda _: len(lost.sessions) == 2, what="the reconnect")
        assert (sessions[False].sessions, lost.sessions) == ([False, True], [False, False])
        assert bounced.sessions == [True, True] and lost.messages == []
    finally:
        for client in (*sessions.values(), fresh, bounced, table):
            client.close()
        hall.close()


def away(consumer: Subscriber) -> None:
    """The consumer goes away (its session stays at the broker, if the broker keeps it)."""
    consumer.client.disconnect()
    consumer.client.loop_stop()


def back(consumer: Subscriber) -> None:
    consumer.client.reconnect()
    consumer.client.loop_start()


@pytest.mark.parametrize("stop", ["sigterm", "sigkill-after-a-save", "sigkill-before-any-save"])
def test_a_hall_broker_restart_loses_no_event_for_any_documented_consumer(hall_for, stop):
    """The worst order for a consumer: the bridges are back, and have handed the hall what
    their tables made meanwhile, before the consumer is (in a hall, a display's Wi-Fi comes
    back last). Its session kept that for it, or, lost, its replay brings it back."""
    autosave = {"sigkill-after-a-save": "autosave_interval 1",
                "sigkill-before-any-save": "autosave_interval 3600"}.get(stop, SHIPPED_AUTOSAVE)
    hall = hall_for(autosave)
    tables = TablePlay(hall)
    consumers = {account: Consumer(hall.port, "+", client_id=account,
                                   auth=(account, password(account)))
                 for account in CONSUMERS}
    probe = None
    try:
        tables.play()
        for consumer in consumers.values():
            for name in hall.tables:
                consumer.wait_for_seq(tables.last(name), timeout=30, table=name)
        if stop == "sigkill-after-a-save":  # a save holding every consumer's session
            saved = hall.hall.saves()
            until(lambda: hall.hall.saved_since(saved), timeout=10, what="the hall's autosave")

        hall.hall.stop() if stop == "sigterm" else hall.hall.kill()
        try:
            for consumer in consumers.values():
                away(consumer)
            tables.play()  # each table plays on, on its own broker
        finally:
            hall.hall.start()
        probe = Subscriber(hall.port, ["mafia/+/event/#"],
                           auth=("technician", password("technician")))
        tables.play()  # after what each bridge held: once these are at the hall, so is that
        for name in hall.tables:
            probe.wait_until(lambda messages, name=name: tables.last(name) in seqs(
                [m for m in messages if m.topic.startswith(f"mafia/{name}/")]),
                timeout=30, what=f"{name}'s bridge back")
        for account, consumer in consumers.items():  # one by one: the copies of a replay go
            back(consumer)  # to every subscriber, so each must get its own to pass
            for name in hall.tables:
                last = tables.last(name)
                consumer.wait_for_seq(last, timeout=60, table=name)
                assert sorted(consumer.by_table[name]) == list(range(1, last + 1)), \
                    (account, name)
            assert consumer.sessions[-1] is (stop != "sigkill-before-any-save"), account
    finally:
        for client in [*consumers.values(), *([probe] if probe else [])]:
            client.close()
        tables.close()
