"""The tournament as data (hall/tournament.py, issue 29 items 4-5): made with every problem
named, seated by the generator, its games counted in the round whose seating named them, the
standings of those (the final scored apart), the final seeded from the main stage, the exports,
and a public view holding nothing of any game."""

from __future__ import annotations

import csv
import io
import json

import msgspec
import pytest

from hall import tournament as tm
from hall.store import Held
from kit.i18n import Words, render
from results import feed, scoring, standings
from tests.support.public_view import PUBLIC_KEYS, SECRET_VALUES, walk
from tests.support.record_game import built, whole_game

PRESETS = scoring.presets()
NAMES = [f"Player {n}" for n in range(1, 31)]


def made(players: list[str] = NAMES, games: int = 3, tables: int = 3) -> tm.Tournament:
    return tm.create("Cup", "\n".join(players), games, tables, "fiim", "", 1000.0, PRESETS)


@pytest.fixture(scope="module")
def seated() -> tm.Tournament:
    return tm.generate(made(), seed=1, seconds=0.5)


def played(tournament: tm.Tournament, number: int, table: str, *, revision: int = 1,
           of: str | None = None, finished: bool = True) -> Held:
    """The scripted game (red wins, seat 7 shot on night 1, best move 1 2 3) played at
    ``table`` in round ``number``, its players named by the round's seating."""
    inputs = whole_game().inputs if finished else whole_game().inputs[:-1]
    base = built(inputs)
    seats = tournament.round(number).seating[table]  # type: ignore[union-attr]
    record = msgspec.structs.replace(
        base, table=table, id=f"{table}-r{number}",
        players=[msgspec.structs.replace(p, name=seats[p.seat]) for p in base.players])
    message = feed.message(table, record.id, revision, 1.0, record,
                           tournament=tournament.id if of is None else of, round=number)
    return Held(*feed.decode(feed.topic(table, record.id), feed.encode(message)), 1.0)


def every_game(tournament: tm.Tournament, stage: str = "main") -> list[Held]:
    return [played(tournament, r.number, t) for r in tournament.stage(stage)
            for t in sorted(r.seating)]


def test_a_tournament_is_refused_with_every_problem_named():
    with pytest.raises(tm.TournamentError) as refused:
        tm.create("", "Anna\nAnna\n" + "\n".join(NAMES[:7]), 0, 5, "nope", "", 1.0, PRESETS)
    said = " | ".join(str(p) for p in refused.value.problems)
    for expected in ("a name of 1..80", "Anna", "a tournament needs 10 or more",
                     "0 games a player", "no scoring preset 'nope'"):
        assert expected in said
    russian = " | ".join(render(p, "ru") for p in refused.value.problems)
    for expected in ("название от 1 до 80", "0 игроков: для турнира нужно не меньше 10",
                     "0 игр на игрока", "нет системы подсчёта «nope»"):
        assert expected in russian
    assert render(Words("tournament.refused.few", count=2), "ru").startswith("2 игрока:")
    assert render(Words("tournament.refused.few", count=1), "en").startswith("1 player:")
    with pytest.raises(tm.TournamentError, match="5 tables: 1 to 3"):
        made(tables=5)
    with pytest.raises(tm.TournamentError, match="longer than the 40 characters"):
        made(players=[*NAMES[:9], "x" * 41])


def test_the_generated_main_stage_seats_every_player_once_a_round(seated):
    assert [r.number for r in seated.stage("main")] == [1, 2, 3]
    for r in seated.rounds:
        assert sorted(r.seating) == ["table-1", "table-2", "table-3"]
        names = [p for seats in r.seating.values() for p in seats.values()]
        assert sorted(names) == sorted(NAMES)
    assert tm.decode(tm.encode(seated)) == seated
    sent = tm.messages(seated, 2)
    assert sent["table-2"]["tournament"] == seated.id and sent["table-2"]["round"] == 2


def test_a_seating_naming_strangers_or_replacing_a_round_at_the_tables_is_refused(seated):
    with pytest.raises(tm.TournamentError, match="not players of the tournament: Zed"):
        tm.with_seating(seated, {1: {"table-1": {1: "Zed"}}})
    at_tables = tm.sent(seated, 1, 5.0)
    with pytest.raises(tm.TournamentError, match="round 1 of the main stage is already"):
        tm.with_seating(at_tables, tm.seating_of(seated))


def test_only_a_finished_game_of_this_tournaments_seated_table_and_round_counts(seated):
    counted = played(seated, 1, "table-1")
    other_tournament = played(seated, 1, "table-2", of="t-other")
    in_play_then_over = played(seated, 1, "table-3")
    stranger_table = msgspec.structs.replace(seated, rounds=[
        msgspec.structs.replace(r, seating={"table-1": r.seating["table-1"]})
        if r.number == 1 else r for r in seated.rounds])
    found = tm.games(seated, [counted, other_tournament, in_play_then_over])
    assert [g.counted for g in found] == [True, False, True]
    assert "not seated by this tournament" in str(found[1].why)
    assert not found[0].warnings
    elsewhere = tm.games(stranger_table, [in_play_then_over])[0]
    assert not elsewhere.counted and "table-3 does not play round 1" in str(elsewhere.why)
    assert tm.complete(seated, found, 1) == ["table-2"]


