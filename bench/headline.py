"""Every headline row of issue 27's table, measured in one command: each with its floor, the
ratio and MET or MISSED, and the load average at the start and at the end.

    .venv/bin/python -m bench.headline [--runs 3] [--only gpio consoles ...]   # ~25 minutes
    .venv/bin/python -m bench.headline --quick    # seconds a bench: that it runs

Each row's bench runs as it is, as its own process, and its output is shown as it comes; this
command only reads the lines each prints (bench/figures.py's ``verdict`` lines; ``bench.flood``'s
percentiles, see ``flood_verdicts``) and puts them in one table at the end, in the issue's order:

* ``gpio``: GPIO edge -> subscriber (``bench.gpio``: the latency part alone);
* ``consoles``: console byte -> subscriber (``bench.consoles``, no bursts);
* ``flood``: a press during a 5,000 commands a second flood, at each QoS ``bench.flood`` floods
  with (its own defaults);
* ``backlog``: a press during a 1,000,000-event catch-up (``bench.backlog``, the presses only:
  no drain, no stop);
* ``judge``: seat press -> the fist on the judge's page (its floor the table path's and a bare
  WebSocket -> DOM's, measured in the same run, summed; the goal both p99 < 25 ms and at most
  that floor's p99), and the judge's tap -> ``cmd/`` at the broker (``bench.judge``);
* ``overlay``: seat press -> the fist on the stream overlay (``bench.overlay``).

Three runs, and the median run decides: ``bench.gpio``, ``bench.consoles`` and ``bench.backlog``
repeat themselves (``--runs``) and print their median run; the others are run ``--runs`` times
here and the median is taken the same way (bench/figures.py, ``median_run``). A bench that fails
is a row of its own: ``FAILED``, with its exit status. ``--quick`` runs every bench ``--quick``,
once (what the test suite runs): the figures of a quick run are not figures.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench import quick
from bench.figures import VERDICT, load_average

REPO = Path(__file__).resolve().parent.parent
#: a percentiles block (bench/figures.py's ``percentiles``) and the label before it
PERCENTILES = re.compile(r"^\s*(?P<label>.*?)\s*n=\d+ p50=(?P<p50>[\d.]+) ms "
                         r"p99=(?P<p99>[\d.]+) ms max=(?P<max>[\d.]+) ms")
#: a press during a flood, p99 under 10 ms at either QoS (issue 27's table, from issue 26)
FLOOD_GOAL_MS = 10.0


@dataclass(frozen=True)
class Row:
    """One row of the table: a verdict line, parsed (or a bench that failed)."""

    name: str
    figures: str = ""
    floor: str = ""
    ratio: str = ""
    goal: str = ""
    limit: float = 0.0
    verdict: str = ""

    @classmethod
    def parse(cls, line: str) -> Row | None:
        """The row a ``verdict`` line states, or None for any other line."""
        match = VERDICT.match(line.strip())
        if match is None:
            return None
        return cls(match["name"], match["figures"] + " ms", match["floor"], match["ratio"],
                   match["goal"], float(match["limit"]), match["verdict"])

    @property
    def margin(self) -> float:
        """How far over its limit (the goal's quantile: p99 or max) the row is, ms."""
        _, p99, worst = (float(x) for x in self.figures.removesuffix(" ms").split(" / "))
        return (worst if self.goal.startswith("max") else p99) - self.limit

    def cells(self) -> list[str]:
        return [self.name, self.figures, self.floor, self.ratio, self.goal, self.verdict]


def flood_verdicts(out: str) -> list[Row]:
    """``bench.flood``'s presses during each flood, with the floor printed just before them
    (the same run's presses with no flood, or its bare publishes), against p99 < 10 ms.

    ``bench.flood`` prints percentiles, not verdict lines: a line whose label has "flood" (not
    "no flood") is a flood's presses; the closest line before it whose label has "floor" or
    "no flood" is its floor; the flood is named by the last "QoS n ..." said before its comma
    or colon (QoS 1 and its rate when none is: issue 19's flood is QoS 1)."""
    rows: list[Row] = []
    floor: tuple[float, float, float] | None = None
    case = ""
    for line in out.splitlines():
        said = re.search(r"QoS \d[^,:]*", line)
        if said:
            case = said[0]
        match = PERCENTILES.match(line)
        if match is None:
            continue
        label = match["label"].lower()
        figures = (float(match["p50"]), float(match["p99"]), float(match["max"]))
        if "floor" in label or "no flood" in label:
            floor = figures
        elif "flood" in label and floor is not None:
            rate = re.search(r"flood of ([\d,]+/s)", label)
            name = case or f"QoS 1 cmd/light x {rate[1] if rate else '?'}"
            ratio = f"{figures[1] / floor[1]:.2f}x" if floor[1] else "-"
            verdict = "MET" if figures[1] < FLOOD_GOAL_MS else "MISSED"
            rows.append(Row(f"press during a flood: {name}", _shown(figures), _shown(floor),
                            ratio, f"p99 < {FLOOD_GOAL_MS:g} ms", FLOOD_GOAL_MS, verdict))
    return rows


def _shown(figures: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.3f}" for x in figures) + " ms"


def verdict_lines(out: str) -> list[Row]:
    """The rows of the ``verdict`` lines a bench printed; of a path run several times, its
    median run's line alone (named ``<path> (median of N runs)``)."""
    rows = [row for row in map(Row.parse, out.splitlines()) if row is not None]
    medians = {row.name.split(" (median of ")[0] for row in rows if " (median of " in row.name}
    return [row for row in rows if row.name not in medians]


@dataclass(frozen=True)
class Bench:
    """A row's bench: how to run it (``args``; ``quick``: with ``--quick``), and how its rows
    are read from what it printed. ``repeats``: it takes ``--runs`` and picks its median run
    itself."""

    module: str
    args: tuple[str, ...] = ()
    quick: tuple[str, ...] = ()
    rows: Callable[[str], list[Row]] = verdict_lines
    repeats: bool = False


_LATENCY_ONLY = ("--bursts", "0", "--starts", "0", "--idle", "0")
BENCHES = {
    "gpio": Bench("bench.gpio", _LATENCY_ONLY, _LATENCY_ONLY, repeats=True),
    "consoles": Bench("bench.consoles", ("--bursts", "0"), ("--bursts", "0"), repeats=True),
    "flood": Bench("bench.flood", rows=flood_verdicts),
    "backlog": Bench("bench.backlog", ("--backlog", "1000000", "--presses", "60",
                                       "--presses-only"), ("--presses-only",), repeats=True),
    "judge": Bench("bench.judge"),
    "overlay": Bench("bench.overlay"),
}


def run(bench: Bench, runs: int, quick_run: bool) -> list[Row]:
    """Run ``bench`` (``runs`` times here unless it repeats itself), showing its output; its
    rows, of each path the median run's (by the margin to its goal)."""
    if quick_run:
        args, times = [*bench.quick, "--quick"], 1
    elif bench.repeats:
        args, times = [*bench.args, "--runs", str(runs)], 1
    else:
        args, times = list(bench.args), runs
    by_path: dict[str, list[Row]] = {}
    for n in range(times):
        print(f"=== {bench.module} {' '.join(args)} (run {n + 1} of {times}; load average "
              f"{load_average()})", flush=True)
        lines: list[str] = []
        with subprocess.Popen([sys.executable, "-m", bench.module, *args], cwd=REPO,
                              stdout=subprocess.PIPE, text=True) as process:
            assert process.stdout is not None
            for line in process.stdout:
                print("    " + line, end="", flush=True)
                lines.append(line)
        if process.returncode:
            return [Row(f"{bench.module}", verdict=f"FAILED (exit {process.returncode})")]
        got = bench.rows("".join(lines))
        if not got:
            return [Row(f"{bench.module}", verdict="FAILED (no figures printed)")]
        for row in got:
            by_path.setdefault(row.name, []).append(row)
    return [sorted(rows, key=lambda r: r.margin)[len(rows) // 2] for rows in by_path.values()]


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table (what docs/performance.md holds)."""
    head = ["path", "p50 / p99 / max", "floor p50 / p99 / max", "ratio", "goal", "verdict"]
    lines = [head, ["---"] * len(head), *(row.cells() for row in rows)]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each; the median decides")
    parser.add_argument("--only", nargs="+", choices=list(BENCHES), default=list(BENCHES),
                        help="these rows' benches only")
    args = quick.arguments(parser, {})
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    started = load_average()
    rows = [row for name in args.only for row in run(BENCHES[name], args.runs, args.quick)]
    print(f"\nload average at the start: {started}; at the end: {load_average()}"
          f"{' (--quick: not figures)' if args.quick else ''}")
    print(table(rows), flush=True)


if __name__ == "__main__":
    main()
