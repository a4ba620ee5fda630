"""The table's own broker restarted (SIGTERM, or SIGKILL after or before its autosave) with
commands in flight: every command answered, none run twice, no event lost (issue 26;
docs/mqtt-api.md, "Losing nothing"). On the shipped ``table.conf`` (its bridge left out)."""

from __future__ import annotations

import json
import threading

import pytest

from kit.local_broker import LocalBroker, free_port
from tests.support.mqtt import Consumer, Subscriber, with_json
from tests.support.paths import REPO
from tests.support.running import Running
from tests.support.table_configs import make_table_config
from tests.support.waiting import until

TABLE_CONF = REPO / "config" / "mosquitto" / "table.conf"
SHIPPED_AUTOSAVE = "autosave_interval 10"
BEFORE, DURING = 40, 60  # commands the controller holds at the stop, and sent while it is down


def table_broker(workdir, *, autosave: str = SHIPPED_AUTOSAVE) -> LocalBroker:
    """The shipped table.conf up to its bridge, on a port of its own; ``autosave`` in place of
    its ``autosave_interval`` line (to make a test's kill come after, or before, a save)."""
    port = free_port()
    text = TABLE_CONF.read_text().split("connection hall")[0]
    assert "listener 1883 127.0.0.1" in text and SHIPPED_AUTOSAVE in text
    text = text.replace("listener 1883 127.0.0.1", f"listener {port} 127.0.0.1")
    return LocalBroker(port, workdir=workdir, config=text.replace(SHIPPED_AUTOSAVE, autosave))


class Sender(Subscriber):
    """A rules core as docs/mqtt-api.md has it: an MQTT 5 session that never starts clean,
    an id on every command, and a command with no reply sent again, the same bytes, when the
    table is back: its ``status`` *turns* ``online``, the first ``online`` since our own
    (re)connect or an ``offline``. The retained copy our resubscription brings and the
    controller's live one are one turn: sending again on each would queue every waiting
    command three times over (seen: 188 copies behind 60 commands, and the queue full)."""

    def __init__(self, port: int, table: str):
        self.prefix = f"mafia/{table}/"
        self.sent: dict[str, tuple[str, bytes]] = {}
        self.answers: dict[str, list[dict]] = {}
        self.resent = 0
        self._online = False  # whether the table's status is online since our last connect
        super().__init__(port, [self.prefix + "reply/#", self.prefix + "status"],
                         client_id="rules-core", persistent=True)

    def send(self, id: str, verb: str, **fields: object) -> None:
        topic, payload = self.prefix + "cmd/" + verb, json.dumps({"id": id, **fields}).encode()
        with self._arrived:
            self.sent[id] = (topic, payload)
        self.client.publish(topic, payload, qos=1)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._arrived:
            self._online = False
        super()._on_connect(client, userdata, flags, reason_code, properties)

    def _on_message(self, client, userdata, message) -> None:
        super()._on_message(client, userdata, message)
        doc = json.loads(message.payload)
        with self._arrived:
            if "/reply/" in message.topic:
                self.answers.setdefault(doc["id"], []).append(doc)
                return
            turned = doc.get("state") == "online" and not self._online
            self._online = doc.get("state") == "online"
            if not turned:
                return
            waiting = [self.sent[id] for id in self.sent if id not in self.answers]
            self.resent += len(waiting)
        for topic, payload in waiting:  # the table is back: whatever got no reply, again
            client.publish(topic, payload, qos=1)

    def wait_answered(self, timeout: float = 30.0) -> None:
        self.wait_until(lambda _: set(self.answers) >= set(self.sent), timeout=timeout,
                        what="a reply to every command")


@pytest.mark.parametrize("stop", ["sigterm", "sigkill-after-a-save", "sigkill-before-any-save"])
def test_a_table_broker_restart_with_commands_in_flight_answers_each_once_and_loses_nothing(
        tmp_path, stop):
    autosave = {"sigkill-after-a-save": "autosave_interval 1",
                "sigkill-before-any-save": "autosave_interval 3600"}.get(stop, SHIPPED_AUTOSAVE)
    broker = table_broker(tmp_path / "broker", autosave=autosave)
    broker.start()
    run = Running(make_table_config(tmp_path, broker.port))
    sender = Sender(broker.port, "t1")
    consumer = Consumer(broker.port, "t1", client_id="observer")
    hold = threading.Event()
    try:
        sender.wait_for(with_json("mafia/t1/status", state="online"))
        sender.send("start", "timer/start", seat=1, seconds=60)
        sender.send("pause", "timer/pause")  # time left changes by the adds alone
        sender.wait_answered()
        if stop == "sigkill-after-a-save":  # a save holding every session
            saved = broker.saves()
            until(lambda: broker.saved_since(saved), timeout=10, what="the broker's autosave")
        held = threading.Event()
        run.service.loop.call_soon(lambda: (held.set(), hold.wait()))
        assert held.wait(10)
        for n in range(BEFORE):  # taken by the controller, not yet run
            sender.send(f"a{n}", "timer/add", seconds=1)
        # through the broker and paho's thread: seconds on a busy machine (5 s were too few);
        # at least BEFORE: a copy the sender sent again (the table's status turned online
        # once more) is queued too, and answered as the first one's copy
        waiting = run.service.loop
        try:
            until(lambda: waiting.commands_waiting >= BEFORE, timeout=30,
                  what="the commands queued")
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {waiting.commands_waiting} of {BEFORE} queued, the "
                                 f"sender resent {sender.resent}") from None

        broker.stop() if stop == "sigterm" else broker.kill()
        hold.set()  # run now: the replies wait for the broker in paho
        for n in range(BEFORE, BEFORE + DURING):  # the sender's paho keeps them meanwhile
            sender.send(f"a{n}", "timer/add", seconds=1)
        broker.start()

        sender.wait_answered()
        assert all(doc["ok"] for docs in sender.answers.values() for doc in docs)
        timer = run.service.loop.state.timer
        assert timer is not None and timer.duration == 60 + BEFORE + DURING  # each add once
        last = run.service.store.last_seq
        consumer.wait_for_seq(last)
        assert sorted(consumer.events) == list(range(1, last + 1))
        assert last == 2 + BEFORE + DURING  # started, paused, then one change per add
        if stop == "sigkill-before-any-save":  # the broker had lost both sessions
            assert run.service.mqtt.drops.sessions_lost == 1 and sender.resent > 0
    finally:
        hold.set()
        for client in (sender, consumer):
            client.close()
        run.close()
        broker.close()
