"""``bench/headline.py --quick`` runs every row's bench and prints the table: a row for each path
of issue 27's table, each with a floor, a ratio and a verdict, and the load average; none of the
benches failed. Its figures are not looked at (a quick run's are not figures: not a timed test).
The benches it runs are each also run by test_quick.py; this is that the one command holds them
together (its own module: it takes as long as all of them)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.paths import REPO

#: how each row of the table starts (the flood's: one at least, at whatever QoS it floods)
ROWS = ("| GPIO edge -> subscriber |", "| console byte -> subscriber |",
        "| press during a flood: QoS ", "| press during a 2,000-event catch-up |",
        "| seat press -> fist on the judge's page |", "| judge's tap -> cmd at the broker |",
        "| seat press -> fist on the overlay |")


def test_the_one_command_prints_every_row_with_its_floor_and_verdict(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "bench.headline", "--quick"], cwd=REPO,
                          env={**os.environ, "XDG_STATE_HOME": str(tmp_path)},
                          capture_output=True, text=True, timeout=400, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    lines = done.stdout.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith("| path |"))):]
    rows = table[2:]
    assert [head for head in ROWS if not any(row.startswith(head) for row in rows)] == [], table
    cells = [row.strip("| ").split(" | ") for row in rows]
    assert all(len(c) == 6 and c[2].endswith(" ms") and c[3].endswith("x")
               and c[5] in ("MET", "MISSED") for c in cells), table
    assert any(line.startswith("load average at the start: ") and "; at the end: " in line
               for line in lines)
