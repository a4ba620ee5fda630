"""Same-run comparison: a press's latency in this checkout against another commit's.

    .venv/bin/python -m bench.compare --base HEAD~1 [--rounds 5] [--presses 500] [gpio consoles]
    .venv/bin/python -m bench.compare --quick    # HEAD, consoles, seconds: that it runs

A change to the code on a press's path (the core, the loop, the journal, the MQTT link) should
not make that path slower. Figures taken on different days are not comparable on a shared
machine, so this checks the other commit out in a temporary git worktree and runs the same
benchmark on both trees in turns, in one run: each round runs the base and then this tree (or
the other way round, alternating, so that a machine getting busier or quieter favours neither).
Each benchmark runs as its own process with ``PYTHONPATH`` set to its tree, so each imports its
own code. For each tree it reports the median over the rounds of the runs' p50 and p99 of the
press -> subscriber latency (``bench.gpio``: a mock pin's edge; ``bench.consoles``: a console's
EVENT frame on a pty), and the ratio of this tree's to the base's.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import quick

HERE = Path(__file__).resolve().parent.parent
#: the first line each benchmark prints for one press at a time
LATENCY = re.compile(r"(?:edge|pty byte) -> subscriber.*p50=([\d.]+) ms p99=([\d.]+) ms")
ARGS = {"gpio": ["--bursts", "1", "--starts", "1", "--idle", "1"],  # the least any version takes
        "consoles": ["--bursts", "0", "--runs", "1"]}


def run_once(tree: Path, bench: str, presses: int) -> tuple[float, float]:
    """One run of ``bench.<bench>`` on ``tree``: its (p50, p99) in ms."""
    out = subprocess.run(
        [sys.executable, "-m", f"bench.{bench}", "--presses", str(presses), *ARGS[bench]],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True,
        timeout=900, check=False)
    match = LATENCY.search(out.stdout)
    if out.returncode or not match:
        raise RuntimeError(f"bench.{bench} on {tree} failed ({out.returncode}):\n"
                           f"{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return float(match[1]), float(match[2])


def compare(base: Path, bench: str, rounds: int, presses: int) -> None:
    """Print each round's figures for both trees, then the medians and this tree's ratio."""
    runs: dict[str, list[tuple[float, float]]] = {"base": [], "this": []}
    trees = {"base": base, "this": HERE}
    for n in range(rounds):
        order = ("base", "this") if n % 2 == 0 else ("this", "base")
        for name in order:
            runs[name].append(run_once(trees[name], bench, presses))
        print(f"bench.{bench} round {n + 1}/{rounds} (load average {os.getloadavg()[0]:.2f}): "
              + ", ".join(f"{name} p50 {runs[name][-1][0]:.3f} p99 {runs[name][-1][1]:.3f} ms"
                          for name in ("base", "this")), flush=True)
    medians = {name: (statistics.median(r[0] for r in got), statistics.median(r[1] for r in got))
               for name, got in runs.items()}
    (b50, b99), (t50, t99) = medians["base"], medians["this"]
    print(f"bench.{bench} median of {rounds} rounds: base p50 {b50:.3f} p99 {b99:.3f} ms; "
          f"this p50 {t50:.3f} p99 {t99:.3f} ms; this/base p50 {t50 / b50:.2f}x "
          f"p99 {t99 / b99:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the commit to compare against (required)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--presses", type=int, default=500)
    parser.add_argument("benches", nargs="*", default=["gpio", "consoles"],
                        help=f"which benchmarks (of {', '.join(ARGS)})")
    args = quick.arguments(parser, {"base": "HEAD", "rounds": 1, "presses": 5,
                                    "benches": ["consoles"]})
    unknown = set(args.benches) - set(ARGS)
    if args.base is None:
        parser.error("--base is required")
    if unknown or min(args.rounds, args.presses) < 1:
        parser.error(f"benches are {', '.join(ARGS)}; --rounds and --presses at least 1"
                     + (f" (not {', '.join(sorted(unknown))})" if unknown else ""))
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "base"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "-q", str(base),
                        args.base], check=True)
        try:
            for bench in args.benches:
                compare(base, bench, args.rounds, args.presses)
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(base)],
                           check=False)


if __name__ == "__main__":
    main()
