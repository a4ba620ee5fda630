"""What a page is shown of a game: everything for the judge, a public projection for anyone else.

Secrecy by construction: roles, teams, night picks, check results, the night's steps and the
best move are added only by ``judge_view``; ``public_view`` is built without them (a card is in
it only once the book shows it to the table, ``card``), so nothing private can leak through a
forgotten field. Both are typed (``PublicGame``, ``JudgeGame``): the live channel's JSON Schema
(``judge.api_schema``, docs/judge-api.md) is generated from these structs, and the functions
return them as JSON data.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contract.events import VoteAnomaly
from judge.game import Game
from judge.game.actions import Offer
from judge.game.mechanisms import mechanism
from judge.game.offers import offered


class _View(msgspec.Struct, kw_only=True):
    pass


class Proposed(_View, kw_only=True):
    """The table's count for one candidate, awaiting the judge."""

    candidate: int
    count: int
    voters: list[int]
    anomalies: list[VoteAnomaly]


class VoteView(_View, kw_only=True):
    kind: str
    candidates: list[int]
    counts: list[tuple[int, int]]  # confirmed (candidate, count)
    proposed: Proposed | None


class Seat(_View, omit_defaults=True, kw_only=True):
    """A seat as a page shows it: the public fields, the card once the book shows it to the
    table (``card``), and for the judge only its ``role``, ``team`` and the day's ``tags``."""

    seat: int
    name: str
    in_game: bool
    fouls: int
    silenced: bool
    card: str | msgspec.UnsetType = msgspec.UNSET
    role: str | msgspec.UnsetType = msgspec.UNSET
    team: str | msgspec.UnsetType = msgspec.UNSET
    tags: list[str] | msgspec.UnsetType = msgspec.UNSET


class PublicGame(_View, kw_only=True):
    """The game as the hall may see it: seats, names, standings, the floor, the vote."""

    version: int
    stage: str
    day: int
    night: int
    seats: list[Seat]
    floor: int | None
    speakers: list[int]
    nominees: list[int]
    vote: VoteView | None
    leaving: list[int]
    winner: str | None
    can_undo: bool


class Check(_View, kw_only=True):
    step: str
    night: int
    seat: int
    answer: bool


class Card(_View, kw_only=True):
    """A card of the book: its name, the book's word for it, its side."""

    role: str
    title: str
    team: str


class BookView(_View, kw_only=True):
    id: str
    name: str
    roles: list[Card]
    teams: list[str]


class JudgeGame(PublicGame, kw_only=True):
    """The game from the judge's chair: the public view, the secrets, and what the judge may do
    now (``offers``, the engine's ``offered``)."""

    dealt: bool
    night_step: str | None  # the step running at the table
    night_steps: list[str]  # tonight's steps still to open
    killed: int | None
    checks: list[Check]
    best_move: list[int]
    tonight: list[str]  # tonight's acts in a few words ("shot: 7", "don_check 4: yes")
    night_input: str
    last_action: str
    book: BookView
    offers: list[Offer]


def _public(game: Game) -> PublicGame:
    vote = None
    if game.vote is not None:
        proposed = game.vote.proposed
        vote = VoteView(kind=game.vote.kind, candidates=list(game.vote.candidates),
                        counts=list(game.vote.counts),
                        proposed=None if proposed is None else Proposed(
                            candidate=proposed.candidate, count=proposed.count,
                            voters=list(proposed.voters), anomalies=list(proposed.anomalies)))
    seats = [Seat(seat=p.seat, name=p.name, in_game=p.in_game, fouls=p.fouls,
                  silenced=p.silenced, card=p.role if p.shown and p.role else msgspec.UNSET)
             for p in game.players]
    return PublicGame(version=game.version, stage=game.stage, day=game.day, night=game.night,
                      seats=seats, floor=game.floor, speakers=list(game.speakers),
                      nominees=list(game.nominees), vote=vote, leaving=list(game.leaving),
                      winner=game.winner, can_undo=bool(game.undo))


def public_view(game: Game) -> dict[str, Any]:
    """The game as the hall may see it, as JSON data."""
    return msgspec.to_builtins(_public(game))


def judge_game(game: Game) -> JudgeGame:
    public = _public(game)
    for seat, player in zip(public.seats, game.players, strict=True):
        seat.role = player.role
        seat.team = game.team(player.seat) if player.role else ""
        seat.tags = list(player.tags)
    book = game.book
    tonight = [mechanism(a.mechanism).describe(a) for a in game.acts if a.night == game.night] \
        if game.stage in ("night", "night0") else []
    return JudgeGame(
        **{f: getattr(public, f) for f in PublicGame.__struct_fields__},
        dealt=all(p.role for p in game.players),
        # which step runs tells who is still in: no Don's check once the Don is out, a best
        # move only after a first-night kill (DESIGN 10: night steps are private at the table)
        night_step=game.running_step if game.stage in ("night", "night0") else None,
        night_steps=list(game.night_steps), killed=game.killed,
        checks=[Check(step=s, night=n, seat=seat, answer=a) for s, n, seat, a in game.checks],
        best_move=list(game.best_move), tonight=tonight, night_input=game.night_input,
        last_action=game.last_action,
        book=BookView(id=book.id, name=book.name, teams=list(book.teams),
                      roles=[Card(role=name, title=role.title, team=role.team)
                             for name, role in book.roles.items()]),
        offers=offered(game))


def judge_view(game: Game) -> dict[str, Any]:
    """The game from the judge's chair, as JSON data."""
    return msgspec.to_builtins(judge_game(game))


# ------------------------------------------------------------------ the live channel's messages

#: the live channel's contract version (docs/judge-api.md): a change a client must know of
#: bumps it; the schema document and every view carry it
API_VERSION = 1


class TableStatus(_View, kw_only=True):
    """The table as the panel sees it: the broker link, the table's status, each console's
    link, the speaker, and how many of the table's payloads were refused (not their type)."""

    broker: bool
    status: str
    consoles: list[bool | None]
    audio: bool | None
    bad_events: int


class Clock(_View, kw_only=True):
    """The floor's clock as the table last reported it (``event/timer``)."""

    running: bool
    seat: int | None
    kind: str
    state: str
    remaining_ms: int


class PanelSettings(_View, kw_only=True):
    """The panel's own settings a page follows: ``hide_roles``: the roles start hidden."""

    hide_roles: bool = False


class ViewMessage(_View, tag="view", tag_field="type", kw_only=True):
    """The panel to every page, on connecting and after every change."""

    api: int = API_VERSION
    game: JudgeGame
    log: list[str]
    table: TableStatus
    down: list[int]
    timer: Clock | None
    notices: list[str]
    panel: PanelSettings


class Refusal(_View, tag="refused", tag_field="type", kw_only=True):
    """The panel to the one page whose message it did not take: why (``message``), and the
    argument at fault when one is (``field``, e.g. ``args.seat``). Nothing changed."""

    message: str
    field: str | None = None


class ActionMessage(msgspec.Struct, forbid_unknown_fields=True):
    """A page (or an app) to the panel: one action, its arguments, and the game ``version`` it
    saw (an action on an older version is refused: another tab acted first)."""

    action: str
    version: int
    args: dict[str, Any] = {}
