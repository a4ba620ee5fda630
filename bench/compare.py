"""Same-run comparison: a press's latency in this checkout against another commit's.

    .venv/bin/python -m bench.compare --base HEAD~1 [--rounds 5] [--presses 500] [gpio consoles]
    .venv/bin/python -m bench.compare --base HEAD~1 --rounds 3 --presses 200 judge
    .venv/bin/python -m bench.compare --quick    # HEAD, consoles, seconds: that it runs

A change to the code on a press's path (the core, the loop, the journal, the MQTT link) should
not make that path slower. Figures taken on different days are not comparable on a shared
machine, so this checks the other commit out in a temporary git worktree and runs the same
benchmark on both trees in turns, in one run: each round runs the base and then this tree (or
the other way round, alternating, so that a machine getting busier or quieter favours neither).
Each benchmark runs as its own process with ``PYTHONPATH`` set to its tree, so each imports its
own code. For each tree it reports the median over the rounds of the runs' p50 and p99 of the
press -> subscriber latency (``bench.gpio``: a mock pin's edge; ``bench.consoles``: a console's
EVENT frame on a pty; ``bench.judge``: a seat press to the fist on the judge's page in Chromium)
and of the floor each run measured beside it, and the ratio of this tree's to the base's. A base
from before the benches printed verdict lines (bench/figures.py) gives its p50 and p99 alone,
and runs its benchmark's one run.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench import quick
from bench.figures import VERDICT

HERE = Path(__file__).resolve().parent.parent
#: the first line each benchmark prints for one press at a time (what a base from before the
#: verdict lines gives)
LATENCY = re.compile(r"(?:edge|pty byte) -> subscriber.*p50=([\d.]+) ms p99=([\d.]+) ms")
ARGS = {"gpio": ["--bursts", "1", "--starts", "1", "--idle", "1"],  # the least any version takes
        "consoles": ["--bursts", "0"], "judge": []}
#: how each benchmark is told the number of presses
PRESSES = {"gpio": "--presses", "consoles": "--presses", "judge": "-n"}


@dataclass(frozen=True)
class Run:
    """One run's press p50 and p99 and its floor's p99 (None from a base without a floor)."""

    p50: float
    p99: float
    floor_p99: float | None


def run_once(tree: Path, bench: str, presses: int) -> Run:
    """One run of ``bench.<bench>`` on ``tree``."""
    source = (tree / "bench" / f"{bench}.py").read_text(encoding="utf-8")
    runs = ["--runs", "1"] if '"--runs"' in source else []  # older trees: one run anyway
    out = subprocess.run(
        [sys.executable, "-m", f"bench.{bench}", PRESSES[bench], str(presses), *ARGS[bench], *runs],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True,
        timeout=900, check=False)
    verdict = next(filter(None, map(VERDICT.match, out.stdout.splitlines())), None)
    old = LATENCY.search(out.stdout)
    if out.returncode or not (verdict or old):
        raise RuntimeError(f"bench.{bench} on {tree} failed ({out.returncode}):\n"
                           f"{out.stdout[-2000:]}{out.stderr[-2000:]}")
    if verdict is None:
        assert old is not None
        return Run(float(old[1]), float(old[2]), None)
    p50, p99, _ = (float(x) for x in verdict["figures"].split(" / "))
    floor = verdict["floor"].removesuffix(" ms").split(" / ")
    return Run(p50, p99, None if len(floor) == 1 else float(floor[1]))


def _shown(run: Run) -> str:
    floor = "" if run.floor_p99 is None else f" (floor p99 {run.floor_p99:.3f})"
    return f"p50 {run.p50:.3f} p99 {run.p99:.3f} ms{floor}"


def compare(base: Path, bench: str, rounds: int, presses: int) -> None:
    """Print each round's figures for both trees, then the medians and this tree's ratio."""
    runs: dict[str, list[Run]] = {"base": [], "this": []}
    trees = {"base": base, "this": HERE}
    for n in range(rounds):
        order = ("base", "this") if n % 2 == 0 else ("this", "base")
        for name in order:
            runs[name].append(run_once(trees[name], bench, presses))
        print(f"bench.{bench} round {n + 1}/{rounds} (load average {os.getloadavg()[0]:.2f}): "
              + ", ".join(f"{name} {_shown(runs[name][-1])}" for name in ("base", "this")),
              flush=True)
    medians = {name: Run(statistics.median(r.p50 for r in got),
                         statistics.median(r.p99 for r in got),
                         None if any(r.floor_p99 is None for r in got)
                         else statistics.median(r.floor_p99 or 0 for r in got))
               for name, got in runs.items()}
    b, t = medians["base"], medians["this"]
    print(f"bench.{bench} median of {rounds} rounds: base {_shown(b)}; this {_shown(t)}; "
          f"this/base p50 {t.p50 / b.p50:.2f}x p99 {t.p99 / b.p99:.2f}x")


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
