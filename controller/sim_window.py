"""The virtual table: a pygame window over a simulated controller (``mafia-table sim --window``).

It draws what a player would see and touch at a real table, and nothing more clever: each seat
around the oval with its public light as the controller drives it (read back from its seat-light
backend: gpiozero's mock pins, the strip's frames, or the emulated console's light), its private
indicator, its vote button and its keypad; the judge station; and, on the side, the phase, the
music, the speech timer, the running vote (candidate, window countdown, proposed count) and the
night step. A click or a key goes through the service's own simulated hand
(``controller.shell.hands``), the one ``sim/press`` and ``sim/key`` use, so the controller cannot
tell the window from a table.

Mouse: hold a seat's vote button, click its keys, press the judge buttons. Keyboard: click a
seat (or Tab) to take its place, then digits, ``#`` (or Enter), ``*`` (or Backspace), Space for
the vote button; ``c``, ``r``, ``n`` are the judge's Confirm, Reject and Next.

``layout`` is pure geometry (tests find a seat's light with it); ``TableWindow`` draws and
handles input; it reads the loop's current ``TableState``, an immutable object, so each frame
sees one consistent table.
"""

from __future__ import annotations

import logging
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.buttons import JUDGE_BUTTON_NAMES, Button, JudgeButton, JudgeButtonName, SeatButton
from contract.light_timing import indicator_on
from controller.core.vote import propose

if TYPE_CHECKING:
    from controller.service import Service

log = logging.getLogger(__name__)

KEYS = "123456789*0#"
SIZE = (1280, 800)
PANEL = 300  # the information column on the right
BACKGROUND, FELT, INK, DARK = (24, 26, 30), (22, 84, 52), (230, 230, 230), (45, 45, 48)
FOCUS, INDICATOR, PRESSED = (250, 200, 60), (255, 170, 0), (200, 60, 60)


@dataclass(frozen=True)
class SeatSpot:
    """Where one seat's parts are drawn."""

    seat: int
    panel: tuple[int, int, int, int]  # x, y, width, height
    light: tuple[int, int]  # centre
    light_radius: int
    indicator: tuple[int, int]
    button: tuple[int, int, int, int]
    keys: dict[str, tuple[int, int, int, int]]


@dataclass(frozen=True)
class Layout:
    size: tuple[int, int]
    table: tuple[int, int, int, int]  # the oval's bounding box
    seats: dict[int, SeatSpot]
    judge: dict[JudgeButtonName, tuple[int, int, int, int]]


