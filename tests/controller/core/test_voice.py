"""The table's voice, on the fake clock: the speech timer's warning is its tone and then its
words in the language the table speaks, as are the night's numbers; the language is the
config's ``[music] voice`` until a ``cmd/audio`` gives one, and a language the table has no
voice for is refused and changes nothing (docs/mqtt-api.md, "Night, music and night steps")."""

from __future__ import annotations

import json

from contract.buttons import SeatButton
from contract.commands import VOICES
from contract.inputs import CommandReceived
from controller.core import timer
from controller.core.effects import CancelCues, Cue, PublishState, Reply
from controller.core.state import TableSetup, initial_state
from controller.core.table import snapshot
from hardware.audio import SOUNDS, SPOKEN
from tests.support.core_driver import Timeline

SEATS = frozenset(SeatButton(s) for s in range(1, 7))


def cmd(verb: str, t: float, **doc) -> CommandReceived:
    return CommandReceived(verb, json.dumps({"id": f"{verb}@{t}", **doc}).encode(), t)


def cues(effects) -> list[tuple[str, float, str | None]]:
    return [(c.name, c.t, c.group) for c in effects if isinstance(c, Cue)]


def test_the_warning_is_its_tone_then_ten_seconds_in_the_tables_voice_and_the_end_a_tone():
    tl = Timeline(initial_state(TableSetup("t", 6, SEATS)))  # [music] voice: ru
    tl.feed([cmd("timer/start", 1.0, seat=2, seconds=60)])
    assert cues(tl.run_until(50.9)) == []
    warned = tl.run_until(51.0)  # 10 s left, to the clock
    assert cues(warned) == [("warning", 51.0, "timer/timer/start@1.0"),
                            ("ru/ten_seconds", 51.0 + timer.SAY_AFTER, "timer/timer/start@1.0")]
    assert cues(tl.run_until(61.0)) == [("end", 61.0, None)]  # the end: its tone alone


def test_a_speech_stopped_takes_back_its_words_not_yet_said():
    tl = Timeline(initial_state(TableSetup("t", 6, SEATS)))
    tl.feed([cmd("timer/start", 1.0, seat=2, seconds=20)])
    tl.run_until(11.0)  # the warning: its tone now, its words at 11.4
    stopped = tl.feed([cmd("timer/stop", 11.1)])
    assert CancelCues("timer/timer/start@1.0") in stopped


def test_the_judges_language_is_spoken_from_the_next_cue_on_and_shown_in_state():
    tl = Timeline(initial_state(TableSetup("t", 6, SEATS)))
    assert snapshot(tl.state)["voice"] == "ru"
    said = tl.feed([cmd("audio", 1.0, voice="en")])
    assert said[-1] == Reply("audio", "audio@1.0", True)
    [published] = [e for e in said if isinstance(e, PublishState)]
    assert published.snapshot["voice"] == "en"  # retained: a client sees what it speaks
    tl.feed([cmd("timer/start", 2.0, seat=1, seconds=12)])
    assert [name for name, _, _ in cues(tl.run_until(4.0))] == ["warning", "en/ten_seconds"]
    tl.feed([cmd("phase", 20.0, phase="night"),
             cmd("night/step", 21.0, step="mafia_shot", actors=[2], mode="count",
                 targets="numbers", numbers=2, cadence=1.0)])
    assert [name for name, _, _ in cues(tl.effects)][-2:] == ["en/number/1", "en/number/2"]
    # a number said in the same command as the voice: in the new one
    assert cues(tl.feed([cmd("audio", 30.0, voice="ru", say=7)])) == [
        ("ru/number/7", 30.3, "audio/audio@30.0")]


def test_a_tables_own_voice_is_its_default_and_a_voice_it_has_not_is_refused():
    english = Timeline(initial_state(TableSetup("t", 6, SEATS, voice="en")))
    english.feed([cmd("timer/start", 1.0, seat=1, seconds=12)])
    assert [name for name, _, _ in cues(english.run_until(3.0))] == ["warning", "en/ten_seconds"]
    before = english.state
    [refused] = english.feed([cmd("audio", 5.0, voice="uk")])
    assert refused == Reply("audio", "audio@5.0", False, "voice: invalid enum value 'uk'")
    assert english.state is before  # nothing changed: still English
    [refused] = english.feed([cmd("audio", 6.0, voice="uk", volume=0.5)])
    assert not refused.ok and english.state is before  # the whole command refused


def test_every_voice_has_every_word_the_core_says():
    """What the core names in a voice (``spoken``) is a file the speaker plays, in each voice
    (scripts/make_voice.sh makes them)."""
    assert timer.WARN_WORDS in SPOKEN and timer.WARN == 10.0  # "ten seconds" says WARN
    for voice in VOICES:
        for words in SPOKEN:
            assert (SOUNDS / "words" / voice / f"{words}.wav").is_file(), (voice, words)
        for n in range(1, 25):
            assert (SOUNDS / "numbers" / voice / f"{n}.wav").is_file(), (voice, n)
