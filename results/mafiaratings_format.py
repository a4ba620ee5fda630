"""The game JSON of the open rating platform mafiaratings (github.com/szotin/mafiaratings), as
msgspec structs.

The platform's own definition is ``Game::api_help`` and ``Game::feature_flags_help`` in its
``include/game.php`` (format version ``GAME_CURRENT_VERSION = '1.3'``), and what its game client
``js/src/game.js`` writes; ``docs/exports.md`` cites the lines. In short: one object per game,
``players`` always ten long with player ``n`` at index ``n - 1``; rounds count from 0 (night 0 is
the mafia's meeting, day 0 the first day; night ``r`` comes before day ``r``); ``features`` is a
string of letters saying which details the game holds (``FEATURE_LETTERS``). A field absent is
``UNSET`` here, so a decoded game encodes back to the same JSON.

Several fields change shape with ``features`` (``death`` is ``true``, a round, a type or an
object; ``warnings`` a count or a list of moments), so they are unions; ``mafiaratings_check``
says which shape a game's ``features`` allow.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

#: the letters of ``features`` in the order ``Game::feature_flags_to_leters`` writes them, each
#: with what it promises (``include/game.php`` lines 16-32, 2745-2817, 4299-4318)
FEATURE_LETTERS: dict[str, str] = {
    "a": "static arrangement: arranged players have 'arranged' (round)",
    "g": "don checks: checked players have 'don' (round)",
    "s": "sheriff checks: checked players have 'sheriff' (round)",
    "d": "death: players out of the game have 'death'",
    "u": "death round (needs d)",
    "t": "death type (needs d)",
    "c": "death time: a removal (warnings, kick-out, give-up) has death.time (needs d)",
    "l": "legacy: the first night's victim has 'legacy' (their best move, 1-3 seats)",
    "i": "simplified legacy: 'legacy' is a number",
    "h": "shooting: mafia players have 'shooting' (a seat per night from night 1)",
    "v": "voting: players have 'voting' (per round)",
    "k": "kill-all votes: a split round's voting ends with true/false (needs v)",
    "n": "nominating: players have 'nominating' (per round)",
    "w": "warnings: players have 'warnings'",
    "r": "warning details: 'warnings' is a list of moments (needs w)",
    "o": "on record: speakers' 'record' of whom they left as red/black",
}
#: ``GAME_CURRENT_VERSION`` (include/game.php line 10; js/src/game.js line 1)
FORMAT_VERSION = "1.3"
ROLES = ("civ", "sheriff", "maf", "don")
#: ``DEATH_TYPE_*`` (include/game.php lines 57-63)
DEATH_TYPES = ("day", "night", "warnings", "techFouls", "kickOut", "teamKickOut", "giveUp")
#: ``GAMETIME_*`` in the game's order (``Game::gametime_to_int``, lines 1405-1441); "end" last
GAMETIMES = ("start", "arrangement", "relaxed sitting", "night start", "shooting", "don",
             "sheriff", "night end", "day start", "night kill speaking", "speaking",
             "voting start", "voting", "voting kill all", "day kill speaking", "end")
BONUS_TITLES = ("bestPlayer", "bestMove", "worstMove")


class _Struct(msgspec.Struct, omit_defaults=True):
    """A JSON object whose absent fields stay absent when encoded back."""


class GameTime(_Struct):
    """A moment in the game (``Game::add_time_help``): ``round`` from 0 and ``time`` one of
    ``GAMETIMES``; ``speaker`` (1-10) during a speech, ``votingRound``/``nominee`` during a
    vote; ``order`` breaks ties between things that happened at the same moment."""

    round: int
    time: str
    speaker: int | UnsetType = UNSET
    votingRound: int | UnsetType = UNSET
    nominee: int | UnsetType = UNSET
    order: int | UnsetType = UNSET


class Death(_Struct):
    """``death`` as an object (when ``features`` has more than one of u, t, c)."""

    round: int | UnsetType = UNSET
    type: str | UnsetType = UNSET
    time: GameTime | UnsetType = UNSET


class OnRecord(_Struct):
    """One speech's "on record" list (feature o): seats left as red (+n) or black (-n)."""

    round: int
    time: str
    record: list[int]
    votingRound: int | UnsetType = UNSET


#: a round's vote: a seat, ``null`` (no vote that round), or for a split the seat per voting
#: round and, with feature k, last a bool: voted to remove all the tied
Vote = int | None | list[int | bool]
Bonus = int | float | str | list[int | float | str]


class Player(_Struct):
    """One seat (``Game::api_help``'s ``players`` entry)."""

    id: int | UnsetType = UNSET  # the player's user id on the platform
    name: str | UnsetType = UNSET
    role: str | UnsetType = UNSET  # absent means "civ"
    arranged: int | UnsetType = UNSET
    death: bool | int | str | Death | UnsetType = UNSET
    warnings: int | list[GameTime] | UnsetType = UNSET
    techFouls: int | list[GameTime] | UnsetType = UNSET
    don: int | UnsetType = UNSET  # the night the Don checked this player
    sheriff: int | UnsetType = UNSET  # the night the Sheriff checked this player
    bonus: Bonus | UnsetType = UNSET
    comment: str | UnsetType = UNSET
    legacy: list[int] | int | UnsetType = UNSET
    voting: list[Vote] | UnsetType = UNSET
    nominating: list[int | None] | UnsetType = UNSET
    shooting: list[int | None] | UnsetType = UNSET  # index 0 is night 1
    record: list[OnRecord] | UnsetType = UNSET


class Moderator(_Struct):
    id: int | UnsetType = UNSET
    name: str | UnsetType = UNSET


class Game(_Struct):
    """One game (``Game::api_help``). Times are UNIX seconds (the sample games') or ISO-8601."""

    players: list[Player]
    winner: str | UnsetType = UNSET  # "civ", "maf" or "tie"
    id: int | str | UnsetType = UNSET
    clubId: int | UnsetType = UNSET
    eventId: int | UnsetType = UNSET
    tournamentId: int | UnsetType = UNSET
    rating: bool | UnsetType = UNSET
    startTime: int | str | UnsetType = UNSET
    endTime: int | str | UnsetType = UNSET
    timezone: str | UnsetType = UNSET
    language: str | UnsetType = UNSET
    rules: str | UnsetType = UNSET
    features: str | UnsetType = UNSET
    moderator: Moderator | UnsetType = UNSET
    version: str | UnsetType = UNSET


def decode(data: bytes | str) -> Game:
    """A game from its JSON; ``msgspec.ValidationError`` names the field that does not fit."""
    return msgspec.json.decode(data, type=Game)


def encode(game: Game) -> bytes:
    return msgspec.json.encode(game)


def to_builtins(game: Game) -> dict[str, Any]:
    """The game as plain dicts and lists (what ``json.loads`` of ``encode(game)`` gives)."""
    return msgspec.to_builtins(game)
