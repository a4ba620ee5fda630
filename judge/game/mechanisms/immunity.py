"""Immunity (the Crow Club's «Иммунитет у игрока…»): "отсутствие возможности поднять его в
первый день, а так же как либо отстрелить/отравить в первую ночь".

A player's, not a card's: it was earned by leaving early in the previous game (the digest's
reading), so the judge names the immune players at setup (``choose``, a set of seats), and may
change them during day 1's first round, the zero round ("Иммунитет возможно передать только в
случае передачи своей иммунитетной игровой карты на нулевом кругу"). The table holds it as the
seat's ``immune`` standing (``cmd/seats``; its preset says what that blocks: being nominated, a
night step that shoots). The engine keeps the same rule itself, for a pick the judge enters:

- day 1: an immune player is not nominated (``bars``);
- night 1: every night death of an immune player misses (``settle``: the shot, the maniac's
  kill, the poison, the paranoid's take-along, "как либо");
- "Иммунитет не переносится на следующий игровой день": it ends with night 1 (``morning``).

At setup the panel proposes the immune from the game before at the table (``Game.previous``):
"Иммунитет выдаётся любому игроку который покинул стол в самом начале игры. до 10 человек:
первому поднятому, если никого не подняли - первому отстреленному черными игроку. Важно: до 10
человек, иммунитет выдаётся только одному игроку. После 10 человек, иммунитет выдаётся первому
поднятому (или двум игрокам, если город смог проголосовать в двух игроков ровно, и поднять
двоих), а так же всем покинувшим игру в первую ночь." With up to ``one_up_to`` players in that
game: the first voted out on its day 1, or, if nobody was, the first its ``shot_by`` steps
killed on night 1 (the blacks' shot); with more: day 1's first vote's leavers (two when the
table voted two out) and everyone who left on night 1. A player is found by his name when the
last game had it (he may sit elsewhere now), else by his seat. The judge takes the proposal, or
names others.

It runs no step: the book names it in its ``[night] resolution`` only, after the deaths it
takes back, gives its options in ``[night.options]``, and cites its section as ``[cite]
immunity``.
"""  # noqa: RUF002 (the book's Russian, quoted)

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from contract.commands import SeatStanding
from judge.game import table
from judge.game.actions import Group, Offer, Param, Seats, decision
from judge.game.book import Name, Step
from judge.game.mechanisms.base import Fate, Mechanism
from judge.game.state import Act, Game, Previous, Refused, Result, set_player
from kit.i18n import Line, Words

#: the day and the night it protects on ("в первый день", "в первую ночь")
DAY = NIGHT = 1


class ImmunityOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    shot_by: tuple[Name, ...] = ()  # the steps whose night-1 kill earns it ("отстреленному")
    one_up_to: int = 10  # up to so many players, one immune ("до 10 человек")


class Immunity(Mechanism):
    name = "immunity"
    cites = ("immunity",)
    Options = ImmunityOptions
    #: the players immune (none: an empty list)
    decisions: ClassVar[dict[str, Any]] = {"immunity": Seats}

    def offers(self, game: Game, step: Step | None) -> list[Offer]:
        if not _naming(game):
            return []
        group: Group = "setup" if game.stage == "setup" else "seat"
        offers = [decision("immunity", self.name, key="immunity", label=Words("offer.immunity"),
                           group=group,
                           params=[Param(name="value", kind="seats",
                                         seats=[p.seat for p in game.players if p.in_game])])]
        proposed = proposal(game)
        if game.stage == "setup" and proposed and not any(p.immune for p in game.players):
            offers.insert(0, decision("immunity", self.name, key="immunity-proposed",
                                      group=group, value=proposed,
                                      label=Words("offer.immunity.proposed", seats=proposed)))
        return offers

    def choose(self, game: Game, step: Step | None, value: Any) -> Result:
        rule = game.rules.cite("immunity")
        if not _naming(game):
            raise Refused(Line(rule, "refused.immunity.when"))
        if not isinstance(value, list) or any(isinstance(s, bool) for s in value):
            raise Refused(Line(rule, "refused.immunity.seats"))
        for seat in value:
            if not game.player(seat).in_game:
                raise Refused(Line(game.rules.cite("seats"), "refused.out", seat=seat))
        immune = set(value)
        changed = [p.seat for p in game.players if p.immune != (p.seat in immune)]
        for seat in changed:
            game = set_player(game, seat, immune=seat in immune)
        commands = [] if game.stage == "setup" or not changed else [table.seats(
            SeatStanding(seat=s, immune=s in immune) for s in changed)]
        return Result(game, commands, [Line(rule, "line.immunity" if immune
                                            else "line.immunity.none", seats=sorted(immune))])

    def bars(self, game: Game, seat: int, action: str) -> Line | None:
        if action == "nominated" and game.day == DAY and game.player(seat).immune:
            return Line(game.rules.cite("immunity"), "refused.immunity.nominated", seat=seat)
        return None

    def settle(self, game: Game, acts: tuple[Act, ...], fates: tuple[Fate, ...]
               ) -> tuple[Fate, ...]:
        if game.night != NIGHT:
            return fates
        return tuple(f for f in fates
                     if not (f.what == "dies" and game.player(f.seat).immune))

    def morning(self, game: Game) -> Result:
        immune = [p.seat for p in game.players if p.immune]
        if game.night != NIGHT or not immune:
            return Result(game, [], [])
        for seat in immune:
            game = set_player(game, seat, immune=False)
        return Result(game, [table.seats(SeatStanding(seat=s, immune=False) for s in immune)],
                      [Line(game.rules.cite("immunity"), "line.immunity.over",
                            seats=immune)])


def proposal(game: Game) -> list[int]:
    """The seats of this game the last one at the table makes immune (the module's words),
    in seat order; none when it was played by another book or left nobody early."""
    last = game.previous
    if last is None or last.book != game.book.id:
        return []
    found = game.book.night.options.get("immunity")
    options = found if isinstance(found, ImmunityOptions) else ImmunityOptions()
    if len(last.names) <= options.one_up_to:
        shot = [seat for step, seat in last.kills if step in options.shot_by
                and seat in last.night_one]
        earned = list(last.voted_out[:1] or shot[:1])
    else:
        earned = [*last.voted_out, *last.night_one]
    return sorted({s for s in (_here(game, last, seat) for seat in earned) if s is not None})


def _here(game: Game, last: Previous, seat: int) -> int | None:
    """Where the last game's player of ``seat`` sits now: by his name if he had one, else the
    same seat."""
    name = last.names[seat - 1].strip().casefold() if seat <= len(last.names) else ""
    if not name:
        return seat if seat <= len(game.players) else None
    return next((p.seat for p in game.players if p.name.strip().casefold() == name), None)


def _naming(game: Game) -> bool:
    """The judge names the immune players at setup, and may move it in the zero round (day
    1's first round)."""
    return game.stage == "setup" or (game.stage == "day" and game.day == DAY
                                     and game.round == 0)


MECHANISM = Immunity()
