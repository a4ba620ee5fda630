"""How the judge's panel makes a game's record: built from its journal, edited afterwards.

The record's schema is ``results.record`` (shared with every reader: the hall decodes the same
types); this module is the judge's part. ``build`` is a pure function of the panel's journal of
inputs (``judge.panel.journal``): it replays the inputs through the game core
(``judge.game.replay``) and writes down what each one changed, with the table's own figures where
the game keeps only a summary (each ballot's voters from ``event/vote/confirmed``, each actor's pick
from ``private/night/result``). The judge's later edits (corrections, extra points, abandoning) are
kept apart, as ``Edit``s, and laid over the built record by ``apply_edits``: the record of a game is
``apply_edits(build(inputs), edits)``, and ``history`` lists every edit with its before and after.
docs/record.md describes every field.

The schema's names are here too (``rec.Record``, ``rec.Edit``...), so the panel's modules read one
module for the record they make.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, Literal

import msgspec

from contract import events
from judge.game import Action, Game, Refused, Replayed, Rules, TableEvent, fiim, new_game, replay
from judge.game.state import Act, Picks
from kit.i18n import Words
from results.record import (
    JUDGE,
    NEW_GAME,
    SCHEMA,
    Ballot,
    BestMove,
    Check,
    Day,
    Departure,
    Edit,
    ExtraPoints,
    Foul,
    How,
    LogLine,
    Night,
    NightAction,
    Nomination,
    Player,
    Record,
    RecordError,
    Shot,
    Speech,
    VoteRound,
    decode,
    encode,
    migrate_1,
    migrate_2,
    team_of,
)

_HOW = ("voted_out", "shot", "fouls", "disqualified")


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
    """As the panel's replay: a refused input changed nothing (judge.panel.kept_game logs it)."""


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
        self.log += [LogLine.of(at, line) for line in lines]
        if len(after.players) != len(before.players):  # setup seated the table's own number
            return  # of players: no seat has a story yet
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
                fouls.append(Foul(n=n, at=at, day=before.today, night=after.night,
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
                day = before.day if how == "shot" else before.today  # a shot: its night's eve
                self.left[now.seat] = Departure(how=how, at=at, day=day,
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
            raise RecordError(Words("refused.record.finished"))
        return _replace(record, status="abandoned", abandon_reason=edit.reason,
                              ended=edit.at)
    if edit.kind == "extra_points":
        points = msgspec.convert(edit.after, ExtraPoints)
        if not 1 <= points.seat <= len(record.players):
            raise RecordError(Words("refused.record.extra_seat", seat=points.seat))
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
        raise RecordError(Words("refused.record.fixed", path=path, field=keys[0]))
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
        raise RecordError(Words("refused.record.no_field", path=path))
    try:
        return msgspec.convert(data, Record)
    except msgspec.ValidationError as exc:
        raise RecordError(Words("refused.record.value", path=path), str(exc)) from None


def _keys(path: str) -> list[str]:
    if not path.startswith("/") or path == "/":
        raise RecordError(Words("refused.record.pointer", path=path))
    return [k.replace("~1", "/").replace("~0", "~") for k in path[1:].split("/")]


def _child(node: Any, key: str, path: str) -> Any:
    if isinstance(node, list):
        if not key.isdigit() or int(key) >= len(node):
            raise RecordError(Words("refused.record.no_item", path=path, item=key))
        return node[int(key)]
    if isinstance(node, dict) and key in node:
        return node[key]
    raise RecordError(Words("refused.record.no_field", path=path), repr(key))


__all__ = ["JUDGE", "NEW_GAME", "SCHEMA", "Ballot", "BestMove", "Check", "Day", "Departure",
           "Edit", "ExtraPoints", "Foul", "LogLine", "Night", "NightAction", "Nomination",
           "Player", "Record", "RecordError", "Shot", "Speech", "VoteRound", "apply_edits",
           "build", "decode", "encode", "game_id", "migrate_1", "migrate_2", "read", "team_of"]
