"""The whole table service in the test's process: its loop on a thread, its pins gpiozero's
mock ones, against the test's real broker."""

from __future__ import annotations

import threading

from controller.service import Service
from tests.support.mqtt import Subscriber, with_json


class Running:
    """A service with its loop on a thread; ``close`` stops it and waits."""

    def __init__(self, config, **service_options):
        self.service = Service(config, boot_id="boot1", **service_options)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.service.start()
        self.thread.start()

    def _run(self) -> None:
        self.service.run_loop()

    def pin(self, number: int):
        return self.service.factory.pin(number)

    def close(self) -> None:
        if self.thread.is_alive():
            self.service.stop()
            self.thread.join(10)
        self.service.shutdown()


def online(sub: Subscriber, count: int = 1) -> None:
    """Wait until ``sub`` has seen table t1 say it is online ``count`` times."""
    sub.wait_for(with_json("mafia/t1/status", state="online"), count=count)
