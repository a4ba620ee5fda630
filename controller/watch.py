"""``mafia-table watch``: a table's MQTT traffic, decoded, one line per message.

For technicians at the table. It is an ordinary client of the API (it decodes with the types of
``contract.api``: an event's envelope, and the event itself as the core's type), so it also
shows what a rules core would see: events with their ``seq`` (a gap is called out, a duplicate
by ``id`` is skipped), the table state as a row of lights, status, health and command replies.
An observer account is enough for it.
"""

from __future__ import annotations

import signal
import sys
from datetime import datetime
from typing import TextIO

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract import api, events
from contract.event_seq import missed
from contract.topics import topic_prefix
from kit.mqtt import BrokerConfig, configure_client


def _journal_alarm(journal: api.JournalHealth | None) -> str:
    """What a technician must know about the journal, when anything is wrong with it."""
    if journal is None or journal.ok:
        return ""
    trouble = [*journal.problems, *(f"moved aside: {path}" for path in journal.moved_aside)]
    if journal.held:
        trouble.append(f"{journal.held} events held in memory (at most {journal.hold_limit})")
    if journal.dropped:
        trouble.append(f"{journal.dropped} events REFUSED")
    return "   << JOURNAL: " + "; ".join(trouble)


def _clock(ts: str) -> str:
    """``2026-11-29T21:22:15.481Z`` -> local ``21:22:15.481``."""
    moment = datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone()
    return moment.strftime("%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


def _light(seat: api.SeatState) -> str:
    mode = seat.light.mode
    return f"{seat.seat}:{mode}" + (seat.light.color or "" if mode != "off" else "")


class Watcher:
    """Turns messages into lines; remembers seq and ids to call out gaps and skip duplicates."""

    def __init__(self) -> None:
        self.last_seq = 0
        self._ids: set[str] = set()

    def line(self, suffix: str, payload: bytes) -> str | None:
        """The line for a message on ``mafia/<table>/<suffix>``, or None to show nothing."""
        try:
            return self._line(suffix, payload)
        except (msgspec.DecodeError, ValueError) as exc:
            return f"?            {suffix}: not a valid {suffix.split('/')[0]} message ({exc})"

    def _line(self, suffix: str, payload: bytes) -> str | None:
        kind, _, rest = suffix.partition("/")
        if kind == "event" and rest in api.EVENT_TYPES:
            event = msgspec.json.decode(payload, type=api.EVENT_TYPES[rest])
            stamp = msgspec.json.decode(payload, type=api.Envelope)
            if stamp.id in self._ids:
                return None
            self._ids.add(stamp.id)
            gap = ""
            if gone := missed(self.last_seq, stamp.seq):
                gap = f"   << missed seq {gone.start}..{gone.stop - 1}"
            self.last_seq = max(self.last_seq, stamp.seq)
            return f"{_clock(stamp.ts)}  #{stamp.seq:<6} {_describe(event, rest)}{gap}"
        if suffix == "status":
            status = msgspec.json.decode(payload, type=api.Status)
            return (f"{_clock(status.ts)}  status  {status.state.upper()} "
                    f"(v{status.version}, boot {status.boot_id})")
        if suffix == "state":
            state = msgspec.json.decode(payload, type=api.State)
            lights = " ".join(_light(seat) for seat in state.seats)
            return f"{_clock(state.ts)}  state   {state.phase} | {lights}"
        if suffix == "health":
            health = msgspec.json.decode(payload, type=api.Health)
            box = health.outbox
            alarm = "   << OVER LIMIT: the broker has been away" if box.over_limit else ""
            return (f"{_clock(health.ts)}  health  outbox {box.depth}/{box.limit}{alarm}"
                    f"{_journal_alarm(health.journal)}")
        if kind == "reply":
            reply = msgspec.json.decode(payload, type=api.Reply)
            outcome = "ok" if reply.ok else f"REFUSED: {reply.error}"
            return f"{_clock(reply.ts)}  reply   {rest} {reply.id}: {outcome}"
        if kind in ("cmd", "sim"):
            return f"             {suffix} {payload.decode(errors='replace')}"
        return None


def _seats(seats: list[int]) -> str:
    return " ".join(map(str, seats)) or "-"


def _describe(event: events.Event, kind: str) -> str:
    """The readable part of an event line."""
    match event:
        case events.SeatButtonEvent():
            return f"seat {event.seat} {kind.split('/')[1]}"
        case events.KeyEvent():
            return f"seat {event.seat} key {event.key}"
        case events.EntryEvent():
            return f"seat {event.seat} ENTERED {event.value}"
        case events.JudgeButtonEvent():
            return f"judge {event.button} {kind.split('/')[1]}"
        case events.TimerEvent():
            holder = "night" if event.seat is None else f"seat {event.seat}"
            return (f"timer {holder} {event.kind} {event.state.upper()} "
                    f"({event.remaining_ms / 1000:.1f} s left)")
        case events.NominationEvent():
            reason = f" ({event.reason})" if event.reason else ""
            return f"seat {event.by} nominates {event.seat}: {event.outcome.upper()}{reason}"
        case events.DayEvent():
            return f"DAY {event.day} begins"
        case events.SeatsEvent():
            return "standings: " + ", ".join(
                f"{s.seat} " + ("out" if not s.in_game else f"{s.fouls} fouls"
                                + (" silenced" if s.silenced else "")
                                + (" immune" if s.immune else "")) for s in event.seats)
        case events.VoteStarted():
            return (f"vote {event.session}: {event.kind} {_seats(event.candidates)}, voters "
                    f"{_seats(event.voters)} ({event.pacing})")
        case events.VoteWindow():
            return f"vote {event.session}: window {event.state} for {event.candidate}"
        case events.VoteProposed():
            flags = ", ".join(f"{a.seat} {a.kind}" for a in event.anomalies)
            leftover = f" + leftover {_seats(event.leftover)}" if event.leftover else ""
            return (f"vote {event.session}: PROPOSED {event.candidate} <- {event.count} "
                    f"({_seats(event.voters)}{leftover})" + (f"  !! {flags}" if flags else ""))
        case events.VoteConfirmed():
            reason = f" because {event.reason}" if event.reason else ""
            return (f"vote {event.session}: CONFIRMED {event.candidate} <- {event.count} "
                    f"by {event.by}{reason}")
        case events.VoteResult():
            named = (event.eliminated if event.outcome == "eliminated"
                     else _seats(event.tied) if event.tied else event.reason or "")
            return f"vote {event.session}: RESULT {event.outcome} {named}".rstrip()
    return f"{kind} ({getattr(event, 'session', '')})"


def watch(broker: BrokerConfig, table: str, out: TextIO = sys.stdout) -> int:
    """Print the table's traffic until SIGINT or SIGTERM; 0 then, 1 if the broker refuses us."""
    prefix = topic_prefix(table)
    watcher = Watcher()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    configure_client(client, broker)
    outcome = {"code": 0}

    def on_connect(client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            print(f"broker refused the connection: {reason_code}", file=sys.stderr)
            outcome["code"] = 1
            client.disconnect()
            return
        print(f"watching {prefix}# on {broker.host}:{broker.port}", file=out, flush=True)
        client.subscribe(prefix + "#", qos=1)

    def on_message(client, userdata, message) -> None:
        line = watcher.line(message.topic.removeprefix(prefix), message.payload)
        if line is not None:
            print(line, file=out, flush=True)

    client.on_connect = on_connect
    client.on_message = on_message
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: client.disconnect())
    print(f"connecting to {broker.host}:{broker.port} as "
          f"{broker.username or 'an anonymous client'}...", file=out, flush=True)
    client.connect_async(broker.host, broker.port, keepalive=broker.keepalive)
    client.loop_forever(retry_first_connection=True)
    return outcome["code"]
