"""A stand-in for the rules core: a whole 10-seat FIIM game played over the MQTT API alone.

It is what a rules core does with the table, in the smallest honest form: it deals roles, runs
the first night (the mafia meet, FIIM 4.5.1), gives each player the floor (``cmd/timer/start``)
and lets them nominate on their keypads, starts the day votes and has the judge confirm each
count on the station's Confirm button, re-votes a tie and then asks whether all the tied players
leave (4.4.12), and at night opens the mafia's shot, the Don's and the Sheriff's checks and the
best move (4.5) as night steps, until one side wins. Its ten players are scripted: they type on
the simulated keypads (``sim/key``) and press the simulated vote buttons (``sim/press``), so a
table started with ``--sim`` is all it needs:

    scripts/run-sim.sh                         # in one terminal
    .venv/bin/python examples/fiim_game.py     # in another; --help for the options

The players decide with a seeded random generator (``--seed``): the same seed plays the same game.
On day 1 the table always splits evenly between the first two nominees, so every game shows the
re-vote and the question. ``--report FILE`` writes what the players pressed and how the game
went, as JSON (the end-to-end test checks the table's events against it).

Only paho-mqtt and the standard library: copy it as the start of a real rules core.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

SEATS = range(1, 11)
MAFIA, DON, SHERIFF, CIVILIAN = "mafia", "don", "sheriff", "civilian"
YES, NO = 1, 2  # private indicator patterns for a check's answer: steady, blinking


class GameError(Exception):
    """The table refused a command or did not answer in time."""


@dataclass
class Message:
    index: int
    topic: str  # below mafia/<table>/
    body: dict[str, Any]


class Table:
    """The MQTT side: commands with their replies, and everything the table says, in order."""

    def __init__(self, host: str, port: int, table: str, timeout: float = 10.0):
        self.prefix = f"mafia/{table}/"
        self.timeout = timeout
        self.inbox: list[Message] = []
        self._arrived = threading.Condition()
        self._ids = itertools.count(1)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"fiim-game-{table}",
                                  protocol=mqtt.MQTTv5)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.connect(host, port, keepalive=15)
        self.client.loop_start()

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        client.subscribe(self.prefix + "#", qos=1)

    def _on_message(self, client, userdata, message) -> None:
        try:
            body = json.loads(message.payload)
        except ValueError:
            return  # nothing a rules core can use
        with self._arrived:
            self.inbox.append(Message(len(self.inbox), message.topic.removeprefix(self.prefix),
                                      body))
            self._arrived.notify_all()

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def mark(self) -> int:
        """Where the inbox is now: ``wait`` from here sees only what comes after."""
        with self._arrived:
            return len(self.inbox)

    def wait(self, match: Callable[[Message], bool], since: int = 0,
             timeout: float | None = None) -> Message:
        """The first message from ``since`` on that matches, waiting for it if need be."""
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._arrived:
            while True:
                for message in self.inbox[since:]:
                    if match(message):
                        return message
                since = len(self.inbox)
                left = deadline - time.monotonic()
                if left <= 0 or not self._arrived.wait(left):
                    raise GameError(f"the table did not say what was awaited in time "
                                    f"({timeout or self.timeout} s)")

    def command(self, verb: str, **fields: Any) -> str:
        """``cmd/<verb>``, then its reply (on ``reply/`` or, for night commands,
        ``private/reply/``); a refusal is a ``GameError``. Returns the command's id."""
        id = f"g{next(self._ids)}"
        since = self.mark()
        self.client.publish(f"{self.prefix}cmd/{verb}", json.dumps({"id": id, **fields}), qos=1)
        reply = self.wait(lambda m: m.topic in (f"reply/{verb}", f"private/reply/{verb}")
                          and m.body.get("id") == id, since)
        if not reply.body["ok"]:
            raise GameError(f"cmd/{verb} {fields}: {reply.body['error']}")
        return id

    def hand(self, verb: str, **fields: Any) -> None:
        """A scripted hand on the simulated table: ``sim/press``, ``sim/release``, ``sim/key``."""
        self.command(f"sim/{verb}", **fields)

    def tap(self, **button: Any) -> None:
        self.hand("press", **button)
        self.hand("release", **button)


def event(topic: str, **fields: Any) -> Callable[[Message], bool]:
    return lambda m: m.topic == topic and all(m.body.get(k) == v for k, v in fields.items())


