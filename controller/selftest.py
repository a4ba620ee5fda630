"""``mafia-table selftest``: a guided check of a freshly wired table, seat by seat.

It is a client of the running controller, over the same MQTT API a rules core uses, so it checks
the whole path from a contact to the broker. For every seat it lights the seat and asks the
technician whether the light is on (each colour of an RGB light), asks for the vote button and
then each keypad key, and reports what went wrong: a press that came from another seat (two
seats' wires swapped), a key that never came or came as another key (a keypad row or column
miswired), a light that stays dark. Then the judge station, the consoles (not answering, or
refused for an old protocol), and the speaker (a tone and a spoken number, heard or not). A
summary table ends it; the exit status is non-zero when anything failed.

``Selftest`` holds the procedure; it talks to a ``Technician`` (the terminal for a person; a
script in the tests) and to a ``TableClient`` (MQTT).
"""

from __future__ import annotations

import itertools
import json
import queue
import time
from dataclasses import dataclass
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract import events
from contract.buttons import JUDGE_BUTTON_NAMES, JudgeButton, SeatButton
from contract.topics import topic_prefix
from controller.config import Config
from kit.mqtt import configure_client

KEYS = "123456789*0#"
COLOURS = {"red": "#ff0000", "green": "#00ff00", "blue": "#0000ff"}


class SelftestError(Exception):
    """The check cannot run: no controller, a game going on, a refused command."""


@dataclass(frozen=True)
class Press:
    """An instruction to press one thing; the check then waits for its event."""

    text: str
    seat: int | None = None
    key: str | None = None  # a keypad key of ``seat``
    judge: str | None = None


@dataclass(frozen=True)
class Question:
    """A yes/no question about what the technician sees or hears."""

    text: str
    seat: int | None = None
    colour: str | None = None  # a light question: the colour asked for, None: white / any
    sound: str | None = None  # a sound question: "tone" or "number"


class Technician(Protocol):
    def press(self, step: Press) -> None: ...

    def ask(self, question: Question) -> bool: ...

    def tell(self, text: str) -> None: ...


@dataclass(frozen=True)
class Finding:
    part: str  # "seat 3", "console[0]", "judge", "speaker"
    check: str  # "light", "button", "key 7", ...
    ok: bool
    detail: str = ""


