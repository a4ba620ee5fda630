"""The hall board over a long evening, alone: a recorded evening's hall traffic played into it
game after game, at speed, and its memory after each game (issue 40).

    .venv/bin/python -m bench.board_replay --games 20     # bench/evening-hall.jsonl.gz
    .venv/bin/python -m bench.evening --record evening.jsonl    # another evening recorded,
    .venv/bin/python -m bench.board_replay evening.jsonl        # and played

A hall mosquitto on the shipped config (``hall.sim``, no table behind it) and the hall board on
it, as the evening bench runs them, with the board's page open (a logged-in WebSocket on its
live channel that reads every push, as the page's). The recording's games
(``bench.board_traffic``) are published again in turn under the table's own account, each game
id renamed (``-r<n>``) so that each game played is a new game to the hall's store, as at a
club: state, health, the bridge and the record, in their order, ``--pace`` times their recorded
pace (0: as fast as the broker takes them). After each game, once the board showed the game's
last state (so it has handled every message before it), the board's VmRSS and where it lives in
/proc/PID/smaps (``[heap]``: glibc's main arena; other anonymous mappings: pymalloc's arenas,
threads' arenas, big allocations).

Printed: the board's RSS after each game, and its growth after the first game, fitted over
every game after the first, a game and over the evening (the goal: at most 1 MB,
``bench.evening``'s ``MEMORY_GOAL_KB``); the floor, the board with its page open and no game,
for ``--idle`` seconds, measured first in the same run. ``--quick``: the recording's first game
twice. ``bench/evening-hall.jsonl.gz`` is four games of ``bench.evening`` recorded on
2026-12-05 (FIIM, the scripted judge): each record message must still be one this board takes
(a record's schema moved on: record an evening again), else the run fails and says so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from bench import quick
from bench.board_traffic import Message, game_ids, read, renamed
from bench.evening import MEMORY_GOAL_KB, sample, slope
from bench.figures import load_average
from hall.sim import SimulatedHall, password, start_board, wait_for_board
from kit.local_broker import free_port

#: four games of ``bench.evening`` at the hall, recorded (``--record``)
RECORDING = Path(__file__).with_name("evening-hall.jsonl.gz")


def smaps(pid: int) -> dict[str, int]:
    """The process's resident kB by kind of mapping: ``heap`` (glibc's main arena), ``anon``
    (every other anonymous mapping: pymalloc's arenas, threads' malloc arenas, large blocks),
    ``file`` (code and data of files)."""
    found = {"heap": 0, "anon": 0, "file": 0}
    kind = "anon"
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split(maxsplit=5)
        if len(head) >= 5 and "-" in head[0] and ":" in head[3]:  # a mapping's first line
            name = head[5] if len(head) == 6 else ""
            kind = "heap" if name == "[heap]" else "file" if name.startswith("/") else "anon"
        elif head and head[0] == "Rss:":
            found[kind] += int(head[1])
    return found


class Publisher:
    """Publishes as table ``table`` on the hall broker (its account, QoS 1, in order)."""

    def __init__(self, port: int, table: str):
        self._connected = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=table,
                                  protocol=mqtt.MQTTv311)
        self.client.username_pw_set(table, password(table))
        self.client.max_queued_messages_set(0)
        self.client.on_connect = lambda *_: self._connected.set()
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not self._connected.wait(30):
            raise RuntimeError(f"{table} could not connect to the hall broker")

    def send(self, messages: list[Message], pace: float) -> None:
        started, first = time.monotonic(), messages[0].at if messages else 0.0
        for m in messages:
            if pace > 0:
                time.sleep(max(0.0, started + (m.at - first) * pace - time.monotonic()))
            self.client.publish(m.topic, m.payload, qos=1, retain=m.retain)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class BoardPage:
    """The board's page: logged in, its live channel read on a loop of its own thread; the
    table rows' ``game`` of the latest push."""

    def __init__(self, url: str):
        self.url = url
        self.games: dict[str, Any] = {}
        self.refused = 0  # the messages of record/ the board's store refused
        self.pushes = 0
        self._changed = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(30)

    async def _open(self) -> None:
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                          headers={"Origin": self.url})
        async with self.http.post(self.url + "/login",
                                  data={"password": password("board")}) as login:
            if login.status != 200:
                raise RuntimeError(f"the board refused the login: {login.status}")
        self.ws = await self.http.ws_connect(self.url + "/live", compress=15)  # as a browser
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            said = json.loads(message.data)
            if said.get("type") == "board":
                with self._changed:
                    self.pushes += 1
                    self.games = {r["table"]: r["game"] for r in said["tables"]}
                    self.refused = said["tournament"]["refused"]
                    self._changed.notify_all()

    def shows(self, table: str, game: str, timeout: float = 300.0) -> None:
        with self._changed:
            if not self._changed.wait_for(lambda: self.games.get(table) == game, timeout):
                raise RuntimeError(f"the board never showed {table}'s game {game}")

    def close(self) -> None:
        async def closing() -> None:
            await self.ws.close()
            await self.http.close()
        asyncio.run_coroutine_threadsafe(closing(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


@contextmanager
def board_alone(tables: list[str]) -> Iterator[tuple[int, SimulatedHall, str]]:
    """The hall broker (no table behind it: ``tables`` are spare accounts) and the board on it;
    its pid, the hall and its address."""
    with tempfile.TemporaryDirectory(prefix="bench-board-replay-") as tmp:
        hall = SimulatedHall(Path(tmp), 0, spare_tables=len(tables))
        port = free_port()
        process: subprocess.Popen[bytes] | None = None
        try:
            hall.start(controllers=False)
            process = start_board(hall, port, language="en")
            wait_for_board(port, process)
            yield process.pid, hall, f"http://127.0.0.1:{port}"
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
            hall.close()


def ending(messages: list[Message], game: str) -> Message:
    """The game's last state again, its ``game`` set to ``game``: when the board shows it, it
    has handled everything published before it."""
    last = next(m for m in reversed(messages) if m.topic.endswith("/state"))
    state = json.loads(last.payload)
    state["game"] = game
    return Message(last.at, last.topic, json.dumps(state).encode(), last.retain)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recording", type=Path, nargs="?", default=RECORDING,
                        help="a recorded evening (bench.evening --record FILE; default "
                             "bench/evening-hall.jsonl.gz)")
    parser.add_argument("--games", type=int, default=20, help="games to play (20)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="times the recorded pace (0: as fast as the broker takes them)")
    parser.add_argument("--idle", type=float, default=10.0,
                        help="seconds of the idle floor before the first game (10)")
    args = quick.arguments(parser, {"games": 2, "idle": 1.0})
    if args.games < 2 or args.pace < 0 or args.idle < 0:
        parser.error("--games takes 2 or more (a growth after the first), --pace and --idle "
                     "0 or more")
    try:
        games = read(args.recording)
    except (OSError, ValueError, EOFError) as exc:  # gzip's, JSON's, base64's
        raise SystemExit(f"{args.recording}: not a recorded evening: {exc}") from None
    recorded = [g for g in games if any(m.topic.endswith("/state") for m in g)]
    if not recorded:
        raise SystemExit(f"{args.recording}: no game recorded")
    tables = sorted({m.topic.split("/")[1] for g in recorded for m in g})
    load_before = load_average()
    with board_alone(tables) as (pid, hall, url):
        page = BoardPage(url)
        publisher = Publisher(hall.port, tables[0])
        print(f"board replay: {args.games} games of {args.recording.name} ({len(recorded)} "
              f"recorded, {sum(map(len, recorded))} messages) into the board, pace "
              f"{args.pace:g}; idle floor {args.idle:g} s", flush=True)
        idle = [sample(pid)]
        time.sleep(args.idle)
        idle.append(sample(pid))
        print(f"  floor, the board idle with its page open {args.idle:g} s: RSS "
              f"{idle[0].rss_kb} -> {idle[1].rss_kb} kB, CPU "
              f"{idle[1].cpu_s - idle[0].cpu_s:.2f} s", flush=True)
        rss: list[float] = []
        for n in range(args.games):
            game = recorded[n % len(recorded)]
            messages = renamed(game, {g: f"{g}-r{n}" for g in game_ids(game)})
            end = ending(messages, f"replay-{n}")
            started = time.monotonic()
            publisher.send([*messages, end], args.pace)
            page.shows(end.topic.split("/")[1], f"replay-{n}")
            took = time.monotonic() - started
            now, where = sample(pid), smaps(pid)
            rss.append(now.rss_kb)
            print(f"  game {n + 1}: {len(messages)} messages in {took:.1f} s; RSS "
                  f"{now.rss_kb} kB (heap {where['heap']}, anon {where['anon']}, file "
                  f"{where['file']}); CPU {now.cpu_s:.1f} s; pushes {page.pushes}", flush=True)
        refused = page.refused
        page.close()
        publisher.close()
    if refused:
        raise SystemExit(f"the board refused {refused} of the recording's record messages "
                         "(their schema moved on?): record an evening again (bench.evening "
                         "--record FILE)")
    after = len(rss) - 1
    fitted = slope(rss) * after
    print(f"board: RSS {rss[0] / 1024:.1f} -> {rss[-1] / 1024:.1f} MB after game 1 -> "
          f"{len(rss)}; {slope(rss):+.1f} kB a game, fitted {fitted:+.0f} kB over the games "
          f"after the first; the last half {slope(rss[len(rss) // 2:]):+.1f} kB a game")
    print(f"verdict memory hall board, replayed: {rss[-1] - rss[0]:+.0f} kB from game 1 to game "
          f"{len(rss)}, fitted {fitted:+.0f} kB; goal <= {MEMORY_GOAL_KB} kB over the evening "
          f"after game 1: {'MET' if fitted <= MEMORY_GOAL_KB else 'MISSED'}")
    print(f"load average: before {load_before}, after {load_average()}")


if __name__ == "__main__":
    main()
