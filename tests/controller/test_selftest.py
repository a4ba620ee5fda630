"""``mafia-table selftest`` against a simulated table whose config does not match its wiring.

The table as soldered is ``SMALL_TABLE`` with two consoles. The controller (and the selftest)
run with a config in which seats 1 and 2 are swapped, as a technician's typo would have it. A
scripted technician presses the parts of the seat they are asked for, as really wired (mock pins,
emulated consoles), answers what they see from the pins of the real lights, and "hears" from the
samples SDL's disk audio driver writes.
"""

from __future__ import annotations

import array
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller import config as config_module
from controller.selftest import COLOURS, Finding, Press, Question, Selftest, TableClient, summary
from tests.support.paths import REPO
from tests.support.running import Running, online
from tests.support.table_configs import CONSOLES, SMALL_TABLE, write_config
from tests.support.waiting import until

BUTTONS = {1: 4, 2: 17, 3: 27}  # as soldered
LIGHTS = {1: (18,), 2: (22, 23, 24), 3: (25,)}
JUDGE = {"confirm": 9, "reject": 10, "next": 11}
SWAPPED = (SMALL_TABLE.replace("button = 4\n    light = 18",
                               "button = 17\n    rgb = [22, 23, 24]", 1)
           .replace("button = 17\n    rgb = [22, 23, 24]\n\n    [[gpio.seat]]\n    seat = 3",
                    "button = 4\n    light = 18\n\n    [[gpio.seat]]\n    seat = 3"))


