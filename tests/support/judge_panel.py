"""The judge's panel end to end: the simulated example table's config, ``mafia-table judge`` as
its own process, the scripted players' hands on the table's ``sim/`` topics, and the page as the
judge taps it (in Debian's headless Chromium, ``tests.support.chromium``).

The game is ``ROLES`` (``tests.support.record_game``) on table-1; ``vote`` and ``night_step``
play one vote's windows and one night step through the panel and the hands.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import msgspec

from controller import config as config_module
from tests.support.mqtt import Received, Subscriber
from tests.support.paths import EXAMPLE_CONFIG

PASSWORD = "fist-on-the-table"
TABLE = "mafia/table-1/"


def table_config(tmp_path: Path, port: int) -> config_module.Config:
    """The example table, simulated, silent, with vote windows long enough for a busy runner."""
    cfg = config_module.load(EXAMPLE_CONFIG, config_module.Overrides(
        broker=f"127.0.0.1:{port}", simulated=True))
    return msgspec.structs.replace(
        cfg, vote=msgspec.structs.replace(cfg.vote, window=1.2, gap=0.2),
        store=msgspec.structs.replace(cfg.store, path=str(tmp_path / "table.db")),
        backends=msgspec.structs.replace(cfg.backends, audio="off"))


def judge_config(tmp_path: Path, broker_port: int, listen: str, table: str = "table-1") -> Path:
    (tmp_path / "judge.pass").write_text(PASSWORD + "\n")
    path = tmp_path / "judge.toml"
    path.write_text(f"""
table = "{table}"
[broker]
port = {broker_port}
[panel]
listen = "{listen}"
password_file = "judge.pass"
[journal]
path = "judge.db"
[timings]
night_step = 1.0
best_move = 2.0
""")
    return path


class Judge:
    """``mafia-table judge`` as a process: started, stopped, started again."""

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
        for line in self.process.stdout:  # the address is printed once it listens
            if line.startswith("judge panel:"):
                return
        raise AssertionError(f"the judge service did not start: {self.process.wait()}")

    def stop(self) -> None:
        # SIGTERM: a test run started in the background (``cmd &``) hands its children an
        # ignored SIGINT, and the judge would never stop
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(10)


class Hands:
    """The scripted players, and the table's messages as a rules core's audit sees them."""

    def __init__(self, port: int):
        self.record = Subscriber(port, [TABLE + "#"])

    def key(self, seat: int, keys: str) -> None:
        self.record.publish(TABLE + "sim/key", msgspec.json.encode({"seat": seat, "keys": keys}))

    def fists(self, seats: list[int]) -> None:
        for seat in seats:
            self.record.publish(TABLE + "sim/press", msgspec.json.encode({"seat": seat}))
        for seat in seats:
            self.record.publish(TABLE + "sim/release", msgspec.json.encode({"seat": seat}))

    def upcoming(self, topic: str, **fields):
        """Wait later for the next message on ``topic`` with ``fields`` (counted from now)."""
        def match(m: Received) -> bool:
            return m.topic == TABLE + topic and all(m.json().get(k) == v
                                                    for k, v in fields.items())
        seen = len(self.record.matching(match))
        return lambda: self.record.wait_for(match, count=seen + 1, timeout=30)[-1].json()


class Panel:
    """The judge's page: taps, and waits on what it shows."""

    def __init__(self, page, shots: Path | None):
        self.page, self.shots = page, shots
        page.set_default_timeout(20_000)

    def tap(self, selector: str) -> None:
        version = self.page.get_attribute("body", "data-version")
        self.page.click(selector)
        self.page.wait_for_function(f"document.body.dataset.version !== '{version}'")

    def stage(self, stage: str) -> None:
        self.page.wait_for_selector(f'#stage[data-stage="{stage}"]')

    def next(self, times: int = 1) -> None:
        for _ in range(times):
            self.tap("#next")

    def seat(self, seat: int, action: str) -> None:
        self.page.click(f'.seat[data-seat="{seat}"] .num')
        self.tap(f"#{action}")

    def shot(self, name: str) -> None:
        if self.shots is not None:
            self.page.screenshot(path=str(self.shots / f"judge-{name}.png"))


def vote(panel: Panel, hands: Hands, windows: list[tuple[int, list[int], str]]) -> None:
    """Start the vote with Next, then for each window: the fists, and the judge's tap."""
    opened = hands.upcoming("event/vote/window", state="opened", candidate=windows[0][0])
    panel.tap("#next")
    for i, (candidate, fists, decision) in enumerate(windows):
        opened()
        hands.fists(fists)
        panel.page.wait_for_selector(f'#vote[data-proposed^="{candidate}:"]')
        if i + 1 < len(windows):
            opened = hands.upcoming("event/vote/window", state="opened",
                                    candidate=windows[i + 1][0])
        if decision == "shot":
            panel.shot("vote")
            decision = "confirm"
        panel.tap(f"#{decision}")


def night_step(panel: Panel, hands: Hands, step: str, keys: dict[int, str]) -> dict:
    opened = hands.upcoming("private/night/step", step=step)
    result = hands.upcoming("private/night/result", step=step)
    panel.tap("#next")
    opened()
    for seat, typed in keys.items():
        hands.key(seat, typed)
    body = result()
    panel.page.wait_for_selector('#night[data-step=""]')
    return body

