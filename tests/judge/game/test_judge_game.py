"""The judge's game core (judge/game.py), paragraph by paragraph of the FIIM rules, and a
property test: no sequence of judge taps and table events leaves a game the rules cannot reach."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contract import verbs
from contract.commands import SeatStanding, encode, parse
from contract.verbs import TableCommand
from judge.game import (
    BLACK,
    DON,
    FIIM_DECK,
    NO,
    SHERIFF,
    YES,
    Action,
    Game,
    Refused,
    new_game,
    step,
)
from judge.game.offers import offered
from judge.overlay.public import public_view
from judge.panel.views import judge_view
from kit.i18n import render
from tests.support.judge_game import (
    Commands,
    actions,
    day_one,
    ended_in_last_words,
    events,
    night_one,
    result,
    run,
    shot,
    speeches,
    started,
    tap,
)
from tests.support.record_game import ROLES
from tests.support.table_event import table_event


def sent(commands: Commands) -> list[str]:
    """The verbs of ``commands``, in order."""
    return [c.spec.verb for c in commands]


def command(spec: verbs.CommandSpec, **fields) -> TableCommand:
    """What the core should send: ``spec``'s payload struct with ``fields``, unstamped."""
    return TableCommand(spec, spec.payload(id=verbs.UNSTAMPED, **fields))


def out_of_the_game(*seats: int) -> TableCommand:
    return command(verbs.SEATS, seats=[SeatStanding(seat=s, in_game=False) for s in seats])


def test_fiim_1_1_the_deck_is_three_black_and_seven_red():
    assert sorted(FIIM_DECK) == sorted(ROLES)
    with pytest.raises(Refused, match=r"1.1"):
        run(new_game(), tap("deal", roles=["don"] * 10))
    game, _, _ = run(new_game(), tap("deal", seed=42))
    assert sorted(p.role for p in game.players) == sorted(FIIM_DECK)
    same, _, _ = run(new_game(), tap("deal", seed=42))
    assert same.players == game.players  # a seed deals the same cards


def test_fiim_4_1_2_the_game_opens_at_night_with_every_seat_in():
    with pytest.raises(Refused, match=r"4.1.3"):
        run(new_game(), tap("start"))
    game, commands, _ = run(new_game(), tap("deal", roles=ROLES), tap("start"))
    assert game.stage == "night0"
    assert commands[0].spec is verbs.SEATS and len(commands[0].payload.seats) == 10
    assert commands[1] == command(verbs.PHASE, phase="night")
    assert commands[2] == command(verbs.TIMER_START, seconds=60, kind="night")  # 4.2.1


def test_fiim_4_2_1_the_first_night_has_no_shot_then_day_1_opens_with_seat_1():
    game, commands, _ = run(started(), tap("next"))
    assert sent(commands) == ["timer/stop", "phase", "day/start"]
    assert game.stage == "day" and game.day == 1 and game.speakers[0] == 1


def test_fiim_4_3_1_the_morning_after_the_meeting_is_the_day_itself_not_4_5_9s():
    """Night 0 (4.2.1-4.2.3) ends as 4.3.1 opens the day; 4.5.9's «Утро» follows a best move."""
    _, _, lines = run(started(), tap("next"))
    assert "4.3.1: morning" in lines and not [line for line in lines if "4.5.9" in line]


def test_fiim_4_2_1_after_the_mafias_minute_morning_needs_no_stop():
    _, commands, _ = run(started(), table_event("event/timer", {
        "seat": None, "kind": "night", "state": "ended"}), tap("next"))
    assert sent(commands) == ["phase", "day/start"]


def test_fiim_4_3_2_each_speaker_in_seat_order_gets_the_floor_on_the_table_timer():
    _, commands = speeches(day_one())
    starts = [c.payload for c in commands if c.spec is verbs.TIMER_START]
    assert [s.seat for s in starts] == list(range(1, 11))
    assert all(s.kind == "speech" and s.seconds == 60 for s in starts)


def test_fiim_4_3_2_the_next_day_opens_with_the_seat_after_yesterdays_opener():
    game = replace_stage_to_new_day(day_one())
    assert game.day == 2 and game.opener == 2 and game.speakers[0] == 2


