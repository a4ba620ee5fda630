"""Cue timing benchmark: how close to its ``Cue.t`` each sound starts, read from the samples.

    .venv/bin/python -m bench.cues [--count 20] [--cadence 0.9]
    .venv/bin/python -m bench.cues --quick    # seconds: that it runs (bench/quick.py)

The spoken numbers of a count step are scheduled ``cadence`` apart and played by the shell's
``CueSchedule`` on a running ``EventLoop`` (its wakes, no thread of its own), through SDL's disk
audio driver into a file. Each number's onset is found in the written samples (its own samples,
the music silent), and its error is ``(onset_i - onset_0) - (t_i - t_0)``: how far the spacing
heard is from the spacing asked for. The floor, in the same run: the same cues played one by
one by a dedicated thread that sleeps until each one's time, as a sound is played the moment it
is due. The disk driver writes 512-sample buffers (23.2 ms at 22,050 Hz) and a sound started on
its own waits for the next one; on a busy machine its writes also fall behind the clock.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from bench import quick
from bench.gpio import percentiles
from controller.clock import SystemClock
from controller.core.effects import Cue
from controller.core.state import TableSetup, initial_state
from controller.cue_schedule import CueSchedule
from controller.loop import EventLoop
from hardware.audio import SOUNDS, Music, Speaker
from tests.support.disk_audio import RATE, onset, wait_for_bytes

VOICE = SOUNDS / "numbers" / "ru"


def errors_ms(out: Path, mark: int, times: list[float], names: list[int], cadence: float) \
        -> list[float]:
    written = out.read_bytes()
    onsets, after = [], mark
    for n in names:
        found = onset(written, VOICE / f"{n}.wav", after)
        assert found is not None, f"number {n} not found in the samples"
        onsets.append(found)
        after = int((found + cadence / 2) * RATE) * 2  # a word can hold another (8: 7)
    return [abs((o - onsets[0]) - (t - times[0])) * 1000 for o, t in zip(onsets, times,
                                                                          strict=True)][1:]


def by_loop(speaker: Speaker, times: list[float], names: list[int]) -> None:
    clock = SystemClock()
    loop = EventLoop(initial_state(TableSetup("bench", 4)), clock=clock, perform=lambda e: None)
    cues = CueSchedule(speaker, now=clock.monotonic, call_at=loop.call_at)
    runner = threading.Thread(target=loop.run)
    runner.start()
    def schedule() -> None:
        for n, t in zip(names, times, strict=True):
            cues.add(Cue(f"ru/number/{n}", t, "bench"))

    loop.call_soon(schedule)
    time.sleep(max(0.0, times[-1] - time.monotonic()) + 0.1)  # a bench may wait on the wall
    loop.stop()
    runner.join()


def by_sleeping_thread(speaker: Speaker, times: list[float], names: list[int]) -> None:
    for n, t in zip(names, times, strict=True):
        time.sleep(max(0.0, t - time.monotonic()))
        speaker.play([(f"ru/number/{n}", 0.0)])


def run(speaker: Speaker, out: Path, play, count: int, cadence: float) -> list[float]:
    mark = out.stat().st_size
    names = [1 + i % 10 for i in range(count)]
    start = time.monotonic() + 0.3
    times = [start + i * cadence for i in range(count)]
    play(speaker, times, names)
    wait_for_bytes(out, mark + int((times[-1] - start + 1.2 + 0.3) * RATE) * 2, timeout=60)
    return errors_ms(out, mark, times, names, cadence)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--cadence", type=float, default=0.9)
    args = quick.arguments(parser, {"count": 2})
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "speaker.raw"
        speaker = Speaker("disk", disk_file=out, music=Music(volume=0.0))
        try:
            wait_for_bytes(out, 8820)
            floor = run(speaker, out, by_sleeping_thread, args.count, args.cadence)
            loop = run(speaker, out, by_loop, args.count, args.cadence)
        finally:
            speaker.close()
    print(f"floor (sleeping thread)  |spacing error| {percentiles(floor)}")
    print(f"CueSchedule on the loop  |spacing error| {percentiles(loop)}")


if __name__ == "__main__":
    main()
