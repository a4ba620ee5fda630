"""The record of one game: who sat where, every speech, nomination, vote, night action and foul.

A pure function of the panel's journal of inputs (``judge.journal``): ``build`` replays the
inputs through the game core (``judge.game.replay``) and writes down what each one changed, with
the table's own figures where the game keeps only a summary (each ballot's voters from
``event/vote/confirmed``, each actor's pick from ``private/night/result``). Any book's game is
recorded the same way: its roles by name, each player's team, and every night step as an
action (step, actors, targets, outcome, each actor's pick); FIIM's four steps are also kept in
the fields schema 1 had (``shots``, ``don_check``, ``sheriff_check``, ``best_move``), which the
rating platform's export reads. The judge's later
edits (corrections, extra points, abandoning) are kept apart, as ``Edit``s, and laid over the
built record by ``apply_edits``: the record of a game is ``apply_edits(build(inputs), edits)``,
and ``history`` lists every edit with its before and after.

The document is JSON (``encode``/``decode``), versioned by ``schema`` (2; a schema 1 document,
FIIM's only, is read and brought up to 2); docs/record.md describes every field with an
example. Seats are 1-based; times are the journal's (UNIX seconds); a
``day`` or ``night`` is the game's number (night 0 is the mafia's meeting, 4.2.1).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Annotated, Any, Literal

import msgspec

from contract import events
from judge.game import Action, Game, Refused, Replayed, Rules, TableEvent, fiim, new_game, replay
from judge.game.state import Act, Picks

SCHEMA = 2

Status = Literal["in_progress", "finished", "abandoned"]
#: a moment: UNIX seconds from 1970 to the end of year 9999 (a correction beyond is refused, as
#: a clock could not print it: the sheet and the games' list would fail on it)
Time = Annotated[float, msgspec.Meta(ge=0, le=253_402_300_799)]
How = Literal["voted_out", "shot", "fouls", "disqualified"]
_HOW = ("voted_out", "shot", "fouls", "disqualified")


class _Struct(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class Foul(_Struct, kw_only=True):
    """One foul: the player's ``n``-th, given in ``stage`` of ``day`` / ``night``, while
    ``floor`` had the floor (``None``: nobody)."""

    n: int
    at: Time
    day: int
    night: int
    stage: str
    floor: int | None = None


class Departure(_Struct, kw_only=True):
    """How and when a player left: ``voted_out`` on day ``day`` (also by "all leave?"),
    ``shot`` on night ``night``, ``fouls`` (the fourth), or ``disqualified`` (by the judge)."""

    how: How
    at: Time
    day: int
    night: int
    reason: str = ""


class Player(_Struct, kw_only=True):
    seat: int
    name: str = ""
    role: str = ""  # the book's role (FIIM: don, mafia, sheriff, civilian); "" until dealt
    team: str = ""  # the side the role plays for (FIIM: red, black)
    fouls: list[Foul] = []
    left: Departure | None = None


class Speech(_Struct, kw_only=True):
    """A player had the floor: ``speech`` (4.3.1), ``excuse`` (4.4.12) or ``last_words``."""

    seat: int
    kind: Literal["speech", "excuse", "last_words"]
    at: Time


class Nomination(_Struct, kw_only=True):
    """4.4.2: ``seat`` nominated by ``by`` (``None``: the judge added it)."""

    seat: int
    by: int | None
    at: Time
    withdrawn: bool = False


class Ballot(_Struct, kw_only=True):
    """One candidate's confirmed count (4.4.6): who voted, whose votes were left over to it
    (4.4.8), how the judge made it final (``button``, ``command``, ``correction`` with its
    ``reason``) and how many counts were rejected before (``rejected``)."""

    candidate: int  # 0: the question "all leave?" (voters said yes)
    voters: list[int]
    leftover: list[int] = []
    count: int
    by: str = ""
    reason: str | None = None
    rejected: int = 0


class VoteRound(_Struct, kw_only=True):
    """One vote of the day: the nominees' (``round`` 1), a re-vote after a tie (2, ...) or the
    question whether the tied all leave (4.4.12.3)."""

    kind: str  # nominees, question, or the book's vote procedure's own
    round: int
    candidates: list[int]
    at: Time
    ballots: list[Ballot] = []
    outcome: str | None = None  # eliminated, tie, yes, no, no_vote, ...
    eliminated: list[int] = []
    tied: list[int] = []
    yes_count: int | None = None
    voters_count: int | None = None


class Day(_Struct, kw_only=True):
    number: int
    opener: int
    at: Time
    speeches: list[Speech] = []
    nominations: list[Nomination] = []
    votes: list[VoteRound] = []


class Shot(_Struct, kw_only=True):
    """One mafioso's pick (4.5.3) and why it does not stand (``miss``: missing,
    several_targets, disagree; ``None``: it stands)."""

    actor: int
    picks: list[int]
    miss: str | None = None


class Check(_Struct, kw_only=True):
    """A check by the Don (4.5.6: is it the Sheriff?) or the Sheriff (4.5.7: is it black?)."""

    by: int
    target: int
    answer: bool


class BestMove(_Struct, kw_only=True):
    """4.5.9: the first night's victim names three seats they think black."""

    by: int
    guesses: list[int]


