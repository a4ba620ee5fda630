"""What SDL's disk audio driver wrote: the speaker's real samples, read back from its file.

The mixer runs at ``RATE`` (22,050 Hz, 16-bit mono) and the driver appends each buffer to the
file as it plays, so the file's size is the time played and a sound's samples show when it
began."""

from __future__ import annotations

import time
import wave
from pathlib import Path

RATE = 22050  # the mixer runs at 22050 Hz, 16-bit mono: 44100 bytes a second


def wait_for_bytes(path: Path, size: int, timeout: float = 10.0) -> None:
    """Until the driver has written ``size`` bytes to ``path``."""
    deadline = time.monotonic() + timeout
    while not path.exists() or path.stat().st_size < size:
        assert time.monotonic() < deadline, "the disk audio driver stopped writing"
        time.sleep(0.02)


def samples(path: Path) -> tuple[bytes, int]:
    """A sound file's frames, and where its sound begins (the first sample over the floor)."""
    with wave.open(str(path)) as w:
        frames = w.readframes(w.getnframes())
    for i in range(0, len(frames), 2):
        if abs(int.from_bytes(frames[i:i + 2], "little", signed=True)) > 1000:
            return frames, i
    raise AssertionError(f"{path} is silent")


def onset(out: bytes, sound: Path, after: int = 0) -> float | None:
    """When (s from the start of ``out``) ``sound`` began playing, found by its own samples:
    with the music silent, the mixer writes a lone sound's samples unchanged."""
    frames, lead = samples(sound)
    at = out.find(frames[lead:lead + 256], after)
    while at != -1 and at % 2:
        at = out.find(frames[lead:lead + 256], at + 1)
    return None if at == -1 else (at - lead) / 2 / RATE
