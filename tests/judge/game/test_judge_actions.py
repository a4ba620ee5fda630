"""The judge's new hands on the game (judge/game/night.py, fouls.py, offers.py): a night pick
entered by tapping when a keypad is dead, a step ended early, count mode for a buttons-only
table, a disqualification and a card shown during the game, roles hidden on the tablet; and
the record and exports of a game whose book has a card FIIM's format does not hold."""

from __future__ import annotations

import csv
import io

import pytest

from contract.commands import NightStepCommand
from judge.game import Game, Refused, load_rules, new_game
from judge.game.table import YES, night_stop, reveal
from judge.overlay.public import public_view
from judge.panel.views import judge_game, judge_view
from judge.record import document as rec
from judge.record import sheet
from kit.i18n import render
from results import mafiaratings, scoring
from tests.support.club_books import DETECTIVE, club_book
from tests.support.judge_game import day_one, night_one, run, speeches, tap
from tests.support.record_game import ROLES
from tests.support.table_event import table_event


def shot_result(picks: dict[int, list[int]], missing=()) -> object:
    return table_event("private/night/result", {
        "step": "mafia_shot", "picks": [{"actor": a, "picks": p} for a, p in picks.items()],
        "missing": list(missing), "agreed": None})


def test_fiim_4_5_4_a_dead_keypads_pick_entered_by_the_judge_completes_the_shot():
    """Seat 3's keypad gives nothing: the judge enters the 8 the player showed; with the
    others' 8 the mafia agree (4.5.4), where the table alone would say a miss (4.5.5)."""
    game, _, _ = run(night_one(), tap("next"))
    game, commands, lines = run(game, tap("night_pick", actor=3, targets=[8]))
    assert commands == [] and lines == ["the judge enters seat 3's pick in the mafia shot "
                                        "step: 8"]
    game, _, lines = run(game, shot_result({1: [8], 2: [8]}, missing=[3]))
    assert game.killed == 8 and lines == ["4.5.4: the mafia shot at seat 8"]
    assert game.tonight[-1].picks[-1].by_judge


def test_fiim_4_5_6_a_check_corrected_after_its_step_is_answered_again():
    game, _, _ = run(night_one(), tap("next"), shot_result({1: [8], 2: [8], 3: [8]}),
                     tap("next"))
    game, commands, _ = run(game, table_event("private/night/result", {
        "step": "don_check", "picks": [{"actor": 1, "picks": [6]}], "missing": []}))
    assert game.checks[-1][2:] == (6, False)
    game, commands, lines = run(game, tap("night_pick", actor=1, targets=[4]))
    assert commands == [reveal(1, YES)]  # 4 is the Sheriff
    assert game.checks == (("don_check", 1, 4, True),)
    assert lines[-1] == "4.5.6: don check of seat 4: Sheriff"
    # the card's word as the tiles write it (the role's title), not «шериф»
    assert render(judge_game(game).tonight[-1], "ru") == "проверка Дона 4: Шериф"


def test_a_pick_is_entered_only_for_an_actor_of_the_step_and_as_many_as_it_takes():
    game, _, _ = run(night_one(), tap("next"))
    with pytest.raises(Refused, match="seat 4 does not act in the mafia shot step"):
        run(game, tap("night_pick", actor=4, targets=[8]))
    with pytest.raises(Refused, match="takes 1 pick"):
        run(game, tap("night_pick", actor=1, targets=[8, 9]))
    with pytest.raises(Refused, match="picks are entered at night"):
        run(day_one(), tap("night_pick", actor=1, targets=[8]))


def test_the_judge_ends_a_step_early_once():
    game, _, _ = run(night_one(), tap("next"))
    game, commands, _ = run(game, tap("end_step"))
    assert commands == [night_stop()] and game.ending
    with pytest.raises(Refused, match="no night step runs"):
        run(game, tap("end_step"))
    game, _, _ = run(game, shot_result({1: [8], 2: [8], 3: [8]}))
    assert not game.ending and game.running_step is None


def test_count_mode_sends_the_step_to_be_counted_on_the_buttons_without_seconds():
    """A table with vote buttons only: the step is counted (docs/mqtt-api.md), so it has no
    seconds; the judge may switch back."""
    game, _, lines = run(night_one(), tap("night_input", mode="count"))
    assert lines == ["night picks from now on: count"]
    game, commands, _ = run(game, tap("next"))
    payload = commands[0].payload
    assert isinstance(payload, NightStepCommand)
    assert payload.mode == "count" and payload.seconds is None and payload.actors == [1, 2, 3]
    rules = load_rules("fiim", night_input="count")
    assert new_game(rules=rules).night_input == "count"  # the config's choice


def test_a_disqualification_takes_the_player_out_at_once_and_the_record_keeps_the_reason():
    game, commands, lines = run(day_one(), tap("disqualify", seat=6, reason="5.1.2"))
    assert not game.player(6).in_game and game.player(6).left == "disqualified"
    assert lines == ["seat 6 is disqualified (5.1.2)"]
    assert commands[0].payload.seats[0].in_game is False
    inputs = [(g, float(i)) for i, g in enumerate([
        tap("deal", roles=ROLES), tap("start"), tap("next"),
        tap("disqualify", seat=6, reason="5.1.2")])]
    record = rec.build(inputs, "t")
    assert record.players[5].left.how == "disqualified"
    assert record.players[5].left.reason == "5.1.2"


