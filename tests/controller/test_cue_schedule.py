"""Sounds at their time: the shell's cue schedule, and the spoken numbers of a count step (FIIM
4.5.3) found in the real samples SDL's disk driver wrote, through MQTT on a simulated table."""

from __future__ import annotations

import array
import itertools
import json
import math
import threading
import wave
from collections.abc import Callable

from controller.clock import SystemClock
from controller.core.effects import CancelCues, Cue
from controller.core.state import TableSetup, initial_state
from controller.core.timer import SAY_AFTER
from controller.cue_schedule import CueSchedule
from controller.loop import EventLoop
from hardware.audio import SOUNDS, Speaker
from hardware.audio import Music as MusicConfig
from tests.support.disk_audio import RATE, onset, wait_for_bytes
from tests.support.mqtt import with_json
from tests.support.running import Running, online
from tests.support.table_configs import heard_table
from tests.support.waiting import until

TOLERANCE = 0.030  # s, onset to onset


class FakeSpeaker:
    """Logs when each cue starts (now plus the silence asked for before it), and the rest."""

    def __init__(self) -> None:
        self.log: list[tuple[float, str]] = []
        self.now = 0.0

    def play(self, parts: list[tuple[str, float]]) -> tuple[object, list[tuple[float, float]]]:
        self.log += [(round(self.now + after, 6), name) for name, after in parts]
        return tuple(name for name, _ in parts), [(after, 0.5) for _, after in parts]

    def stop(self, playing: object) -> None:
        self.log.append((self.now, f"stop {playing}"))

    def duck(self) -> None:
        self.log.append((round(self.now, 6), "duck"))

    def restore(self) -> None:
        self.log.append((round(self.now, 6), "restore"))


class FakeLoop:
    """``call_at`` as the event loop keeps it, run by hand up to a time."""

    def __init__(self, speaker: FakeSpeaker) -> None:
        self.speaker = speaker
        self.calls: list[tuple[float, Callable[[], object]]] = []

    def call_at(self, t: float, fn) -> None:
        self.calls.append((t, fn))

    def run_until(self, t: float) -> None:
        while due := sorted((c for c in self.calls if c[0] <= t), key=lambda c: c[0]):
            at, fn = due[0]
            self.calls.remove(due[0])
            self.speaker.now = max(self.speaker.now, at)
            fn()
        self.speaker.now = t


def schedule() -> tuple[CueSchedule, FakeSpeaker, FakeLoop]:
    speaker = FakeSpeaker()
    loop = FakeLoop(speaker)
    return CueSchedule(speaker, now=lambda: speaker.now, call_at=loop.call_at), speaker, loop


def test_a_group_goes_out_as_one_sound_each_cue_at_its_time_ducking_each():
    cues, speaker, loop = schedule()
    for i, n in enumerate((3, 1, 2)):
        cues.add(Cue(f"number/{n}", 1.0 + i * 0.6, "step"))
    cues.add(Cue("end", 0.0))  # its time has passed: on the loop's next turn
    assert speaker.log == []
    loop.run_until(0.0)
    assert speaker.log == [(0.0, "end"), (0.0, "duck")]
    loop.run_until(0.9)  # woken EARLY before the first: the whole group, each on its time
    assert speaker.log[-3:] == [(1.0, "number/3"), (1.6, "number/1"), (2.2, "number/2")]
    speaker.log.clear()
    loop.run_until(5.0)
    assert speaker.log == [(1.0, "duck"), (1.5, "restore"), (1.6, "duck"), (2.1, "restore"),
                           (2.2, "duck"), (2.7, "restore")]


def test_a_late_group_goes_out_late_whole_never_squeezed():
    """A speech's warning made 0.11 s late (a busy loop): its tone at once, its words still
    ``SAY_AFTER`` after the tone, both from the one input. Once the words came 0.29 s after the
    tone: the tone, due, went out alone before the words were added, the words at their time."""
    cues, speaker, loop = schedule()
    speaker.now = 5.11
    cues.add(Cue("warning", 5.0, "timer"))
    cues.add(Cue("words/ru/ten_seconds", 5.0 + SAY_AFTER, "timer"))
    loop.run_until(5.11)
    assert speaker.log[:2] == [(5.11, "warning"),
                               (round(5.11 + SAY_AFTER, 6), "words/ru/ten_seconds")]


