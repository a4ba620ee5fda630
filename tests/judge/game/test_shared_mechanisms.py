"""The mechanisms the club books share (judge/game/mechanisms/heal.py, mark.py; a step's
``take_over``; endgames/last_two.py, nobody_left.py), each played in a club's copy of FIIM's
book with the card added from data, and named after the club book's section it serves."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from judge.game import Game, load_rules, new_game
from judge.game.end import win_check
from judge.game.state import set_player
from tests.support.club_books import card, club_book
from tests.support.judge_game import night, run, tap
from tests.support.table_event import table_event

DOCTOR = card("doctor", "red", "doctor", "heal", "«Доктор»",
              "{ self_times = 2, twice_running = false }", label="doctor's heal")
BOSS = card("boss", "black", "boss", "mark", "«Утром ведущий произносит…»",
            '{ what = "frozen" }', label="boss's freeze")


def book(tmp_path, extra: str, deck: str, resolution: str):
    path = club_book(tmp_path, extra, f"roles = {deck}")
    text = path.read_text().replace('resolution = ["kill"]', f"resolution = {resolution}")
    path.write_text(text)
    return load_rules(path)


def to_night(rules, roles: list[str], day_inputs=()) -> Game:
    game, _, _ = run(new_game(rules=rules), tap("deal", roles=roles), tap("start"),
                     tap("next"), *day_inputs)
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    return game


DOCTOR_ROLES = ["don", "mafia", "mafia", "sheriff", "doctor", *["civilian"] * 5]
DOCTOR_DECK = "{ don = 1, mafia = 2, sheriff = 1, doctor = 1, civilian = 5 }"


def test_crow_club_doctor_the_heal_takes_back_the_shot_at_morning(tmp_path):
    """«Доктор»: "спасает одного человека от убийства": the shot on 7, the heal on 7: nobody
    leaves at morning."""
    rules = book(tmp_path, DOCTOR, DOCTOR_DECK, '["kill", "heal"]')
    game = to_night(rules, DOCTOR_ROLES)
    game, _, lines = night(game, {"mafia_shot": {1: [7], 2: [7], 3: [7]}, "doctor": {5: [7]}})
    assert "«Доктор»: doctor's heal of seat 7" in lines
    assert game.stage == "day" and game.player(7).in_game and "4.5.9: morning" in lines


def test_crow_club_doctor_not_the_same_player_two_nights_running_himself_twice(tmp_path):
    """«Доктор»: "Одного и того же игрока доктор может лечить через раз", "Себя только два раза
    за всю игру"."""
    rules = book(tmp_path, DOCTOR, DOCTOR_DECK, '["kill", "heal"]')
    game = to_night(rules, DOCTOR_ROLES)
    game, _, _ = night(game, {"doctor": {5: [5]}})
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    game, _, lines = night(game, {"doctor": {5: [5]}, "mafia_shot": {1: [5], 2: [5], 3: [5]}})
    assert "«Доктор»: seat 5 was healed last night: not taken" in lines
    assert not game.player(5).in_game or game.leaving == (5,)  # the shot stands


def test_online_003_a_freeze_keeps_the_player_silent_and_out_of_the_vote_for_a_day(tmp_path):
    """«Утром ведущий произносит…»: the boss's freeze (read as the classic club's: no speech,
    no vote). Announced at morning, the table blocks the floor; the day skips the
    player's speech and leaves them out of the vote; it ends at nightfall."""
    rules = book(tmp_path, BOSS, "{ don = 1, mafia = 1, boss = 1, sheriff = 1, civilian = 6 }",
                 '["kill", "mark"]')
    roles = ["don", "mafia", "boss", "sheriff", *["civilian"] * 6]
    game = to_night(rules, roles)
    game, commands, lines = night(game, {"boss": {3: [6]}})
    assert "«Утром ведущий произносит…»: boss's freeze: 6 frozen for the day" in lines
    assert "4.5.9: seat 6 is frozen for the day" in lines
    seats = [c.payload.seats for c in commands if c.spec.verb == "seats"]
    assert [(s.seat, s.silenced) for s in seats[-1]] == [(6, True)]
    assert game.player(6).tags == ("frozen",) and 6 not in game.voters
    game, _, lines = run(game, *[tap("next")] * 5)  # day 2 opens with 2: 2, 3, 4, 5, then 7
    assert "seat 6 is frozen: no speech today" in lines and game.floor == 7
    game, _, _ = run(game, tap("nominate", seat=1), tap("nominate", seat=6))
    while game.stage == "day":
        game, commands, _ = run(game, tap("next"))
    assert commands[-1].payload.voters == [1, 2, 3, 4, 5, 7, 8, 9, 10]
    game, commands, _ = run(game, table_event("event/vote/result", {
        "outcome": "no_vote"}))
    assert game.stage == "night" and game.player(6).tags == ()
    assert (commands[0].payload.seats[0].seat, commands[0].payload.seats[0].silenced) == \
        (6, False)


