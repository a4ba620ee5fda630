"""Every bench runs: ``python -m bench.<name> --quick`` exits 0 and prints its headline lines.

A bench is any module of bench/ that runs as a program, but the helper processes the benches
start (``HELPERS``), so a new bench is run here from the day it lands, ``--quick`` or not; one
whose quick run has a test module of its own beside this one (``tests/bench/test_<bench>.py``,
as ``bench.seating``'s) is left to it. Its figures are not looked at: a quick run has few
samples on a busy machine (not a timed test); the lines are, so that a bench that stops
measuring something fails here. ``HEADLINES`` holds, for each bench, how its figure lines
start; a bench without an entry must still exit 0 and print something.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO

#: the processes the benches start (a receiver, a flooder): no bench of their own
HELPERS = frozenset({"receiver", "flooder"})

#: bench -> how each of its figure lines starts (after its indentation)
HEADLINES: dict[str, tuple[str, ...]] = {
    "backlog": ("backlog 0:", "backlog 2,000:", "press -> subscriber during catch-up:",
                "first backlog event after", "drained: all 2,000", "service peak resident",
                "SIGTERM 0.2 s into the catch-up: exited 0",
                "verdict press during a 2,000-event catch-up: p50 / p99 / max"),
    "board_replay": ("board replay: 2 games of evening-hall.jsonl.gz", "floor, the board idle",
                     "game 1:", "game 2:", "board: RSS",
                     "verdict memory hall board, replayed:"),
    "compare": ("bench.consoles round 1/1", "bench.consoles median of 1 rounds"),
    "consoles": ("pty byte -> subscriber:", "burst of 24 seats within 10 ms x 2: lost",
                 "floor, bare pty write -> pyserial read:",
                 "floor, pty write in another process -> pyserial read:",
                 "floor, bare paho publish -> receiver:", "floor (bare pty + bare paho):",
                 "verdict console byte -> subscriber: p50 / p99 / max"),
    "cues": ("floor (sleeping thread)", "CueSchedule on the loop"),
    "electronics": ("strip frame, 95 LEDs", "floor (copy", "expander decode of one read:",
                    "expander read path", "floor (mock pin edge -> empty callback):"),
    "evening": ("evening: 2 games of fiim", "game 1:", "game 2:", "evening: 2 games in",
                "table controller: RSS", "table mosquitto: RSS", "judge's panel: RSS",
                "hall mosquitto: RSS", "hall board: RSS", "chromium (4 pages): RSS",
                "page, panel on a tablet:", "page, panel on a phone:", "page, overlay:",
                "page, hall board:", "verdict memory table controller:",
                "verdict memory judge's panel:", "verdict memory hall board:",
                "verdict memory page, panel on a phone (JS heap):", "Pi 4 core: n-body",
                "the table's Pi (", "verdict CPU of the table's Pi during play"),
    "exports": ("scripted (", "random (", "export ", "check alone", "floor: encode"),
    "flood": ("QoS 0 cmd/light x 500/s, no flood (the floor):",
              "QoS 1 sim/press x 500/s, no flood (the floor):", "flood: edge -> subscriber",
              "hops:", "CPU: this process", "catch-up of 500 events:",
              "SIGTERM during the flood: exited 0", "summary:"),
    "gpio": ("edge -> subscriber, one seat at a time:", "floor, mock pin edge -> bare callback:",
             "floor, bare paho publish -> subscriber:",
             "verdict GPIO edge -> subscriber: p50 / p99 / max", "burst of 10 seats x 2: lost",
             "start -> status online, 1 starts:", "idle 1 s: CPU"),
    "hall": ("1 tables,", "press -> table-local subscriber:", "press -> hall subscriber:",
             "hall p99 - local p99:", "hall mosquitto: CPU", "table brokers:",
             "table controllers:", "one mosquitto, 1 publishers", "100 idle connections"),
    "journal_faults": ("append, disk not full:", "append, disk full (200 held):",
                       "space back: 200 held events written", "open a journal of 2,000 events"),
    "judge_hops": ("press -> judge's WebSocket, 1 tab(s):", "whole path", "floor, press -> event",
                   "paho -> loop", "show -> serialized", "serialized -> written",
                   "loop -> written, tabs, then followers (now)",
                   "loop -> written, followers, then tabs (before)", "views per press",
                   "garbage collector in this process:", "one view (",
                   "a full collection in this process:"),
    "judge": ("press -> judge page DOM (5):", "press -> frame in the page:",
              "frame -> DOM (parse, redraw):", "the frame of a press:",
              "in the page, warm: JSON.parse of the frame",
              "floor, press -> event on MQTT:", "floor, bare WebSocket -> DOM:",
              "judge tap -> cmd on MQTT (5):", "floor, bare paho publish -> MQTT client:",
              "judge service memory",
              "verdict seat press -> fist on the judge's page: p50 / p99 / max",
              "verdict judge's tap -> cmd at the broker: p50 / p99 / max"),
    "overlay": ("press -> overlay DOM (5):", "floor, press -> event on MQTT:",
                "floor, bare WebSocket -> DOM:", "clock: offset error",
                "verdict seat press -> fist on the overlay: p50 / p99 / max"),
    "power_cut": ("floor (insert on :memory:):", "append, synchronous=normal",
                  "append, synchronous=full", "kill -9   synchronous=normal: 1 trials",
                  "power cut synchronous=normal: 1 trials", "kill -9   synchronous=full: 1 trials",
                  "power cut synchronous=full: 1 trials"),
    "record": ("build ", "floor: replay", "GET record", "floor: 401"),
    "soak": ("soak 0.05 min after 0.5 s warm-up",),
}

#: bench -> seconds its quick run may take, when more than ``QUICK_SECONDS``: the evening's two
#: games keep the table's own vote windows (about 70 s of play)
SLOW: dict[str, float] = {"evening": 240}
QUICK_SECONDS = 100


def benches() -> list[str]:
    """Every module of bench/ with a ``__main__`` block, but the helper processes and those
    with a test module of their own here."""
    found = []
    for path in sorted((REPO / "bench").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = Path(__file__).with_name(f"test_{path.stem}.py").exists()
        if path.stem not in HELPERS and not own and any(
                isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
                for node in tree.body):
            found.append(path.stem)
    return found


@pytest.mark.parametrize("bench", [pytest.param(b, marks=pytest.mark.timeout(
    SLOW.get(b, QUICK_SECONDS) + 20)) for b in benches()])
def test_the_bench_runs_quick_and_prints_its_figures(bench, tmp_path):
    done = subprocess.run([sys.executable, "-m", f"bench.{bench}", "--quick"], cwd=REPO,
                          env={**os.environ, "XDG_STATE_HOME": str(tmp_path)},
                          capture_output=True, text=True, timeout=SLOW.get(bench, QUICK_SECONDS),
                          check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    lines = [line.strip() for line in done.stdout.splitlines()]
    missing = [head for head in HEADLINES.get(bench, ()) if not any(
        line.startswith(head) for line in lines)]
    assert missing == [] and lines, f"bench.{bench} printed:\n{done.stdout}"

