"""The stream overlay's view (judge/overlay/view.py) and its mafiaratings shape
(judge/overlay/mafiaratings.py), time as data.

The secrecy properties are non-interference: whatever the secrets of the games after
``now - delay`` are (roles, picks, checks, the best move, the night's steps), the overlay at
``now`` is the same; with secrets off, whatever any game's secrets are."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.game import FIIM_DECK, Game, Refused, new_game, step
from judge.game.state import Act, Pick, Picks
from judge.overlay.mafiaratings import current_game
from judge.overlay.view import History, overlay_view, remember
from tests.support.judge_game import (
    actions,
    ended_in_last_words,
    events,
    morning_after_night_one,
    night_one,
    run,
    shot,
    speeches,
    tap,
)
from tests.support.record_game import ROLES
from tests.support.table_event import table_event

ROLE_WORDS = ("don", "sheriff", "mafia", "civilian", "maf", "town", "legacy", "checkedBy",
              "secrets", "killed", "shot", "check")


def history_of(game: Game, *inputs, start: float = 100.0, gap: float = 1.0) -> History:
    """The game after each input, one ``gap`` apart from ``start``."""
    history = remember((), game, start)
    for i, given_input in enumerate(inputs, start=1):
        game, _, _ = step(game, given_input, start + i * gap)
        history = remember(history, game, start + i * gap)
    return history


def scrambled(game: Game, seed: int) -> Game:
    """``game`` with other secrets: another deal, other picks, checks and night steps, and
    another count of changes (which counts the night's steps too)."""
    deck = list(FIIM_DECK)
    deck = deck[seed % 10:] + deck[:seed % 10]
    players = tuple(replace(p, role=r) for p, r in zip(game.players, deck, strict=True))
    other = seed % 10 + 1
    acts = (Act(1, "sheriff_check", "check", (4,), (other,), "yes"),
            Act(1, "mafia_shot", "kill", (1, 2, 3), (other,), "kill"),
            Act(1, "best_move", "best_move", (other,), (1, 2, other), "named"))
    return replace(game, players=players, acts=acts, dying=(other,),
                   tonight=(Picks("mafia_shot", (Pick(1, (other,)),)),),
                   entries=(Pick(2, (other,), by_judge=True),), opened=("don_check",),
                   night_steps=("best_move",), running_step="don_check",
                   version=game.version * 7 + seed)


def words(view: dict) -> str:
    return json.dumps(view).lower()


def test_the_public_overlay_holds_no_role_no_pick_no_check():
    game = shot(night_one(), {1: 8, 2: 8, 3: 8})
    history = history_of(game, tap("next"), table_event("private/night/result", {
        "step": "don_check", "picks": [{"actor": 1, "picks": [4]}], "missing": []}))
    for view in (overlay_view(history, 1e9, delay=0, secrets=False),
                 current_game(overlay_view(history, 1e9, delay=0, secrets=False))):
        text = words(view)
        assert not [w for w in ROLE_WORDS if f'"{w.lower()}' in text or f'{w.lower()}"' in text]


def test_a_secret_is_shown_only_delay_seconds_after_it_was_known():
    game = new_game()
    history = history_of(game, tap("deal", roles=ROLES), start=100.0, gap=5.0)  # dealt at 105
    delay = 30.0
    assert overlay_view(history, 134.999, delay=delay, secrets=True)["secrets"]["roles"] == []
    assert overlay_view(history, 135.0, delay=delay, secrets=True)["secrets"]["roles"] == ROLES
    assert "secrets" not in overlay_view(history, 1e9, delay=delay, secrets=False)


def test_secrets_are_never_live():
    history = history_of(new_game())
    with pytest.raises(ValueError, match="delay"):
        overlay_view(history, 100.0, delay=0, secrets=True)


def test_fiim_4_5_6_and_4_5_7_checks_and_4_5_4_the_shot_come_out_late_in_their_words():
    game = shot(night_one(), {1: 8, 2: 8, 3: 8})
    history = history_of(game, tap("next"), table_event("private/night/result", {
        "step": "don_check", "picks": [{"actor": 1, "picks": [4]}], "missing": []}),
        tap("next"), table_event("private/night/result", {
            "step": "sheriff_check", "picks": [{"actor": 4, "picks": [6]}], "missing": []}),
        start=0.0, gap=1.0)
    secrets = overlay_view(history, 1000.0, delay=10, secrets=True)["secrets"]
    assert secrets["shots"] == [{"night": 1, "seat": 8}]
    assert secrets["checks"] == [
        {"step": "don_check", "by": {"ru": "Дон", "en": "Don"}, "night": 1, "seat": 4,
         "answer": {"ru": "Шериф", "en": "Sheriff"}},
        {"step": "sheriff_check", "by": {"ru": "Шериф", "en": "Sheriff"}, "night": 1,
         "seat": 6, "answer": {"ru": "красный", "en": "red"}}]
    rated = current_game(overlay_view(history, 1000.0, delay=10, secrets=True))["game"]
    assert rated["players"][3]["checkedByDon"] == 1 and rated["players"][5][
        "checkedBySheriff"] == 1
    assert [p["role"] for p in rated["players"][:4]] == ["don", "maf", "maf", "sheriff"]


def test_the_floor_and_its_time_left_count_down_from_the_tables_timer_event():
    game = speeches_until_floor()
    history = history_of(game)
    timer = {"seat": 1, "kind": "speech", "state": "started", "remaining_ms": 60_000,
             "running": True}
    view = overlay_view(history, 112.5, delay=0, secrets=False, timer=timer, timer_at=100.0)
    assert view["floor"] == 1 and view["seats"][0]["floor"]
    assert view["timer"] == {"seat": 1, "kind": "speech", "running": True, "remaining_ms": 47_500}
    paused = {**timer, "running": False, "state": "paused"}
    assert overlay_view(history, 200.0, delay=0, secrets=False, timer=paused,
                        timer_at=100.0)["timer"]["remaining_ms"] == 60_000
    other = {**timer, "seat": 2}  # not the floor's (a stale one): not shown
    assert overlay_view(history, 100.0, delay=0, secrets=False, timer=other)["timer"] is None


def speeches_until_floor() -> Game:
    game, _, _ = run(new_game(), tap("deal", roles=ROLES), tap("start"), tap("next"),
                     tap("next"))
    return game


def test_fiim_4_4_13_who_left_and_how_voted_killed_and_on_fouls():
    game, _ = speeches(speeches_until_floor(), {2: 5, 3: 6})
    inputs = [table_event("event/vote/result", {"outcome": "eliminated", "eliminated": 5}),
              tap("next"), tap("next")]  # 5's last words, then 5 leaves: night 1
    game_after, _, _ = run(game, *inputs)
    assert game_after.stage == "night"
    history = history_of(game, *inputs, tap("next"), table_event("private/night/result", {
        "step": "mafia_shot", "picks": [{"actor": a, "picks": [8]} for a in (1, 2, 3)],
        "missing": [], "agreed": True}))
    last = history[-1][1]
    while last.night_steps:
        history = remember(history, step(last, tap("next"), 500.0)[0], 500.0)
        last = history[-1][1]
        done = table_event("private/night/result", {"step": last.running_step, "picks": [],
                                                   "missing": []})
        history = remember(history, step(last, done, 500.0)[0], 500.0)
        last = history[-1][1]
    for given_input in (tap("next"), tap("next"), tap("next")):  # morning, 8's words, leaves
        history = remember(history, step(last, given_input, 600.0)[0], 600.0)
        last = history[-1][1]
    for _ in range(4):
        history = remember(history, step(last, tap("foul", seat=9), 700.0)[0], 700.0)
        last = history[-1][1]
    seats = overlay_view(history, 800.0, delay=0, secrets=False)["seats"]
    assert seats[4]["left"] == {"how": "voted", "day": 1}
    assert seats[7]["left"] == {"how": "killed", "night": 1}
    assert seats[8]["left"] == {"how": "fouls", "day": 2}
    rated = {p["number"]: p for p in current_game(
        overlay_view(history, 800.0, delay=0, secrets=False))["game"]["players"]}
    assert (rated[5]["deathType"], rated[5]["deathRound"]) == ("voting", 0)
    assert (rated[8]["deathType"], rated[8]["deathRound"]) == ("shooting", 0)
    assert (rated[9]["deathType"], rated[9]["deathRound"]) == ("warnings", 1)


def test_fists_are_the_halls_by_day_and_nobodys_at_night():
    day = history_of(speeches_until_floor())
    assert overlay_view(day, 0, delay=0, secrets=False, down={3, 4})["seats"][2]["down"]
    night = history_of(night_one())
    assert not any(s["down"] for s in overlay_view(night, 0, delay=0, secrets=False,
                                                   down={3, 4})["seats"])


def test_a_new_game_starts_the_history_again_and_a_replayed_copy_keeps_its_time():
    history = history_of(new_game(), tap("deal", roles=ROLES), tap("start"))
    fresh = new_game()
    assert remember(history, fresh, 500.0) == ((500.0, fresh),)
    copy = replace(history[-1][1])
    assert remember(history, copy, 900.0)[-1] == (history[-1][0], copy)
    later = step(history[-1][1], tap("next"), 1.0)[0]
    assert remember(history, later, 1.0)[-1][0] == history[-1][0]  # a clock set back


def test_mafiaratings_moments_of_the_game():
    def moment(game: Game) -> tuple[str, str, int]:
        rated = current_game(overlay_view(history_of(game), 0, delay=0, secrets=False))["game"]
        return rated["phase"], rated["state"], rated["round"]

    assert moment(new_game()) == ("night", "notStarted", 0)
    game, _, _ = run(new_game(), tap("deal", roles=ROLES), tap("start"))
    assert moment(game) == ("night", "arranging", 0)
    game, _, _ = run(game, tap("next"))
    assert moment(game) == ("day", "starting", 0)
    game, _, _ = run(game, tap("next"))
    assert moment(game) == ("day", "speaking", 0)
    assert moment(night_one()) == ("night", "starting", 1)


# ------------------------------------------------------------------ properties


def random_history(seed: int, inputs, times) -> History:
    game, _, _ = run(new_game(), tap("deal", seed=seed), tap("start"))
    history = remember((), game, 0.0)
    for given_input, at in zip(inputs, times, strict=False):
        try:
            game, _, _ = step(game, given_input, at)
        except Refused:  # a refused input changes nothing
            continue
        history = remember(history, game, at)
    return history


gaps = st.lists(st.floats(0, 20, allow_nan=False), min_size=80, max_size=80)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.one_of(actions, events), max_size=60), gaps,
       st.floats(0, 1000, allow_nan=False), st.floats(0.5, 120, allow_nan=False),
       st.integers(0, 9))
