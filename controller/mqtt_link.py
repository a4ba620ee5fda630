"""The MQTT link: one paho-mqtt 2.x client, run on paho's own network thread.

What it promises:

* Everything is published with QoS 1; ``on_ack`` reports each message the broker acknowledged
  (by paho's message id), which is what lets the store forget an event. A PUBACK carrying an
  MQTT 5 failure code (e.g. "not authorized") is not an acknowledgement.
* Retained documents (``status``, ``state``) are kept here, newest per topic, and published
  again after every connect, since a broker without persistence forgets them on restart.
* The last will marks the table ``offline`` if the service dies; a clean stop publishes it too.
* The session survives a reconnect (MQTT 5 session expiry, no clean start, not even the first
  time: mosquitto saves a session to its database only if its connection began without clean
  start), and a broker restart once the broker has saved it: commands sent meanwhile wait at the
  broker. Subscriptions are made in ``on_connect`` all the same, so a broker that lost the
  session (restarted without persistence, killed before its autosave, expired) gets them again;
  such a reconnect is counted (``sessions_lost``) and logged, on a link that subscribes (the
  events' link has no subscriptions: a session of its own lost loses no command).
* Small messages leave at once: Nagle's algorithm is off on the socket (with it, a press that
  follows another unacknowledged packet waited for the broker's 40 ms delayed ACK).
* Callbacks never block and never raise (a raise would kill paho's loop): incoming messages are
  handed to ``on_message``, which must only queue them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from kit.mqtt import BrokerConfig, configure_client

log = logging.getLogger(__name__)

#: Called with (topic below the prefix, payload, MQTT 5 response topic, correlation data, the
#: QoS it came at).
MessageHandler = Callable[[str, bytes, str | None, bytes | None, int], None]


#: Seconds the broker keeps our session (subscriptions, queued commands) while we are away.
SESSION_EXPIRY = 600

#: The MQTT 5 reason a broker gives when another client connects with our client id
#: (mosquitto 2.0 just closes the socket instead: then only the repetition tells).
SESSION_TAKEN_OVER = ReasonCode(PacketTypes.DISCONNECT, identifier=0x8E)
#: Connections lost within ``FLAP_WINDOW`` seconds that make the link "thrown off repeatedly".
FLAP_DROPS = 3
FLAP_WINDOW = 60.0


@dataclass
class LinkDrops:
    """Why the broker connection was lost, counted since the start (for ``health``)."""

    disconnects: int = 0
    taken_over: int = 0
    sessions_lost: int = 0
    last_reason: str | None = None
    recent: deque[float] = field(default_factory=lambda: deque(maxlen=FLAP_DROPS))

    def count(self, reason: str, now: float) -> None:
        self.disconnects += 1
        self.last_reason = reason
        self.recent.append(now)
        if reason == str(SESSION_TAKEN_OVER):
            self.taken_over += 1

    def thrown_off(self, now: float) -> bool:
        """Lost ``FLAP_DROPS`` times within the last ``FLAP_WINDOW`` seconds."""
        return len(self.recent) == FLAP_DROPS and now - self.recent[0] <= FLAP_WINDOW


class MqttLink:
    """A connection to the broker for the topics under ``prefix`` (e.g. ``mafia/table-1/``)."""

    def __init__(
        self,
        broker: BrokerConfig,
        *,
        prefix: str,
        client_id: str,
        subscriptions: list[str],
        will: bytes | None,
        on_message: MessageHandler,
        on_connected: Callable[[], None] = lambda: None,
        on_ack: Callable[[int], None] = lambda mid: None,
    ):
        self._broker = broker
        self.prefix = prefix
        self._subscriptions = subscriptions
        self._on_message_handler = on_message
        self._on_connected = on_connected
        self._on_ack = on_ack
        self._client_id = client_id
        self._retained: dict[str, bytes] = {}
        self._stopping = False
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.connected_before = False  # a connect since the start (paho's thread)
        self.drops = LinkDrops()

        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv5)
        if will is not None:
            client.will_set(prefix + "status", will, qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=5)
        configure_client(client, broker)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        self._client = client

    def start(self) -> None:
        """Connect in the background; paho retries until the broker answers.

        The session outlives the connection by ``SESSION_EXPIRY`` seconds (MQTT 5), and every
        connect resumes it (no clean start): the broker keeps our subscriptions and queues the
        QoS 1 commands sent while we reconnect or restart, and delivers them when we are back
        (a command that has grown too old meanwhile is refused by its ``ts``, not run late)."""
        log.info("connecting to the broker at %s:%d", self._broker.host, self._broker.port)
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION_EXPIRY
        self._client.connect_async(self._broker.host, self._broker.port,
                                   keepalive=self._broker.keepalive, clean_start=False,
                                   properties=properties)
        self._client.loop_start()

    def publish(self, suffix: str, payload: bytes) -> int:
        """Publish a message (QoS 1, not retained); returns paho's message id for ``on_ack``."""
        return self._client.publish(self.prefix + suffix, payload, qos=1).mid

    def retain(self, suffix: str, payload: bytes) -> None:
        """Publish a retained document now if connected, and again after every reconnect."""
        with self._lock:
            self._retained[suffix] = payload
        if self.connected.is_set():
            self._client.publish(self.prefix + suffix, payload, qos=1, retain=True)

    def republish_retained(self) -> None:
        """Publish the newest retained documents again (after a connect, see ``on_connected``).

        Called from the loop thread, not from ``on_connect``: paho resends the messages left
        unacknowledged by the old connection *after* ``on_connect`` returns, so a document
        republished inside it would be overtaken by an older copy still in paho's queue, and
        the broker would keep the older one.
        """
        with self._lock:
            documents = list(self._retained.items())
        for suffix, payload in documents:
            self._client.publish(self.prefix + suffix, payload, qos=1, retain=True)

    def reply(self, topic: str, payload: bytes, correlation: bytes | None, qos: int = 1) -> int:
        """Publish a command reply on the full ``topic``, echoing MQTT 5 correlation data.

        ``qos`` 0 is for ``busy`` answers: they leave at once and take none of the QoS 1 window
        (20 unacknowledged messages), which the table's own events need during a flood.
        Returns paho's message id (see ``on_ack``)."""
        properties = None
        if correlation is not None:
            properties = Properties(PacketTypes.PUBLISH)
            properties.CorrelationData = correlation
        return self._client.publish(topic, payload, qos=qos, properties=properties).mid

    def stop(self, last_words: bytes | None, timeout: float = 2.0) -> None:
        """Publish ``last_words`` on ``status`` (retained), wait for the broker's ack, close."""
        self._stopping = True
        if last_words is not None:
            info = self._client.publish(self.prefix + "status", last_words, qos=1, retain=True)
            if self.connected.is_set():
                try:
                    info.wait_for_publish(timeout)
                except (RuntimeError, ValueError) as exc:
                    log.warning("offline status not acknowledged: %s", exc)
        self._client.disconnect()
        self._client.loop_stop()

    # paho callbacks: run on paho's thread; they must not block or raise.

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused the connection: %s", reason_code)
            return
        if self.connected_before and not flags.session_present and self._subscriptions:
            self.drops.sessions_lost += 1
            log.warning("the broker had lost this controller's session (restarted without "
                        "persistence, or killed before it saved it): commands sent while we "
                        "were away may be lost, and their senders must send them again")
        self.connected_before = True
        log.info("connected to the broker (%s)", self._client_id)
        if self._subscriptions:
            client.subscribe([(self.prefix + topic, 1) for topic in self._subscriptions])
        self.connected.set()
        try:
            self._on_connected()
        except Exception:
            log.exception("connect handler failed")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()
        if self._stopping:
            log.info("disconnected from the broker")
            return
        now = time.monotonic()
        self.drops.count(str(reason_code), now)
        if reason_code == SESSION_TAKEN_OVER or self.drops.thrown_off(now):
            log.error("thrown off the broker (%s; %d times in %.0f s): another client is "
                      "probably connecting with this controller's client id %r (or a second "
                      "controller of this table runs). Bind client ids to accounts on the "
                      "broker (use_username_as_clientid, see config/mosquitto/); reconnecting",
                      reason_code, len(self.drops.recent), now - self.drops.recent[0],
                      self._client_id)
        else:
            log.warning("lost the broker (%s); reconnecting", reason_code)

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused message %d: %s", mid, reason_code)
            return
        try:
            self._on_ack(mid)
        except Exception:
            log.exception("acknowledgement of message %d not handled", mid)

    def _on_message(self, client, userdata, message: mqtt.MQTTMessage) -> None:
        try:
            suffix = message.topic.removeprefix(self.prefix)
            if message.retain:
                log.warning("ignoring a retained message on %s: commands are never retained "
                            "(clear it with an empty retained message)", message.topic)
                return
            response_topic = getattr(message.properties, "ResponseTopic", None) or None
            if response_topic is not None and not _reply_topic_ok(response_topic, self.prefix):
                log.warning("ignoring response topic %r: replies go under %sreply/",
                            response_topic, self.prefix)
                response_topic = None
            correlation = getattr(message.properties, "CorrelationData", None)
            self._on_message_handler(suffix, bytes(message.payload), response_topic, correlation,
                                     message.qos)
        except Exception:
            log.exception("incoming message on %r dropped", message.topic)


def _reply_topic_ok(topic: str, prefix: str) -> bool:
    """A response topic must lie in this table's ``reply/`` subtree (which the ACL lets the
    controller write), so no request can make it publish on ``status``, ``cmd/`` or elsewhere."""
    return (topic.startswith(prefix + "reply/") and len(topic) > len(prefix) + 6
            and not any(c in topic for c in "+#\0"))