class NightAction(_Struct, kw_only=True):
    """One night step as it went: its ``step`` and ``mechanism``, each actor's pick as the table
    reported it (``picks``, with ``entered``: the actors whose pick the judge entered by
    tapping), and what stood: ``actors``, ``targets`` and the mechanism's ``outcome`` (``kill``,
    ``miss``, ``yes``, ``no``, ``named``...; ``None``: nothing stood, e.g. no check made)."""

    step: str
    mechanism: str
    picks: list[Shot] = []
    missing: list[int] = []
    entered: list[int] = []
    actors: list[int] = []
    targets: list[int] = []
    outcome: str | None = None


class Night(_Struct, kw_only=True):
    number: int
    at: Time
    actions: list[NightAction] = []
    shots: list[Shot] = []
    missing: list[int] = []  # mafiosi who picked nobody
    killed: int | None = None  # None: a miss (4.5.5), or no shot yet
    don_check: Check | None = None
    sheriff_check: Check | None = None
    best_move: BestMove | None = None
    last_words: Speech | None = None  # the victim's last minute at morning (4.5.4)


class ExtraPoints(_Struct, kw_only=True):
    """The judge's extra points for a player, with the reason (may be negative)."""

    seat: int
    points: float
    reason: str
    by: str
    at: Time


class Edit(_Struct, kw_only=True):
    """One change the judge made to the record: ``correction`` sets ``path`` (a JSON pointer
    into the record, e.g. ``/players/3/name``) from ``before`` to ``after``; ``extra_points``
    adds ``after`` (an ``ExtraPoints``); ``abandon`` ends an unfinished game."""

    kind: Literal["correction", "extra_points", "abandon"]
    at: Time
    by: str
    reason: str
    path: str = ""
    before: Any = None
    after: Any = None


class LogLine(_Struct, kw_only=True):
    at: Time
    line: str


class Record(_Struct, kw_only=True):
    schema: int = SCHEMA
    id: str
    table: str
    rules: str = "fiim"  # the book (its file's name: fiim, crow-club...)
    timings: dict[str, float] = {}
    created: Time
    started: Time | None = None  # 4.1.2: night falls
    ended: Time | None = None  # 1.4, or the moment the game was abandoned
    status: Status = "in_progress"
    abandon_reason: str | None = None
    players: list[Player]
    days: list[Day] = []
    nights: list[Night] = []
    winner: str | None = None  # a team of the book (FIIM: red, black), or "draw"
    extra_points: list[ExtraPoints] = []
    history: list[Edit] = []
    log: list[LogLine] = []  # the core's record lines: what the judge saw, paragraph by paragraph


class RecordError(ValueError):
    """An edit the record cannot take (a bad path, a value of the wrong type...)."""


# ------------------------------------------------------------------ building


def game_id(table: str, created: float) -> str:
    """The game's id: its table and the moment of its first input (UTC, milliseconds)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(created))
    return f"{table}-{stamp}-{int(created * 1000) % 1000:03d}"


def build(inputs: Iterable[tuple[Action | TableEvent, float]], table: str,
          rules: Rules | None = None, seats: int | None = None) -> Record | None:
    """The record of the game the journal's ``inputs`` played by ``rules`` (FIIM's by default)
    at ``seats`` seats (``None``: no input yet)."""
    rules = rules or fiim()
    builder: _Builder | None = None
    for done in replay(new_game(seats, rules=rules), inputs, _refused):
        if builder is None:
            builder = _Builder(table, rules, done.at, seats)
        builder.feed(done)
    return None if builder is None else builder.record()


def _refused(given: Action | TableEvent, exc: Refused) -> None:
    """As the panel's replay: a refused input changed nothing (judge.kept_game logs it)."""


_SPEECHES: dict[str, Literal["speech", "excuse", "last_words"]] = {
    "day": "speech", "defence": "excuse", "last_words": "last_words"}


