"""The judge's game core: one FIIM game as pure data, moved on by the judge's taps and the table's
events.

``step(game, input, now) -> (game, commands, records)``: ``input`` is an ``Action`` (a tap on the
judge's panel) or a ``TableEvent`` (what the table published, below ``mafia/<table>/``); the
result is the new game, the commands to send to the table and the lines for the game's record.
Each command is a ``contract.verbs.TableCommand``: its verb's spec and the contract's payload
struct, the very one the table decodes, built with ``id=UNSTAMPED`` (the shell stamps each with
its id as it sends). Nothing here does I/O or reads a clock: ``now`` is data, so a game is
replayed exactly from its journal of inputs. A refused action raises ``Refused`` naming its
paragraph and changes nothing.

The paragraph numbers are those of the FIIM official rules (the International Mafia
Federation's rule book, published by the federation; not part of this repository). Where the
book is silent (the foul ladder, 4.3.2's skipped opener) the reading chosen is named where it
is used.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

from contract import events
from contract.commands import (
    DayStart,
    NightStepCommand,
    NominationWithdraw,
    PhaseCommand,
    RevealCommand,
    SeatsCommand,
    SeatStanding,
    TimerStart,
    VoteCorrect,
    VoteQuestion,
    VoteStart,
)
from contract.verbs import (
    DAY_START,
    NIGHT_REVEAL,
    NIGHT_STEP,
    NIGHT_STOP,
    NOMINATION_WITHDRAW,
    PHASE,
    SEATS,
    TIMER_START,
    TIMER_STOP,
    UNSTAMPED,
    VOTE_CANCEL,
    VOTE_CONFIRM,
    VOTE_CORRECT,
    VOTE_QUESTION,
    VOTE_REJECT,
    VOTE_START,
    TableCommand,
    bare_command,
)

MAFIA, DON, SHERIFF, CIVILIAN = "mafia", "don", "sheriff", "civilian"
BLACK = (MAFIA, DON)
#: 1.1: ten players, seven red cards (one the Sheriff) and three black (one the Don)
FIIM_DECK = (DON, MAFIA, MAFIA, SHERIFF, *([CIVILIAN] * 6))
YES, NO = 1, 2  # private indicator patterns for a check's answer: steady, double blink

Stage = Literal["setup", "night0", "day", "vote", "defence", "question", "last_words", "night",
                "over"]


class Refused(Exception):
    """An action the rules do not allow now; the message names the paragraph."""


@dataclass(frozen=True)
class Timings:
    """Seconds of each speech and night step (the preset's, or shorter for tests)."""

    speech: float = 60.0  # 4.3.1
    defence: float = 30.0  # 4.4.12
    last_words: float = 60.0  # 4.4.13, 4.5.4
    meeting: float = 60.0  # 4.2.1: the mafia's minute on the first night
    night_step: float = 10.0  # 4.5.6-4.5.7; the preset's [night] seconds
    best_move: float = 20.0  # 4.5.9


@dataclass(frozen=True)
class Player:
    seat: int
    name: str = ""
    role: str = ""
    in_game: bool = True
    fouls: int = 0
    silenced: bool = False


@dataclass(frozen=True)
class Vote:
    """The vote the table runs for the game: its candidates and the count it proposes."""

    kind: Literal["nominees", "question"]
    candidates: tuple[int, ...]
    proposed: events.VoteProposed | None = None  # until confirmed, rejected or decided
    counts: tuple[tuple[int, int], ...] = ()  # confirmed (candidate, count)


@dataclass(frozen=True)
class Game:
    """One game. ``version`` counts every change (a panel's action names the version it saw)."""

    players: tuple[Player, ...]
    timings: Timings = Timings()
    stage: Stage = "setup"
    version: int = 0
    table_day: int = 0  # the table's day number (``cmd/day/start`` must go above it)
    day: int = 0  # the game's day: 1, 2, ...
    night: int = 0  # the game's night: 0 is the mafia's meeting
    opener: int = 0
    speakers: tuple[int, ...] = ()  # who speaks next, in order
    floor: int | None = None  # who holds the floor now
    nominees: tuple[int, ...] = ()
    vote: Vote | None = None
    previous_tie: tuple[int, ...] = ()  # the set the last round tied on (4.4.12.2-4.4.12.3)
    leaving: tuple[int, ...] = ()  # who leaves after their last words
    after_last_words: Literal["day", "night"] = "night"
    night_steps: tuple[str, ...] = ()  # steps still to open tonight
    running_step: str | None = None
    countdown: bool = False  # the night countdown (4.2.1's minute) runs at the table
    killed: int | None = None  # tonight's victim
    first_kill_night: int | None = None  # 4.5.9: the best move only after the first kill
    checks: tuple[tuple[str, int, int, bool], ...] = ()  # (role, night, seat, answer)
    best_move: tuple[int, ...] = ()
    winner: Literal["red", "black"] | None = None
    last_action: str = ""  # the kind of the judge's last action
    #: what an undo can take back: the judge's undoable actions since the last action that is
    #: not (a speech, a count, a night step), each with the table's events after it (``Mark``)
    undo: tuple[Mark, ...] = field(default=(), repr=False)

    # ------------------------------------------------------------------ reading the game

    def player(self, seat: int) -> Player:
        if not 1 <= seat <= len(self.players):
            raise Refused(f"2.2: there is no seat {seat} (seats are 1..{len(self.players)})")
        return self.players[seat - 1]

    @property
    def alive(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if p.in_game)

    def with_role(self, *roles: str) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if p.in_game and p.role in roles)