def test_a_step_that_ends_early_takes_back_its_numbers_and_a_phase_change_all_of_them():
    cues, speaker, loop = schedule()
    cues.add(Cue("number/7", 5.0))
    for i in range(3):
        cues.add(Cue(f"number/{i + 1}", 1.0 + i, "night_step/a"))
    loop.run_until(1.2)
    cues.cancel(CancelCues("night_step/a"))  # its sound is stopped: 2 and 3 are not heard
    assert (1.2, "stop ('number/1', 'number/2', 'number/3')") in speaker.log
    assert [c.name for c in cues.waiting] == ["number/7"]
    cues.add(Cue("number/9", 4.0, "night_step/b"))
    cues.cancel(CancelCues())
    assert cues.waiting == ()
    loop.run_until(10.0)
    assert [name for _, name in speaker.log if name.startswith("number/")] == [
        "number/1", "number/2", "number/3"]


def test_numbers_taken_back_do_not_duck_the_music_and_another_group_keeps_its_ducking():
    """A cancelled step's numbers are not heard, so the music does not dip where they were; a
    cue of another group still sounding keeps the music down; a new sound of the same group is
    still stopped by the next cancel (the old one's end does not forget it)."""
    cues, speaker, loop = schedule()
    for i in range(3):
        cues.add(Cue(f"number/{i + 1}", 1.0 + i, "night_step/a"))
    cues.add(Cue("tone", 2.9, "audio"))
    loop.run_until(1.2)
    speaker.log.clear()
    cues.cancel(CancelCues("night_step/a"))
    loop.run_until(2.95)  # number/2's time (2.0) passed: no duck for it; the tone ducks
    assert [entry for entry in speaker.log if entry[1] == "duck"] == [(2.9, "duck")]
    cues.cancel(CancelCues("night_step/a"))  # nothing of it sounds: the tone keeps the music down
    assert speaker.log[-1] == (2.9, "duck")
    speaker.log.clear()
    cues.add(Cue("number/5", 3.4, "night_step/a"))
    loop.run_until(3.6)  # the first night_step/a sound would have ended at 3.5
    cues.cancel(CancelCues("night_step/a"))
    assert (3.6, "stop ('number/5',)") in speaker.log
    assert [entry for entry in speaker.log if entry[1] == "duck"] == [(3.4, "duck")]


def test_the_music_ducks_under_each_number_and_comes_back_between_them(tmp_path):
    """Numbers that are a click and then near silence, over steady music: after each click the
    samples show the music ducked, and back at its level before the next number."""
    voice = tmp_path / "numbers" / "ru"
    voice.mkdir(parents=True)
    for n in (1, 2, 3):
        with wave.open(str(voice / f"{n}.wav"), "wb") as quiet:  # a click, then 0.6 s of hush
            quiet.setnchannels(1)
            quiet.setsampwidth(2)
            quiet.setframerate(RATE)
            quiet.writeframes(array.array("h", [30000] * 8 + [1] * int(0.6 * RATE)).tobytes())
    steady = tmp_path / "steady.wav"  # music of one level throughout: a 440 Hz tone
    with wave.open(str(steady), "wb") as tone:
        tone.setnchannels(1)
        tone.setsampwidth(2)
        tone.setframerate(RATE)
        tone.writeframes(array.array("h", (round(8000 * math.sin(2 * math.pi * 440 * i / RATE))
                                           for i in range(5 * RATE))).tobytes())
    out = tmp_path / "speaker.raw"
    speaker = Speaker("disk", sounds=tmp_path, disk_file=out,
                      music=MusicConfig(playlist=[steady], fade_in=0.0, duck=0.2))
    clock = SystemClock()
    loop = EventLoop(initial_state(TableSetup("t", 4)), clock=clock, perform=lambda e: None)
    cues = CueSchedule(speaker, now=clock.monotonic, call_at=loop.call_at)
    runner = threading.Thread(target=loop.run)
    try:
        speaker.night(True)
        wait_for_bytes(out, out.stat().st_size + RATE)  # the music plays
        runner.start()
        mark, first = out.stat().st_size, clock.monotonic() + 0.3
        loop.call_soon(lambda: [cues.add(Cue(f"ru/number/{n}", first + 1.2 * i, "step"))
                                for i, n in enumerate((1, 2, 3))])
        wait_for_bytes(out, mark + int(4.5 * RATE) * 2)
        stream = array.array("h", out.read_bytes()[mark - mark % 2:])
        clicks = [i for i in range(1, len(stream)) if stream[i] > 20000 >= stream[i - 1]]
        assert len(clicks) == 3, clicks

        # The music's level in 50 ms windows, the clicks left out. The ducking follows the
        # loop's clock and the clicks the stream's, which drift apart on a busy machine, so the
        # samples are read for what they show whatever the drift: the music at its level, then
        # down and back once per number, three times.
        width = RATE // 20
        levels = []
        for start in range(0, len(stream) - width, width):
            music = [x for x in stream[start:start + width] if abs(x) < 20000]
            levels.append((sum(x * x for x in music) / len(music)) ** 0.5)
        full = max(levels[:4])  # before the first number (0.3 s in)
        ducked = [level < 0.5 * full for level in levels]
        downs = sum(1 for was, now in itertools.pairwise(ducked) if now and not was)
        ups = sum(1 for was, now in itertools.pairwise(ducked) if was and not now)
        assert not ducked[0] and (downs, ups) == (3, 3), [round(level) for level in levels]
        assert min(level for level, down in zip(levels, ducked, strict=True) if down) < 0.3 * full
    finally:
        loop.stop()
        if runner.is_alive():
            runner.join(5)
        speaker.close()


