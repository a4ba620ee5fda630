"""The game record (judge/record/document.py): a whole scripted game's record is what happened, vote
by vote, shot by shot, foul by foul; the judge's edits are kept in its history; and, for random
sequences of taps and table events, the record agrees with the game the core reached."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.game import Action, Refused, TableEvent, new_game, step
from judge.record import document as rec
from tests.support.judge_game import actions, ended_in_last_words, events
from tests.support.record_edits import paths, values
from tests.support.record_game import NAMES, ROLES, Script, whole_game
from tests.support.table_event import table_event


@pytest.fixture(scope="module")
def game() -> rec.Record:
    built = rec.build(whole_game().inputs, "table-1")
    assert built is not None
    return built


def test_fiim_1_1_who_sat_where_and_their_cards(game):
    assert [p.role for p in game.players] == ROLES
    assert {p.seat: p.name for p in game.players if p.name} == NAMES
    assert game.status == "finished" and game.winner == "red"  # 1.4: every black is out
    assert game.started is not None and game.ended is not None and game.started < game.ended


def test_fiim_4_4_2_nominations_in_order_with_who_nominated(game):
    assert [[(n.seat, n.by) for n in d.nominations] for d in game.days] == [
        [(5, 1), (6, 2)], [(1, 2), (3, 3)], [(2, 4)]]
    assert [d.opener for d in game.days] == [1, 2, 4]  # 4.3.2, seat 3 out on day 3


def test_fiim_4_4_6_every_ballot_with_each_voters_seat_and_the_rejected_count(game):
    day1 = game.days[0].votes
    assert [(b.candidate, b.voters, b.count, b.rejected) for b in day1[0].ballots] == [
        (5, [1, 2, 3, 4, 7, 8, 9, 10], 8, 1), (6, [5, 6], 2, 0)]
    assert day1[0].outcome == "eliminated" and day1[0].eliminated == [5]


def test_fiim_4_4_12_the_split_the_re_vote_and_the_all_leave_question(game):
    first, again, question = game.days[1].votes
    assert (first.round, first.outcome, first.tied) == (1, "tie", [1, 3])
    assert (again.round, again.outcome, again.tied) == (2, "tie", [1, 3])
    assert [b.voters for b in again.ballots] == [[2, 4, 6, 8], [1, 3, 9, 10]]
    assert question.kind == "question" and question.candidates == [1, 3]
    assert question.ballots[0].voters == [4, 6, 8, 9, 10]
    assert (question.outcome, question.yes_count, question.voters_count) == ("yes", 5, 8)
    assert question.eliminated == [1, 3]


def test_fiim_4_4_8_the_votes_left_over_to_the_last_nominee(game):
    [ballot] = game.days[2].votes[0].ballots
    assert ballot.voters == [] and ballot.leftover == [2, 4, 8, 9, 10] and ballot.count == 5


def test_fiim_4_5_shots_per_mafioso_checks_and_the_best_move(game):
    one, two = game.nights
    assert [(s.actor, s.picks, s.miss) for s in one.shots] == [
        (1, [7], None), (2, [7], None), (3, [7], None)]
    assert one.killed == 7
    assert (one.don_check.by, one.don_check.target, one.don_check.answer) == (1, 4, True)
    assert (one.sheriff_check.target, one.sheriff_check.answer) == (2, True)
    assert one.best_move == rec.BestMove(by=7, guesses=[1, 2, 3])  # 4.5.9
    assert one.last_words is not None and one.last_words.seat == 7  # 4.5.4
    assert [(s.actor, s.picks) for s in two.shots] == [(2, [6])] and two.killed == 6
    assert two.don_check is None  # the Don was out (4.5.6)
    assert (two.sheriff_check.target, two.sheriff_check.answer) == (8, False)


def test_fiim_1_4_how_and_when_each_player_left(game):
    left = {p.seat: (p.left.how, p.left.day, p.left.night) for p in game.players if p.left}
    assert left == {5: ("voted_out", 1, 0), 7: ("shot", 1, 1), 1: ("voted_out", 2, 1),
                    3: ("voted_out", 2, 1), 6: ("shot", 2, 2), 2: ("voted_out", 3, 2)}


def test_fouls_with_their_moment_and_an_undone_foul_is_not_recorded(game):
    assert [(p.seat, [(f.n, f.day, f.stage, f.floor) for f in p.fouls]) for p in game.players
            if p.fouls] == [(8, [(1, 1, "day", 2)])]  # during 2's speech; 9's was taken back


def test_the_speeches_of_each_day_in_order(game):
    assert [(s.seat, s.kind) for s in game.days[1].speeches if s.kind != "speech"] == [
        (1, "excuse"), (3, "excuse"), (1, "last_words"), (3, "last_words")]
    assert [s.seat for s in game.days[0].speeches if s.kind == "speech"] == list(range(1, 11))


def test_a_miss_a_withdrawal_and_a_removal_by_the_fourth_foul():
    s = Script().tap("deal", roles=ROLES).tap("start").tap("next")
    s.speeches([1], {1: 5}).tap("nominate", seat=6).tap("withdraw", seat=5)
    s.tap("nominate", seat=9).tap("undo")  # a nomination taken back never stood
    for _ in range(4):
        s.tap("foul", seat=10)
    s.speeches([2, 3, 4, 5, 6, 7, 8, 9]).tap("next")  # one nominee on day 1: no vote (4.4.10)
    s.night_step("mafia_shot", {1: [8], 2: [8], 3: [9]}, agreed=False)  # 4.5.5
    built = rec.build(s.inputs, "table-1")
    [day] = built.days
    assert [(n.seat, n.by, n.withdrawn) for n in day.nominations] == [
        (5, 1, True), (6, None, False)]
    assert built.players[9].left.how == "fouls" and len(built.players[9].fouls) == 4
    assert day.votes == []
    assert built.nights[0].killed is None
    assert [s.picks for s in built.nights[0].shots] == [[8], [8], [9]]
    assert built.status == "in_progress" and built.winner is None


def test_fiim_4_4_13_voted_out_when_the_game_ends_in_their_last_words():
    """Seat 8's fourth foul ends the game in seat 7's last words: the record has seat 7 voted
    out on day 1 (1.4: at the vote), seat 8 out on fouls, and the game finished."""
    inputs = [*ended_in_last_words(), Action("foul", {"seat": 8})]
    record = rec.build([(g, 1_764_577_800.0 + i) for i, g in enumerate(inputs)], "t-1")
    assert record is not None and record.status == "finished" and record.winner == "black"
    assert record.players[6].left is not None and record.players[6].left.how == "voted_out"
    assert record.players[6].left.day == 1
    assert record.players[7].left is not None and record.players[7].left.how == "fouls"


def test_nothing_before_the_first_input_and_the_id_is_the_first_inputs_moment():
    assert rec.build([], "table-1") is None
    built = rec.build([(table_event("state", {"day": 0}), 1_764_577_800.25)], "t-9")
    assert built.id == "t-9-20251201-083000-250" and built.started is None


# ------------------------------------------------------------------ the judge's edits


def correction(record: rec.Record, path: str, after, reason="misspelt") -> rec.Edit:
    return rec.Edit(kind="correction", at=100.0, by="judge", reason=reason, path=path,
                    before=rec.read(record, path), after=after)


def test_a_correction_after_the_game_is_kept_in_the_history_with_before_and_after(game):
    edit = correction(game, "/players/1/name", "Borys")
    edited = rec.apply_edits(game, [edit])
    assert edited.players[1].name == "Borys" and game.players[1].name == "Boris"
    assert edited.history == [edit] and (edit.before, edit.after) == ("Boris", "Borys")
    assert rec.decode(rec.encode(edited)) == edited


def test_a_disqualification_is_a_correction_of_how_the_player_left(game):
    left = {"how": "disqualified", "at": 5.0, "day": 2, "night": 1, "reason": "5.1.2"}
    edited = rec.apply_edits(game, [correction(game, "/players/8/left", left, "5.1.2")])
    assert edited.players[8].left == rec.Departure(**left)


@pytest.mark.parametrize(("path", "value", "says"), [
    ("/players/1/fouls", "many", "Expected `array`"),
    ("/players/12/name", "x", "no item 12"),
    ("/players/1/colour", "x", "no such field"),
    ("players/1/name", "x", "JSON pointer"),
    ("/id", "other", "not corrected by hand"),
    ("/history", [], "not corrected by hand"),
    ("/players/1/left", {"how": "eaten"}, "how"),
    ("/started", 1e20, "<= 253402300799"),  # no clock prints it: the sheet would fail on it
    ("/players/7/fouls/0/at", -1.0, ">= 0"),
])
def test_a_correction_the_schema_refuses_names_the_field_and_changes_nothing(game, path, value,
                                                                            says):
    edit = rec.Edit(kind="correction", at=1.0, by="j", reason="r", path=path, after=value)
    with pytest.raises(rec.RecordError, match=says):
        rec.apply_edits(game, [edit])
    assert game.history == []


def test_an_abandoned_game_is_recorded_as_such_and_a_finished_one_cannot_be(game):
    s = Script().tap("deal", roles=ROLES).tap("start").tap("next")
    unfinished = rec.build(s.inputs, "table-1")
    abandon = rec.Edit(kind="abandon", at=s.t + 5, by="judge", reason="the hall closes")
    gone = rec.apply_edits(unfinished, [abandon])
    assert (gone.status, gone.abandon_reason, gone.ended) == ("abandoned", "the hall closes",
                                                              s.t + 5)
    with pytest.raises(rec.RecordError, match="finished"):
        rec.apply_edits(game, [abandon])


def test_a_document_of_another_schema_or_not_a_record_is_refused(game):
    data = rec.encode(game).replace(b'"schema":3', b'"schema":4')
    with pytest.raises(rec.RecordError, match="schema 4"):
        rec.decode(data)
    with pytest.raises(rec.RecordError, match="not a game record"):
        rec.decode(b'{"id": 3}')


def test_a_schema_1_record_is_read_as_schema_2_with_teams_and_night_actions(game):
    """A record kept before the engine (schema 1: FIIM's fields only) reads as this one."""
    old = msgspec.to_builtins(game)
    old["schema"] = 1
    for player in old["players"]:
        del player["team"]
    for night in old["nights"]:
        del night["actions"]
    assert rec.decode(msgspec.json.encode(old)) == game


# ------------------------------------------------------------------ property


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.one_of(actions, events), max_size=80))
def test_the_record_agrees_with_the_game_the_core_reached(seed, inputs):
    journal: list[tuple[Action | TableEvent, float]] = [
        (Action("deal", {"seed": seed}), 1.0), (Action("start", {}), 2.0)]
    journal += [(given, 3.0 + i) for i, given in enumerate(inputs)]
    game = new_game()
    for given_input, at in journal:
        try:
            game, _, _ = step(game, given_input, at)
        except Refused:  # a refused input changes nothing, as on the panel's replay
            continue
    built = rec.build(journal, "table-1")
    for player, core in zip(built.players, game.players, strict=True):
        assert [f.n for f in player.fouls] == list(range(1, core.fouls + 1))
        assert (player.left is None) == core.in_game
        assert player.role == core.role
    assert [d.number for d in built.days] == list(range(1, game.day + 1))
    assert [n.number for n in built.nights] == list(range(1, game.night + 1))
    assert built.winner == game.winner and (built.status == "finished") == (game.stage == "over")
    assert (built.ended is not None) == (game.stage == "over")
    for day in built.days:
        assert [v.round for v in day.votes] == list(range(1, len(day.votes) + 1))
    assert rec.decode(rec.encode(built)) == built


@settings(max_examples=300, deadline=None)
@given(paths, values)
def test_any_correction_is_taken_whole_or_refused_with_a_record_error(game, path, value):
    edit = rec.Edit(kind="correction", at=1.0, by="j", reason="r", path=path, after=value)
    try:
        edited = rec.apply_edits(game, [edit])
    except rec.RecordError:
        return
    assert rec.decode(rec.encode(edited)) == edited  # still a valid record of schema 1
    assert edited.history == [edit]
    if not isinstance(value, (dict, list)):  # a struct or list may gain its defaults
        assert rec.read(edited, path) == value