def layout(seats: int, size: tuple[int, int] = SIZE) -> Layout:
    """Seats 1..``seats`` clockwise around an oval, from the judge's left; the judge at the top."""
    width, height = size[0] - PANEL, size[1]
    # small enough that the seats at the oval's ends (where they stack vertically) do not
    # overlap: a 24-seat table's cards are half size
    fit = 0.95 * 2 * math.pi * ((height - 150) // 2 - 10) / (seats + 1) / 150
    scale = min(1.0, math.sqrt(12 / seats), fit)
    pw, ph = round(110 * scale), round(150 * scale)
    cx, cy = width // 2, height // 2
    ax, ay = (width - pw) // 2 - 10, (height - ph) // 2 - 10
    spots = {}
    for seat in range(1, seats + 1):
        angle = -math.pi / 2 + 2 * math.pi * seat / (seats + 1)
        x = round(cx + ax * math.cos(angle)) - pw // 2
        y = round(cy + ay * math.sin(angle)) - ph // 2
        unit = ph // 8
        light = (x + max(pw // 2, 31), y + round(1.7 * unit))  # clear of a 2-digit number
        button = (x + 8, y + round(3.2 * unit), pw - 16, unit)
        kw, kh = (pw - 16) // 3, round(3.4 * unit) // 4
        keys = {key: (x + 8 + (i % 3) * kw, y + round(4.4 * unit) + (i // 3) * kh, kw - 2, kh - 2)
                for i, key in enumerate(KEYS)}
        spots[seat] = SeatSpot(seat, (x, y, pw, ph), light, round(unit * 0.9),
                               (x + pw - 12, y + 12), button, keys)
    judge = {name: (cx - 150 + i * 105, cy - 30, 95, 60)
             for i, name in enumerate(JUDGE_BUTTON_NAMES)}
    table = (cx - ax + pw // 2, cy - ay + ph // 2, 2 * ax - pw, 2 * ay - ph)
    return Layout(size, table, spots, judge)


def _inside(point: tuple[int, int], rect: tuple[int, int, int, int]) -> bool:
    x, y, w, h = rect
    return x <= point[0] < x + w and y <= point[1] < y + h


class TableWindow:
    """Draws ``service``'s table and turns clicks and keys into a hand's presses."""

    def __init__(self, service: Service, *, visible: bool = True):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.pg = pygame
        self.service = service
        self.layout = layout(service.config.seats)
        pygame.font.init()
        self.font = pygame.font.Font(None, 22)
        self.big = pygame.font.Font(None, 30)
        if visible:
            pygame.display.init()
            pygame.display.set_caption(f"mafia-table: {service.config.table} (simulated)")
            self.screen = pygame.display.set_mode(self.layout.size)
            if pygame.display.get_driver() in ("dummy", "offscreen"):
                log.warning("no display to show the window on (SDL video driver %r): run it on "
                            "a desktop, or save pictures with --screenshot",
                            pygame.display.get_driver())
        else:
            self.screen = pygame.Surface(self.layout.size)
        self.visible = visible
        self.focus = 1
        self.held: set[Button] = set()

    # ------------------------------------------------------------------ hands

    def _hand(self, button: Button, pressed: bool) -> None:
        """Move the button's mock pin, its fake expander's input, or its emulated console's
        button: with the service's own simulated hand."""
        if pressed:
            self.held.add(button)
        else:
            self.held.discard(button)
        self.service.hands.press(button, pressed)

    def _type(self, seat: int, key: str) -> None:
        self.service.hands.type(seat, key)

    def handle(self, event: Any) -> bool:
        """One pygame event; False when the window was closed."""
        pg = self.pg
        if event.type == pg.QUIT:
            return False
        if event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
            self._click(event.pos)
        elif event.type == pg.MOUSEBUTTONUP and event.button == 1:
            for button in list(self.held):
                self._hand(button, False)
        elif event.type in (pg.KEYDOWN, pg.KEYUP):
            self._key(event)
        return True

    def _click(self, pos: tuple[int, int]) -> None:
        for name, rect in self.layout.judge.items():
            if _inside(pos, rect):
                self._hand(JudgeButton(name), True)
        for spot in self.layout.seats.values():
            if not _inside(pos, spot.panel):
                continue
            self.focus = spot.seat
            if _inside(pos, spot.button):
                self._hand(SeatButton(spot.seat), True)
            for key, rect in spot.keys.items():
                if _inside(pos, rect):
                    self._type(spot.seat, key)

    def _key(self, event: Any) -> None:
        pg = self.pg
        down = event.type == pg.KEYDOWN
        judge = {pg.K_c: "confirm", pg.K_r: "reject", pg.K_n: "next"}
        if event.key == pg.K_SPACE:
            self._hand(SeatButton(self.focus), down)
        elif event.key in judge:
            self._hand(JudgeButton(judge[event.key]), down)  # type: ignore[arg-type]
        elif down and event.key == pg.K_TAB:
            self.focus = self.focus % self.service.config.seats + 1
        elif down:
            key = {pg.K_RETURN: "#", pg.K_KP_ENTER: "#", pg.K_BACKSPACE: "*"}.get(
                event.key, event.unicode)
            if key and key in KEYS:
                self._type(self.focus, key)

    # ------------------------------------------------------------------ drawing

    def public_light(self, seat: int) -> tuple[int, int, int]:
        """The seat light's colour now, read back from its backend (GPIO pins, strip LEDs, or
        its emulated console's light)."""
        glow = self.service.glow(seat) or (0.0, 0.0, 0.0)
        if max(glow) < 0.02:
            return DARK
        return tuple(round(40 + 215 * c) for c in glow)  # type: ignore[return-value]

    def draw(self) -> Any:
        """One frame onto the screen (or the off-screen surface); returns that surface."""
        pg, screen, t = self.pg, self.screen, time.monotonic()
        state = self.service.loop.state
        screen.fill(BACKGROUND)
        pg.draw.ellipse(screen, FELT, self.layout.table)
        for spot in self.layout.seats.values():
            self._draw_seat(spot, state)
        for name, rect in self.layout.judge.items():
            held = JudgeButton(name) in self.held
            pg.draw.rect(screen, PRESSED if held else (70, 70, 90), rect, border_radius=8)
            self._text(name, (rect[0] + 10, rect[1] + 20))
        self._text("judge", (self.layout.judge["confirm"][0], self.layout.judge["confirm"][1] - 22))
        self._draw_panel(state, t)
        return screen

    def _draw_seat(self, spot: SeatSpot, state: Any) -> None:
        pg, screen = self.pg, self.screen
        standing = state.standings[spot.seat - 1]
        pg.draw.rect(screen, (34, 36, 42), spot.panel, border_radius=10)
        if spot.seat == self.focus:
            pg.draw.rect(screen, FOCUS, spot.panel, 2, border_radius=10)
        small = spot.panel[2] < 80  # a big table's seats are drawn at half size
        self._text(str(spot.seat), (spot.panel[0] + (4 if small else 8), spot.panel[1] + 6),
                   self.font if small else self.big,
                   INK if standing.in_game else (110, 110, 110))
        pg.draw.circle(screen, self.public_light(spot.seat), spot.light, spot.light_radius)
        pg.draw.circle(screen, (90, 90, 90), spot.light, spot.light_radius, 1)
        console = self.service.emulators.get(spot.seat)
        pattern = console.pins.indicators.get(spot.seat, 0) if console else 0
        lit = console is not None and indicator_on(
            pattern, console.pins.shown_for("indicator", spot.seat))
        pg.draw.circle(screen, INDICATOR if lit else DARK, spot.indicator, 5)
        held = SeatButton(spot.seat) in self.held
        pg.draw.rect(screen, PRESSED if held else (90, 90, 110), spot.button, border_radius=5)
        self._text("vote", (spot.button[0] + 4, spot.button[1] + 2))
        if console is not None:
            down = console.pins.keys.get(spot.seat, b"").decode()
            for key, rect in spot.keys.items():
                pg.draw.rect(screen, PRESSED if key == down else (60, 60, 70), rect,
                             border_radius=3)
                self._text(key, (rect[0] + rect[2] // 2 - 4, rect[1] + 1))

    def _draw_panel(self, state: Any, t: float) -> None:
        x = self.layout.size[0] - PANEL + 16
        speaker = self.service.speaker
        track = speaker.now_playing() if speaker is not None else None
        lines = [
            f"table {self.service.config.table}",
            "broker: " + ("connected" if self.service.mqtt.connected.is_set() else "away"),
            f"phase: {state.phase}   day {state.day.number}",
            f"music: {track or 'off'}",
            "nominations: " + (", ".join(str(n.seat) for n in state.day.nominations) or "-"),
        ]
        if state.timer is not None:
            timer = state.timer
            holder = "night countdown" if timer.seat is None else f"seat {timer.seat}"
            lines.append(f"floor: {holder} ({timer.kind}) {timer.remaining(t):.0f} s"
                         + ("" if timer.running else " paused"))
        lines += self._vote_lines(state.session, t)
        step = state.night_step
        if step is not None and step.started:  # what the judge announces; never who acts
            lines += [f"night step: {step.step}", f"  {max(0.0, step.ends - t):.1f} s left"]
        lines += ["", f"keys: seat {self.focus} (Tab, click)", "0-9 # * keypad, Space vote",
                  "c r n: judge"]
        for i, line in enumerate(lines):
            self._text(line, (x, 20 + i * 24))

    @staticmethod
    def _vote_lines(session: Any, t: float) -> list[str]:
        if session is None:
            return ["vote: -"]
        lines = [f"vote {session.id}: {', '.join(map(str, session.candidates))}",
                 f"  now {session.candidate} (attempt {session.attempt}): {session.stage}"]
        if session.stage == "open" and session.window is not None:
            lines.append(f"  window closes in {max(0.0, session.window.closes - t):.1f} s")
        if session.stage == "proposed":
            proposal = propose(session)
            lines.append(f"  proposed: {proposal.count} "
                         f"({', '.join(map(str, proposal.voters)) or 'nobody'})")
        lines += [f"  {c.candidate}: {c.count} confirmed"
                  for c in session.confirmed]
        return lines

    def _text(self, text: str, at: tuple[int, int], font: Any = None,
              color: tuple[int, int, int] = INK) -> None:
        self.screen.blit((font or self.font).render(text, True, color), at)

    # ------------------------------------------------------------------ running

    def save(self, path: Path) -> None:
        """A screenshot of the current frame (PNG by the file name)."""
        self.pg.image.save(self.draw(), str(path))

    def run(self, stop_when: Any) -> bool:
        """Draw at 30 frames a second and handle input until ``stop_when()``; False if the
        window was closed first."""
        clock = self.pg.time.Clock()
        while not stop_when():
            for event in self.pg.event.get():
                if not self.handle(event):
                    return False
            self.draw()
            self.pg.display.flip()
            clock.tick(30)
        return True

    def close(self) -> None:
        for button in list(self.held):
            self._hand(button, False)
        if self.visible:
            self.pg.display.quit()
