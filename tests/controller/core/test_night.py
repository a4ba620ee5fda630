"""Night steps (FIIM 4.5) in the core and on a live table: picks, a surplus of them (void, 4.5.5;
the first stand, 4.5.8-4.5.9), count mode, privacy."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from contract.buttons import SeatButton
from contract.events import NightPickList, Surplus
from contract.inputs import ButtonEdge, CommandReceived
from controller.core import night
from controller.core.effects import Cue, Emit, Indicate, SetLight
from controller.core.state import TableSetup, initial_state
from tests.support.core_driver import Timeline, typed
from tests.support.table_configs import preset

SEATS = frozenset(SeatButton(s) for s in range(1, 11))


def table(surplus: dict[str, Surplus] | None = None) -> Timeline:
    """A 10-seat table at night; ``surplus``: the preset's ``[night] surplus`` (FIIM's)."""
    setup = TableSetup("t", 10, SEATS, debounce=0.02,
                       night_surplus=night.SURPLUS if surplus is None else surplus)
    tl = Timeline(initial_state(setup))
    tl.feed([cmd("phase", 0.0, phase="night")])
    return tl


def cmd(verb: str, t: float, **doc) -> CommandReceived:
    return CommandReceived(verb, json.dumps({"id": f"{verb}@{t}", **doc}).encode(), t)


def emitted(tl: Timeline, kind: str) -> list[Emit]:
    return [e for e in tl.effects if isinstance(e, Emit) and e.kind == kind]


def test_the_mafia_shot_agrees_when_all_pick_the_same_seat():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5, 9], seconds=10)])
    tl.feed(typed(2, "7#", 2.0) + typed(5, "7#", 3.0) + typed(9, "7#", 4.0))
    tl.run_until(20.0)
    [result] = emitted(tl, "night/result")
    assert result.private and result.t == 11.0
    assert result.event.agreed is True and result.event.missing == []
    assert [p.picks for p in result.event.picks] == [[7], [7], [7]]


def test_4_5_5_any_difference_is_a_miss_and_a_silent_actor_is_missing():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5, 9])])
    tl.feed(typed(2, "7#", 2.0) + typed(5, "4#", 3.0))
    tl.run_until(20.0)
    [result] = emitted(tl, "night/result")
    assert result.event.agreed is False and result.event.missing == [9]
    assert [p.miss for p in result.event.picks] == ["disagree", "disagree", "missing"]


@given(st.permutations([7, 4]), st.booleans())
def test_fiim_4_5_5_several_targets_is_a_miss_whatever_the_order(order, partner_agrees):
    """One mafioso shows 7 and 4 (in either order); the other shows 7 (or 4): a miss, always."""
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5])])
    tl.feed(typed(2, f"{order[0]}#", 2.0) + typed(2, f"{order[1]}#", 3.0)
            + typed(5, f"{order[0] if partner_agrees else order[1]}#", 4.0))
    tl.run_until(20.0)
    picks = [(e.event.value, e.event.taken) for e in emitted(tl, "night/pick")
             if e.event.actor == 2]
    assert picks == [(order[0], True), (order[1], False)]  # the second one is not taken...
    assert emitted(tl, "night/pick")[1].event.reason == (
        "more than 1 target: the picks are void (FIIM 4.5.5)")
    [result] = emitted(tl, "night/result")
    assert result.event.agreed is False  # ...and the shot is a miss, whichever came first
    assert result.event.picks[0] == NightPickList(2, list(order), "several_targets")
    assert result.event.picks[1].miss is None and result.event.missing == []


def test_fiim_4_5_5_a_lone_mafioso_with_several_targets_misses_too():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2])])
    tl.feed(typed(2, "7#", 2.0) + typed(2, "4#", 3.0) + typed(2, "9#", 4.0))
    tl.run_until(20.0)
    [result] = emitted(tl, "night/result")
    assert result.event.picks == [NightPickList(2, [7, 4], "several_targets")]
    assert result.event.agreed is None


def test_best_move_takes_three_seats_and_refuses_a_fourth_or_a_repeat():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="best_move", actors=[4], picks=3, targets="seats",
                 seconds=20)])
    tl.feed(typed(4, "1#", 2.0) + typed(4, "1#", 3.0) + typed(4, "6#", 4.0) + typed(4, "10#", 5.0)
            + typed(4, "8#", 6.0))
    picks = [(e.event.value, e.event.taken) for e in emitted(tl, "night/pick")]
    assert picks == [(1, True), (1, False), (6, True), (10, True), (8, False)]
    indicators = [e.pattern for e in tl.effects if isinstance(e, Indicate)]
    assert indicators == [1, 3, 1, 1, 3]  # feedback on the actor's private indicator only


def test_keypad_entries_edited_out_of_range_and_by_a_non_actor():
    tl = table()
    tl.feed([cmd("seats", 0.5, seats=[{"seat": 3, "in_game": False}]),
             cmd("night/step", 1.0, step="sheriff_check", actors=[6])])
    tl.feed(typed(6, "5*8#", 2.0))  # * clears: 8
    tl.feed(typed(6, "3#", 3.0))  # seat 3 is out: not a target
    tl.feed(typed(1, "4#", 4.0))  # not an actor: refused, without an indicator
    picks = [(e.event.actor, e.event.value, e.event.taken, e.event.reason)
             for e in emitted(tl, "night/pick")]
    assert picks == [(6, 8, True, None), (6, 3, False, "3 is not a target of this step"),
                     (1, 4, False, "seat 1 does not act in this step")]
    assert [e.seat for e in tl.effects if isinstance(e, Indicate) and e.pattern] == [6, 6]


def test_roulette_picks_a_number_and_the_time_limit_ends_with_nothing():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="roulette", actors=[2], targets="numbers", numbers=7,
                 seconds=5)])
    tl.feed(typed(2, "9#", 2.0))  # not 1..7
    tl.run_until(10.0)
    [result] = emitted(tl, "night/result")
    assert result.event.missing == [2] and result.event.agreed is None


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
    at = 1.0 + night.COUNT_LEAD + (target - 1 + 0.5 + jitter) * cadence
    tl.feed([ButtonEdge(SeatButton(4), True, at), ButtonEdge(SeatButton(4), False, at + 0.05)])
    tl.run_until(1.0 + 11 * cadence)
    [pick] = emitted(tl, "night/pick")
    assert pick.event.value == target and pick.event.taken


def test_a_count_press_before_the_first_number_is_refused_not_dropped():
    """Issue 12 item 6: the step is open but no number is spoken yet (``COUNT_LEAD``): the
    mafioso's press is refused on the private topic and its indicator blinks, not lost."""
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[4], targets="seats",
                 mode="count", cadence=1.0)])
    tl.feed([ButtonEdge(SeatButton(4), True, 1.1), ButtonEdge(SeatButton(4), False, 1.15)])
    [pick] = emitted(tl, "night/pick")
    assert pick.private and pick.event.taken is False and pick.event.value is None
    assert pick.event.reason == "no number was being spoken"
    assert Indicate(4, night.REFUSED) in tl.effects


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