@dataclass(frozen=True)
class Mark:
    """One undoable action of the judge: the game just before it (``before``, its own marks
    left out), the action's ``kind``, and the table's events that changed the game after it,
    up to the judge's next action. An undo plays those events again on ``before``, so it takes
    back the judge's action and nothing the table reported since."""

    before: Game
    kind: str
    events: tuple[TableEvent, ...] = ()


@dataclass(frozen=True)
class Action:
    """A judge's tap: ``kind`` and its arguments (``seat``, ``name``, ``roles``, ``seed``...)."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TableEvent:
    """What the table published: ``topic`` below ``mafia/<table>/`` and the event, decoded
    (``judge.table_events``) into the controller's own type (``contract.events``). The
    table's ``state`` comes as the ``DayEvent`` of its day, the only thing the game reads of it."""

    topic: str
    event: events.Event


Result = tuple[Game, list[TableCommand[Any]], list[str]]


def new_game(seats: int = 10, timings: Timings = Timings()) -> Game:
    if seats != len(FIIM_DECK):
        raise Refused(f"1.1: a FIIM game has {len(FIIM_DECK)} players, not {seats}")
    return Game(players=tuple(Player(s) for s in range(1, seats + 1)), timings=timings)


def step(game: Game, given: Action | TableEvent, now: float) -> Result:
    """The game after one input, the commands it sends the table and its record lines."""
    if isinstance(given, TableEvent):
        new, commands, records = _on_event(game, given)
        if new is not game and game.undo:  # an undo plays it again
            last = game.undo[-1]
            new = replace(new, undo=(*game.undo[:-1],
                                     replace(last, events=(*last.events, given))))
    else:
        handler = _ACTIONS.get(given.kind)
        if handler is None:
            raise Refused(f"no such action: {given.kind!r}")
        try:
            new, commands, records = handler(game, given.args)
        except (KeyError, ValueError, TypeError) as exc:
            raise Refused(f"{given.kind}: malformed arguments ({exc!r})") from None
        if given.kind != "undo" and new is not game:
            marks = (*game.undo[-19:], Mark(_without_undo(game), given.kind)) \
                if given.kind in _UNDOABLE else ()
            new = replace(new, undo=marks, last_action=given.kind)
    if new is game:
        return game, [], []
    return replace(new, version=game.version + 1), commands, records


class Replayed(NamedTuple):
    """One input of a journal played again: the input, its time, the game after it (the very
    game before it when it changed nothing) and its record lines."""

    given: Action | TableEvent
    at: float
    game: Game
    records: list[str]


