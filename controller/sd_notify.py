"""Telling systemd how the service is: ``READY=1``, ``WATCHDOG=1``, ``STATUS=...``, ``STOPPING=1``.

The unit (``examples/mafia-table.service``) has ``Type=notify`` and ``WatchdogSec=``: systemd
counts the service started only when it says ``READY=1``, and kills and restarts it when no
``WATCHDOG=1`` arrives for ``WatchdogSec``. The protocol (sd_notify(3)) is one datagram per
message, ``KEY=value`` lines, sent to the ``AF_UNIX`` ``SOCK_DGRAM`` socket named by
``$NOTIFY_SOCKET`` (a path, or an abstract name written with a leading ``@``).
``$WATCHDOG_USEC`` gives the watchdog's period when it is on (for this process only, if
``$WATCHDOG_PID`` names another, it is not ours). Outside systemd there is no socket and every
call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class Notifier:
    """The service manager's notification socket, if there is one."""

    def __init__(self, environ: dict[str, str] | None = None):
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]
        self._address = address or None
        self._socket: socket.socket | None = None
        if self._address is not None:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        ours = not pid or pid == str(os.getpid())
        #: seconds between two ``WATCHDOG=1`` (half the watchdog's period), None when it is off
        self.watchdog_every: float | None = (
            int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 and ours else None)

    @property
    def enabled(self) -> bool:
        return self._socket is not None

    def notify(self, **fields: str) -> None:
        """Send ``KEY=value`` lines, e.g. ``notify(READY="1", STATUS="...")``. Never raises: a
        lost notification must not stop the table (systemd's watchdog then says so)."""
        if self._socket is None or self._address is None:
            return
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        try:
            self._socket.sendto(message, self._address)
        except OSError as exc:
            log.warning("cannot notify systemd at %r: %s", self._address, exc)

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
