"""The best move (FIIM 4.5.9): the player killed on the first shot night names seats they think
black. It opens only for tonight's victims of the step ``of`` (the shot) who leave at morning;
the seats named are recorded (and scored by the scoring preset), nothing else follows."""

from __future__ import annotations

import msgspec

from judge.game.book import Book, Name, Step
from judge.game.mechanisms.base import Acted, Mechanism
from judge.game.state import Act, Game, Picks, seats_text


class BestMoveOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    of: Name  # the kill step whose victim names them


class BestMove(Mechanism):
    name = "best_move"
    Options = BestMoveOptions

    def check(self, book: Book, step: Step) -> list[str]:
        options: BestMoveOptions = step.options
        kills = [s.name for s in book.night.steps if s.mechanism == "kill"]
        return [] if options.of in kills else [f"options.of: no kill step {options.of!r}"]

    def actors(self, game: Game, step: Step) -> tuple[int, ...]:
        options: BestMoveOptions = step.options
        return tuple(t for a in game.acts if a.night == game.night and a.step == options.of
                     and a.outcome == "kill" for t in a.targets if t in game.dying)

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        standing = picks.standing()
        by = next(iter(standing), None)
        chosen = standing[by] if by is not None else ()
        actor = by if by is not None else next(iter(self.actors(game, step)), 0)
        return Acted(Act(game.night, step.name, self.name, (actor,), chosen, "named"),
                     lines=(f"{step.rule}: {step.words} {seats_text(chosen) or '(none)'}",))

    def describe(self, act: Act) -> str:
        return f"{act.step}: {seats_text(act.targets) or '(none)'}"


MECHANISM = BestMove()
