"""The virtual table's window (``mafia-table sim --window``), drawn headless on SDL's dummy video
driver over a real simulated controller: lights as the pins show them, clicks as a hand's presses.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from controller import config as config_module
from controller.sim_window import DARK, TableWindow, layout
from tests.support.mqtt import with_json
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.running import Running, online
from tests.support.table_configs import CONSOLES, SMALL_TABLE, write_config
from tests.support.waiting import until


@pytest.fixture
def window(tmp_path, broker, subscriber, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    cfg = config_module.load(write_config(tmp_path, SMALL_TABLE.format(port=broker.port)
                                          + CONSOLES))
    run = Running(cfg)
    online(subscriber)
    until(lambda: all(link.health.online for link in run.service.consoles), what="consoles")
    view = TableWindow(run.service)
    yield view, run, subscriber
    view.close()
    run.close()


def pixel(surface, at: tuple[int, int]) -> tuple[int, int, int]:
    return tuple(surface.get_at(at))[:3]


def test_lit_seats_show_their_light_and_dark_ones_do_not(window, tmp_path):
    view, _, core = window
    core.publish("mafia/t1/cmd/light", '{"id": "l", "lights": ['
                 '{"seat": 2, "mode": "on", "color": "#ff0000"}, {"seat": 3, "mode": "off"},'
                 '{"seat": 4, "mode": "on", "color": "#00ff00"}, {"seat": 5, "mode": "off"}]}')
    core.wait_for(with_json("mafia/t1/reply/light", id="l", ok=True))
    # the RGB LED on GPIO red, the console's light green, the others dark
    asked = {2: (255, 40, 40), 3: DARK, 4: (40, 255, 40), 5: DARK}
    # The GPIO pins are set before the reply; the console's two lights go over its serial
    # link after it, one frame each (seat 5's still showed the table's dim at a busy moment,
    # its "off" on the way): the frame is drawn once the window reads every light as asked.
    until(lambda: {seat: view.public_light(seat) for seat in asked} == asked,
          what="the lights as the window reads them")
    shot = tmp_path / "table.png"
    view.save(shot)
    image = pygame.image.load(str(shot))
    seats = layout(6).seats
    assert image.get_size() == (1280, 800)
    assert {seat: pixel(image, seats[seat].light) for seat in asked} == asked


def test_clicks_and_keys_press_like_a_hand(window):
    view, _, core = window
    seats = view.layout.seats

    def click(rect) -> None:
        at = (rect[0] + 2, rect[1] + 2)
        view.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=at))
        view.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=at))

    def hold(rect, seat: int, source: str) -> None:
        """Mouse down on a vote button until the table has the press, then up."""
        at = (rect[0] + 2, rect[1] + 2)
        view.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=at))
        core.wait_for(with_json("mafia/t1/event/seat/press", seat=seat, source=source))
        view.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=at))
        core.wait_for(with_json("mafia/t1/event/seat/release", seat=seat, source=source))

    hold(seats[1].button, 1, "gpio")
    hold(seats[5].button, 5, "console")
    for key in "7#":  # clicked faster than a finger: the keypad takes them in turn
        click(seats[4].keys[key])
    core.wait_for(with_json("mafia/t1/event/seat/entry", seat=4, value=7))
    click(view.layout.judge["reject"])
    core.wait_for(with_json("mafia/t1/event/judge/release", button="reject"))
    # the keyboard types on the seat last clicked
    for key, char in ((pygame.K_8, "8"), (pygame.K_RETURN, "")):
        view.handle(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char))
    core.wait_for(with_json("mafia/t1/event/seat/entry", seat=4, value=8))
    assert view.focus == 4


def test_the_command_line_saves_a_headless_screenshot(tmp_path, broker):
    shot = tmp_path / "sim.png"
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, "-m", "mafia_table.cli", "sim", "--config", str(EXAMPLE_CONFIG),
         "--broker", f"127.0.0.1:{broker.port}", "--screenshot", str(shot), "--after", "0.5"],
        env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)
    nowhere = subprocess.run(
        [sys.executable, "-m", "mafia_table.cli", "sim", "--config", str(EXAMPLE_CONFIG),
         "--broker", f"127.0.0.1:{broker.port}", "--screenshot", str(tmp_path / "no" / "x.png"),
         "--after", "0"], env=env, capture_output=True, text=True, timeout=30)
    assert nowhere.returncode == 1 and "cannot save the screenshot" in nowhere.stderr
    never = subprocess.run([sys.executable, "-m", "mafia_table.cli", "sim", "--screenshot",
                            str(shot), "--after", "nan"], capture_output=True, text=True)
    assert never.returncode == 2 and "--after takes a number of seconds" in never.stderr
