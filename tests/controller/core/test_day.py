"""The day at the table on a fake clock: speech timers, nominations, standings and lights."""

from __future__ import annotations

import json

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from contract.buttons import JudgeButton
from contract.inputs import CommandReceived
from contract.lights import LightMode
from controller.core import scene
from controller.core.effects import Cue, Emit, Reply
from controller.core.state import TableSetup, initial_state, shown
from tests.support.core_driver import Timeline, judge, typed

JUDGE = frozenset({JudgeButton("confirm"), JudgeButton("reject"), JudgeButton("next")})


def table() -> Timeline:
    return Timeline(initial_state(TableSetup("t", 10, JUDGE, debounce=0.02)))


def cmd(verb: str, t: float, **doc) -> CommandReceived:
    return CommandReceived(verb, json.dumps({"id": f"{verb}@{t}", **doc}).encode(), t)


def timer_events(tl: Timeline) -> list[tuple[str, float, int]]:
    return [(e.event.state, e.t, e.event.remaining_ms) for e in tl.effects
            if isinstance(e, Emit) and e.kind == "timer"]


def replies(tl: Timeline) -> list[Reply]:
    return [e for e in tl.effects if isinstance(e, Reply)]


def test_a_minute_warns_at_ten_seconds_blinks_fast_at_five_and_ends_on_time():
    tl = table()
    tl.feed([cmd("timer/start", 0.0, seat=3, seconds=60)])
    assert shown(tl.state)[2] == scene.SPEAKER["normal"]
    tl.run_until(50.0)
    assert shown(tl.state)[2].mode == LightMode.BLINK
    tl.run_until(55.0)
    assert shown(tl.state)[2].mode == LightMode.FAST_BLINK
    tl.run_until(70.0)
    assert timer_events(tl) == [("started", 0.0, 60000), ("warning", 50.0, 10000),
                                ("final", 55.0, 5000), ("ended", 60.0, 0)]
    assert [(c.name, c.t) for c in tl.effects if isinstance(c, Cue)] == [
        ("warning", 50.0), ("ru/ten_seconds", 50.4), ("end", 60.0)]
    assert tl.state.timer is None and shown(tl.state)[2] == scene.IN_GAME


def test_pause_and_resume_keep_the_time_left():
    tl = table()
    tl.feed([cmd("timer/start", 0.0, seat=3, seconds=60)])
    tl.feed([cmd("timer/pause", 20.0)])
    tl.run_until(100.0)  # paused: nothing happens
    tl.feed([cmd("timer/resume", 100.0)])
    tl.run_until(200.0)
    assert timer_events(tl) == [
        ("started", 0.0, 60000), ("paused", 20.0, 40000), ("resumed", 100.0, 40000),
        ("warning", 130.0, 10000), ("final", 135.0, 5000), ("ended", 140.0, 0)]


def test_added_time_brings_the_warning_back():
    tl = table()
    tl.feed([cmd("timer/start", 0.0, seat=3, seconds=30)])
    tl.run_until(27.0)  # warned and final
    tl.feed([cmd("timer/add", 27.0, seconds=30)])  # 33 s left
    assert shown(tl.state)[2] == scene.SPEAKER["normal"]
    tl.run_until(100.0)
    states = [(s, t) for s, t, _ in timer_events(tl)]
    assert states[-3:] == [("warning", 50.0), ("final", 55.0), ("ended", 60.0)]


def test_the_judge_station_pauses_resumes_adds_and_ends_a_speech():
    tl = table()
    tl.feed([cmd("timer/start", 0.0, seat=3, seconds=60)])
    tl.feed(judge("confirm", 10.0))  # pause
    tl.feed(judge("confirm", 20.0))  # resume
    tl.feed(judge("reject", 30.0))  # +10 s
    tl.feed(judge("next", 40.0))  # "Спасибо": the speech ends
    assert [s for s, _, _ in timer_events(tl)] == ["started", "paused", "resumed", "changed",
                                                   "stopped"]
    assert timer_events(tl)[-1] == ("stopped", 40.0, 40000)


