"""One game as plain data: the players, the stage, the day's speakers and votes, the night's
steps and acts, and the rules it is played by.

Everything here is frozen: a change is a new ``Game`` (``dataclasses.replace``), so a journal
of inputs replays to exactly the same game, and an undo is the game kept from before. Nothing
here decides a rule: the modules beside it do (``setup``, ``day``, ``votes``, ``night``,
``leaving``, ``fouls``, ``end``), each returning a ``Result``; ``engine.step`` strings them
together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from contract import events
from contract.verbs import TableCommand
from judge.game.book import Book, TablePreset
from kit.i18n import Line, Words

#: a command for the table (``judge.game.table`` makes each one)
Command = TableCommand[Any]

#: the day standings a night may leave on a player (a mechanism's fate names one), for the coming
#: day only: what each takes away. ``silenced`` (the Crow Club's firefighter): no speech, so no
#: nomination and no defence; ``frozen`` (the classic club's Laura, the online book's boss): no
#: speech, no defence, no vote, no last words
NO_SPEECH = ("silenced", "frozen")
NO_VOTE = ("frozen",)
NO_LAST_WORDS = ("frozen",)
DAY_STANDINGS = ("silenced", "frozen")
#: each day standing in words (``kit.i18n``)
STANDINGS = {"silenced": Words("standing.silenced"), "frozen": Words("standing.frozen")}


class Refused(Exception):
    """An action the rules do not allow now: ``line`` says why, citing the book's paragraph
    (``str()`` is its English; a page renders it in its reader's language)."""

    def __init__(self, line: Line):
        super().__init__(str(line))
        self.line = line


class BadArgument(Refused):
    """An action whose arguments are not its type: ``field`` names the one at fault
    (``args.seat``)."""

    def __init__(self, line: Line, field: str | None):
        super().__init__(line)
        self.field = field


class Timings:
    """Seconds by name (``speech``, ``defence``, ``night_step``...): the book's ``[timings]``,
    with ``preset`` ones read from the table preset, and any given here over them. Read as
    ``timings.speech`` or ``timings["zero_round"]``."""

    def __init__(self, **seconds: float):
        self._seconds = {name: float(value) for name, value in seconds.items()}

    def __getattr__(self, name: str) -> float:
        try:
            return self.__dict__["_seconds"][name]
        except KeyError:
            raise AttributeError(f"no timing {name!r}") from None

    def __getitem__(self, name: str) -> float:
        return self._seconds[name]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Timings) and other._seconds == self._seconds

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._seconds.items())))

    def __repr__(self) -> str:
        return f"Timings({', '.join(f'{k}={v:g}' for k, v in self._seconds.items())})"

    def items(self) -> list[tuple[str, float]]:
        return list(self._seconds.items())

    def over(self, book: Book, preset: TablePreset) -> Timings:
        """The book's timings (``preset`` ones from the table preset), these over them."""
        seconds = {name: preset.night.seconds if value == "preset" else float(value)
                   for name, value in book.timings.items()}
        unknown = sorted(set(self._seconds) - set(seconds))
        if unknown:
            raise Refused(Line(None, "refused.timings", names=", ".join(unknown),
                               book=book.title, known=", ".join(seconds)))
        return Timings(**{**seconds, **self._seconds})


@dataclass(frozen=True)
class Rules:
    """What a game is played by: its book, what the judge reads of the table's preset, the
    seconds of each speech and step, and how the table takes night picks at first
    (``keypad``, or ``count`` for a table with vote buttons only; the judge may change it)."""

    book: Book
    preset: TablePreset
    timings: Timings
    night_input: str = "keypad"

    def cite(self, decision: str) -> str | dict[str, str]:
        """The paragraph or section the book cites for ``decision`` (``book.cite``)."""
        return self.book.cite[decision]


