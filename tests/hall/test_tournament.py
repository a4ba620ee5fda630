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
from results import scoring, standings
from tests.support.public_view import PUBLIC_KEYS, SECRET_VALUES, walk
from tests.support.spreadsheets import as_shown, cell_types
from tests.support.tournament_games import every_game, played

PRESETS = scoring.presets()
NAMES = [f"Player {n}" for n in range(1, 31)]


def made(players: list[str] = NAMES, games: int = 3, tables: int = 3) -> tm.Tournament:
    return tm.create("Cup", "\n".join(players), games, tables, "fiim", "", 1000.0, PRESETS)


@pytest.fixture(scope="module")
def seated() -> tm.Tournament:
    return tm.generate(made(), seed=1, seconds=0.5)


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


def test_numbers_the_generator_cannot_seat_are_refused_at_creation_as_the_command_line_does():
    """Issue 39 item 3: 11 players with 3 games each were taken on the board; the command line
    (hall.seating.instance) refuses 33 seats, no multiple of 10: the same check, the same
    words."""
    eleven = [f"Player {n}" for n in range(1, 12)]
    with pytest.raises(tm.TournamentError) as refused:
        made(eleven, games=3, tables=1)
    # the generator's own reason, word for word (hall.seating.instance)
    assert refused.value.problems == [Words("tournament.refused.unseatable", reason=Words(
        "seating.plan.multiple", players=11, games=3, seats=33))]
    assert str(refused.value.problems[0]).startswith("cannot be seated: ")
    assert "not a multiple of 10" in str(refused.value.problems[0])
    assert render(refused.value.problems[0], "ru").startswith("рассадить нельзя: ")
    assert made(eleven, games=10, tables=1).games == 10  # 110 seats: every player 10 games


def test_one_player_typed_twice_in_other_capitals_or_spaces_is_refused_naming_both_lines():
    """Issue 39 item 3: "P1" and " p1 " were two players. A name is kept tidy (NFC, spaces
    collapsed and trimmed: kit.player_names) and two names of one identity are one player."""
    players = ["P1", *NAMES[1:9], " p1 ", "Анна   Петрова "]
    with pytest.raises(tm.TournamentError) as refused:
        made(players, games=1, tables=1)
    assert str(refused.value.problems[0]) == (
        "line 10: 'p1' is the same player as 'P1' on line 1 (names are compared ignoring "
        "capitals and extra spaces)")
    assert render(refused.value.problems[0], "ru").startswith(
        "строка 10: «p1» — тот же игрок, что «P1» в строке 1")
    tidy = made([*NAMES[:9], "  Анна \u00a0 Петрова\t"], games=1, tables=1)
    assert tidy.players[-1] == "Анна Петрова"
    decomposed = "Але\u0308на"  # "ё" typed as "е" and a combining diaeresis: NFC makes it one
    assert made([*NAMES[:9], decomposed], games=1, tables=1).players[-1] == "Алёна"


def test_yo_and_ye_are_one_letter_in_names_unless_the_organiser_says_otherwise():
    players = [*NAMES[:8], "Алёна", "Алена"]
    with pytest.raises(tm.TournamentError, match="'Алена' is the same player as 'Алёна'"):
        made(players, games=1, tables=1)
    apart = tm.create("Cup", "\n".join(players), 1, 1, "fiim", "", 1.0, PRESETS, same_yo=False)
    assert apart.players[-2:] == ["Алёна", "Алена"] and not apart.same_yo
    assert tm.identity("ФЁДОР") == tm.identity(" федор ") != tm.identity("ФЁДОР", False)


def test_a_loaded_seating_names_players_as_registered_and_a_judges_spelling_counts_for_them():
    """The CSV's " p1 " is the registered "P1"; so is a judge's "p1" in a game's record."""
    t = made([f"P{n}" for n in range(1, 11)], games=1, tables=1)
    loaded = tm.with_seating(t, {1: {"table-1": {n: f" p{n} " if n == 1 else f"P{n}"
                                                  for n in range(1, 11)}}}, loaded=True)
    assert loaded.round(1).seating["table-1"][1] == "P1"  # type: ignore[union-attr]
    game = played(loaded, 1, "table-1")
    assert game.record is not None
    lower = msgspec.structs.replace(game.record, players=[
        msgspec.structs.replace(p, name=p.name.lower()) for p in game.record.players])
    held = Held(game.message, lower, 1.0)
    [counted] = tm.games(loaded, [held])
    assert counted.counted and not counted.warnings  # "p3" is "P3": no name warning
    rows = tm.table_of(loaded, [held], PRESETS).overall.rows
    assert sorted(r.player for r in rows) == sorted(loaded.players)
    assert all(r.games == 1 for r in rows)


