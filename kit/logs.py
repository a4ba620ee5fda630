"""Logging for the long-running commands (``mafia-table run``, ``sim``, ``judge``): to stderr,
in journald's format under systemd.

Under systemd (``JOURNAL_STREAM`` set) each line is ``<6>controller.service: message``:
journald reads the priority and adds the time itself; elsewhere each line has its time and
level. paho's chatter is kept to warnings unless ``verbose``.
"""

from __future__ import annotations

import logging
import os
import sys

#: syslog priorities for systemd's stderr prefix (``<3>error``), see sd-daemon(3).
_SD_PRIORITY = {"DEBUG": 7, "INFO": 6, "WARNING": 4, "ERROR": 3, "CRITICAL": 2}


class _JournalFormatter(logging.Formatter):
    """``<6>controller.service: message``: journald reads the priority and adds the time."""

    def format(self, record: logging.LogRecord) -> str:
        return f"<{_SD_PRIORITY.get(record.levelname, 6)}>{super().format(record)}"


def setup_logging(verbose: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(_JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[handler],
                        force=True)
    if not verbose:
        logging.getLogger("paho").setLevel(logging.WARNING)


def worth_logging(count: int) -> bool:
    """Whether the ``count``-th of a kind of refusal is logged: the first, the 10th, the 100th...
    (each with the count so far), so a client refused in a loop cannot fill the log."""
    while count % 10 == 0:
        count //= 10
    return count == 1
