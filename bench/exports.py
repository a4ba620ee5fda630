"""What exporting a game to mafiaratings costs (run by hand: ``.venv/bin/python -m
bench.exports``; ``--quick``: seconds, that it runs, bench/quick.py). The protocol sheet exports
on every render (its link, or the reason).

1. export: ``results.mafiaratings.export_json`` of a recorded game (it runs the port of
   the platform's checks on its result), against its floor, ``judge.record.document.encode`` of the
   same record (the record's own JSON).
2. check: ``mafiaratings_check.check`` alone on the exported game.

Both on the scripted game (tests/support/record_game.py) and on a long random one (the longest of 50
from tests/support/mafiaratings_games.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random

from bench import quick
from bench.gpio import percentiles
from bench.record import timed
from judge.record import document as rec
from results.mafiaratings import export_json
from results.mafiaratings_check import check
from tests.support.mafiaratings_games import random_game
from tests.support.record_game import whole_game


def games() -> dict[str, rec.Record]:
    scripted = rec.build(whole_game().inputs, "t")
    longest = max((random_game(random.Random(seed)) for seed in range(50)), key=len)
    long = rec.build(longest, "t")
    assert scripted is not None and long is not None
    return {f"scripted ({len(scripted.days)} days)": scripted,
            f"random ({len(long.days)} days)": long}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000)
    n = quick.arguments(parser, {"n": 20}).n
    print(f"load average {os.getloadavg()[0]:.2f}")
    for name, record in games().items():
        exported = json.loads(export_json(record))
        print(name)
        print("  export        ", percentiles(timed(lambda r=record: export_json(r), n)))
        print("  check alone   ", percentiles(timed(lambda g=exported: check(g), n)))
        print("  floor: encode ", percentiles(timed(lambda r=record: rec.encode(r), n)))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
