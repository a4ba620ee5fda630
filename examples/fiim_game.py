"""A whole 10-seat game of a rule book (FIIM's by default, ``--book``) played over the MQTT
API alone, by a scripted judge and players.

The rules are the judge's panel's game core (``judge/game/``, docs/judge.md): this script taps
as a judge would (deal, start, Next...) and lets the core send the table its commands: the first
night (the mafia meet, 4.2.1), each player's floor (``cmd/timer/start``) with nominations on
their keypads, the day votes (the judge confirms each count on the station's Confirm button),
the re-vote of a tie and the question whether all the tied players leave (4.4.12), and at night
the mafia's shot, the Don's and the Sheriff's checks and the best move (4.5) as night steps,
until one side wins. Its ten players are scripted: they type on
the simulated keypads (``sim/key``) and press the simulated vote buttons (``sim/press``), so a
table started with ``--sim`` is all it needs:

    scripts/run-sim.sh                         # in one terminal
    .venv/bin/python examples/fiim_game.py     # in another; --help for the options

The players decide with a seeded random generator (``--seed``): the same seed plays the same game.
On day 1 the table always splits evenly between the first two nominees, so every game shows the
re-vote and the question. ``--report FILE`` writes what the players pressed and how the game
went, as JSON (the end-to-end test checks the table's events against it); ``--record FILE`` the
game's record (docs/record.md), as the judge's panel keeps it.

At a tournament's table (``python -m hall.sim_tournament 3``, docs/tournament.md):
``--seating`` waits for the hall's seating of the table's round (retained ``seating``) and
names the players by it; ``--publish FILE`` sends the finished game's record to the hall as the
judge's panel does (``judge.record.feed``, its SQLite in ``FILE``: retained, QoS 1, kept until
the broker acknowledges it, with the seating's tournament and round).

Any shipped book plays (``--book crow-club --seed 1 --pace 0``; config/books/): the cards are
its deck for the table's ``--seats``, the night's steps are its own, each actor typing as many
numbers as the step takes, the judge's decisions its vote asks (the classic club's roulette,
the online variant's deciding vote) taken from the engine's offers by their kind, and the game
ends in a win the book allows. FIIM's game is the one described above, seed for seed. The
table must play the book's rule preset (its config's ``rules``, which its ``state`` says): on
a table set for another book the script stops before the deal, saying which line to change,
as the judge's panel does (docs/judge.md, "The book and the table").

For a game run by a person, use the panel instead: ``scripts/run-sim.sh --judge``.
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
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from contract import events
from contract.commands import PhaseCommand, ReplayCommand, SimButtonCommand, SimKeysCommand, encode
from contract.event_seq import missed
from contract.topics import topic_prefix
from contract.verbs import (
    NIGHT_STOP,
    PHASE,
    REPLAY,
    SIM_KEY,
    SIM_PRESS,
    SIM_RELEASE,
    TIMER_STOP,
    UNSTAMPED,
    VOTE_CANCEL,
    TableCommand,
    bare_command,
)
from judge.game import (
    Action,
    Game,
    Refused,
    Rules,
    TableEvent,
    Timings,
    load_rules,
    new_game,
    step,
)
from judge.game.day import rounds
from judge.game.offers import offered
from judge.game.rules import wrong_preset
from judge.game.scripted import CIVILIAN, Players
from judge.panel import table_events
from judge.record import document as record
from judge.record.feed import RecordFeed
from kit import i18n
from kit.config import ConfigError
from results.feed import SeatingMessage

SEATS = range(1, 11)


class GameError(Exception):
    """The table refused a command or did not answer in time."""


@dataclass
class Message:
    index: int
    topic: str  # below mafia/<table>/
    body: dict[str, Any]


#: Seconds without a reply after which a command is sent again, the same bytes (same ``id``):
#: the table runs an ``id`` once and answers a copy with the first one's reply.
RESEND_AFTER = 3.0


class Table:
    """The MQTT side: commands with their replies, and everything the table says, in order.

    It loses nothing (docs/mqtt-api.md, "Losing nothing"): its MQTT 5 session never starts
    clean, so it outlives a dropped connection and a broker restart (mosquitto saves only such
    sessions), and the broker keeps what comes meanwhile; it keeps the last ``seq`` of the
    public and of the private events, and asks for what follows with ``cmd/replay`` when the
    table comes back online, when a ``seq`` jumps and when the broker had lost its session; it
    drops an event it already has by ``id``; a command with no reply within ``RESEND_AFTER``
    seconds is sent again as it was. Command ids start with this run's own prefix: a session
    kept from an earlier run may still deliver that run's replies.
    """

    def __init__(self, host: str, port: int, table: str, timeout: float = 10.0):
        self.prefix = topic_prefix(table)
        self.timeout = timeout
        self.inbox: list[Message] = []
        self._arrived = threading.Condition()
        self._ids = itertools.count(1)
        self._run = uuid.uuid4().hex[:6]  # ids unique across runs (see the class docstring)
        self._connected_before = False
        self.last_seq = {"event/": 0, "private/": 0}  # 0: nothing seen yet
        self._seen: set[str] = set()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"fiim-game-{table}",
                                  protocol=mqtt.MQTTv5)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        session = Properties(PacketTypes.CONNECT)
        session.SessionExpiryInterval = 600  # the broker keeps our messages for 10 min
        # never a clean start, not even the first time: mosquitto saves a session to its
        # database only if its connection began without one
        self.client.connect(host, port, keepalive=15, properties=session, clean_start=False)
        self.client.loop_start()

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        client.subscribe(self.prefix + "#", qos=1)
        if self._connected_before and not flags.session_present:
            for kept, last in self.last_seq.items():  # the broker lost what it queued for us
                if last:
                    self._replay(kept, last)
        self._connected_before = True

    def _on_message(self, client, userdata, message) -> None:
        try:
            body = json.loads(message.payload)
        except ValueError:
            return  # nothing a rules core can use
        topic = message.topic.removeprefix(self.prefix)
        if not self._fresh(topic, body):
            return
        with self._arrived:
            self.inbox.append(Message(len(self.inbox), topic, body))
            self._arrived.notify_all()

    def _fresh(self, topic: str, body: dict[str, Any]) -> bool:
        """Keep the seq up to date and ask for what was missed; False for an event we have."""
        if topic == "status" and body.get("state") == "online":
            for kept, last in self.last_seq.items():
                if last:  # the table came back: whatever it said meanwhile, after our last
                    self._replay(kept, last)
            return True
        journal = next((j for j in self.last_seq if topic.startswith(j)), None)
        if journal is None or "seq" not in body:
            return True
        if body["id"] in self._seen:
            return False  # a replayed or redelivered event we already have
        self._seen.add(body["id"])
        last = self.last_seq[journal]
        if missed(last, body["seq"]):
            self._replay(journal, last)  # a gap: ask for it (it arrives after this one)
        self.last_seq[journal] = max(last, body["seq"])
        return True

    def _replay(self, journal: str, after: int) -> None:
        ask = ReplayCommand(id=f"replay-{journal[:-1]}-{after}", after_seq=after,
                            private=journal == "private/")
        self.client.publish(self.prefix + REPLAY.topic, encode(ask), qos=1)

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

    def command(self, command: TableCommand[Any]) -> str:
        """``cmd/<verb>``, then its reply (on ``reply/`` or, for night commands,
        ``private/reply/``); a refusal is a ``GameError``. Returns the command's id."""
        return self.commands([command])[0]

    def commands(self, each: list[TableCommand[Any]]) -> list[str]:
        """Several commands sent at once, each stamped with its id, then their replies: fists
        raised together land together, however slowly the table answers each. A ``sim/`` verb
        goes on ``cmd/`` too, which the table reads as the same: the rules core's account may
        write ``cmd/#`` only (config/mosquitto/mafia.acl)."""
        since = self.mark()
        ids = [f"{self._run}-g{next(self._ids)}" for _ in each]
        sent = [(f"{self.prefix}cmd/{command.spec.verb}", encode(command.stamped(id)))
                for id, command in zip(ids, each, strict=True)]
        for topic, payload in sent:
            self.client.publish(topic, payload, qos=1)
        for id, command, (topic, payload) in zip(ids, each, sent, strict=True):
            verb = command.spec.verb

            def answers(m: Message, id: str = id, verb: str = verb) -> bool:
                return m.topic in (f"reply/{verb}", f"private/reply/{verb}") \
                    and m.body.get("id") == id

            deadline = time.monotonic() + self.timeout
            while True:
                try:
                    reply = self.wait(answers, since, timeout=min(
                        RESEND_AFTER, max(0.001, deadline - time.monotonic())))
                    break
                except GameError:
                    if time.monotonic() >= deadline:
                        raise
                    self.client.publish(topic, payload, qos=1)  # the same id: run once
            if not reply.body["ok"]:
                raise GameError(f"cmd/{verb} {command.payload}: {reply.body['error']}")
        return ids

    def key(self, seat: int, keys: str) -> None:
        """A scripted player types ``keys`` on the seat's simulated keypad (``sim/key``)."""
        self.command(TableCommand(SIM_KEY, SimKeysCommand(seat=seat, keys=keys)))

    def fists(self, seats: list[int]) -> None:
        """These seats press their vote buttons together, then release them."""
        if seats:
            self.commands([TableCommand(SIM_PRESS, SimButtonCommand(seat=s)) for s in seats])
            self.commands([TableCommand(SIM_RELEASE, SimButtonCommand(seat=s)) for s in seats])

    def tap(self, judge: str) -> None:
        """The judge's station button ``judge`` (``confirm``, ``reject``...), pressed and let
        go (``sim/press``, ``sim/release``)."""
        for spec in (SIM_PRESS, SIM_RELEASE):
            self.command(TableCommand(spec, SimButtonCommand(judge=judge)))