def test_fiim_4_2_1_the_mafias_minute_is_a_countdown_that_lights_no_seat_and_tells_nobody():
    tl = table()
    lights_before = [e for e in tl.effects if isinstance(e, SetLight)]
    tl.feed([cmd("timer/start", 1.0, seat=2, seconds=60, kind="night")])
    assert "a night countdown lights no seat" in tl.effects[-1].error
    tl.feed([cmd("timer/start", 2.0, seconds=60, kind="night")])
    tl.feed([cmd("phase", 3.0, phase="day")])
    assert "the night countdown runs" in tl.effects[-1].error
    tl.run_until(70.0)
    timers = [(e.event.state, e.event.seat, e.private) for e in tl.effects
              if isinstance(e, Emit) and e.kind == "timer"]
    assert timers == [("started", None, False), ("warning", None, False),
                      ("final", None, False), ("ended", None, False)]
    assert [(c.name, c.t) for c in tl.effects if isinstance(c, Cue)] == [
        ("warning", 52.0), ("ru/ten_seconds", 52.4), ("end", 62.0)]  # the same for all
    assert [e for e in tl.effects if isinstance(e, SetLight)] == lights_before


def test_fiim_4_2_3_the_sheriffs_20_s_and_no_countdown_by_day():
    tl = table()
    tl.feed([cmd("timer/start", 1.0, seconds=20, kind="night"),
             cmd("timer/stop", 5.0), cmd("phase", 6.0, phase="day"),
             cmd("timer/start", 7.0, seconds=20, kind="night")])
    assert "a night countdown is for the night" in tl.effects[-1].error
    tl.feed([cmd("timer/start", 8.0, seconds=20)])
    assert tl.effects[-1].error == ('seat: give the seat that takes the floor (or kind '
                                    '"discussion": the whole table)')


