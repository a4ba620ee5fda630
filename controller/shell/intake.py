"""Commands in from the broker, replies out to it.

paho's thread only hands a command to the loop, or refuses it at once (counted for
``health.commands`` rather than logged one by one): *stale* when its ``ts`` is older than the
core allows while the wall clock is synchronised, *busy* when the loop's bounded lane for it is
full (``sim/`` commands have a lane of their own, ahead of the others) or the controller is
stopping. A refusal is answered at QoS 0, and not at all to a command that came at QoS 0 (its
sender asked for no guarantee) nor beyond ``REFUSALS_ANSWERED`` a second (a flood of refusals
must not cost a flood of answers): both counted in ``unanswered``. ``cmd/replay`` is queued as a
call of its own (it reads the journal, not the table).

Each command with an ``id`` runs once (``controller.shell.repeats``, which the loop asks before it
applies one): a repeat (its sender sent it again, or a restarted broker delivered it again) gets
the first copy's reply, not a second run; counted in ``repeats``.

Replies go to the command's response topic (MQTT 5) or ``reply/<verb>``; a night command's reply
is private (when the night acts is a secret too). At most ``REPLY_WINDOW`` replies await the
broker's acknowledgement at once: the loop takes no more commands until some are acknowledged,
so the QoS 1 window keeps room for events.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from contract import api
from contract.commands import request_id, stale
from contract.inputs import CommandReceived
from contract.verbs import COMMANDS
from controller.core.effects import Reply
from controller.core.registry import HANDLERS
from controller.loop import COMMAND_QUEUE, EventLoop
from controller.messages import MessageFactory
from controller.mqtt_link import MqttLink
from controller.rate import TokenBucket
from controller.shell.repeats import RecentCommands

log = logging.getLogger(__name__)

#: The answer to a command that finds the command queue full (see ``controller.loop``).
BUSY = "busy: the controller has too many commands waiting; send it again later"
STOPPING = "busy: the controller is stopping; send it again when it is back online"
#: Command replies that may await the broker's acknowledgement at once: half of the 20 QoS 1
#: messages in flight that paho (and mosquitto's receive maximum) allow, the rest for events.
REPLY_WINDOW = 10
#: Refusals answered a second at most: a flood beyond the queue is thousands a second, and
#: answering each would cost the controller more than the flood itself; past this, a refused
#: command gets no answer (counted in ``unanswered``) and its sender sends it again.
REFUSALS_ANSWERED = 100


class CommandIntake:
    """Takes commands (``on_message``, paho's thread) and publishes replies (``reply``)."""

    def __init__(self, *, loop: EventLoop, mqtt: Callable[[], MqttLink],
                 messages: MessageFactory, prefix: str, now: Callable[[], float],
                 synchronized: Callable[[], bool | None],
                 replay: Callable[[CommandReceived], None], on_change: Callable[[], None],
                 recent: RecentCommands):
        """``mqtt``: the link, asked for when first needed (it is built with ``on_message``);
        ``synchronized``: whether the wall clock is; ``on_change``: refusals began or ended;
        ``recent``: the commands the loop has taken (``health.commands.repeats``)."""
        self._loop = loop
        self._mqtt = mqtt
        self._messages = messages
        self._prefix = prefix
        self._now = now
        self._synchronized = synchronized
        self._replay = replay
        self._on_change = on_change
        # commands answered busy or refused as stale since the start, the refusals of QoS 0
        # commands left unanswered, and whether the queue refuses right now (written on paho's
        # thread only)
        self.busy = 0
        self.stale = 0
        self.unanswered = 0
        self.refusing = False
        self._answering = TokenBucket(REFUSALS_ANSWERED, REFUSALS_ANSWERED, now())
        self._recent = recent
        # paho mids of replies the broker has not acknowledged yet (loop thread only)
        self._in_flight: set[int] = set()

    def health(self) -> api.CommandHealth:
        """``health.commands``."""
        return api.CommandHealth(queue_limit=COMMAND_QUEUE, refusing=self.refusing,
                                 busy=self.busy, stale=self.stale,
                                 unanswered=self.unanswered, repeats=self._recent.repeats)

    def take_commands(self) -> bool:
        """Whether the loop may take commands now: fewer than ``REPLY_WINDOW`` replies wait."""
        return len(self._in_flight) < REPLY_WINDOW

    def acked(self, mid: int) -> None:
        self._in_flight.discard(mid)

    def reconnected(self) -> None:
        self._in_flight.clear()  # the old connection's are resent or gone

    # paho's thread: only hand things to the loop

    def on_message(self, suffix: str, payload: bytes, response_topic: str | None,
                   correlation: bytes | None, qos: int = 1) -> None:
        cmd = CommandReceived(suffix.removeprefix("cmd/"), payload, self._now(),
                              response_topic or None, correlation)
        too_old = stale(payload, time.time()) if self._synchronized() else None
        work: CommandReceived | Callable[[], object] = cmd
        if too_old is not None:
            self.stale += 1
            log.warning("command %s refused: %s", cmd.verb, too_old)
            self._loop.call_soon(self._on_change)
            if qos == 0:
                self.unanswered += 1
                return
            work = lambda: self._too_old(cmd, too_old)  # noqa: E731 (unless it is a copy)
        elif _the_shells(cmd.verb):
            work = lambda: self._replay(cmd)  # noqa: E731
        if self._loop.submit_command(work, sim=cmd.verb.startswith("sim/")):
            if self.refusing:
                self.refusing = False
                log.info("commands accepted again (%d answered busy since the start)",
                         self.busy)
                self._loop.call_soon(self._on_change)
            return
        self.busy += 1
        if not self.refusing:
            self.refusing = True
            log.warning("command queue full (%d waiting) or stopping: commands are answered "
                        "busy until it has drained to half", self._loop.commands_waiting)
            self._loop.call_soon(self._on_change)
        self._refuse(cmd, STOPPING if self._loop.stopping else BUSY, qos)

    def _refuse(self, cmd: CommandReceived, error: str, qos: int) -> None:
        """A command refused before it was queued: answered at once, at QoS 0, unless it came
        at QoS 0 or ``REFUSALS_ANSWERED`` have been this second (then only counted)."""
        if qos == 0 or not self._answering.take(cmd.t):
            self.unanswered += 1
            return
        self.reply(Reply(cmd.verb, request_id(cmd.payload), False, error, cmd.response_topic,
                         cmd.correlation), at_once=True)

    def _too_old(self, cmd: CommandReceived, error: str) -> None:
        """On the loop thread: a stale command is refused, unless it is a copy of one accepted
        before it grew stale (its sender sent it again through an outage): that one's reply."""
        again = self._recent.repeat(cmd)
        self.reply(again or Reply(cmd.verb, request_id(cmd.payload), False, error,
                                  cmd.response_topic, cmd.correlation), at_once=again is None)

    def answer_unrun(self) -> None:
        """Commands still queued when the loop stopped are answered busy, not left silent."""
        for item in self._loop.unrun_commands():
            if isinstance(item, CommandReceived):
                self.reply(Reply(item.verb, request_id(item.payload), False, STOPPING,
                                 item.response_topic, item.correlation), at_once=True)

    def reply(self, reply: Reply, at_once: bool = False) -> None:
        """Publish a command's reply. ``at_once``: a refusal sent without queueing the command
        (busy, stale, stopping), at QoS 0, counted rather than logged here."""
        if not reply.ok and not at_once:
            log.warning("command %s (id %s) refused: %s", reply.verb, reply.id, reply.error)
        if reply.verb.startswith("night/"):  # when the night acts is a secret too
            topic = f"{self._prefix}private/reply/{reply.verb}"
        else:
            topic = reply.response_topic or f"{self._prefix}reply/{reply.verb}"
        mid = self._mqtt().reply(topic, self._messages.reply(reply), reply.correlation,
                                 qos=0 if at_once else 1)
        if not at_once:
            self._in_flight.add(mid)


def _the_shells(verb: str) -> bool:
    """A verb of the contract that the core has no handler for: ``cmd/replay``, the one
    command that reads the journal (``controller.shell.replay``)."""
    return verb in COMMANDS and verb not in HANDLERS
