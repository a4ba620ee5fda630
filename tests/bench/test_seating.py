"""``bench/seating.py --quick`` runs and prints its table (the figures are the bench's, in
docs/performance.md; here only that it works: without a platform snapshot, our side)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.paths import REPO


def test_the_quick_bench_runs_and_prints_our_scores() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.seating", "--quick"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bench.seating: 1 s each, seeds 1, load average ")
    assert "players" in lines[1] and "numbers" in lines[1] and "tables" in lines[1]
    assert "30 players x 4 games, seed 1" in lines
    assert "30 players x 3 games, 6 pairs kept apart, seed 1" in lines
    ours = [line.split() for line in lines if line.strip().startswith("ours")]
    assert len(ours) == 2 and all(len(row) >= 7 for row in ours)
    floors = [line.split() for line in lines if line.strip().startswith("floor")]
    assert len(floors) == 2 and all(len(row) == 4 for row in floors)
    assert sum(line.startswith("  ratio to the floor") for line in lines) == 2
    assert lines[-1].startswith("bench.seating: done, load average ")
