"""What a night mechanism is: the protocol every module of ``judge.game.mechanisms`` keeps.

A mechanism is one kind of night action (a kill, a check, a best move; a heal, a poison, a
silence...) or a trait a role carries (an immortal survives the night). A book's wake order
names, for each step, the mechanism that runs it and its ``options`` (checked against the
mechanism's ``Options`` struct when the book is put to use). The engine asks a mechanism four
things, all pure:

- ``actors(game, step)``: who wakes for the step tonight (by default the living holders of the
  step's roles); a step with no actor does not open (``opens``);
- ``act(game, step, picks) -> Acted``: the step's picks (the table's, with the judge's entries
  laid over) made into what the step did: an ``Act`` for the record and the morning, the private
  answers for the actors' indicators (``reveal``), and the record lines;
- ``settle(game, acts, fates) -> fates``: at its place in the book's ``[night] resolution``
  order, what this mechanism does to the night's fates (a kill adds ``dies``, a heal takes back
  a ``dies`` from a kill, an immortal's trait takes back every ``dies`` of its holder). It is
  asked at every change of the night, so a later step can depend on the night so far (the best
  move's victim, the paranoid's "when he is shot");
- ``describe(act)``: the act in a few words for the judge's screen ("shot: 7").

Every effect lands at morning (all four books: docs/rules/README.md, "When a night's effects
land"): a role killed tonight still acts tonight. See docs/judge-engine.md for a worked example.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import msgspec

from judge.game.actions import Offer
from judge.game.book import Book, NoOptions, Step
from judge.game.state import Act, Command, Game, Picks, Refused, Result, seats_text


class Fate(NamedTuple):
    """What the night does to a seat: ``what`` (``dies``, or a standing for the coming day such
    as ``silenced`` or ``frozen``) and the step (or trait) that did it, ``by``."""

    seat: int
    what: str
    by: str


@dataclass(frozen=True)
class Acted:
    """What a step did: the ``act`` that stood (``None``: nothing did), the commands (the
    actors' private answers) and the record lines."""

    act: Act | None
    commands: tuple[Command, ...] = ()
    lines: tuple[str, ...] = ()


class Mechanism:
    """One mechanism. A module of ``judge.game.mechanisms`` defines a subclass and an instance
    of it as ``MECHANISM``; its ``name`` is what a book's step names as ``mechanism``."""

    name: ClassVar[str]
    #: the step's ``options`` in the book, as a struct (unknown keys are errors)
    Options: ClassVar[type[msgspec.Struct]] = NoOptions

    def check(self, book: Book, step: Step) -> list[str]:
        """What the options' types cannot say (a role or a step that the book does not have),
        each problem with its key below the step (``options.of: ...``)."""
        return []

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        """Who wakes for ``step`` tonight: the living holders of its roles, or, when there is
        none, of the first of its ``take_over`` roles that has one."""
        return holders(game, step)

    def opens(self, game: Game, step: Step) -> bool:
        """Whether ``step`` opens tonight (its nights are checked before)."""
        return bool(self.actors(game, step))

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        """What the step's picks did (the default records the standing picks, no effect)."""
        standing = picks.standing()
        if not standing:
            return Acted(None, lines=(f"{step.rule}: {step.words}: no pick",))
        targets = tuple(t for chosen in standing.values() for t in chosen)
        act = Act(game.night, step.name, self.name, tuple(standing), targets, "picked")
        return Acted(act, lines=(f"{step.rule}: {step.words}: {seats_text(targets)}",))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        """The night's fates after this mechanism's part (default: none)."""
        return fates

    def describe(self, act: Act) -> str:
        return f"{act.step} {seats_text(act.targets)}"

    def announce(self, game: Game, act: Act) -> str | None:
        """What the judge says of ``act`` at morning, to the whole table (the online book's
        "врач лечил Г", the Crow Club's poisoned player), or ``None``: nothing (FIIM tells
        nothing of the night but who leaves). Called for tonight's acts in wake order."""
        return None

    def offers(self, game: Game, step: Step) -> list[Offer]:
        """The judge's decisions the step asks for now (``choose`` offers with ``args`` ``{"of":
        step.name}``; the thief's "black?", a successor...). Default: none."""
        return []

    def choose(self, game: Game, step: Step, value: Any) -> Result:
        """The judge's decision for this step (``Choose``)."""
        raise Refused(f"{step.rule}: the {step.name} step asks the judge nothing")


def holders(game: Game, step: Step) -> tuple[int, ...]:
    """The living holders of the step's roles, or of the first ``take_over`` role held."""
    for roles in ((*step.roles,), *((r,) for r in step.take_over)):
        seats = game.with_role(*roles)
        if seats:
            return seats
    return ()


def own(acts: tuple[Act, ...], mechanism: Mechanism) -> tuple[Act, ...]:
    return tuple(a for a in acts if a.mechanism == mechanism.name)
