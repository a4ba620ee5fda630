"""A whole club evening on one table: memory and CPU of every process, game after game
(issue 40). Run by hand: ``.venv/bin/python -m bench.evening`` (8 games, ~10 minutes; needs
/usr/bin/chromium); ``--quick``: 2 games, that it runs (bench/quick.py).

Everything of one table and its hall on this machine, on the shipped configs (``hall.sim``): the
hall mosquitto, the table's own mosquitto bridged to it over TLS, the table's ``mafia-table run
--sim`` controller, the judge's panel (``mafia-table judge``) on the table's broker, the hall
board on the hall's; in Debian's headless Chromium the panel logged in on a tablet (820x1180)
and on a phone (390x844), the stream overlay (1920x1080) and the hall board. A scripted judge
(``bench/evening_play.py``) plays whole games of the book back to back through the panel's live
channel, as its page does, with ``judge.game.scripted``'s players typing and pressing on the
table's ``sim/`` topics: a new game, the deal, the first night, days of speeches, nominations,
votes (ties, re-votes, the question), nights of shots, checks and a best move, the win; each
game's record goes to the hall through the bridge.

After each game, every process's resident memory (VmRSS), CPU seconds (utime + stime), open
files and threads, from /proc; for each page, its JS heap after a garbage collection and its DOM
nodes (the Chrome DevTools Protocol). Printed per process: the growth after the first game (the
first game warms caches, imports and pools up) as kB a game and kB an hour, fitted over every
game after the first, and the CPU seconds a game.

The floor, measured first in the same run: the whole stack idle (every process up, the pages
open, no game) for ``--idle`` seconds: what each process spends doing nothing (heartbeats,
keep-alives, timers), scaled to a game's length; each process's CPU a game is printed beside it
with the ratio.

``--record FILE`` writes the hall traffic the board reads, a JSON line a message and a mark
after each game (``bench/board_traffic.py``): ``bench/board_replay.py`` plays it into a board of
its own, an evening in a minute.

Verdicts: memory, every process of ours (the two mosquittos, the controller, the panel, the
board) and every page's JS heap grows by at most 1 MB over the evening after its first game
(its fitted slope times the games after the first; Chromium's own processes are printed, not
judged: they run on the judge's tablet and phone and the stream's machine, and what our pages
hold in them is their JS heap and DOM); CPU, the table's own processes (its
controller, its mosquitto, the judge's panel: what runs on the table's Pi) under 10 % of one
Pi 4 core during play, projected from this machine's figure by ``bench/pi4.py``'s comparison
(a published Pi 4 figure of a Python benchmark, and the same benchmark run here in this run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench import pi4, quick
from bench.board_traffic import Recorder
from bench.evening_play import LiveChannel, ScriptedJudge
from bench.figures import load_average
from contract.topics import topic_prefix
from hall.sim import SimulatedHall, password, with_board
from judge.game import load_rules
from kit.local_broker import free_port
from tests.support.chromium import headless_chromium
from tests.support.judge_panel import PASSWORD, Hands, Judge, book_game, judge_config
from tests.support.mqtt import with_json

if TYPE_CHECKING:
    from playwright.sync_api import Browser, CDPSession, Page

TICKS = os.sysconf("SC_CLK_TCK")
TABLE = "table-1"  # the simulated hall's first table; the panel's table
BOOK = "fiim"  # the book the evening plays (the scripted judge knows FIIM's stages)
#: the memory goal: at most this growth over the evening after the first game (kB)
MEMORY_GOAL_KB = 1024
#: the CPU goal: the table's own processes, during play, under this share of one Pi 4 core
CPU_GOAL = 0.10
#: what runs on the table's Pi (the rest: the hall's machine, the judge's tablet and phone)
ON_THE_PI = ("table controller", "table mosquitto", "judge's panel")


@dataclass(frozen=True)
class Sample:
    """One process at one moment: VmRSS (kB), CPU seconds, open files, threads."""

    rss_kb: int
    cpu_s: float
    files: int
    threads: int


def sample(pid: int) -> Sample:
    status = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return Sample(rss_kb=int(status["VmRSS"].split()[0]),
                  cpu_s=(int(stat[11]) + int(stat[12])) / TICKS,
                  files=len(os.listdir(f"/proc/{pid}/fd")),
                  threads=int(status["Threads"]))


def chromium_pids() -> list[int]:
    """Every Chromium process under this one (Playwright's driver starts the browser)."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue  # gone meanwhile
            names[int(entry)] = stat[stat.index("(") + 1:stat.rindex(")")]
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    mine = {os.getpid()}
    changed = True
    while changed:
        more = {pid for pid, parent in parents.items() if parent in mine} - mine
        changed = bool(more)
        mine |= more
    return sorted(pid for pid in mine if names[pid].startswith("chrom"))


def chromium_sample() -> Sample:
    """Chromium's processes summed (its renderers share pages with each other: a sum of RSS
    counts those more than once; what matters here is how it moves)."""
    parts = []
    for pid in chromium_pids():
        try:
            parts.append(sample(pid))
        except (OSError, KeyError):
            continue  # a helper process that ended meanwhile (a zombie has no VmRSS)
    return Sample(sum(p.rss_kb for p in parts), sum(p.cpu_s for p in parts),
                  sum(p.files for p in parts), sum(p.threads for p in parts))


@dataclass
class Watched:
    """A process's samples: after the idle floor's start and end, then after each game."""

    name: str
    pid: int | None  # None: Chromium's processes, summed
    idle: list[Sample] = field(default_factory=list)
    games: list[Sample] = field(default_factory=list)

    def now(self) -> Sample:
        return chromium_sample() if self.pid is None else sample(self.pid)


@dataclass
class PageWatch:
    """A page's JS heap after a collection (kB) and its DOM nodes, after each game."""

    name: str
    page: Page
    cdp: CDPSession
    heap_kb: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)

    def take(self) -> None:
        self.cdp.send("HeapProfiler.collectGarbage")
        self.heap_kb.append(self.cdp.send("Runtime.getHeapUsage")["usedSize"] / 1024)
        self.nodes.append(self.cdp.send("Memory.getDOMCounters")["nodes"])