def test_a_step_cut_by_a_restart_reports_what_it_had():
    from contract.inputs import Boot
    from controller.core.table import step

    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5])])
    tl.feed(typed(2, "7#", 2.0))
    restarted = initial_state(tl.state.setup, night=True, night_step=tl.state.night_step)
    state, effects = step(restarted, Boot(50.0))
    [result] = [e for e in effects if isinstance(e, Emit) and e.kind == "night/result"]
    assert result.private and result.event.missing == [5]
    assert state.night_step is None


def test_a_press_made_before_the_end_but_delivered_just_after_still_counts():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="don_check", actors=[3], seconds=5)])
    tl.run_until(6.05)  # the step's time is up at 6.0...
    tl.feed(typed(3, "4#", 5.85))  # ...but this entry's "#" came at 5.95 (delivered late)
    tl.run_until(10.0)
    [result] = emitted(tl, "night/result")
    assert result.event.picks == [NightPickList(3, [4], None)]
    assert result.t == 6.0


def test_fiim_4_5_3_a_count_step_lasts_its_numbers_and_refuses_seconds():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2], mode="count", seconds=5)])
    assert tl.effects[-1].error.startswith("seconds: a count step lasts as long as its numbers")
    tl.feed([cmd("night/step", 2.0, step="mafia_shot", actors=[2], mode="count", cadence=0.5,
                 targets="numbers", numbers=4)])
    [started] = emitted(tl, "night/step")
    assert started.event.seconds == 2.0 and tl.state.night_step.ends == 2.0 + 0.3 + 2.0
    assert [(c.name, c.t) for c in tl.effects if isinstance(c, Cue)] == [
        ("ru/number/1", 2.3), ("ru/number/2", 2.8), ("ru/number/3", 3.3), ("ru/number/4", 3.8)]


@given(st.lists(st.tuples(st.sampled_from([2, 5]), st.integers(1, 4)), max_size=8))
def test_fiim_4_5_4_the_shot_is_agreed_exactly_when_each_shows_one_and_the_same_seat(entries):
    """For any entries in any order: agreed if and only if both mafiosi showed exactly one
    (distinct) number and it is the same one; otherwise each actor's miss says why."""
    step, _ = night.start(night.NightStep(id="s", step="mafia_shot", actors=(2, 5),
                                          allowed=(1, 2, 3), seconds=10), 0.0, "ru")
    for i, (actor, value) in enumerate(entries):
        step, _ = night.pick(step, actor, value, 1.0 + i)
    [result, *_] = night.finish(step)
    shown = {a: {v for who, v in entries if who == a and v in step.allowed} for a in (2, 5)}
    one_each = all(len(v) == 1 for v in shown.values())
    assert result.event.agreed == (one_each and shown[2] == shown[5])
    for entry in result.event.picks:
        expected = ("missing" if not shown[entry.actor] else
                    "several_targets" if len(shown[entry.actor]) > 1 else
                    None if result.event.agreed or not one_each else "disagree")
        assert entry.miss == expected


def fiim(tmp_path) -> Timeline:
    """A table at night with the shipped FIIM preset's ``[night] surplus``."""
    return table(preset("fiim", tmp_path).night.surplus)


