"""The MQTT client set-up every service of the project shares: the broker's config section
and what it makes of a paho client.

``BrokerConfig`` is the ``[broker]`` section of the table's config and of the judge's (and
what ``watch``, ``selftest`` and the start-up check build from flags); ``configure_client``
gives any paho 2.x client its account, TLS and no-delay socket from it. ``LoopDriver`` runs a
client's network on an asyncio loop instead of paho's own thread (the judge's panel).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import msgspec
import paho.mqtt.client as mqtt

from kit.config import Section


class TlsConfig(Section):
    ca_file: str
    cert_file: str | None = None
    key_file: str | None = None


class BrokerConfig(Section):
    host: str = "127.0.0.1"
    port: Annotated[int, msgspec.Meta(ge=1, le=65535)] = 1883
    username: str | None = None
    password_file: str | None = None
    keepalive: Annotated[int, msgspec.Meta(ge=5, le=600)] = 15
    tls: TlsConfig | None = None
    # the table controller's second connection, for its events, on a broker with accounts
    # (docs/mqtt-api.md, "Busy and stale commands"); its password file defaults to
    # password_file
    events_username: str | None = None
    events_password_file: str | None = None

    def for_events(self) -> BrokerConfig | None:
        """The account of a second connection that carries only events: the same one on a
        broker without accounts, ``events_username`` on one with them (a broker that names each
        client after its account throws the first connection off for a second one of the same
        account); None when it has accounts and none is given for events."""
        if self.username is None:
            return self
        if self.events_username is None:
            return None
        return msgspec.structs.replace(
            self, username=self.events_username,
            password_file=self.events_password_file or self.password_file)


def configure_client(client: mqtt.Client, broker: BrokerConfig) -> None:
    """Credentials, TLS and no-delay sockets from the ``[broker]`` config, for any client.

    The password is read from its file here and handed to paho only; it is never logged.
    """
    if broker.username is not None:
        password = None
        if broker.password_file is not None:
            password = Path(broker.password_file).read_text(encoding="utf-8").strip()
        client.username_pw_set(broker.username, password)
    if broker.tls is not None:
        client.tls_set(ca_certs=broker.tls.ca_file, certfile=broker.tls.cert_file,
                       keyfile=broker.tls.key_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.on_socket_open = no_delay


def no_delay(client: mqtt.Client, userdata: object, sock: object) -> None:
    """Turn off Nagle's algorithm on the broker connection (TCP only; a no-op for others):
    paho's ``on_socket_open``. Without it a small publish that follows another unacknowledged
    packet (a PUBACK for a message received) waits for the broker's delayed ACK, up to 40 ms."""
    if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class LoopDriver:
    """A paho client's network driven from an asyncio loop, with no thread of paho's own
    (paho's external-loop interface: ``loop_read`` when its socket is readable,
    ``loop_write`` while it has bytes to send, ``loop_misc`` every second for the keepalive).

    With ``loop_start`` every message crossed from paho's thread to the loop
    (``call_soon_threadsafe``: the loop's self-pipe, a wake-up of the other thread and the
    GIL handed over between them); here paho's callbacks run on the loop itself, inside
    ``loop_read``, and ``after`` (the owner's: e.g. what those callbacks handed over) runs
    right after each of paho's steps, on the same turn, outside paho's locks. A publish made
    on the loop is written at once (paho writes itself when no write callback is set); what
    is left (the socket full) is written when the socket is writable again.

    Only the connect runs on a thread (the default executor): a broker that does not answer
    would hold the loop for the connect's timeout, and a TLS handshake is blocking. The loop
    takes the socket once it is connected. After a drop, connects again after ``delays``
    (the first, doubled at each failure up to the second; the first again once connected).
    The client's ``on_socket_close`` is this driver's; set ``on_socket_open`` (the no-delay
    socket, ``configure_client``) as usual.

        driver = LoopDriver(client, host, port, keepalive, after=drain)
        driver.start(loop)     # connects, and again after every drop
        client.publish(...)    # on the loop: written now
        driver.stop()          # off the broker
    """

    def __init__(self, client: mqtt.Client, host: str, port: int, keepalive: int, *,
                 after: Callable[[], None] = lambda: None,
                 delays: tuple[float, float] = (1.0, 5.0)):
        self.client, self._after, self._delays = client, after, delays
        self._address = (host, port, keepalive)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None  # the loop's thread
        self._task: asyncio.Task[None] | None = None
        self._fd: int | None = None  # the socket the loop watches now
        self._misc: asyncio.TimerHandle | None = None
        self._closed: asyncio.Future[None] | None = None
        client.on_socket_close = self._socket_closed

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Connect from ``loop`` (call it on that loop's thread), and again after each drop."""
        self._loop, self._thread = loop, threading.get_ident()
        self.client.connect_async(*self._address)
        self._task = loop.create_task(self._connected_until_stopped())

    def stop(self) -> None:
        """Off the broker: no more connects, a DISCONNECT sent and the socket closed (on the
        loop's thread)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.client.disconnect()
        self._forget()

    @property
    def on_loop(self) -> bool:
        """Whether the caller runs on the loop's thread (where paho's callbacks run, but for
        the connect's)."""
        return self._thread == threading.get_ident()

    def step(self, paho_step: Callable[[], object] | None = None) -> None:
        """One of paho's steps (if the socket is still the loop's), then ``after``, then
        ``flush``."""
        if paho_step is not None and self._fd is not None:
            paho_step()
            sock = self.client.socket()
            while isinstance(sock, ssl.SSLSocket) and sock.pending() and self._fd is not None:
                # bytes of a TLS record already taken off the socket: no readiness of the
                # socket will announce them (paho's own loop checks the same)
                self.client.loop_read()
        self._after()
        self.flush()

    def flush(self) -> None:
        """What paho has left to write written now, or the socket watched until it can take
        it (after a publish on the loop: paho wrote what it could itself)."""
        if self._fd is not None and self.client.want_write():
            self.client.loop_write()
        if self._fd is None:
            return
        assert self._loop is not None
        if self.client.want_write():
            self._loop.add_writer(self._fd, self.step, self.client.loop_write)
        else:
            self._loop.remove_writer(self._fd)

    async def _connected_until_stopped(self) -> None:
        assert self._loop is not None
        loop, delay = self._loop, self._delays[0]
        while True:
            connecting = loop.run_in_executor(None, self.client.reconnect)
            try:
                await asyncio.shield(connecting)
            except asyncio.CancelledError:  # stopped while connecting: closed once connected
                connecting.add_done_callback(self._too_late)
                raise
            except OSError:  # refused, unreachable, timed out, the TLS handshake failed
                await asyncio.sleep(delay)
                delay = min(2 * delay, self._delays[1])
                continue
            sock = self.client.socket()
            if sock is not None:
                self._closed = loop.create_future()
                self._fd = sock.fileno()
                loop.add_reader(self._fd, self.step, self.client.loop_read)
                self._misc = loop.call_later(1.0, self._keep_alive)
                self.step()
                await self._closed
                delay = self._delays[0]  # a drop: the shortest wait first
            await asyncio.sleep(delay)

    def _too_late(self, connecting: asyncio.Future[mqtt.MQTTErrorCode]) -> None:
        """A connect that ends after ``stop``: its socket closed at once."""
        if not connecting.cancelled() and connecting.exception() is None:
            self.client.disconnect()

    def _keep_alive(self) -> None:
        assert self._loop is not None
        self.step(self.client.loop_misc)
        if self._fd is not None:
            self._misc = self._loop.call_later(1.0, self._keep_alive)

    def _socket_closed(self, client: mqtt.Client, userdata: object, sock: object) -> None:
        """paho's ``on_socket_close``: the loop stops watching it (on the loop's thread; from
        the connect's thread, handed over)."""
        if not self.on_loop and self._loop is not None:
            self._loop.call_soon_threadsafe(self._forget)
        else:
            self._forget()

    def _forget(self) -> None:
        if self._fd is not None and self._loop is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(self._fd)
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_writer(self._fd)
        self._fd = None
        if self._misc is not None:
            self._misc.cancel()
            self._misc = None
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)