def replace_stage_to_new_day(game: Game) -> Game:
    """No nominations: no vote (4.4.1), a night with a miss, then morning."""
    game, _ = speeches(game)
    assert game.stage == "night"
    game, _, _ = run(game, tap("next"), table_event("private/night/result", {
        "step": "mafia_shot", "picks": [], "missing": [1, 2, 3], "agreed": False}))
    while game.stage == "night":
        if game.running_step:
            game, _, _ = run(game, table_event("private/night/result", {
                "step": game.running_step, "picks": [], "missing": [], "agreed": None}))
        else:
            game, _, _ = run(game, tap("next"))
    return game


def test_fiim_4_4_1_no_nominations_no_vote():
    game, commands = speeches(day_one())
    assert game.stage == "night" and verbs.VOTE_START not in [c.spec for c in commands]


def test_fiim_4_4_2_the_table_nomination_and_the_judges_own_and_a_withdrawal():
    game, _, _ = run(day_one(), tap("next"), table_event("event/nomination", {
        "by": 1, "seat": 5, "outcome": "accepted"}))
    assert game.nominees == (5,)
    game, commands, _ = run(game, tap("nominate", seat=7), tap("withdraw", seat=5))
    assert game.nominees == (7,)
    assert commands == [command(verbs.NOMINATION_WITHDRAW, seat=5)]
    with pytest.raises(Refused, match=r"4.4.2"):
        run(game, tap("nominate", seat=7))


def test_fiim_4_4_2_a_seat_nominated_again_is_not_taken_and_the_log_says_so():
    """Seat 4 types «7#» when 7 is nominated already: the table answers ``supported``; the game
    stays as it was (but its version: the panel keeps the input, its line in the record), and
    the judge reads why nothing changed, citing 4.4.2."""
    game, _, _ = run(day_one(), tap("next"), table_event("event/nomination", {
        "by": 1, "seat": 7, "outcome": "accepted"}), tap("next"))
    for outcome in ("supported", "accepted"):  # the table's word, or one that missed it
        again, commands, lines = run(game, table_event("event/nomination", {
            "by": 2, "seat": 7, "outcome": outcome}))
        assert commands == [] and replace(again, version=game.version, undo=()) == game
        assert lines == ["4.4.2: seat 2 nominates seat 7: already nominated, not taken"]


def test_fiim_4_4_10_one_nominee_on_day_1_is_no_vote():
    game, commands = speeches(day_one(), {1: 5})
    assert game.stage == "night" and verbs.VOTE_START not in [c.spec for c in commands]


def test_fiim_4_4_4_the_vote_runs_on_the_nominees_in_nomination_order():
    game, commands = speeches(day_one(), {1: 7, 2: 5})
    assert game.stage == "vote"
    assert commands[-1] == command(verbs.VOTE_START, nominees=[7, 5], voters=list(range(1, 11)),
                                   day=1)


def test_fiim_4_4_6_the_judge_confirms_rejects_or_corrects_only_a_proposed_count():
    game, _ = speeches(day_one(), {1: 7, 2: 5})
    with pytest.raises(Refused, match=r"4.4.6"):
        run(game, tap("confirm"))
    game, commands, _ = run(game, table_event("event/vote/proposed", {
        "candidate": 7, "count": 3, "voters": [1, 2, 3]}), tap("reject"))
    assert commands == [command(verbs.VOTE_REJECT)]
    with pytest.raises(Refused, match=r"4.4.6"):  # decided: a second tap finds nothing
        run(game, tap("confirm"))
    game, commands, _ = run(game, table_event("event/vote/proposed", {
        "candidate": 7, "count": 2, "voters": [1, 2]}), tap("correct", voters=[4, 2]))
    assert commands == [command(verbs.VOTE_CORRECT, voters=[2, 4], reason="judge's count")]
    game, _, _ = run(game, table_event("event/vote/proposed", {
        "candidate": 5, "count": 2, "voters": [1, 2]}))
    with pytest.raises(Refused, match=r"4.4.7"):
        run(game, tap("correct", voters=[11]))


