"""The shipped broker config and ACL (config/mosquitto/) on a real mosquitto: who may do what."""

from __future__ import annotations

import json
import logging
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller import config as config_module
from tests.support.mqtt import on_topic, with_json
from tests.support.running import Running
from tests.support.waiting import until

NOT_AUTHORIZED = 135  # MQTT 5 reason code


def test_the_controller_runs_under_its_table_account_and_takes_rules_core_commands(hall):
    core = hall.client("rules-core", ["mafia/#"])
    run = Running(hall.table_config())
    try:
        core.wait_for(with_json("mafia/t1/status", state="online"))
        core.publish("mafia/t1/cmd/light", '{"id": "c", "lights": [{"seat": 1, "mode": "on"}]}')
        core.wait_for(with_json("mafia/t1/reply/light", id="c", ok=True))
        assert run.pin(18).state == 1
    finally:
        run.close()
        core.close()


def test_an_observer_reads_public_topics_only_and_cannot_command(hall):
    observer = hall.client("observer", ["mafia/#"])
    core = hall.client("rules-core", ["mafia/#"])
    table = hall.client("t1")
    try:
        assert not table.publish_outcome("mafia/t1/private/night/shot", '{"seat": 4}').is_failure
        assert not table.publish_outcome("mafia/t1/event/seat/press", '{"seat": 4}').is_failure
        core.wait_for(on_topic("mafia/t1/private/night/shot"))
        # one publisher's messages reach a subscriber in order: the event after the private one
        observer.wait_for(on_topic("mafia/t1/event/seat/press"))
        assert observer.matching(on_topic("mafia/t1/private/night/shot")) == []
        outcome = observer.publish_outcome("mafia/t1/cmd/light", '{"id": "x", "lights": []}')
        assert outcome == NOT_AUTHORIZED
    finally:
        for client in (observer, core, table):
            client.close()


def test_a_second_tables_controller_cannot_write_into_the_first_tables_subtree(hall):
    other = hall.client("t2")
    try:
        assert other.publish_outcome("mafia/t1/event/seat/press", "{}") == NOT_AUTHORIZED
        assert other.publish_outcome("mafia/t1/status", "{}") == NOT_AUTHORIZED
        assert not other.publish_outcome("mafia/t2/event/seat/press", "{}").is_failure  # its own
    finally:
        other.close()


def test_no_account_can_steal_the_controllers_client_id(hall):
    """An observer (or any account) connecting with the controller's client id, or with the id
    the broker gives the controller (its account name), gets its own account's id instead: the
    controller stays connected and keeps answering."""
    core = hall.client("rules-core", ["mafia/t1/status", "mafia/t1/reply/#"])
    run = Running(hall.table_config())
    thieves = []
    try:
        core.wait_for(with_json("mafia/t1/status", state="online"))
        for user, stolen in (("observer", "mafia-table-t1"), ("technician", "t1")):
            thieves.append(hall.client(user, client_id=stolen))  # connected (CONNACK) here
        core.publish("mafia/t1/cmd/light", '{"id": "c", "lights": [{"seat": 1, "mode": "on"}]}')
        core.wait_for(with_json("mafia/t1/reply/light", id="c", ok=True))
        assert run.service.mqtt.drops.disconnects == 0 and run.service.mqtt.connected.is_set()
        assert core.matching(with_json("mafia/t1/status", state="offline")) == []
    finally:
        for thief in thieves:
            thief.close()
        run.close()
        core.close()


def test_a_technician_may_command_beside_the_rules_core_and_reads_the_public_topics(hall):
    core = hall.client("rules-core", ["mafia/#"])
    technician = hall.client("technician", ["mafia/t1/reply/#", "mafia/t1/status"])
    run = Running(hall.table_config())
    try:
        technician.wait_for(with_json("mafia/t1/status", state="online"))
        technician.publish("mafia/t1/cmd/light", '{"id": "t", "lights": [{"seat": 1, '
                                                 '"mode": "on"}]}')
        technician.wait_for(with_json("mafia/t1/reply/light", id="t", ok=True))
        core.wait_for(with_json("mafia/t1/reply/light", id="t", ok=True))
        assert technician.publish_outcome("mafia/t1/event/seat/press", "{}") == NOT_AUTHORIZED
        # a simulated table's hands (scripts/check-arm64.sh's press): taken, not refused
        assert not technician.publish_outcome("mafia/t1/sim/key", "{}").is_failure
    finally:
        run.close()
        technician.close()
        core.close()


def test_a_killed_broker_keeps_what_it_had_queued_for_a_client_away(hall):
    """The shipped broker writes its database every 10 s (autosave_interval; mosquitto's
    default is 30 min), so a broker killed outright still has the command queued for a
    controller that was away when it was sent."""
    away = hall.client("t1", ["mafia/t1/cmd/#"], persistent=True)
    away.close()  # its session (subscription, queue) stays at the broker
    core = hall.client("rules-core")
    sent = time.time()
    core.publish("mafia/t1/cmd/light", '{"id": "q", "lights": [{"seat": 1, "mode": "on"}]}')
    core.close()
    saved = hall.root / "broker" / "mosquitto.db"
    until(lambda: saved.exists() and saved.stat().st_mtime >= sent, timeout=30,
          what="the broker's autosave")
    hall.broker.kill()  # SIGKILL: no save on the way out
    hall.broker.start()
    back = hall.client("t1", ["mafia/t1/cmd/#"], persistent=True)
    try:
        back.wait_for(with_json("mafia/t1/cmd/light", id="q"))
    finally:
        back.close()


