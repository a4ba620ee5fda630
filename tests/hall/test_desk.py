"""The organiser's desk (hall/desk.py) on a real store and a real asyncio loop: the actions in
order, each refusal saying why, a seating loaded (a CSV) and then made in a thread, each
round's seating published retained with the tournament's id, a correction at a table shown in
the game's history, and the tournament carried on by a board restarted on the same store."""

from __future__ import annotations

import asyncio
import io
import json
import tracemalloc
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hall import board as hall_board
from hall.desk import Desk
from hall.store import HallStore
from hall.tables import Limits
from kit.i18n import render
from results import scoring
from tests.support.record_game import seated_game
from tests.support.waiting import until_async

PRESETS = scoring.presets()
NAMES = "\n".join(f"Player {n}" for n in range(1, 21))


#: two rounds loaded by hand: Player 1..10 at table-1, 11..20 at table-2, then the other way
CSV = "round,table,seat,player\n" + "".join(
    f"{r},table-{1 + (n - 1) // 10 if r == 1 else 2 - (n - 1) // 10},{1 + (n - 1) % 10},"
    f"Player {n}\n" for r in (1, 2) for n in range(1, 21))


class Board:
    """What the board gives the desk: a retained publish and a change callback, recorded."""

    def __init__(self) -> None:
        self.published: list[tuple[str, dict]] = []
        self.changes = 0

    def publish(self, topic: str, payload: bytes) -> None:
        self.published.append((topic, json.loads(payload)))

    def changed(self) -> None:
        self.changes += 1


def game_of(desk: Desk, number: int, table: str, revision: int = 1,
            name: str | None = None) -> tuple[str, bytes]:
    """The scripted game at ``table`` in round ``number``, named by the round's seating."""
    assert desk.tournament is not None
    seats = desk.tournament.round(number).seating[table]  # type: ignore[union-attr]
    return seated_game(table, number, seats, desk.tournament.id, revision, name)


def test_the_organisers_flow_from_making_the_tournament_to_its_exports(tmp_path):
    board = Board()
    store = HallStore(tmp_path / "board.db")

    async def flow() -> None:
        desk = Desk(store, PRESETS, board.publish, board.changed)
        assert desk.act({"action": "send_tournament_round", "round": 1})["message"] == \
            "no tournament yet: make one first"
        refused = desk.act({"action": "create_tournament", "name": "Cup", "players": "Anna",
                            "games": 2, "tables": 2})
        assert refused["type"] == "refused" and "1 player:" in refused["message"]
        assert render(refused["words"], "ru").startswith("турнир: не принято: ")
        made = desk.act({"action": "create_tournament", "name": "Cup", "players": NAMES,
                         "games": 2, "tables": 2, "scoring": "fiim"})
        assert (made["type"], made["message"]) == (
            "done", "tournament 'Cup' made: 20 players, 2 games each, 2 tables a round")
        assert render(made["words"], "ru") == \
            "турнир «Cup» создан: 20 игроков, 2 игры у каждого, 2 стола в туре"
        assert desk.views()[0]["notice"] == made["words"]  # the page renders it
        loaded = desk.act({"action": "load_tournament_seating", "csv": CSV})
        assert loaded["message"] == "the main stage is seated: rounds 1, 2"
        stranger = desk.act({"action": "load_tournament_seating",
                             "csv": CSV.replace("Player 20", "Zed")})
        assert stranger["type"] == "refused" and "not players of the tournament: Zed" in \
            stranger["message"]
        bad = desk.act({"action": "load_tournament_seating", "csv": "1,table-1,99,Anna\n"})
        assert bad["type"] == "refused" and "the seating refused" in bad["message"]
        working = desk.act({"action": "generate_seating", "seed": 3, "seconds": 0.3})
        assert working["message"].startswith("seating the main stage")
        assert desk.act({"action": "generate_seating"})["message"] == \
            "a seating is being made: wait for it"
        await until_async(lambda: desk.working is None, what="the seating made")
        assert str(desk.notice) == "the main stage is seated: rounds 1, 2"
        assert render(desk.notice, "ru") == "основной этап рассажен: туры 1, 2"

        assert desk.act({"action": "send_tournament_round", "round": 1})["type"] == "done"
        assert sorted(t for t, _ in board.published) == ["mafia/table-1/seating",
                                                         "mafia/table-2/seating"]
        assert {m["tournament"] for _, m in board.published} == {desk.tournament.id}
        again = desk.act({"action": "create_tournament", "name": "Other", "players": NAMES,
                          "games": 2, "tables": 2})
        assert again["type"] == "refused" and "'Cup' is under way" in again["message"]
        final = desk.act({"action": "seed_final", "rounds": 1})
        await until_async(lambda: desk.working is None, what="the final refused")
        assert final["type"] == "done" and "round 1: no game from table 1, table 2 yet" \
            in str(desk.notice)

        for table in ("table-1", "table-2"):
            assert desk.receive(*game_of(desk, 1, table)).kind == "received"
        fixed = desk.receive(*game_of(desk, 1, "table-1", 2, name="Renamed"))
        assert fixed.kind == "replaced"
        organiser, public = desk.views()
        [first, _] = organiser["games"]
        assert [render(e["what"], "en").split(" ")[0] for e in first["history"]] == [
            "received", "replaced"]
        assert render(first["result"], "ru") == "завершена, победа красных"
        assert first["revision"] == 2 and first["counted"]
        assert any("Renamed, not" in render(w, "en") for w in first["warnings"])
        assert any("Renamed, а по рассадке Player " in render(w, "ru") for w in first["warnings"])
        assert public["rounds"][0] == {"number": 1, "stage": "main", "tables": 2, "over": 2}
        assert "Renamed" in {row["player"] for row in public["standings"]["overall"]["rows"]}

        with pytest.raises(KeyError) as missing:
            desk.standings_csv("nine")
        assert str(missing.value.args[0]) == \
            "no standings 'nine': overall, main or a round's number"
        assert render(missing.value.args[0], "ru").startswith("нет таблицы «nine»")
        csv_text = desk.standings_csv("1")
        assert csv_text.splitlines()[0].startswith("place,player,total")
        assert len(csv_text.splitlines()) == 21  # the 20 who played round 1, and the header
        with zipfile.ZipFile(io.BytesIO(desk.games_zip("ru"))) as archive:
            assert sorted(archive.namelist()) == [
                "not-exported.csv", "table-1-r1.mafiaratings.json",
                "table-2-r1.mafiaratings.json"]

    try:
        asyncio.run(flow())
        restarted = Desk(store, PRESETS, board.publish, board.changed)
        assert restarted.tournament is not None and restarted.tournament.name == "Cup"
        assert restarted.tournament.round(1).sent is not None  # type: ignore[union-attr]
        assert len(restarted.views()[0]["games"]) == 2
        assert board.changes > 0
    finally:
        store.close()