def test_no_secret_is_visible_before_its_time_plus_the_delay(seed, inputs, steps, now, delay,
                                                             other):
    times = [sum(steps[:i + 1]) for i in range(len(inputs))]
    history = random_history(seed, inputs, times)
    cutoff = now - delay
    meddled = tuple((at, scrambled(game, other) if at > cutoff else game)
                    for at, game in history)
    assert overlay_view(history, now, delay=delay, secrets=True) == \
        overlay_view(meddled, now, delay=delay, secrets=True)
    rated = current_game(overlay_view(history, now, delay=delay, secrets=True))
    assert rated == current_game(overlay_view(meddled, now, delay=delay, secrets=True))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.one_of(actions, events), max_size=60), gaps,
       st.integers(0, 9))
def test_without_the_organisers_option_no_secret_ever_reaches_the_overlay(seed, inputs, steps,
                                                                          other):
    times = [sum(steps[:i + 1]) for i in range(len(inputs))]
    history = random_history(seed, inputs, times)
    meddled = tuple((at, scrambled(game, other)) for at, game in history)
    for now in (0.0, times[-1] if times else 0.0, 1e9):
        view = overlay_view(history, now, delay=0, secrets=False)
        assert view == overlay_view(meddled, now, delay=0, secrets=False)
        assert "secrets" not in view
        assert "role" not in json.dumps(current_game(view))