def slope(values: list[float]) -> float:
    """The least-squares growth a game of ``values`` (one a game; 0 with fewer than two)."""
    if len(values) < 2:
        return 0.0
    return statistics.linear_regression(range(len(values)), values).slope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games of the evening (8)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (then +1)")
    parser.add_argument("--idle", type=float, default=60.0,
                        help="seconds of the idle floor before the first game (60)")
    parser.add_argument("--steps", type=int, default=200_000,
                        help="n-body steps of the Pi 4 comparison, three runs (200,000)")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="write the hall traffic the board reads to FILE, a JSON line a "
                             "message (bench/board_replay.py plays it again)")
    args = quick.arguments(parser, {"games": 2, "idle": 3.0, "steps": 20_000})
    load_before = load_average()
    with evening(args.record) as (judge, watched, pages, recorder):
        print(f"evening: {args.games} games of {BOOK} on {TABLE}, every process up; "
              f"idle floor {args.idle:g} s", flush=True)
        for w in watched:
            w.idle.append(w.now())
        time.sleep(args.idle)
        for w in watched:
            w.idle.append(w.now())
        durations, skipped, winners = [], [], []
        for n in range(args.games):
            started = time.monotonic()
            winners.append(judge.play(args.seed + n))
            durations.append(time.monotonic() - started)
            skipped.append(judge.skipped)
            for w in watched:
                w.games.append(w.now())
            for page in pages:
                page.take()
            if recorder is not None:
                recorder.mark(n + 1)
            print(f"  game {n + 1}: {winners[-1]} won in {durations[-1]:.0f} s (at a real "
                  f"table's pace {(durations[-1] + skipped[-1]) / 60:.0f} min); RSS kB: "
                  + ", ".join(f"{w.name} {w.games[-1].rss_kb}" for w in watched), flush=True)
    load_after = load_average()
    here_us = pi4.microseconds_a_step(args.steps)
    report(args, watched, pages, durations, statistics.mean(skipped), here_us)
    print(f"load average: before {load_before}, after {load_after}")


