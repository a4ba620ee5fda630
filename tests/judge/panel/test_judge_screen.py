"""What the judge's screen says, from the game's core and its views (issue 28, item 2: each was
seen in a whole game played in Chromium): the "all leave?" count, the tie's defence seconds,
no identifier where a person reads, and at game over no frames and no seat actions; a seat
action nobody can take now is shown disabled; a simulated table with no sound device is
silent, not faulty (a real table's is a fault)."""

from __future__ import annotations

import re

from contract.api import sound
from hardware import audio
from judge.game import Game, Timings, new_game, step
from judge.overlay.public import public_view
from judge.panel.views import judge_view
from kit import i18n
from kit.i18n import render
from tests.support.judge_game import (
    day_one,
    ended_in_last_words,
    night,
    night_one,
    result,
    run,
    shot,
    speeches,
    tap,
)
from tests.support.record_game import ROLES
from tests.support.table_event import table_event

#: an identifier of the code: a word with an underscore (don_check, last_words, mafia_shot)
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


def offers(game: Game) -> dict[str, dict]:
    return {o["key"]: o for o in judge_view(game)["offers"]}


def to_the_question(game: Game) -> tuple[Game, list[str]]:
    """FIIM 4.4.12: 7 and 5 tie, defend, tie again: the table asks whether both leave."""
    game, _ = speeches(game, {1: 7, 2: 5})
    game, _, lines = run(game, result(outcome="tie", tied=[7, 5]), tap("next"), tap("next"),
                         tap("next"), result(outcome="tie", tied=[7, 5]))
    assert game.stage == "question"
    return game, lines


def test_fiim_4_4_12_3_the_all_leave_count_names_no_seat_in_the_log_and_on_the_panel():
    game, _ = to_the_question(day_one())
    yes = [1, 2, 3, 4, 8, 9]
    game, _, lines = run(
        game, table_event("event/vote/proposed", {"candidate": 0, "count": 6, "voters": yes}))
    shown = judge_view(game)["vote"]["proposed"]
    said = {lang: i18n.t("panel.proposed.question", lang, count=shown["count"],
                         voters=shown["voters"]) for lang in ("en", "ru")}
    assert said == {"en": "All leave? 6 votes for (1, 2, 3, 4, 8, 9)",
                    "ru": "Все покидают стол? «За»: 6 голосов (1, 2, 3, 4, 8, 9)"}
    # two sentences: the question, then its count (never «стол? «за» 6», a lower case after it)
    assert i18n.t("line.votes.question", "ru", count=6) == "все покидают стол? «За»: 6 голосов"
    game, _, lines = run(game, tap("confirm"), table_event("event/vote/confirmed", {
        "candidate": 0, "voters": yes, "leftover": [], "count": 6, "by": "command",
        "reason": None}))
    assert "4.4.6: all leave? 6 votes for" in lines
    assert not any("seat 0" in line for line in lines), lines


def test_fiim_4_4_12_the_tie_line_gives_the_defence_seconds_the_timings_set():
    for seconds in (30, 45):
        game = new_game(timings=Timings(defence=seconds))
        game, _, _ = run(game, tap("deal", roles=ROLES), tap("start"), tap("next"))
        game, _ = speeches(game, {1: 7, 2: 5})
        game, _, lines = run(game, result(outcome="tie", tied=[7, 5]))
        tie = [line for line in lines if "tie" in line]
        assert tie and f"{seconds} s each" in tie[0], lines


def test_no_identifier_reaches_a_line_an_offer_or_the_night_in_either_language():
    """A whole game's record lines, every offer's label and the night's acts, rendered in each
    language: the book's words (проверка Дона, последнее слово), never don_check, last_words."""
    seen: list[object] = []

    def play(game: Game, *inputs) -> Game:
        for at, given in enumerate(inputs):
            game, _, lines = step(game, given, float(at))
            view = judge_view(game)
            seen.extend([*lines, *(o["label"] for o in view["offers"]), *view["tonight"]])
        return game

    game = play(new_game(), *ended_in_last_words(), tap("foul", seat=8))
    night = play(shot(night_one(), {1: 8, 2: 8, 3: 8}), tap("next"), table_event(
        "private/night/result", {"step": "don_check", "picks": [{"actor": 1, "picks": [4]}],
                                 "missing": []}))
    view = judge_view(night)
    assert view["tonight"], "the night's acts are on the screen"
    for language in ("en", "ru"):
        texts = [render(w, language) for w in seen]
        assert [t for t in texts if IDENTIFIER.search(t)] == [], language
    assert game.stage == "over"