@dataclass(frozen=True)
class Player:
    """A seat and its player: ``role`` is the card (``""`` before the deal); ``left`` says how
    they left (``voted_out``, ``shot``, ``fouls``, ``disqualified``; ``""`` in the game);
    ``shown``: the card is shown to the table; ``tags``: standings a mechanism set for the
    coming day (``frozen``...); ``immune``: the table's standing of that name (a mechanism sets
    it: the Crow Club's immunity, which the table's preset says blocks being nominated and
    shot). A mechanism may make a player act as another role (``acts``: the Crow Club's thief, a
    Don named by the last) or play for another side (``side``: the classic club's Laura gone
    over); the card stays what it is (a check answers by it)."""

    seat: int
    name: str = ""
    role: str = ""
    in_game: bool = True
    fouls: int = 0
    silenced: bool = False
    left: str = ""
    shown: bool = False
    tags: tuple[str, ...] = ()
    acts: str = ""
    side: str = ""
    immune: bool = False


@dataclass(frozen=True)
class Vote:
    """The vote the table runs for the game: its candidates and the count it proposes."""

    kind: str  # nominees, question (and a procedure's own)
    candidates: tuple[int, ...]
    proposed: events.VoteProposed | None = None  # until confirmed, rejected or decided
    counts: tuple[tuple[int, int], ...] = ()  # confirmed (candidate, count)
    counted: tuple[int, ...] = ()  # the voters whose votes are confirmed (a count's or left over)


@dataclass(frozen=True)
class Act:
    """A night action that stood: on ``night``, the ``step`` (its ``mechanism``) by ``actors``
    on ``targets``, with the mechanism's ``outcome`` (``kill``, ``miss``, ``yes``, ``no``...).
    ``was``: the role each player it made act as another (``Player.acts``: the thief's copy, a
    new Don) acted as before it, so a step counted again can take the change back."""

    night: int
    step: str
    mechanism: str
    actors: tuple[int, ...]
    targets: tuple[int, ...]
    outcome: str
    was: tuple[tuple[int, str], ...] = ()


#: the table's ``miss`` that is its word on the group, not on the actor's own pick
#: (docs/mqtt-api.md: a group whose valid picks differ). The table counts FIIM's shot (4.5.5);
#: what a group's picks make is the step's mechanism's by its book: a decider's pick stands
#: whatever the others show (the Crow Club's Don), a pair's first card's (the thief's copy)
GROUPS_WORD = "disagree"


@dataclass(frozen=True)
class Pick:
    """One actor's pick in a step: the ``targets`` they gave, ``miss`` the table's reason they
    do not stand (``None``: they stand); ``by_judge``: the judge entered it by tapping."""

    actor: int
    targets: tuple[int, ...]
    miss: str | None = None
    by_judge: bool = False

    @property
    def whole(self) -> bool:
        """The actor's own pick is whole (his numbers, as many as the step takes): it stands,
        or only the group's agreement failed (``GROUPS_WORD``), which the mechanism weighs."""
        return self.miss is None or self.miss == GROUPS_WORD


@dataclass(frozen=True)
class Picks:
    """A step's picks as the table reported them (``private/night/result``), with the judge's
    entries laid over: ``missing`` actors gave nothing."""

    step: str
    picks: tuple[Pick, ...] = ()
    missing: tuple[int, ...] = ()

    def standing(self) -> dict[int, tuple[int, ...]]:
        """Each actor whose own pick is whole (``Pick.whole``), and their targets: whether the
        group agrees is the mechanism's to count, by its book."""
        return {p.actor: p.targets for p in self.picks if p.whole}

    def entered(self, entry: Pick) -> Picks:
        """These picks with the judge's ``entry`` for its actor in place of the table's."""
        picks = tuple(p for p in self.picks if p.actor != entry.actor)
        if entry.targets:
            picks = (*picks, entry)
        return replace(self, picks=tuple(sorted(picks, key=lambda p: p.actor)),
                       missing=tuple(s for s in self.missing if s != entry.actor)
                       + (() if entry.targets else (entry.actor,)))


