"""The hall's store of games (hall/store.py, issue 29 item 3): every game a table sends on
``record/<game>`` kept per table and game, a correction replacing it with the history saying
so, a copy or an older revision changing nothing, what is no record refused and counted, and
the games reaching it from a table's own broker through the bridge (retained, QoS 1)."""

from __future__ import annotations

import sqlite3

import pytest

from hall.sim import SimulatedHall, password
from hall.store import MIGRATIONS, VERSION, HallStore, StoreError
from judge.record import document as rec
from judge.record.feed import RecordFeed
from kit.i18n import render
from results import feed
from tests.support.mqtt import Subscriber
from tests.support.record_game import built, whole_game


def finished() -> rec.Record:
    return built(whole_game().inputs)


def corrected(record: rec.Record) -> rec.Record:
    return rec.apply_edits(record, [rec.Edit(
        kind="correction", at=2e9, by="judge", reason="misspelt", path="/players/0/name",
        before=record.players[0].name, after="Anya")])


def sent(record: rec.Record | None, revision: int, game: str = "", **fields) -> tuple[str,
                                                                                      bytes]:
    game = game or (record.id if record is not None else "g")
    return feed.topic("table-1", game), feed.encode(
        feed.message("table-1", game, revision, float(revision), record, **fields))


@pytest.fixture
def store(tmp_path):
    kept = HallStore(tmp_path / "hall.db")
    yield kept
    kept.close()


def test_a_game_is_kept_once_and_a_copy_or_an_older_revision_changes_nothing(store):
    game = finished()
    first = store.receive(*sent(game, 2), now=10.0)
    assert (first.kind, first.game, first.changed) == ("received", game.id, True)
    assert store.receive(*sent(game, 2), now=11.0).kind == "copy"  # QoS 1, the retained again
    assert store.receive(*sent(game, 1), now=12.0).kind == "older"
    [held] = store.games()
    assert held.record == game and held.message.revision == 2 and held.received == 10.0
    assert [(e.revision, e.received) for e in store.history(game.id)] == [(2, 10.0)]


def test_a_correction_replaces_the_game_and_the_history_says_what_changed(store):
    game = finished()
    store.receive(*sent(game, 1), now=1.0)
    fixed = corrected(game)
    assert store.receive(*sent(fixed, 2), now=2.0).kind == "replaced"
    [held] = store.games()
    assert held.record is not None and held.record.players[0].name == "Anya"
    first, second = store.history(game.id)
    assert str(first.what).startswith("received (finished")
    assert second.revision == 2 and str(second.what).startswith("replaced (finished")
    assert "correction by the judge: misspelt" in str(second.what)
    assert render(second.what, "ru") == \
        "заменена (завершена, победа красных): исправление, судья: misspelt"


def test_a_game_withdrawn_at_the_table_is_held_without_its_record_until_it_is_over_again(store):
    game = finished()
    store.receive(*sent(game, 1), now=1.0)
    gone = store.receive(*sent(None, 2, game.id, withdrawn="reopened"), now=2.0)
    assert gone.kind == "withdrawn"
    [held] = store.games()
    assert held.record is None and held.message.withdrawn == "reopened"
    assert str(store.history(game.id)[-1].what) == "withdrawn: reopened"
    store.receive(*sent(game, 3), now=3.0)
    assert store.games()[0].record == game


def test_what_is_no_record_or_a_game_in_play_is_refused_counted_and_kept_as_it_came(tmp_path):
    store = HallStore(tmp_path / "hall.db")
    game = finished()
    store.receive(*sent(game, 1), now=1.0)
    playing = built(whole_game().inputs[:-1])  # the roles and the nights: secret until over
    early = store.receive(*sent(playing, 1), now=2.0)
    assert early.kind == "refused" and "still in progress" in early.why
    assert store.receive("mafia/table-1/record/g", b"{not json", now=3.0).kind == "refused"
    other_topic = sent(corrected(game), 2)[1]
    assert store.receive("mafia/table-2/record/" + game.id, other_topic,
                         now=4.0).kind == "refused"
    assert store.refusals == 3
    assert [held.record for held in store.games()] == [game]  # nothing held changed
    assert [topic for topic, _, _ in store.refused()] == [
        feed.topic("table-1", playing.id), "mafia/table-1/record/g",
        "mafia/table-2/record/" + game.id]
    store.close()
    again = HallStore(tmp_path / "hall.db")  # a restarted board: the games and the count
    try:
        assert again.refusals == 3 and [h.record for h in again.games()] == [game]
    finally:
        again.close()


