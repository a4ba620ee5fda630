"""The best move (FIIM 4.5.9): the player killed on the first shot night names seats they think
black. It opens only for tonight's victims of the step ``of`` (the shot) who leave at morning;
the seats named are recorded (and scored by the scoring preset), nothing else follows."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from judge.game.book import Book, Name, Step
from judge.game.mechanisms.base import Acted, Mechanism
from judge.game.state import Act, Game, Picks
from kit.i18n import Line, Words


class BestMoveOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    of: Name  # the kill step whose victim names them


class BestMove(Mechanism):
    name = "best_move"
    outcomes: ClassVar[dict[str, str]] = {"named": "sheet.act.best_move"}
    Options = BestMoveOptions

    def check(self, book: Book, step: Step) -> list[str]:
        options: BestMoveOptions = step.options
        kills = [s.name for s in book.night.steps if s.mechanism == "kill"]
        return [] if options.of in kills else [f"options.of: no kill step {options.of!r}"]

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        options: BestMoveOptions = step.options
        return tuple(t for a in game.acts if a.night == game.night and a.step == options.of
                     and a.outcome == "kill" for t in a.targets
                     if t in game.dying and game.player(t).in_game)  # not one out on fouls

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        standing = picks.standing()
        by = next(iter(standing), None)
        chosen = standing[by] if by is not None else ()
        actor = by if by is not None else next(iter(self.actors(game, step)), 0)
        return Acted(Act(game.night, step.name, self.name, (actor,), chosen, "named"),
                     lines=(Line(step.rule, "line.best_move" if chosen else "line.best_move.none",
                                 step=step.words, seats=list(chosen)),))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.best_move" if act.targets else "act.best_move.none",
                     step=game.book.step(act.step).words, seats=list(act.targets))


MECHANISM = BestMove()