def test_classic_000_detective_the_successor_checks_once_the_chief_is_out(tmp_path):
    """«Детектив \\ Detective»: "После смерти Шефа Полиции, Детектив … становится исполняющим
    обязанности": the step's ``take_over``."""
    extra = ("\n[roles.detective]\nteam = \"red\"\n"
             "title = { en = \"detective\", ru = \"Детектив\" }\n")
    rules = book(tmp_path, extra, "{ don = 1, mafia = 2, sheriff = 1, detective = 1, "
                                  "civilian = 5 }", '["kill"]')
    path = Path(rules.book.path)
    path.write_text(path.read_text(encoding="utf-8").replace(
        'roles = ["sheriff"]\n', 'roles = ["sheriff"]\ntake_over = ["detective"]\n'),
        encoding="utf-8")
    rules = load_rules(path)
    roles = ["don", "mafia", "mafia", "sheriff", "detective", *["civilian"] * 5]
    game = to_night(rules, roles, [tap("disqualify", seat=4)])
    game, commands, _ = night(game, {})
    steps = {c.payload.step: c.payload.actors for c in commands if c.spec.verb == "night/step"}
    assert steps["sheriff_check"] == [5]


def test_crow_club_maniac_wins_one_on_one_and_nobody_left_is_the_books_draw(tmp_path):
    """«Победа маньяка»: the maniac wins one on one with anyone, a black one too; and the online
    book's reading: nobody left is a draw."""
    extra = """
[teams.maniacs]
title = { en = "maniacs", ru = "маньяки" }
[roles.maniac]
team = "maniacs"
title = { en = "maniac", ru = "маньяк" }
"""
    rules = book(tmp_path, extra, "{ don = 1, mafia = 2, maniac = 1, civilian = 6 }", '["kill"]')
    path = Path(rules.book.path)
    text = path.read_text(encoding="utf-8")
    text = text.replace('yes = { roles = ["sheriff"] }', 'yes = { roles = ["maniac"] }')
    text = text.replace('roles = ["sheriff"]\n', 'roles = ["maniac"]\n')
    text = text.replace("[[endgames]]                     # 1.4: red wins", """[[endgames]]
kind = "nobody_left"
team = "draw"
rule = "reading"
[[endgames]]
kind = "last_two"
team = "maniacs"
rule = "«Победа маньяка»"
[[endgames]]                     # 1.4: red wins""", 1)
    path.write_text(text, encoding="utf-8")
    rules = load_rules(path)
    game = new_game(rules=rules)
    game, _, _ = run(game, tap("deal", roles=["don", "mafia", "mafia", "maniac",
                                               *["civilian"] * 6]))
    two = replace(game, stage="day")
    for seat in (2, 3, 5, 6, 7, 8, 9, 10):
        two = set_player(two, seat, in_game=False)
    over = win_check(two)
    assert over is not None and over.game.winner == "maniacs"
    assert str(over.lines[-1]).startswith("«Победа маньяка»: maniacs wins")
    for seat in (1, 4):
        two = set_player(two, seat, in_game=False)
    assert win_check(two).game.winner == "draw"
    assert str(win_check(two).lines[-1]).startswith("reading: a draw")


@pytest.mark.parametrize("name", ["crow-club", "classic-000", "online-003"])
def test_the_club_books_use_the_shared_mechanisms_with_their_own_limits(name):
    book_ = load_rules(name).book
    heal = next(s for s in book_.night.steps if s.mechanism == "heal")
    limits = {"crow-club": (2, False), "classic-000": (1, False), "online-003": (None, True)}
    assert (heal.options.self_times, heal.options.twice_running) == limits[name]
    assert "heal" in book_.night.resolution


def test_online_003_the_morning_names_the_killers_and_the_doctors_patient(tmp_path):
    """«Утром ведущий произносит…»: the killers and the doctor's patient are named: the kill's
    and the heal's ``announce``, said at morning to the table."""
    rules = book(tmp_path, DOCTOR.replace(
        "options = { self_times = 2, twice_running = false }", "options = { announce = true }"),
        DOCTOR_DECK, '["kill", "heal"]')
    path = Path(rules.book.path)
    path.write_text(path.read_text(encoding="utf-8").replace(
        'hit = "4.5.4", miss = "4.5.5" }', 'hit = "4.5.4", miss = "4.5.5", announce = true }'),
        encoding="utf-8")
    rules = load_rules(path)
    game = to_night(rules, DOCTOR_ROLES)
    _, _, lines = night(game, {"mafia_shot": {1: [8], 2: [8], 3: [8]}, "doctor": {5: [2]}})
    assert lines[-3:] == ["4.5.4: seat 8 was killed; a last minute",
                            "4.5.9: the mafia killed seat 8", "4.5.9: the doctor came to seat 2"]