def test_events_leave_on_a_connection_of_their_own_under_the_tables_events_account(hall):
    """A flood of commands must not stand between a press and the broker: the events have a
    connection of their own, under the account the shipped ACL gives them (the broker names
    a client after its account, so the table's own would throw the first connection off)."""
    core = hall.client("rules-core", ["mafia/t1/#"])
    run = Running(hall.table_config(events=True))
    try:
        core.wait_for(with_json("mafia/t1/status", state="online"))
        assert run.service.event_link is not run.service.mqtt
        run.pin(4).drive_low()
        [press] = core.wait_for(on_topic("mafia/t1/event/seat/press"))
        assert press.json()["seat"] == 1
        until(lambda: run.service.store.depth == 0, what="the broker's acknowledgement")
        events = hall.client("t1-events")  # (not while the controller's is connected: same id)
        assert events.publish_outcome("mafia/t1/cmd/light", "{}") == NOT_AUTHORIZED
        assert events.publish_outcome("mafia/t2/event/seat/press", "{}") == NOT_AUTHORIZED
        events.close()
    finally:
        run.close()
        core.close()


def test_no_password_no_entry(hall):
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    codes = []
    client.on_connect = lambda c, u, f, reason, p: codes.append(reason)
    client.connect("127.0.0.1", hall.port)
    while not codes:
        client.loop(timeout=0.1)
    client.disconnect()
    assert codes[0].is_failure and codes[0].value == NOT_AUTHORIZED


def test_the_controller_connects_over_tls_with_a_client_certificate(hall):
    core = hall.client("rules-core", ["mafia/t1/status"])
    run = Running(hall.table_config(tls=True))
    try:
        core.wait_for(with_json("mafia/t1/status", state="online"))
    finally:
        run.close()
        core.close()


def test_credentials_never_reach_the_logs(hall, caplog):
    caplog.set_level(logging.DEBUG)
    core = hall.client("rules-core", ["mafia/t1/status"])
    run = Running(hall.table_config())
    try:
        core.wait_for(with_json("mafia/t1/status", state="online"))
    finally:
        run.close()
        core.close()
    assert "connected to the broker" in caplog.text
    assert hall.password("t1") not in caplog.text


def test_a_night_step_is_secret_from_observers_and_plain_to_the_rules_core(hall):
    observer = hall.client("observer", ["mafia/#"])
    core = hall.client("rules-core", ["mafia/#"])
    run = Running(hall.table_config())
    try:
        core.wait_for(with_json("mafia/t1/status", state="online"))
        core.publish("mafia/t1/cmd/phase", '{"id": "n", "phase": "night"}')
        core.wait_for(with_json("mafia/t1/reply/phase", id="n", ok=True))
        night_falls = len(observer.messages)
        core.publish("mafia/t1/cmd/night/step", json.dumps(
            {"id": "shot", "step": "mafia_shot", "actors": [1], "targets": "seats",
             "mode": "count", "cadence": 0.3}))  # seats 1..6 counted aloud, 0.3 s each
        core.wait_for(on_topic("mafia/t1/private/night/step"))
        time.sleep(1.05)  # number 3 is being spoken (0.9 .. 1.2 s, after the 0.3 s lead)
        run.pin(4).drive_low()  # seat 1's hand on its button
        run.pin(4).drive_high()
        [result] = core.wait_for(on_topic("mafia/t1/private/night/result"))
        assert result.json()["picks"] == [{"actor": 1, "picks": [3], "miss": None}]
        later = observer.messages[night_falls:]
        assert not [m for m in later if "/private/" in m.topic or "/event/seat/" in m.topic]
        core.publish("mafia/t1/cmd/phase", '{"id": "d", "phase": "day"}')
        observer.wait_for(with_json("mafia/t1/event/phase", phase="day"))
        # private events count apart: the public seq has no gap to betray the night
        public = sorted(m.json()["seq"] for m in observer.messages if "/event/" in m.topic)
        assert public == list(range(public[0], public[0] + len(public)))
        for state in [m.json() for m in observer.messages if m.topic == "mafia/t1/state"
                      and m.json()["phase"] == "night"]:
            assert {s["light"]["mode"] for s in state["seats"]} == {"off"}
    finally:
        run.close()
        for client in (observer, core):
            client.close()


def test_selftest_says_when_the_broker_refuses_it_or_the_acl_forbids_commands(hall, tmp_path):
    from controller.selftest import Selftest, SelftestError, TableClient, TerminalTechnician

    run = Running(hall.table_config())
    try:
        wrong = tmp_path / "wrong.pass"
        wrong.write_text("not-the-password\n")
        for user, password, expected in (
                ("rules-core", wrong, "the broker refused the connection"),
                ("observer", None, "is this account allowed to send commands?")):
            if password is None:
                password = tmp_path / f"{user}.pass"
                password.write_text(hall.password(user) + "\n")
            cfg = config_module.load(hall.root / "t1.toml", config_module.Overrides(
                username=user, password_file=str(password)))
            table = TableClient(cfg, timeout=2)
            try:
                with pytest.raises(SelftestError, match=expected):
                    Selftest(cfg, TerminalTechnician(), table).run()
            finally:
                table.close()
    finally:
        run.close()