def test_the_standings_are_the_sum_of_each_counted_games_scores(seated):
    games = every_game(seated)
    table = tm.table_of(seated, games, PRESETS)
    totals: dict[str, float] = {}
    for held in games:
        assert held.record is not None
        for s in scoring.score(held.record, PRESETS["fiim"]):
            totals[s.name] = totals.get(s.name, 0.0) + s.total
    rows = {row.player: row for row in table.overall.rows}
    assert set(rows) == set(NAMES) and all(row.games == 3 for row in rows.values())
    for name, row in rows.items():  # Ci aside: the tournament's, not a game's
        assert row.total - row.ci == pytest.approx(totals[name]), name
    assert sorted(table.rounds) == [1, 2, 3]


def test_the_final_is_seeded_from_the_main_stage_and_scored_apart(seated):
    running = seated
    for number in (1, 2, 3):
        running = tm.sent(running, number, float(number))
    main = every_game(running)
    with pytest.raises(tm.TournamentError, match="round 3: no game from table-3 yet"):
        tm.seed_final(running, main[:-1], PRESETS, 10, 2, "table-1", 1, 0.5)
    final = tm.seed_final(running, main, PRESETS, 10, 2, "table-1", 1, 0.5)
    best = [row.player for row in tm.table_of(running, main, PRESETS).stages["main"].rows]
    assert [r.number for r in final.stage("final")] == [4, 5]
    for r in final.stage("final"):
        assert list(r.seating) == ["table-1"]
        assert sorted(r.seating["table-1"].values()) == sorted(best[:10])
    finals = every_game(final, "final")
    table = tm.table_of(final, main + finals, PRESETS)
    assert {row.games for row in table.stages[standings.FINAL].rows} == {2}
    assert {row.games for row in table.stages[standings.MAIN].rows} == {3}
    with pytest.raises(tm.TournamentError, match="the final is seated already"):
        tm.with_seating(final, tm.seating_of(seated))


def test_the_exports_a_csv_of_each_table_and_a_platform_game_for_each_counted_game(seated):
    games = [*every_game(seated), played(seated, 1, "table-1", of="t-other")]
    overall = tm.table_of(seated, games, PRESETS).overall
    rows = list(csv.DictReader(io.StringIO(tm.standings_csv(overall))))
    assert [r["player"] for r in rows] == [r.player for r in overall.rows]
    assert float(rows[0]["total"]) == overall.rows[0].total
    done = tm.exported(seated, games)
    assert sorted(done.files) == sorted(f"table-{t}-r{n}.mafiaratings.json"
                                        for t in (1, 2, 3) for n in (1, 2, 3))
    platform = json.loads(done.files["table-2-r3.mafiaratings.json"])
    seats = seated.round(3).seating["table-2"]  # type: ignore[union-attr]
    assert [p["name"] for p in platform["players"]] == [seats[s] for s in range(1, 11)]
    assert done.refused == []  # the other tournament's game is not this one's to export


def test_the_games_not_exported_are_listed_with_why_in_the_readers_language(seated):
    """``not-exported.csv``: its header and each reason in the organiser's language."""
    fewer_tables = msgspec.structs.replace(seated, rounds=[
        msgspec.structs.replace(r, seating={"table-2": r.seating["table-2"]})
        if r.number == 1 else r for r in seated.rounds])
    elsewhere = played(seated, 1, "table-1")  # its table plays no round 1 now
    done = tm.exported(fewer_tables, [elsewhere, played(seated, 1, "table-2")])
    assert sorted(done.files) == ["table-2-r1.mafiaratings.json"]
    russian = list(csv.reader(io.StringIO(done.refused_csv("ru"))))
    english = list(csv.reader(io.StringIO(done.refused_csv("en"))))
    assert russian[0] == ["игра", "стол", "тур", "причина"]
    assert english[0] == ["game", "table", "round", "reason"]
    assert russian[1][:3] == english[1][:3] == ["table-1-r1", "table-1", "1"]
    assert russian[1][3] == render(tm.games(fewer_tables, [elsewhere])[0].why, "ru")
    assert russian[1][3] != english[1][3] and len(russian) == 2


def test_the_public_view_holds_standings_and_progress_and_nothing_of_any_game(seated):
    running = tm.sent(seated, 1, 1.0)
    games = [played(running, 1, "table-1")]
    view = tm.public_view(running, games, PRESETS)
    assert set(view) == {"name", "rounds", "standings"}
    assert view["rounds"][0] == {"number": 1, "stage": "main", "tables": 3, "over": 1}
    keys, values = walk(view)
    assert keys - {str(r.number) for r in running.rounds} <= PUBLIC_KEYS
    assert not values & {*SECRET_VALUES, "table-1"}
    assert tm.public_view(None, [], PRESETS) == {"name": None, "rounds": [], "standings": None}


def test_a_game_in_play_never_reaches_the_standings():
    """The store refuses a record still in progress (test_store.py); and a finished game only
    counts, here from its record's status."""
    tournament = tm.generate(made(NAMES[:10], 1, 1), seed=1, seconds=0.2)
    abandoned = played(tournament, 1, "table-1")
    assert abandoned.record is not None
    gave_up = msgspec.structs.replace(abandoned.record, status="abandoned",
                                      abandon_reason="the hall closed", winner=None)
    held = Held(abandoned.message, gave_up, 1.0)
    [game] = tm.games(tournament, [held])
    assert not game.counted and "abandoned: the hall closed" in str(game.why)
    overall = tm.table_of(tournament, [held], PRESETS).overall
    assert overall.games == 0 and {row.games for row in overall.rows} == {0}
