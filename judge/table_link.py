"""The judge's MQTT link to its table: the one connection the panel talks to the table over.

It connects as the ``rules-core`` account of the shipped ACL, subscribes to what the game and
the panel read (``TOPICS``) every time it connects, and publishes the panel's commands, each
stamped with an id of this run (``send``) and remembered until its reply (``answered``). paho's
network thread never touches the panel: each message and each change of the connection is
handed over to the panel's asyncio loop (``start``), so the panel meets them one at a time, in
order, on its own thread, with never a lock.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract.commands import encode
from contract.topics import topic_prefix
from contract.verbs import TableCommand
from judge.config import JudgeConfig
from kit.i18n import Words
from kit.mqtt import configure_client

#: what the table publishes that the game or the panel reads (nothing else is subscribed to)
TOPICS = ("status", "health", "state", "event/#", "private/#", "reply/#")


class TableLink:
    """The panel's connection to the table's topics (``mafia/<table>/...``).

    ``on_message(topic, payload)`` gets each message, its topic below the table's prefix;
    ``on_connection(up)`` each connect (True) and disconnect (False); both on the loop given to
    ``start``, never on paho's thread."""

    def __init__(self, cfg: JudgeConfig, on_message: Callable[[str, bytes], None],
                 on_connection: Callable[[bool], None]):
        self.prefix = topic_prefix(cfg.table)
        self._broker = cfg.broker
        self._on_table_message, self._on_connection = on_message, on_connection
        self._loop: asyncio.AbstractEventLoop | None = None
        #: id -> verb of each command sent and not answered yet
        self.pending: dict[str, str] = {}
        self._ids = itertools.count(1)
        self._run = secrets.token_hex(3)  # this run's: no reply to an earlier run's is ours
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"judge-{cfg.table}-{self._run}",
                                  protocol=mqtt.MQTTv5)
        configure_client(self.client, cfg.broker)
        self.client.reconnect_delay_set(1, 5)  # back soon after a broker restart
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Connect (in the background, again after every drop) and hand everything to ``loop``."""
        self._loop = loop
        self.client.connect_async(self._broker.host, self._broker.port,
                                  keepalive=self._broker.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def send(self, command: TableCommand[Any]) -> str:
        """Publish ``command`` stamped with a fresh id, encoded as the table decodes it
        (``contract.commands.encode``); its reply is matched by that id. Returns the id."""
        id = f"j{self._run}-{next(self._ids)}"
        self.pending[id] = command.spec.verb
        self.client.publish(self.prefix + command.spec.topic, encode(command.stamped(id)), qos=1)
        return id

    def answered(self, reply: dict[str, Any]) -> Words | None:
        """A reply on ``reply/...``: its command is answered. What to tell the judge when it
        refuses one of ours ("the table refused cmd/<verb>: <why>", the why in the table's
        own words); None otherwise."""
        verb = self.pending.pop(str(reply.get("id")), None)
        if verb is None or reply.get("ok", True):
            return None
        return Words("notice.refused", command=f"cmd/{verb}", why=str(reply.get("error")))

    # ------------------------------------------------------------------ paho's thread

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            return
        client.subscribe([(self.prefix + t, 1) for t in TOPICS])
        self._hand_over(self._on_connection, True)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self._hand_over(self._on_connection, False)

    def _on_message(self, client, userdata, message) -> None:
        self._hand_over(self._on_table_message, message.topic.removeprefix(self.prefix),
                        message.payload)

    def _hand_over(self, fn: Callable[..., None], *args: Any) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(fn, *args)