@dataclass(frozen=True)
class Previous:
    """The game before this one at the table, as its record tells (``judge.record.previous``):
    what a book carries over to the next game. The Crow Club's «Раздача»: "Каждую игру сторона
    раздачи меняется" (``dealt_from``: the side its deal by called numbers began from, ``first``
    or ``last``; ``""``: not dealt so); its «Иммунитет у игрока…»: "Иммунитет выдаётся любому
    игроку который покинул стол в самом начале игры" (who left early, by seat, with the names
    the seats had). The engine only proposes from it: what the judge takes is his action."""

    book: str = ""  # its book's id
    names: tuple[str, ...] = ()  # each seat's player, seat 1 first
    dealt_from: str = ""
    voted_out: tuple[int, ...] = ()  # who day 1's first vote that took anyone out took out
    night_one: tuple[int, ...] = ()  # who left on night 1 (the first night with shots)
    kills: tuple[tuple[str, int], ...] = ()  # night 1's kills that stood: (step, seat)


@dataclass(frozen=True)
class Game:
    """One game. ``version`` counts every change (a panel's action names the version it saw)."""

    players: tuple[Player, ...]
    rules: Rules = field(repr=False, compare=False)
    stage: str = "setup"  # setup, night0, day, vote, defence, question, last_words, night, over
    version: int = 0
    table_day: int = 0  # the table's day number (``cmd/day/start`` must go above it)
    day: int = 0  # the game's day: 1, 2, ...
    night: int = 0  # the game's night: 0 is the first (the deal's, FIIM's meeting)
    opener: int = 0  # who opened the last round
    round: int = 0  # which of today's rounds is being spoken (``book.day.rounds``)
    speakers: tuple[int, ...] = ()  # who speaks next, in order
    floor: int | None = None  # who holds the floor now
    discussing: bool = False  # the whole table has the floor (a discussion round's timer runs)
    nominees: tuple[int, ...] = ()
    vote: Vote | None = None
    previous_tie: tuple[int, ...] = ()  # the set the last round tied on (FIIM 4.4.12.2-3)
    leaving: tuple[int, ...] = ()  # who leaves after their last words
    after_last_words: str = "night"  # day (a night's leavers) or night (a vote's)
    night_steps: tuple[str, ...] = ()  # the steps still to open tonight, in wake order
    running_step: str | None = None
    step_actors: tuple[int, ...] = ()  # who the running (or last) step was opened for
    ending: bool = False  # the judge ended the running step; its result is on its way
    opened: tuple[str, ...] = ()  # the steps opened tonight
    entries: tuple[Pick, ...] = ()  # the judge's picks for the running step
    tonight: tuple[Picks, ...] = ()  # the picks of tonight's finished steps
    acts: tuple[Act, ...] = ()  # every night action of the game that stood
    dying: tuple[int, ...] = ()  # who leaves at morning, by tonight's acts so far
    countdown: bool = False  # the night countdown (FIIM 4.2.1's minute) runs at the table
    night_input: str = "keypad"  # keypad, or count (the table speaks the numbers)
    winner: str | None = None  # a team, or "draw"
    #: the violations going on (``[fouls] every``): each seat and the moment it began
    violations: tuple[tuple[int, float], ...] = ()
    #: the game before this one at the table (its record's), for the book's proposals
    previous: Previous | None = None
    departed: tuple[int, ...] = ()  # the seats out of the game, in the order they left
    #: what a procedure or mechanism keeps of its own between inputs, by key
    notes: tuple[tuple[str, tuple[int, ...]], ...] = ()
    last_action: str = ""  # the kind of the judge's last action
    #: what an undo can take back: the judge's undoable actions since the last action that is
    #: not (a speech, a count, a night step), each with the table's events after it (``Mark``)
    undo: tuple[Mark, ...] = field(default=(), repr=False)

    # ------------------------------------------------------------------ reading the game

    @property
    def book(self) -> Book:
        return self.rules.book

    @property
    def timings(self) -> Timings:
        return self.rules.timings

    def player(self, seat: int) -> Player:
        if not 1 <= seat <= len(self.players):
            raise Refused(Line(self.rules.cite("seats"), "refused.no_seat", seat=seat,
                               seats=len(self.players)))
        return self.players[seat - 1]

    @property
    def alive(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if p.in_game)

    @property
    def today(self) -> int:
        """The day a moment belongs to on paper: ``day``, but in the morning's last words (the
        night's victims', ``after_last_words == "day"``) the day that morning opens. FIIM's
        killed player speaks after «Утро» (4.5.4, 4.5.9): that minute is day N+1's though
        ``day`` turns only at its first speech."""
        morning = self.stage == "last_words" and self.after_last_words == "day"
        return self.day + 1 if morning else self.day

    @property
    def voters(self) -> tuple[int, ...]:
        """Who votes today: the players in the game but the frozen (``NO_VOTE``)."""
        return tuple(p.seat for p in self.players if p.in_game
                     and not set(p.tags) & set(NO_VOTE))

    def with_role(self, *roles: str) -> tuple[int, ...]:
        """The players in the game holding one of ``roles``, or acting as one (``acts``)."""
        return tuple(p.seat for p in self.players if p.in_game
                     and (p.role in roles or (p.acts and p.acts in roles)))

    def team(self, seat: int) -> str:
        """The side ``seat`` plays for now: its own (``side``) if a mechanism changed it, else
        the role it acts as, else its card's."""
        player = self.player(seat)
        return player.side or self.book.team_of(player.acts or player.role)

    def note(self, key: str) -> tuple[int, ...]:
        return dict(self.notes).get(key, ())

    @property
    def killed(self) -> int | None:
        """Tonight's first victim so far (FIIM: the shot's, 4.5.4), ``None`` after morning."""
        return self.dying[0] if self.dying else None

    @property
    def checks(self) -> tuple[tuple[str, int, int, bool], ...]:
        """Every check of the game: (step, night, seat, the answer was yes)."""
        return tuple((a.step, a.night, a.targets[0], a.outcome == "yes") for a in self.acts
                     if a.mechanism == "check")

    @property
    def best_move(self) -> tuple[int, ...]:
        """The best move's seats (FIIM 4.5.9), once named."""
        return next((a.targets for a in reversed(self.acts) if a.mechanism == "best_move"), ())


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
    """A judge's tap as it comes and as the journal keeps it: ``kind`` and its arguments
    (``seat``, ``name``, ``roles``, ``seed``...); ``judge.game.actions`` reads it into its
    typed struct."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TableEvent:
    """What the table published: ``topic`` below ``mafia/<table>/`` and the event, decoded
    (``judge.panel.table_events``) into the controller's own type (``contract.events``). The
    table's ``state`` comes as the ``DayEvent`` of its day, the only thing the game reads of it."""

    topic: str
    event: events.Event


