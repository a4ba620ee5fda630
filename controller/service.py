"""The service: wires the GPIO board and the MQTT link to the core through the event loop.

This is the imperative shell of DESIGN.md section 4. It owns the devices and the connection,
turns their happenings into inputs, and performs the core's effects. Nothing here decides
anything about the game.
"""

from __future__ import annotations

import logging
import uuid

from controller.clock import Clock, SystemClock
from controller.config import Config
from controller.core.effects import DrivePin, Effect, Emit, PublishState, Reply, SetLight
from controller.core.inputs import CommandReceived
from controller.core.table import TableSetup, initial_state, start
from controller.loop import EventLoop
from controller.messages import MessageFactory
from controller.mqtt_link import MqttLink
from hardware.gpio import GpioBoard, make_pin_factory

log = logging.getLogger(__name__)


def topic_prefix(table: str) -> str:
    return f"mafia/{table}/"


class Service:
    """One running table. ``start`` opens the devices and the broker link, ``run_loop`` blocks
    applying inputs until ``stop``; ``run`` does both and always shuts down cleanly."""

    def __init__(self, config: Config, *, clock: Clock | None = None,
                 boot_id: str | None = None):
        self.config = config
        self.clock = clock or SystemClock()
        self.boot_id = boot_id or uuid.uuid4().hex[:12]
        wired = config.wired_buttons()
        simulated = config.backends.gpio == "mock"
        setup = TableSetup(
            table=config.table,
            seats=config.seats,
            wired=frozenset(wired),
            debounce=config.gpio.debounce_ms / 1000,
            simulated=simulated,
        )
        self.messages = MessageFactory(boot_id=self.boot_id, clock=self.clock)
        self.loop = EventLoop(initial_state(setup), clock=self.clock, perform=self._perform)
        self.prefix = topic_prefix(config.table)
        self.mqtt = MqttLink(
            config.broker,
            prefix=self.prefix,
            client_id=f"mafia-table-{config.table}",
            subscriptions=["cmd/#", *(["sim/#"] if simulated else [])],
            will=self.messages.status(online=False),
            on_message=self._on_message,
        )
        self.factory = make_pin_factory(config.backends.gpio)
        self.gpio: GpioBoard | None = None

    def start(self) -> None:
        """Open the GPIO parts and start connecting to the broker (in the background)."""
        self.gpio = GpioBoard(self.config, factory=self.factory, now=self.clock.monotonic,
                              submit=self.loop.submit)
        log.info("table %s: %d seats; %s", self.config.table, self.config.seats,
                 self.gpio.describe())
        self.mqtt.retain("status", self.messages.status(online=True))
        self.mqtt.start()

    def run_loop(self) -> None:
        """Apply inputs until ``stop``; first bring lights and ``state`` in line with the core."""
        self.loop.run(start(self.loop.state))

    def run(self) -> None:
        try:
            self.start()
            self.run_loop()
        finally:
            self.shutdown()

    def stop(self) -> None:
        """Ask the service to stop (thread-safe; from a signal handler too)."""
        self.loop.stop()

    def shutdown(self) -> None:
        """Lights off, ``offline`` on ``status``, disconnect, release the pins."""
        if self.gpio is not None:
            self.gpio.close()
            self.gpio = None
        self.mqtt.stop(self.messages.status(online=False))
        self.factory.close()
        log.info("table %s stopped", self.config.table)

    def _on_message(self, suffix: str, payload: bytes, response_topic: str | None,
                    correlation: bytes | None) -> None:
        verb = suffix.removeprefix("cmd/")
        self.loop.submit(CommandReceived(verb, payload, self.clock.monotonic(),
                                         response_topic or None, correlation))

    def _perform(self, effect: Effect) -> None:
        match effect:
            case Emit():
                self.mqtt.publish("event/" + effect.kind, self.messages.event(effect))
            case PublishState():
                self.mqtt.retain("state", self.messages.state(effect.snapshot))
            case SetLight():
                if self.gpio is not None:
                    self.gpio.show(effect.seat, effect.light)
            case Reply():
                if not effect.ok:
                    log.warning("command %s (id %s) refused: %s", effect.verb, effect.id,
                                effect.error)
                topic = effect.response_topic or f"{self.prefix}reply/{effect.verb}"
                self.mqtt.reply(topic, self.messages.reply(effect), effect.correlation)
            case DrivePin():
                if self.gpio is not None:
                    self.gpio.drive(effect.button, effect.pressed)
