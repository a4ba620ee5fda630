"""A game over goes from the judge's panel to the hall (judge/record/feed.py, results/feed.py):
its record retained on ``mafia/<table>/record/<game>``, QoS 1, a new revision for each later
edit, nothing while the game is in play, kept in the panel's SQLite until the broker has it
(the broker away at the end, the panel restarted), and the hall's seating naming the players."""

from __future__ import annotations

import asyncio
import json

import pytest

from judge.game import Action
from judge.panel import config as judge_config
from judge.panel.service import Panel
from judge.record import document as rec
from judge.record.feed import REOPENED, RecordFeed
from kit.local_broker import LocalBroker
from results import feed
from tests.support.judge_configs import GOOD, write
from tests.support.mqtt import Subscriber
from tests.support.record_game import ROLES, built, whole_game
from tests.support.waiting import until_async

RECORDS = "mafia/table-1/record/#"


def finished() -> rec.Record:
    return built(whole_game().inputs)


def extra(record: rec.Record, points: float) -> rec.Record:
    edit = rec.Edit(kind="extra_points", at=2e9, by="judge", reason="r",
                    after={"seat": 4, "points": points, "reason": "r", "by": "judge", "at": 2e9})
    return rec.apply_edits(record, [edit])


# ------------------------------------------------------------------ the feed's own rules


def test_a_finished_game_makes_revision_1_and_the_same_record_again_makes_nothing(tmp_path):
    kept = RecordFeed(tmp_path / "j.db", "table-1")
    game = finished()
    out = kept.offer(game, 100.0)
    assert out is not None and (out.game, out.revision) == (game.id, 1)
    assert out.topic == f"mafia/table-1/record/{game.id}"
    message, record = feed.decode(out.topic, out.payload)
    assert record == game and message.at == 100.0 and message.round is None
    assert kept.offer(game, 101.0) is None
    assert kept.unacked() == [out]  # the same bytes, until the broker has them
    kept.acked(game.id, 1)
    assert kept.unacked() == []


def test_each_edit_makes_the_next_revision_and_only_the_latest_waits(tmp_path):
    kept = RecordFeed(tmp_path / "j.db", "table-1")
    game = finished()
    kept.offer(game, 1.0)
    second = kept.offer(extra(game, 0.3), 2.0)
    assert second is not None and second.revision == 2
    kept.acked(game.id, 1)  # the first revision's late acknowledgement
    assert kept.unacked() == [second]


def test_nothing_of_a_game_in_play_is_offered_and_a_reopened_game_is_withdrawn(tmp_path):
    kept = RecordFeed(tmp_path / "j.db", "table-1")
    inputs = whole_game().inputs
    playing = built(inputs[:-1])
    assert playing.status == "in_progress"
    assert kept.offer(playing, 1.0) is None and kept.unacked() == []
    game = built(inputs)
    kept.offer(game, 2.0)
    withdrawn = kept.offer(playing, 3.0)  # the judge's Undo of the win
    assert withdrawn is not None and withdrawn.revision == 2
    message, record = feed.decode(withdrawn.topic, withdrawn.payload)
    assert record is None and message.withdrawn == REOPENED
    assert kept.offer(playing, 4.0) is None  # withdrawn once
    again = kept.offer(game, 5.0)
    assert again is not None and again.revision == 3


def test_the_revisions_waiting_survive_the_panels_restart(tmp_path):
    kept = RecordFeed(tmp_path / "j.db", "table-1")
    out = kept.offer(finished(), 1.0)
    kept.close()
    again = RecordFeed(tmp_path / "j.db", "table-1")
    assert again.unacked() == [out]


def test_the_seating_that_named_the_players_goes_with_the_game(tmp_path):
    kept = RecordFeed(tmp_path / "j.db", "table-1")
    game = finished()
    kept.seated(game.id, "t-1", 3)
    assert not kept.played("t-1", 3)
    out = kept.offer(game, 1.0)
    assert out is not None
    message, _ = feed.decode(out.topic, out.payload)
    assert (message.tournament, message.round) == ("t-1", 3)
    assert kept.played("t-1", 3) and not kept.played("t-1", 2) and not kept.played(None, 3)


@pytest.mark.parametrize(("topic", "payload", "says"), [
    ("mafia/table-1/record", b"{}", "not a record topic"),
    ("mafia/table-1/record/g", b"[1]", "not a record message"),
    ("mafia/table-1/record/g", b'{"v": 2, "table": "table-1", "game": "g", "revision": 1, '
                               b'"at": 1}', "version 2"),
    ("mafia/table-2/record/g", b'{"table": "table-1", "game": "g", "revision": 1, "at": 1, '
                               b'"withdrawn": "x"}', "not its topic's"),
    ("mafia/table-1/record/g", b'{"table": "table-1", "game": "g", "revision": 1, "at": 1}',
     "no reason it was withdrawn"),
    ("mafia/table-1/record/g", b'{"table": "table-1", "game": "g", "revision": 0, "at": 1, '
                               b'"withdrawn": "x"}', ">= 1"),
    ("mafia/table-1/record/g", b'{"table": "table-1", "game": "g", "revision": 1, "at": 1, '
                               b'"record": {"schema": 9}}', "not a game record"),
])
def test_a_message_that_is_not_a_record_message_is_refused_with_the_reason(topic, payload,
                                                                          says):
    with pytest.raises(feed.FeedError, match=says):
        feed.decode(topic, payload)