def replay(game: Game, inputs: Iterable[tuple[Action | TableEvent, float]],
           refused: Callable[[Action | TableEvent, Refused], None]) -> Iterator[Replayed]:
    """A journal's inputs played again from ``game``, the one loop that does it (the panel's
    restart, the record, the overlay's history). An input the core refuses (a journal written
    by another version of this code) is handed to ``refused`` and skipped."""
    for given, at in inputs:
        try:
            game, _, records = step(game, given, at)
        except Refused as exc:
            refused(given, exc)
            continue
        yield Replayed(given, at, game, records)


def _without_undo(game: Game) -> Game:
    return replace(game, undo=())


# ------------------------------------------------------------------ setup (4.1)


def _name(game: Game, args: Mapping[str, Any]) -> Result:
    seat, name = int(args["seat"]), str(args.get("name", "")).strip()[:40]
    game.player(seat)
    return _set(game, seat, name=name), [], [f"seat {seat}: {name or '(no name)'}"]


def _deal(game: Game, args: Mapping[str, Any]) -> Result:
    """4.1.3: each player draws a card. A seed deals at random; ``roles`` are the cards the
    judge dealt by hand, seat by seat (1.1: one Don, two mafia, one Sheriff, six civilians)."""
    _need(game, "setup", "4.1.3: cards are dealt before the game starts")
    if args.get("roles") is not None:
        roles = [str(r) for r in args["roles"]]
        if sorted(roles) != sorted(FIIM_DECK):
            raise Refused("1.1: the deck is one Don, two mafia, one Sheriff and six civilians")
    else:
        roles = list(FIIM_DECK)
        random.Random(int(args.get("seed", 0))).shuffle(roles)
    players = tuple(replace(p, role=r) for p, r in zip(game.players, roles, strict=True))
    return replace(game, players=players), [], ["4.1.3: the cards are dealt"]


def _start(game: Game, args: Mapping[str, Any]) -> Result:
    """4.1.2: "Наступает ночь"; 4.2.1: the first night is the mafia's meeting, no shot."""
    _need(game, "setup", "4.1.2: the game has already started")
    if not all(p.role for p in game.players):
        raise Refused("4.1.3: deal the cards before the night falls")
    seats = [SeatStanding(seat=p.seat, in_game=True, fouls=0, silenced=False, immune=False)
             for p in game.players]
    seconds = game.timings.meeting
    return (replace(game, stage="night0", countdown=True),
            [TableCommand(SEATS, SeatsCommand(id=UNSTAMPED, seats=seats)),
             TableCommand(PHASE, PhaseCommand(id=UNSTAMPED, phase="night")),
             TableCommand(TIMER_START, TimerStart(id=UNSTAMPED, seconds=seconds, kind="night"))],
            ["4.1.2: night falls",
             f"4.2.1: the mafia meet ({seconds:g} s); 4.2.3: the Sheriff looks round"])


# ------------------------------------------------------------------ the day (4.3-4.4)


def _next(game: Game, args: Mapping[str, Any]) -> Result:
    """The judge's Next: whatever comes next in the stage the game is in."""
    if game.stage == "night0":
        return _morning(game)
    if game.stage in ("day", "defence", "last_words"):
        return _next_speaker(game)
    if game.stage == "night":
        return _next_night_step(game)
    if game.stage in ("vote", "question"):
        raise Refused("4.4.5: the vote runs; confirm, reject or correct the proposed count")
    raise Refused(f"nothing comes next in stage {game.stage}")


def _morning(game: Game) -> Result:
    """4.5.9: "Утро". The killed player has a last minute (4.5.4), then the day begins."""
    # the table keeps the night while its countdown runs: it ends first
    commands: list[TableCommand[Any]] = [bare_command(TIMER_STOP)] if game.countdown else []
    game = replace(game, running_step=None, night_steps=(), countdown=False)
    commands.append(TableCommand(PHASE, PhaseCommand(id=UNSTAMPED, phase="day")))
    if game.killed is not None:
        victim = game.killed
        return (replace(game, stage="last_words", speakers=(victim,), floor=None,
                        leaving=(victim,), after_last_words="day", killed=None),
                commands, [f"4.5.4: seat {victim} was killed; a last minute"])
    new, more, records = _new_day(game)
    return new, commands + more, ["4.5.9: morning", *records]


