"""The record of one game, as data: its schema (msgspec structs) and its JSON.

Who sat where, every speech, nomination, vote, night action and foul, the winner, the judge's
extra points and the history of the judge's edits: the document the judge's panel builds from
its journal (``judge.record.document``: ``build``, ``apply_edits``) and every reader decodes with
these types, the panel's pages and exports and the hall (the tournament's games, ``hall.games``).
Any book's game has the same shape: its roles by name, each player's team, and every night step as
an action (step, actors, targets, outcome, each actor's pick); FIIM's four steps are also kept in
the fields schema 1 had (``shots``, ``don_check``, ``sheriff_check``, ``best_move``), which the
rating platform's export (``results.mafiaratings``) reads.

The document is JSON (``encode``/``decode``), versioned by ``schema`` (3; a schema 1 document,
FIIM's only, and a schema 2 one, whose log lines were English text, are read and brought up to
3); docs/record.md describes every field with an example. Seats are 1-based; times are the
journal's (UNIX seconds); a ``day`` or ``night`` is the game's number (night 0 is the
mafia's meeting, 4.2.1).
"""


from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from kit import i18n
from kit.i18n import Line, Words

SCHEMA = 3

Status = Literal["in_progress", "finished", "abandoned"]
#: a moment: UNIX seconds from 1970 to the end of year 9999 (a correction beyond is refused, as
#: a clock could not print it: the sheet and the games' list would fail on it)
Time = Annotated[float, msgspec.Meta(ge=0, le=253_402_300_799)]
How = Literal["voted_out", "shot", "fouls", "disqualified"]


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


#: an edit's ``by`` when the form names nobody, and an abandon's ``reason`` when a new game
#: started over an unfinished one: data the panel writes itself, so the pages write each in
#: the reader's words (``judge.record.sheet.who``, ``judge.record.sheet.why``)
JUDGE = "judge"
NEW_GAME = "a new game was started"


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


class LogLine(_Struct, kw_only=True, omit_defaults=True):
    """One of the core's record lines: its citation, catalog key and parameters (docs/i18n.md:
    each reader renders it in their language). A line of a schema 2 record kept its English
    words as they were (``text``, no key)."""

    at: Time
    cite: str | dict[str, str] | None = None  # kit.i18n.Line's: one, or in each language
    key: str = ""
    params: dict[str, Any] = {}
    text: str = ""

    @classmethod
    def of(cls, at: float, line: Line) -> LogLine:
        data = line.to_json()
        return cls(at=at, cite=data["cite"], key=data["key"], params=data["params"])

    def words(self) -> Line | None:
        """The line as words (``None``: a schema 2 line, only its ``text``)."""
        return Line(self.cite, self.key, **self.params) if self.key else None

    def render(self, language: str) -> str:
        words = self.words()
        return self.text if words is None else i18n.render(words, language)


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
    """A document that is not a record of this schema, or an edit the record cannot take (a
    bad path, a value of the wrong type...). ``words`` is what a reader is told, rendered in
    their language (the sheet's forms); ``str`` is its English and, when there is one, the
    validator's own ``detail`` (msgspec's, in English: for the log and the API)."""

    def __init__(self, words: Words, detail: str = ""):
        super().__init__(f"{words}: {detail}" if detail else str(words))
        self.words = words


# ------------------------------------------------------------------ JSON


def encode(record: Record) -> bytes:
    return msgspec.json.encode(record)


def decode(data: bytes | str) -> Record:
    """A record document (one of schema 1 or 2 brought up to 3); one of another ``schema`` or a
    malformed one is a ``RecordError``."""
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise RecordError(Words("refused.record.not_record"), str(exc)) from None
    if isinstance(raw, dict) and raw.get("schema") in (1, 2):
        raw = migrate_2(raw)
    try:
        record = msgspec.convert(raw, Record)
    except msgspec.ValidationError as exc:
        raise RecordError(Words("refused.record.not_record"), str(exc)) from None
    if record.schema == 1:
        return migrate_1(record)
    if record.schema != SCHEMA:
        raise RecordError(Words("refused.record.schema", schema=record.schema, newest=SCHEMA))
    return record


def migrate_2(raw: dict[str, Any]) -> dict[str, Any]:
    """A schema 1 or 2 document's log as schema 3's: each line's English words kept as its
    ``text`` (shown as they were, in every language: they have no key). The schema stays 1
    for ``migrate_1``, 2 becomes 3."""
    log = [{"at": line.get("at"), "text": line["line"]}
           if isinstance(line, dict) and "line" in line else line for line in raw.get("log") or []]
    return {**raw, "log": log, "schema": 1 if raw.get("schema") == 1 else SCHEMA}


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


__all__ = ["JUDGE", "NEW_GAME", "SCHEMA", "Ballot", "BestMove", "Check", "Day", "Departure",
                "Edit", "ExtraPoints", "Foul", "LogLine", "Night", "NightAction", "Nomination",
                "Player", "Record", "RecordError", "Shot", "Speech", "VoteRound", "decode",
                "encode", "migrate_1", "migrate_2", "team_of"]