def test_a_record_of_another_game_or_still_in_play_is_refused():
    game = finished()
    other = feed.encode(feed.message("table-1", "other", 1, 1.0, game))
    with pytest.raises(feed.FeedError, match="not the message's"):
        feed.decode("mafia/table-1/record/other", other)
    playing = built(whole_game().inputs[:-1])
    early = feed.encode(feed.message("table-1", playing.id, 1, 1.0, playing))
    with pytest.raises(feed.FeedError, match="still in progress"):
        feed.decode(f"mafia/table-1/record/{playing.id}", early)


# ------------------------------------------------------------------ the panel, on a broker


def panel_config(tmp_path, port: int):
    return judge_config.load(write(tmp_path, GOOD + f"[broker]\nport = {port}\n"))


async def connected(cfg) -> Panel:
    panel = Panel(cfg)
    panel.link.start(asyncio.get_running_loop())
    await until_async(lambda: panel.live.seen.broker, what="the panel's broker connection")
    return panel


def records(watch: Subscriber) -> list[tuple[feed.RecordMessage, rec.Record | None]]:
    return [feed.decode(m.topic, m.payload) for m in watch.messages]


def test_the_panel_publishes_the_game_when_it_is_over_and_each_edit_after(tmp_path):
    async def play(broker: LocalBroker, watch: Subscriber) -> None:
        panel = await connected(panel_config(tmp_path, broker.port))
        try:
            inputs = [given for given, _ in whole_game().inputs]
            for given in inputs[:-1]:
                panel.apply(given)
            assert panel.game.stage != "over"
            panel.apply(inputs[-1])  # 2 leaves: red wins
            await until_async(lambda: watch.messages, what="the record at the broker")
            [(message, record)] = records(watch)
            assert record is not None and record.winner == "red" and message.revision == 1
            await until_async(lambda: not panel.feed.unacked(), what="the broker's ack")
            panel.games.edit(record.id, rec.Edit(
                kind="correction", at=2e9, by="judge", reason="misspelt",
                path="/players/0/name", before="Anna", after="Anya"))
            await until_async(lambda: len(watch.messages) == 2, what="the corrected record")
            message, corrected = records(watch)[1]
            assert corrected is not None and corrected.players[0].name == "Anya"
            assert message.revision == 2 and corrected.history[-1].reason == "misspelt"
        finally:
            panel.close()

    with LocalBroker() as broker:
        watch = Subscriber(broker.port, [RECORDS])
        try:
            asyncio.run(play(broker, watch))
            later = Subscriber(broker.port, [RECORDS])  # the retained one: the latest
            try:
                later.wait_for(lambda m: True)
                [(message, record)] = records(later)
                assert message.revision == 2 and record is not None
            finally:
                later.close()
        finally:
            watch.close()


def test_a_game_over_while_the_broker_is_away_reaches_it_after_the_panels_restart(tmp_path):
    broker = LocalBroker()
    broker.start()
    cfg = panel_config(tmp_path, broker.port)

    async def until_the_broker_goes() -> None:
        panel = await connected(cfg)
        try:
            inputs = [given for given, _ in whole_game().inputs]
            for given in inputs[:-1]:
                panel.apply(given)
            broker.stop()
            await until_async(lambda: not panel.live.seen.broker, what="the link down")
            panel.apply(inputs[-1])  # the win, with no broker
            assert [o.revision for o in panel.feed.unacked()] == [1]
        finally:
            panel.close()

    async def restarted() -> None:
        panel = await connected(cfg)
        try:
            await until_async(lambda: not panel.feed.unacked(), what="the broker's ack")
        finally:
            panel.close()

    try:
        asyncio.run(until_the_broker_goes())
        broker.start()
        watch = Subscriber(broker.port, [RECORDS])
        try:
            asyncio.run(restarted())
            [(message, record)] = records(watch)
            assert record is not None and record.status == "finished" and message.revision == 1
        finally:
            watch.close()
    finally:
        broker.close()


def test_the_halls_seating_names_the_players_once_and_goes_with_the_game(tmp_path):
    seats = [{"seat": s, "player": f"Player {s + 10}"} for s in range(1, 11)]
    seating = {"v": 1, "round": 2, "tournament": "t-1", "seats": seats}

    async def play(broker: LocalBroker, watch: Subscriber) -> None:
        panel = await connected(panel_config(tmp_path, broker.port))
        try:
            await until_async(lambda: panel.game.players[9].name == "Player 20",
                              what="the seating's names")
            assert [p.name for p in panel.game.players] == [s["player"] for s in seats]
            for given, _ in whole_game().inputs:
                if not (isinstance(given, Action) and given.kind == "name"):
                    panel.apply(given)
            await until_async(lambda: watch.messages, what="the record")
            [(message, record)] = records(watch)
            assert (message.tournament, message.round) == ("t-1", 2)
            assert record is not None and record.players[3].name == "Player 14"
            assert record.players[3].role == ROLES[3]
            panel.new_game()  # round 2 is played here: its seating names nobody again
            assert [p.name for p in panel.game.players] == [""] * 10
            bad = panel.live.seen.bad_events
            watch.publish("mafia/table-1/seating", b'{"round": "two"}')
            await until_async(lambda: panel.live.seen.bad_events == bad + 1,
                              what="the bad seating counted")
        finally:
            panel.close()

    with LocalBroker() as broker:
        watch = Subscriber(broker.port, [RECORDS])
        try:
            watch.client.publish("mafia/table-1/seating", json.dumps(seating), qos=1,
                                 retain=True).wait_for_publish(5)
            asyncio.run(play(broker, watch))
        finally:
            watch.close()
