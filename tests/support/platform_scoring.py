"""The rating platform's own standings of our games, as vectors its code computed
(tests/data/platform_scoring/vectors.json), and how they are made.

The games: three tournaments of whole random FIIM games (``tests.support.mafiaratings_games``:
fouls to the fourth, the judge's disqualifications, misses, best moves), their players named by
a random seating, some with the judge's extra points, each player with an id on the platform:
20 players over 4 main rounds of 2 tables and a final of 2 rounds at one table, 10 players over
6 rounds at one table (the same players shot first again and again: the Ci), 30 players over 3
rounds of 3 tables. Each record is kept (without its log lines, which no score reads) with the
platform's game JSON our export makes of it (``results.mafiaratings``, with the players' ids).

The platform's side: ``record(snapshot)`` runs the platform's own PHP under Debian's php-cli on
those game JSONs: its ``GamePlayersStats`` (include/game_players_stats.php) makes each player's
scoring flags, ``add_player_counters``, ``add_player_score`` and ``compare_scores``
(include/scoring.php) score and order them by scoring 19 version 7 as its source ships it
(db/alter153.sql), the expressions by its evaluator (include/evaluator.php). Only the database
is stood in for (tests/support/platform_scoring_php/run.php: the SQL of ``_tournament_scores``
and ``_event_scores`` as loops). Run again after a change of the snapshot or of the games::

    .venv/bin/python -m tests.support.platform_scoring --record \\
        /work/.mirror/szotin+mafiaratings/repo

(the snapshot: a bare git directory or a checkout of github.com/szotin/mafiaratings).
tests/results/test_platform_scoring.py reads the vectors; it needs neither PHP nor the snapshot.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from results import mafiaratings
from results.record import ExtraPoints, Record
from tests.support.mafiaratings_games import random_game
from tests.support.platform_source import read_source
from tests.support.record_game import built

VECTORS = Path(__file__).resolve().parent.parent / "data" / "platform_scoring" / "vectors.json"
STANDINS = Path(__file__).resolve().parent / "platform_scoring_php"
#: the scoring and its version the vectors are of, and where the platform's source has it
SCORING, VERSION, SOURCE = 19, 7, "db/alter153.sql"
#: the platform's files the scoring runs, read from the snapshot unchanged
REAL = ("include/constants.php", "include/utilities.php", "include/evaluator.php",
        "include/scoring.php", "include/game_players_stats.php", "include/game.php",
        "include/rules.php")
#: its files required but never called while scoring: stood in for (standins.php)
STOOD_IN = ("include/db.php", "include/names.php", "include/error.php",
            "include/localization.php", "include/datetime.php", "include/event.php",
            "include/game_ratings.php")
#: the one warning PHP 8 gives on the platform's scoring.php (compare_scores' "continue" in a
#: switch, which PHP runs as "break": the platform runs it so too); any other stops the record
KNOWN = '"continue" targeting switch is equivalent to "break"'
#: every extra point a judge gives here: tenths, as the panel's form takes them
EXTRA = (-0.5, -0.3, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7)


@dataclass
class Tournament:
    """Players (name -> platform id) and rounds (number, stage, records), made from a seed."""

    ids: dict[str, int]
    rounds: list[tuple[int, str, list[Record]]] = field(default_factory=list)


def finished_game(rng: random.Random, table: str, game_id: str) -> Record:
    """A random whole FIIM game that ended with a winner."""
    while True:
        record = built(random_game(rng, disqualify_rate=0.002))
        if record.status == "finished" and record.winner in ("red", "black"):
            return msgspec.structs.replace(record, id=game_id, table=table, log=[])


def seated(rng: random.Random, record: Record, names: list[str]) -> Record:
    """``record`` with its seats named ``names`` (seat 1 first), and the judge's extra points
    for some of them (in three games of ten)."""
    players = [msgspec.structs.replace(p, name=names[p.seat - 1]) for p in record.players]
    extra = []
    if rng.random() < 0.3:
        at = record.ended or record.created
        extra = [ExtraPoints(seat=seat, points=rng.choice(EXTRA), reason="the judge's view",
                             by="judge", at=at) for seat in rng.sample(range(1, 11), 2)]
    return msgspec.structs.replace(record, players=players, extra_points=extra)


def tournaments() -> list[Tournament]:
    """The three tournaments of the module's text, the same on every run."""
    rng = random.Random(39)
    made: list[Tournament] = []
    # (players, main rounds, tables a round, final rounds at one table)
    for players, rounds, tables, final in ((20, 4, 2, 2), (10, 6, 1, 0), (30, 3, 3, 0)):
        names = [f"Игрок {n}" for n in range(1, players + 1)]
        ids = dict(zip(names, rng.sample(range(100, 99_999), players), strict=True))
        t = Tournament(ids)
        plan = [("main", tables)] * rounds + [("final", 1)] * final
        for number, (stage, at) in enumerate(plan, start=1):
            pool = names[:10] if stage == "final" else rng.sample(names, len(names))
            records = []
            for k in range(at):
                table = f"table-{k + 1}"
                game = finished_game(rng, table, f"t{len(made) + 1}-r{number}-{table}")
                records.append(seated(rng, game, pool[10 * k:10 * k + 10]))
            t.rounds.append((number, stage, records))
        made.append(t)
    return made


