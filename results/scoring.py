"""A game's scores: each player's points from the record, by a scoring preset.

A preset is data (``config/scoring/*.toml``): the points for a win, for the best move's black
guesses, the penalties for a removal by fouls and a disqualification, and the compensation for
the player shot on the first night. ``score(record, preset)`` is pure: the same record and preset
always give the same table, each player's points split by what earned them, and the judge's
extra points (``record.extra_points``) added with their reasons.

Two parts of a preset are a tournament's, not a game's (``results.standings`` reads them): the
rating platform's **Ci** (``[compensation.ci]``: the first night's victims compensated by how
often each was shot first over a stage of the tournament, which no single game knows) and the
**tie-break** order of the standings (``[standings]``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated

import msgspec

from kit import i18n
from kit.config import ConfigError, Section
from results.record import Night, Record, team_of

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


class Ci(Section, kw_only=True):
    """The rating platform's compensation for the first night's victims ("Ci", its FIIM
    scoring's ``night1`` policy): in each game a player of the side that is not ``best_move.team``
    was shot on night 1 and lost, they take ``min(K * points / round(G * share), cap)`` (at
    least 0; ``x / 0`` is ``cap``), where ``K`` is how often they were shot on night 1 (won or
    lost) and ``G`` how many games they played, both counted over their games of one stage of
    the tournament (the main rounds, the final: ``results.standings``)."""

    points: Points = 0.4
    share: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.4
    cap: Points = 0.4


class Extra(Section, kw_only=True):
    """Extra points no judge gives: ``per_game`` for every game a player plays (the rating
    platform's FIIM scoring since its version 4, "автодопы": 0.3 a game, which a worst move
    takes back; our records hold no worst move). They count with the judge's extra points,
    as the platform counts them (its ``extra`` group: the ``e`` of its tie-break)."""

    per_game: Points = 0.0


class Compensation(Section, kw_only=True):
    """The player shot on night 1; ``only_if_lost``: when the game ended and their side lost.
    ``ci``: the platform's Ci over the tournament instead of (or beside) a fixed ``first_shot``."""

    first_shot: Points = 0.0
    only_if_lost: bool = True
    ci: Ci | None = None


#: what a tie-break key may add up (``Standings.tie_break``): the points of a part, or a count
TIE_BREAK_NAMES = ("win", "best_move", "penalty", "compensation", "ci", "extra", "wins",
                   "special_role_wins", "first_killed", "games")
#: the rating platform's default order, ``(epg)wsk``: the extra, penalty and legacy (best move)
#: points together, then the wins, the wins as a special role, the times shot on night 1
PLATFORM_TIE_BREAK = ("extra+penalty+best_move", "wins", "special_role_wins", "first_killed")


class Standings(Section, kw_only=True):
    """How the standings order players with equal totals (``results.standings``): each key in
    turn, the higher first, a key being one name of ``TIE_BREAK_NAMES`` or several joined by
    ``+`` (their sum); players equal on every key share their places ("3-4"), listed by name.
    ``by_id``: the platform's last key, the player's id on the platform, the lower first
    (its ``compare_scores``), for players whose ids the tournament knows (the others still
    share). ``special_roles``: the cards whose wins ``special_role_wins`` counts (the
    platform's: the Sheriff and the Don)."""

    tie_break: list[str] = msgspec.field(default_factory=lambda: list(PLATFORM_TIE_BREAK))
    special_roles: list[str] = msgspec.field(default_factory=lambda: ["sheriff", "don"])
    by_id: bool = False

    def __post_init__(self) -> None:
        for key in self.tie_break:
            unknown = [n for n in key.split("+") if n not in TIE_BREAK_NAMES]
            if unknown or not key:
                raise ValueError(f"tie_break {key!r}: {', '.join(unknown) or 'empty'} is not "
                                 f"one of {', '.join(TIE_BREAK_NAMES)} (joined by +)")


class Preset(Section, kw_only=True):
    """A scoring preset. ``title``: how pages name it, per language (``{ ru = "ФИИМ",
    en = "FIIM" }``: English required, every language one with a catalog, ``kit.i18n``).
    ``platform``: the rating platform's scoring this preset is, exactly (its scoring's id and
    version, "19/7"; tests/results/test_platform_scoring.py holds it to the platform's own
    code); empty for a preset of ours, which the pages say differs."""

    title: dict[str, str]
    source: str = ""
    platform: str = ""
    win: Win
    best_move: BestMove
    penalty: Penalty = msgspec.field(default_factory=Penalty)
    extra: Extra = msgspec.field(default_factory=Extra)
    compensation: Compensation = msgspec.field(default_factory=Compensation)
    standings: Standings = msgspec.field(default_factory=Standings)


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
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        preset = msgspec.convert(raw, Preset)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(str(path), [str(exc)]) from None
    except msgspec.ValidationError as exc:
        raise ConfigError(str(path), i18n.title_was_name(raw, "a scoring preset's")
                          or [str(exc)]) from None
    problems = i18n.text_problems([("title", preset.title)])
    if problems:
        raise ConfigError(str(path), problems)
    return preset


def presets(folder: Path = PRESETS) -> dict[str, Preset]:
    """The shipped presets by file name (``fiim``, ``crow-club``)."""
    return {path.stem: load(path) for path in sorted(folder.glob("*.toml"))}


def first_night(record: Record) -> Night | None:
    """Night 1, the first shooting night (4.5.9's), if the game had one."""
    return next((n for n in record.nights if n.number == 1), None)


def first_victim(record: Record) -> int | None:
    """The seat shot on night 1 (``None``: a miss, or no night 1)."""
    night = first_night(record)
    return night.killed if night is not None else None


def score(record: Record, preset: Preset) -> list[PlayerScore]:
    """Every player's points from one game's record, seat by seat."""
    first = first_night(record)
    victim = first_victim(record)
    best = first.best_move if first is not None else None
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
        if preset.extra.per_game:
            s.extra += preset.extra.per_game
            s.notes.append(f"extra {preset.extra.per_game:+g} a game")
        s.total = round(s.win + s.best_move + s.penalty + s.compensation + s.extra, 6)
        table.append(s)
    return table
