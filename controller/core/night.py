"""Night steps: secret "finger" signals (FIIM 4.5), pure.

The rules core opens one step at a time ("mafia shoot", "Don checks", "best move"...) for the
seats that act. An actor picks by keypad (digits then ``#``), or, on a table with vote buttons
only, by pressing while the controller counts the numbers aloud (``count`` mode, as the judge
counts in 4.5.3): a press is attributed, by its edge time, to the number being spoken then.
At the time limit the step's result is published. Everything here is published privately
(``private/...``), and the only feedback is on the actor's own private indicator.

An actor who confirms more distinct numbers than the step's ``picks`` is handled as the step's
``surplus`` says, a choice the rule book makes per step (the preset's ``[night] surplus``, or
the command's own):

* ``void``: FIIM 4.5.5, a mafioso who "стреляет" in several players makes the shot a miss,
  whatever the order. The actor has no valid pick at all (``several_targets``).
* ``first``: the first ``picks`` numbers stand and every later one is refused, with its reason
  (FIIM 4.5.8 gives one check a night and voids none; 4.5.9 names three best-move numbers).

The result says for each actor why its pick does not stand: ``missing`` (fewer than ``picks``),
``several_targets`` (more, ``void`` only), ``disagree`` (a group whose valid picks differ,
4.5.5 "стреляет в другого игрока").
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contract.events import (
    Miss,
    NightPickEvent,
    NightPickList,
    NightResultEvent,
    NightStepEvent,
    Surplus,
)
from controller.core.effects import CancelCues, Cue, Effect, Emit, Indicate, WakeAt, spoken

Mode = Literal["keypad", "count"]
#: how long after a step's end its result waits for inputs already on their way (a console's
#: press reaches the controller a few ms after its edge, which is what counts)
GRACE = 0.15
TAKEN, REFUSED = 1, 3  # private indicator: steady = taken, double blink = not taken
#: count mode: the first number is spoken this long after the step opens, so that, like every
#: later one, it is scheduled ahead (``controller.cue_schedule``) and sounds on its time
COUNT_LEAD = 0.3
#: The preset's ``[night] surplus`` when it says nothing: FIIM's readings (4.5.5, 4.5.8, 4.5.9)
SURPLUS: dict[str, Surplus] = {"mafia_shot": "void", "don_check": "first",
                               "sheriff_check": "first", "best_move": "first"}
#: a step the preset's ``surplus`` does not list: its first picks stand, since only the shot's
#: paragraph (4.5.5) voids a surplus; a rules core that wants otherwise says so in the command
UNLISTED: Surplus = "first"


def surplus_of(step: str, listed: dict[str, Surplus], given: Surplus | None) -> Surplus:
    """The surplus rule of a step: the command's own, else the preset's for its name, else
    ``UNLISTED``."""
    return given or listed.get(step, UNLISTED)


class NightStep(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    step: str
    actors: tuple[int, ...]
    picks: int = 1
    allowed: tuple[int, ...]  # the numbers that may be picked, in counting order
    mode: Mode = "keypad"
    seconds: float = 10.0  # keypad mode: the time limit
    cadence: float = 1.2  # count mode: seconds per spoken number
    #: a step saved before the choice existed was void: FIIM 4.5.5 was the rule of every step
    surplus: Surplus = "void"
    started: float = 0.0
    ends: float = 0.0
    #: (actor, distinct picks so far): at most ``picks``, or, ``void``, ``picks + 1``: one more
    #: is enough to void them
    chosen: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def cues(self) -> str:
        """The group of this step's spoken numbers (``CancelCues`` when it ends)."""
        return f"night_step/{self.id}"

    def picks_of(self, actor: int) -> tuple[int, ...]:
        return dict(self.chosen).get(actor, ())

    def spoken_at(self, t: float) -> int | None:
        """Count mode: the number being spoken at ``t``."""
        if t < self.started:
            return None
        index = int((t - self.started) // self.cadence)
        return self.allowed[index] if index < len(self.allowed) else None


def start(step: NightStep, t: float, voice: str) -> tuple[NightStep, list[Effect]]:
    """Open the step at ``t``; in count mode its numbers, said in ``voice``, start
    ``COUNT_LEAD`` later and it lasts one ``cadence`` per number."""
    counting = step.mode == "count"
    length = len(step.allowed) * step.cadence if counting else step.seconds
    started = t + (COUNT_LEAD if counting else 0.0)
    step = msgspec.structs.replace(step, started=started, ends=started + length)
    effects: list[Effect] = [
        Emit(NightStepEvent(night_step=step.id, step=step.step, state="started",
                            actors=list(step.actors), picks=step.picks,
                            allowed=list(step.allowed), mode=step.mode, seconds=length,
                            surplus=step.surplus),
             t, private=True),
        WakeAt(step.ends + GRACE)]
    if step.mode == "count":  # the numbers, spoken over the music, each at its time
        effects += [Cue(spoken(voice, f"number/{n}"), started + i * step.cadence, step.cues)
                    for i, n in enumerate(step.allowed)]
    return step, effects


def pick(step: NightStep, actor: int, value: int | None, t: float) \
        -> tuple[NightStep, list[Effect]]:
    """A seat's keypad entry, or a press in count mode (``value`` from ``spoken_at``).

    ``taken``: the number stands as one of the actor's picks; else ``reason`` says why not. One
    more distinct number than ``picks`` is recorded but voids them all (``void``: 4.5.5,
    several targets), or is refused (``first``). An entry before the step opened is not one of
    its picks (nothing is published); a seat that does not act, an entry after the time is up,
    or (count mode) a press in the ``COUNT_LEAD`` before the first number, is refused with its
    reason."""
    if t < step.started - (COUNT_LEAD if step.mode == "count" else 0.0):  # before it opened
        return step, []
    mine = step.picks_of(actor)
    reason: str | None = None
    if actor not in step.actors:
        reason = f"seat {actor} does not act in this step"
    elif t >= step.ends:
        reason = "the step's time was up"
    elif value is None:
        reason = "no number was being spoken"
    elif value not in step.allowed:
        reason = f"{value} is not a target of this step"
    elif value in mine:
        reason = f"{value} is picked already"
    elif step.surplus == "first" and len(mine) >= step.picks:
        first = "the first stands" if step.picks == 1 else f"the first {step.picks} stand"
        reason = f"{_targets(step.picks)} picked already: {first}"
    else:
        if len(mine) <= step.picks:  # one more than allowed is kept: it voids them
            mine = (*mine, value)
            chosen = (*(c for c in step.chosen if c[0] != actor), (actor, mine))
            step = msgspec.structs.replace(step, chosen=chosen)
        if len(mine) > step.picks:
            reason = f"more than {_targets(step.picks)}: the picks are void (FIIM 4.5.5)"
    event = Emit(NightPickEvent(night_step=step.id, step=step.step, actor=actor, value=value,
                                taken=reason is None, reason=reason, picks=list(mine)),
                 t, private=True)
    if actor not in step.actors:  # no indicator for a seat that does not act
        return step, [event]
    return step, [event, Indicate(actor, REFUSED if reason else TAKEN)]


def _targets(n: int) -> str:
    return f"{n} target{'s' if n > 1 else ''}"


def misses(step: NightStep) -> dict[int, Miss | None]:
    """Why each actor's picks do not stand (None: they do), FIIM 4.5.5."""
    miss: dict[int, Miss | None] = {}
    for actor in step.actors:
        mine = step.picks_of(actor)
        miss[actor] = ("several_targets" if len(mine) > step.picks
                       else "missing" if len(mine) < step.picks else None)
    valid = {tuple(sorted(step.picks_of(a))) for a, why in miss.items() if why is None}
    if len(valid) > 1:
        miss = {a: "disagree" if why is None else why for a, why in miss.items()}
    return miss


def finish(step: NightStep) -> list[Effect]:
    """The time is up (or the step was stopped): every actor's picks and why they do not stand,
    and for a group (the mafia's shot, 4.5.4-4.5.5) whether the shot is agreed: every actor
    with the same valid picks. The numbers not spoken yet are not spoken."""
    miss = misses(step)
    agreed = None
    if len(step.actors) > 1:
        agreed = all(why is None for why in miss.values())
    result = NightResultEvent(
        night_step=step.id, step=step.step,
        picks=[NightPickList(a, list(step.picks_of(a)), miss[a]) for a in step.actors],
        missing=[a for a, why in miss.items() if why == "missing"], agreed=agreed)
    return [Emit(result, step.ends, private=True), CancelCues(step.cues),
            *(Indicate(a, 0) for a in step.actors)]