class ScriptedTechnician:
    """Presses what they are asked for on the table as wired; reports what they see and hear."""

    def __init__(self, run: Running, speaker_file: Path):
        self.run = run
        self.speaker_file = speaker_file
        self.heard_up_to = 0
        self.told: list[str] = []

    def press(self, step: Press) -> None:
        if step.judge is not None:
            self._tap(JUDGE[step.judge])
        elif step.key is not None:
            self.run.service.emulators[step.seat].type(step.seat, step.key)
        elif step.seat in BUTTONS:
            self._tap(BUTTONS[step.seat])
        else:  # a console's vote button
            console = self.run.service.emulators[step.seat]
            console.press(step.seat)  # held until the firmware has taken it
            until(lambda: console.console.buttons[step.seat].stable, what="the press")
            console.release(step.seat)

    def _tap(self, pin: int) -> None:
        self.run.pin(pin).drive_low()
        self.run.pin(pin).drive_high()

    def ask(self, question: Question) -> bool:
        if question.sound is not None:
            return self._hear()
        wanted = COLOURS[question.colour] if question.colour else "#ffffff"
        level = [int(wanted[i:i + 2], 16) > 0 for i in (1, 3, 5)]
        if question.seat in LIGHTS:
            pins = LIGHTS[question.seat]
            seen = [self.run.pin(p).state > 0.5 for p in pins]
            return any(seen) if len(pins) == 1 else seen == level
        return self._console_shows(question.seat, level)

    def _console_shows(self, seat: int, level: list[bool], timeout: float = 10.0) -> bool:
        """A console's light comes over its serial line after the command's reply, so look
        until it shows, as a person would; only a light that stays dark waits the whole time."""
        lights = self.run.service.emulators[seat].pins.lights

        def shows() -> bool:
            mode, rgb = lights.get(seat, (0, (0, 0, 0)))
            return mode == 1 and [c > 0 for c in rgb] == level
        try:
            until(shows, timeout, what=f"seat {seat}'s console light")
        except AssertionError:
            return False
        return True

    def _hear(self, timeout: float = 3.0) -> bool:
        """Sound in the samples written since the last thing heard, then quiet again."""
        deadline = time.monotonic() + timeout
        heard = False
        while time.monotonic() < deadline:
            data = self.speaker_file.read_bytes()
            samples = array.array("h", data[self.heard_up_to // 2 * 2: len(data) // 2 * 2])
            loud = [i for i, s in enumerate(samples) if abs(s) > 1000]
            if loud and len(samples) - loud[-1] > 4410:  # 0.2 s of quiet after the sound
                self.heard_up_to = len(data)
                heard = True
                break
            time.sleep(0.05)
        return heard

    def tell(self, text: str) -> None:
        self.told.append(text)


@pytest.fixture
def miswired(tmp_path, broker, subscriber):
    speaker = tmp_path / "speaker.raw"
    body = (SWAPPED.format(port=broker.port) + CONSOLES).replace(
        'audio = "off"', f'audio = "disk"\n    audio_disk_file = "{speaker}"')
    cfg = config_module.load(write_config(tmp_path, body))
    run = Running(cfg)
    online(subscriber)
    until(lambda: all(link.health.online for link in run.service.consoles), what="consoles")
    until(lambda: speaker.exists() and speaker.stat().st_size > 0, what="the speaker")
    table = TableClient(cfg, timeout=10)
    yield cfg, run, table, ScriptedTechnician(run, speaker)
    table.close()
    run.close()


def faults(findings: list[Finding]) -> dict[tuple[str, str], str]:
    return {(f.part, f.check): f.detail for f in findings if not f.ok}


def test_two_swapped_seats_are_found_and_everything_else_passes(miswired):
    cfg, _, table, technician = miswired
    # the rules core had seat 6 blinking red: the check gives it back
    table.command("light", lights=[{"seat": 6, "mode": "blink", "color": "#ff0000"}])
    findings = Selftest(cfg, technician, table, press_timeout=3).run()
    assert faults(findings) == {
        ("seat 1", "light"): "stays dark for red, green, blue",
        ("seat 1", "button"): "the press came from seat 2: wires of seats 1 and 2 swapped?",
        ("seat 2", "light"): "stays dark for white",
        ("seat 2", "button"): "the press came from seat 1: wires of seats 2 and 1 swapped?",
    }
    passed = {(f.part, f.check) for f in findings if f.ok}
    assert {("seat 3", "light"), ("seat 3", "button"), ("seat 4", "light"), ("seat 4", "button"),
            ("seat 5", "keypad"), ("console[0]", "link"), ("console[1]", "link"),
            ("judge", "confirm"), ("judge", "reject"), ("judge", "next"),
            ("speaker", "tone"), ("speaker", "number")} <= passed
    assert ("seat 6", "light") not in passed  # nothing wired there: nothing to check
    table_text = summary(findings)
    assert "seat 1      FAULT   light, button, keypad" in table_text.splitlines()
    assert table_text.endswith("4 fault(s)\n")
    # every light is given back as it was: the table's own scene, and seat 6's manual blink
    until(lambda: [s["manual"] for s in table.wait_latest("state")["seats"]] == [None] * 5 + [
        {"mode": "blink", "color": "#ff0000"}], what="the lights given back")


def test_a_silent_console_an_old_firmware_and_a_dead_key(miswired):
    cfg, run, table, technician = miswired
    run.service.emulators[4].unplug()
    until(lambda: not run.service.consoles[1].health.online, what="the link to see it gone")
    table.drain()
    until(lambda: not table.wait_latest("health")["consoles"][1]["online"], what="health")
    press = technician.press

    def press_but_key_5_is_dead(step: Press) -> None:
        if step.key != "5":
            press(step)

    technician.press = press_but_key_5_is_dead
    found = faults(Selftest(cfg, technician, table, press_timeout=1, seats=[3]).run())
    assert set(found) == {("console[1]", "link"), ("seat 3", "keypad")}
    assert found[("seat 3", "keypad")] == "key 5 missing"
    assert "console-1 does not answer" in found[("console[1]", "link")]

    # plugged in again, but with firmware that speaks an old protocol
    console = run.service.emulators[4]
    console.console.protocol = (2, 0)
    console.replug()
    until(lambda: run.service.consoles[1].health.refused is not None, what="the refusal")
    table.drain()
    health = until(lambda: (h := table.wait_latest("health"))["consoles"][1]["refused"] and h,
                   what="health")
    check = Selftest(cfg, technician, table)
    check.consoles(health)
    [refused] = [f for f in check.findings if f.part == "console[1]"]
    assert (refused.check, refused.ok) == ("protocol", False)
    assert "protocol 2.0" in refused.detail


def test_the_command_line_reports_faults_with_a_non_zero_exit(tmp_path, broker):
    cfg = write_config(tmp_path, SMALL_TABLE.format(port=broker.port))
    run = Running(config_module.load(cfg))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mafia_table.cli", "selftest", "--config", str(cfg),
             "--seat", "6", "--timeout", "0.3"],
            capture_output=True, text=True, timeout=60, cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)})
    finally:
        run.close()
    assert done.returncode == 1, done.stderr
    assert "> Press and release the judge's Confirm button." in done.stdout
    rows = [" ".join(line.split()) for line in done.stdout.splitlines()]
    assert "judge FAULT confirm, reject, next" in rows and "speaker FAULT sound" in rows
    assert "sound: audio is off in the config" in rows and rows[-1] == "4 fault(s)"
    bad = subprocess.run([sys.executable, "-m", "mafia_table.cli", "selftest", "--config",
                          str(cfg), "--seat", "9"], capture_output=True, text=True, cwd=REPO)
    assert bad.returncode == 2 and "--seat takes 1..6" in bad.stderr
    endless = subprocess.run([sys.executable, "-m", "mafia_table.cli", "selftest", "--config",
                              str(cfg), "--timeout", "nan"], capture_output=True, text=True,
                             cwd=REPO)
    assert endless.returncode == 2 and "--timeout seconds > 0" in endless.stderr