class _Builder:
    """Replays the inputs and writes down what each changed, from the game before and after."""

    def __init__(self, table: str, rules: Rules, created: float, seats: int | None):
        self.game = new_game(seats, rules=rules)
        self.table, self.rules, self.created = table, rules, created
        self.started: float | None = None
        self.ended: float | None = None
        self.fouls: dict[int, list[Foul]] = {}
        self.left: dict[int, Departure] = {}
        self.days: list[Day] = []
        self.nights: list[Night] = []
        self.log: list[LogLine] = []
        self.rejected: dict[int, int] = {}  # the running round: counts rejected per candidate

    def feed(self, done: Replayed) -> None:
        before, given, at, after, lines = self.game, done.given, done.at, done.game, done.records
        if after is before:
            return
        self.game = after
        self.log += [LogLine(at=at, line=line) for line in lines]
        if before.stage == "setup" and after.stage != "setup":
            self.started = at
        if after.stage == "over" and before.stage != "over":
            self.ended = at
        elif before.stage == "over" and after.stage != "over":
            self.ended = None  # the winning foul undone
        if after.night > before.night:
            self.nights.append(Night(number=after.night, at=at))
        if after.day > before.day:
            self.days.append(Day(number=after.day, opener=after.opener, at=at))
        self._fouls(before, after, at)
        self._departures(before, after, given, at)
        self._nominations(before, after, given, at)
        self._speeches(before, after, at)
        self._votes(before, after, given, at)
        if after.night == before.night and (after.tonight != before.tonight
                                            or after.acts != before.acts):
            self._night(after)

    def _fouls(self, before: Game, after: Game, at: float) -> None:
        for was, now in zip(before.players, after.players, strict=True):
            fouls = self.fouls.setdefault(now.seat, [])
            del fouls[now.fouls:]  # an undo takes a foul back
            for n in range(was.fouls + 1, now.fouls + 1):
                fouls.append(Foul(n=n, at=at, day=after.day, night=after.night,
                                  stage=before.stage, floor=before.floor))

    def _departures(self, before: Game, after: Game, given: Action | TableEvent,
                    at: float) -> None:
        for was, now in zip(before.players, after.players, strict=True):
            if now.in_game:
                self.left.pop(now.seat, None)  # an undo of a fourth foul
            elif was.in_game:
                how: How = now.left if now.left in _HOW else "voted_out"  # type: ignore[assignment]
                reason = str(given.args.get("reason", "")) \
                    if isinstance(given, Action) and how == "disqualified" else ""
                self.left[now.seat] = Departure(how=how, at=at, day=before.day,
                                                night=before.night, reason=reason)

    def _nominations(self, before: Game, after: Game, given: Action | TableEvent,
                     at: float) -> None:
        if not self.days or after.day != before.day:
            return
        noms = self.days[-1].nominations
        undo = isinstance(given, Action) and given.kind == "undo"
        for seat in after.nominees:
            if seat in before.nominees:
                continue
            withdrawn = [n for n in noms if n.seat == seat and n.withdrawn]
            if undo and withdrawn:  # a withdrawal taken back
                withdrawn[-1].withdrawn = False
            else:
                event = given.event if isinstance(given, TableEvent) else None
                by = event.by if isinstance(event, events.NominationEvent) else None
                noms.append(Nomination(seat=seat, by=by, at=at))
        for seat in before.nominees:
            if seat in after.nominees or after.stage != "day":
                continue
            standing = [n for n in noms if n.seat == seat and not n.withdrawn]
            if undo and standing:  # a nomination taken back: it never stood
                noms.remove(standing[-1])
            elif standing and isinstance(given, Action) and given.kind == "withdraw":
                standing[-1].withdrawn = True

    def _speeches(self, before: Game, after: Game, at: float) -> None:
        """Each floor given; a shot player's last minute (4.5.4) goes with their night."""
        if after.floor is None or (after.floor == before.floor
                                   and after.speakers == before.speakers):
            return
        kind = _SPEECHES.get(after.stage)
        speech = Speech(seat=after.floor, kind=kind or "speech", at=at)
        if kind == "last_words" and after.after_last_words == "day" and self.nights:
            self.nights[-1].last_words = speech
        elif kind is not None and self.days:
            self.days[-1].speeches.append(speech)

    def _votes(self, before: Game, after: Game, given: Action | TableEvent,
               at: float) -> None:
        if not self.days:
            return
        votes = self.days[-1].votes
        if isinstance(given, TableEvent) and votes:
            self._vote_event(votes[-1], given, after)
        vote = after.vote
        opened = after.stage in ("vote", "question") and vote is not None and (
            before.stage not in ("vote", "question") or before.vote is None
            or vote.kind != before.vote.kind)
        if opened and vote is not None:
            self.rejected = {}
            votes.append(VoteRound(kind=vote.kind, round=len(votes) + 1,
                                   candidates=list(vote.candidates), at=at))

    def _vote_event(self, current: VoteRound, given: TableEvent, after: Game) -> None:
        """The table's figures of the running round: each confirmed ballot and the result."""
        event = given.event
        if isinstance(event, events.VoteRejected):
            self.rejected[event.candidate] = self.rejected.get(event.candidate, 0) + 1
        elif isinstance(event, events.VoteConfirmed):
            current.ballots.append(Ballot(
                candidate=event.candidate, voters=list(event.voters),
                leftover=list(event.leftover), count=event.count, by=event.by,
                reason=event.reason, rejected=self.rejected.pop(event.candidate, 0)))
        elif isinstance(event, events.VoteResult):
            current.outcome = event.outcome
            current.tied = list(event.tied)
            if event.eliminated is not None:
                current.eliminated = [event.eliminated]
            if current.outcome == "yes":
                current.eliminated = list(after.leaving)
            if event.yes_count is not None:
                current.yes_count = event.yes_count
                current.voters_count = event.voters_count

    def _night(self, game: Game) -> None:
        """Tonight's steps as they went so far (a step counted again, by the judge's entry,
        replaces what it was)."""
        if not self.nights:
            return
        night = self.nights[-1]
        acts = {a.step: a for a in game.acts if a.night == game.night}
        night.actions = [_action(picks, acts.get(picks.step), game) for picks in game.tonight]
        night.killed = game.killed
        for picks in game.tonight:  # FIIM's steps, in schema 1's fields too
            act = acts.get(picks.step)
            if picks.step == "mafia_shot":
                night.shots = [Shot(actor=p.actor, picks=list(p.targets), miss=p.miss)
                               for p in picks.picks]
                night.missing = list(picks.missing)
            elif picks.step == "best_move" and act is not None:
                night.best_move = BestMove(by=act.actors[0], guesses=list(act.targets))
            elif picks.step in ("don_check", "sheriff_check") and act is not None:
                check = Check(by=act.actors[0], target=act.targets[0],
                              answer=act.outcome == "yes")
                if picks.step == "don_check":
                    night.don_check = check
                else:
                    night.sheriff_check = check

    def record(self) -> Record:
        game = self.game
        players = [Player(seat=p.seat, name=p.name, role=p.role,
                          team=game.team(p.seat) if p.role else "",
                          fouls=list(self.fouls.get(p.seat, [])), left=self.left.get(p.seat))
                   for p in game.players]
        return Record(
            id=game_id(self.table, self.created), table=self.table, rules=game.book.id,
            timings=dict(game.timings.items()),
            created=self.created, started=self.started, ended=self.ended,
            status="finished" if game.stage == "over" else "in_progress",
            players=players, days=self.days, nights=self.nights, winner=game.winner,
            log=self.log)