def test_timer_commands_that_do_not_fit_are_refused_and_change_nothing():
    tl = table()
    for verb, doc, error in [
        ("timer/start", {"seat": 11, "seconds": 60}, "seat: no seat 11"),
        ("timer/start", {"seat": 3, "seconds": -5}, "seconds: expected float > 0.0"),
        ("timer/pause", {}, "no timer is running"),
        ("timer/add", {"seconds": 5}, "no timer is running"),
    ]:
        before = tl.state
        tl.feed([cmd(verb, 1.0, **doc)])
        assert error in replies(tl)[-1].error and tl.state == before
    tl.feed([cmd("timer/start", 2.0, seat=3, seconds=60)])
    speaking = tl.state
    tl.feed([cmd("timer/start", 3.0, seat=4, seconds=60)])
    assert "seat 3 holds the floor" in replies(tl)[-1].error and tl.state == speaking
    tl.feed([cmd("timer/start", 4.0, seat=4, seconds=30, replace=True)])
    assert replies(tl)[-1].ok and tl.state.timer.seat == 4
    assert [s for s, _, _ in timer_events(tl)][-2:] == ["stopped", "started"]


def test_classic_000_3_the_discussion_is_the_whole_tables_five_minutes_lighting_no_seat():
    """«3. Обсуждение»: "Регламент обсуждения не больше 5 минуты", the whole table at once: a
    timer with no seat by day (kind discussion), its warning and end the same for everyone;
    it lights nobody, takes no nomination, and night waits for it."""
    tl = table()
    tl.feed([cmd("day/start", 0.0, day=1), cmd("timer/start", 1.0, seconds=300,
                                                 kind="discussion")])
    assert replies(tl)[-1].ok and tl.state.timer.seat is None
    assert shown(tl.state) == shown(table().state)  # no seat lit as a speaker
    tl.feed(typed(3, "5#", 2.0))
    [refused] = [e for e in tl.effects if isinstance(e, Emit) and e.kind == "nomination"]
    assert refused.event.outcome == "refused" and "does not hold the floor" in \
        refused.event.reason
    tl.feed([cmd("phase", 3.0, phase="night")])
    assert replies(tl)[-1].error == "the table's discussion runs; stop the timer first"
    tl.feed([cmd("timer/start", 4.0, seat=2, seconds=30)])
    assert "the table's discussion runs" in replies(tl)[-1].error
    tl.run_until(400.0)
    events = [e.event for e in tl.effects if isinstance(e, Emit) and e.kind == "timer"]
    assert [(e.state, e.seat, e.kind) for e in events] == [
        ("started", None, "discussion"), ("warning", None, "discussion"),
        ("final", None, "discussion"), ("ended", None, "discussion")]
    assert [(c.name, c.t) for c in tl.effects if isinstance(c, Cue)] == [
        ("warning", 291.0), ("ru/ten_seconds", 291.4), ("end", 301.0)]


def test_a_discussion_names_no_seat_and_is_refused_at_night_and_in_a_vote():
    tl = table()
    tl.feed([cmd("timer/start", 1.0, seat=3, seconds=300, kind="discussion")])
    assert "a discussion is the whole table's" in replies(tl)[-1].error
    tl.feed([cmd("vote/start", 2.0, nominees=[1, 2], voters=list(range(1, 11)), day=1),
             cmd("timer/start", 3.0, seconds=300, kind="discussion")])
    assert "a vote is running" in replies(tl)[-1].error and tl.state.timer is None
    night = table()
    night.feed([cmd("phase", 1.0, phase="night"),
                cmd("timer/start", 2.0, seconds=300, kind="discussion")])
    assert "it is night" in replies(night)[-1].error and night.state.timer is None


actions = st.lists(st.tuples(st.sampled_from(["pause", "resume", "add", "stop", "start"]),
                             st.floats(0.1, 30), st.floats(-40, 40)), max_size=12)


@given(actions)
def test_any_sequence_of_timer_commands_keeps_time_left_sane_and_events_in_order(seq):
    tl = table()
    t = 0.0
    tl.feed([cmd("timer/start", t, seat=1, seconds=60)])
    for action, gap, amount in seq:
        t += gap
        tl.run_until(t)
        doc = {"seconds": amount} if action == "add" else {}
        if action == "start":
            doc = {"seat": 2, "seconds": 45, "replace": True}
        tl.feed([cmd(f"timer/{action}", t, **doc)])
    tl.run_until(t + 1000)
    events = timer_events(tl)
    assert all(remaining >= 0 for _, _, remaining in events)
    assert [at for _, at, _ in events] == sorted(at for _, at, _ in events)
    assert tl.state.timer is None or not tl.state.timer.running