def test_four_fouls_in_last_words_take_the_player_out_on_fouls_not_on_the_vote():
    game, _ = speeches(speeches_until_floor(), {2: 5, 3: 6})
    history = history_of(game, table_event("event/vote/result", {
        "outcome": "eliminated", "eliminated": 5}), *[tap("foul", seat=5)] * 4)
    assert history[-1][1].stage == "last_words"
    assert overlay_view(history, 1e9, delay=0, secrets=False)["seats"][4]["left"] == {
        "how": "fouls", "day": 1}


def test_fiim_4_4_13_voted_out_when_the_game_ends_in_their_last_words():
    """Another's fourth foul ends the game in seat 7's last words: seat 7 was voted out (1.4),
    seat 8 went on fouls, and nobody is still shown leaving."""
    history = history_of(new_game(), *ended_in_last_words(), tap("foul", seat=8))
    view = overlay_view(history, 1e9, delay=0, secrets=False)
    assert view["winner"] == "black" and view["leaving"] is None
    assert view["winner_title"] == {"ru": "чёрные", "en": "black"}  # the page's words for it
    assert view["seats"][6]["left"] == {"how": "voted", "day": 1}
    assert view["seats"][7]["left"] == {"how": "fouls", "day": 1}
    assert current_game(view)["game"]["players"][6]["state"] == "dead"
    assert history[-1][1].nominees  # the day's, kept by the game: no mark on a seat when over
    assert view["nominees"] == [] and not [s for s in view["seats"] if s["nominated"]]


def test_fiim_4_5_3_a_night_step_opening_shows_nothing_new_on_the_overlay():
    night = history_of(night_one())
    opened = remember(night, step(night[-1][1], tap("next"), 200.0)[0], 200.0)
    assert opened[-1][1].running_step == "mafia_shot"
    assert overlay_view(opened, 300.0, delay=0, secrets=False) == \
        overlay_view(night, 300.0, delay=0, secrets=False)


def test_fiim_4_5_9_a_player_fouled_out_in_the_mornings_last_minute_leaves_on_the_next_day():
    """Seat 7's fourth foul while the night's victim (6) speaks after «Утро»: that minute
    opens day 2 (4.5.4, 4.5.9), so the stream says 7 left on day 2, as the sheet does."""
    morning = morning_after_night_one()
    history = history_of(new_game(10), *morning[:3], tap("foul", seat=7), *morning[3:],
                         *[tap("foul", seat=7)] * 3)
    seats = overlay_view(history, 1000.0, delay=0, secrets=False)["seats"]
    assert seats[6]["left"] == {"how": "fouls", "day": 2}

