"""A tournament hall on the shipped configs: five ``--sim`` tables, each on its own mosquitto
bridged (TLS, a per-table account, QoS 1, persistent sessions) to one hall mosquitto."""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest

from hall.sim import SimulatedHall, password
from tests.mqtt_helpers import Received, Subscriber, on_topic, with_json

TABLES = 5
NOT_AUTHORIZED = 135  # MQTT 5 reason code
OUTAGE_S = 10.0  # the issue's hall outage; the bridges' keepalive (15 s) never notices it first


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    running = SimulatedHall(tmp_path_factory.mktemp("hall"), TABLES)
    try:
        running.start()
        yield running
    finally:
        running.close()


def hall_client(hall: SimulatedHall, account: str, topics: list[str], **kwargs) -> Subscriber:
    return Subscriber(hall.port, topics, auth=(account, password(account)), **kwargs)


def is_event(m: Received) -> bool:
    return "/event/" in m.topic


class Tables:
    """A client on each table's own broker: presses its seats (``sim/press``) and records the
    events the table publishes there (what the table sees, hall or no hall)."""

    def __init__(self, hall: SimulatedHall):
        self.local = {name: Subscriber(t.broker.port, [f"mafia/{name}/event/#"])
                      for name, t in hall.tables.items()}

    def press_and_release(self, times: int) -> None:
        for _ in range(times):
            for name, client in self.local.items():
                client.publish(f"mafia/{name}/sim/press", '{"seat": 1}')
                client.publish(f"mafia/{name}/sim/release", '{"seat": 1}')

    def wait_for_releases(self, total: int) -> None:
        for name, client in self.local.items():
            client.wait_for(on_topic(f"mafia/{name}/event/seat/release"), count=total,
                            timeout=20)

    def ids(self, name: str) -> set[str]:
        return {m.json()["id"] for m in self.local[name].matching(is_event)}

    def close(self) -> None:
        for client in self.local.values():
            client.close()


def test_every_tables_events_reach_the_hall_once_through_a_hall_outage(hall):
    watch = hall_client(hall, "observer", ["mafia/+/status", "mafia/+/event/#"],
                        client_id="hall-watch", persistent=True)
    tables = Tables(hall)
    try:
        for name in hall.tables:  # each controller is online, as the hall sees it
            watch.wait_for(with_json(f"mafia/{name}/status", state="online"), timeout=30)
        tables.press_and_release(3)
        tables.wait_for_releases(3)
        wanted = sum(len(tables.ids(name)) for name in hall.tables)
        watch.wait_for(is_event, count=wanted)

        hall.hall.stop()
        down_at = time.monotonic()
        tables.press_and_release(4)  # each table plays on, on its own broker
        tables.wait_for_releases(7)
        assert time.monotonic() - down_at < OUTAGE_S, "the machine is too slow for this test"
        time.sleep(OUTAGE_S - (time.monotonic() - down_at))  # the deliberate outage
        hall.hall.start()

        tables.press_and_release(2)
        tables.wait_for_releases(9)
        wanted = sum(len(tables.ids(name)) for name in hall.tables)
        watch.wait_for(is_event, count=wanted, timeout=30)
        for name in hall.tables:
            seen = Counter(m.json()["id"] for m in watch.matching(is_event)
                           if m.topic.startswith(f"mafia/{name}/"))
            assert set(seen) == tables.ids(name), name  # nothing lost
            assert set(seen.values()) == {1}, name  # nothing twice
            assert len(seen) >= 18  # 9 presses and 9 releases at least
    finally:
        watch.close()
        tables.close()


def test_commands_reach_a_table_through_the_bridge_and_its_reply_comes_back(hall):
    core = hall_client(hall, "rules-core", ["mafia/+/reply/#"])
    try:
        for name in hall.tables:
            core.publish(f"mafia/{name}/cmd/light",
                         json.dumps({"id": f"l-{name}", "lights": [{"seat": 2, "mode": "on"}]}))
        for name in hall.tables:
            core.wait_for(with_json(f"mafia/{name}/reply/light", id=f"l-{name}", ok=True),
                          timeout=20)
    finally:
        core.close()


def test_a_tables_account_cannot_write_or_read_another_tables_topics_at_the_hall(hall):
    intruder = hall_client(hall, "table-1", ["mafia/table-2/#", "mafia/+/status",
                                             "mafia/table-1/seating"])
    board = hall_client(hall, "hall-board", [])
    try:
        assert intruder.publish_outcome("mafia/table-2/event/seat/press", "{}") == NOT_AUTHORIZED
        assert intruder.publish_outcome("mafia/table-2/cmd/light", "{}") == NOT_AUTHORIZED
        assert intruder.publish_outcome("mafia/table-2/seating", "{}") == NOT_AUTHORIZED
        # the board writes table-2's seating, then table-1's: one publisher, delivered in order
        board.publish("mafia/table-2/seating", '{"round": 1}')
        board.publish("mafia/table-1/seating", '{"round": 1}')
        intruder.wait_for(on_topic("mafia/table-1/seating"))
        assert [m.topic for m in intruder.messages if "table-1/" not in m.topic] == []
    finally:
        intruder.close()
        board.close()