def test_fiim_4_4_11_most_votes_leaves_after_last_words_4_4_13():
    game, _ = speeches(day_one(), {1: 7, 2: 5})
    game, _, _ = run(game, result(outcome="eliminated", eliminated=7, tied=[]))
    assert game.stage == "last_words" and game.speakers == (7,)
    game, commands, _ = run(game, tap("next"))
    assert commands == [command(verbs.TIMER_START, seat=7, seconds=60, kind="last_words",
                                replace=True)]
    leave = next(o for o in offered(game) if o.action == "next").label
    assert (str(leave), render(leave, "ru")) == ("Seat 7 leaves the table",
                                                 "Игрок 7 покидает стол")
    game, commands, _ = run(game, tap("next"))
    assert out_of_the_game(7) in commands
    assert not game.player(7).in_game and game.stage == "night"


def test_fiim_4_4_12_a_tie_gets_30_s_defences_then_a_re_vote_and_4_4_12_3_the_question():
    game, _ = speeches(day_one(), {1: 7, 2: 5, 3: 9})
    game, _, _ = run(game, result(outcome="tie", tied=[7, 5]))
    assert game.stage == "defence" and game.speakers == (7, 5)
    game, commands, _ = run(game, tap("next"), tap("next"), tap("next"))
    assert [c.payload.kind for c in commands if c.spec is verbs.TIMER_START] == ["excuse", "excuse"]
    assert commands[-1].spec is verbs.VOTE_START and commands[-1].payload.nominees == [7, 5]
    game, commands, _ = run(game, result(outcome="tie", tied=[7, 5]))
    assert game.stage == "question"
    assert commands == [command(verbs.VOTE_QUESTION, subjects=[7, 5], voters=list(range(1, 11)))]
    yes, _, _ = run(game, result(outcome="yes"))
    assert yes.stage == "last_words" and yes.leaving == (7, 5)
    yes, _, _ = run(yes, tap("next"), tap("next"))
    leave = next(o for o in offered(yes) if o.action == "next").label
    assert render(leave, "ru") == "Игроки 7, 5 покидают стол"  # 4.4.12.3: all of them
    no, _, _ = run(game, result(outcome="no"))
    assert no.stage == "night" and all(no.player(s).in_game for s in (5, 7))


def test_fiim_4_4_12_3_the_judges_count_of_the_question_names_the_question_not_a_seat_0():
    game, _ = speeches(day_one(), {1: 7, 2: 5})
    game, _, _ = run(game, result(outcome="tie", tied=[7, 5]), tap("next"), tap("next"),
                     tap("next"), result(outcome="tie", tied=[7, 5]))
    assert game.stage == "question"
    game, _, _ = run(game, table_event("event/vote/proposed", {
        "candidate": 0, "count": 4, "voters": [1, 2, 3, 4]}))
    _, _, lines = run(game, tap("correct", voters=[1, 2, 3, 4, 6, 8]))
    assert lines == ["4.4.6: the judge corrects the count of the yes votes on «all leave?»"]


def test_fiim_4_4_8_the_proposed_count_tells_who_raised_no_hand_and_the_paragraph():
    game, _ = speeches(day_one(), {1: 7, 2: 5})
    game, _, _ = run(game, table_event("event/vote/proposed", {
        "candidate": 5, "count": 6, "voters": [1, 2], "leftover": [3, 4, 8, 9]}))
    proposed = public_view(game)["vote"]["proposed"]
    assert (proposed["voters"], proposed["leftover"], proposed["leftover_rule"]) == (
        [1, 2], [3, 4, 8, 9], "4.4.8")


def test_fiim_4_4_12_2_a_tie_among_fewer_is_voted_again_not_asked():
    game, _ = speeches(day_one(), {1: 7, 2: 5, 3: 9})
    game, _, _ = run(game, result(outcome="tie", tied=[7, 5, 9]))
    game, _, _ = run(game, tap("next"), tap("next"), tap("next"), tap("next"))
    game, _, _ = run(game, result(outcome="tie", tied=[7, 5]))
    assert game.stage == "defence" and game.speakers == (7, 5)