def picks_of(tl: Timeline, actor: int) -> list[tuple[int | None, bool, str | None]]:
    return [(e.event.value, e.event.taken, e.event.reason) for e in emitted(tl, "night/pick")
            if e.event.actor == actor]


def test_fiim_4_5_5_the_shot_with_several_targets_is_void_by_the_preset(tmp_path):
    tl = fiim(tmp_path)
    tl.feed([cmd("night/step", 1.0, step="mafia_shot", actors=[2, 5])])
    tl.feed(typed(2, "7#4#", 2.0) + typed(5, "7#", 3.0))
    tl.run_until(20.0)
    [started] = emitted(tl, "night/step")
    assert started.event.surplus == "void"
    assert picks_of(tl, 2) == [(7, True, None),
                               (4, False, "more than 1 target: the picks are void (FIIM 4.5.5)")]
    [result] = emitted(tl, "night/result")
    assert result.event.picks[0] == NightPickList(2, [7, 4], "several_targets")
    assert result.event.agreed is False


@pytest.mark.parametrize("step", ["don_check", "sheriff_check"])
def test_fiim_4_5_8_one_check_a_night_the_first_stands(tmp_path, step):
    """A Don who types 6# then 4# keeps his check of 6: the 4 is refused, said so privately."""
    tl = fiim(tmp_path)
    tl.feed([cmd("night/step", 1.0, step=step, actors=[3])])
    tl.feed(typed(3, "6#4#", 2.0))
    tl.run_until(20.0)
    [started] = emitted(tl, "night/step")
    assert started.event.surplus == "first"
    assert picks_of(tl, 3) == [(6, True, None),
                               (4, False, "1 target picked already: the first stands")]
    assert [e.pattern for e in tl.effects if isinstance(e, Indicate) and e.pattern] == [
        night.TAKEN, night.REFUSED]
    [result] = emitted(tl, "night/result")
    assert result.event.picks == [NightPickList(3, [6], None)] and result.event.missing == []
    assert all(e.private for e in emitted(tl, "night/pick") + emitted(tl, "night/result"))


def test_fiim_4_5_9_the_first_three_best_move_numbers_stand(tmp_path):
    tl = fiim(tmp_path)
    tl.feed([cmd("night/step", 1.0, step="best_move", actors=[4], picks=3, targets="seats",
                 seconds=20)])
    tl.feed(typed(4, "3#5#8#1#", 2.0))
    tl.run_until(30.0)
    assert picks_of(tl, 4)[-1] == (1, False, "3 targets picked already: the first 3 stand")
    [result] = emitted(tl, "night/result")
    assert result.event.picks == [NightPickList(4, [3, 5, 8], None)]


def test_the_built_in_readings_are_the_fiim_presets_and_the_clubs_keep_the_shot_void(tmp_path):
    assert preset("fiim", tmp_path).night.surplus == night.SURPLUS
    # their books are silent: FIIM's readings, a kill naming several void, one actor's move its
    # first numbers (the Crow Club's maniac, poison and paranoid are "shot" steps because
    # immunity blocks them, each one actor's: the first stand)
    kills = {"crow-club": {"mafia_shot"}, "online-003": {"maniac_kill", "mafia_kill", "kamikaze"}}
    for club, void in kills.items():
        rules = preset(club, tmp_path).night
        for step in rules.steps:
            assert night.surplus_of(step, rules.surplus, None) == (
                "void" if step in void else "first"), (club, step)


@pytest.mark.parametrize(("step", "picks", "miss"), [
    ("don_check", [2], None),  # 4.5.8: the first press stands
    ("mafia_shot", [2, 5], "several_targets"),  # 4.5.5: two numbers are a miss
])
def test_count_mode_follows_the_steps_surplus(tmp_path, step, picks, miss):
    """Presses while the table counts: at 2 and again at 5."""
    tl = fiim(tmp_path)
    tl.feed([cmd("night/step", 1.0, step=step, actors=[3], targets="seats", mode="count",
                 cadence=1.0)])
    for n in (2, 5):
        at = 1.0 + night.COUNT_LEAD + (n - 1 + 0.5)
        tl.feed([ButtonEdge(SeatButton(3), True, at), ButtonEdge(SeatButton(3), False, at + 0.1)])
    tl.run_until(20.0)
    [result] = emitted(tl, "night/result")
    assert result.event.picks == [NightPickList(3, picks, miss)]


