"""The 24-seat example table (strip lights, buttons on two expanders) end to end on this
machine: checked, drawn, simulated (fake expanders, recorded SPI) and self-tested."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import msgspec
import pytest

from contract.buttons import JudgeButton, SeatButton
from controller import config as config_module
from controller.selftest import COLOURS, Press, Question, Selftest, TableClient
from mafia_table import cli
from tests.support.mqtt import with_json
from tests.support.paths import REPO
from tests.support.running import Running
from tests.support.waiting import until

EXAMPLE_24 = REPO / "config" / "table-24.example.toml"
SVG = "{http://www.w3.org/2000/svg}"


def test_the_24_seat_table_passes_its_check_with_its_budget(capsys):
    assert cli.main(["check-config", str(EXAMPLE_24)]) == 0
    out = capsys.readouterr().out
    assert "27 expander buttons, 24 seats lit by the strip" in out
    assert "use a 5 V supply of at least 3 A and a 3 A slow-blow fuse" in out


def test_the_24_seat_table_is_drawn_with_every_seat(tmp_path, capsys):
    drawing = tmp_path / "wiring.svg"
    assert cli.main(["pinout", "--config", str(EXAMPLE_24), "--svg", str(drawing)]) == 0
    root = ET.parse(drawing).getroot()  # well-formed XML, an SVG document
    assert root.tag == f"{SVG}svg"
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    for seat in range(1, 25):
        assert any(t.startswith(f"seat {seat}: button 0x2") for t in texts), seat
        assert f"seat {seat}" in texts  # its LEDs on the strip and its expander input
    assert any("every INTA -> GPIO17 (pin 11)" in t for t in texts)
    assert "0x21" in texts and any("judge confirm" in t for t in texts)
    out = capsys.readouterr().out
    assert "1     0x20 GPA0 (pin 21)  strip LEDs 0-2" in out  # the text map beside it
    assert "24    0x21 GPB2 (pin 3)   strip LEDs 92-94" in out
    assert any(t.startswith("GPB7 (8)  output only") for t in texts)  # never a button
    assert "7 pins in use" in out and "no conflicts" in out


def test_a_drawing_that_cannot_be_written_is_a_clear_error(tmp_path, capsys):
    missing = tmp_path / "no-such-folder" / "wiring.svg"
    assert cli.main(["pinout", "--config", str(EXAMPLE_24), "--svg", str(missing)]) == 2
    assert f"cannot write {missing}" in capsys.readouterr().err


@pytest.fixture
def table24(tmp_path, broker, subscriber, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    cfg = config_module.load(EXAMPLE_24, config_module.Overrides(
        broker=f"127.0.0.1:{broker.port}", simulated=True))
    cfg = msgspec.structs.replace(cfg, backends=msgspec.structs.replace(cfg.backends,
                                                                        audio="off"))
    run = Running(cfg)
    subscriber.wait_for(with_json("mafia/table-24/status", state="online"))
    yield cfg, run
    run.close()


def _lit(run: Running, seat: int, colour: str) -> bool:
    want = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    glow = run.service.glow(seat)
    return glow is not None and all(abs(g - w) < 0.02 for g, w in zip(glow, want, strict=True))


def test_presses_on_the_expanders_and_lights_on_the_strip(table24, subscriber):
    _, run = table24
    health = subscriber.wait_for(lambda m: m.topic == "mafia/table-24/health")[0]
    assert health.json()["strip"] == {"backend": "mock", "leds": 95, "write_errors": 0}
    assert health.json()["expanders"] == {"backend": "mock", "chips": [0x20, 0x21],
                                          "read_errors": 0}
    for seat in (1, 16, 17, 24):
        run.service.hand(SeatButton(seat), True)
        run.service.hand(SeatButton(seat), False)
        subscriber.wait_for(with_json("mafia/table-24/event/seat/press", seat=seat))
    subscriber.publish("mafia/table-24/sim/press", '{"seat": 22, "id": "s1"}')  # over MQTT
    subscriber.wait_for(with_json("mafia/table-24/event/seat/press", seat=22))
    subscriber.publish("mafia/table-24/sim/press", '{"judge": "next", "id": "s2"}')
    subscriber.wait_for(with_json("mafia/table-24/event/judge/press", button="next"))
    subscriber.publish("mafia/table-24/cmd/light", '{"id": "l1", "lights": '
                       '[{"seat": 5, "mode": "on", "color": "#ff0000"}]}')
    subscriber.wait_for(with_json("mafia/table-24/reply/light", id="l1", ok=True))
    until(lambda: _lit(run, 5, "#ff0000"), what="seat 5 red on the strip")
    subscriber.publish("mafia/table-24/cmd/phase", '{"id": "n", "phase": "night"}')
    subscriber.wait_for(with_json("mafia/table-24/reply/phase", id="n", ok=True))
    until(lambda: all(max(run.service.glow(seat)) < 0.01 for seat in range(1, 25)),
          what="every seat dark at night")


class StripTechnician:
    """Presses on the fake expanders; sees the strip through the frames sent to it."""

    def __init__(self, run: Running):
        self.run = run

    def press(self, step: Press) -> None:
        button = JudgeButton(step.judge) if step.judge is not None else SeatButton(step.seat)
        self.run.service.hand(button, True)
        self.run.service.hand(button, False)

    def ask(self, question: Question) -> bool:
        if question.sound is not None:
            return False  # audio is off in this test
        colour = COLOURS[question.colour] if question.colour else "#ffffff"
        deadline = time.monotonic() + 10  # a lit seat returns at once; only a fault waits
        while not _lit(self.run, question.seat, colour):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def tell(self, text: str) -> None:
        pass


def test_the_selftest_passes_every_seat_and_judge_button(table24):
    cfg, run = table24
    table = TableClient(cfg, timeout=10)
    try:
        findings = Selftest(cfg, StripTechnician(run), table, press_timeout=5).run()
    finally:
        table.close()
    faults = {(f.part, f.check) for f in findings if not f.ok}
    assert faults <= {("speaker", "sound")}  # audio is off here, nothing else may fail
    passed = {(f.part, f.check) for f in findings if f.ok}
    assert {(f"seat {n}", check) for n in range(1, 25) for check in ("light", "button")} <= passed
    assert {("judge", name) for name in ("confirm", "reject", "next")} <= passed


def test_the_virtual_table_shows_the_strip_and_presses_the_expanders(table24, subscriber,
                                                                      monkeypatch, tmp_path):
    import pygame

    from controller.sim_window import TableWindow, layout

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    _, run = table24
    view = TableWindow(run.service)
    try:
        subscriber.publish("mafia/table-24/cmd/light", '{"id": "l", "lights": '
                           '[{"seat": 7, "mode": "on", "color": "#00ff00"}]}')
        subscriber.wait_for(with_json("mafia/table-24/reply/light", id="l", ok=True))
        until(lambda: _lit(run, 7, "#00ff00"), what="seat 7 green on the strip")
        shot = tmp_path / "table.png"
        view.save(shot)
        seats = layout(24).seats
        assert tuple(pygame.image.load(str(shot)).get_at(seats[7].light))[:3] == (40, 255, 40)
        at = (seats[20].button[0] + 2, seats[20].button[1] + 2)
        view.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=at))
        subscriber.wait_for(with_json("mafia/table-24/event/seat/press", seat=20))
        view.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=at))
        subscriber.wait_for(with_json("mafia/table-24/event/seat/release", seat=20))
    finally:
        view.close()
