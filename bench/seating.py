"""Our seating generator beside the rating platform's own, on the same instances and time.

    .venv/bin/python -m bench.seating --platform DIR [--seconds 60] [--seeds 1 2 3]  # ~25 min
    .venv/bin/python -m bench.seating --quick [--platform DIR]                         # seconds
    .venv/bin/python -m bench.seating --platform DIR --instances 50x8                  # one row
    .venv/bin/python -m bench.seating --record VECTORS.json --platform DIR
    .venv/bin/python -m bench.seating --calibrate

``DIR`` is a snapshot of szotin/mafiaratings (a checkout or a bare git directory); its PHP runs
under Debian's ``php-cli`` (bench/seating_platform.py). For each instance (players x games each,
every player at a table each round) and seed, the platform's generator and optimizers get
``--seconds`` of CPU time (its job runner counts wall-clock seconds; on a machine shared with
other work CPU time is the fair measure), and ours gets ``--seconds`` of work
(hall/seating/plan.py), one after the other on one core; both times are printed. Both seatings
are scored by our port of the platform's scores and, with ``--platform``, by the platform's PHP
too, which must agree to the last bit.

Beside them, each score's floor (hall/seating/floor.py, where each is derived) and each side's
ratio to it: players, the least any seating can score (0 where a perfect seating may exist:
then the ratio is to the least a seating that is not perfect can score); numbers, 0; tables,
0 when perfect, else the least a seating with that side's players score can have (the tables
and the pairs trade one for one in a full hall).

``--record`` writes score vectors the platform's PHP computed (random seatings of all shapes,
the quirks included) for tests/hall/seating/test_seating_scores.py. ``--calibrate`` measures the
step costs ``hall/seating/plan.py`` counts work in.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench import quick
from hall.seating import floor, plan
from hall.seating.instance import Instance, instance
from hall.seating.scores import Definition, Layout, Scores, score

#: (players, games each, kept-apart pairs), everyone playing every round
INSTANCES = ((30, 10, 0), (50, 8, 0), (100, 10, 0), (200, 12, 0))
SEEDS = (1, 2, 3)
QUICK = ((30, 4, 0), (30, 3, 6))
QUICK_SECONDS = 1.0


def apart_pairs(players: int, count: int, seed: int = 5) -> list[tuple[int, int]]:
    """``count`` different pairs of players, drawn at random (the same every run)."""
    rng = random.Random(seed)
    pairs: list[tuple[int, int]] = []
    while len(pairs) < count:
        a, b = sorted(rng.sample(range(players), 2))
        if (a, b) not in pairs:
            pairs.append((a, b))
    return pairs


def ours(inst: Instance, seed: int, seconds: float) -> tuple[Layout, float, float]:
    """Our seating, and the CPU and wall seconds it took."""
    started, cpu = time.monotonic(), time.process_time()
    made = plan.make(inst, seed, seconds)
    return made.layout, time.process_time() - cpu, time.monotonic() - started


def bars(inst: Instance, scores: Scores) -> tuple[float | None, float, float]:
    """The floor each of ``scores`` is held to (None: not known, with kept-apart pairs): for
    a score of 0, 0; else the least any seating can score, or, where that is 0 (a perfect one
    may exist), the least a seating that is not perfect can."""
    def held(bar: floor.Floor | None, value: float) -> float | None:
        if bar is None:
            return None
        return 0.0 if value == 0 else bar.least or (bar.imperfect or 0.0)

    return (held(floor.players(inst), scores.players), 0.0,
            held(floor.tables(inst, scores.players), scores.tables) or 0.0)


def ratio(value: float, bar: float | None) -> str:
    if bar is None:
        return "?"
    if bar == 0:
        return "at 0" if value == 0 else "-"
    return f"{value / bar:.3f}"


def row(name: str, scores: Scores, cpu: float, wall: float, note: str = "") -> str:
    return (f"  {name:<9} {scores.players:>10.2f} {scores.numbers:>10.2f} {scores.tables:>9.2f}"
            f" {scores.total:>10.2f} {cpu:>7.1f} s {wall:>7.1f} s{note}")


def floor_rows(inst: Instance, mine: Scores, theirs: Scores | None) -> list[str]:
    """Our floors, and each side's ratios to its floors (the tables floor depends on the
    side's players score)."""
    held = bars(inst, mine)
    shown = ["?" if b is None else f"{b:.2f}" for b in held]
    out = [f"  {'floor':<9} {shown[0]:>10} {shown[1]:>10} {shown[2]:>9}"]

    def ratios(scores: Scores, bar: tuple[float | None, float, float]) -> str:
        return " / ".join(ratio(v, b) for v, b in zip(
            (scores.players, scores.numbers, scores.tables), bar, strict=True))

    line = f"  ratio to the floor (players / numbers / tables): ours {ratios(mine, held)}"
    if theirs is not None:
        their_bar = bars(inst, theirs)
        line += f"; platform {ratios(theirs, their_bar)}"
        if their_bar[2] != held[2]:
            line += f" (its tables floor {their_bar[2]:.2f}, at its players score)"
    return [*out, line]


