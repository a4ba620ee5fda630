"""A kill: the actors pick one seat, who leaves at morning unless the night's later mechanisms
take it back (a heal, an immortal).

Who decides, by the step's ``options``:

- ``agree = "all"`` (FIIM 4.5.4-4.5.5): every actor on the same single seat; an actor on
  another seat, on several, or on none is a miss (the table says so in each pick's ``miss``
  and in ``agreed``);
- ``agree = "named"`` (the online book's reading): every actor who names someone names the
  same seat; an actor who names nobody does not spoil it; nobody naming is no kill;
- ``deciders`` (the Crow Club's Don, the classic club's Godfather then Right Hand): the first
  of these roles among the actors decides alone (no pick: a miss, "сделать промах"); the others'
  picks are recorded only. With no decider awake, ``agree`` decides among the actors but those
  of the ``ignore`` roles (the classic club's joker).

A seat out of the game is no kill. The record lines cite ``hit`` and ``miss``; ``announce``:
the morning names who killed (the online book's «Утром ведущий произносит…»: the maniac killed
one, the mafia another), a kill the heal took back included.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from judge.game.book import Book, Cite, Name, Step
from judge.game.mechanisms.base import Acted, Fate, Mechanism, own
from judge.game.state import Act, Game, Picks


class KillOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    who: str
    hit: Cite
    miss: Cite
    agree: Literal["all", "named"] = "all"
    deciders: tuple[Name, ...] = ()
    ignore: tuple[Name, ...] = ()
    announce: bool = False  # the morning names the killers (the online book's morning)


class Kill(Mechanism):
    name = "kill"
    Options = KillOptions

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: KillOptions = step.options
        target = self._target(game, options, picks)
        standing = tuple(picks.standing())
        if target is None or target not in game.alive:
            return Acted(Act(game.night, step.name, self.name, standing, (), "miss"),
                         lines=(f"{options.miss}: {options.who} missed: nobody is killed",))
        return Acted(Act(game.night, step.name, self.name, standing, (target,), "kill"),
                     lines=(f"{options.hit}: {options.who} shoot seat {target}",))

    def check(self, book: Book, step: Step) -> list[str]:
        options: KillOptions = step.options
        return [f"options: no role {r!r}" for r in (*options.deciders, *options.ignore)
                if r not in book.roles]

    def _target(self, game: Game, options: KillOptions, picks: Picks) -> int | None:
        standing = picks.standing()
        actors = [p.actor for p in picks.picks] + list(picks.missing)
        for role in options.deciders:
            decider = next((a for a in actors if game.player(a).role == role), None)
            if decider is not None:
                chosen = standing.get(decider, ())
                return chosen[0] if len(chosen) == 1 else None
        counted = {a for a in actors if game.player(a).role not in options.ignore}
        standing = {a: t for a, t in standing.items() if a in counted}
        if options.agree == "named":
            return _agreed(standing, complete=True)
        # the table's ``agreed`` counts every actor: with some ignored, the engine counts
        return _agreed(standing, complete=counted <= set(standing)
                       and (bool(options.ignore) or picks.agreed is not False))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        return (*fates, *(Fate(t, "dies", a.step) for a in own(acts, self)
                          if a.outcome == "kill" for t in a.targets))

    def describe(self, act: Act) -> str:
        return f"shot: {act.targets[0]}" if act.outcome == "kill" else f"{act.step}: miss"

    def announce(self, game: Game, act: Act) -> str | None:
        options: KillOptions = game.book.step(act.step).options
        if not options.announce or act.outcome != "kill":
            return None
        return f"{options.who} killed seat {act.targets[0]}"


def _agreed(standing: dict[int, tuple[int, ...]], complete: bool) -> int | None:
    """The one seat every standing pick names, when ``complete`` (no actor spoiled it)."""
    targets = set(standing.values())
    if not complete or len(targets) != 1:
        return None
    (chosen,) = targets
    return chosen[0] if len(chosen) == 1 else None


MECHANISM = Kill()