def _new_day(game: Game) -> Result:
    """4.3.2: day 1 opens with seat 1, each next day with the player after yesterday's opener.
    A seat that is out is skipped to the next one in the game (the literal, seat-order reading)."""
    seats = len(game.players)
    opener = next(s for k in range(1, seats + 1)
                  if (s := (game.opener + k - 1) % seats + 1) in game.alive)
    start = game.alive.index(opener)
    order = game.alive[start:] + game.alive[:start]
    day = game.day + 1
    table_day = game.table_day + 1
    game = replace(game, stage="day", day=day, table_day=table_day, opener=opener,
                   speakers=order, floor=None, nominees=(), vote=None, previous_tie=())
    return game, [TableCommand(DAY_START, DayStart(id=UNSTAMPED, day=table_day))], [
        f"4.3.1: day {day}, seat {opener} opens (4.3.2)"]


def _next_speaker(game: Game) -> Result:
    """Give the floor to the next speaker in order (4.3.2), or close the round."""
    speeches: dict[str, tuple[events.TimerKind, float]] = {
        "day": ("speech", game.timings.speech),
        "defence": ("excuse", game.timings.defence),
        "last_words": ("last_words", game.timings.last_words)}
    kind, seconds = speeches[game.stage]
    speakers = game.speakers
    records: list[str] = []
    unsilenced: list[SeatStanding] = []
    if game.stage == "day":  # the foul ladder: a silenced player skips this speech
        while speakers and game.player(speakers[0]).silenced:
            records.append(f"seat {speakers[0]} is silenced by fouls: no speech today")
            game = _set(game, speakers[0], silenced=False)
            unsilenced.append(SeatStanding(seat=speakers[0], silenced=False))
            speakers = speakers[1:]
    # the table blocks a silenced seat's floor: it is told the silence is served
    stop: list[TableCommand[Any]] = \
        [TableCommand(SEATS, SeatsCommand(id=UNSTAMPED, seats=unsilenced))] if unsilenced else []
    if speakers:
        seat = speakers[0]
        return (replace(game, speakers=speakers[1:], floor=seat),
                [*stop, TableCommand(TIMER_START, TimerStart(
                    id=UNSTAMPED, seat=seat, seconds=seconds, kind=kind, replace=True))],
                [*records, f"seat {seat} has the floor ({kind}, {seconds:g} s)"])
    if game.floor is not None:
        stop.append(bare_command(TIMER_STOP))
    game = replace(game, floor=None, speakers=())
    if game.stage == "day":
        new, commands, more = _start_vote(game, game.nominees)
    elif game.stage == "defence":
        new, commands, more = _start_vote(game, game.vote.candidates if game.vote else ())
    else:
        new, commands, more = _after_last_words(game)
    return new, stop + commands, records + more


def _start_vote(game: Game, candidates: tuple[int, ...]) -> Result:
    """4.4.1: only today's nominees are voted, in nomination order (4.4.4); none: no vote."""
    candidates = tuple(c for c in candidates if c in game.alive)
    if not candidates:
        return _nightfall(replace(game, vote=None), "4.4.1: nobody is nominated: no vote")
    if game.day == 1 and len(candidates) == 1 and game.stage == "day":
        return _nightfall(replace(game, vote=None),
                          f"4.4.10: one nominee (seat {candidates[0]}) on day 1: no vote")
    vote = Vote("nominees", candidates)
    return (replace(game, stage="vote", vote=vote),
            [TableCommand(VOTE_START, VoteStart(id=UNSTAMPED, nominees=list(candidates),
                                                voters=list(game.alive), day=game.table_day))],
            [f"4.4.4: the vote on {', '.join(map(str, candidates))}"])


def _nominate(game: Game, args: Mapping[str, Any]) -> Result:
    """4.4.2: the judge accepts a nomination ("Принято") the table did not catch."""
    _need(game, "day", "4.4.2: nominations are made in the day's speeches")
    seat = int(args["seat"])
    if not game.player(seat).in_game:
        raise Refused(f"4.4.2: seat {seat} is out of the game")
    if seat in game.nominees:
        raise Refused(f"4.4.2: seat {seat} is already nominated")
    return (replace(game, nominees=(*game.nominees, seat)), [],
            [f"4.4.2: seat {seat} nominated by the judge"])


