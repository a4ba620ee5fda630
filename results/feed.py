"""A game's record on its way from the table to the hall: its topic and its message.

When a game is over (finished or abandoned), and again after each later edit, the table's judge
panel publishes its record, retained, QoS 1, on ``mafia/<table>/record/<game id>`` (the table's
own broker; its bridge carries ``record/#`` to the hall). Never before the game is over: the
record holds the roles and every night action. The message (``RecordMessage``, JSON)::

    {"v": 1, "table": "table-1", "game": "table-1-20261201-090001-000", "revision": 2,
     "at": 1764580000.0, "tournament": "t-1764570000", "round": 3,
     "record": {... the record, docs/record.md ...}, "withdrawn": null}

``revision`` counts the versions of this game the table has published (1, 2, ...: a correction
or extra points make the next): a reader keeps the highest and drops a copy or an older one.
``tournament`` and ``round`` say which round's seating named the players (the hall's
``seating`` message carried them; ``null``: the game was not seated by the hall). ``record`` is
``null`` and ``withdrawn`` says why when a game published as over went back into play (the
judge's Undo of the last foul): the hall counts it no more until it is over again.

``decode`` reads a message with the record's own schema (``results.record``), checks that its
topic, table and game agree, and refuses anything else with the reason (``FeedError``).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from contract.topics import topic_prefix
from results.record import Record, RecordError, Time
from results.record import decode as decode_record

VERSION = 1
#: below a table's prefix: ``record/<game id>``
TOPIC = "record/"

NULL = msgspec.Raw(b"null")
GameId = Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$")]


class RecordMessage(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One version of a game's record, as the table publishes it (see the module's text)."""

    v: int = VERSION
    table: str
    game: GameId
    revision: Annotated[int, msgspec.Meta(ge=1)]
    at: Time
    tournament: str | None = None
    round: Annotated[int, msgspec.Meta(ge=1, le=999)] | None = None
    #: the record's JSON as the table encoded it (``null``: withdrawn), decoded by ``decode``
    #: with the record's own schema
    record: msgspec.Raw = NULL
    withdrawn: str | None = None


class SeatedPlayer(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    seat: Annotated[int, msgspec.Meta(ge=1, le=24)]
    player: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class SeatingMessage(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The other way: the hall's seating of one table's round, retained on
    ``mafia/<table>/seating`` (docs/hall.md, "Seating"), which the panel reads to name the
    players; its ``tournament`` and ``round`` come back in the game's ``RecordMessage``."""

    v: int = VERSION
    round: Annotated[int, msgspec.Meta(ge=1, le=999)]
    seats: list[SeatedPlayer]
    tournament: str | None = None


class FeedError(ValueError):
    """A message on a record topic that is not one: the reason (counted and logged by the
    reader, which keeps what it had)."""


def topic(table: str, game: str) -> str:
    """``mafia/<table>/record/<game>``."""
    return f"{topic_prefix(table)}{TOPIC}{game}"


def encode(message: RecordMessage) -> bytes:
    return msgspec.json.encode(message)


def message(table: str, game: str, revision: int, at: float, record: Record | None,
            tournament: str | None = None, round: int | None = None,
            withdrawn: str | None = None) -> RecordMessage:
    """A message holding ``record`` (``None``: the game withdrawn, ``withdrawn`` saying why)."""
    return RecordMessage(table=table, game=game, revision=revision, at=at,
                         tournament=tournament, round=round, withdrawn=withdrawn,
                         record=NULL if record is None else msgspec.Raw(
                             msgspec.json.encode(record)))


def decode(topic_: str, payload: bytes) -> tuple[RecordMessage, Record | None]:
    """The message on ``topic_`` and its record (``None`` when withdrawn); ``FeedError`` with
    the reason for a payload that is not one, or whose table or game is not its topic's."""
    parts = topic_.split("/")
    if len(parts) != 4 or f"{parts[2]}/" != TOPIC:
        raise FeedError(f"{topic_}: not a record topic (mafia/<table>/record/<game>)")
    try:
        found = msgspec.json.decode(payload, type=RecordMessage)
    except msgspec.DecodeError as exc:
        raise FeedError(f"{topic_}: not a record message: {exc}") from None
    if found.v != VERSION:
        raise FeedError(f"{topic_}: record message version {found.v}: this reader reads "
                        f"{VERSION}")
    if (found.table, found.game) != (parts[1], parts[3]):
        raise FeedError(f"{topic_}: the message is table {found.table!r}'s game "
                        f"{found.game!r}, not its topic's")
    if bytes(found.record) == b"null":
        if not found.withdrawn:
            raise FeedError(f"{topic_}: no record, and no reason it was withdrawn")
        return found, None
    try:
        record = decode_record(bytes(found.record))
    except RecordError as exc:
        raise FeedError(f"{topic_}: {exc}") from None
    if (record.table, record.id) != (found.table, found.game):
        raise FeedError(f"{topic_}: the record is table {record.table!r}'s game "
                        f"{record.id!r}, not the message's")
    if record.status == "in_progress":
        raise FeedError(f"{topic_}: the game is still in progress: a record is published "
                        "only when the game is over")
    return found, record