def compare(instances: tuple[tuple[int, int, int], ...], seconds: float,
            seeds: tuple[int, ...], platform_dir: Path | None) -> bool:
    """Print the table; True when ours is at least as good on every score of every instance
    and seed (always True without the platform: nothing to compare)."""
    print(f"bench.seating: {seconds:g} s each, seeds {' '.join(map(str, seeds))}, load average "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    print(f"  {'':<9} {'players':>10} {'numbers':>10} {'tables':>9} {'sum':>10} {'cpu':>9}"
          f" {'wall':>9}")
    good = True
    with ExitStack() as stack:
        php = None
        if platform_dir is not None:
            from bench.seating_platform import platform

            php = stack.enter_context(platform(platform_dir))
        else:
            print("  (the platform's side needs --platform DIR: a snapshot of "
                  "szotin/mafiaratings)")
        for players, games, pairs in instances:
            inst = instance(players, games, apart=apart_pairs(players, pairs))
            for seed in seeds:
                good &= _instance(inst, pairs, seed, seconds, php)
    print(f"bench.seating: done, load average {os.getloadavg()[0]:.2f}")
    return good


def _instance(inst: Instance, pairs: int, seed: int, seconds: float, php: Any) -> bool:
    """One instance and seed: both sides, their floors and ratios; whether ours is at least
    as good on every score."""
    defn = inst.definition()
    print(f"{inst.players} players x {inst.games} games"
          + (f", {pairs} pairs kept apart" if pairs else "") + f", seed {seed}", flush=True)
    layout, cpu, wall = ours(inst, seed, seconds)
    mine = score(defn, layout)
    if php is None:
        print(row("ours", mine, cpu, wall), flush=True)
        print("\n".join(floor_rows(inst, mine, None)), flush=True)
        return True
    theirs = php.optimize(defn, seconds, seed)
    their_scores = score(defn, theirs["seating"])
    checked = php.score(defn, [layout, theirs["seating"]])
    if checked != [mine, their_scores] or theirs["scores"] != their_scores:
        raise SystemExit(f"the port's scores differ from the platform's: "
                         f"{checked} vs {[mine, their_scores]}")
    print(row("platform", their_scores, theirs["cpu"], theirs["elapsed"],
              f"   ({theirs['passes']} passes, swaps tried {theirs['items']})"))
    print(row("ours", mine, cpu, wall))
    print("\n".join(floor_rows(inst, mine, their_scores)))
    better = [a <= b + 1e-9 * max(1.0, b) for a, b in zip(
        (mine.players, mine.numbers, mine.tables),
        (their_scores.players, their_scores.numbers, their_scores.tables), strict=True)]
    worse = [name for name, ok in zip(("players", "numbers", "tables"), better, strict=True)
             if not ok]
    verdict = "yes" if not worse else "NO: " + ", ".join(worse)
    print(f"  ours at least as good on every score: {verdict}; the sum "
          f"{mine.total / their_scores.total:.3f} of the platform's", flush=True)
    return not worse


def random_layout(rng: random.Random, players: int, tables: int, rounds: int) -> Layout:
    """Any seating: each round's tables filled from a shuffle (a short last round)."""
    layout = []
    for r in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        count = tables if r < rounds - 1 or rng.random() < 0.7 else rng.randint(1, tables)
        layout.append([order[t * 10:(t + 1) * 10] for t in range(count)])
    return layout


def record(path: Path, platform_dir: Path) -> None:
    """Score random seatings of many shapes with the platform's PHP; write them with the
    scores, for the tests."""
    from bench.seating_platform import platform

    rng = random.Random(29)
    cases = []
    shapes = [(10, 1, 5, []), (11, 1, 10, [(0, 1)]), (12, 1, 3, [(0, 1), (1, 2)]),
              (20, 2, 10, []), (30, 3, 10, []), (30, 3, 7, [(3, 4), (4, 9), (3, 9)]),
              (35, 3, 4, [(0, 34)]), (40, 4, 10, apart_pairs(40, 20)), (50, 5, 8, []),
              (24, 2, 5, [(0, k) for k in range(1, 24)])]  # 0 kept apart from everyone
    with platform(platform_dir) as php:
        for players, tables, games, apart in shapes:
            defn = Definition(players, tables, games, [list(p) for p in apart])
            layouts: list[Layout] = [random_layout(rng, players, tables, games)
                                     for _ in range(3)]
            try:
                inst = instance(players, games, tables, [] if players < 12 else apart)
                layouts.append(plan.make(inst, 1, 0.2).layout)
            except ValueError:
                pass  # a shape that cannot be seated (e.g. kept apart from everyone)
            for layout, scores in zip(layouts, php.score(defn, layouts), strict=True):
                cases.append({"players": players, "tables": tables, "games": games,
                              "apart": [list(p) for p in apart], "layout": layout,
                              "scores": [scores.players, scores.numbers, scores.tables]})
    path.write_text(json.dumps({"from": "the platform's include/seating.php under php-cli, "
                                        "by python -m bench.seating --record",
                                "cases": cases}, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases written to {path}")


def calibrate() -> None:
    """The step costs of hall/seating/plan.py, measured here (process time, one core)."""
    import numpy as np

    from hall.seating import cyclic, groups, labels
    from hall.seating.split import split

    print(f"load average {os.getloadavg()[0]:.2f}")
    for players, games, pairs in ((20, 10, 0), (50, 8, 0), (100, 10, 0), (200, 10, 0),
                                  (120, 12, 30)):
        inst = instance(players, games, apart=apart_pairs(players, pairs))
        rng = np.random.default_rng(1)
        start = groups.random_start(inst, split(inst), rng)
        began = time.process_time()
        _, progress = groups.search(inst, start, rng, 3000)
        per_round = (time.process_time() - began) / progress.steps * 1e6
        began = time.process_time()
        labels.renumber(inst, start, rng, 5)
        relabel = (time.process_time() - began) / 5 / len(inst.round_tables()) * 1e6
        model = (plan.ROUND_US[0] + plan.ROUND_US[1] * (10 * inst.tables) ** 2) * (
            plan.APART_FACTOR if pairs else 1)
        print(f"{players} x {games}, {pairs} apart: a round scored {per_round:.0f} us "
              f"(plan.py counts {model:.0f}); a round renumbered {relabel:.0f} us (counts "
              f"{plan.RELABEL_ROUND_US[0] + plan.RELABEL_ROUND_US[1] * inst.tables ** 3:.0f})")
    for players, games in ((30, 10), (50, 8), (100, 10), (200, 12)):
        inst = instance(players, games)
        rng = np.random.default_rng(1)
        design = cyclic.Design(inst, cyclic.blocks(inst, rng), rng)
        began = time.process_time()
        steps = cyclic.tabu(design, rng, 2000)
        per_step = (time.process_time() - began) / steps * 1e6
        rounds = len(inst.round_tables())
        model = plan.CYCLIC_STEP_US[0] + plan.CYCLIC_STEP_US[1] * rounds ** 2 * inst.tables
        print(f"{players} x {games}: a cyclic step {per_step:.0f} us (plan.py counts "
              f"{model:.0f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--platform", type=Path, metavar="DIR",
                        help="a snapshot of szotin/mafiaratings (checkout or git directory)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=list(SEEDS), metavar="SEED")
    parser.add_argument("--instances", nargs="+", metavar="PxG", type=_shape,
                        help="only these of the instances, players x games (e.g. 50x8)")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="write score vectors from the platform's PHP (needs --platform)")
    parser.add_argument("--calibrate", action="store_true", help="measure the step costs")
    args = quick.arguments(parser, {"seconds": QUICK_SECONDS, "seeds": [1]}, argv)  # and two
    # small instances
    if args.calibrate:
        calibrate()
        return 0
    if args.record:
        if args.platform is None:
            parser.error("--record needs --platform")
        record(args.record, args.platform)
        return 0
    seeds = tuple(args.seeds)
    if args.quick:  # a smoke run: the figures are too small to hold anyone to
        compare(QUICK, args.seconds, seeds, args.platform)
        return 0
    chosen = tuple(i for i in INSTANCES if args.instances is None or i[:2] in args.instances)
    if not chosen:
        parser.error(f"--instances: none of {', '.join(f'{p}x{g}' for p, g, _ in INSTANCES)}")
    return 0 if compare(chosen, args.seconds, seeds, args.platform) else 1


def _shape(text: str) -> tuple[int, int]:
    """``50x8`` as (50, 8)."""
    players, _, games = text.lower().partition("x")
    if not (players.isdigit() and games.isdigit()):
        raise argparse.ArgumentTypeError(f"'{text}' is not players x games, as 50x8")
    return int(players), int(games)


if __name__ == "__main__":
    sys.exit(main())