def test_fiim_4_5_3_the_shot_is_a_keypad_step_for_the_blacks():
    game, commands, _ = run(night_one(), tap("next"))
    assert commands == [command(verbs.NIGHT_STEP, step="mafia_shot", actors=[1, 2, 3], picks=1,
                                targets="alive", seconds=10.0)]
    with pytest.raises(Refused, match=r"4.5"):
        run(game, tap("next"))


def test_fiim_4_5_4_all_blacks_on_one_seat_kill_it_and_4_5_9_best_move_after_the_first():
    game = shot(night_one(), {1: 8, 2: 8, 3: 8})
    assert game.killed == 8 and game.night_steps == ("don_check", "sheriff_check", "best_move")


def test_fiim_4_5_5_several_targets_is_a_miss():
    game = shot(night_one(), {1: 8, 2: 8, 3: 9})
    assert game.killed is None and "best_move" not in game.night_steps
    game, _, _ = run(night_one(), tap("next"), table_event("private/night/result", {
        "step": "mafia_shot", "missing": [], "agreed": False, "picks": [
            {"actor": 1, "picks": [8], "miss": None}, {"actor": 2, "picks": [8], "miss": None},
            {"actor": 3, "picks": [8, 9], "miss": "several_targets"}]}))
    assert game.killed is None  # one mafioso shot two: a miss, whatever the others did


def test_fiim_4_5_6_and_4_5_7_checks_are_answered_on_the_private_indicator():
    game = shot(night_one(), {1: 8, 2: 8, 3: 8})
    game, commands, _ = run(game, tap("next"), table_event("private/night/result", {
        "step": "don_check", "picks": [{"actor": 1, "picks": [4]}], "missing": []}))
    assert commands[-1] == command(verbs.NIGHT_REVEAL, seat=1, pattern=YES)  # 4 is the Sheriff
    game, commands, _ = run(game, tap("next"), table_event("private/night/result", {
        "step": "sheriff_check", "picks": [{"actor": 4, "picks": [6]}], "missing": []}))
    assert commands[-1] == command(verbs.NIGHT_REVEAL, seat=4, pattern=NO)  # 6 is red
    assert [c[2:] for c in game.checks] == [(4, True), (6, False)]


def test_fiim_4_5_9_morning_gives_the_victim_a_last_minute_then_the_day():
    game = shot(night_one(), {1: 8, 2: 8, 3: 8})
    game = replace_steps_done(game)
    game, commands, _ = run(game, tap("next"))
    assert commands == [command(verbs.PHASE, phase="day")]
    assert game.stage == "last_words" and game.after_last_words == "day"
    game, commands, _ = run(game, tap("next"), tap("next"))
    assert not game.player(8).in_game and game.stage == "day" and game.day == 2
    assert command(verbs.DAY_START, day=2) in commands


def replace_steps_done(game: Game) -> Game:
    while game.night_steps:
        game, _, _ = run(game, tap("next"), table_event("private/night/result", {
            "step": game.night_steps[0], "picks": [], "missing": []}))
    return game


def test_fiim_1_4_red_wins_when_every_black_is_out():
    game = day_one()
    for seat in (1, 2, 3):
        for _ in range(4):
            game, _, _ = run(game, tap("foul", seat=seat))
    assert game.stage == "over" and game.winner == "red"


def test_fiim_1_4_a_win_by_fouls_mid_vote_ends_the_vote_at_the_table():
    game, _ = speeches(day_one(), {1: 7, 2: 5})
    for seat in (1, 2):
        for _ in range(4):
            game, _, _ = run(game, tap("foul", seat=seat))
    game, commands, _ = run(game, *[tap("foul", seat=3)] * 4)
    assert game.winner == "red" and commands[-1] == command(verbs.VOTE_CANCEL)


def test_fiim_1_4_black_wins_at_parity():
    game = day_one()
    for seat in (4, 5, 6, 7):
        for _ in range(4):
            game, _, _ = run(game, tap("foul", seat=seat))
    assert game.stage == "over" and game.winner == "black"  # 3 black, 3 red


