"""Night privacy on the pure engine, for any book: a night played step by step with every input
checked for what it would make public.

``private_night(game, picks)`` opens tonight's steps in the book's wake order (the judge's Next),
answers each with the table's ``private/night/result`` for the picks given, and holds each
input to the rules of DESIGN 10 and issue 25, item 4:

* the only commands sent while a step runs or is answered are ``cmd/night/step`` to exactly
  the step's actors (the mechanism's ``actors``) and ``cmd/night/reveal`` on one of their
  private indicators; at morning the phase, the standings and the leavers, nothing else;
* the hall's view of the game (``judge.overlay.public.public_view``, its change count aside) and the
  stream overlay without secrets (``judge.overlay.view.overlay_view``) are the same from nightfall
  to the morning: which steps open, who acts and what they pick change nothing anyone sees
  (the seat lights are the table's: the engine sends no light, so none can tell an actor).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.game import Game, step
from judge.game.mechanisms import mechanism
from judge.overlay.public import public_view
from judge.overlay.view import overlay_view, remember
from tests.support.judge_game import Commands, tap
from tests.support.table_event import table_event

#: what the engine may send the table while the night runs (the morning's are below)
NIGHT_VERBS = ("night/step", "night/reveal", "night/stop", "timer/stop")
#: and at morning: the day's phase, the day's standings (the frozen), the night's leavers, the
#: new day
MORNING_VERBS = ("phase", "seats", "timer/stop", "day/start")


def seen(game: Game) -> dict[str, Any]:
    """What the hall sees of ``game``: its public view (but the count of changes, and whether
    the judge may undo, which his first Next of the night settles) and the overlay with no
    secrets."""
    view = public_view(game)
    view.pop("version")
    view.pop("can_undo")
    return {"view": view,
            "overlay": overlay_view(remember((), game, 0.0), 0.0, delay=0, secrets=False)}


@dataclass
class Night:
    """A night as played: the game at morning, every command and record line (``morning``:
    the morning's), who each step was opened for (``woke``) and whose indicator answered
    (``told``)."""

    game: Game
    commands: Commands = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    morning: list[str] = field(default_factory=list)
    woke: dict[str, list[int]] = field(default_factory=dict)
    told: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


def private_night(game: Game, picks: dict[str, dict[int, list[int]]]) -> Night:
    """Tonight's steps in turn, each answered with ``picks`` (step -> actor -> seats; a step
    not given: nobody picks), checked for privacy at every input, then the morning."""
    assert game.stage == "night", game.stage
    hall = seen(game)
    night = Night(game)
    at = 0.0
    while night.game.stage == "night":
        before = night.game
        at += 1
        after, commands, lines = step(before, tap("next"), at)
        night.commands += commands
        night.lines += [str(line) for line in lines]
        night.game = after
        if after.running_step is None:  # morning
            assert {c.spec.verb for c in commands} <= set(MORNING_VERBS), commands
            night.morning = [str(line) for line in lines]
            break
        name = after.running_step
        book_step = after.book.step(name)
        actors = list(mechanism(book_step.mechanism).actors(before, book_step))
        opened = [c for c in commands if c.spec.verb == "night/step"]
        assert [c.payload.actors for c in opened] == [actors], (name, opened, actors)
        assert {c.spec.verb for c in commands} <= set(NIGHT_VERBS), commands
        assert seen(after) == hall, f"opening {name} shows"
        night.woke[name] = actors
        chosen = picks.get(name, {})
        assert set(chosen) <= set(actors), f"{name}: {sorted(chosen)} do not act ({actors})"
        at += 1
        after, commands, lines = step(after, table_event("private/night/result", {
            "step": name, "missing": [a for a in actors if a not in chosen],
            "picks": [{"actor": a, "picks": p} for a, p in chosen.items()]}), at)
        night.commands += commands
        night.lines += [str(line) for line in lines]
        night.game = after
        assert {c.spec.verb for c in commands} <= {"night/reveal"}, commands
        night.told[name] = [(c.payload.seat, c.payload.pattern) for c in commands]
        assert {seat for seat, _ in night.told[name]} <= set(actors), night.told[name]
        assert seen(after) == hall, f"the answer of {name} shows"
    return night