def event(topic: str, **fields: Any) -> Callable[[Message], bool]:
    return lambda m: m.topic == topic and all(m.body.get(k) == v for k, v in fields.items())


@dataclass
class Judge:
    """The judge's side of one game: the panel's game core (``judge/game/``) decides every rule;
    this script only taps as a judge would and lets the scripted players act."""

    table: Table
    players: Players
    pace: float  # 1.0: players take their time; 0: as fast as the table allows
    rules: Rules
    seating: SeatingMessage | None = None  # the hall's, naming the players
    game: Game = field(init=False)
    since: int = 0  # where the inbox was when the core's latest commands went out
    sent: dict[str, str] = field(default_factory=dict)  # verb -> id of its latest command
    vote_session: str = ""  # the id of the latest vote/start or vote/question: its events
    judge_rejected: bool = False
    split_ballots: dict[int, int | None] = field(default_factory=dict)
    report: dict[str, Any] = field(default_factory=lambda: {"votes": [], "log": []})
    inputs: list[tuple[Action | TableEvent, float]] = field(default_factory=list)  # a journal

    def __post_init__(self) -> None:
        quick = max(1.0, 10 * self.pace)
        steps = {"night_step": quick, "best_move": 2 * quick}
        self.game = new_game(len(self.players.roles), rules=self.rules, timings=Timings(
            **{k: v for k, v in steps.items() if k in self.rules.book.timings}))

    def say(self, line: str) -> None:
        self.report["log"].append(line)
        print(line, flush=True)

    def pause(self, seconds: float) -> None:
        time.sleep(seconds * self.pace)

    def apply(self, given: Action | TableEvent) -> None:
        """One input through the core; its commands go to the table, its record is printed."""
        now = time.time()
        self.game, commands, records = step(self.game, given, now)
        self.inputs.append((given, now))
        if commands:
            self.since = self.table.mark()
        for command in commands:
            self.sent[command.spec.verb] = self.table.command(command)
            if command.spec.verb in ("vote/start", "vote/question"):
                self.vote_session = self.sent[command.spec.verb]
        for line in records:
            self.say(f"  {line}")

    def tap(self, kind: str, **args: Any) -> None:
        self.apply(Action(kind, args))

    def heard(self, message: Message) -> dict[str, Any]:
        """A message of the table's, decoded as the panel decodes it, through the core."""
        given = table_events.from_data(message.topic, message.body)
        if given is not None:
            self.apply(given)
        return message.body

    # ------------------------------------------------------------------ the whole game

    def play(self) -> str:
        self.prepare()
        for seated in self.seating.seats if self.seating is not None else []:
            self.tap("name", seat=seated.seat, name=seated.player)
        self.tap("deal", roles=[self.players.roles[s] for s in sorted(self.players.roles)])
        self.say("roles: " + ", ".join(f"{s} {r}" for s, r in sorted(self.players.roles.items())
                                       if r != CIVILIAN))
        self.tap("start")
        turns = {"night0": self.deal_night, "day": self.speech, "defence": self.speech,
                 "last_words": self.speech, "vote": self.vote, "question": self.vote,
                 "night": self.night_step, "roulette": self.decide}
        while self.game.stage != "over":
            turn = turns.get(self.game.stage)
            if turn is None:
                raise GameError(f"the {self.rules.book.title['en']} stage {self.game.stage!r} "
                                "is one this script does not play")
            turn()
        assert self.game.winner is not None  # a game is over once a side has won
        winner = {"red": "town", "black": "mafia"}.get(self.game.winner, self.game.winner)
        alive = list(self.game.alive)
        self.say(f"the {winner} wins, alive: {alive}")
        self.report.update(winner=winner, alive=alive, roles=self.players.roles)
        return winner

    def prepare(self) -> None:
        """A fresh table: whatever a previous game left running is ended."""
        status = self.table.wait(event("status", state="online"))
        state = self.table.wait(lambda m: m.topic == "state")
        self.say(f"table online (controller {status.body['version']})")
        if "rules" in state.body:  # the rule preset it plays (a table older than that: unsaid)
            wrong = wrong_preset(self.rules.book, state.body["rules"])
            if wrong is not None:
                raise GameError(i18n.render(wrong, "en"))
        if state.body["vote"] is not None:
            self.table.command(bare_command(VOTE_CANCEL))
        if state.body["timer"] is not None:
            self.table.command(bare_command(TIMER_STOP))
        if state.body["phase"] == "night":
            with contextlib.suppress(GameError):  # a step left running ends now, if there is one
                self.table.command(bare_command(NIGHT_STOP))
            self.table.command(TableCommand(PHASE, PhaseCommand(id=UNSTAMPED, phase="day")))
        self.heard(state)  # the table's day number: the game's days go above it

    def deal_night(self) -> None:
        """Night 0: the book's steps of that night (the Crow Club's thief), else the meeting."""
        if self.game.running_step is not None or self.game.night_steps:
            self.night_step()
        else:
            self.meeting()

    def meeting(self) -> None:
        self.pause(3.0)  # 4.2.1: the mafia meet
        self.tap("next")

    def speech(self) -> None:
        """The judge gives the floor to the next speaker; on a day, the speaker may nominate."""
        self.tap("next")
        game = self.game
        if game.stage != "day" or game.floor is None:
            return
        if not rounds(game)[game.round].nominations:  # a round without (the zero round)
            self.pause(1.0)
            return
        speaker, alive, nominees = game.floor, list(game.alive), list(game.nominees)
        choice = self.players.nominee(speaker, alive, nominees)
        if choice is None and game.day == 1 and len(nominees) < 2:
            choice = next(s for s in alive if s != speaker and s not in nominees)
        if choice is not None:
            self.table.key(speaker, f"{choice}#")
            nominated = event(events.topic(events.NominationEvent), by=speaker)
            said = self.heard(self.table.wait(nominated, self.since))
            self.say(f"  {speaker} nominates {choice}: {said['outcome']}")
        self.pause(1.0)

    def vote(self) -> None:
        """Each player puts a fist up in the window of their candidate; the judge confirms
        every count on the station's button (and, once a game, rejects one first)."""
        game, players = self.game, self.players
        if game.vote is None:  # the judge enters a decision instead (the deciding vote)
            self.decide()
            return
        voters, candidates = list(game.voters), list(game.vote.candidates)
        session = self.vote_session
        if game.vote.kind == "question":
            ballots = {v: 0 if players.rng.random() < 0.6 else None for v in voters}
        else:
            if game.day == 1 and not game.previous_tie:  # day 1 splits evenly
                self.split_ballots = players.split(voters, candidates) \
                    if len(candidates) >= 2 else {}
            elif game.day > 1:  # and only day 1 (a book that votes on every player each day)
                self.split_ballots = {}
            ballots = {v: self.split_ballots[v] if self.split_ballots.get(v) in candidates
                       else players.ballot(v, candidates) for v in voters}
        since = self.since
        mine = lambda m: m.topic.startswith("event/vote/") and m.body.get("session") == session  # noqa: E731
        while self.game.stage == game.stage and self.game.vote is not None \
                and list(self.game.vote.candidates) == candidates:
            message = self.table.wait(mine, since, timeout=60)
            since = message.index + 1
            body = self.heard(message)
            if message.topic == events.topic(events.VoteWindow) and body["state"] == "opened":
                fists = [v for v, c in ballots.items() if c == body["candidate"]]
                self.table.fists(fists)
                self.report["votes"].append({"session": session, "candidate": body["candidate"],
                                             "attempt": body["attempt"], "pressed": fists})
            elif message.topic == events.topic(events.VoteProposed):
                self.pause(0.5)
                self.table.tap(judge="confirm" if self.judge_rejected else "reject")
                self.judge_rejected = True
            elif message.topic == events.topic(events.VoteResult):
                return

    def decide(self) -> None:
        """The judge's decision the game waits for (the classic club's roulette: the hidden
        number, then each tied player's call; the online variant's deciding vote), from the
        engine's offer: its ``args`` and a value of its ``params`` at random."""
        offer = next((o for o in offered(self.game) if o.action == "choose" and o.primary),
                     None)
        if offer is None:
            raise GameError(f"the game waits in {self.game.stage!r} for a decision no offer "
                            "asks")
        args = dict(offer.args)
        for param in offer.params:
            choices = param.seats if param.kind == "seat" else param.choices
            args[param.name] = self.players.rng.choice(choices)
        self.say(f"  the judge's {offer.kind}: {args.get('value')}")
        self.tap("choose", **args)

    def night_step(self) -> None:
        """The judge opens the night's next step; the actors type their picks in secret."""
        game, players = self.game, self.players
        if game.running_step is None and not game.night_steps:
            self.tap("next")  # morning (after night 0: day 1)
            return
        name, alive = game.night_steps[0], list(game.alive)
        self.tap("next")
        opened = self.table.wait(event(events.topic(events.NightStepEvent, private=True),
                                       step=name), self.since).body
        picks = players.night_picks(name, self.rules.book.step(name).mechanism,
                                    opened["actors"], alive, game.night, opened["picks"])
        for actor, chosen in picks.items():
            self.table.key(actor, "".join(f"{s}#" for s in chosen))
        seconds = opened.get("seconds") or self.game.timings.night_step
        self.heard(self.table.wait(event(events.topic(events.NightResultEvent, private=True),
                                         night_step=opened["night_step"]),
                                   self.since, timeout=seconds + 10))
        if self.game.checks and self.game.checks[-1][:2] == (name, game.night):
            _, _, seat, answer = self.game.checks[-1]
            players.checked(name, seat, answer)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT")
    parser.add_argument("--table", default="table-1", metavar="ID")
    parser.add_argument("--seed", type=int, default=7, help="the same seed plays the same game")
    parser.add_argument("--book", default="fiim",
                        help="the rule book: a shipped one's name (config/books/) or a file")
    parser.add_argument("--seats", type=int, default=len(SEATS),
                        help="the table's seats (the simulated example table has 10)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="how long players take (1: at ease, 0: at once)")
    parser.add_argument("--report", metavar="FILE", help="write the game as JSON here")
    parser.add_argument("--record", metavar="FILE",
                        help="write the game's record here (docs/record.md)")
    parser.add_argument("--nominate", type=float, default=0.5, metavar="P",
                        help="how often a speaker nominates (0..1, default 0.5; fewer "
                             "nominations, shorter votes)")
    parser.add_argument("--seating", action="store_true",
                        help="name the players by the hall's seating of this table's round")
    parser.add_argument("--publish", metavar="FILE",
                        help="send the record to the hall as the judge's panel does, kept in "
                             "this SQLite until the broker has it")
    args = parser.parse_args(argv)
    host, _, port = args.broker.rpartition(":")
    if not host or not port.isdigit() or args.pace < 0 or not 0 <= args.nominate <= 1:
        parser.error("--broker takes HOST:PORT, --pace a number >= 0, --nominate 0..1")
    try:
        rules = load_rules(args.book)
        players = Players.deal(random.Random(args.seed), rules, args.seats, args.nominate)
        new_game(args.seats, rules=rules)  # a table size the book plays
    except (ConfigError, Refused) as exc:
        parser.error(str(exc))
    try:
        table = Table(host, int(port), args.table)
    except OSError as exc:
        print(f"fiim_game: no broker at {args.broker}: {exc}", file=sys.stderr)
        return 1
    game = Judge(table, players, args.pace, rules)
    try:
        if args.seating:
            seating = table.wait(lambda m: m.topic == "seating", timeout=60).body
            game.seating = msgspec.convert(seating, SeatingMessage)
        game.play()
        if args.publish:
            over = record.build(game.inputs, args.table, game.game.rules)
            if over is not None:
                publish(table, RecordFeed(args.publish, args.table), over, game.seating)
    except (GameError, msgspec.ValidationError) as exc:
        print(f"fiim_game: {exc}", file=sys.stderr)
        return 1
    except Refused as exc:  # a tap the rules refused: the script's own mistake, in words
        print(f"fiim_game: refused: {i18n.render(exc.line, 'en')}", file=sys.stderr)
        return 1
    finally:
        table.close()
        if args.report:
            with open(args.report, "w", encoding="utf-8") as out:
                json.dump(game.report, out, indent=1)
        if args.record:
            played = record.build(game.inputs, args.table, game.game.rules)
            if played is not None:  # None: the game never began
                with open(args.record, "wb") as out:
                    out.write(record.encode(played))
    return 0


def publish(table: Table, feed: RecordFeed, played: record.Record,
            seating: SeatingMessage | None) -> None:
    """The record to the hall the judge's panel's way (``judge.record.feed``): what an earlier
    run left unacknowledged first, then this game, each kept until the broker has it."""
    try:
        if seating is not None:
            feed.seated(played.id, seating.tournament, seating.round)
        feed.offer(played, time.time())
        for outgoing in feed.unacked():
            sent = table.client.publish(outgoing.topic, outgoing.payload, qos=1, retain=True)
            sent.wait_for_publish(table.timeout)
            if not sent.is_published():
                raise GameError(f"the broker did not take game {outgoing.game}'s record")
            feed.acked(outgoing.game, outgoing.revision)
    finally:
        feed.close()


if __name__ == "__main__":
    sys.exit(main())