def _withdraw(game: Game, args: Mapping[str, Any]) -> Result:
    _need(game, "day", "4.4.2: nominations are withdrawn before the vote")
    seat = int(args["seat"])
    if seat not in game.nominees:
        raise Refused(f"4.4.2: seat {seat} is not nominated")
    return (replace(game, nominees=tuple(s for s in game.nominees if s != seat)),
            [TableCommand(NOMINATION_WITHDRAW, NominationWithdraw(id=UNSTAMPED, seat=seat))],
            [f"seat {seat}'s nomination withdrawn by the judge"])


def _vote_decision(verb: Literal["confirm", "reject", "correct"]):
    def decide(game: Game, args: Mapping[str, Any]) -> Result:
        """4.4.6: the judge announces the count: the table's proposal confirmed, thrown away
        (counted again) or corrected."""
        if game.stage not in ("vote", "question") or game.vote is None \
                or game.vote.proposed is None:
            raise Refused("4.4.6: there is no proposed count to decide on")
        command: TableCommand[Any]
        if verb == "correct":
            voters = sorted({int(v) for v in args.get("voters", ())})
            bad = [v for v in voters if v not in game.alive]
            if bad:
                raise Refused(f"4.4.7: seats {bad} do not vote (out of the game)")
            command = TableCommand(VOTE_CORRECT, VoteCorrect(
                id=UNSTAMPED, voters=voters, reason=str(args.get("reason") or "judge's count")))
        else:
            command = bare_command(VOTE_CONFIRM if verb == "confirm" else VOTE_REJECT)
        candidate = game.vote.proposed.candidate
        # the count is decided: a second tap (another tab's) finds nothing proposed
        return (replace(game, vote=replace(game.vote, proposed=None)), [command], [
            f"4.4.6: the judge {verb}s the count for {candidate}"])
    return decide


# ------------------------------------------------------------------ the table's events


def _on_event(game: Game, given: TableEvent) -> Result:
    event = given.event
    if isinstance(event, events.DayEvent) and event.day > game.table_day:
        return replace(game, table_day=event.day), [], []
    if isinstance(event, events.NominationEvent) and game.stage == "day" \
            and event.outcome == "accepted":
        seat = event.seat
        if seat in game.alive and seat not in game.nominees:
            return (replace(game, nominees=(*game.nominees, seat)), [],
                    [f"4.4.2: seat {event.by} nominates seat {seat}"])
    if game.vote is not None:
        if isinstance(event, events.VoteProposed):
            return replace(game, vote=replace(game.vote, proposed=event)), [], []
        if isinstance(event, events.VoteConfirmed):
            counts = (*game.vote.counts, (event.candidate, event.count))
            return replace(game, vote=replace(game.vote, proposed=None, counts=counts)), [], [
                f"4.4.6: seat {event.candidate}: {event.count} votes"]
        if isinstance(event, events.VoteRejected):
            return replace(game, vote=replace(game.vote, proposed=None)), [], []
    if isinstance(event, events.VoteResult) and game.stage in ("vote", "question"):
        return _on_vote_result(game, event)
    if isinstance(event, events.TimerEvent) and game.countdown and event.seat is None \
            and event.state in ("ended", "stopped"):
        return replace(game, countdown=False), [], ["4.2.1: the minute is up"]
    if isinstance(event, events.NightResultEvent) and game.running_step == event.step:
        return _on_night_result(game, event)
    if isinstance(event, events.SeatsEvent):
        return _on_seats(game, event)
    return game, [], []


