"""Night steps: secret "finger" signals (FIIM 4.5), pure.

The rules core opens one step at a time ("mafia shoot", "Don checks", "best move"...) for the
seats that act. An actor picks by keypad (digits then ``#``), or, on a table with vote buttons
only, by pressing while the controller counts the numbers aloud (``count`` mode, as the judge
counts in 4.5.3): a press is attributed, by its edge time, to the number being spoken then.
At the time limit the step's result is published. Everything here is published privately
(``private/...``), and the only feedback is on the actor's own private indicator.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from controller.core.effects import Cue, Effect, Emit, Indicate, WakeAt

Mode = Literal["keypad", "count"]
#: how long after a step's end its result waits for inputs already on their way (a console's
#: press reaches the controller a few ms after its edge, which is what counts)
GRACE = 0.15
TAKEN, REFUSED = 1, 3  # private indicator: steady = taken, double blink = not taken


class NightStep(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    step: str
    actors: tuple[int, ...]
    picks: int = 1
    allowed: tuple[int, ...]  # the numbers that may be picked, in counting order
    mode: Mode = "keypad"
    seconds: float = 10.0  # keypad mode: the time limit
    cadence: float = 1.2  # count mode: seconds per spoken number
    started: float = 0.0
    ends: float = 0.0
    chosen: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (actor, picks so far)

    def picks_of(self, actor: int) -> tuple[int, ...]:
        return dict(self.chosen).get(actor, ())

    def spoken_at(self, t: float) -> int | None:
        """Count mode: the number being spoken at ``t``."""
        if t < self.started:
            return None
        index = int((t - self.started) // self.cadence)
        return self.allowed[index] if index < len(self.allowed) else None


def start(step: NightStep, t: float) -> tuple[NightStep, list[Effect]]:
    length = len(step.allowed) * step.cadence if step.mode == "count" else step.seconds
    step = msgspec.structs.replace(step, started=t, ends=t + length)
    effects: list[Effect] = [
        Emit("night/step", t, {"night_step": step.id, "step": step.step, "state": "started",
                               "actors": list(step.actors), "picks": step.picks,
                               "allowed": list(step.allowed), "mode": step.mode,
                               "seconds": length}, private=True),
        WakeAt(step.ends + GRACE)]
    if step.mode == "count":  # the numbers, spoken over the music, each at its time
        effects += [Cue(f"number/{n}", t + i * step.cadence) for i, n in enumerate(step.allowed)]
    return step, effects


def pick(step: NightStep, actor: int, value: int | None, t: float) \
        -> tuple[NightStep, list[Effect]]:
    """An actor's keypad entry, or a press in count mode (``value`` from ``spoken_at``)."""
    if actor not in step.actors or not step.started <= t < step.ends:
        return step, []
    mine = step.picks_of(actor)
    taken = value is not None and value in step.allowed and value not in mine \
        and len(mine) < step.picks
    if taken:
        mine = (*mine, value)  # type: ignore[arg-type]
        chosen = (*(c for c in step.chosen if c[0] != actor), (actor, mine))
        step = msgspec.structs.replace(step, chosen=chosen)
    event = Emit("night/pick", t, {"night_step": step.id, "step": step.step, "actor": actor,
                                   "value": value, "taken": taken, "picks": list(mine)},
                 private=True)
    return step, [event, Indicate(actor, TAKEN if taken else REFUSED)]


def finish(step: NightStep) -> list[Effect]:
    """The time is up: every actor's picks, and for a group (the mafia's shot, 4.5.5) whether
    they all picked the same."""
    picks = {actor: list(step.picks_of(actor)) for actor in step.actors}
    agreed = None
    if len(step.actors) > 1:
        agreed = all(picks.values()) and len({tuple(p) for p in picks.values()}) == 1
    return [Emit("night/result", step.ends, {
        "night_step": step.id, "step": step.step,
        "picks": [{"actor": a, "picks": p} for a, p in picks.items()],
        "missing": [a for a, p in picks.items() if len(p) < step.picks],
        "agreed": agreed,
    }, private=True), *(Indicate(a, 0) for a in step.actors)]
