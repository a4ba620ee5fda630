"""What a night mechanism is: the protocol every module of ``judge.game.mechanisms`` keeps.

A mechanism is one kind of night action (a kill, a check, a best move; a heal, a poison, a
silence...) or a trait a role carries (an immortal survives the night). A book's wake order
names, for each step, the mechanism that runs it and its ``options`` (checked against the
mechanism's ``Options`` struct when the book is put to use). The engine asks a mechanism four
things, all pure:

- ``actors(game, step)``: who wakes for the step tonight (by default the living holders of the
  step's roles); a step with no actor does not open (``opens``), nor one that a step opening
  tonight ``replaces``;
- ``act(game, step, picks) -> Acted``: the step's picks (the table's, with the judge's entries
  laid over) made into what the step did: an ``Act`` for the record and the morning, the private
  answers for the actors' indicators (``reveal``), and the record lines;
- ``settle(game, acts, fates) -> fates``: at its place in the book's ``[night] resolution``
  order, what this mechanism does to the night's fates (a kill adds ``dies``, a heal takes back
  a ``dies`` from a kill, an immortal's trait takes back every ``dies`` of its holder). It is
  asked at every change of the night, so a later step can depend on the night so far (the best
  move's victim, the paranoid's "when he is shot");
- ``describe(game, act)``: the act in a few words for the judge's screen ("shot: 7"), as
  ``Words`` (a catalog key and its parameters: docs/i18n.md).

and, where a mechanism needs them (each has a default that does nothing): ``picks`` (how many
seats the step takes tonight: the Crow Club's firefighter names three the night he dies),
``offers``/``choose`` (the judge's decisions: the thief turns black?, the next Don, the
immune players; a mechanism with no step, a trait or one only in the book's resolution, gets
``step=None``), ``bars`` (a day action it forbids on a seat: an immune player is not
nominated), ``morning`` (what it changes when the night ends: immunity is over) and
``announce`` (what the judge says of an act at morning). ``cites`` names the book's ``[cite]``
keys it cites (the loader requires them).

Every effect lands at morning (all four books: docs/rules/README.md, "When a night's effects
land"): a role killed tonight still acts tonight. See docs/judge-engine.md for a worked example.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import msgspec

from judge.game.actions import Offer
from judge.game.book import Book, NoOptions, Step
from judge.game.state import Act, Command, Game, Pick, Picks, Refused, Result
from kit.i18n import Line, Words


class Fate(NamedTuple):
    """What the night does to a seat: ``what`` (``dies``, or a standing for the coming day such
    as ``silenced`` or ``frozen``) and the step (or trait) that did it, ``by``."""

    seat: int
    what: str
    by: str


@dataclass(frozen=True)
class Acted:
    """What a step did: the ``act`` that stood (``None``: nothing did), the commands (the
    actors' private answers), the record lines (``Line(step.rule, key, **params)``) and the
    players it makes act as another role from now on (``becomes``: seat and role, the
    ``Player.acts`` the night sets: the thief's copy, the next Don)."""

    act: Act | None
    commands: tuple[Command, ...] = ()
    lines: tuple[Line, ...] = ()
    becomes: tuple[tuple[int, str], ...] = ()


class Mechanism:
    """One mechanism. A module of ``judge.game.mechanisms`` defines a subclass and an instance
    of it as ``MECHANISM``; its ``name`` is what a book's step names as ``mechanism``."""

    name: ClassVar[str]
    #: the step's ``options`` in the book, as a struct (unknown keys are errors)
    Options: ClassVar[type[msgspec.Struct]] = NoOptions
    #: the book's ``[cite]`` keys it cites (a trait, which has no step and so no ``rule``)
    cites: ClassVar[tuple[str, ...]] = ()
    #: each ``Act.outcome`` its acts record and the protocol sheet's words for it (its seats
    #: the message's ``seats``): what a person reads instead of the record's identifier
    outcomes: ClassVar[dict[str, str]] = {"picked": "sheet.act.picked"}
    #: each decision its ``offers`` ask of the judge and the one shape its value takes (a
    #: type: ``Seat``, ``Seats``, a ``Literal``; ``None``: no value); ``Choose`` is checked
    #: against it, and the live channel's schema describes it (docs/judge-api.md)
    decisions: ClassVar[dict[str, Any]] = {}

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

    def replaces(self, game: Game, step: Step) -> tuple[str, ...]:
        """The steps that do not open tonight because ``step`` does (the classic club's chief
        kills instead of checking). Default: none."""
        return ()

    def picks(self, game: Game, step: Step) -> int:
        """How many seats each actor names in ``step`` tonight (default: the step's ``picks``)."""
        return step.picks

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        """What the step's picks did (the default records the standing picks, no effect)."""
        standing = picks.standing()
        if not standing:
            return Acted(None, lines=(Line(step.rule, "line.step.no_pick", step=step.words),))
        targets = tuple(t for chosen in standing.values() for t in chosen)
        act = Act(game.night, step.name, self.name, tuple(standing), targets, "picked")
        return Acted(act, lines=(Line(step.rule, "line.step.picked", step=step.words,
                                      seats=list(targets)),))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        """The night's fates after this mechanism's part (default: none)."""
        return fates

    def describe(self, game: Game, act: Act) -> Words:
        """The act in a few words for the judge's screen (default: the step and its seats)."""
        return Words("act.picked", step=game.book.step(act.step).words,
                     seats=list(act.targets))

    def written(self, book: Book, step: Step, outcome: str, seats: list[int]) -> Words:
        """What a recorded act did, as the protocol sheet writes it: from the record and the
        book alone (the sheet has no game), in ``outcomes``' words; an outcome a newer or
        older version recorded is named as it was (``sheet.act.other``)."""
        key = self.outcomes.get(outcome)
        if key is None:
            return Words("sheet.act.other", outcome=outcome, seats=seats)
        return Words(key, seats=seats, count=len(seats))  # «убит 5», «убиты 5, 6»

    def announce(self, game: Game, act: Act) -> Words | None:
        """What the judge says of ``act`` at morning, to the whole table (the online book's
        "врач лечил Г", the Crow Club's poisoned player), or ``None``: nothing (FIIM tells
        nothing of the night but who leaves). Called at morning for tonight's acts in wake
        order, ``game.dying`` still the seats the night takes out."""
        return None

    def offers(self, game: Game, step: Step | None) -> list[Offer]:
        """The judge's decisions the step asks for now (``actions.decision`` offers of one of
        its ``decisions``, ``of`` the step's name, or the mechanism's for one with no step: the
        thief's "black?", a successor, the immune players...). Asked at setup too. Default:
        none."""
        return []

    def choose(self, game: Game, step: Step | None, value: Any) -> Result:
        """The judge's decision for this step (``Choose``): one the step offers now, its
        ``value`` already of the decision's shape (``decisions``)."""
        raise Refused(Line(step.rule if step is not None else None, "refused.choose.nothing",
                           step=step.words if step is not None else {"en": self.name}))

    def bars(self, game: Game, seat: int, action: str) -> Line | None:
        """Why ``seat`` may not be the object of the day's ``action`` now (``nominated``), as
        the refusal's line; ``None``: nothing of this mechanism's forbids it."""
        return None

    def morning(self, game: Game) -> Result:
        """What the mechanism changes as the night ends, before the night's leavers leave
        (default: nothing)."""
        return Result(game, [], [])


def holders(game: Game, step: Step) -> tuple[int, ...]:
    """The living holders of the step's roles, or of the first ``take_over`` role held: the
    cards first, then those acting as one (the Crow Club's thief who copied it)."""
    for roles in ((*step.roles,), *((r,) for r in step.take_over)):
        seats = game.with_role(*roles)
        if seats:
            return tuple(sorted(seats, key=lambda s: game.player(s).role not in roles))
    return ()


def lead(game: Game, step: Step, picks: Picks) -> Pick | None:
    """The pick that stands for a step whose actors act as one (a doctor, a sheriff, and the
    Crow Club's thief who copied the card): the first whole pick (``Pick.whole``: the pair
    need not agree) of a card's holder, else the first whole pick."""
    standing = [p for p in picks.picks if p.whole]
    return min(standing, key=lambda p: game.player(p.actor).role not in step.roles,
               default=None)


def own(acts: tuple[Act, ...], mechanism: Mechanism) -> tuple[Act, ...]:
    return tuple(a for a in acts if a.mechanism == mechanism.name)