def _action(picks: Picks, act: Act | None, game: Game) -> NightAction:
    step = game.book.step(picks.step)
    return NightAction(
        step=picks.step, mechanism=step.mechanism,
        picks=[Shot(actor=p.actor, picks=list(p.targets), miss=p.miss) for p in picks.picks],
        missing=list(picks.missing), entered=[p.actor for p in picks.picks if p.by_judge],
        actors=[] if act is None else list(act.actors),
        targets=[] if act is None else list(act.targets),
        outcome=None if act is None else act.outcome)


# ------------------------------------------------------------------ the judge's edits


def apply_edits(record: Record, edits: Iterable[Edit]) -> Record:
    """The built record with the judge's edits laid over it, in order; ``history`` lists them.
    ``record`` itself is left as it was."""
    record = _replace(record, history=list(record.history))
    for edit in edits:
        record = _apply(record, edit)
        record.history.append(edit)
    return record


def _apply(record: Record, edit: Edit) -> Record:
    if edit.kind == "abandon":
        if record.status == "finished":
            raise RecordError("the game is finished: it cannot be abandoned")
        return _replace(record, status="abandoned", abandon_reason=edit.reason,
                              ended=edit.at)
    if edit.kind == "extra_points":
        points = msgspec.convert(edit.after, ExtraPoints)
        if not 1 <= points.seat <= len(record.players):
            raise RecordError(f"extra points: there is no seat {points.seat}")
        return _replace(record, extra_points=[*record.extra_points, points])
    return _set(record, edit.path, edit.after)


def _replace(record: Record, **changes: Any) -> Record:
    return msgspec.structs.replace(record, **changes)


