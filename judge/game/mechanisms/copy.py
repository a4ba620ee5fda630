"""The thief's copy (the Crow Club's «Вор»): "Просыпается сразу после раздачи карт, Рандомно
выбирает любого из игроков после чего, получает его способности, и играет в команде с
выбранным игроком."

On the deal's night he names another seat blind (the judge may draw one for him and enter it);
its player keeps the card, and the thief acts as it from then on (``Player.acts``: he wakes with
its steps, his side is its side, a check answers by it), a card of ``instead`` as the role it
names (the Don's copy is a plain mafioso: one Don). A card of the ``balance`` side turns him to
it only while that side stays within its share of the table, one per ``per`` players rounded
half up ("если игроков достаточно и баланс в игре не нарушится, становится чёрным. Если игроков
недостаточно, вор остаётся красным, но знает для себя одну мафию"); the panel proposes it then,
and the judge keeps him red or turns him (``choose``) until the night ends. Kept red, he acts as
nothing: a thief of his own card's side.
"""  # noqa: RUF002 (the book's Russian, quoted)

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from judge.game.actions import Offer, Param, decision
from judge.game.book import Book, Name, Step
from judge.game.mechanisms.base import Acted, Mechanism, lead
from judge.game.state import Act, Game, Picks, Refused, Result, set_player
from kit.i18n import Line, Words

#: the judge's choice on a copy of the balanced side's card
CHOICES = ("black", "red")


class Balance(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    team: Name
    per: int  # one of ``team`` per this many players, rounded half up


class CopyOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    instead: dict[Name, Name] = {}
    balance: Balance | None = None


class Copy(Mechanism):
    name = "copy"
    outcomes: ClassVar[dict[str, str]] = {"copied": "sheet.act.copied", "kept": "sheet.act.kept",
                                          "turned": "sheet.act.turned"}
    Options = CopyOptions
    #: the thief who copied the balanced side's card: kept red, or turned black
    decisions: ClassVar[dict[str, Any]] = {"copy_side": Literal["black", "red"]}

    def check(self, book: Book, step: Step) -> list[str]:
        options: CopyOptions = step.options
        roles = [*options.instead, *options.instead.values()]
        problems = [f"options.instead: no role {r!r}" for r in roles if r not in book.roles]
        if options.balance is not None and options.balance.team not in book.teams:
            problems.append(f"options.balance.team: no team {options.balance.team!r}")
        return problems

    def act(self, game: Game, step: Step, picks: Picks) -> Acted:
        options: CopyOptions = step.options
        pick = lead(game, step, picks)
        if pick is None or not pick.targets:
            return Acted(None, lines=(Line(step.rule, "line.copy.none", step=step.words),))
        thief, seat = pick.actor, pick.targets[0]
        if seat == thief or not game.player(seat).in_game:
            return Acted(None, lines=(Line(step.rule, "line.copy.other", seat=seat),))
        card = game.player(seat).role
        role = options.instead.get(card, card)
        title = game.book.role_title(card)
        balance = options.balance
        if balance is not None and game.book.team_of(role) == balance.team:
            if not _fits(game, balance):
                return Acted(Act(game.night, step.name, self.name, (thief,), (seat,), "kept"),
                             lines=(Line(step.rule, "line.copy.kept", seat=seat, role=title),))
            return Acted(Act(game.night, step.name, self.name, (thief,), (seat,), "turned"),
                         lines=(Line(step.rule, "line.copy.turned", seat=seat, role=title),),
                         becomes=((thief, role),))
        return Acted(Act(game.night, step.name, self.name, (thief,), (seat,), "copied"),
                     lines=(Line(step.rule, "line.copy", seat=seat, role=title),),
                     becomes=((thief, role),))

    def describe(self, game: Game, act: Act) -> Words:
        return Words("act.copy", step=game.book.step(act.step).words, seat=act.targets[0],
                     role=game.book.role_title(game.player(act.targets[0]).role))

    def offers(self, game: Game, step: Step | None) -> list[Offer]:
        assert step is not None  # a step's mechanism
        if _turned(game, step) is None:
            return []
        return [decision("copy_side", step.name, key=f"choose-{step.name}", group="night",
                         label=Words("offer.copy"),
                         params=[Param(name="value", kind="choice", choices=list(CHOICES))])]

    def choose(self, game: Game, step: Step | None, value: Any) -> Result:
        assert step is not None
        act = _turned(game, step)
        if act is None:
            raise Refused(Line(step.rule, "refused.copy.when"))
        if value not in CHOICES:
            raise Refused(Line(step.rule, "refused.copy.choice", choices=", ".join(CHOICES)))
        options: CopyOptions = step.options
        thief, card = act.actors[0], game.player(act.targets[0]).role
        role = options.instead.get(card, card) if value == "black" else ""
        return Result(set_player(game, thief, acts=role), [],
                      [Line(step.rule, "line.copy.black" if role else "line.copy.red",
                            seat=thief)])


def _fits(game: Game, balance: Balance) -> bool:
    """One more of ``balance.team`` stays within its share of the table."""
    seats = len(game.players)
    share = (2 * seats + balance.per) // (2 * balance.per)  # seats / per, rounded half up
    return sum(1 for s in game.alive if game.team(s) == balance.team) + 1 <= share


def _turned(game: Game, step: Step) -> Act | None:
    """Tonight's copy of the balanced side's card, while the night lasts: the judge's to
    confirm or undo."""
    if game.stage not in ("night0", "night") or game.running_step is not None:
        return None
    return next((a for a in game.acts if a.night == game.night and a.step == step.name
                 and a.outcome == "turned"), None)


MECHANISM = Copy()
