"""A club evening's hall traffic, as the hall board reads it: recorded, and played again.

``bench/evening.py --record FILE`` writes every message the board reads on the hall broker
(each table's ``status``, ``state``, ``health``, ``bridge`` and ``record/``), one JSON line
each (``{"t": seconds since the start, "topic": ..., "payload": base64, "retain": bool}``) and,
after each game, ``{"game": n}``. ``bench/board_replay.py`` plays such a file into a hall board
of its own, game after game, at speed: an evening of the board's work in minutes, without the
table, the panel or Chromium.
"""

from __future__ import annotations

import base64
import gzip
import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from contract.topics import topic_prefix
from hall import tables
from results import feed

#: what the board subscribes to (hall/board.py), for every table
TOPICS = [topic_prefix("+") + topic for topic in (*tables.TOPICS, feed.TOPIC + "+")]


@dataclass(frozen=True)
class Message:
    """One message as the board got it: ``at`` seconds after the recording began."""

    at: float
    topic: str
    payload: bytes
    retain: bool


class Recorder:
    """Every message the board reads on the hall broker at ``port``, written to ``path`` as it
    comes (the ``rules-core`` account, which reads all: the board's own account would take its
    client id, mafia.conf's ``use_username_as_clientid``)."""

    def __init__(self, port: int, path: Path, username: str, password: str):
        self._file: IO[str] = path.open("w", encoding="utf-8")
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._started = time.monotonic()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=username,
                                  protocol=mqtt.MQTTv311)
        self.client.username_pw_set(username, password)
        self.client.on_connect = lambda c, *_: c.subscribe([(t, 1) for t in TOPICS])
        self.client.on_subscribe = lambda *_: self._subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not self._subscribed.wait(30):
            raise RuntimeError("the recorder could not subscribe on the hall broker")

    def _on_message(self, client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        self._write({"t": round(time.monotonic() - self._started, 3), "topic": message.topic,
                     "payload": base64.b64encode(message.payload).decode(),
                     "retain": bool(message.retain)})

    def mark(self, game: int) -> None:
        """Game ``game`` is over (its record may still be on its way through the bridge)."""
        self._write({"game": game})

    def _write(self, line: dict[str, object]) -> None:
        with self._lock:
            self._file.write(json.dumps(line) + "\n")
            self._file.flush()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.client.loop_stop()
        self.client.disconnect()
        self._file.close()


def read(path: Path) -> list[list[Message]]:
    """A recording's games (``.gz``: gzipped), each the messages up to its mark (what came
    after the last mark is dropped: a game not finished)."""
    games: list[list[Message]] = []
    current: list[Message] = []
    data = path.read_bytes()
    text = (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")
    for n, line in enumerate(text.splitlines(), 1):
        said = json.loads(line)
        if not isinstance(said, dict):
            raise ValueError(f"{path}:{n}: not a JSON object")
        if "game" in said:
            games.append(current)
            current = []
        elif {"t", "topic", "payload", "retain"} <= said.keys():
            current.append(Message(float(said["t"]), str(said["topic"]),
                                   base64.b64decode(said["payload"]), bool(said["retain"])))
        else:
            raise ValueError(f"{path}:{n}: neither a message nor a game's mark")
    return games


def renamed(messages: list[Message], games: dict[str, str]) -> list[Message]:
    """``messages`` with each game id of ``games`` replaced by its new name, in topics and
    payloads (a game played again is a new game to the hall's store)."""
    out = []
    for m in messages:
        topic, payload = m.topic, m.payload
        for old, new in games.items():
            topic = topic.replace(old, new)
            payload = payload.replace(old.encode(), new.encode())
        out.append(Message(m.at, topic, payload, m.retain))
    return out


def game_ids(messages: list[Message]) -> set[str]:
    """The games whose records are among ``messages``."""
    return {m.topic.split("/")[3] for m in messages if m.topic.split("/")[2:3] == ["record"]}
