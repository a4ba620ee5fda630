"""Night steps (FIIM 4.5) in the core and on a live table: picks, count mode, privacy."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from controller.core import night
from controller.core.buttons import SeatButton
from controller.core.effects import Emit, Indicate, SetLight
from controller.core.inputs import ButtonEdge, CommandReceived, KeyPressed
from controller.core.table import TableSetup, initial_state
from tests.core_driver import Timeline

SEATS = frozenset(SeatButton(s) for s in range(1, 11))


def table() -> Timeline:
    tl = Timeline(initial_state(TableSetup("t", 10, SEATS, debounce=0.02)))
    tl.feed([cmd("phase", 0.0, phase="night")])
    return tl


def cmd(verb: str, t: float, **doc) -> CommandReceived:
    return CommandReceived(verb, json.dumps({"id": f"{verb}@{t}", **doc}).encode(), t)


def typed(seat: int, keys: str, t: float) -> list[KeyPressed]:
    return [KeyPressed(seat, k, t + i * 0.1) for i, k in enumerate(keys)]


def emitted(tl: Timeline, kind: str) -> list[Emit]:
    return [e for e in tl.effects if isinstance(e, Emit) and e.kind == kind]


def test_the_mafia_shot_agrees_when_all_pick_the_same_seat():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5, 9], seconds=10)])
    tl.feed(typed(2, "7#", 2.0) + typed(5, "7#", 3.0) + typed(9, "7#", 4.0))
    tl.run_until(20.0)
    [result] = emitted(tl, "night/result")
    assert result.private and result.t == 11.0
    assert result.data["agreed"] is True and result.data["missing"] == []
    assert [p["picks"] for p in result.data["picks"]] == [[7], [7], [7]]


def test_4_5_5_any_difference_is_a_miss_and_a_silent_actor_is_missing():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5, 9])])
    tl.feed(typed(2, "7#", 2.0) + typed(5, "4#", 3.0))
    tl.run_until(20.0)
    [result] = emitted(tl, "night/result")
    assert result.data["agreed"] is False and result.data["missing"] == [9]


def test_best_move_takes_three_seats_and_refuses_a_fourth_or_a_repeat():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="best_move", actors=[4], picks=3, targets="seats",
                 seconds=20)])
    tl.feed(typed(4, "1#", 2.0) + typed(4, "1#", 3.0) + typed(4, "6#", 4.0) + typed(4, "10#", 5.0)
            + typed(4, "8#", 6.0))
    picks = [(e.data["value"], e.data["taken"]) for e in emitted(tl, "night/pick")]
    assert picks == [(1, True), (1, False), (6, True), (10, True), (8, False)]
    indicators = [e.pattern for e in tl.effects if isinstance(e, Indicate)]
    assert indicators == [1, 3, 1, 1, 3]  # feedback on the actor's private indicator only


def test_keypad_entries_edited_out_of_range_and_by_a_non_actor():
    tl = table()
    tl.feed([cmd("seats", 0.5, seats=[{"seat": 3, "in_game": False}]),
             cmd("night/step", 1.0, step="sheriff_check", actors=[6])])
    tl.feed(typed(6, "5*8#", 2.0))  # * clears: 8
    tl.feed(typed(6, "3#", 3.0))  # seat 3 is out: not a target
    tl.feed(typed(1, "4#", 4.0))  # not an actor: nothing
    picks = [(e.data["actor"], e.data["value"], e.data["taken"])
             for e in emitted(tl, "night/pick")]
    assert picks == [(6, 8, True), (6, 3, False)]


def test_roulette_picks_a_number_and_the_time_limit_ends_with_nothing():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="roulette", actors=[2], targets="numbers", numbers=7,
                 seconds=5)])
    tl.feed(typed(2, "9#", 2.0))  # not 1..7
    tl.run_until(10.0)
    [result] = emitted(tl, "night/result")
    assert result.data["missing"] == [2] and result.data["agreed"] is None


def test_at_night_every_seat_input_is_private_and_no_light_changes():
    tl = table()
    lights_before = [e for e in tl.effects if isinstance(e, SetLight)]
    tl.feed([cmd("night/step", 1.0, step="don_check", actors=[3])])
    tl.feed([*typed(3, "5#", 2.0), ButtonEdge(SeatButton(7), True, 3.0),
             ButtonEdge(SeatButton(7), False, 3.2)])
    tl.run_until(20.0)
    public = [e for e in tl.effects if isinstance(e, Emit) and not e.private
              and e.kind.startswith(("seat/", "night/"))]
    assert public == []
    assert [e for e in tl.effects if isinstance(e, SetLight)] == lights_before


def test_night_steps_are_refused_by_day_and_one_at_a_time():
    tl = Timeline(initial_state(TableSetup("t", 10, SEATS)))
    tl.feed([cmd("night/step", 1.0, step="x", actors=[1])])
    assert "it is day" in tl.effects[-1].error
    tl.feed([cmd("phase", 2.0, phase="night"), cmd("night/step", 3.0, step="x", actors=[1])])
    tl.feed([cmd("night/step", 4.0, step="y", actors=[2])])
    assert "the night step 'x' runs" in tl.effects[-1].error
    tl.feed([cmd("phase", 5.0, phase="day")])
    assert "let it end first" in tl.effects[-1].error


@given(st.floats(0.4, 2.0), st.integers(1, 10), st.floats(-0.45, 0.45))
def test_count_mode_attributes_a_press_to_the_number_being_spoken(cadence, target, jitter):
    """A press ``jitter`` of a cadence around the middle of number ``target``'s slot."""
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[4], targets="seats",
                 mode="count", cadence=cadence)])
    at = 1.0 + (target - 1 + 0.5 + jitter) * cadence
    tl.feed([ButtonEdge(SeatButton(4), True, at), ButtonEdge(SeatButton(4), False, at + 0.05)])
    tl.run_until(1.0 + 11 * cadence)
    [pick] = emitted(tl, "night/pick")
    assert pick.data["value"] == target and pick.data["taken"]


