"""The game as the hall may see it: seats, names, standings, the floor, the vote. The overlay
shows it live (``judge.overlay.view``), and the judge's view (``judge.panel.views``) is built on
it, adding the secrets.

Secrecy by construction: nothing private is in these structs' public fields (a card is in a
seat only once the book shows it to the table), so nothing private can leak through a
forgotten field; the judge-only fields of a ``Seat`` (``role``, ``team``, ``tags``) are unset
here and filled only by ``judge.panel.views.judge_game``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contract.events import VoteAnomaly
from judge.game import Game
from judge.game.state import NO_SPEECH, Player
from judge.game.votes import procedure


class View(msgspec.Struct, kw_only=True):
    """The base of every view a page is sent (keyword-only fields)."""


class Proposed(View, kw_only=True):
    """The table's count for one candidate, awaiting the judge."""

    candidate: int
    count: int
    voters: list[int]
    #: those who raised no hand, their votes counted for the last nominee (FIIM 4.4.8), and
    #: the book's paragraph that gives them (``[cite] leftover``, else ``count``'s)
    leftover: list[int]
    leftover_rule: str | dict[str, str]
    anomalies: list[VoteAnomaly]


class VoteView(View, kw_only=True):
    kind: str
    candidates: list[int]
    counts: list[tuple[int, int]]  # confirmed (candidate, count)
    proposed: Proposed | None


class Seat(View, omit_defaults=True, kw_only=True):
    """A seat as a page shows it: the public fields, the card once the book shows it to the
    table (``card``), and for the judge only its ``role``, ``team`` and the day's ``tags``.
    ``silenced``: the player may not speak today, for any cause (the foul ladder's third foul,
    the Crow Club's firefighter, a freeze): what the table is told (``cmd/seats``)."""

    seat: int
    name: str
    in_game: bool
    fouls: int
    silenced: bool
    card: str | msgspec.UnsetType = msgspec.UNSET
    role: str | msgspec.UnsetType = msgspec.UNSET
    team: str | msgspec.UnsetType = msgspec.UNSET
    tags: list[str] | msgspec.UnsetType = msgspec.UNSET


class PublicGame(View, kw_only=True):
    """The game as the hall may see it: seats, names, standings, the floor, the vote."""

    version: int
    stage: str
    day: int
    night: int
    seats: list[Seat]
    floor: int | None
    discussing: bool  # the whole table has the floor (a club's discussion round: no seat)
    speakers: list[int]
    nominees: list[int]
    tied: list[int]  # a tie decided outside a vote (the classic club's roulette's players)
    vote: VoteView | None
    leaving: list[int]
    winner: str | None
    can_undo: bool


def public_game(game: Game) -> PublicGame:
    """The game as the hall may see it (the judge's view adds the secrets to it)."""
    vote = None
    if game.vote is not None:
        proposed = game.vote.proposed
        vote = VoteView(kind=game.vote.kind, candidates=list(game.vote.candidates),
                        counts=list(game.vote.counts),
                        proposed=None if proposed is None else Proposed(
                            candidate=proposed.candidate, count=proposed.count,
                            voters=list(proposed.voters), leftover=list(proposed.leftover),
                            leftover_rule=game.book.cite.get("leftover")
                            or game.rules.cite("count"),
                            anomalies=list(proposed.anomalies)))
    seats = [Seat(seat=p.seat, name=p.name, in_game=p.in_game, fouls=p.fouls,
                  silenced=silenced(p), card=p.role if p.shown and p.role else msgspec.UNSET)
             for p in game.players]
    return PublicGame(version=game.version, stage=game.stage, day=game.day, night=game.night,
                      seats=seats, floor=game.floor, discussing=game.discussing,
                      speakers=list(game.speakers),
                      nominees=[] if game.stage == "over" else list(game.nominees),
                      tied=list(procedure(game).tied(game)),
                      vote=vote, leaving=list(game.leaving),
                      winner=game.winner, can_undo=bool(game.undo))


def silenced(player: Player) -> bool:
    """The player may not speak today: the foul ladder's silence, or a day standing that takes
    the speech away (``state.NO_SPEECH``: the firefighter's, a freeze). The table is told the
    same (``cmd/seats`` ``silenced``), so one field says it whatever the cause."""
    return player.silenced or any(tag in NO_SPEECH for tag in player.tags)


def public_view(game: Game) -> dict[str, Any]:
    """The game as the hall may see it, as JSON data."""
    return msgspec.to_builtins(public_game(game))
