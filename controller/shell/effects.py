"""The one place each effect of the core is performed.

``perform`` matches every effect type of ``controller.core.effects`` to the adapter that carries
it out: events to the outbox, ``state`` and the running vote to the journal (and ``state`` to the
broker, retained), lights to every seat-light backend, cues and music to the speaker, replies to the
intake, and the simulator's hands (``DrivePin``, ``TypeKeys``). A device that is not open yet
(before ``start``) or not configured skips what is meant for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from controller.core.effects import (
    AudioControl,
    CancelCues,
    Cue,
    DrivePin,
    Emit,
    Indicate,
    Music,
    PublishState,
    Reply,
    SetLight,
    TypeKeys,
)
from controller.core.performed import Performed, PersistSession
from controller.journal import Journal
from controller.messages import MessageFactory
from controller.mqtt_link import MqttLink
from controller.shell import restore
from controller.shell.hands import SimulatedHand
from controller.shell.outbox import Outbox
from controller.shell.wiring import Devices


class EffectPerformer:
    """Performs effects on the loop thread (``perform`` is the loop's ``perform``)."""

    def __init__(self, *, outbox: Outbox, store: Journal, messages: MessageFactory,
                 mqtt: MqttLink, devices: Devices, reply: Callable[[Reply], None],
                 hand: SimulatedHand):
        self._outbox = outbox
        self._store = store
        self._messages = messages
        self._mqtt = mqtt
        self._devices = devices
        self._reply = reply
        self._hand = hand

    def perform(self, effect: Performed) -> None:
        """Every effect but ``WakeAt`` (the loop's own); the match is exhaustive: an effect
        nobody performs is a type error (mypy), never a silent drop."""
        devices = self._devices
        match effect:
            case Emit():
                self._outbox.emit(effect)
            case PublishState():
                document = self._messages.state(effect.snapshot)
                restore.save_state(self._store, document)
                self._mqtt.retain("state", document)
            case PersistSession():
                restore.save_session(self._store, effect.session, effect.night_step)
            case SetLight():
                devices.show(effect.seat, effect.light)
            case Reply():
                self._reply(effect)
            case DrivePin():
                self._hand.press(effect.button, effect.pressed)
            case Cue():
                if devices.cues is not None:
                    devices.cues.add(effect)
            case CancelCues():
                if devices.cues is not None:
                    devices.cues.cancel(effect)
            case Indicate():
                for link in devices.links:
                    link.indicate(effect.seat, effect.pattern)
            case Music():
                if devices.speaker is not None:
                    devices.speaker.night(effect.on)
            case AudioControl():
                if devices.speaker is not None:
                    if effect.volume is not None:
                        devices.speaker.set_volume(effect.volume)
                    if effect.next_track:
                        devices.speaker.next_track()
            case TypeKeys():
                self._hand.type(effect.seat, effect.keys)
            case _:
                assert_never(effect)
