"""The judge's panel end to end: the simulated example table's config, ``mafia-table judge`` as
its own process, the scripted players' hands on the table's ``sim/`` topics, and the page as the
judge taps it (in Debian's headless Chromium, ``tests.support.chromium``).

The game is ``ROLES`` (``tests.support.record_game``) on table-1; ``vote`` and ``night_step``
play one vote's windows and one night step through the panel and the hands, ``night_in_order``
a whole night, checked for what it shows in public.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import msgspec

from controller import config as config_module
from kit.local_broker import free_port
from tests.support.mqtt import Received, Subscriber
from tests.support.page_layout import VIEWPORTS, fits
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.running import Running

PASSWORD = "fist-on-the-table"
TABLE = "mafia/table-1/"


def table_config(tmp_path: Path, port: int, rules: str = "fiim",
                 text: str | None = None) -> config_module.Config:
    """The table config ``text`` (the example table's when None), simulated, silent, with vote
    windows long enough for a busy runner, on the table preset ``rules``
    (``config/rules/<rules>.toml``)."""
    source = EXAMPLE_CONFIG
    if rules != "fiim" or text is not None:
        preset = EXAMPLE_CONFIG.parent / "rules" / f"{rules}.toml"
        source = tmp_path / "table.toml"
        source.write_text((text or EXAMPLE_CONFIG.read_text(encoding="utf-8")).replace(
            'rules = "rules/fiim.toml"', f'rules = "{preset}"'), encoding="utf-8")
    cfg = config_module.load(source, config_module.Overrides(
        broker=f"127.0.0.1:{port}", simulated=True))
    return msgspec.structs.replace(
        cfg, vote=msgspec.structs.replace(cfg.vote, window=1.2, gap=0.2),
        store=msgspec.structs.replace(cfg.store, path=str(tmp_path / "table.db")),
        backends=msgspec.structs.replace(cfg.backends, audio="off"))


#: how long a night step of the end-to-end tests lasts at most: a minute, and ``night_step``
#: ends each as soon as the table has taken its entries (a step of a second lost a busy
#: machine's late entry: the time is the core's rule, tested on its fake clock)
STEP_SECONDS = 60

#: the panel's game for the end-to-end tests: FIIM's book
FIIM_GAME = f"[timings]\nnight_step = {STEP_SECONDS}\nbest_move = {STEP_SECONDS}\n"


def book_game(book: str, seats: int | None = 10, night_step: float = STEP_SECONDS) -> str:
    """A ``[game]`` playing ``book`` at ``seats`` (None: the table's own), its night steps
    ``night_step`` seconds (``judge_config``'s ``game``)."""
    size = "" if seats is None else f"seats = {seats}\n"
    return f'[game]\nbook = "{book}"\n{size}[timings]\nnight_step = {night_step}\n'


def judge_config(tmp_path: Path, broker_port: int, listen: str, language: str = "en",
                 game: str = FIIM_GAME, table: str = "table-1") -> Path:
    """The panel's config for the end-to-end tests, its pages in ``language`` (the tests that
    read English words read the English pages; tests/e2e/test_every_screen.py both);
    ``game``: its ``[game]`` and ``[timings]`` (``FIIM_GAME``, or ``book_game``)."""
    (tmp_path / "judge.pass").write_text(PASSWORD + "\n")
    path = tmp_path / "judge.toml"
    path.write_text(f"""
table = "{table}"
[broker]
port = {broker_port}
[panel]
listen = "{listen}"
password_file = "judge.pass"
language = "{language}"
[journal]
path = "judge.db"
{game}""")
    return path


class Judge:
    """``mafia-table judge`` as a process: started, stopped, started again. Its output is read
    all the while it runs (a thread drains the pipe), so a judge that logs a lot never stops on
    a full pipe nobody reads; ``stop()`` gives what it said."""

    def __init__(self, config: Path):
        self.config = config
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        exe = Path(sys.executable).with_name("mafia-table")
        self.process = subprocess.Popen([str(exe), "judge", "--config", str(self.config)],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        assert self.process.stdout is not None
        self._before: list[str] = []  # until it listens
        self._said: list[str] = []  # since
        self._listening = False
        self._settled = threading.Event()  # it listens, or it ended first
        self._reader = threading.Thread(target=self._drain, args=(self.process.stdout,),
                                        daemon=True)
        self._reader.start()
        self._settled.wait()
        if not self._listening:
            raise AssertionError(f"the judge service did not start: {self.process.wait()}: "
                                 f"{''.join(self._before)}")

    def _drain(self, out: IO[str]) -> None:
        for line in out:
            if self._listening:
                self._said.append(line)
            else:
                self._before.append(line)
                if line.startswith("judge panel:"):  # the address is printed once it listens
                    self._listening = True
                    self._settled.set()
        self._settled.set()

    def stop(self) -> str:
        """Stopped (again: nothing more); what it printed since it listened (its log)."""
        # SIGTERM: a test run started in the background (``cmd &``) hands its children an
        # ignored SIGINT, and the judge would never stop
        assert self.process is not None
        if self.process.returncode is not None:
            return ""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)
        self._reader.join(timeout=10)  # the pipe's end: every line is in
        return "".join(self._said)


class Hands:
    """The scripted players, and the table's messages as a rules core's audit sees them."""

    def __init__(self, port: int):
        self.record = Subscriber(port, [TABLE + "#"])

    def key(self, seat: int, keys: str) -> None:
        self.record.publish(TABLE + "sim/key", msgspec.json.encode({"seat": seat, "keys": keys}))

    def fists(self, seats: list[int]) -> None:
        """Every seat's fist up at once, then down: the presses sent together and their
        PUBACKs awaited after (one at a time, six round trips on a busy machine outlasted a
        1.2 s vote window), all of them before the first release."""
        for verb in ("press", "release"):
            sent = [self.record.client.publish(TABLE + f"sim/{verb}",
                                               msgspec.json.encode({"seat": seat}), qos=1)
                    for seat in seats]
            for message in sent:
                message.wait_for_publish(5)

    def all_counted(self, candidate: int, seats: list[int]) -> bool:
        """``seats``' fists in ``candidate``'s window, open now (the caller waited for it; it
        may have closed since, with no fist: its count is read all the same): whether the
        table's count has every one of them. False: a press came later than a busy machine's
        short window; the judge rejects the count, the window runs again (``reopened``), and
        the fists are raised again, as a judge who saw the hand would."""
        def opened(m: Received) -> bool:
            return (m.topic == TABLE + "event/vote/window" and m.json()["state"] == "opened"
                    and m.json()["candidate"] == candidate)

        received = list(self.record.messages)  # appended to only: a copy is a snapshot
        since = max(i for i, m in enumerate(received) if opened(m))
        attempt = received[since].json()["attempt"]

        def proposal(messages: list[Received]) -> dict | None:
            return next((m.json() for m in messages[since:]
                         if m.topic == TABLE + "event/vote/proposed"
                         and m.json()["candidate"] == candidate
                         and m.json()["attempt"] == attempt), None)

        self.fists(seats)
        self.record.wait_until(lambda messages: proposal(messages) is not None, timeout=30,
                               what=f"the count of {candidate}'s window, attempt {attempt}")
        said = proposal(list(self.record.messages))
        assert said is not None
        return sorted(said["voters"]) == sorted(seats)

    def reopened(self, candidate: int):
        """Wait later for ``candidate``'s window to run again (after the judge's reject)."""
        return self.upcoming("event/vote/window", state="opened", candidate=candidate)

    def upcoming(self, topic: str, count: int = 1, **fields):
        """Wait later for the next ``count`` messages on ``topic`` with ``fields`` (counted
        from now); the wait returns the last of them."""
        def match(m: Received) -> bool:
            return m.topic == TABLE + topic and all(m.json().get(k) == v
                                                    for k, v in fields.items())
        seen = len(self.record.matching(match))
        return lambda: self.record.wait_for(match, count=seen + count, timeout=30)[-1].json()


class Panel:
    """The judge's page: taps, and waits on what it shows. ``shot`` names its screenshots
    ``judge-<prefix><name>.png`` and has ``look`` (when given) check each screen it is at."""

    def __init__(self, page, shots: Path | None, prefix: str = "",
                 look: Callable[[], None] | None = None):
        self.page, self.shots, self.prefix, self.look = page, shots, prefix, look
        page.set_default_timeout(20_000)

    def tap(self, selector: str) -> None:
        """Tap, and wait for the panel to take it and the page to show the change. A table
        event may move the game while the tap travels (the panel refuses an action on a version
        it has passed): then tap again, as the judge would once the page shows the new state."""
        while True:
            version = self.page.get_attribute("body", "data-version")
            self.page.click(selector)
            ref = self.page.get_attribute("body", "data-sent")
            self.page.wait_for_function(f"document.body.dataset.answered === '{ref}'")
            outcome = self.page.get_attribute("body", "data-outcome")
            if outcome != "refused version":
                break
        assert outcome == "done", f"{selector}: {outcome}: {self.page.inner_text('#message')}"
        self.page.wait_for_function(f"document.body.dataset.version !== '{version}'")

    def stage(self, stage: str) -> None:
        self.page.wait_for_selector(f'#stage[data-stage="{stage}"]')

    def next(self, times: int = 1) -> None:
        for _ in range(times):
            self.tap("#next")

    def name_and_deal(self, names: dict[int, str], roles: list[str]) -> None:
        """Setup: each seat's name typed (the panel takes each before the next), and the cards
        chosen seat by seat (the Deal is the caller's tap)."""
        page = self.page
        for seat, name in names.items():
            page.fill(f'.seat[data-seat="{seat}"] .name', name)
            version = page.get_attribute("body", "data-version")
            page.press(f'.seat[data-seat="{seat}"] .name', "Enter")
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        for seat, role in enumerate(roles, start=1):
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)

    def seat(self, seat: int, action: str) -> None:
        self.page.click(f'.seat[data-seat="{seat}"] .num')
        self.tap(f"#{action}")

    def shot(self, name: str) -> None:
        """This screen passes ``look``, fits a laptop, a tablet and a phone (``fits``), and
        its screenshots for the docs when the run keeps them: on a tablet
        (``judge-<prefix><name>.png``) and on a phone (``...-phone.png``), each the first
        screen, as the judge sees it."""
        if self.look is not None:
            self.look()
        fits(self.page)
        if self.shots is not None:
            was = self.page.viewport_size
            for size, suffix in ((VIEWPORTS[1], ""), (VIEWPORTS[2], "-phone")):
                self.page.set_viewport_size(size)
                self.page.evaluate("scrollTo(0, 0)")
                self.page.screenshot(
                    path=str(self.shots / f"judge-{self.prefix}{name}{suffix}.png"))
            self.page.set_viewport_size(was)


def login(chromium, url: str) -> Panel:
    """A new page of the panel at ``url``, logged in with ``PASSWORD``, the table online."""
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    page.goto(url)
    page.fill("#password", PASSWORD)
    page.click("#login")
    panel = Panel(page, None)
    panel.stage("setup")
    page.wait_for_selector("#table-status.good")
    return panel


@contextmanager
def book_game_at(tmp_path: Path, broker_port: int, chromium, table: config_module.Config,
                 game: str) -> Iterator[tuple[Panel, Hands]]:
    """A whole game's parts: the simulated ``table`` running, the panel playing ``game``
    (``book_game``) on it, logged in (``login``), and the players' hands; all stopped after."""
    listen = f"127.0.0.1:{free_port()}"
    hands = Hands(broker_port)
    running = Running(table)
    judge = Judge(judge_config(tmp_path, broker_port, listen, game=game))
    try:
        yield login(chromium, f"http://{listen}/"), hands
    finally:
        judge.stop()
        running.close()
        hands.record.close()


def vote(panel: Panel, hands: Hands, windows: list[tuple[int, list[int], str]],
         correct: list[int] | None = None) -> None:
    """Start the vote with Next, then for each window: the fists, and the judge's tap
    (``"shot"``: ``Panel.shot`` of the count, ``vote`` or for "all leave?" ``question``, then
    confirm; with ``correct``, the last window's count is the judge's own: those seats
    selected, then Correct). A count that missed a fist (a press later than a busy machine's
    short window) is rejected and the window runs again, as a judge who saw the hand would."""
    opened = hands.upcoming("event/vote/window", state="opened", candidate=windows[0][0])
    panel.tap("#next")
    for i, (candidate, fists, decision) in enumerate(windows):
        opened()
        counted(panel, hands, candidate, fists)
        panel.page.wait_for_selector(f'#vote[data-proposed^="{candidate}:"]')
        if i + 1 < len(windows):
            opened = hands.upcoming("event/vote/window", state="opened",
                                    candidate=windows[i + 1][0])
        if decision == "shot":
            panel.shot("vote" if candidate else "question")
            decision = "confirm"
        if correct is not None and i + 1 == len(windows):
            for seat in correct:
                panel.page.click(f'.seat[data-seat="{seat}"] .num')
            decision = "correct"
        panel.tap(f"#{decision}")


def counted(panel: Panel, hands: Hands, candidate: int, fists: list[int]) -> None:
    """``fists`` in ``candidate``'s window, open now, until the table's count has them all
    (``Hands.all_counted``; a count that missed one rejected at the panel)."""
    while not hands.all_counted(candidate, fists):
        again = hands.reopened(candidate)
        panel.tap("#reject")
        again()


def night_step(panel: Panel, hands: Hands, step: str, keys: dict[int, str],
               during: Callable[[], None] | None = None) -> dict:
    """The judge opens ``step``, the actors type ``keys``, and once the table has taken each
    entry (``#`` ends one), ``during`` checks the panel while the step still runs (it lasts
    ``STEP_SECONDS``), then the judge ends the step; returns the table's result."""
    opened = hands.upcoming("private/night/step", step=step)
    result = hands.upcoming("private/night/result", step=step)
    panel.tap("#next")
    opened()
    entries = sum(typed.count("#") for typed in keys.values())
    picked = hands.upcoming("private/night/pick", count=entries, step=step)
    for seat, typed in keys.items():
        hands.key(seat, typed)
    if entries:
        picked()
    if during is not None:
        during()
    panel.tap("#end-step")
    body = result()
    panel.page.wait_for_selector('#night[data-step=""]')
    return body



def public(messages: list[Received]) -> list[dict]:
    """The table's public messages among ``messages``: ``event/`` and ``state``."""
    return [m.json() for m in messages
            if m.topic.startswith(TABLE + "event/") or m.topic == TABLE + "state"]


def lights(state: dict) -> list[tuple[int, dict]]:
    """Each seat's light in a ``state`` message."""
    return [(seat["seat"], seat["light"]) for seat in state["seats"]]


def dark(messages: list[Received]) -> dict | None:
    """The table's last ``state`` among ``messages`` if it is the night's, else None."""
    states = [m.json() for m in messages if m.topic == TABLE + "state"]
    return states[-1] if states and states[-1]["phase"] == "night" else None


def overlay(panel: Panel) -> dict:
    """The stream overlay's view as the hall's screens fetch it (``/overlay.json``, no login)."""
    with urllib.request.urlopen(urllib.parse.urljoin(panel.page.url, "/overlay.json")) as got:
        view: dict = json.loads(got.read())
    return view


def night_in_order(panel: Panel, hands: Hands, keys: dict[str, dict[int, str]],
                   told: list[tuple[int, int]]) -> list[tuple[str, list[int]]]:
    """A night of the steps ``keys`` names, in that order, each actor typing his keys, then the
    judge's morning: the steps as the table was told them (each with the seats it went to),
    once every answer reached only the ``told`` (seat, pattern) indicators, nothing public
    named a step, an actor or a pick, no seat's light moved from nightfall to the morning (the
    table publishes its ``state`` at every change of a light) and the overlay showed after
    every step what it showed at nightfall."""
    hands.record.wait_until(lambda messages: dark(messages) is not None, timeout=30,
                            what="the table's state at nightfall")
    since = len(hands.record.messages)
    dusk = dark(hands.record.messages[:since])
    assert dusk is not None
    hall = overlay(panel)
    answers = [hands.upcoming("cmd/night/reveal", seat=seat, pattern=pattern)
               for seat, pattern in told]
    for name, typed in keys.items():
        assert night_step(panel, hands, name, typed)["step"] == name
        assert overlay(panel) == hall, f"the overlay after {name}"
    for answer in answers:
        answer()
    day = hands.upcoming("cmd/phase", phase="day")
    panel.next()  # morning
    day()  # every command of the night has arrived before it
    night = hands.record.messages[since:]
    morning = next(i for i, m in enumerate(night)
                   if m.topic == TABLE + "cmd/phase" and m.json()["phase"] == "day")
    assert [(r["seat"], r["pattern"]) for r in (
        m.json() for m in night if m.topic == TABLE + "cmd/night/reveal")] == told
    for said in public(night):
        assert not {"step", "actors", "actor", "picks"} & set(said), said
    for state in public([m for m in night[:morning] if m.topic == TABLE + "state"]):
        assert lights(state) == lights(dusk), state
    return [(o["step"], o["actors"]) for o in (
        m.json() for m in night if m.topic == TABLE + "cmd/night/step")]