@contextmanager
def seated_cup(tmp_path: Path) -> Iterator[tuple[Desk, HallStore, Board]]:
    """A desk on a new store with the tournament "Cup" of ``NAMES``, seated by ``CSV``."""
    board = Board()
    store = HallStore(tmp_path / "board.db")
    try:
        desk = Desk(store, PRESETS, board.publish, board.changed)
        desk.act({"action": "create_tournament", "name": "Cup", "players": NAMES,
                  "games": 2, "tables": 2})
        assert desk.act({"action": "load_tournament_seating", "csv": CSV})["type"] == "done"
        yield desk, store, board
    finally:
        store.close()


def test_a_new_tournament_over_one_seated_is_asked_first_and_the_old_one_can_come_back(tmp_path):
    """Issue 39 item 3: a new tournament silently replaced one already seated. Now the desk
    asks (``confirm``, nothing changed); confirmed with the old one's id it replaces it and
    keeps it in the store, from where the organiser brings it back; once a round is sent, no
    new tournament replaces it."""
    with seated_cup(tmp_path) as (desk, store, board):
        cup = desk.tournament
        assert cup is not None
        other = {"action": "create_tournament", "name": "Other", "players": NAMES,
                 "games": 1, "tables": 2}
        asked = desk.act(other)
        assert (asked["type"], asked["replace"]) == ("confirm", cup.id)
        assert render(asked["words"], "ru") == (
            "На табло уже есть турнир «Cup» (рассажен: туры 1, 2), туры ещё не отправлены на "
            "столы. Создать «Other» вместо прежнего? Прежний сохранится, вернуть можно в любой "
            "момент.")
        assert desk.tournament is cup and Desk(store, PRESETS, board.publish,
                                               board.changed).tournament == cup
        assert desk.act({**other, "replace": "t-someone-else"})["type"] == "confirm"
        replaced = desk.act({**other, "replace": cup.id})
        assert replaced["type"] == "done" and replaced["message"].endswith(
            "; the previous tournament 'Cup' is kept: 'Bring back' brings it back")
        assert desk.tournament is not None and desk.tournament.name == "Other"
        [kept] = desk.views()[0]["replaced"]
        assert (kept["name"], kept["players"], kept["rounds"]) == ("Cup", 20, 2)

        back = desk.act({"action": "bring_back_tournament", "n": kept["n"]})
        assert back["message"] == "the tournament 'Cup' is back; 'Other' is kept in its place"
        assert desk.tournament == cup  # its seating whole
        assert [r["name"] for r in desk.views()[0]["replaced"]] == ["Other"]
        assert Desk(store, PRESETS, board.publish, board.changed).tournament == cup
        missing = desk.act({"action": "bring_back_tournament", "n": 999})
        assert missing["type"] == "refused" and "no such kept tournament" in missing["message"]

        desk.act({"action": "send_tournament_round", "round": 1})
        late = desk.act({**other, "replace": cup.id})
        assert late["type"] == "refused" and "'Cup' is under way" in late["message"]
        n = desk.views()[0]["replaced"][0]["n"]
        assert desk.act({"action": "bring_back_tournament", "n": n})["type"] == "refused"
        assert desk.tournament is not None and desk.tournament.name == "Cup"