def test_count_mode_presses_at_the_edge_between_two_numbers():
    step = night.NightStep(id="s", step="x", actors=(1,), allowed=(1, 2, 3), mode="count",
                           cadence=1.0, started=10.0, ends=13.0)
    assert step.spoken_at(10.999) == 1 and step.spoken_at(11.0) == 2
    assert step.spoken_at(9.999) is None and step.spoken_at(13.0) is None


def test_digits_typed_before_the_step_do_not_become_its_pick():
    tl = table()
    tl.feed(typed(6, "7", 1.5))  # before the step opens
    tl.feed([cmd("night/step", 2.0, step="sheriff_check", actors=[6])])
    tl.feed(typed(6, "#", 2.1))
    assert emitted(tl, "night/pick") == []


def test_no_speech_timer_at_night_and_no_reveal_by_day():
    tl = table()
    tl.feed([cmd("timer/start", 1.0, seat=2, seconds=60)])
    assert "it is night" in tl.effects[-1].error and tl.state.timer is None
    tl.feed([cmd("phase", 2.0, phase="day"), cmd("night/reveal", 3.0, seat=4, pattern=1)])
    assert "it is day" in tl.effects[-1].error
    assert not [e for e in tl.effects if isinstance(e, Indicate) and e.pattern]


def test_day_turns_every_private_indicator_off():
    """A check result shown at night must not keep blinking into the day."""
    tl = table()
    tl.feed([cmd("night/reveal", 1.0, seat=4, pattern=2)])
    assert [e for e in tl.effects if isinstance(e, Indicate)] == [Indicate(4, 2)]
    tl.effects.clear()
    tl.feed([cmd("phase", 2.0, phase="day")])
    assert [e for e in tl.effects if isinstance(e, Indicate)] == [
        Indicate(seat, 0) for seat in range(1, 11)]


def test_a_step_cut_by_a_restart_reports_what_it_had():
    from controller.core.inputs import Boot
    from controller.core.table import step

    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5])])
    tl.feed(typed(2, "7#", 2.0))
    restarted = initial_state(tl.state.setup, night=True, night_step=tl.state.night_step)
    state, effects = step(restarted, Boot(50.0))
    [result] = [e for e in effects if isinstance(e, Emit) and e.kind == "night/result"]
    assert result.private and result.data["missing"] == [5]
    assert state.night_step is None


def test_a_press_made_before_the_end_but_delivered_just_after_still_counts():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="don_check", actors=[3], seconds=5)])
    tl.run_until(6.05)  # the step's time is up at 6.0...
    tl.feed(typed(3, "4#", 5.85))  # ...but this entry's "#" came at 5.95 (delivered late)
    tl.run_until(10.0)
    [result] = emitted(tl, "night/result")
    assert result.data["picks"] == [{"actor": 3, "picks": [4]}] and result.t == 6.0