@contextmanager
def evening(record: Path | None = None) -> Iterator[
        tuple[ScriptedJudge, list[Watched], list[PageWatch], Recorder | None]]:
    """The hall, the table, the panel, the pages and the scripted judge, all up, and the hall's
    traffic recorded to ``record`` if given; stopped after."""
    with tempfile.TemporaryDirectory(prefix="bench-evening-") as tmp:
        root = Path(tmp)
        hall = SimulatedHall(root / "hall", 1)
        board_port = free_port()
        with with_board(hall, board_port, language="en") as board_url:
            table = hall.tables[TABLE]
            hands = Hands(table.broker.port)
            judge_dir = root / "judge"
            judge_dir.mkdir()
            listen = f"127.0.0.1:{free_port()}"
            judge = Judge(judge_config(judge_dir, table.broker.port, listen,
                                       game=book_game(BOOK, night_step=10.0)))
            try:
                hands.record.wait_for(with_json(f"{topic_prefix(TABLE)}status",
                                                state="online"), timeout=60)
                assert table.controller is not None and judge.process is not None
                assert hall.hall.pid is not None
                watched = [Watched("table controller", table.controller.pid),
                           Watched("table mosquitto", table.broker.pid),
                           Watched("judge's panel", judge.process.pid),
                           Watched("hall mosquitto", hall.hall.pid),
                           Watched("hall board", _board_pid(board_port)),
                           Watched("chromium (4 pages)", None)]
                with headless_chromium() as browser, \
                        LiveChannel(f"http://{listen}/", PASSWORD) as live, \
                        ExitStack() as recording:
                    recorder = None if record is None else recording.enter_context(
                        Recorder(hall.port, record, "rules-core", password("rules-core")))
                    pages = open_pages(browser, f"http://{listen}", board_url)
                    yield ScriptedJudge(live, hands, load_rules(BOOK)), watched, pages, recorder
            finally:
                judge.stop()
                hands.record.close()


