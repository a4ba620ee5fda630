"""Cues through pygame.mixer, heard on SDL's disk audio driver (real samples, real time)."""

from __future__ import annotations

import array
import os
import subprocess
import sys
import time
from pathlib import Path

from contract.commands import VOICES
from hardware.audio import SOUND_OUT, SPOKEN, Speaker, no_sound_device
from kit.local_broker import free_port
from tests.support.paths import REPO


def rms(path: Path, start: int = 0) -> float:
    samples = array.array("h", path.read_bytes()[start:])  # S16LE, the mixer's format here
    return (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5


def test_a_cue_is_played_as_real_samples(tmp_path):
    out = tmp_path / "speaker.raw"
    speaker = Speaker("disk", disk_file=out)
    try:
        assert speaker.health()["ok"], speaker.health()
        deadline = time.monotonic() + 5
        while not out.exists() or out.stat().st_size < 4096:  # silence first
            assert time.monotonic() < deadline
            time.sleep(0.02)
        silent = rms(out)
        mark = out.stat().st_size
        speaker.play([("end", 0.0)])  # a 0.45 s falling tone
        while out.stat().st_size < mark + 22050:  # ~0.5 s more of samples
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert silent < 10 < rms(out, mark)
    finally:
        speaker.close()


def test_one_speaker_says_the_numbers_and_the_words_in_every_voice(tmp_path):
    speaker = Speaker("disk", disk_file=tmp_path / "out.raw")
    try:
        assert speaker.health()["ok"], speaker.health()
        for voice in VOICES:
            assert {f"{voice}/number/{n}" for n in range(1, 25)} <= speaker.cues()
            assert {f"{voice}/{words}" for words in SPOKEN} <= speaker.cues()
    finally:
        speaker.close()


def test_a_missing_cue_file_is_a_health_warning_not_a_failure(tmp_path):
    speaker = Speaker("disk", sounds=tmp_path, disk_file=tmp_path / "out.raw")
    try:
        health = speaker.health()
        assert not health["ok"] and any("'window'" in p for p in health["problems"])
        assert speaker.play([("window", 0.0)]) == (None, [])  # nothing to play
    finally:
        speaker.close()


def test_off_plays_nothing_and_is_healthy():
    speaker = SOUND_OUT["off"]()
    assert speaker.play([("end", 0.0)]) == (None, [])
    assert speaker.health() == {"backend": "off", "ok": True, "problems": []}


def test_no_sound_card_and_no_server_means_no_device_and_no_alsa_noise(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    quiet = {"XDG_RUNTIME_DIR": str(tmp_path)}
    assert no_sound_device(quiet, cards) == "no sound card (/proc/asound/cards) and no sound server"
    assert no_sound_device(quiet, tmp_path / "no-alsa-in-this-kernel") is not None
    assert no_sound_device({**quiet, "SDL_AUDIODRIVER": "dummy"}, cards) is None  # by hand
    assert no_sound_device({**quiet, "PULSE_SERVER": "tcp:host"}, cards) is None
    (tmp_path / "pipewire-0").touch()
    assert no_sound_device(quiet, cards) is None
    cards.write_text(" 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n")
    assert no_sound_device({"XDG_RUNTIME_DIR": str(tmp_path / "none")}, cards) is None


def test_a_headless_start_prints_no_alsa_lines(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    done = subprocess.run([sys.executable, "-m", "mafia_table.cli", "sim", "--screenshot",
                           str(tmp_path / "t.png"), "--after", "0", "--broker",
                           f"127.0.0.1:{free_port()}"],
                          env={**env, "XDG_STATE_HOME": str(tmp_path)}, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "ALSA lib" not in done.stderr and "screenshot saved" in done.stderr
