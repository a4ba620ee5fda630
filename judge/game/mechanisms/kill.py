"""A kill: the actors pick one seat, who leaves at morning unless the night's later mechanisms
take it back (a heal, an immortal).

Who decides, by the step's ``options`` (the table's ``disagree`` is its count of FIIM's
shot; the engine counts each book's from the actors' own picks, ``Picks.standing``):

- ``agree = "all"`` (FIIM 4.5.4-4.5.5): every actor on the same single seat; an actor on
  another seat, on several, or on none is a miss;
- ``agree = "named"`` (the online book's reading): every actor who names someone names the
  same seat; an actor who names nobody does not spoil it; nobody naming is no kill;
- ``deciders`` (the Crow Club's Don, the classic club's Godfather then Right Hand, "После
  смерти Крестного Отца принимает его функции"): the first of these roles, in the book's order
  of succession, among the actors decides alone, whatever the others point at («Дон Мафии»:
  "Если вся команда мафии ночью стреляет в игрока номер 6, а Дон показывает 3, Покинет стол
  3"); his no pick, or several, is a miss ("сделать промах"); the others' picks are recorded
  only. The role's card decides, else one acting as it (``Player.acts``: the Crow Club's next
  Don, named by the last). With no decider awake, ``agree`` decides among the actors but those
  of the ``ignore`` roles (the classic club's joker).

A seat out of the game is no kill. The record lines cite ``hit`` and ``miss``; ``announce``:
the morning names who killed (the online book's «Утром ведущий произносит…»: "маньяк убил …,
мафия убила Б"), only a kill that stands: one the heal took back is not named, so a save is
not told apart from a quiet night (docs/rules/online-003.md, "Morning"); ``saved``: the
morning's words when the night's heal took this kill back (the Crow Club's «Доктор»: "мафия
этой ночью стреляла, но подоспела скорая"); ``own_last_words = false``: a victim of the
killers' own side leaves without last words («Дон Мафии»: "Отстреленный уходит без
завещания").
"""  # noqa: RUF002 (the books' Russian, quoted)

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from judge.game.book import Book, Cite, Local, Name, Step, local_problems
from judge.game.mechanisms.base import Acted, Fate, Mechanism, own
from judge.game.state import Act, Game, Picks
from kit.i18n import Line, Words


class KillOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    who: Local  # who shoots, per language: { ru = "мафия", en = "the mafia" }
    hit: Cite
    miss: Cite
    agree: Literal["all", "named"] = "all"
    deciders: tuple[Name, ...] = ()
    ignore: tuple[Name, ...] = ()
    announce: bool = False  # the morning names the killers (the online book's morning)
    saved: Local | None = None  # the morning's words when the heal took it back
    own_last_words: bool = True  # false: a victim of the killers' side has none


class Kill(Mechanism):
    name = "kill"
    outcomes: ClassVar[dict[str, str]] = {"kill": "sheet.act.kill", "miss": "sheet.act.miss"}
    Options = KillOptions

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: KillOptions = step.options
        target = self._target(game, options, picks)
        standing = tuple(picks.standing())
        if target is None or target not in game.alive:
            return Acted(Act(game.night, step.name, self.name, standing, (), "miss"),
                         lines=(Line(options.miss, "line.kill.miss", who=options.who),))
        return Acted(Act(game.night, step.name, self.name, standing, (target,), "kill"),
                     lines=(Line(options.hit, "line.kill", who=options.who, seat=target),))

    def check(self, book: Book, step: Step) -> list[str]:
        options: KillOptions = step.options
        texts = [("options.who", options.who)]
        if options.saved is not None:
            texts.append(("options.saved", options.saved))
        return [*(f"options: no role {r!r}" for r in (*options.deciders, *options.ignore)
                  if r not in book.roles), *local_problems(texts)]

    def _target(self, game: Game, options: KillOptions, picks: Picks) -> int | None:
        standing = picks.standing()
        actors = [p.actor for p in picks.picks] + list(picks.missing)
        decider = _decider(game, options, actors)
        if decider is not None:
            chosen = standing.get(decider, ())
            return chosen[0] if len(chosen) == 1 else None
        counted = {a for a in actors if game.player(a).role not in options.ignore}
        standing = {a: t for a, t in standing.items() if a in counted}
        return _agreed(standing, complete=options.agree == "named" or counted <= set(standing))

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        kills = [a for a in own(acts, self) if a.outcome == "kill"]
        unheard = [Fate(t, "no_last_words", a.step) for a in kills for t in a.targets
                   if _own_unheard(game.book.step(a.step))
                   and game.team(t) in {game.team(s) for s in a.actors}]
        return (*fates, *(Fate(t, "dies", a.step) for a in kills for t in a.targets), *unheard)

    def describe(self, game: Game, act: Act) -> Words:
        step = game.book.step(act.step)
        if act.outcome == "kill":
            return Words("act.kill", step=step.words, seat=act.targets[0])
        return Words("act.kill.miss", step=step.words)

    def announce(self, game: Game, act: Act) -> Words | None:
        options: KillOptions = game.book.step(act.step).options
        if act.outcome != "kill":
            return None
        if options.announce:
            stands = act.targets[0] in game.dying
            return Words("said.kill", who=options.who, seat=act.targets[0]) if stands else None
        if options.saved is not None and _healed(game, act):
            return Words("said.kill.saved", says=options.saved)
        return None


def _decider(game: Game, options: KillOptions, actors: list[int]) -> int | None:
    """The actor who decides the kill alone: the first of the ``deciders`` roles held among
    the actors, by its card, else by one acting as it; ``None``: the actors agree."""
    for role in options.deciders:
        decider = next((a for a in actors if game.player(a).role == role),
                       next((a for a in actors if game.player(a).acts == role), None))
        if decider is not None:
            return decider
    return None


def _own_unheard(step: Step) -> bool:
    """Whether ``step``'s victims of the killers' own side leave without last words
    (``own_last_words = false``; a kill of its own options, the classic club's chief's, keeps
    them)."""
    options = step.options
    return isinstance(options, KillOptions) and not options.own_last_words


def _healed(game: Game, act: Act) -> bool:
    """Whether tonight's heal took ``act``'s kill back: its victim stays and was healed, and no
    kill before it in the wake order shot the same seat (the morning says it once)."""
    tonight = [a for a in game.acts if a.night == game.night]
    seat = act.targets[0]
    first = next(a for a in tonight if a.mechanism == act.mechanism and a.outcome == "kill"
                 and a.targets == act.targets)
    return first == act and seat not in game.dying and any(
        a.mechanism == "heal" and seat in a.targets for a in tonight)


def _agreed(standing: dict[int, tuple[int, ...]], complete: bool) -> int | None:
    """The one seat every standing pick names, when ``complete`` (no actor spoiled it)."""
    targets = set(standing.values())
    if not complete or len(targets) != 1:
        return None
    (chosen,) = targets
    return chosen[0] if len(chosen) == 1 else None


MECHANISM = Kill()
