"""Is another controller already running this table? Asked once, before the service starts.

Two controllers on one table id fight: they share the MQTT client id, so the broker drops one
each time the other connects, ``status`` flips between their boot ids, and both write the table's
topics. So before starting, the CLI looks at the table's retained ``status``:

* none, ``offline``, or ``online`` with the boot id this journal last ran with (our own earlier
  life, ended by a power cut before the broker noticed): free;
* ``online`` with another boot id: that controller may be alive, or dead on a link the broker has
  not yet given up on. Its last will turns ``status`` to ``offline`` within 1.5 keepalives of its
  death, so we wait that long for it; still ``online`` then: it is alive, and we must not start.

On one machine the journal says it sooner: a controller holds a lock on ``<journal>.lock`` for
as long as it runs (``lock_journal``), so a second one on the same journal is refused at once,
and an ``online`` with the journal's last boot id is known to be stale only when nobody holds it.

The look uses its own short connection with its own client id (never the controller's, which
would drop the live one). If the broker cannot be reached, or the account may not read
``status``, nothing can be known: the check passes with a log line, since a table must start
while its broker is away.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract.topics import topic_prefix
from kit.mqtt import BrokerConfig, configure_client

log = logging.getLogger(__name__)

#: how long to wait for the broker to take the probe's connection
CONNECT_TIMEOUT = 3.0
#: beyond the keepalive, the time a broker may take to publish a dead client's will
WILL_SLACK = 2.0


@dataclass(frozen=True)
class LiveController:
    """Another controller's ``status``: online on the table, not gone after a will's wait."""

    boot_id: str
    version: str
    waited: float  # seconds we waited for its will


#: ``lock_journal``'s answer when no lock file can be made (a read-only folder)
UNLOCKED = -1


def lock_journal(journal: Path) -> int | None:
    """Take the lock on ``<journal>.lock`` for the life of this process (the descriptor is
    returned, to keep; closing it or exiting lets go), or None when another process holds it,
    or ``UNLOCKED`` when the folder takes no lock file (opening the journal then fails, with a
    message that says what to do).

    The lock file is opened read-only (``flock`` needs no more), so one left by a technician's
    run as root does not lock the service's own user out.
    """
    try:
        journal.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(journal.with_name(journal.name + ".lock"), os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError as exc:  # a folder it cannot write: the journal itself will say so, better
        log.debug("no lock beside %s: %s", journal, exc)
        return UNLOCKED
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


class _Status(msgspec.Struct):
    """What the check reads of a ``status`` document (``api.Status``; other keys are ignored)."""

    state: str
    boot_id: str
    version: str = ""


class _StatusWatch:
    """A short-lived client holding the newest ``status`` of one table."""

    def __init__(self, broker: BrokerConfig, table: str):
        self.topic = topic_prefix(table) + "status"
        self.status: _Status | None = None
        self.changed = threading.Condition()
        self.ready = threading.Event()  # the retained status (if any) has arrived
        self.refused: str | None = None
        self._subacks = 0
        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=f"mafia-table-{table}-probe-{uuid.uuid4().hex[:6]}",
                             protocol=mqtt.MQTTv5)
        configure_client(client, broker)
        client.on_connect = self._on_connect
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        self._client = client
        self._broker = broker

    def open(self) -> bool:
        """Connect and subscribe; False when the broker cannot be reached in time."""
        try:
            self._client.connect(self._broker.host, self._broker.port, keepalive=10)
        except (OSError, ValueError) as exc:
            self.refused = str(exc)
            return False
        self._client.loop_start()
        return self.ready.wait(CONNECT_TIMEOUT) and self.refused is None

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = str(reason_code)
            self.ready.set()
            return
        client.subscribe(self.topic, qos=1)
        # the broker queues the retained message while it handles a SUBSCRIBE, so it arrives
        # before the SUBACK of a second one (the same topic again): then we know if there was one
        client.subscribe(self.topic, qos=1)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        if any(code.is_failure for code in reason_codes):
            self.refused = f"subscription refused: {reason_codes[0]}"
        self._subacks += 1
        if self._subacks == 2 or self.refused:
            self.ready.set()

    def _on_message(self, client, userdata, message: mqtt.MQTTMessage) -> None:
        try:
            status = msgspec.json.decode(message.payload, type=_Status)
        except (msgspec.ValidationError, msgspec.DecodeError):
            return  # an empty (cleared) or foreign status says nothing about a controller
        with self.changed:
            self.status = status
            self.changed.notify_all()


def live_controller(broker: BrokerConfig, table: str, *, own_boot_id: str | None = None,
                    will_wait: float | None = None) -> LiveController | None:
    """The other controller online on ``table``, if any (see the module docstring).

    ``own_boot_id``: the boot id this journal last ran with, whose ``online`` is stale.
    ``will_wait``: how long to wait for a will (default 1.5 keepalives and ``WILL_SLACK``).
    """
    if broker.username:
        # a broker that names each client after its account (the shipped one:
        # use_username_as_clientid) would hand this probe the live controller's session and
        # throw it off; there, the journal's lock guards this host and the broker itself keeps
        # two controllers of one account from both holding the table
        log.info("the broker binds client ids to accounts: not probing table %s", table)
        return None
    watch = _StatusWatch(broker, table)
    try:
        if not watch.open():
            log.info("cannot ask the broker whether table %s runs elsewhere (%s); starting",
                     table, watch.refused or "no answer")
            return None
        wait = broker.keepalive * 1.5 + WILL_SLACK if will_wait is None else will_wait
        started = time.monotonic()

        def other() -> _Status | None:
            s = watch.status
            if s is None or s.state != "online" or s.boot_id == own_boot_id:
                return None
            return s

        with watch.changed:
            live = other()
            if live is not None:
                log.warning("table %s: another controller (boot %s) says it is online; "
                            "waiting up to %.0f s for its last will in case it is gone",
                            table, live.boot_id, wait)
                watch.changed.wait_for(lambda: other() is None, wait)
                live = other()
        if live is None:
            return None
        return LiveController(live.boot_id, live.version, time.monotonic() - started)
    finally:
        watch.close()
