"""The stream overlay's view: the game as the hall sees it now, and, only when the organiser
enables it, the secrets as they stood ``delay`` seconds ago.

Pure: time is data. A ``History`` is the game after each change with the time it changed (the
shell adds one entry per change; a restarted panel rebuilds it from the journal). The overlay
shows:

- **live**, from the newest game through ``judge.overlay.public.public_view`` (built without
  roles, night picks or checks): seats, names, fouls, who has the floor and the time left,
  nominations (none once the game is over), the vote's counts and the fists raised now, who
  is leaving and who left and how, the winner;
- **late**, only with ``secrets`` on: roles (with their sides), the shots, every check (in the
  book's words: its step's and its answer's) and the best move, taken from the newest game at
  least ``delay`` seconds old (``now - delay``).
  A secret first known at ``t`` is in no view before ``t + delay``: the entries after the cutoff
  are never read for a secret. ``delay`` must be above zero: a secret is never shown live.

The night's steps (which one runs) stay out of both: the order of steps tells whether the Don
and the Sheriff are still in (there is no Don's check without a Don) and whether night 1 had a
kill (the best move). So does the game's ``version``, which counts those steps too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from judge.game import Game
from judge.game.mechanisms.check import MECHANISM as CHECK
from judge.overlay.public import public_view

History = tuple[tuple[float, Game], ...]


@dataclass(frozen=True)
class Shown:
    """One change as the panel shows it, for a follower (the overlay, ``judge.overlay.routes``):
    the game, the floor's clock (a new object at each ``event/timer``) and the seats whose vote
    button is down."""

    game: Game
    timer: dict[str, Any] | None
    down: frozenset[int]


#: stages by daylight: the fists raised on the seat buttons are the hall's to see
DAYLIGHT = ("day", "vote", "defence", "question", "last_words")


def remember(history: History, game: Game, at: float) -> History:
    """``history`` with ``game`` added at ``at``. A game's ``version`` goes up at every change,
    so a lower version is a new game (its history starts again) and the same version is the
    same game (a copy, as a replayed journal makes: it keeps its time). Times never go back (a
    clock set back must not make a later secret look older)."""
    if not history or game.version < history[-1][1].version:
        return ((at, game),)
    last_at, last = history[-1]
    if game is last:
        return history
    if game.version == last.version:
        return (*history[:-1], (last_at, game))
    return (*history, (max(at, last_at), game))


def overlay_view(history: History, now: float, *, delay: float, secrets: bool,
                 timer: Mapping[str, Any] | None = None, timer_at: float = 0.0,
                 down: Iterable[int] = ()) -> dict[str, Any]:
    """What the overlay shows at ``now``: the public game, plus the secrets known by
    ``now - delay`` when ``secrets`` is on. ``timer`` is the table's latest ``event/timer`` as
    the panel keeps it (received at ``timer_at``), ``down`` the seats whose button is down."""
    if secrets and delay <= 0:
        raise ValueError("secrets go on the overlay only late: a delay above zero")
    if not history:
        raise ValueError("an overlay needs a game")
    game = history[-1][1]
    public = public_view(game)
    departures = _departures(history)
    fists = set(down) & set(game.alive) if game.stage in DAYLIGHT else set()
    vote = public["vote"]
    view: dict[str, Any] = {
        "type": "overlay", "stage": game.stage, "day": game.day,
        "night": game.night, "winner": game.winner,
        "winner_title": None if game.winner in (None, "draw") else dict(
            game.book.team_title(game.winner)),
        "floor": game.floor,
        "speakers": public["speakers"], "nominees": public["nominees"], "tied": public["tied"],
        "seats": [{**seat, "floor": game.floor == seat["seat"],
                   "nominated": seat["seat"] in public["nominees"],  # none once it is over
                   "down": seat["seat"] in fists,
                   "tied": seat["seat"] in public["tied"],
                   "left": departures.get(seat["seat"])} for seat in public["seats"]],
        "timer": _timer(game, timer, now - timer_at),
        "vote": None if vote is None else {
            "kind": vote["kind"], "candidates": vote["candidates"], "counts": vote["counts"],
            "proposed": None if vote["proposed"] is None else {
                k: vote["proposed"][k] for k in ("candidate", "count", "voters")},
            "fists": sorted(fists)},
        "leaving": None if not game.leaving else {
            "seats": list(game.leaving),
            "how": "killed" if game.after_last_words == "day" else "voted"},
    }
    if secrets:
        view["secrets"] = _secrets(history, now - delay) | {"delay": delay}
    return view


def _timer(game: Game, timer: Mapping[str, Any] | None, age: float) -> dict[str, Any] | None:
    """The floor's time left at ``now`` (the table's last timer event, ``age`` seconds old):
    the speaker's, the mafia's minute of night 0 (4.2.1) or a club's discussion (the whole
    table's, no seat), which everyone hears."""
    if timer is None:
        return None
    seat = timer.get("seat")
    floor = game.floor is not None and seat == game.floor
    meeting = game.stage == "night0" and game.countdown and seat is None
    discussion = game.discussing and seat is None and timer.get("kind") == "discussion"
    if not (floor or meeting or discussion) \
            or not isinstance(timer.get("remaining_ms"), int | float):
        return None
    running = bool(timer.get("running"))
    left = max(0, round(timer["remaining_ms"] - (1000 * age if running else 0)))
    return {"seat": seat, "kind": timer.get("kind"), "running": running, "remaining_ms": left}


