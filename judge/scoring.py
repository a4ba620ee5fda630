"""A game's scores: each player's points from the record, by a scoring preset.

A preset is data (``config/scoring/*.toml``): the points for a win, for the best move's black
guesses, the penalties for a removal by fouls and a disqualification, and the compensation for
the player shot on the first night. ``score(record, preset)`` is pure: the same record and preset
always give the same table, each player's points split by what earned them, and the judge's
extra points (``record.extra_points``) added with their reasons.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated

import msgspec

from judge.record import Record, team_of
from kit.config import ConfigError, Section

PRESETS = Path(__file__).resolve().parent.parent / "config" / "scoring"

Points = Annotated[float, msgspec.Meta(ge=-100, le=100)]


class Win(Section, kw_only=True):
    points: Points


class BestMove(Section, kw_only=True):
    """Points for 0..3 of the best move's seats on ``team`` (FIIM: black); ``red_only``: only
    when the one who named them is not of that team."""

    guessed: Annotated[list[Points], msgspec.Meta(min_length=4, max_length=4)]
    red_only: bool = True
    team: str = "black"


class Penalty(Section, kw_only=True):
    fouls: Points = 0.0
    disqualified: Points = 0.0


class Compensation(Section, kw_only=True):
    """The player shot on night 1; ``only_if_lost``: when the game ended and their side lost."""

    first_shot: Points = 0.0
    only_if_lost: bool = True


class Preset(Section, kw_only=True):
    name: str
    source: str = ""
    win: Win
    best_move: BestMove
    penalty: Penalty = msgspec.field(default_factory=Penalty)
    compensation: Compensation = msgspec.field(default_factory=Compensation)


class PlayerScore(msgspec.Struct, kw_only=True):
    """One player's points: ``total`` is the sum of the parts."""

    seat: int
    name: str
    role: str
    side: str  # the player's team (FIIM: red or black; "" before the deal)
    won: bool
    win: float = 0.0
    best_move: float = 0.0
    penalty: float = 0.0
    compensation: float = 0.0
    extra: float = 0.0
    total: float = 0.0
    notes: list[str] = []


def load(path: str | Path) -> Preset:
    """A preset file, or a ``ConfigError`` naming the file and the bad key."""
    try:
        return msgspec.convert(tomllib.loads(Path(path).read_text(encoding="utf-8")), Preset)
    except (OSError, tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise ConfigError(str(path), [str(exc)]) from None


def presets(folder: Path = PRESETS) -> dict[str, Preset]:
    """The shipped presets by file name (``fiim``, ``crow-club``)."""
    return {path.stem: load(path) for path in sorted(folder.glob("*.toml"))}


def score(record: Record, preset: Preset) -> list[PlayerScore]:
    """Every player's points from one game's record, seat by seat."""
    first_night = next((n for n in record.nights if n.number == 1), None)
    victim = first_night.killed if first_night is not None else None
    best = first_night.best_move if first_night is not None else None
    teams = {p.seat: team_of(p) for p in record.players}
    table = []
    for player in record.players:
        s = PlayerScore(seat=player.seat, name=player.name, role=player.role,
                        side=team_of(player), won=bool(record.winner)
                        and team_of(player) == record.winner)
        if s.won:
            s.win = preset.win.points
            s.notes.append(f"win {record.winner} (1.4)")
        if best is not None and best.by == player.seat \
                and (s.side != preset.best_move.team or not preset.best_move.red_only):
            guessed = sum(1 for g in set(best.guesses) if teams.get(g) == preset.best_move.team)
            s.best_move = preset.best_move.guessed[min(guessed, 3)]
            s.notes.append(f"best move: {guessed} of {len(best.guesses)} black (4.5.9)")
        left = player.left
        if left is not None and left.how == "fouls":
            s.penalty += preset.penalty.fouls
            s.notes.append("removed by the fourth foul")
        elif left is not None and left.how == "disqualified":
            s.penalty += preset.penalty.disqualified
            s.notes.append(f"disqualified {left.reason}".strip())
        lost = bool(record.winner) and not s.won
        if victim == player.seat and preset.compensation.first_shot \
                and (lost or not preset.compensation.only_if_lost):
            s.compensation = preset.compensation.first_shot
            s.notes.append("shot on the first night")
        for extra in record.extra_points:
            if extra.seat == player.seat:
                s.extra += extra.points
                s.notes.append(f"extra {extra.points:+g}: {extra.reason}")
        s.total = round(s.win + s.best_move + s.penalty + s.compensation + s.extra, 6)
        table.append(s)
    return table