def _on_vote_result(game: Game, result: events.VoteResult) -> Result:
    outcome = result.outcome
    game = replace(game, vote=replace(game.vote, proposed=None) if game.vote else None)
    if outcome == "eliminated" and result.eliminated in game.alive:
        seat = result.eliminated
        return _last_words(game, (seat,), f"4.4.11: seat {seat} has the most votes and leaves")
    if outcome == "tie":
        tied = tuple(s for s in result.tied if s in game.alive)
        if tied and set(tied) == set(game.previous_tie):
            return (replace(game, stage="question", vote=Vote("question", tied)),
                    [TableCommand(VOTE_QUESTION, VoteQuestion(
                        id=UNSTAMPED, subjects=list(tied), voters=list(game.alive)))],
                    [f"4.4.12.3: the same seats tie again: shall {', '.join(map(str, tied))} "
                     "all leave?"])
        return (replace(game, stage="defence", speakers=tied, floor=None, previous_tie=tied,
                        vote=Vote("nominees", tied)), [],
                [f"4.4.12: a tie between {', '.join(map(str, tied))}: 30 s each, then a "
                 "re-vote (4.4.12.1-4.4.12.2)"])
    if outcome == "yes":
        tied = tuple(s for s in game.vote.candidates if s in game.alive) if game.vote else ()
        return _last_words(game, tied, "4.4.12.3: the majority says yes: they all leave")
    if outcome == "no":
        return _nightfall(game, "4.4.12.3: no majority for it: they all stay")
    if outcome == "no_vote":
        return _nightfall(game, "4.4.10: one nominee on day 1: no vote")
    return _nightfall(game, f"the vote ends: {outcome}")


def _last_words(game: Game, seats: tuple[int, ...], why: str) -> Result:
    """4.4.13: each leaver has a last minute; their role stays hidden."""
    return (replace(game, stage="last_words", speakers=seats, leaving=seats, floor=None,
                    after_last_words="night", vote=None), [], [why])


def _after_last_words(game: Game) -> Result:
    """The leavers leave; 1.4: the win is checked at every removal."""
    leaving = game.leaving
    game = replace(game, leaving=())
    for seat in leaving:
        game = _set(game, seat, in_game=False)
    commands = [_out_of_the_game(leaving)] if leaving else []
    records = [f"seat {s} leaves the game" for s in leaving]
    over = _win_check(game)
    if over is not None:
        return over[0], commands + over[1], records + over[2]
    if game.after_last_words == "day":
        new, more, rec = _new_day(game)
    else:
        new, more, rec = _nightfall(game, "4.5.1: night falls")
    return new, commands + more, records + rec


def _on_seats(game: Game, seats: events.SeatsEvent) -> Result:
    """The table's standings: a fourth foul takes the player out at the table too."""
    changed = game
    for s in seats.seats:
        if s.seat <= len(game.players) and not s.in_game and game.player(s.seat).in_game \
                and game.player(s.seat).fouls >= 4:
            changed = _set(changed, s.seat, in_game=False)
    return changed, [], []


# ------------------------------------------------------------------ fouls (4.3.4, 6)


def _foul(game: Game, args: Mapping[str, Any]) -> Result:
    """One foul. FIIM's §6 gives no ladder; the panel uses the clubs' one (Crow Club's): the third
    foul silences the player for their next speech, the fourth takes them out (1.4: the win
    is checked at the removal)."""
    if game.stage in ("setup", "over"):
        raise Refused("4.3.4: fouls are given during the game")
    seat = int(args["seat"])
    player = game.player(seat)
    if not player.in_game:
        raise Refused(f"4.3.4: seat {seat} is out of the game")
    fouls = player.fouls + 1
    game = _set(game, seat, fouls=fouls, silenced=player.silenced or fouls == 3)
    standing = SeatStanding(seat=seat, fouls=fouls)
    records = [f"seat {seat}: foul {fouls}"]
    if fouls == 3:
        standing.silenced = True
        records.append(f"seat {seat}: third foul, silenced for the next speech")
    commands: list[TableCommand[Any]] = [
        TableCommand(SEATS, SeatsCommand(id=UNSTAMPED, seats=[standing]))]
    if fouls == 4:
        game = _set(game, seat, in_game=False)
        game = replace(game, nominees=tuple(s for s in game.nominees if s != seat),
                       speakers=tuple(s for s in game.speakers if s != seat))
        records.append(f"seat {seat}: fourth foul, out of the game")
        if game.floor == seat:
            game = replace(game, floor=None)
            commands.append(bare_command(TIMER_STOP))
        over = _win_check(game)
        if over is not None:  # whatever runs at the table for the game ends with it
            if game.floor is not None:
                commands.append(bare_command(TIMER_STOP))
            if game.vote is not None and game.stage in ("vote", "question"):
                commands.append(bare_command(VOTE_CANCEL))
            if game.running_step is not None:
                commands.append(bare_command(NIGHT_STOP))
            return over[0], commands + over[1], records + over[2]
    return game, commands, records


