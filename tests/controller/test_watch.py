"""``mafia-table watch``: the technician's view of a table, as a client of the API."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading

from hypothesis import given
from hypothesis import strategies as st

from contract.event_seq import missed
from controller.watch import Watcher
from tests.support.mqtt import with_json
from tests.support.running import Running, online


def event(seq: int, kind: str = "seat/press", **fields) -> tuple[str, bytes]:
    body = {"v": 1, "ts": "2026-11-29T21:22:15.481Z", "id": f"s-{seq}", "seq": seq,
            "source": "gpio", **({"seat": 3} if kind.startswith("seat") else {"button": "next"}),
            **fields}
    return f"event/{kind}", json.dumps(body).encode()


def test_events_are_shown_with_their_seq_gaps_called_out_duplicates_skipped():
    w = Watcher()
    assert w.line(*event(1)).endswith("#1      seat 3 press")
    assert w.line(*event(1)) is None  # the same id again
    assert w.line(*event(2, "judge/release")).endswith("#2      judge next release")
    assert w.line(*event(5)).endswith("#5      seat 3 press   << missed seq 3..4")


def test_state_status_health_and_replies_read_as_one_line_each():
    w = Watcher()
    ts = '"v": 1, "ts": "2026-11-29T21:22:15.481Z"'
    standing = {"in_game": True, "fouls": 0, "silenced": False, "immune": False}
    state = {"v": 1, "ts": "2026-11-29T21:22:15.481Z", "table": "t", "phase": "idle",
             "seats": [{"seat": 1, "light": {"mode": "on", "color": "#ff0000"}, "manual": None,
                        "standing": standing},
                       {"seat": 2, "light": {"mode": "off", "color": None}, "manual": None,
                        "standing": {**standing, "in_game": False}}],
             "vote": None, "day": 0, "nominations": [], "timer": None}
    line = w.line("state", json.dumps(state).encode())
    assert line.endswith("state   idle | 1:on#ff0000 2:off")
    status = f'{{{ts}, "state": "offline", "version": "0.1.0", "boot_id": "b"}}'
    assert "status  OFFLINE (v0.1.0, boot b)" in w.line("status", status.encode())
    health = (f'{{{ts}, "boot_id": "b", "gpio": "mock", '
              '"outbox": {"depth": 12, "limit": 10, "over_limit": true}}')
    assert "outbox 12/10   << OVER LIMIT" in w.line("health", health.encode())
    reply = f'{{{ts}, "id": "c1", "ok": false, "error": "no seat 12"}}'
    assert w.line("reply/light", reply.encode()).endswith("reply   light c1: REFUSED: no seat 12")


def test_a_malformed_message_is_reported_not_fatal():
    line = Watcher().line("event/seat/press", b'{"seq": "x"}')
    assert line.startswith("?") and "not a valid event message" in line


def test_watch_shows_a_live_table_and_stops_cleanly(table_config, broker, subscriber):
    run = Running(table_config)
    watch = subprocess.Popen(
        [sys.executable, "-m", "mafia_table.cli", "watch", "--broker", f"127.0.0.1:{broker.port}",
         "--table", "t1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    threading.Thread(target=lambda: [lines.put(x) for x in watch.stdout], daemon=True).start()

    def expect(text: str) -> str:
        while True:
            line = lines.get(timeout=10)
            if text in line:
                return line

    try:
        online(subscriber)
        expect("status  ONLINE")
        run.pin(4).drive_low()
        expect("seat 1 press")
        subscriber.publish("mafia/t1/cmd/light", '{"id": "w", "lights": [{"seat": 2, "mode": '
                                                 '"blink"}]}')
        subscriber.wait_for(with_json("mafia/t1/reply/light", id="w"))
        expect("2:blink")
        expect("reply   light w: ok")
    finally:
        watch.send_signal(signal.SIGTERM)
        code = watch.wait(10)
        run.close()
    assert code == 0, watch.stderr.read()


def test_a_journal_in_trouble_is_called_out_on_the_health_line():
    w = Watcher()
    journal = {"ok": False,
               "problems": ["cannot write the journal /j.db: database or disk is full"],
               "held": 3, "hold_limit": 10, "dropped": 2, "moved_aside": []}
    health = {"v": 1, "ts": "2026-11-29T21:22:15.481Z", "boot_id": "b", "gpio": "mock",
              "outbox": {"depth": 3, "limit": 10, "over_limit": False}, "journal": journal}
    line = w.line("health", json.dumps(health).encode())
    assert line.endswith("outbox 3/10   << JOURNAL: cannot write the journal /j.db: database or "
                         "disk is full; 3 events held in memory (at most 10); 2 events REFUSED")



@given(st.sets(st.integers(1, 300), min_size=1), st.randoms(use_true_random=False))
def test_missed_names_exactly_the_seqs_that_never_came(arrived, rng):
    """A journal numbers its events 1, 2, 3... without gaps. Whatever arrives (in order, then
    some again, redelivered), the seqs ``missed`` names on the way are exactly those after the
    first one seen and before the newest that never came: a redelivered one names none."""
    stream = sorted(arrived) + rng.sample(sorted(arrived), k=len(arrived) // 2)
    last, named = 0, set()
    for seq in stream:
        named |= set(missed(last, seq))
        last = max(last, seq)
    assert named == set(range(min(arrived), max(arrived) + 1)) - arrived