@dataclass
class Players:
    """The ten scripted players: who they are and what they choose."""

    rng: random.Random
    roles: dict[int, str]
    sheriff_knows: dict[int, bool] = field(default_factory=dict)  # seat -> is mafia
    don_checked: set[int] = field(default_factory=set)

    @classmethod
    def deal(cls, rng: random.Random) -> Players:
        seats = list(SEATS)
        rng.shuffle(seats)
        roles = {seat: CIVILIAN for seat in SEATS}
        roles[seats[0]], roles[seats[1]], roles[seats[2]], roles[seats[3]] = \
            DON, MAFIA, MAFIA, SHERIFF
        return cls(rng, roles)

    def black(self, seat: int) -> bool:
        return self.roles[seat] in (MAFIA, DON)

    def nominee(self, speaker: int, alive: list[int], nominees: list[int]) -> int | None:
        """Whom a speaker nominates, or None: the Sheriff a mafia they found, the mafia a
        townsperson, a townsperson someone now and then."""
        others = [s for s in alive if s != speaker and s not in nominees]
        found = [s for s in others if self.sheriff_knows.get(s)]
        if self.roles[speaker] == SHERIFF and found:
            return found[0]
        if self.black(speaker):
            others = [s for s in others if not self.black(s)]
        if not others or self.rng.random() < 0.5:
            return None
        return self.rng.choice(others)

    def ballot(self, voter: int, candidates: list[int]) -> int | None:
        """Whom a voter puts a fist up for, or None (their vote then goes to the last)."""
        found = [c for c in candidates if self.sheriff_knows.get(c)]
        if self.roles[voter] == SHERIFF and found:
            return found[0]
        if self.black(voter):
            town = [c for c in candidates if not self.black(c)]
            return self.rng.choice(town) if town else candidates[-1]
        return None if self.rng.random() < 0.15 else self.rng.choice(candidates)

    def split(self, voters: list[int], candidates: list[int]) -> dict[int, int | None]:
        """Day 1: the table splits evenly between the first two candidates."""
        shuffled = list(voters)
        self.rng.shuffle(shuffled)
        half = len(shuffled) // 2
        return {v: candidates[0] if i < half else candidates[1] for i, v in enumerate(shuffled)}

    def target(self, alive: list[int]) -> int:
        """The Don's choice for the shot: the Sheriff once found, else a townsperson."""
        town = [s for s in alive if not self.black(s)]
        found = [s for s in town if self.roles[s] == SHERIFF and s in self.don_checked]
        return found[0] if found else self.rng.choice(town)

    def check(self, checker: int, alive: list[int], known: set[int]) -> int:
        choices = [s for s in alive if s != checker and s not in known
                   and not (self.black(checker) and self.black(s))]
        return self.rng.choice(choices or [s for s in alive if s != checker])


