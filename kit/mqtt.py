"""The MQTT client set-up every service of the project shares: the broker's config section
and what it makes of a paho client.

``BrokerConfig`` is the ``[broker]`` section of the table's config and of the judge's (and
what ``watch``, ``selftest`` and the start-up check build from flags); ``configure_client``
gives any paho 2.x client its account, TLS and no-delay socket from it.
"""

from __future__ import annotations

import socket
import ssl
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
