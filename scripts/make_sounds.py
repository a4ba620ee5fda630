#!/usr/bin/env python3
"""Make the cue sounds in hardware/sounds/ (16-bit mono WAV, 22050 Hz) by synthesis.

    python3 scripts/make_sounds.py

Nothing is downloaded: every sound the table plays is made here, so the repository holds the
recipe next to the result. Each tone has a 5 ms fade at both ends (no click).
"""

import math
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "hardware" / "sounds"


def tone(freq_from: float, freq_to: float, seconds: float, level: float = 0.5) -> list[float]:
    n = int(RATE * seconds)
    fade = int(RATE * 0.005)
    samples, phase = [], 0.0
    for i in range(n):
        freq = freq_from + (freq_to - freq_from) * i / n
        phase += 2 * math.pi * freq / RATE
        envelope = min(1.0, i / fade, (n - 1 - i) / fade)
        samples.append(level * envelope * math.sin(phase))
    return samples


def night(seconds: float) -> list[float]:
    """A soft, slowly breathing drone (A2 and E3, detuned), loopable: it ends where it began."""
    n = int(RATE * seconds)
    out = []
    for i in range(n):
        t = i / RATE
        breath = 0.6 + 0.4 * math.sin(2 * math.pi * t / seconds * 4)  # 4 swells per loop
        tone_ = (math.sin(2 * math.pi * 110 * t) + 0.7 * math.sin(2 * math.pi * 164.81 * t)
                 + 0.5 * math.sin(2 * math.pi * 110.5 * t))
        out.append(0.15 * breath * tone_)
    return out


def silence(seconds: float) -> list[float]:
    return [0.0] * int(RATE * seconds)


CUES = {
    # a short click
    "tick": tone(1200, 1200, 0.03),
    # a vote window opens: one short high beep
    "window": tone(880, 880, 0.12),
    # 10 s left in a speech: two beeps
    "warning": tone(660, 660, 0.1) + silence(0.08) + tone(660, 660, 0.1),
    # time is up: a falling tone
    "end": tone(520, 330, 0.45),
    # the default night music (loops)
    "night": night(20.0),
}


def write(name: str, samples: list[float]) -> None:
    with wave.open(str(OUT / f"{name}.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", round(s * 32767)) for s in samples))


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for cue, samples in CUES.items():
        write(cue, samples)
        print(f"{OUT / cue}.wav: {len(samples) / RATE:.2f} s")