@dataclass
class Game:
    """The rules core's side of one game: whose turn, who is in, who wins."""

    table: Table
    players: Players
    pace: float  # 1.0: players take their time; 0: as fast as the table allows
    alive: list[int] = field(default_factory=lambda: list(SEATS))
    day: int = 0
    first_day: int = 1
    opener: int = 0  # who spoke first yesterday (FIIM 4.3.2)
    shooting_nights: int = 0
    judge_rejected: bool = False
    report: dict[str, Any] = field(default_factory=lambda: {"votes": [], "log": []})

    def say(self, line: str) -> None:
        self.report["log"].append(line)
        print(line, flush=True)

    def pause(self, seconds: float) -> None:
        time.sleep(seconds * self.pace)

    def winner(self) -> str | None:
        black = sum(self.players.black(s) for s in self.alive)
        if black == 0:
            return "town"
        return "mafia" if black >= len(self.alive) - black else None

    # ------------------------------------------------------------------ the whole game

    def play(self) -> str:
        self.prepare()
        self.say("roles: " + ", ".join(f"{s} {r}" for s, r in sorted(self.players.roles.items())
                                       if r != CIVILIAN))
        self.night(first=True)
        while True:
            self.day += 1
            self.daytime()
            if winner := self.winner():
                break
            self.night(first=False)
            if winner := self.winner():
                break
        self.say(f"the {winner} wins, alive: {self.alive}")
        self.report.update(winner=winner, alive=self.alive, roles=self.players.roles)
        return winner

    def prepare(self) -> None:
        """A fresh table: whatever a previous game left running is ended, every seat is in."""
        status = self.table.wait(event("status", state="online"))
        state = self.table.wait(lambda m: m.topic == "state").body
        self.say(f"table online (controller {status.body['version']})")
        if state["vote"] is not None:
            self.table.command("vote/cancel")
        if state["timer"] is not None:
            self.table.command("timer/stop")
        if state["phase"] == "night":
            with contextlib.suppress(GameError):  # a step left running ends now, if there is one
                self.table.command("night/stop")
            self.table.command("phase", phase="day")
        self.first_day = state["day"] + 1
        self.table.command("seats", seats=[
            {"seat": s, "in_game": True, "fouls": 0, "silenced": False, "immune": False}
            for s in SEATS])

    def out(self, seats: list[int], why: str) -> None:
        self.alive = [s for s in self.alive if s not in seats]
        self.table.command("seats", seats=[{"seat": s, "in_game": False} for s in seats])
        self.say(f"  {', '.join(map(str, seats))} {why}")

    def speech(self, seat: int, kind: str, seconds: float) -> None:
        self.table.command("timer/start", seat=seat, seconds=seconds, kind=kind)
        self.pause(1.0)
        self.table.command("timer/stop")

    # ------------------------------------------------------------------ day

    def daytime(self) -> None:
        day = self.first_day + self.day - 1
        self.say(f"day {self.day}")
        self.table.command("day/start", day=day)
        # 4.3.2: day 1 opens with seat 1, each next day with the next seat after yesterday's
        # opener (the next one in the game)
        self.opener = next(s for k in range(1, 11) if (s := (self.opener + k - 1) % 10 + 1)
                           in self.alive)
        start = self.alive.index(self.opener)
        nominees: list[int] = []
        for speaker in self.alive[start:] + self.alive[:start]:
            since = self.table.mark()
            self.table.command("timer/start", seat=speaker, seconds=60, kind="speech")
            choice = self.players.nominee(speaker, self.alive, nominees)
            if choice is None and self.day == 1 and len(nominees) < 2:
                choice = next(s for s in self.alive if s != speaker and s not in nominees)
            if choice is not None:
                self.table.hand("key", seat=speaker, keys=f"{choice}#")
                said = self.table.wait(event("event/nomination", by=speaker), since)
                nominees = said.body["nominees"]
                self.say(f"  {speaker} nominates {choice}: {said.body['outcome']}")
            self.pause(1.0)
            self.table.command("timer/stop")
        self.vote_out(day, nominees)

    def vote_out(self, day: int, nominees: list[int]) -> None:
        """The day's vote, with its re-vote and question (FIIM 4.4.4-4.4.12)."""
        if not nominees:
            self.say("  nobody is nominated: no vote")
            return
        voters = list(self.alive)
        split = self.day == 1 and len(nominees) >= 2
        ballots = self.players.split(voters, nominees) if split else \
            {v: self.players.ballot(v, nominees) for v in voters}
        result = self.vote("vote/start", ballots, nominees=nominees, voters=voters, day=day)
        if result["outcome"] == "no_vote":
            self.say("  one nominee on day 1: no vote (4.4.10)")
            return
        if result["outcome"] == "tie":
            tied = result["tied"]
            self.say(f"  tie between {tied}: they speak again, then a re-vote")
            for seat in tied:
                self.speech(seat, "excuse", 30)
            ballots = {v: ballots[v] if ballots[v] in tied else self.players.ballot(v, tied)
                       for v in voters} if split else \
                {v: self.players.ballot(v, tied) for v in voters}
            result = self.vote("vote/start", ballots, nominees=tied, voters=voters, day=day)
            if result["outcome"] == "tie":
                self.say("  a tie again: shall they all leave? (4.4.12.3)")
                yes = {v: 0 if self.players.rng.random() < 0.6 else None for v in voters}
                result = self.vote("vote/question", yes, subjects=tied, voters=voters)
                if result["outcome"] == "yes":
                    self.out(tied, f"leave by {result['yes_count']} of "
                                   f"{result['voters_count']} (4.4.12.3)")
                    return
                self.say(f"  all stay: {result['yes_count']} of {result['voters_count']} "
                         "said yes")
                return
        leaving = result["eliminated"]
        self.speech(leaving, "last_words", 60)
        self.out([leaving], f"is voted out ({result['counts']})")

    def vote(self, verb: str, ballots: dict[int, int | None], **start: Any) -> dict[str, Any]:
        """One vote: each player puts a fist up in the window of their candidate, the judge
        confirms every count (and, once a game, rejects one first to recount it)."""
        since = self.table.mark()
        session = self.table.command(verb, **start)
        mine = lambda m: m.topic.startswith("event/vote/") and m.body.get("session") == session  # noqa: E731
        while True:
            message = self.table.wait(mine, since, timeout=60)
            since = message.index + 1
            body = message.body
            if message.topic == "event/vote/window" and body["state"] == "opened":
                fists = [v for v, c in ballots.items() if c == body["candidate"]]
                for voter in fists:
                    self.table.hand("press", seat=voter)
                for voter in fists:
                    self.table.hand("release", seat=voter)
                self.report["votes"].append({"session": session, "candidate": body["candidate"],
                                             "attempt": body["attempt"], "pressed": fists})
            elif message.topic == "event/vote/proposed":
                self.pause(0.5)
                button = "confirm" if self.judge_rejected else "reject"
                self.judge_rejected = True
                self.table.tap(judge=button)
            elif message.topic == "event/vote/result":
                return body

    # ------------------------------------------------------------------ night

    def night(self, *, first: bool) -> None:
        self.table.command("phase", phase="night")
        if first:
            self.say("night 0: the mafia meet, the Sheriff looks at the town (4.5.1)")
            self.pause(3.0)
            self.table.command("phase", phase="day")
            return
        self.shooting_nights += 1
        n = self.shooting_nights
        self.say(f"night {n}")
        players, alive = self.players, self.alive
        black = [s for s in alive if players.black(s)]
        aim = players.target(alive)
        aims = {s: aim for s in black}
        if n == 2 and len(black) > 1:  # once a game the mafia disagree: a miss (4.5.5)
            aims[black[-1]] = players.rng.choice([s for s in alive if s != aim])
        shot = self.step("mafia_shot", aims)
        hit = all(p["miss"] is None for p in shot["picks"])  # 4.5.4-4.5.5
        victim = shot["picks"][0]["picks"][0] if hit else None
        self.say(f"  the mafia shoot {sorted(set(aims.values()))}: "
                 + (f"{victim} is killed" if victim else "a miss"))
        for role, known in ((DON, players.don_checked), (SHERIFF, players.sheriff_knows)):
            checker = next((s for s in alive if players.roles[s] == role), None)
            if checker is None:
                continue
            checked = players.check(checker, alive, set(known))
            self.step(f"{role}_check", {checker: checked})
            answer = players.roles[checked] == SHERIFF if role == DON else players.black(checked)
            if role == DON:
                players.don_checked.add(checked)
            else:
                players.sheriff_knows[checked] = answer
            self.table.command("night/reveal", seat=checker, pattern=YES if answer else NO)
            self.say(f"  the {role} checks {checked}: {'yes' if answer else 'no'}")
        if victim is not None and n == 1:
            best = players.rng.sample([s for s in alive if s != victim], 3)
            self.step("best_move", {victim: best}, count=3)
            self.say(f"  best move of {victim}: {best} (4.5.9)")
        self.table.command("phase", phase="day")
        if victim is not None:
            self.speech(victim, "last_words", 60)
            self.out([victim], "is killed at night")

    def step(self, name: str, picks: dict[int, int | list[int]], count: int = 1) \
            -> dict[str, Any]:
        """A night step: the actors type their picks, the result comes at its time limit."""
        since = self.table.mark()
        seconds = max(1.0, 10 * self.pace)
        self.table.command("night/step", step=name, actors=list(picks), picks=count,
                           targets="alive", seconds=seconds)
        opened = self.table.wait(event("private/night/step", step=name), since).body
        for actor, chosen in picks.items():
            keys = "".join(f"{s}#" for s in (chosen if isinstance(chosen, list) else [chosen]))
            self.table.hand("key", seat=actor, keys=keys)
        result = self.table.wait(event("private/night/result", night_step=opened["night_step"]),
                                 since, timeout=seconds + 10)
        return result.body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT")
    parser.add_argument("--table", default="table-1", metavar="ID")
    parser.add_argument("--seed", type=int, default=7, help="the same seed plays the same game")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="how long players take (1: at ease, 0: at once)")
    parser.add_argument("--report", metavar="FILE", help="write the game as JSON here")
    args = parser.parse_args(argv)
    host, _, port = args.broker.rpartition(":")
    if not host or not port.isdigit() or args.pace < 0:
        parser.error("--broker takes HOST:PORT and --pace a number >= 0")
    try:
        table = Table(host, int(port), args.table)
    except OSError as exc:
        print(f"fiim_game: no broker at {args.broker}: {exc}", file=sys.stderr)
        return 1
    game = Game(table, Players.deal(random.Random(args.seed)), args.pace)
    try:
        game.play()
    except GameError as exc:
        print(f"fiim_game: {exc}", file=sys.stderr)
        return 1
    finally:
        table.close()
        if args.report:
            with open(args.report, "w", encoding="utf-8") as out:
                json.dump(game.report, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
