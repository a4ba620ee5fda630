"""Cues through pygame.mixer, heard on SDL's disk audio driver (real samples, real time)."""

from __future__ import annotations

import array
import time
from pathlib import Path

from hardware.audio import Music, Speaker


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


def test_the_numbers_are_spoken_in_both_voices(tmp_path):
    for voice in ("ru", "en"):
        speaker = Speaker("disk", disk_file=tmp_path / f"{voice}.raw",
                          music=Music(voice=voice))
        try:
            assert speaker.health()["ok"], speaker.health()
            assert {f"number/{n}" for n in range(1, 25)} <= speaker.cues()
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
    speaker = Speaker("off")
    assert speaker.play([("end", 0.0)]) == (None, [])
    assert speaker.health() == {"backend": "off", "ok": True, "problems": []}