def test_4_4_2_nominations_accepted_supported_and_one_per_speaker():
    tl = table()
    tl.feed([cmd("day/start", 0.0, day=2), cmd("timer/start", 1.0, seat=3, seconds=60)])
    tl.feed(typed(3, "7#", 5.0))  # "I nominate number 7" - "accepted"
    tl.feed(typed(3, "9#", 8.0))  # a second nomination in the same day
    tl.feed([cmd("timer/start", 70.0, seat=5, seconds=60)])
    tl.feed(typed(5, "7#", 75.0))  # 7 again, by another speaker: "supported" (002)
    tl.feed(typed(4, "2#", 80.0))  # seat 4 does not hold the floor: refused
    noms = [(e.event.by, e.event.seat, e.event.outcome) for e in tl.effects
            if isinstance(e, Emit) and e.kind == "nomination"]
    assert noms == [(3, 7, "accepted"), (3, 9, "refused"), (5, 7, "supported"),
                    (4, 2, "refused")]
    assert tl.state.day.nominees == [7]
    assert shown(tl.state)[6] == scene.NOMINATED


def test_a_seat_out_of_the_game_cannot_be_nominated_and_a_nomination_can_be_withdrawn():
    tl = table()
    tl.feed([cmd("day/start", 0.0, day=1), cmd("seats", 0.0, seats=[{"seat": 8, "in_game": False}]),
             cmd("timer/start", 1.0, seat=3, seconds=60)])
    tl.feed(typed(3, "8#", 2.0))
    [refused] = [msgspec.to_builtins(e.event) for e in tl.effects
                 if isinstance(e, Emit) and e.kind == "nomination"]
    assert refused["outcome"] == "refused" and "out of the game" in refused["reason"]
    tl.feed(typed(3, "6#", 3.0))
    tl.feed([cmd("nomination/withdraw", 4.0, seat=6)])
    assert tl.state.day.nominees == []
    tl.feed([cmd("nomination/withdraw", 5.0, seat=6)])
    assert "seat 6 is not nominated today" in replies(tl)[-1].error
    tl.feed([cmd("day/start", 6.0, day=3)])
    assert tl.state.day.number == 3 and tl.state.day.nominators == ()
    tl.feed([cmd("day/start", 7.0, day=3)])  # a duplicate must not wipe the day
    assert "day 3 has begun already" in replies(tl)[-1].error


def test_standings_show_on_the_lights_and_the_fourth_foul_removes():
    tl = table()
    tl.feed([cmd("seats", 0.0, seats=[
        {"seat": 1, "in_game": False}, {"seat": 2, "fouls": 1}, {"seat": 3, "fouls": 2},
        {"seat": 4, "fouls": 3}, {"seat": 5, "fouls": 4}, {"seat": 6, "silenced": True},
        {"seat": 7, "immune": True}])])
    assert shown(tl.state)[:8] == (scene.OUT, scene.FOUL_LIGHTS[1], scene.FOUL_LIGHTS[2],
                                   scene.FOUL_LIGHTS[3], scene.OUT, scene.SILENCED,
                                   scene.IMMUNE, scene.IN_GAME)
    assert not tl.state.standings[4].in_game  # four fouls
    tl.feed([cmd("light", 1.0, lights=[{"seat": 2, "mode": "on", "color": "#123456"}])])
    assert shown(tl.state)[1].color == "#123456"
    tl.feed([cmd("light", 2.0, lights=[{"seat": 2, "mode": "auto"}])])
    assert shown(tl.state)[1] == scene.FOUL_LIGHTS[1]


def test_bad_seats_commands_are_refused():
    tl = table()
    for doc, error in [
        ({"seats": [{"seat": 0}]}, "seats[0].seat: expected int >= 1"),
        ({"seats": [{"seat": 2**63}]}, "seats[0].seat: expected int <= 24"),
        ({"seats": [{"seat": 1, "fouls": 5}]}, "seats[0].fouls: expected int <= 4"),
        ({"seats": [{"seat": 1}, {"seat": 1}]}, "seats[1].seat: seat 1 given twice"),
    ]:
        before = tl.state
        tl.feed([cmd("seats", 0.0, **doc)])
        assert error in replies(tl)[-1].error and tl.state == before