def test_every_action_of_the_tournament_page_reaches_the_desk_through_the_boards_channel(
        tmp_path):
    """The page sends its actions on the board's live channel (hall.board.handle_message): a
    kept tournament brought back reaches the desk (it was refused as an action the board did
    not know), and an unknown action is still refused."""
    store = HallStore(tmp_path / "board.db")
    board = hall_board.Board(password="x", limits=Limits(), client=mqtt.Client(
        CallbackAPIVersion.VERSION2), store=store, presets=PRESETS)
    try:
        def act(**message: object) -> dict:
            return hall_board.handle_message(board, json.dumps(message))

        made = {"action": "create_tournament", "name": "Cup", "players": NAMES, "games": 2,
                "tables": 2}
        assert act(**made)["type"] == "done"
        assert act(action="load_tournament_seating", csv=CSV)["type"] == "done"
        cup = board.desk.tournament
        assert cup is not None
        assert act(**{**made, "name": "Other", "replace": cup.id})["type"] == "done"
        [kept] = board.desk.views()[0]["replaced"]
        assert act(action="bring_back_tournament", n=kept["n"])["message"] == (
            "the tournament 'Cup' is back; 'Other' is kept in its place")
        assert act(action="no_such")["type"] == "refused"
    finally:
        store.close()


def test_a_seating_file_that_does_not_seat_the_stage_whole_is_refused_and_replaces_nothing(
        tmp_path):
    """Issue 39 item 3: a CSV with a table missing from a round replaced the seating held."""
    with seated_cup(tmp_path) as (desk, store, board):
        held = desk.tournament
        short = "\n".join(line for line in CSV.splitlines() if not line.startswith("2,table-2"))
        refused = desk.act({"action": "load_tournament_seating", "csv": short})
        assert refused["type"] == "refused"
        assert "round 2: 1 table in the seating; 2 play" in refused["message"]
        assert render(refused["words"], "ru").startswith(
            "загрузка рассадки: не принято: тур 2: в рассадке 1 стол, а играют 2")
        assert desk.tournament is held
        assert Desk(store, PRESETS, board.publish, board.changed).tournament == held


def test_a_club_evening_without_a_tournament_reads_no_game_to_make_the_views(tmp_path):
    """Issue 40: the board grew ~170 kB a game all evening, its Python heap flat. Each game's
    record made the views again, and they read and decoded every game held to show none (no
    tournament: no games on its pages); the process kept that high-water mark. Now the views
    of a desk without a tournament cost the same at the twelfth game as at the first (the peak
    of Python's allocations while they are made, by tracemalloc: reading the games cost about
    95 kB more at each game of this script's size, 1,027 kB more at the twelfth; the bound,
    64 kB, is less than one game's, and leaves room for a thread left by another test)."""
    store = HallStore(tmp_path / "board.db")
    desk = Desk(store, PRESETS, Board().publish, Board().changed)
    seats = {seat: f"Player {seat}" for seat in range(1, 11)}
    peaks = []
    tracemalloc.start()
    try:
        for n in range(1, 13):
            assert desk.receive(*seated_game("table-1", n, seats, "t-elsewhere")).changed
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            assert desk.views()[0]["tournament"] is None
            peaks.append(tracemalloc.get_traced_memory()[1] - before)
        assert len(store.games()) == 12
    finally:
        tracemalloc.stop()
        store.close()
    assert max(peaks) - peaks[0] < 64 * 1024, peaks
