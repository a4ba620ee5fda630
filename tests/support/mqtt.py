"""A test-side MQTT subscriber: a real paho client that records what the broker delivers."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from contract.event_seq import missed
from kit.mqtt import no_delay


@dataclass(frozen=True)
class Received:
    topic: str
    payload: bytes
    retain: bool
    at: float  # time.time() when the message reached this client
    correlation: bytes | None = None

    def json(self) -> Any:
        return json.loads(self.payload)


class Subscriber:
    """Connects to the broker, subscribes to ``topics`` and keeps every message in order."""

    def __init__(self, port: int, topics: list[str], *, client_id: str = "",
                 protocol: mqtt.MQTTProtocolVersion = mqtt.MQTTv5, persistent: bool = False,
                 auth: tuple[str, str] | None = None, tls: dict[str, Any] | None = None,
                 clean_start: bool | Literal[3] | None = None):
        """``persistent``: keep the session (subscriptions, queued QoS 1 messages) on the
        broker across disconnects and restarts (never a clean start), so nothing published
        while we are away is missed. ``clean_start``: paho's, instead of what ``persistent``
        makes it (``MQTT_CLEAN_START_FIRST_ONLY``: how docs/mqtt-api.md once had it)."""
        self.messages: list[Received] = []
        self.sessions: list[bool] = []  # CONNACK's session_present, at each connect
        self._arrived = threading.Condition()
        self._subscribed = threading.Event()
        self._topics = topics
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  protocol=protocol)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.client.on_socket_open = no_delay  # as every client of the project's own
        self.acks: dict[int, Any] = {}
        self.refused: Any = None
        if auth is not None:
            self.client.username_pw_set(*auth)
        if tls is not None:
            self.client.tls_set(**tls)
        self.client.reconnect_delay_set(1, 2)
        properties = None
        if persistent:
            properties = Properties(PacketTypes.CONNECT)
            properties.SessionExpiryInterval = 600
        self.client.connect("127.0.0.1", port, properties=properties,
                            clean_start=not persistent if clean_start is None else clean_start)
        self.client.loop_start()
        if not self._subscribed.wait(10):
            raise TimeoutError(f"test subscriber did not subscribe (connect: {self.refused})")

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = reason_code
            return
        with self._arrived:
            self.sessions.append(bool(flags.session_present))
            self._arrived.notify_all()
        if not self._topics:  # a publishing-only client
            self._subscribed.set()
            return
        client.subscribe([(t, 1) for t in self._topics])

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        with self._arrived:
            self.acks[mid] = reason_code
            self._arrived.notify_all()

    def publish_outcome(self, topic: str, payload: bytes | str, timeout: float = 5.0) -> Any:
        """Publish with QoS 1 and return the broker's PUBACK reason code."""
        mid = self.client.publish(topic, payload, qos=1).mid
        deadline = time.monotonic() + timeout
        with self._arrived:
            while mid not in self.acks:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no PUBACK for {topic}")
                self._arrived.wait(left)
            return self.acks[mid]

    def _on_message(self, client, userdata, message) -> None:
        correlation = getattr(message.properties, "CorrelationData", None)
        with self._arrived:
            self.messages.append(Received(message.topic, message.payload, bool(message.retain),
                                          time.time(), correlation))
            self._arrived.notify_all()

    def wait_until(self, done: Callable[[list[Received]], bool], *, timeout: float = 10.0,
                   what: str = "the messages wanted") -> None:
        """Block until ``done`` holds for the messages received so far (it is called again at
        each arrival, under the lock: keep it quick)."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while not done(self.messages):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    topics = [m.topic for m in self.messages]
                    raise TimeoutError(f"waited {timeout} s for {what}; saw {topics}")
                self._arrived.wait(remaining)

    def wait_for(self, predicate: Callable[[Received], bool], *, count: int = 1,
                 timeout: float = 10.0) -> list[Received]:
        """Block until ``count`` received messages satisfy ``predicate``; return them. A
        message redelivered (QoS 1 may) counts again: to wait for distinct events, wait on
        their ids with ``wait_until``."""
        found: list[Received] = []

        def enough(messages: list[Received]) -> bool:
            found[:] = [m for m in messages if predicate(m)]
            return len(found) >= count

        self.wait_until(enough, timeout=timeout, what=f"{count} matching message(s)")
        return found

    def matching(self, predicate: Callable[[Received], bool]) -> list[Received]:
        with self._arrived:
            return [m for m in self.messages if predicate(m)]

    def publish(self, topic: str, payload: bytes | str, *, response_topic: str | None = None,
                correlation: bytes | None = None) -> None:
        properties = None
        if response_topic is not None or correlation is not None:
            properties = Properties(PacketTypes.PUBLISH)
            if response_topic is not None:
                properties.ResponseTopic = response_topic
            if correlation is not None:
                properties.CorrelationData = correlation
        self.client.publish(topic, payload, qos=1, properties=properties).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def on_topic(topic: str) -> Callable[[Received], bool]:
    return lambda m: m.topic == topic


def with_json(topic: str, **fields: Any) -> Callable[[Received], bool]:
    """Messages on ``topic`` whose JSON payload has all of ``fields``."""

    def match(m: Received) -> bool:
        if m.topic != topic:
            return False
        doc = m.json()
        return all(doc.get(k) == v for k, v in fields.items())

    return match


class Consumer(Subscriber):
    """A consumer that follows docs/mqtt-api.md, "Losing nothing", to the letter.

    Its MQTT 5 session never starts clean (``persistent``, a fixed client id: mosquitto saves
    only such sessions, so they outlive a broker restart once it has autosaved). It keeps
    every event of ``table`` (``+``: of every table) by ``seq`` (dropping copies by ``id``) and
    asks a table for the events after the last one it has with ``cmd/replay`` when that table's
    ``status`` turns ``online``, when its ``seq`` jumps, and at a reconnect where the broker
    had lost its session (CONNACK's ``session_present`` false).
    """

    def __init__(self, port: int, table: str, *, client_id: str | None = None, **kwargs):
        self.table = table
        self.by_table: dict[str, dict[int, list[Received]]] = {}
        self.replays: list[str] = []  # the tables it asked, in order
        kwargs.setdefault("persistent", True)
        super().__init__(port, [f"mafia/{table}/event/#", f"mafia/{table}/status",
                                f"mafia/{table}/reply/replay"],
                         client_id=client_id or f"consumer-{uuid.uuid4().hex[:8]}", **kwargs)

    @property
    def events(self) -> dict[int, list[Received]]:
        """The events of ``table`` (one table's consumer), by seq."""
        with self._arrived:
            return self.by_table.setdefault(self.table, {})

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        again = bool(self.sessions)
        super()._on_connect(client, userdata, flags, reason_code, properties)
        if again and not reason_code.is_failure and not flags.session_present:
            with self._arrived:
                tables = list(self.by_table)
            for name in tables:  # the broker lost what it had queued for us
                self._replay(client, name)

    def _on_message(self, client, userdata, message) -> None:
        super()._on_message(client, userdata, message)
        received = self.messages[-1]
        _, name, kind = message.topic.split("/", 2)
        if kind.startswith("event/"):
            seq = received.json()["seq"]
            with self._arrived:
                events = self.by_table.setdefault(name, {})
                gap = missed(max(events, default=0), seq)
                events.setdefault(seq, []).append(received)
            if gap:
                self._replay(client, name)
        elif kind == "status" and received.json()["state"] == "online":
            self._replay(client, name)

    def _replay(self, client, name: str) -> None:
        last = self.last_contiguous(name)
        with self._arrived:
            self.replays.append(name)
            asked = len(self.replays)
        client.publish(f"mafia/{name}/cmd/replay",
                       json.dumps({"id": f"replay-{asked}", "after_seq": last}), qos=1)

    def last_contiguous(self, table: str | None = None) -> int:
        with self._arrived:
            events = self.by_table.get(table or self.table, {})
            seq = 0
            while seq + 1 in events:
                seq += 1
            return seq

    def wait_for_seq(self, last: int, timeout: float = 20.0, table: str | None = None) -> None:
        """Block until every event 1..last (of ``table``, or this consumer's) has arrived."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while self.last_contiguous(table) < last:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"events up to {self.last_contiguous(table)} of {last}")
                self._arrived.wait(remaining)