def test_supporting_does_not_use_up_the_speakers_nomination():
    tl = table()
    tl.feed([cmd("day/start", 0.0, day=1), cmd("timer/start", 1.0, seat=1, seconds=60)])
    tl.feed(typed(1, "7#", 2.0))
    tl.feed([cmd("timer/start", 70.0, seat=2, seconds=60)])
    tl.feed(typed(2, "7#", 71.0) + typed(2, "4#", 72.0))  # "7 supported, 4 accepted" (002)
    outcomes = [(e.event.by, e.event.seat, e.event.outcome) for e in tl.effects
                if isinstance(e, Emit) and e.kind == "nomination"]
    assert outcomes == [(1, 7, "accepted"), (2, 7, "supported"), (2, 4, "accepted")]


def test_no_nomination_without_a_running_speech_and_a_refusal_before_the_day():
    tl = table()
    tl.feed([cmd("timer/start", 0.0, seat=1, seconds=60)])
    tl.feed(typed(1, "7#", 1.0))  # no day begun: refused, and said so
    [refused] = [e for e in tl.effects if isinstance(e, Emit) and e.kind == "nomination"]
    assert refused.event.outcome == "refused" and refused.event.day == 0
    assert refused.event.reason == "the day has not begun (cmd/day/start)"
    tl.feed([cmd("day/start", 2.0, day=1), cmd("timer/pause", 3.0)])
    tl.feed(typed(1, "7#", 4.0))  # paused: the speaker does not hold the floor now
    paused = [e for e in tl.effects if isinstance(e, Emit) and e.kind == "nomination"][-1]
    assert (paused.event.outcome, paused.event.reason) == (
        "refused", "seat 1 does not hold the floor: a nomination is made in one's running "
                   "speech (FIIM 4.4.2)")
    assert tl.state.day.nominees == []


def test_fiim_4_4_2_an_entry_while_a_vote_runs_is_a_refused_nomination():
    tl = table()
    tl.feed([cmd("day/start", 0.0, day=2), CommandReceived("vote/start", json.dumps(
        {"id": "v", "nominees": [1], "voters": [2, 3], "day": 2}).encode(), 1.0)])
    tl.feed(typed(3, "5#", 2.0))
    [refused] = [msgspec.to_builtins(e.event) for e in tl.effects
                 if isinstance(e, Emit) and e.kind == "nomination"]
    assert refused["outcome"] == "refused" and refused["reason"].startswith(
        "a vote is running (session 'v')")


def test_a_late_judge_press_does_not_act_on_a_newer_timer():
    tl = table()
    tl.feed([cmd("timer/start", 0.0, seat=1, seconds=60)])
    tl.feed([cmd("timer/start", 100.0, seat=2, seconds=30, replace=True)])
    tl.feed(judge("confirm", 99.9))  # pressed for the old speaker, delivered late
    assert tl.state.timer.running and [s for s, _, _ in timer_events(tl)][-1] == "started"


def test_a_paused_timer_shows_steady_and_nominated_lights_go_after_the_vote():
    tl = table()
    tl.feed([cmd("day/start", 0.0, day=1), cmd("timer/start", 1.0, seat=1, seconds=8)])
    tl.feed([cmd("timer/pause", 2.0)])
    assert shown(tl.state)[0] == scene.SPEAKER["paused"]
    tl.feed([cmd("timer/resume", 3.0)])
    tl.feed(typed(1, "6#", 4.0))
    assert shown(tl.state)[5] == scene.NOMINATED
    tl.feed([CommandReceived("vote/start", json.dumps(
        {"id": "v", "nominees": [6], "voters": [1, 2, 3], "day": 1}).encode(), 20.0)])
    assert tl.state.day.voted and shown(tl.state)[5] == scene.IN_GAME  # "no vote" (4.4.10)


def test_a_clean_stop_does_not_run_a_timers_future_moments():
    from controller.clock import SystemClock
    from controller.loop import EventLoop

    seen: list = []
    state = initial_state(TableSetup("t", 10, JUDGE))
    loop = EventLoop(state, clock=SystemClock(), perform=seen.append)
    loop.submit(cmd("timer/start", SystemClock().monotonic(), seat=1, seconds=60))
    loop.stop()
    loop.run()
    assert [e.event.state for e in seen if isinstance(e, Emit) and e.kind == "timer"] == [
        "started"]