#: what a correction may not touch: the record's identity and its own bookkeeping
_FIXED = ("schema", "id", "table", "history", "log", "extra_points", "status",
          "abandon_reason")


def read(record: Record, path: str) -> Any:
    """The value at a JSON pointer (``/players/3/name``) of the record, as JSON data."""
    node: Any = msgspec.to_builtins(record)
    for key in _keys(path):
        node = _child(node, key, path)
    return node


def _set(record: Record, path: str, value: Any) -> Record:
    keys = _keys(path)
    if keys[0] in _FIXED:
        raise RecordError(f"{path}: {keys[0]} is not corrected by hand")
    data: Any = msgspec.to_builtins(record)
    node = data
    for key in keys[:-1]:
        node = _child(node, key, path)
    last = keys[-1]
    if isinstance(node, list):
        _child(node, last, path)
        node[int(last)] = value
    elif isinstance(node, dict) and last in node:
        node[last] = value
    else:
        raise RecordError(f"{path}: no such field")
    try:
        return msgspec.convert(data, Record)
    except msgspec.ValidationError as exc:
        raise RecordError(f"{path}: {exc}") from None


def _keys(path: str) -> list[str]:
    if not path.startswith("/") or path == "/":
        raise RecordError(f"{path!r}: a JSON pointer such as /players/3/name expected")
    return [k.replace("~1", "/").replace("~0", "~") for k in path[1:].split("/")]


def _child(node: Any, key: str, path: str) -> Any:
    if isinstance(node, list):
        if not key.isdigit() or int(key) >= len(node):
            raise RecordError(f"{path}: no item {key}")
        return node[int(key)]
    if isinstance(node, dict) and key in node:
        return node[key]
    raise RecordError(f"{path}: no such field {key!r}")


# ------------------------------------------------------------------ JSON


def encode(record: Record) -> bytes:
    return msgspec.json.encode(record)


def decode(data: bytes | str) -> Record:
    """A record document (a schema 1 one brought up to 2); one of another ``schema`` or a
    malformed one is a ``RecordError``."""
    try:
        record = msgspec.json.decode(data, type=Record)
    except msgspec.DecodeError as exc:
        raise RecordError(f"not a game record: {exc}") from None
    if record.schema == 1:
        return migrate_1(record)
    if record.schema != SCHEMA:
        raise RecordError(f"record schema {record.schema}: this panel reads 1 and {SCHEMA}")
    return record


#: schema 1 knew FIIM's four cards only
_FIIM_TEAMS = {"don": "black", "mafia": "black", "sheriff": "red", "civilian": "red"}


def team_of(player: Player) -> str:
    """The player's team: as recorded, or, in a record that names none (schema 1's, or one
    written by hand), FIIM's for its four cards."""
    return player.team or _FIIM_TEAMS.get(player.role, "")


def migrate_1(record: Record) -> Record:
    """A schema 1 record (FIIM's) as schema 2: each player's team, each night's steps as
    actions, from what schema 1 held."""
    players = [msgspec.structs.replace(p, team=team_of(p)) for p in record.players]
    nights = [msgspec.structs.replace(n, actions=_fiim_actions(n)) for n in record.nights]
    return msgspec.structs.replace(record, schema=SCHEMA, players=players, nights=nights)


def _fiim_actions(night: Night) -> list[NightAction]:
    actions = []
    if night.shots or night.missing:
        killed = [] if night.killed is None else [night.killed]
        actions.append(NightAction(
            step="mafia_shot", mechanism="kill", picks=night.shots, missing=night.missing,
            actors=[s.actor for s in night.shots if s.miss is None], targets=killed,
            outcome="kill" if killed else "miss"))
    for step, check in (("don_check", night.don_check), ("sheriff_check", night.sheriff_check)):
        if check is not None:
            actions.append(NightAction(
                step=step, mechanism="check", picks=[Shot(actor=check.by, picks=[check.target])],
                actors=[check.by], targets=[check.target],
                outcome="yes" if check.answer else "no"))
    if night.best_move is not None:
        best = night.best_move
        actions.append(NightAction(
            step="best_move", mechanism="best_move",
            picks=[Shot(actor=best.by, picks=best.guesses)] if best.guesses else [],
            actors=[best.by], targets=best.guesses, outcome="named"))
    return actions


__all__ = ["SCHEMA", "Ballot", "BestMove", "Check", "Day", "Departure", "Edit", "ExtraPoints",
           "Foul", "LogLine", "Night", "NightAction", "Nomination", "Player", "Record",
           "RecordError", "Shot", "Speech", "VoteRound", "apply_edits", "build", "decode",
           "encode", "game_id", "migrate_1", "read", "team_of"]
