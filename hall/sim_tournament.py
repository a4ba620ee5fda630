"""A whole tournament on a simulated hall, by itself: the organiser's flow on the board and a
scripted judge at every table (``python -m hall.sim_tournament 3``, ``scripts/run-hall.sh 3
--tournament``; docs/tournament.md).

The organiser is a client of the board's own tournament API (``/api/tournament``, behind its
login, with its ``Origin``: what the tournament page sends over its live channel): make the
tournament, seat its main stage with the generator, send each round, wait for every game of
it, and seed the final from the main stage's standings. At each table of a round a scripted
judge plays a whole FIIM game on the table's own broker (``examples/fiim_game.py --pace 0``:
the table's speed), names the players by the round's seating and sends the record to the hall
as the judge's panel does (``judge.record.feed``), through the table's bridge. Nothing here
imports the example: it runs as a program, as a judge's panel would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from hall import sim
from hall.sim import REPO, SimulatedHall, password

SCRIPTED_JUDGE = REPO / "examples" / "fiim_game.py"
#: how often a scripted speaker nominates: about one nominee a day, so a day's vote takes one
#: window of the table (2.5 s of the example table's) rather than five or six
NOMINATE = 0.15


class Organiser:
    """The board's tournament API as the organiser's page uses it, logged in."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.http.addheaders = [("Origin", self.url)]
        login = urllib.request.Request(f"{self.url}/login", method="POST",
                                       data=f"password={password('board')}".encode())
        with self.http.open(login) as answer:  # redirected to the board once logged in
            answer.read()

    def view(self) -> dict[str, Any]:
        with self.http.open(f"{self.url}/api/tournament") as answer:
            view: dict[str, Any] = json.load(answer)
        return view

    def act(self, **message: Any) -> dict[str, Any]:
        """One action; a refusal is an error naming the reason."""
        request = urllib.request.Request(f"{self.url}/api/tournament", method="POST",
                                         data=json.dumps(message).encode(),
                                         headers={"Content-Type": "application/json"})
        with self.http.open(request) as answer:
            said: dict[str, Any] = json.load(answer)
        if said["type"] != "done":
            raise RuntimeError(f"{message['action']}: {said['message']}")
        return said

    def wait(self, done: Callable[[dict[str, Any]], bool], what: str,
             timeout: float = 120.0) -> dict[str, Any]:
        """The view once ``done(view)`` holds (looked at every 0.1 s, up to ``timeout``)."""
        deadline = time.monotonic() + timeout
        while not done(view := self.view()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the board did not show {what} within {timeout:g} s")
            time.sleep(0.1)
        return view

    def round_over(self, number: int) -> Callable[[dict[str, Any]], bool]:
        return lambda view: any(r["number"] == number and all(t["done"] for t in r["tables"])
                                for r in view.get("rounds", []))


class Tournament:
    """The steps of a whole tournament on ``hall`` (its board at ``url``), each one a method
    so a test can look at the pages between them."""

    def __init__(self, hall: SimulatedHall, url: str, *, say: Callable[[str], None] = print):
        self.hall, self.say = hall, say
        self.organiser = Organiser(url)

    def create(self, players: int, games: int, seed: int = 1, seconds: float = 1.0) -> None:
        names = "\n".join(f"Player {n}" for n in range(1, players + 1))
        self.organiser.act(action="create_tournament", name="Simulated tournament",
                           players=names, games=games, tables=len(self.hall.tables),
                           scoring="fiim")
        self.organiser.act(action="generate_seating", seed=seed, seconds=seconds)
        view = self.organiser.wait(lambda v: not v["working"] and bool(v.get("rounds")),
                                   "the seating")
        self.say(f"tournament made and seated: rounds {[r['number'] for r in view['rounds']]}")

    def rounds(self, stage: str = "main") -> list[int]:
        return [r["number"] for r in self.organiser.view()["rounds"] if r["stage"] == stage]

    def send(self, number: int) -> list[subprocess.Popen[bytes]]:
        """Round ``number`` to its tables, and a scripted judge started at each."""
        self.organiser.act(action="send_tournament_round", round=number)
        tables = next(r["tables"] for r in self.organiser.view()["rounds"]
                      if r["number"] == number)
        return [self.judge(t["table"], seed=number * 100 + k) for k, t in enumerate(tables)]

    def judge(self, table: str, seed: int) -> subprocess.Popen[bytes]:
        at = self.hall.tables[table]
        log = (at.state_dir / "judge.log").open("ab")
        return subprocess.Popen(
            [sys.executable, str(SCRIPTED_JUDGE), "--broker", f"127.0.0.1:{at.broker.port}",
             "--table", table, "--seed", str(seed), "--pace", "0", "--nominate",
             str(NOMINATE), "--seating",
             "--publish", str(at.state_dir / "judge-feed.db")],
            stdout=log, stderr=subprocess.STDOUT, cwd=REPO)

    def finish(self, number: int, judges: list[subprocess.Popen[bytes]]) -> None:
        """Every judge of round ``number`` done, and every game of it on the board."""
        for judge in judges:
            if judge.wait(timeout=300) != 0:
                raise RuntimeError(f"a scripted judge of round {number} failed (exit "
                                   f"{judge.returncode}): see the tables' judge.log")
        self.organiser.wait(self.organiser.round_over(number), f"round {number}'s games")
        self.say(f"round {number}: every game in")

    def play(self, number: int) -> None:
        self.finish(number, self.send(number))

    def seed_final(self, rounds: int, seed: int = 1, seconds: float = 1.0) -> list[int]:
        self.organiser.act(action="seed_final", finalists=10, rounds=rounds, table="table-1",
                           seed=seed, seconds=seconds)
        self.organiser.wait(lambda v: not v["working"] and self._has_final(v), "the final")
        final = self.rounds("final")
        self.say(f"the final seated: rounds {final}")
        return final

    @staticmethod
    def _has_final(view: dict[str, Any]) -> bool:
        return any(r["stage"] == "final" for r in view.get("rounds", []))

    def standings(self) -> dict[str, Any]:
        standings: dict[str, Any] = self.organiser.view()["standings"]
        return standings


def main(argv: list[str] | None = None) -> int:
    parsing = sim.parser("python -m hall.sim_tournament", "Run N simulated tables, the hall "
                         "broker and the board, and play a whole tournament on them by itself.")
    parsing.add_argument("--players", type=int, default=None,
                         help="the tournament's players (default: 10 a table)")
    parsing.add_argument("--rounds", type=int, default=3,
                         help="the tournament's main rounds: each player's games (default 3)")
    parsing.add_argument("--final", type=int, default=0, metavar="ROUNDS",
                         help="then a final of the best 10 at table-1 (default: none)")
    parsing.add_argument("--once", action="store_true",
                         help="stop when the tournament is over (else: until Ctrl-C)")
    args = parsing.parse_args(argv)
    if not 1 <= args.tables <= 50:
        parsing.error("tables: give a number from 1 to 50")
    players = args.players or 10 * args.tables
    if not 10 <= players <= 10 * args.tables:
        parsing.error(f"--players: 10 to {10 * args.tables} for {args.tables} tables")

    def play(hall: SimulatedHall, url: str) -> bool:
        started = time.monotonic()
        run(hall, url, players, args.rounds, args.final)
        print(f"the tournament is over ({time.monotonic() - started:.0f} s): its pages at "
              f"{url}/tournament and {url}/standings", flush=True)
        return bool(args.once)

    with tempfile.TemporaryDirectory(prefix="mafia-hall-") as root:
        return sim.run(SimulatedHall(Path(root), args.tables, hall_port=args.hall_port),
                       args.board_port, play)


def run(hall: SimulatedHall, url: str, players: int, games: int, final_rounds: int,
        say: Callable[[str], None] = print) -> dict[str, Any]:
    """The whole tournament, start to end; its standings."""
    tournament = Tournament(hall, url, say=say)
    tournament.create(players, games)
    for number in tournament.rounds():
        tournament.play(number)
    if final_rounds:
        for number in tournament.seed_final(final_rounds):
            tournament.play(number)
    standings = tournament.standings()
    for row in standings["overall"]["rows"][:10]:
        say(f"{row['place']:3}. {row['player']:<12} {row['total']:6.2f}  ({row['games']} games)")
    return standings


__all__ = ["Organiser", "Tournament", "main", "run"]


if __name__ == "__main__":
    sys.exit(main())