def test_the_commands_surplus_wins_and_a_step_not_listed_keeps_its_first_picks():
    tl = table()
    tl.feed([cmd("night/step", 1.0, step="sheriff_check", actors=[6], surplus="void")])
    tl.feed(typed(6, "2#9#", 2.0))
    tl.run_until(20.0)
    tl.feed([cmd("night/step", 21.0, step="mafia_shot", actors=[2], surplus="first")])
    tl.feed(typed(2, "7#4#", 22.0))
    tl.run_until(40.0)
    tl.feed([cmd("night/step", 41.0, step="doctor", actors=[8])])  # not in the preset
    tl.feed(typed(8, "1#3#", 42.0))
    tl.run_until(60.0)
    assert [e.event.surplus for e in emitted(tl, "night/step")] == ["void", "first", "first"]
    assert [r.event.picks for r in emitted(tl, "night/result")] == [
        [NightPickList(6, [2, 9], "several_targets")], [NightPickList(2, [7], None)],
        [NightPickList(8, [1], None)]]
    tl.feed([cmd("night/step", 61.0, step="doctor", actors=[8], surplus="last")])
    assert tl.effects[-1].error == "surplus: invalid enum value 'last'"


#: keys of a keypad: mostly whole entries (some of them no seat: 0, 11, 12), a stray key now
#: and then (``*`` clears, a lone ``#`` confirms nothing, a digit joins the next entry)
ENTRY = st.one_of(st.integers(1, 10).map(lambda n: f"{n}#"),
                  st.integers(0, 12).map(lambda n: f"{n}#"), st.sampled_from(["*", "#", "1"]))


@given(st.sampled_from(["void", "first"]), st.integers(1, 3),
       st.lists(ENTRY, max_size=12).map("".join), st.lists(ENTRY, max_size=6).map("".join))
def test_surplus_over_random_key_sequences(surplus, picks, keys, others):
    """Seat 2 acts (seat 9 is out, so no target) and types ``keys``; seat 5, who does not act,
    types ``others``. Void: any surplus of valid numbers leaves no valid pick; first: the picks
    are exactly the first ``picks`` distinct valid numbers. Nothing of it is public."""
    tl = table()
    tl.feed([cmd("seats", 0.5, seats=[{"seat": 9, "in_game": False}]),
             cmd("night/step", 1.0, step="x", actors=[2], picks=picks, surplus=surplus,
                 seconds=30)])
    assert not tl.state.standings[8].in_game
    lights_before = [e for e in tl.effects if isinstance(e, SetLight)]
    tl.feed(typed(2, keys, 2.0) + typed(5, others, 2.05))
    tl.run_until(40.0)
    entries = [e.event.value for e in emitted(tl, "seat/entry") if e.event.seat == 2]
    valid = list(dict.fromkeys(v for v in entries if 1 <= v <= 10 and v != 9))
    [result] = emitted(tl, "night/result")
    [mine] = result.event.picks
    taken = [value for value, ok, _ in picks_of(tl, 2) if ok]
    if surplus == "first":
        assert mine.picks == taken == valid[:picks]
        assert mine.miss == (None if len(valid) >= picks else "missing")
    elif len(valid) > picks:
        assert mine.miss == "several_targets" and mine.picks == valid[:picks + 1]
        assert taken == valid[:picks]  # the one too many is refused, and voids them
    else:
        assert mine.picks == taken == valid
        assert mine.miss == (None if len(valid) == picks else "missing")
    assert {(ok, why) for _, ok, why in picks_of(tl, 5)} <= {
        (False, "seat 5 does not act in this step")}
    assert not [e for e in tl.effects if isinstance(e, Indicate) and e.seat != 2]
    assert all(e.private for e in tl.effects if isinstance(e, Emit)
               and e.kind.startswith(("seat/", "night/")))
    assert [e for e in tl.effects if isinstance(e, SetLight)] == lights_before
