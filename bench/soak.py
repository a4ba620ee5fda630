"""Soak of a simulated table: resident memory over a long run with its lights blinking.

    .venv/bin/python -m bench.soak [--minutes 30] [--warmup 60] [--every 10] [--gap 1] [--out FILE]
    .venv/bin/python -m bench.soak --quick    # seconds: that it runs (bench/quick.py)

A private mosquitto on loopback, and ``mafia-table run --sim`` as its own process. Every seat's
light is set to ``fast_blink`` (so gpiozero's background threads change pin levels all the time,
which is what made gpiozero's mock pin history grow), and a seat is pressed and released through
``sim/press``, ``--gap`` seconds apart (events, journal, MQTT). The process's VmRSS is read from
/proc every ``--every`` seconds; the figure is the growth from the end of the warm-up to the end,
and the growth rate fitted over the same samples (kB a minute). ``--out`` keeps the samples
(CSV).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import quick
from bench.gpio import rss_mib
from contract.topics import topic_prefix
from kit.local_broker import LocalBroker
from tests.support.mqtt import Subscriber

SOAK = topic_prefix("soak")  # the table the soak runs

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "config" / "table.example.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=60, help="seconds before the baseline")
    parser.add_argument("--every", type=float, default=10, help="seconds between samples")
    parser.add_argument("--gap", type=float, default=1.0,
                        help="seconds from a press to its release, and to the next press")
    parser.add_argument("--out", type=Path)
    args = quick.arguments(parser, {"minutes": 0.05, "warmup": 0.5, "every": 0.5, "gap": 0.2})
    with LocalBroker() as broker:
        service = subprocess.Popen(
            [sys.executable, "-m", "mafia_table.cli", "run", "--config", str(EXAMPLE), "--sim",
             "--broker", f"127.0.0.1:{broker.port}", "--table", "soak"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = Subscriber(broker.port, [f"{SOAK}status"])
        try:
            client.wait_for(lambda m: m.topic == f"{SOAK}status"
                            and m.json()["state"] == "online", timeout=30)
            lights = [{"seat": s, "mode": "fast_blink", "color": "#ff0000"} for s in range(1, 11)]
            client.client.publish(f"{SOAK}cmd/light",
                                  json.dumps({"id": "soak", "lights": lights}), qos=1)
            start = time.monotonic()
            end = start + args.warmup + args.minutes * 60
            samples: list[tuple[float, int]] = []
            next_sample, seat = start + args.warmup, 0
            while (now := time.monotonic()) < end:
                seat = seat % 10 + 1
                for verb in ("press", "release"):
                    client.client.publish(f"{SOAK}sim/{verb}", json.dumps({"seat": seat}),
                                          qos=1)
                    time.sleep(args.gap)
                if now >= next_sample:
                    samples.append((now - start, round(rss_mib(service.pid) * 1024)))
                    next_sample += args.every
        finally:
            service.terminate()
            service.wait(10)
            client.close()
    if args.out:
        args.out.write_text("seconds,rss_kb\n" + "".join(f"{t:.0f},{kb}\n" for t, kb in samples))
    times, kbs = [t / 60 for t, _ in samples], [kb for _, kb in samples]
    slope = statistics.linear_regression(times, kbs).slope
    print(f"soak {args.minutes:g} min after {args.warmup:g} s warm-up, {len(samples)} samples: "
          f"RSS {kbs[0] / 1024:.1f} MB -> {kbs[-1] / 1024:.1f} MB "
          f"(growth {(kbs[-1] - kbs[0]) / 1024:+.2f} MB, min {min(kbs) / 1024:.1f}, "
          f"max {max(kbs) / 1024:.1f}); fitted {slope:+.1f} kB/min")


if __name__ == "__main__":
    main()
