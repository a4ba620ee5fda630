"""Soak of a simulated table: resident memory over a long run with its lights blinking.

    .venv/bin/python -m bench.soak [--minutes 30] [--warmup 60] [--every 10] [--out FILE]

A private mosquitto on loopback, and ``mafia-table run --sim`` as its own process. Every seat's
light is set to ``fast_blink`` (so gpiozero's background threads change pin levels all the time,
which is what made gpiozero's mock pin history grow), and a seat is pressed and released through
``sim/press`` every two seconds (events, journal, MQTT). The process's VmRSS is read from /proc
every ``--every`` seconds; the figure is the growth from the end of the warm-up to the end, and
the growth rate fitted over the same samples (kB a minute). ``--out`` keeps the samples (CSV).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.gpio import rss_mib
from contract.topics import topic_prefix
from kit.local_broker import LocalBroker
from tests.support.mqtt import Subscriber

SOAK = topic_prefix("soak")  # the table the soak runs

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "config" / "table.example.toml"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=60, help="seconds before the baseline")
    parser.add_argument("--every", type=float, default=10, help="seconds between samples")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
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
                    time.sleep(1)
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
