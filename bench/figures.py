"""The figures a latency bench prints, all the same way: the path's p50 / p99 / max, its floor's
measured in the same run, their ratio, and MET or MISSED against the goal (issue 27's table).

A figure on a shared machine says little alone: the same code gives a p99 of 2 ms at a load
average of 0.3 and 40 ms at 8. So every bench also measures, in the same run, a *floor*: the
least any code could do on that path on this machine at that moment (a bare paho publish to the
same subscriber, a bare pty write, a mock pin edge to an empty callback), and the goal is either
relative to it (``RELATIVE``: the path's p99 within 1.5 times the floor's, plus 1 ms) or an
absolute bound (``below``) printed beside it, or both an absolute bound and the floor itself
(``within_floor``: the judge's page, under 25 ms and no slower than its floor's hops summed).

A run prints one ``verdict`` line per path (``verdict_line``), which ``bench.headline`` reads;
with several runs the median run decides (``median_run``: the middle one by its margin to the
goal), and its line is printed again, named so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def quantile(samples_ms: Sequence[float], q: float) -> float:
    """The sample at quantile ``q`` (0..1), by rank."""
    ordered = sorted(samples_ms)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def percentiles(samples_ms: Sequence[float]) -> str:
    return (f"n={len(samples_ms)} p50={quantile(samples_ms, 0.50):.3f} ms "
            f"p99={quantile(samples_ms, 0.99):.3f} ms max={max(samples_ms):.3f} ms")


@dataclass(frozen=True)
class Figures:
    """p50, p99 and max of a path's samples (ms)."""

    p50: float
    p99: float
    max: float

    @classmethod
    def of(cls, samples_ms: Sequence[float]) -> Figures:
        return cls(quantile(samples_ms, 0.5), quantile(samples_ms, 0.99), max(samples_ms))

    def __add__(self, other: Figures) -> Figures:
        """A floor made of two hops: each quantile summed (a bound, not the quantile of the
        sum, which would need the two hops' samples paired)."""
        return Figures(self.p50 + other.p50, self.p99 + other.p99, self.max + other.max)

    def __str__(self) -> str:
        return f"{self.p50:.3f} / {self.p99:.3f} / {self.max:.3f} ms"


@dataclass(frozen=True)
class Goal:
    """What a path must meet: ``quantile`` ("p99" or "max") of its figures at most
    ``limit(floor)``; ``says`` is how the goal reads (issue 27's table)."""

    quantile: str
    limit: Callable[[Figures | None], float]
    says: str

    def value(self, figures: Figures) -> float:
        return float(getattr(figures, self.quantile))

    def margin(self, figures: Figures, floor: Figures | None) -> float:
        """How far the path is over its limit (negative: under it), ms."""
        return self.value(figures) - self.limit(floor)

    def met(self, figures: Figures, floor: Figures | None) -> bool:
        return self.margin(figures, floor) <= 0


def _relative(floor: Figures | None) -> float:
    if floor is None:
        raise ValueError("a relative goal needs the run's floor")
    return 1.5 * floor.p99 + 1.0


#: The table paths' goal: p99 within 1.5 times the same run's floor p99, plus 1 ms.
RELATIVE = Goal("p99", _relative, "p99 <= 1.5 x floor p99 + 1 ms")


def below(ms: float, quantile: str = "p99") -> Goal:
    """An absolute goal: ``quantile`` under ``ms`` (the floor only shows beside it)."""
    return Goal(quantile, lambda floor: ms, f"{quantile} < {ms:g} ms")


def within_floor(ms: float, floor_says: str) -> Goal:
    """Both bounds at once: p99 under ``ms`` and at most the floor's p99 (the floor, what
    ``floor_says``: e.g. two hops' sum, the table path's and a bare WebSocket's)."""
    def limit(floor: Figures | None) -> float:
        if floor is None:
            raise ValueError("a goal within the floor needs the run's floor")
        return min(ms, floor.p99)

    return Goal("p99", limit, f"p99 < {ms:g} ms and <= {floor_says}")


@dataclass(frozen=True)
class Verdict:
    """One run of one path, judged."""

    path: str
    figures: Figures
    floor: Figures | None
    goal: Goal

    @property
    def met(self) -> bool:
        return self.goal.met(self.figures, self.floor)

    def line(self, name: str | None = None) -> str:
        """``verdict <name>: ...``, the line ``bench.headline`` reads (see ``VERDICT``)."""
        floor = "none" if self.floor is None else str(self.floor)
        ratio = ("-" if self.floor is None or not self.goal.value(self.floor)
                 else f"{self.goal.value(self.figures) / self.goal.value(self.floor):.2f}x")
        limit = self.goal.limit(self.floor)
        return (f"verdict {name or self.path}: p50 / p99 / max {self.figures}; floor {floor}; "
                f"ratio {self.goal.quantile} {ratio}; goal {self.goal.says} = {limit:.3f} ms: "
                f"{'MET' if self.met else 'MISSED'}")


#: a verdict line, as ``Verdict.line`` prints it (what ``bench.headline`` parses)
VERDICT = re.compile(
    r"^verdict (?P<name>.+?): p50 / p99 / max (?P<figures>[\d.]+ / [\d.]+ / [\d.]+) ms; "
    r"floor (?P<floor>none|[\d.]+ / [\d.]+ / [\d.]+ ms); ratio (?:p99|max) (?P<ratio>\S+); "
    r"goal (?P<goal>.+) = (?P<limit>[\d.]+) ms: (?P<verdict>MET|MISSED)$")


def median_run(runs: Sequence[Verdict]) -> Verdict:
    """The run that decides: the middle one by its margin to the goal."""
    ordered = sorted(runs, key=lambda v: v.goal.margin(v.figures, v.floor))
    return ordered[len(ordered) // 2]


def print_runs(runs: Sequence[Verdict]) -> None:
    """After every run of one path: with more than one, the median run's verdict again, named
    ``<path> (median of N runs)``."""
    if len(runs) > 1:
        print(median_run(runs).line(f"{runs[0].path} (median of {len(runs)} runs)"),
              flush=True)


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as /proc/loadavg gives them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