def platform_game(record: Record, ids: dict[str, int], game_id: int, end: int) -> dict[str, Any]:
    """The platform's game JSON our export makes of ``record``, with the players' ids, the
    game's id and its end (the order the platform scores games in)."""
    game = msgspec.to_builtins(mafiaratings.export(record))
    for player in game["players"]:
        player["id"] = ids[player["name"]]
    game["id"], game["endTime"] = game_id, end
    return game


def platform_games(t: Tournament) -> list[dict[str, Any]]:
    """The tournament as run.php reads it: each round an event of its stage's group."""
    events, game_id = [], 0
    for number, stage, records in t.rounds:
        games = []
        for record in records:
            game_id += 1
            games.append(platform_game(record, t.ids, game_id, 1_764_000_000 + 3600 * game_id))
        events.append({"id": number, "group": stage, "games": games})
    return events


def scoring_json(snapshot: Path) -> dict[str, Any]:
    """Scoring 19 version 7 as the platform's source ships it (an SQL string: unescaped)."""
    text = read_source(snapshot, SOURCE).decode()
    found = re.search(r"SET `scoring` = '((?:[^'\\]|\\.)*)' WHERE `scoring_id` = "
                      rf"{SCORING} AND `version` = {VERSION};", text)
    if found is None:
        raise SystemExit(f"{SOURCE}: no scoring {SCORING} version {VERSION}")
    return json.loads(re.sub(r"\\(.)", r"\1", found.group(1)))  # MySQL: \" is ", \/ is /


def run_platform(snapshot: Path, scoring: dict[str, Any],
                 events: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    if shutil.which("php") is None:
        raise SystemExit("php is not installed (Debian: apt install php-cli)")
    with tempfile.TemporaryDirectory(prefix="mafiaratings-scoring-") as tmp:
        folder = Path(tmp)
        (folder / "include").mkdir()
        for name in REAL:
            (folder / name).write_bytes(read_source(snapshot, name))
        for name in STOOD_IN:
            shutil.copy(STANDINS / "standins.php", folder / name)
        shutil.copy(STANDINS / "run.php", folder / "run.php")
        done = subprocess.run(["php", "-d", "display_errors=stderr", "run.php"], cwd=folder,
                              input=json.dumps({"scoring": scoring, "tournaments": [
                                  {"events": e} for e in events]}),
                              capture_output=True, text=True, check=False)
    said = [line for line in done.stderr.splitlines() if line.strip() and KNOWN not in line]
    if done.returncode != 0 or said:
        raise SystemExit(f"php: exit {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def record(snapshot: Path, path: Path = VECTORS) -> None:
    made = tournaments()
    events = [platform_games(t) for t in made]
    scoring = scoring_json(snapshot)
    standings = run_platform(snapshot, scoring, events)
    commit = subprocess.run(["git", "--git-dir", str(snapshot), "rev-parse", "HEAD"],
                            capture_output=True, text=True, check=False).stdout.strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "made_by": "python -m tests.support.platform_scoring --record SNAPSHOT "
                   "(tests/support/platform_scoring.py)",
        "platform": {"repository": "github.com/szotin/mafiaratings", "commit": commit,
                     "files": [*REAL, SOURCE], "scoring": SCORING, "version": VERSION},
        "scoring": scoring,
        "tournaments": [{
            "ids": t.ids,
            "rounds": [{"number": n, "stage": s,
                        "records": [msgspec.to_builtins(r) for r in records]}
                       for n, s, records in t.rounds],
            "games": e, "standings": st} for t, e, st in zip(made, events, standings,
                                                             strict=True)],
    }, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", type=Path, metavar="SNAPSHOT", required=True,
                        help="szotin/mafiaratings: a bare git directory or a checkout")
    record(parser.parse_args().record)
    print(f"written {VECTORS}")


if __name__ == "__main__":
    main()