@dataclass(frozen=True)
class Go:
    """Where a module sends the game next, for the engine to take it there (``engine.go``):
    ``vote`` (the day's speeches are over), ``revote`` (the defence speeches are), ``nightfall``
    (with ``why``), ``new_day``, ``morning``, ``after_last_words``."""

    to: str
    why: Line | None = None


class Result(NamedTuple):
    """A module's answer: the game after, the commands for the table, the record lines, and
    where the game goes next (``None``: it stays)."""

    game: Game
    commands: list[Command]
    lines: list[Line]
    then: Go | None = None


def set_player(game: Game, seat: int, **changes: Any) -> Game:
    players = list(game.players)
    players[seat - 1] = replace(players[seat - 1], **changes)
    return replace(game, players=tuple(players))


def take_out(game: Game, seat: int, how: str, shown: bool | None = None) -> Game:
    """``seat`` out of the game now, by ``how`` (``Player.left``), last of ``departed``; its
    card shown too when ``shown``; a violation of his going on ends."""
    changes: dict[str, Any] = {"in_game": False, "left": how}
    if shown is not None:
        changes["shown"] = shown
    game = set_player(game, seat, **changes)
    return replace(game, departed=(*game.departed, seat),
                   violations=tuple(v for v in game.violations if v[0] != seat))


def with_note(game: Game, key: str, seats: tuple[int, ...]) -> Game:
    notes = tuple((k, v) for k, v in game.notes if k != key)
    return replace(game, notes=(*notes, (key, seats)) if seats else notes)


def need(game: Game, stage: str, why: Line) -> None:
    if game.stage != stage:
        raise Refused(why)