def test_a_store_of_a_newer_program_is_refused_rather_than_read_wrongly(tmp_path):
    HallStore(tmp_path / "hall.db").close()
    with sqlite3.connect(tmp_path / "hall.db") as db:
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
    with pytest.raises(StoreError, match="newer program"):
        HallStore(tmp_path / "hall.db")


def test_a_history_line_of_a_version_1_store_is_kept_as_its_text(tmp_path):
    """Version 1 kept the history's words as English; version 2 keeps Words, and the
    migration keeps each older line as a text, shown as it was in every language."""
    with sqlite3.connect(tmp_path / "hall.db") as db:
        db.executescript(f"{MIGRATIONS[0]}; PRAGMA user_version = 1;")
        db.execute("INSERT INTO history (game, revision, received, what) VALUES "
                   "('g-1', 1, 1.0, 'received (finished, red won)')")
    store = HallStore(tmp_path / "hall.db")
    try:
        [entry] = store.history("g-1")
        assert render(entry.what, "ru") == render(entry.what, "en") == \
            "received (finished, red won)"
    finally:
        store.close()


def test_the_tournament_document_is_kept(store):
    assert store.tournament() is None
    store.save_tournament(b'{"id": "t-1"}')
    store.save_tournament(b'{"id": "t-2"}')
    assert store.tournament() == b'{"id": "t-2"}'


# ------------------------------------------------------------------ through the bridge


def test_a_tables_games_reach_the_halls_store_through_the_bridge_retained_and_corrected(
        tmp_path):
    """Published as the judge's panel does (``judge.record.feed``: retained, QoS 1) on the
    table's own broker; the bridge carries ``record/#`` to the hall, where the board's account
    reads it (a late subscriber too: retained), and the correction replaces the game."""
    hall = SimulatedHall(tmp_path / "hall", 1)
    hall.start(controllers=False)
    table = hall.tables["table-1"]
    panel = Subscriber(table.broker.port, [])
    kept = RecordFeed(tmp_path / "judge.db", "table-1")
    store = HallStore(tmp_path / "board.db")
    watching: list[Subscriber] = []

    def publish() -> None:
        for out in kept.unacked():
            panel.client.publish(out.topic, out.payload, qos=1, retain=True).wait_for_publish(10)
            kept.acked(out.game, out.revision)

    def board(n: int) -> Subscriber:
        """The board's account at the hall, once it holds revision ``n`` of the game."""
        watch = Subscriber(hall.port, ["mafia/+/record/+"],
                           auth=("hall-board", password("hall-board")))
        watching.append(watch)
        watch.wait_for(lambda m: feed.decode(m.topic, m.payload)[0].revision == n, timeout=30)
        return watch

    try:
        game = finished()
        kept.offer(game, 1.0)
        publish()
        early = board(1)
        kept.offer(corrected(game), 2.0)
        publish()
        board(2)
        early.wait_for(lambda m: feed.decode(m.topic, m.payload)[0].revision == 2, timeout=30)
        for m in early.messages:  # live: revision 1, then 2
            store.receive(m.topic, m.payload, m.at)
        late = board(2)  # connected after both: the retained latest only
        assert [m.retain for m in late.messages] == [True]
        for m in late.messages:
            assert store.receive(m.topic, m.payload, m.at).kind == "copy"
        [held] = store.games()
        assert held.message.table == "table-1" and held.message.revision == 2
        assert held.record is not None and held.record.players[0].name == "Anya"
        assert [e.what.key for e in store.history(game.id)] == [
            "tournament.history.received", "tournament.history.replaced"]
    finally:
        for watch in watching:
            watch.close()
        panel.close()
        kept.close()
        store.close()
        hall.close()