def test_fouls_third_silences_the_next_speech_fourth_takes_the_player_out():
    game = day_one()
    game, commands, _ = run(game, tap("foul", seat=1), tap("foul", seat=1), tap("foul", seat=1))
    assert commands[-1] == command(verbs.SEATS, seats=[SeatStanding(seat=1, fouls=3,
                                                                    silenced=True)])
    game, commands, _ = run(game, tap("next"))
    assert commands == [  # seat 1 is skipped, and the table told the silence is served
        command(verbs.SEATS, seats=[SeatStanding(seat=1, silenced=False)]),
        command(verbs.TIMER_START, seat=2, seconds=60, kind="speech", replace=True)]
    game, commands, _ = run(game, tap("foul", seat=1))
    assert not game.player(1).in_game
    with pytest.raises(Refused, match="out of the game"):
        run(game, tap("foul", seat=1))


def test_undo_takes_back_a_foul_and_tells_the_table_the_standings_again():
    game, _, _ = run(day_one(), tap("foul", seat=5))
    game, commands, _ = run(game, tap("undo"))
    assert game.player(5).fouls == 0
    assert commands[0].spec is verbs.SEATS and commands[0].payload.seats[4].fouls == 0
    with pytest.raises(Refused, match="undo"):
        run(game, tap("undo"))  # the last action is now the morning's Next


def test_undo_of_a_foul_keeps_the_nomination_the_table_accepted_since():
    game, _, _ = run(day_one(), tap("next"), tap("foul", seat=5),
                     table_event("event/nomination", {"by": 1, "seat": 7, "outcome": "accepted"}))
    game, _, lines = run(game, tap("undo"))
    assert game.player(5).fouls == 0 and game.nominees == (7,) and lines == ["undo: foul"]


def test_undo_of_a_fourth_foul_keeps_the_vote_result_that_came_after_it():
    """4.4.11: seat 7 is voted out after seat 9's fourth foul; the foul taken back brings seat 9
    back, and seat 7 still leaves after last words."""
    game, _ = speeches(day_one(), {1: 7, 2: 5})
    game, _, _ = run(game, *[tap("foul", seat=9)] * 4)
    game, _, _ = run(game, result(outcome="eliminated", eliminated=7, tied=[]))
    game, commands, _ = run(game, tap("undo"))
    assert game.player(9).in_game and game.player(9).fouls == 3
    assert game.stage == "last_words" and game.leaving == (7,)
    assert commands[0].payload.seats[8] == SeatStanding(seat=9, in_game=True, fouls=3,
                                                        silenced=True)


def test_undo_after_a_speech_or_a_count_is_refused_the_table_already_did_it():
    game, _, _ = run(day_one(), tap("foul", seat=5), tap("next"))
    with pytest.raises(Refused, match="already happened at the table"):
        run(game, tap("undo"))
    with pytest.raises(Refused, match="nothing to undo"):
        run(new_game(), tap("undo"))


def test_fiim_1_4_and_4_4_13_a_game_ending_in_last_words_takes_the_voted_out_player_out():
    """1.4: "the moment of removal is the vote". Seat 7 is voted out; in their last words seat
    8's fourth foul ends the game: with seat 7 already out, three black against three red."""
    game, _, _ = run(new_game(), *ended_in_last_words())
    assert game.stage == "last_words" and game.floor == 7 and game.player(8).fouls == 3
    game, commands, lines = run(game, tap("foul", seat=8))
    assert game.stage == "over" and game.winner == "black"
    assert not game.player(7).in_game and game.leaving == () and game.floor is None
    assert out_of_the_game(7) in commands
    assert command(verbs.TIMER_STOP) in commands
    assert "seat 7 leaves the game" in lines


def test_fiim_1_4_a_player_shot_at_night_is_out_of_the_count_in_their_morning_minute():
    """4.5.4: the victim leaves when the night ends; a fourth foul in their last minute that
    brings parity counts them out."""
    game = day_one()
    for seat in (5, 6):
        game, _, _ = run(game, *[tap("foul", seat=seat)] * 4)
    game, _ = speeches(game)  # nobody nominated: night 1
    game = shot(game, {1: 7, 2: 7, 3: 7})
    while game.stage == "night":  # the checks and the best move time out: morning
        game, _, _ = run(game, tap("next"))
        if game.running_step is not None:
            game, _, _ = run(game, table_event("private/night/result", {
                "step": game.running_step, "picks": [], "missing": []}))
    assert game.stage == "last_words" and game.leaving == (7,)
    game, _, _ = run(game, *[tap("foul", seat=8)] * 4)
    assert game.winner == "black" and not game.player(7).in_game


