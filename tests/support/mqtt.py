"""A test-side MQTT subscriber: a real paho client that records what the broker delivers."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

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
                 auth: tuple[str, str] | None = None, tls: dict[str, Any] | None = None):
        """``persistent``: keep the session (subscriptions, queued QoS 1 messages) on the
        broker across disconnects, so nothing published while we are away is missed."""
        self.messages: list[Received] = []
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
        self.client.connect("127.0.0.1", port, clean_start=not persistent, properties=properties)
        self.client.loop_start()
        if not self._subscribed.wait(10):
            raise TimeoutError(f"test subscriber did not subscribe (connect: {self.refused})")

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = reason_code
            return
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
    """A consumer that follows the documented delivery protocol of docs/mqtt-api.md.

    It keeps every event by ``seq`` and, whenever the table's ``status`` turns ``online`` (at
    our connect through the retained message, or at the controller's reconnect), asks for the
    events after the last one it has with ``cmd/replay``.
    """

    def __init__(self, port: int, table: str, **kwargs):
        self.table = table
        self.events: dict[int, list[Received]] = {}
        super().__init__(port, [f"mafia/{table}/event/#", f"mafia/{table}/status"], **kwargs)

    def _on_message(self, client, userdata, message) -> None:
        super()._on_message(client, userdata, message)
        received = self.messages[-1]
        if message.topic.startswith(f"mafia/{self.table}/event/"):
            with self._arrived:
                self.events.setdefault(received.json()["seq"], []).append(received)
        elif received.json()["state"] == "online":
            last = self.last_contiguous()
            client.publish(f"mafia/{self.table}/cmd/replay",
                           json.dumps({"id": f"replay-{last}", "after_seq": last}), qos=1)

    def last_contiguous(self) -> int:
        seq = 0
        while seq + 1 in self.events:
            seq += 1
        return seq

    def wait_for_seq(self, last: int, timeout: float = 20.0) -> None:
        """Block until every event 1..last has arrived."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while self.last_contiguous() < last:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"events up to {self.last_contiguous()} of {last}")
                self._arrived.wait(remaining)
