"""Standings in votes, nominations, speeches and night targets, and the clubs' own outcomes, as
the presets in config/rules/ say (pure core, fake timeline)."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contract.inputs import CommandReceived
from controller import config
from controller.core import standings, vote
from controller.core.effects import Emit, Reply
from controller.core.state import TableSetup, initial_state
from tests.support.core_driver import Timeline, judge, press, typed
from tests.support.core_tables import TEN_SEATS_WIRED as WIRED
from tests.support.table_configs import preset


def table(cfg: config.Config | None = None) -> Timeline:
    cfg = cfg or config.Config(table="t", seats=10)
    return Timeline(initial_state(TableSetup(
        "t", 10, WIRED, debounce=0.02, rules=cfg.vote, standings=cfg.standings,
        night_steps=cfg.night.steps, one_nomination_rule=cfg.day.one_nomination_rule)))


def cmd(verb: str, t: float, **doc) -> CommandReceived:
    return CommandReceived(verb, json.dumps({"id": f"{verb}@{t}", **doc}).encode(), t)


def seats(t: float, *changes: dict) -> CommandReceived:
    return cmd("seats", t, seats=list(changes))


def last_reply(tl: Timeline) -> Reply:
    return [e for e in tl.effects if isinstance(e, Reply)][-1]


def events(tl: Timeline, kind: str) -> list[dict]:
    return [msgspec.to_builtins(e.event) for e in tl.effects
            if isinstance(e, Emit) and e.kind == kind]


def test_fiim_4_4_11_an_out_seat_may_not_vote_nor_be_voted_on():
    tl = table()
    tl.feed([seats(0.0, {"seat": 4, "in_game": False})])
    tl.feed([cmd("vote/start", 1.0, nominees=[2], voters=[1, 2, 3, 4], day=2)])
    assert last_reply(tl).error == ("voters[3]: seat 4 is out of the game: it may not vote "
                                    "(FIIM 1.4, 4.4.11)")
    tl.feed([cmd("vote/start", 2.0, nominees=[2, 4], voters=[1, 2, 3], day=2)])
    assert last_reply(tl).error == ("nominees[1]: seat 4 is out of the game: it may not be "
                                    "nominated (FIIM 1.4, 4.4.11)")
    assert tl.state.session is None


def test_fiim_4_4_8_a_voter_out_during_the_vote_is_not_counted_nor_a_leftover():
    tl = table()
    tl.feed([cmd("vote/start", 0.0, nominees=[5, 2], voters=list(range(1, 11)), day=2)])
    tl.feed([seats(0.5, {"seat": 7, "fouls": 4})])  # the fourth foul: out, mid-vote
    tl.feed(press(1, 1.2) + press(7, 1.3))
    tl.run_until(2.5)
    [first] = events(tl, "vote/proposed")
    assert first["voters"] == [1]
    assert {"seat": 7, "kind": "not_a_voter"} in first["anomalies"]
    tl.feed(judge("confirm", 3.0))
    tl.run_until(5.5)
    last = events(tl, "vote/proposed")[-1]
    assert 7 not in last["leftover"] and last["leftover"] == [2, 3, 4, 5, 6, 8, 9, 10]
    tl.feed([cmd("vote/correct", 6.0, voters=[7], reason="x")])
    assert last_reply(tl).error == ("voters[0]: seat 7 is out of the game: it may not vote "
                                    "(FIIM 1.4, 4.4.11)")


actions = st.lists(st.one_of(
    st.tuples(st.just("press"), st.integers(1, 6), st.floats(0.0, 12.0)),
    st.tuples(st.just("out"), st.integers(1, 6), st.floats(0.0, 12.0)),
    st.tuples(st.just("back"), st.integers(1, 6), st.floats(0.0, 12.0)),
    st.tuples(st.just("confirm"), st.just(0), st.floats(0.0, 12.0))), max_size=25)


@given(actions)
def test_fiim_4_4_11_no_out_seat_is_ever_counted(steps):
    """For any order of presses, standing changes and confirmations: every count proposed or
    confirmed while a seat is out leaves that seat out (pressed or leftover)."""
    tl = table()
    tl.feed([cmd("vote/start", 0.0, nominees=[1, 2, 3], voters=[1, 2, 3, 4, 5, 6], day=2)])
    inputs = []
    for what, seat, t in steps:
        t = round(t, 3) + 0.001
        if what == "press":
            inputs += [*press(seat, t, hold=0.05)]
        elif what == "confirm":
            inputs += judge("confirm", t)
        else:
            inputs.append(seats(t, {"seat": seat, "in_game": what == "back"}))
    for inp in sorted(inputs, key=lambda i: i.t):
        for act in (lambda: tl.run_until(inp.t), lambda: tl.feed([inp])):  # noqa: B023
            produced = act()  # checked against the standings right after it
            out = {s for s, standing in enumerate(tl.state.standings, 1) if not standing.in_game}
            for effect in produced:
                if isinstance(effect, Emit) and effect.kind in ("vote/proposed",
                                                                "vote/confirmed"):
                    assert not out & {*effect.event.voters, *effect.event.leftover}


def test_002_the_firefighter_takes_the_floor_not_the_vote(tmp_path):
    tl = table(preset("crow-club", tmp_path))
    tl.feed([cmd("day/start", 0.0, day=1), seats(0.5, {"seat": 3, "silenced": True}),
             cmd("timer/start", 1.0, seat=3, seconds=60)])
    assert last_reply(tl).error == "seat: seat 3 is silenced: it may not have the floor " \
                                   "(002 «Пожарный»)"
    tl.feed([cmd("timer/start", 2.0, seat=4, seconds=60)])
    tl.feed([seats(3.0, {"seat": 4, "silenced": True})])  # silenced while speaking
    tl.feed(typed(4, "7#", 4.0))
    [refused] = events(tl, "nomination")
    assert (refused["outcome"], refused["reason"]) == (
        "refused", "seat 4 is silenced: it may not nominate (002 «Пожарный»)")
    tl.feed([cmd("timer/stop", 5.0)])
    tl.feed([cmd("vote/start", 6.0, nominees=[1], voters=[3, 4], day=1)])
    assert last_reply(tl).ok  # "Голосовать могу все и всегда"


def test_002_a_second_nomination_cites_the_clubs_rule(tmp_path):
    tl = table(preset("crow-club", tmp_path))
    tl.feed([cmd("day/start", 0.0, day=1), cmd("timer/start", 1.0, seat=2, seconds=60)])
    tl.feed(typed(2, "6#", 2.0) + typed(2, "7#", 3.0))
    assert events(tl, "nomination")[-1]["reason"] == (
        "seat 2 has already nominated today (002 «Голосование»: на голосование принимается "
        "тот, кого вы назвали первым)")


def test_002_immunity_blocks_the_nomination_and_the_shot_not_the_check(tmp_path):
    tl = table(preset("crow-club", tmp_path))
    tl.feed([cmd("day/start", 0.0, day=1), seats(0.5, {"seat": 6, "immune": True}),
             cmd("timer/start", 1.0, seat=2, seconds=60)])
    tl.feed(typed(2, "6#", 2.0))
    assert events(tl, "nomination")[-1]["reason"] == (
        "seat 6 is immune: it may not be nominated (002 «Иммунитет»)")
    tl.feed([cmd("timer/stop", 3.0), cmd("phase", 4.0, phase="night"),
             cmd("night/step", 5.0, step="mafia_shot", actors=[1, 2], seconds=1)])
    tl.run_until(7.0)
    tl.feed([cmd("night/step", 8.0, step="sheriff_check", actors=[3], seconds=1)])
    shot, check = (e["allowed"] for e in events(tl, "night/step"))
    assert 6 not in shot and 6 in check


def test_fiim_4_4_13_an_out_seat_has_last_words_only_and_no_timer_during_a_vote():
    tl = table()
    tl.feed([cmd("day/start", 0.0, day=2), seats(0.5, {"seat": 3, "in_game": False}),
             cmd("timer/start", 1.0, seat=3, seconds=60)])
    assert last_reply(tl).error == ("seat: seat 3 is out of the game: it may not have the "
                                    "floor (FIIM 1.4, 4.4.11)")
    tl.feed([cmd("timer/start", 2.0, seat=3, seconds=60, kind="last_words")])
    assert last_reply(tl).ok
    tl.feed(typed(3, "7#", 3.0))  # FIIM 4.4.2 is every player's right in their minute, not this
    [refused] = events(tl, "nomination")
    assert refused["outcome"] == "refused" and "out of the game" in refused["reason"]
    tl.feed([cmd("timer/stop", 4.0),
             cmd("vote/start", 5.0, nominees=[1, 2], voters=[1, 2, 4], day=2),
             cmd("timer/start", 6.0, seat=1, seconds=30, kind="excuse")])
    assert last_reply(tl).error.startswith("a vote is running (session 'vote/start@5.0')")


def confirm_all(tl: Timeline, counts: dict[int, list[int]], voters: list[int], **extra) -> dict:
    """Vote on ``counts`` (candidate -> who presses) with auto pacing; the result."""
    tl.feed([cmd("vote/start", 0.0, nominees=list(counts), voters=voters, day=2, pacing="auto",
                 **extra)])
    t = 1.0
    for pressing in counts.values():
        tl.feed([*(edge for seat in pressing for edge in press(seat, t + 0.1))])
        tl.run_until(t + 1.5)
        tl.feed([cmd("vote/confirm", t + 1.6)])
        t += 2.6
    [result] = events(tl, "vote/result")
    return result


def test_002_a_gap_of_two_votes_is_a_fork_and_a_revote_is_not(tmp_path):
    cfg = preset("crow-club", tmp_path)
    # 4 against 6 (seat 5 voted for no one: its vote goes to the last nominee, 002 as FIIM 4.4.8)
    result = confirm_all(table(cfg), {4: [1, 2, 3, 4], 5: [6, 7, 8, 9, 10]}, list(range(1, 11)))
    assert (result["outcome"], result["tied"]) == ("fork", [4, 5])
    assert result["reason"] == ("a gap of 2 votes or less: a re-vote "
                                "(002 «Вилка или автокатастрофа»)")
    result = confirm_all(table(cfg), {4: [1, 2, 3, 4], 5: [6, 7, 8, 9, 10]},
                         list(range(1, 11)), round=2)
    assert (result["outcome"], result["eliminated"]) == ("eliminated", 5)
    result = confirm_all(table(), {4: [1, 2, 3, 4], 5: [6, 7, 8, 9, 10]}, list(range(1, 11)))
    assert (result["outcome"], result["eliminated"]) == ("eliminated", 5)  # FIIM: no fork


def test_002_early_finish_waits_while_a_later_candidate_could_still_make_a_fork():
    """6 votes of 10 for the first: the 4 left could give the next one 4, a fork (gap 2), so
    the vote goes on; 7 for the first (3 left) cannot be forked, so it ends; a re-vote has no
    fork, so 6 against 4 left ends it."""
    rules = vote.VoteRules(window=1.5, gap=1.0, early_finish=True, fork_gap=2)

    def session(count: int, round_: int = 1) -> vote.VoteSession:
        return vote.VoteSession(id="v", kind="nominees", candidates=(3, 6, 8),
                                voters=tuple(range(1, 11)), rules=rules, round=round_,
                                confirmed=(vote.Confirmed(3, tuple(range(1, count + 1)), (),
                                                          "button"),))
    assert not vote._decided(session(6))
    assert vote._decided(session(7))
    assert vote._decided(session(6, round_=2))


def test_003_most_votes_for_night_nobody_leaves(tmp_path):
    cfg = preset("online-003", tmp_path)
    result = confirm_all(table(cfg), {4: [1, 2], 5: [3]}, list(range(1, 11)))
    assert result["outcome"] == "night" and result["abstained"] == [4, 5, 6, 7, 8, 9, 10]
    assert "nobody leaves" in result["reason"] and "003" in result["reason"]
    result = confirm_all(table(cfg), {4: [1, 2, 3, 5, 6], 5: [7]}, [1, 2, 3, 4, 5, 6, 7, 8])
    assert (result["outcome"], result["eliminated"]) == ("eliminated", 4)  # 5 > 2 abstaining


def test_fiim_preset_blocks_everything_for_out_and_nothing_for_immunity(tmp_path):
    rules = preset("fiim", tmp_path).standings
    assert set(rules.out.blocks) == set(standings.ACTIONS) and rules.immune.blocks == ()
    assert preset("fiim", tmp_path).night.steps == standings.NIGHT_STEPS


def test_the_abstain_outcome_needs_abstaining():
    with pytest.raises(ValueError, match="abstain_wins needs leftover"):
        vote.VoteRules(abstain_wins=True)


def test_a_press_from_a_seat_not_in_voters_is_shown_to_the_judge():
    tl = table()
    tl.feed([cmd("vote/start", 0.0, nominees=[5], voters=[1, 2, 3], day=2)])
    tl.feed([*press(8, 0.5), *press(9, 1.2), *press(1, 1.3)])  # 8 before the window
    tl.run_until(2.5)
    [proposed] = events(tl, "vote/proposed")
    assert proposed["voters"] == [1] and proposed["anomalies"] == [
        {"seat": 8, "kind": "not_a_voter"}, {"seat": 9, "kind": "not_a_voter"}]