class TableClient:
    """Commands to the table and its events, in arrival order, over MQTT."""

    def __init__(self, config: Config, timeout: float):
        self.prefix = topic_prefix(config.table)
        self.timeout = timeout
        self.messages: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self.latest: dict[str, dict[str, Any]] = {}  # status, state, health
        self._ids = itertools.count(1)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5,
                                  client_id=f"mafia-selftest-{config.table}")
        configure_client(self.client, config.broker)
        self.refused: str | None = None  # why the broker would not let us in
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        try:
            self.client.connect(config.broker.host, config.broker.port,
                                keepalive=config.broker.keepalive)
        except OSError as exc:
            raise SelftestError(f"no broker at {config.broker.host}:{config.broker.port}: "
                                f"{exc}") from None
        self.client.loop_start()

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = str(reason_code)
            client.disconnect()
            return
        client.subscribe(self.prefix + "#", qos=1)

    def _on_message(self, client, userdata, message) -> None:
        try:
            body = json.loads(message.payload)
        except ValueError:
            return
        topic = message.topic.removeprefix(self.prefix)
        if topic in ("status", "state", "health"):
            self.latest[topic] = body
        self.messages.put((topic, body))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def drain(self) -> None:
        """Forget what came so far: the next ``next_event`` is something newer."""
        while not self.messages.empty():
            self.messages.get_nowait()

    def next_event(self, topics: tuple[str, ...], timeout: float) -> tuple[str, dict] | None:
        """The next message on one of ``topics`` (``event/...``), or None after ``timeout``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                topic, body = self.messages.get(timeout=left)
            except queue.Empty:
                return None
            if topic in topics:
                return topic, body
        return None

    def wait_latest(self, topic: str) -> dict[str, Any]:
        """The newest ``status``, ``state`` or ``health`` (retained: there from the start)."""
        deadline = time.monotonic() + self.timeout
        while topic not in self.latest:
            if self.refused is not None:
                raise SelftestError(f"the broker refused the connection: {self.refused} "
                                    "(check --username and --password-file)")
            if time.monotonic() > deadline:
                raise SelftestError(f"the controller published no {topic!r}: is it running "
                                    f"for table {self.prefix.split('/')[1]!r}?")
            time.sleep(0.05)
        return self.latest[topic]

    def command(self, verb: str, **fields: Any) -> None:
        """``cmd/<verb>`` and its reply; a refusal is a ``SelftestError``."""
        id = f"selftest-{next(self._ids)}"
        self.client.publish(f"{self.prefix}cmd/{verb}", json.dumps({"id": id, **fields}), qos=1)
        reply = self.next_event((f"reply/{verb}",), self.timeout)
        while reply is not None and reply[1].get("id") != id:
            reply = self.next_event((f"reply/{verb}",), self.timeout)
        if reply is None:
            raise SelftestError(f"cmd/{verb}: no reply from the controller (is this account "
                                "allowed to send commands? the shipped ACL lets technician "
                                "and rules-core)")
        if not reply[1]["ok"]:
            raise SelftestError(f"cmd/{verb}: {reply[1]['error']}")


class Selftest:
    """The procedure: ``run`` returns every finding, good and bad."""

    def __init__(self, config: Config, technician: Technician, table: TableClient, *,
                 press_timeout: float = 15.0, seats: list[int] | None = None):
        self.config = config
        self.tech = technician
        self.table = table
        self.press_timeout = press_timeout
        self.seats = seats or list(range(1, config.seats + 1))
        self.findings: list[Finding] = []

    def note(self, part: str, check: str, ok: bool, detail: str = "") -> None:
        self.findings.append(Finding(part, check, ok, detail))
        self.tech.tell(f"  {part} {check}: " + ("ok" if ok else f"FAULT: {detail}"))

    def run(self) -> list[Finding]:
        status = self.table.wait_latest("status")
        if status.get("state") != "online":
            raise SelftestError("the controller is offline")
        state = self.table.wait_latest("state")
        if state["phase"] != "idle" or state.get("timer") is not None:
            raise SelftestError(f"a game is going on (phase {state['phase']}); check the table "
                                "between games")
        self.tech.tell(f"selftest of table {self.config.table}: seats "
                       f"{', '.join(map(str, self.seats))}, then the judge station and the "
                       f"speaker. Press what is asked within {self.press_timeout:g} s.")
        self.consoles(self.table.wait_latest("health"))
        # the lights the rules core set stay as they were: each seat gets its own back
        before = [{"seat": seat["seat"], **(seat["manual"] or {"mode": "auto"})}
                  for seat in state["seats"]]
        self.table.command("light", lights=[{"seat": s["seat"], "mode": "off"} for s in before])
        try:
            for seat in self.seats:
                self.seat(seat)
            self.judge()
            self.speaker()
        finally:
            self.table.command("light", lights=before)
        return self.findings

    # ------------------------------------------------------------------ the parts

    def consoles(self, health: dict[str, Any]) -> None:
        for i, console in enumerate(health.get("consoles", [])):
            part = f"console[{i}]"
            if console["refused"]:
                self.note(part, "protocol", False, f"{console['port']}: {console['refused']}")
            elif not console["online"]:
                self.note(part, "link", False, f"{console['port']} does not answer (plugged in? "
                                               "flashed?)")
            else:
                self.note(part, "link", True, f"firmware {console['firmware']}")

    def seat(self, seat: int) -> None:
        part = f"seat {seat}"
        self.tech.tell(f"seat {seat}")
        wiring = next((w for w in self.config.gpio.seat if w.seat == seat), None)
        console = next((c for c in self.config.console if seat in c.seats), None)
        # the seat's public light: its GPIO LED if it has one (white, or each colour of an RGB
        # one), else its LEDs on the strip, else its console's RGB light
        on_strip = self.config.strip is not None and any(
            s.seat == seat for s in self.config.strip.seat)
        colours: list[str | None] = list(COLOURS) if console is not None or on_strip else []
        if wiring is not None and wiring.light is not None:
            colours = [None]
        elif wiring is not None and wiring.rgb is not None:
            colours = list(COLOURS)
        dark = []
        for colour in colours:
            self.table.command("light", lights=[{"seat": seat, "mode": "on",
                                                 **({"color": COLOURS[colour]} if colour else {})}])
            name = f"{colour} " if colour else ""
            if not self.tech.ask(Question(f"Is seat {seat}'s light {name}on (and no other "
                                          "seat's)?", seat=seat, colour=colour)):
                dark.append(colour or "white")
        if colours:
            self.note(part, "light", not dark, f"stays dark for {', '.join(dark)}" if dark else "")
        if SeatButton(seat) in self.config.vote_buttons():
            self.button(seat)
        if console is not None:
            self.keypad(seat)
        self.table.command("light", lights=[{"seat": seat, "mode": "off"}])

    def button(self, seat: int) -> None:
        self.table.drain()
        self.tech.press(Press(f"Press and release seat {seat}'s vote button.", seat=seat))
        got = self.table.next_event((events.topic(events.SeatPress),), self.press_timeout)
        if got is None:
            self.note(f"seat {seat}", "button", False, "no press came")
        elif got[1]["seat"] != seat:
            self.note(f"seat {seat}", "button", False,
                      f"the press came from seat {got[1]['seat']}: wires of seats {seat} and "
                      f"{got[1]['seat']} swapped?")
        else:
            self.note(f"seat {seat}", "button", True, got[1]["source"])

    def keypad(self, seat: int) -> None:
        faults = []
        for key in KEYS:
            self.table.drain()
            self.tech.press(Press(f"Press key {key} on seat {seat}'s keypad.", seat=seat,
                                  key=key))
            got = self.table.next_event((events.topic(events.KeyEvent),), self.press_timeout)
            if got is None:
                faults.append(f"key {key} missing")
            elif got[1]["seat"] != seat:
                faults.append(f"key {key} came from seat {got[1]['seat']}")
            elif got[1]["key"] != key:
                faults.append(f"key {key} came as {got[1]['key']} (row or column miswired?)")
        if len(faults) == len(KEYS) and all(f.endswith("missing") for f in faults):
            faults = ["no key came (keypad unplugged, or its console not answering?)"]
        self.note(f"seat {seat}", "keypad", not faults, "; ".join(faults))

    def judge(self) -> None:
        for name in JUDGE_BUTTON_NAMES:
            if JudgeButton(name) not in self.config.vote_buttons():  # on GPIO or an expander
                continue
            self.table.drain()
            self.tech.press(Press(f"Press and release the judge's {name.title()} button.",
                                  judge=name))
            got = self.table.next_event(
                (events.topic(events.JudgePress), events.topic(events.SeatPress)),
                self.press_timeout)
            if got is None:
                self.note("judge", name, False, "no press came")
            elif got[1].get("button") != name:
                came = got[1].get("button") or f"seat {got[1].get('seat')}"
                self.note("judge", name, False, f"the press came from {came}")
            else:
                self.note("judge", name, True)

    def speaker(self) -> None:
        audio = self.table.wait_latest("health").get("audio")
        if audio is not None and (audio["backend"] == "off" or not audio["ok"]):
            self.note("speaker", "sound", False, "; ".join(audio["problems"])
                      or "audio is off in the config")
            return
        for sound, fields, text in (("tone", {"cue": "warning"}, "a tone"),
                                    ("number", {"say": 7}, "the number seven spoken")):
            self.table.command("audio", **fields)
            heard = self.tech.ask(Question(f"Did you hear {text}?", sound=sound))
            self.note("speaker", sound, heard, "" if heard else "not heard")


def summary(findings: list[Finding]) -> str:
    """The table printed at the end: one row per part, its checks, its faults."""
    parts: dict[str, list[Finding]] = {}
    for finding in findings:
        parts.setdefault(finding.part, []).append(finding)
    width = max((len(p) for p in parts), default=4)
    lines = [f"{'part'.ljust(width)}  result  checks"]
    for part, found in parts.items():
        bad = [f for f in found if not f.ok]
        checks = ", ".join(f.check for f in found)
        lines.append(f"{part.ljust(width)}  {'FAULT ' if bad else 'ok    '}  {checks}")
        lines += [f"{''.ljust(width)}          {f.check}: {f.detail}" for f in bad]
    faults = sum(not f.ok for f in findings)
    lines.append(f"{faults} fault(s)" if faults else "no faults")
    return "\n".join(lines) + "\n"


class TerminalTechnician:
    """A person at the table, reading instructions and answering y/n on the terminal."""

    def press(self, step: Press) -> None:
        print(f"> {step.text}", flush=True)

    def ask(self, question: Question) -> bool:
        while True:
            answer = input(f"? {question.text} [y/n] ").strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            print("  answer y or n")

    def tell(self, text: str) -> None:
        print(text, flush=True)