# ------------------------------------------------------------------ nights (4.5)


def _nightfall(game: Game, why: str) -> Result:
    """4.5.1: night falls; 4.5.2: from night 1 the mafia shoot, then the Don and the Sheriff
    check (4.2.2, 4.2.3), the order of 4.5.3-4.5.7."""
    night = game.night + 1
    steps = ["mafia_shot"]
    if game.with_role(DON):
        steps.append("don_check")
    if game.with_role(SHERIFF):
        steps.append("sheriff_check")
    game = replace(game, stage="night", night=night, night_steps=tuple(steps), floor=None,
                   speakers=(), vote=None, nominees=(), running_step=None, killed=None)
    return game, [TableCommand(PHASE, PhaseCommand(id=UNSTAMPED, phase="night"))], [
        why, f"4.5.1: night {night}"]


def _next_night_step(game: Game) -> Result:
    if game.running_step is not None:
        raise Refused(f"4.5: the {game.running_step} step runs; its result comes at its time")
    if not game.night_steps:
        return _morning(game)
    name, rest = game.night_steps[0], game.night_steps[1:]
    actors: tuple[int, ...]
    if name == "mafia_shot":
        actors, picks, seconds = game.with_role(*BLACK), 1, game.timings.night_step
    elif name == "best_move":
        victim = () if game.killed is None else (game.killed,)  # queued with the kill (4.5.9)
        actors, picks, seconds = victim, 3, game.timings.best_move
    else:
        actors, picks, seconds = (game.with_role(DON if name == "don_check" else SHERIFF),
                                  1, game.timings.night_step)
    return (replace(game, running_step=name, night_steps=rest),
            [TableCommand(NIGHT_STEP, NightStepCommand(
                id=UNSTAMPED, step=name, actors=list(actors), picks=picks, targets="alive",
                seconds=seconds))],
            [f"{_STEP_PARAGRAPH[name]}: {name.replace('_', ' ')} ({', '.join(map(str, actors))})"])


_STEP_PARAGRAPH = {"mafia_shot": "4.5.3", "don_check": "4.5.6", "sheriff_check": "4.5.7",
                   "best_move": "4.5.9"}


def _on_night_result(game: Game, result: events.NightResultEvent) -> Result:
    name = game.running_step
    assert name is not None  # the caller took this result for the running step
    game = replace(game, running_step=None)
    # the picks that stand: the table says why one does not (``miss``: missing, several
    # targets, disagree; 4.5.5)
    picks = {p.actor: list(p.picks) for p in result.picks if p.miss is None}
    if name == "mafia_shot":
        targets = {tuple(p) for p in picks.values()}
        agreed = bool(picks) and len(picks) == len(result.picks) \
            and not result.missing and result.agreed is not False \
            and len(targets) == 1 and len(next(iter(targets))) == 1
        target = next(iter(targets))[0] if agreed else None
        if target is None or target not in game.alive:
            return game, [], ["4.5.5: the mafia missed: nobody is killed"]
        steps = game.night_steps
        if game.first_kill_night is None and game.night == 1:
            steps = (*steps, "best_move")  # 4.5.9: only the first night's victim
        return (replace(game, killed=target, night_steps=steps,
                        first_kill_night=game.first_kill_night or game.night),
                [], [f"4.5.4: the mafia shoot seat {target}"])
    if name == "best_move":
        chosen = tuple(next(iter(picks.values()), ()))
        return replace(game, best_move=chosen), [], [
            f"4.5.9: best move {', '.join(map(str, chosen)) or '(none)'}"]
    checker = next(iter(picks), None)
    chosen_seats = next(iter(picks.values()), [])
    if checker is None or not chosen_seats:
        return game, [], [f"{_STEP_PARAGRAPH[name]}: no check tonight"]
    seat = chosen_seats[0]
    role = game.player(seat).role
    answer = role == SHERIFF if name == "don_check" else role in BLACK
    paragraph = _STEP_PARAGRAPH[name]
    return (replace(game, checks=(*game.checks, (name, game.night, seat, answer))),
            [TableCommand(NIGHT_REVEAL, RevealCommand(id=UNSTAMPED, seat=checker,
                                                      pattern=YES if answer else NO))],
            [f"{paragraph}: {name.replace('_', ' ')} of seat {seat}: "
             f"{'yes' if answer else 'no'}"])