def _departures(history: History) -> dict[int, dict[str, Any]]:
    """Who left, how and when, as the table heard it: killed at night (4.5.4), voted out
    (4.4.13; jailed, in the online book), out on fouls (or disqualified), or lost the classic
    club's roulette (the tied player who called the judge's number: voted out, by the roulette's
    stage he left from, with his last words or at once)."""
    gone: dict[int, dict[str, Any]] = {}
    came: dict[int, str] = {}  # the stage each leaver was in before he was leaving
    before: Game | None = None
    for _, game in history:
        for seat in game.leaving:
            if before is not None:
                came.setdefault(seat, before.stage)
        for player in game.players:
            if player.in_game or player.seat in gone or before is None:
                continue
            if player.left in ("fouls", "disqualified"):  # in last words too: not the vote
                by_night = before.stage in ("night0", "night")
                how: dict[str, Any] = {"how": "fouls", **({"night": before.night} if by_night
                                                           else {"day": before.today})}
            elif player.left == "shot":
                how = {"how": "killed", "night": before.night}
            else:
                roulette = "roulette" in (before.stage, came.get(player.seat))
                how = {"how": "roulette" if roulette else "voted", "day": before.day}
            gone[player.seat] = how
        before = game
    latest = history[-1][1]  # an undone fourth foul brings a seat back
    return {seat: how for seat, how in gone.items() if not latest.player(seat).in_game}


def _secrets(history: History, cutoff: float) -> dict[str, Any]:
    """The secrets as the games up to ``cutoff`` knew them; nothing later is read."""
    known = [game for at, game in history if at <= cutoff]
    if not known:
        return {"roles": [], "titles": {}, "teams": {}, "shots": [], "checks": [],
                "best_move": []}
    last = known[-1]
    dealt = all(p.role for p in last.players)
    shots = sorted({(g.night, g.killed) for g in known if g.killed is not None})
    return {
        "roles": [p.role for p in last.players] if dealt else [],
        # the book's words for the cards, per language (the page shows the viewer's)
        "titles": {role: dict(info.title) for role, info in last.book.roles.items()},
        "shots": [{"night": night, "seat": seat} for night, seat in shots],
        "checks": [_check(last, step, night, seat, answer)
                   for step, night, seat, answer in last.checks],
        # each card's side, for its colour on the overlay (the book's, not FIIM's two)
        "teams": {role: info.team for role, info in last.book.roles.items()},
        "best_move": list(last.best_move),
    }


def _check(game: Game, step: str, night: int, seat: int, answer: bool) -> dict[str, Any]:
    """A check in the book's words, per language: who checked (the card of the step's actors,
    the Sheriff or the commissar; the step's label when no card acts) and the answer as the step
    says it ("красные", "не мафия")."""
    made = game.book.step(step)
    by = game.book.role_title(made.roles[0]) if made.roles else made.words
    return {"step": step, "by": dict(by), "night": night, "seat": seat,
            "answer": dict(CHECK.says(made, answer))}