def test_an_action_the_rules_forbid_now_is_refused_naming_its_paragraph():
    with pytest.raises(Refused, match=r"4.4.2"):
        run(started(), tap("nominate", seat=3))
    with pytest.raises(Refused, match="malformed"):
        run(day_one(), tap("foul"))


def test_public_view_holds_no_role_no_check_no_night_pick():
    game = shot(night_one(), {1: 8, 2: 8, 3: 8})
    text = repr(public_view(game))
    assert "don" not in text and "sheriff" not in text and "killed" not in text
    assert judge_view(game)["seats"][0]["role"] == DON


# ------------------------------------------------------------------ property


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.one_of(actions, events), max_size=80))
def test_no_sequence_of_taps_and_events_reaches_a_state_the_rules_cannot(seed, inputs):
    game, _, _ = run(new_game(), tap("deal", seed=seed), tap("start"))
    for i, given_input in enumerate(inputs):
        before = game
        try:
            game, commands, _ = step(game, given_input, float(i))
        except Refused:
            assert game is before
            continue
        black = len(game.with_role(*BLACK))
        red = len(game.alive) - black
        assert game.version >= before.version
        assert all(0 <= p.fouls <= 4 for p in game.players)
        assert all(not p.in_game for p in game.players if p.fouls == 4)  # the 4th foul: out
        assert set(game.nominees) <= set(game.alive) or game.stage != "day"
        assert len(set(game.nominees)) == len(game.nominees)
        assert game.floor is None or game.floor in game.alive or game.stage == "last_words"
        if game.stage == "over":  # 1.4
            assert (game.winner == "red") == (black == 0)
            assert (game.winner == "black") == (black > 0 and black >= red)
        else:
            assert 0 < black < red
        assert game.day >= before.day and game.night >= before.night
        assert sum(p.role == SHERIFF for p in game.players) == 1
        assert all(c.spec is not verbs.NIGHT_STEP or game.stage == "night" for c in commands)
        assert all(c.spec is not verbs.VOTE_START or game.stage == "vote" for c in commands)
        for command in commands:  # the table reads each one back as the core built it
            sent = command.stamped("j1")
            assert parse(encode(sent), command.spec.payload).value == sent


undoable = st.one_of(
    st.builds(lambda s: tap("foul", seat=s), st.integers(1, 10)),
    st.builds(lambda s: tap("nominate", seat=s), st.integers(1, 10)),
    st.builds(lambda s: tap("withdraw", seat=s), st.integers(1, 10)),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32),
       st.lists(st.one_of(actions.filter(lambda a: a.kind != "undo"), undoable, events),
                max_size=60),
       st.integers(1, 3))
def test_undo_takes_back_the_judges_actions_and_keeps_the_tables_events(seed, inputs, times):
    """Undoing the last ``times`` undoable actions gives the game built from the same journal
    (the inputs that changed the game) without those actions: the table's events after them
    stay, played on the game without them."""
    start, _, _ = run(new_game(), tap("deal", seed=seed), tap("start"), tap("next"))
    game, journal = start, []
    for i, given_input in enumerate(inputs):
        try:
            after, _, _ = step(game, given_input, float(i))
        except Refused:
            continue
        if after is not game:
            journal.append(given_input)
        game = after
    times = min(times, len(game.undo))
    undone = game
    for _ in range(times):
        undone, _, _ = step(undone, tap("undo"), 0.0)
    actions_at = [i for i, g in enumerate(journal) if isinstance(g, Action)]
    dropped = set(actions_at[len(actions_at) - times:]) if times else set()
    rebuilt = start
    for i, given_input in enumerate(journal):
        if i not in dropped:
            rebuilt, _, _ = step(rebuilt, given_input, float(i))

    def bare(g: Game) -> Game:
        return replace(g, version=0, undo=())

    assert bare(undone) == bare(rebuilt)
    assert [(bare(m.before), m.kind) for m in undone.undo] == \
        [(bare(m.before), m.kind) for m in rebuilt.undo]