def test_fiim_1_4_a_disqualification_that_brings_parity_ends_the_game():
    game = day_one()
    for seat in (5, 6, 7):
        game, _, _ = run(game, tap("disqualify", seat=seat))
    game, _, lines = run(game, tap("disqualify", seat=8))
    assert game.winner == "black" and lines[-1] == "1.4: black wins (3 black, 3 red at the table)"


def test_a_card_shown_by_the_judge_is_in_the_public_view_and_no_other_is():
    game, _, lines = run(day_one(), tap("show_card", seat=4))
    assert lines == ["seat 4's card is shown: Sheriff"]
    seats = public_view(game)["seats"]
    assert seats[3]["card"] == "sheriff" and all("card" not in s for s in seats[:3] + seats[4:])
    assert all("role" not in s for s in seats)
    with pytest.raises(Refused, match="shown already"):
        run(game, tap("show_card", seat=4))


def test_the_offers_follow_the_game_and_the_public_view_has_none():
    game, _ = speeches(day_one(), {1: 7, 2: 5})
    keys = {o["key"]: o for o in judge_view(game)["offers"]}
    assert {"confirm", "reject", "correct", "foul", "undo"} <= set(keys)
    assert keys["confirm"]["enabled"] is False  # nothing proposed yet
    assert "next" not in keys  # the vote runs: the table's windows, not the judge's Next
    assert "offers" not in public_view(game)


def test_a_book_without_fouls_refuses_the_judges_foul(tmp_path):
    path = club_book(tmp_path, "", 'roles = { don = 1, mafia = 2, sheriff = 1, civilian = 6 }')
    text = path.read_text().replace("[fouls]                          # §6 is a heading only",
                                    "[fouls]\ngiven = false  #")
    path.write_text(text)
    game = club_game(path)
    with pytest.raises(Refused, match=r"4\.3\.4: FIIM gives no fouls"):
        run(game, tap("foul", seat=2))
    assert all(o["action"] != "foul" for o in judge_view(game)["offers"])


def club_game(path, roles=ROLES) -> Game:
    game = new_game(rules=load_rules(path))
    game, _, _ = run(game, tap("deal", roles=roles), tap("start"), tap("next"))
    return game


# ------------------------------------------------------------------ a club's card in the record


def detective_game(tmp_path) -> rec.Record:
    """A club's copy of FIIM's book with a detective (seat 5, his step last in the wake order):
    night 1 the mafia shoot 7, the detective checks 2 (black); day 2 the three blacks go on
    fouls: red wins."""
    path = club_book(tmp_path, DETECTIVE, 'roles = { don = 1, mafia = 2, sheriff = 1, '
                                          'detective = 1, civilian = 5 }')
    rules = load_rules(path)
    roles = ["don", "mafia", "mafia", "sheriff", "detective", *["civilian"] * 5]
    inputs: list = [tap("deal", roles=roles), tap("start"), tap("next"), *[tap("next")] * 11,
                    tap("next"), shot_result({1: [7], 2: [7], 3: [7]})]
    for name, picks in (("don_check", {1: [9]}), ("sheriff_check", {4: [6]}),
                        ("best_move", {7: [1, 2, 3]}), ("detective_check", {5: [2]})):
        inputs += [tap("next"), table_event("private/night/result", {
            "step": name, "picks": [{"actor": a, "picks": p} for a, p in picks.items()],
            "missing": []})]
    inputs += [tap("next"), tap("next"), tap("next")]  # morning, 7's last minute, day 2
    inputs += [tap("foul", seat=s) for s in (1, 2, 3) for _ in range(4)]
    record = rec.build([(g, float(i)) for i, g in enumerate(inputs)], "t", rules)
    assert record is not None and record.status == "finished"
    return record


def test_a_clubs_card_is_recorded_by_name_with_its_team_and_its_night_action(tmp_path):
    record = detective_game(tmp_path)
    assert record.rules == "our-club" and record.winner == "red"
    assert (record.players[4].role, record.players[4].team) == ("detective", "red")
    night = record.nights[0]
    assert [a.step for a in night.actions] == ["mafia_shot", "don_check", "sheriff_check",
                                               "best_move", "detective_check"]
    detective = night.actions[4]
    assert (detective.mechanism, detective.actors, detective.targets, detective.outcome) == \
        ("check", [5], [2], "yes")
    assert night.killed == 7 and night.sheriff_check.target == 6  # FIIM's fields as before
    assert rec.decode(rec.encode(record)) == record


def test_the_rating_platform_export_is_refused_for_a_card_its_format_does_not_hold(tmp_path):
    with pytest.raises(mafiaratings.ExportRefused, match="detective"):
        mafiaratings.export(detective_game(tmp_path))


def test_the_csv_and_the_sheet_hold_a_clubs_card_and_its_night(tmp_path):
    record = detective_game(tmp_path)
    scores = scoring.score(record, scoring.presets()["fiim"])
    rows = list(csv.DictReader(io.StringIO(sheet.results_csv(record, scores))))
    detective = next(r for r in rows if r["seat"] == "5")
    assert (detective["role"], detective["team"], detective["won"]) == ("detective", "red", "1")
    page = sheet.protocol(record, scores, {"en": "FIIM"}, language="en")
    assert "detective_check: 5 → 2. <b>Yes 2</b>" in page
    assert "Shots: 1 → 7; 2 → 7; 3 → 7. <b>Seat 7 killed</b>" in page