def test_a_seating_with_a_table_missing_from_a_round_is_refused_and_nothing_replaced(seated):
    """Issue 39 item 3: such a CSV was taken, replacing the generated seating (10 players then
    had 2 games, 20 had 3)."""
    whole = tm.seating_of(seated)
    short = {n: {k: v for k, v in tables.items() if not (n == 2 and k == "table-3")}
             for n, tables in whole.items()}
    with pytest.raises(tm.TournamentError) as refused:
        tm.with_seating(seated, short, loaded=True)
    said = [str(p) for p in refused.value.problems]
    assert said[0] == "round 2: 2 tables in the seating; 3 play"
    assert said[1].startswith("each player plays 3 games of the main stage; these do not")
    assert "(2)" in said[1] and said[1].endswith("(2)")  # the ten of table 3: two games each
    assert tm.seating_of(seated) == whole  # pure: the tournament as it was
    nine = {n: {k: ({s: p for s, p in v.items() if s != 10} if (n, k) == (1, "table-1")
                    else v) for k, v in tables.items()} for n, tables in whole.items()}
    with pytest.raises(tm.TournamentError, match="round 1, table 1: 9 seats; seats 1 to 10"):
        tm.with_seating(seated, nine, loaded=True)
    extra_round = {**whole, 4: whole[1]}
    with pytest.raises(tm.TournamentError, match="the seating has 4 rounds; the tournament's"):
        tm.with_seating(seated, extra_round, loaded=True)


def test_platform_ids_after_the_names_are_kept_and_one_id_twice_is_refused():
    lines = [f"{n}; {1000 + k}" if k % 2 else f"{n}\t{1000 + k}" for k, n in enumerate(NAMES[:10])]
    t = made(lines, games=1, tables=1)
    assert t.players == NAMES[:10] and t.ids == {n: 1000 + k for k, n in enumerate(NAMES[:10])}
    assert made(NAMES[:10], games=1, tables=1).ids == {}
    with pytest.raises(tm.TournamentError, match="mafiaratings id 1000 is given to 'Player 1'"):
        made([f"{n}; 1000" for n in NAMES[:10]], games=1, tables=1)


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
    assert not elsewhere.counted and "table 3 does not play round 1" in str(elsewhere.why)
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
    with pytest.raises(tm.TournamentError, match="round 3: no game from table 3 yet"):
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


def test_the_standings_workbook_opens_right_in_a_russian_and_an_english_spreadsheet(seated,
                                                                                   tmp_path):
    """Issue 39 item 5: the standings' file for the organiser opens in a spreadsheet with its
    Cyrillic, decimal commas in Russian and points in English, numbers as numbers (the same
    writer as the judge's results, results/spreadsheet.py), read back by LibreOffice."""
    games = every_game(seated)
    overall = tm.table_of(seated, games, PRESETS).overall
    data = tm.standings_xlsx(overall, "Общий зачёт", "ru")
    profile = tmp_path / "profile"
    russian = as_shown(data, tmp_path / "ru", "ru_RU", profile)
    english = as_shown(data, tmp_path / "en", "en_US", profile)
    assert russian[0][:4] == ["место", "игрок", "сумма", "за победы"]
    fractional = next(k for k, r in enumerate(overall.rows, start=1) if r.total % 1)
    total = overall.rows[fractional - 1].total
    assert russian[fractional][2] == f"{total:g}".replace(".", ",")
    assert english[fractional][2] == f"{total:g}"
    assert [r[1] for r in russian[1:]] == [r.player for r in overall.rows]
    shared = [k for k, r in enumerate(overall.rows, start=1) if r.last > r.place]
    assert shared and russian[shared[0]][0] == standings.place_text(overall.rows[shared[0] - 1])
    kinds = cell_types(data, tmp_path / "types", profile)
    assert kinds[fractional][2] == "float"


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
