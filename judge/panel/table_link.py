"""The judge's MQTT link to its table: the one connection the panel talks to the table over.

It connects as the ``rules-core`` account of the shipped ACL, subscribes to what the game and
the panel read (``TOPICS``) every time it connects, and publishes the panel's commands, each
stamped with an id of this run (``send``) and remembered until its reply (``answered``). paho
runs on the panel's asyncio loop (``kit.mqtt.LoopDriver``: no network thread of its own), and
paho's callbacks only queue what they got: the panel meets each message and each change of the
connection right after paho's step that read it, on the same turn of its loop, one at a time,
in order, outside paho's locks, with never a lock of its own (docs/performance.md, "The
judge's screen, server side").
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract.commands import encode
from contract.topics import topic_prefix
from contract.verbs import TableCommand
from judge.panel.config import JudgeConfig
from kit.i18n import Words
from kit.mqtt import LoopDriver, configure_client

log = logging.getLogger("judge")
#: what the table publishes that the game or the panel reads (nothing else is subscribed to),
#: and the hall's seating of the table's round (``seating``: the players' names)
TOPICS = ("status", "health", "state", "event/#", "private/#", "reply/#", "seating")


class TableLink:
    """The panel's connection to the table's topics (``mafia/<table>/...``).

    ``on_message(topic, payload)`` gets each message, its topic below the table's prefix;
    ``on_connection(up)`` each connect (True) and disconnect (False); ``on_published(mid, ok)``
    the broker's acknowledgement of each retained message ``publish_retained`` sent (``ok``
    False: the broker refused it, e.g. the account may not write there); all on the loop given
    to ``start``, right after the paho step that read them."""

    def __init__(self, cfg: JudgeConfig, on_message: Callable[[str, bytes], None],
                 on_connection: Callable[[bool], None],
                 on_published: Callable[[int, bool], None] = lambda mid, ok: None):
        self.prefix = topic_prefix(cfg.table)
        self._on_table_message, self._on_connection = on_message, on_connection
        self._on_published = on_published
        #: what paho's callbacks handed over, for the panel right after paho's step
        self._inbox: deque[tuple[Callable[..., None], tuple[Any, ...]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        #: id -> verb of each command sent and not answered yet
        self.pending: dict[str, str] = {}
        #: the ids among them whose refusal is no news (``send``'s ``quiet``)
        self.quiet: set[str] = set()
        self._ids = itertools.count(1)
        self._run = secrets.token_hex(3)  # this run's: no reply to an earlier run's is ours
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"judge-{cfg.table}-{self._run}",
                                  protocol=mqtt.MQTTv5)
        configure_client(self.client, cfg.broker)
        # back soon after a broker restart
        self.driver = LoopDriver(self.client, cfg.broker.host, cfg.broker.port,
                                 cfg.broker.keepalive, after=self._deliver, delays=(1, 5))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Connect (in the background, again after every drop), paho driven from ``loop``
        (the running one: call it on its thread)."""
        self._loop = loop
        self.driver.start(loop)

    def stop(self) -> None:
        """Off the broker; nothing more is handed to the panel."""
        self.driver.stop()
        self._inbox.clear()

    def send(self, command: TableCommand[Any], quiet: bool = False) -> str:
        """Publish ``command`` stamped with a fresh id, encoded as the table decodes it
        (``contract.commands.encode``); its reply is matched by that id. Returns the id.
        ``quiet``: its refusal is logged, not told to the judge (a new game's ending of what
        may have ended already: "no vote is running")."""
        id = f"j{self._run}-{next(self._ids)}"
        self.pending[id] = command.spec.verb
        if quiet:
            self.quiet.add(id)
        self.client.publish(self.prefix + command.spec.topic, encode(command.stamped(id)), qos=1)
        self.driver.flush()
        return id

    def publish_retained(self, topic: str, payload: bytes) -> int:
        """Publish ``payload`` on ``topic`` (the whole topic), retained, QoS 1; the broker's
        acknowledgement comes to ``on_published`` with the returned message id. Sent while
        the link is down, paho keeps it until it connects."""
        mid = self.client.publish(topic, payload, qos=1, retain=True).mid
        self.driver.flush()
        return mid

    def answered(self, reply: dict[str, Any]) -> Words | None:
        """A reply on ``reply/...``: its command is answered. What to tell the judge when it
        refuses one of ours, not sent ``quiet`` ("the table refused cmd/<verb>: <why>", the
        why in the table's own words); None otherwise."""
        id = str(reply.get("id"))
        verb = self.pending.pop(id, None)
        quiet = id in self.quiet
        self.quiet.discard(id)
        if verb is None or reply.get("ok", True):
            return None
        if quiet:
            log.info("the table refused cmd/%s (nothing to end): %s", verb, reply.get("error"))
            return None
        return Words("notice.refused", command=f"cmd/{verb}", why=str(reply.get("error")))

    # ------------------------------------------------------------------ paho's callbacks

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

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        self._hand_over(self._on_published, mid, not reason_code.is_failure)

    def _hand_over(self, fn: Callable[..., None], *args: Any) -> None:
        """Queued for ``_deliver``; from another thread (none but the connect's, which calls
        none of these), through the loop."""
        if self._loop is None:
            return
        if self.driver.on_loop:
            self._inbox.append((fn, args))
        else:
            self._loop.call_soon_threadsafe(fn, *args)

    def _deliver(self) -> None:
        """What paho's step handed over, to the panel in order (the driver's ``after``); one
        that raises is reported as a loop callback's would be, and the next one still goes."""
        while self._inbox:
            fn, args = self._inbox.popleft()
            try:
                fn(*args)
            except Exception as exc:  # the loop's own report, as a callback's was
                assert self._loop is not None
                self._loop.call_exception_handler({
                    "message": f"the table link's {getattr(fn, '__name__', fn)} failed",
                    "exception": exc})