def test_fiim_4_5_3_numbers_spoken_cadence_apart_in_counting_order(tmp_path, broker,
                                                                   subscriber):
    cfg, out = heard_table(tmp_path, broker.port)
    run = Running(cfg)
    core = subscriber
    voice = SOUNDS / "numbers" / "ru"
    try:
        online(core)
        # cmd/audio with a tone and a number: the number a second after the tone
        mark = out.stat().st_size
        core.publish("mafia/t1/cmd/audio", '{"id": "a", "cue": "warning", "say": 7}')
        core.wait_for(with_json("mafia/t1/reply/audio", id="a", ok=True))
        wait_for_bytes(out, mark + int(2.5 * RATE) * 2)
        written = out.read_bytes()
        tone, seven = onset(written, SOUNDS / "warning.wav", mark), onset(written, voice / "7.wav")
        assert tone is not None and seven is not None
        assert abs(seven - tone - 1.0) <= TOLERANCE, seven - tone

        core.publish("mafia/t1/cmd/phase", '{"id": "n", "phase": "night"}')
        core.wait_for(with_json("mafia/t1/reply/phase", id="n", ok=True))
        cadence = 0.9  # longer than any number's sound: one sound at a time
        mark = out.stat().st_size
        core.publish("mafia/t1/cmd/night/step", json.dumps(
            {"id": "shot", "step": "mafia_shot", "actors": [1, 2], "targets": "numbers",
             "numbers": 4, "mode": "count", "cadence": cadence}))
        core.wait_for(with_json("mafia/t1/private/night/result", night_step="shot"), timeout=15)
        wait_for_bytes(out, mark + int((0.3 + 4 * cadence) * RATE) * 2)
        written = out.read_bytes()
        onsets = [onset(written, voice / f"{n}.wav", mark) for n in (1, 2, 3, 4)]
        assert None not in onsets, onsets
        gaps = [b - a for a, b in itertools.pairwise(onsets)]
        assert all(abs(gap - cadence) <= TOLERANCE for gap in gaps), gaps

        # a step stopped after its first number: the rest are never spoken (a long cadence, so
        # that a busy machine's slow stop still lands before the second number is due)
        cadence = 2.5
        mark = out.stat().st_size
        core.publish("mafia/t1/cmd/night/step", json.dumps(
            {"id": "cut", "step": "mafia_shot", "actors": [1, 2], "targets": "numbers",
             "numbers": 3, "mode": "count", "cadence": cadence}))
        core.wait_for(with_json("mafia/t1/private/night/step", night_step="cut"))
        until(lambda: onset(out.read_bytes(), voice / "1.wav", mark) is not None,
              what="the first number")
        core.publish("mafia/t1/cmd/night/stop", '{"id": "stop"}')
        core.wait_for(with_json("mafia/t1/private/night/result", night_step="cut"))
        stopped = out.stat().st_size
        wait_for_bytes(out, stopped + int((2 * cadence + 1.0) * RATE) * 2)  # past 2 and 3
        written = out.read_bytes()
        assert onset(written, voice / "1.wav", mark) is not None
        assert [onset(written, voice / f"{n}.wav", mark) for n in (2, 3)] == [None, None]
    finally:
        run.close()
