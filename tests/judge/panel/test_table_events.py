"""The judge reads the table's events with the controller's types (judge/panel/table_events.py): a
payload is decoded once at the panel's edge, a bad one is refused and counted, and a journal
written before the events were typed (each event's payload as a dict) still replays."""

from __future__ import annotations

import json
import sqlite3

import msgspec
import pytest

from contract import api, events
from judge.game import Action, TableEvent, new_game, replay
from judge.panel import config as judge_config
from judge.panel import table_events
from judge.panel.journal import Journal
from judge.panel.service import Panel
from judge.record import document as rec
from tests.support.judge_configs import GOOD, write
from tests.support.record_game import whole_game
from tests.support.table_event import table_event

STAMP = {"v": 1, "ts": "2026-12-01T09:00:00.000Z"}


def published(given: TableEvent, seq: int) -> dict:
    """The payload the table published for ``given``: the event with its envelope."""
    return {**msgspec.to_builtins(given.event), **STAMP, "id": f"store-{seq}", "seq": seq}


def test_a_published_payload_decodes_into_the_controllers_own_type():
    body = published(table_event("event/nomination", by=2, seat=5, outcome="accepted"), 7)
    given = table_events.decode("event/nomination", json.dumps(body).encode())
    assert isinstance(given.event, events.NominationEvent)
    assert isinstance(given.event, api.EVENT_TYPES["nomination"])
    assert (given.event.by, given.event.seat, given.event.seq) == (2, 5, 7)
    state = table_events.decode("state", json.dumps({"day": 3, "phase": "idle"}).encode())
    assert state.event == events.DayEvent(day=3)
    assert table_events.decode("event/nothing/here", b"{}") is None
    assert table_events.decode("status", b"{}") is None


@pytest.mark.parametrize(("topic", "payload", "says"), [
    ("event/vote/result", b"{not json", "malformed"),
    ("event/vote/result", b"[]", "Expected `object`"),
    ("event/nomination", json.dumps({**STAMP, "id": "s-1", "seq": 1, "by": 0, "seat": 5,
                                     "outcome": "accepted", "reason": None, "day": 1,
                                     "nominees": []}).encode(), "$.by"),
    ("event/nomination", json.dumps({"by": 1, "seat": 5, "outcome": "accepted",
                                     "reason": None, "day": 1, "nominees": []}).encode(),
     "`v`"),  # published without its envelope
    ("private/night/result", json.dumps({**STAMP, "id": "s-2", "seq": 2, "step": "x"}).encode(),
     "night_step"),
    ("state", b'{"day": "two"}', "$.day"),
])
def test_a_payload_that_is_not_its_type_is_refused_naming_the_field(topic, payload, says):
    with pytest.raises(table_events.BadEvent, match=says.replace("$", r"\$").replace("`", ".")):
        table_events.decode(topic, payload)


def test_the_panel_refuses_and_counts_a_bad_event_and_loses_nothing(tmp_path):
    panel = Panel(judge_config.load(write(tmp_path, GOOD)))
    for kind, args in (("deal", {"seed": 4}), ("start", {}), ("next", {}), ("next", {})):
        panel.apply(Action(kind, args))
    good = published(table_event("event/nomination", by=1, seat=6, outcome="accepted"), 1)
    panel._on_table("event/nomination", json.dumps(good).encode())
    held = panel.game
    assert held.nominees == (6,)
    for payload in (b"{not json", json.dumps({**good, "seat": "six", "seq": 2}).encode(),
                    json.dumps({**good, "outcome": "maybe", "seq": 3}).encode()):
        panel._on_table("event/nomination", payload)
    assert panel.game is held and panel.live.seen.bad_events == 3
    assert json.loads(panel.live.text())["table"]["bad_events"] == 3
    panel._on_table("event/nomination", json.dumps(good).encode())  # redelivered: dropped
    assert panel.game is held
    panel._on_table("event/nomination", json.dumps({**good, "seat": 7, "seq": 4,
                                                    "id": "store-4"}).encode())
    assert panel.game.nominees == (6, 7) and panel.journal.last_seq("event") == 4
    panel.journal.close()
    again = Panel(judge_config.load(write(tmp_path, GOOD)))
    assert again.game == panel.game
    again.journal.close()


def old_journal(path, inputs) -> None:
    """A journal as the panel wrote it before the events were typed: each event's published
    payload as a dict (``state`` all of it, or only ``day`` from a new game)."""
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE inputs (n INTEGER PRIMARY KEY, at REAL NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('action', 'event')), name TEXT NOT NULL,
        body TEXT NOT NULL);""")
    for seq, (given, at) in enumerate(inputs, start=1):
        if isinstance(given, Action):
            row = ("action", given.kind, dict(given.args))
        elif given.topic == "state":
            row = ("event", "state", {**STAMP, "table": "table-1", "phase": "idle",
                                      "seats": [], "vote": None, "day": given.event.day,
                                      "nominations": [], "timer": None})
        else:
            row = ("event", given.topic, published(given, seq))
        db.execute("INSERT INTO inputs (at, kind, name, body) VALUES (?, ?, ?, ?)",
                   (at, row[0], row[1], json.dumps(row[2])))
    db.commit()
    db.close()


def played(inputs) -> list:
    return [done.game for done in replay(new_game(), inputs, lambda given, exc: None)]


def test_a_journal_written_in_the_old_dict_form_replays_to_the_same_game_and_record(tmp_path):
    script = whole_game().inputs
    old_journal(tmp_path / "old.db", script)
    journal = Journal(tmp_path / "old.db")
    read = list(journal.inputs())
    assert len(read) == len(script)
    for (now, _), (then, _) in zip(read, script, strict=True):
        if isinstance(then, TableEvent):  # the typed event, with the envelope it was sent with
            assert isinstance(now, TableEvent) and isinstance(now.event, type(then.event))
        else:
            assert now == then
    assert played(read)[-1] == played(script)[-1]
    assert played(read)[-1].winner == "red"
    assert rec.build(read, "table-1") == rec.build(script, "table-1")
    journal.close()


def test_an_unreadable_row_of_an_old_journal_is_skipped_and_the_rest_replays(tmp_path, caplog):
    script = whole_game().inputs
    old_journal(tmp_path / "old.db", script)
    db = sqlite3.connect(tmp_path / "old.db")
    db.execute("INSERT INTO inputs (at, kind, name, body) VALUES (1, 'event', "
               "'event/vote/result', '{\"outcome\": 5}')")
    db.commit()
    db.close()
    journal = Journal(tmp_path / "old.db")
    assert played(journal.inputs())[-1] == played(script)[-1]
    assert "unreadable, skipped" in caplog.text
    journal.close()