def _board_pid(port: int) -> int:
    """The hall board's process: the one listening on ``port`` among this one's children."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"board" in cmdline and f"127.0.0.1:{port}".encode() in cmdline:
                return int(entry)
    raise RuntimeError("the hall board's process is not there")


def open_pages(browser: Browser, panel: str, board: str) -> list[PageWatch]:
    """The panel on a tablet and a phone (logged in, each its own browser context, as two
    devices), the overlay and the hall board (logged in)."""
    pages = []
    for name, width, height in (("panel on a tablet", 820, 1180),
                                ("panel on a phone", 390, 844)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(panel + "/")
        page.fill("#password", PASSWORD)
        page.click("#login")
        page.wait_for_selector("#table-status.good")
        pages.append((name, page))
    overlay = browser.new_page(viewport={"width": 1920, "height": 1080})
    overlay.goto(panel + "/overlay")
    overlay.wait_for_selector("#stage")
    board_page = browser.new_page(viewport={"width": 1280, "height": 800})
    board_page.goto(board)
    board_page.fill("#password", password("board"))
    board_page.click("#login")
    board_page.wait_for_selector(f'#table-{TABLE}[data-online="true"]')
    pages += [("overlay", overlay), ("hall board", board_page)]
    return [PageWatch(name, page, page.context.new_cdp_session(page)) for name, page in pages]


def report(args: argparse.Namespace, watched: list[Watched], pages: list[PageWatch],
           durations: list[float], skipped: float, here_us: float) -> None:
    """Per process, per page, the verdicts (``skipped``: a game's waits a real table has that
    the script did not wait, on average: speeches, the meeting, night steps)."""
    game_s = statistics.mean(durations)
    idle_s = args.idle
    print(f"evening: {len(durations)} games in {sum(durations):.0f} s, {game_s:.1f} s a game; "
          f"a real table's waits would add {skipped:.0f} s ({(game_s + skipped) / 60:.0f} min "
          "a game)")
    print("per process: RSS after game 1 -> after the last; growth fitted over the games, kB a "
          "game and an hour (of these games); CPU s a game; the idle floor's CPU s in a game's "
          "time; ratio; open files and threads, after game 1 -> after the last")
    for w in watched:
        rss = [float(s.rss_kb) for s in w.games]
        cpu = (w.games[-1].cpu_s - w.idle[-1].cpu_s) / len(durations)
        floor = (w.idle[1].cpu_s - w.idle[0].cpu_s) / idle_s * game_s
        ratio = f"{cpu / floor:.1f}x" if floor > 0 else "-"
        print(f"  {w.name}: RSS {rss[0] / 1024:.1f} -> {rss[-1] / 1024:.1f} MB; "
              f"{slope(rss):+.1f} kB a game, {slope(rss) * 3600 / game_s:+.0f} kB an hour; "
              f"CPU {cpu:.2f} s a game (idle floor {floor:.2f} s, {ratio}); "
              f"files {w.games[0].files} -> {w.games[-1].files}, "
              f"threads {w.games[0].threads} -> {w.games[-1].threads}")
    for p in pages:
        print(f"  page, {p.name}: JS heap {p.heap_kb[0]:.0f} -> {p.heap_kb[-1]:.0f} kB "
              f"({slope(p.heap_kb):+.1f} kB a game), DOM nodes {p.nodes[0]} -> {p.nodes[-1]}")
    after = len(durations) - 1  # the games after the first
    grown = [(w.name, [float(s.rss_kb) for s in w.games]) for w in watched if w.pid is not None]
    grown += [(f"page, {p.name} (JS heap)", p.heap_kb) for p in pages]
    for name, kbs in grown:
        fitted, grew = slope(kbs) * after, kbs[-1] - kbs[0]
        print(f"verdict memory {name}: {grew:+.0f} kB from game 1 to game {len(kbs)}, "
              f"fitted {fitted:+.0f} kB; goal <= {MEMORY_GOAL_KB} kB over the evening after "
              f"game 1: {'MET' if fitted <= MEMORY_GOAL_KB else 'MISSED'}")
    table = [w for w in watched if w.name in ON_THE_PI]
    cpu = sum((w.games[-1].cpu_s - w.idle[-1].cpu_s) for w in table) / len(durations)
    idle = sum((w.idle[1].cpu_s - w.idle[0].cpu_s) for w in table) / idle_s  # a second
    fast = cpu / game_s  # of a core, at this bench's pace
    real = (cpu + idle * skipped) / (game_s + skipped)  # the same game at a real table's pace
    slow15, slow18 = pi4.pi4_microseconds(1.5) / here_us, pi4.pi4_microseconds(1.8) / here_us
    print(f"Pi 4 core: n-body {here_us:.2f} us a step here, the published Pi 4's "
          f"{pi4.pi4_microseconds(1.5):.2f} us at 1.5 GHz ({slow15:.1f}x) and "
          f"{pi4.pi4_microseconds(1.8):.2f} us at 1.8 GHz ({slow18:.1f}x)")
    print(f"the table's Pi ({', '.join(ON_THE_PI)}): {cpu:.2f} s a game; here "
          f"{100 * fast:.2f} % of a core at this pace, {100 * real:.2f} % at a real table's "
          f"(idle floor {100 * idle:.2f} %); on a Pi 4 at 1.5 GHz {100 * fast * slow15:.1f} % "
          f"at this pace, {100 * real * slow15:.1f} % at a real table's")
    print(f"verdict CPU of the table's Pi during play, on a Pi 4 at 1.5 GHz: "
          f"{100 * real * slow15:.1f} % of a core at a real table's pace (at this bench's "
          f"{100 * fast * slow15:.1f} %); goal < {100 * CPU_GOAL:g} %: "
          f"{'MET' if real * slow15 < CPU_GOAL else 'MISSED'}")


if __name__ == "__main__":
    main()
