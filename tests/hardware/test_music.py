"""Night music: the phase in the core, and the fades and ducking heard on SDL's disk driver."""

from __future__ import annotations

import array
import json
import shutil
import wave
from pathlib import Path

from contract.inputs import CommandReceived
from controller.core import scene
from controller.core.effects import AudioControl, Cue, Emit, Music, Reply
from controller.core.state import TableSetup, initial_state, shown
from controller.core.table import step
from hardware.audio import SOUNDS, Speaker
from hardware.audio import Music as MusicConfig
from tests.support.disk_audio import RATE, wait_for_bytes


def cmd(verb: str, **doc) -> CommandReceived:
    return CommandReceived(verb, json.dumps({"id": verb, **doc}).encode(), 1.0)


def test_night_darkens_every_public_light_and_starts_the_music_day_brings_them_back():
    state = initial_state(TableSetup("t", 6))
    night, effects = step(state, cmd("phase", phase="night"))
    assert shown(night) == (scene.OUT,) * 6 and night.phase == "night"
    assert Music(True) in effects and any(isinstance(e, Emit) and e.kind == "phase"
                                          for e in effects)
    day, effects = step(night, cmd("phase", phase="day"))
    assert shown(day) == (scene.IN_GAME,) * 6 and Music(False) in effects


def test_phase_and_audio_commands_that_do_not_fit_are_refused():
    state = initial_state(TableSetup("t", 6))
    for inp, error in [(cmd("phase", phase="day"), "it is day already"),
                       (cmd("audio"), 'give "volume", "next_track", "cue", "say" or "voice"'),
                       (cmd("audio", volume=1.5), "volume: expected float <= 1.0"),
                       (cmd("audio", say=25), "say: expected int <= 24"),
                       (cmd("audio", cue="bell"), "cue: invalid enum value 'bell'")]:
        after, effects = step(state, inp)
        assert after == state and error in effects[-1].error
    night, _ = step(state, cmd("phase", phase="night"))
    after, effects = step(night, cmd("vote/start", nominees=[1], voters=[2], day=2))
    assert after == night and "it is night" in effects[-1].error
    _, effects = step(state, cmd("audio", volume=0.2, next_track=True))
    assert effects == [AudioControl(0.2, True), Reply("audio", "audio", True)]
    _, effects = step(state, cmd("audio", cue="warning", say=7))  # selftest's sounds
    assert effects == [Cue("warning", 1.3, "audio/audio"), Cue("ru/number/7", 2.3, "audio/audio"),
                       Reply("audio", "audio", True)]


def rms_windows(path: Path, start: int, seconds: float, window: float = 0.1) -> list[float]:
    start -= start % 2  # whole 16-bit samples
    data = path.read_bytes()[start:start + int(seconds * RATE) * 2]
    samples = array.array("h", data[: len(data) // 2 * 2])
    size = int(window * RATE)
    return [(sum(s * s for s in samples[i:i + size]) / size) ** 0.5
            for i in range(0, len(samples) - size + 1, size)]


def test_night_music_fades_in_and_out_on_time(tmp_path):
    out = tmp_path / "speaker.raw"
    speaker = Speaker("disk", disk_file=out, music=MusicConfig(fade_in=1.0, fade_out=1.0))
    try:
        wait_for_bytes(out, 8820)
        start = out.stat().st_size
        speaker.night(True)
        wait_for_bytes(out, start + 2 * 44100)
        rising = rms_windows(out, start, 1.0, window=0.25)
        steady = rms_windows(out, start + 44100, 0.8, window=0.4)
        assert rising[0] < rising[-1] * 0.7  # louder over the fade-in
        assert min(steady) > 500  # and then playing
        mark = out.stat().st_size
        speaker.night(False)
        wait_for_bytes(out, mark + int(1.6 * 44100))
        after = rms_windows(out, mark + int(1.2 * 44100), 0.3)
        assert max(after) < 5  # silent once the 1 s fade-out is over
    finally:
        speaker.close()


def test_a_cue_ducks_the_music(tmp_path):
    sounds = tmp_path / "sounds"
    sounds.mkdir()
    for name in ("warning", "end"):
        shutil.copy(SOUNDS / f"{name}.wav", sounds)
    with wave.open(str(sounds / "window.wav"), "wb") as silent:  # a silent cue: only the
        silent.setnchannels(1)  # music is heard while it plays, ducked
        silent.setsampwidth(2)
        silent.setframerate(RATE)
        silent.writeframes(b"\0\0" * RATE)  # 1 s
    out = tmp_path / "speaker.raw"
    speaker = Speaker("disk", sounds=sounds, disk_file=out,
                      music=MusicConfig(fade_in=0.0, duck=0.25))
    try:
        wait_for_bytes(out, 8820)
        speaker.night(True)
        mark = out.stat().st_size
        wait_for_bytes(out, mark + 44100)
        before = rms_windows(out, mark + 22050, 0.4, window=0.4)[0]
        mark = out.stat().st_size
        speaker.duck()
        speaker.play([("window", 0.0)])
        wait_for_bytes(out, mark + 44100)
        under = rms_windows(out, mark + 11025, 0.5, window=0.5)[0]
        assert under < before * 0.5
    finally:
        speaker.close()