# ------------------------------------------------------------------ the end (1.4), undo


def _win_check(game: Game) -> Result | None:
    """1.4: red wins when every black is out; black when blacks equal or outnumber reds. "The
    moment of a player's removal is the vote or the night's kill": whoever is leaving after
    their last words (4.4.13, 4.5.4) is already out of the count, and leaves if the game ends
    before their minute is over (the table is told)."""
    leaving = [s for s in game.leaving if game.player(s).in_game]
    counted = replace(game, leaving=())
    for seat in leaving:
        counted = _set(counted, seat, in_game=False)
    black = len(counted.with_role(*BLACK))
    red = len(counted.alive) - black
    winner: Literal["red", "black"]
    if black == 0:
        winner = "red"
    elif black >= red:
        winner = "black"
    else:
        return None
    commands = [_out_of_the_game(leaving)] if leaving else []
    return (replace(counted, stage="over", winner=winner, speakers=(), floor=None, vote=None,
                    running_step=None, night_steps=()), commands,
            [*(f"seat {s} leaves the game" for s in leaving),
             f"1.4: {winner} wins ({black} black, {red} red at the table)"])


#: what an undo can take back: the table has nothing of these it cannot be told again
_UNDOABLE = ("name", "deal", "nominate", "withdraw", "foul")


def _undo(game: Game, args: Mapping[str, Any]) -> Result:
    """Take back the judge's last action when it was a name, a deal, a nomination or a foul,
    and keep what the table reported since: the game before the action, with the table's
    events since played again (the commands they brought were sent when they came). The table
    is told the seats' standings again."""
    if not game.undo:
        if game.last_action and game.last_action not in _UNDOABLE:
            raise Refused("undo takes back a name, a deal, a nomination or a foul; a vote, a "
                          "speech or a night step already happened at the table")
        raise Refused("nothing to undo")
    mark, rest = game.undo[-1], game.undo[:-1]
    before = mark.before
    for event in mark.events:
        before = _on_event(before, event)[0]
    if rest:  # the events since belong to the action before it now
        rest = (*rest[:-1], replace(rest[-1], events=(*rest[-1].events, *mark.events)))
    before = replace(before, undo=rest, version=game.version)
    commands: list[TableCommand[Any]] = []
    if game.stage != "setup":
        commands.append(TableCommand(SEATS, SeatsCommand(id=UNSTAMPED, seats=[
            SeatStanding(seat=p.seat, in_game=p.in_game, fouls=p.fouls, silenced=p.silenced)
            for p in before.players])))
    return before, commands, [f"undo: {mark.kind}"]


def _out_of_the_game(seats: Iterable[int]) -> TableCommand[SeatsCommand]:
    """``cmd/seats``: these seats leave the game at the table."""
    return TableCommand(SEATS, SeatsCommand(id=UNSTAMPED, seats=[
        SeatStanding(seat=s, in_game=False) for s in seats]))


def _need(game: Game, stage: str, why: str) -> None:
    if game.stage != stage:
        raise Refused(why)


def _set(game: Game, seat: int, **changes: Any) -> Game:
    players = list(game.players)
    players[seat - 1] = replace(players[seat - 1], **changes)
    return replace(game, players=tuple(players))


_ACTIONS = {
    "name": _name, "deal": _deal, "start": _start, "next": _next,
    "nominate": _nominate, "withdraw": _withdraw, "foul": _foul, "undo": _undo,
    "confirm": _vote_decision("confirm"), "reject": _vote_decision("reject"),
    "correct": _vote_decision("correct"),
}