def test_at_game_over_the_nominees_frames_go_and_no_seat_action_is_offered():
    game, _, _ = run(new_game(), *ended_in_last_words())
    assert judge_view(game)["nominees"] == []  # seat 7's last words: the vote decided
    over, _, _ = run(game, tap("foul", seat=8))
    assert over.stage == "over"
    assert judge_view(over)["nominees"] == [] and public_view(over)["nominees"] == []
    assert set(offers(over)) == {"undo"}


def test_once_the_vote_decided_the_judge_sees_who_leaves_and_no_nominee():
    """7 and 9 nominated, the vote takes 7 out: in 7's last words the judge's view names the
    leaver and nominates nobody (the frames of 7 and 9 went on into his minute)."""
    game, _, _ = run(new_game(), *ended_in_last_words()[:-3])
    assert game.stage == "last_words" and game.nominees == (7, 9)
    view = judge_view(game)
    assert (view["nominees"], view["leaving"], view["morning"]) == ([], [7], None)


def test_fiim_4_5_9_the_morning_says_which_day_and_who_the_night_took():
    """The judge announces the night's result from the panel: in the victim's morning minute
    and, the day begun, until its first speech, the view says the day and who was killed; a
    night that killed nobody says so; day 1 and a day's speeches carry none."""
    assert judge_view(day_one())["morning"] is None
    game, _, _ = night(night_one(), {"mafia_shot": {1: [5], 2: [5], 3: [5]}})
    assert game.stage == "last_words"
    assert judge_view(game)["morning"] == {"day": 2, "killed": [5]}
    game, _, _ = run(game, tap("next"), tap("next"))
    assert (game.stage, game.day, game.floor) == ("day", 2, None)
    assert judge_view(game)["morning"] == {"day": 2, "killed": [5]}
    game, _, _ = run(game, tap("next"))
    assert game.floor is not None and judge_view(game)["morning"] is None
    missed, _, _ = night(night_one(), {"mafia_shot": {1: [5], 2: [6], 3: [5]}})
    assert (missed.stage, missed.floor) == ("day", None)
    assert judge_view(missed)["morning"] == {"day": 2, "killed": []}


def test_a_seat_action_nobody_can_take_now_is_shown_disabled():
    game = day_one()
    assert offers(game)["withdraw"]["enabled"] is False  # nobody nominated yet
    game, _, _ = run(game, tap("next"), table_event("event/nomination", {
        "by": 1, "seat": 7, "outcome": "accepted"}))
    assert offers(game)["withdraw"].get("enabled", True) is True
    game, _ = speeches(game, {2: 5})
    assert game.stage == "vote"
    assert "nominate" not in offers(game) and "withdraw" not in offers(game)


def test_a_simulated_table_with_no_sound_device_is_silent_a_real_ones_is_a_fault(monkeypatch,
                                                                                  tmp_path):
    """The speaker in a word (``contract.api.sound``), from a real speaker's health
    (hardware.audio) on a simulated table (``gpio`` ``mock``) and a real one: no sound device
    at all is silent on a simulated table (it plays on without sound) and a fault on a real
    one; a speaker whose sounds are unusable is a fault on either; sound off by
    configuration is ``off``."""
    sim, real = {"gpio": "mock"}, {"gpio": "lgpio"}
    monkeypatch.setattr(audio, "no_sound_device", lambda: "no sound card and no sound server")
    none = audio.Speaker("sdl").health()
    assert (sound({**sim, "audio": none}), sound({**real, "audio": none})) == ("silent", "fault")
    monkeypatch.setenv("SDL_AUDIODRIVER", "disk")  # restored after: the speaker sets it
    broken = audio.Speaker("disk", sounds=tmp_path, disk_file=tmp_path / "out.raw")
    try:  # no sound files: every cue unusable
        assert sound({**sim, "audio": broken.health()}) == "fault"
    finally:
        broken.close()
    off = audio.SOUND_OUT["off"]().health()
    assert sound({**real, "audio": off}) == "off" and sound(None) is None and sound(sim) is None
