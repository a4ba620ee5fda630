"""Before the first night: the seats, the players' names, the deal, and the start (FIIM 4.1).

The deck is the book's for the number of seats (``[[deck]]``: FIIM 1.1's ten cards; a club's
by player count), with any of its optional cards the organiser adds. The judge deals at random
(a seed: the same seed deals the same cards) or types the cards dealt by hand, seat by seat.
The start sends every seat into the game and opens the first night (FIIM 4.1.2: "Наступает
ночь"), or the first day in a book without one.
"""

from __future__ import annotations

import random
from dataclasses import replace

from contract.commands import SeatStanding
from judge.game import table
from judge.game.night import plan
from judge.game.state import Game, Go, Player, Refused, Result, Rules, need, set_player


def new_game(rules: Rules, seats: int | None = None) -> Game:
    """A game of ``seats`` players (the book's smallest table by default)."""
    book = rules.book
    seats = book.players.min if seats is None else seats
    if not book.players.min <= seats <= book.players.max:
        size = str(book.players.min) if book.players.min == book.players.max \
            else f"{book.players.min} to {book.players.max}"
        raise Refused(f"{rules.cite('players')}: a {book.name} game has {size} players, not "
                      f"{seats}")
    return Game(players=tuple(Player(s) for s in range(1, seats + 1)), rules=rules,
                night_input=rules.night_input)


def name(game: Game, seat: int, name: str) -> Result:
    name = name.strip()[:40]
    game.player(seat)
    return Result(set_player(game, seat, name=name), [], [f"seat {seat}: {name or '(no name)'}"])


def deal(game: Game, seed: int, roles: tuple[str, ...] | None, add: tuple[str, ...]) -> Result:
    """Each player draws a card (FIIM 4.1.3): at random by ``seed``, or the ``roles`` the judge
    dealt by hand, seat by seat, checked against the book's deck (with the ``add``ed cards)."""
    cite = game.rules.cite
    need(game, "setup", f"{cite('deal')}: cards are dealt before the game starts")
    row = game.book.deck_for(len(game.players))
    if row is None:  # new_game keeps to the book's sizes, every one of which has a deck
        raise Refused(f"{cite('deck')}: no deck for {len(game.players)} players")
    try:
        cards = row.cards(len(game.players), add)
    except ValueError as exc:
        raise Refused(f"{cite('deck')}: {exc}") from None
    if roles is not None:
        if sorted(roles) != sorted(cards):
            raise Refused(f"{cite('deck')}: the deck is {row.says or _deck_words(cards)}")
        dealt = list(roles)
    else:
        dealt = list(cards)
        random.Random(seed).shuffle(dealt)
    players = tuple(replace(p, role=r) for p, r in zip(game.players, dealt, strict=True))
    return Result(replace(game, players=players), [], [f"{cite('deal')}: the cards are dealt"])


def _deck_words(cards: list[str]) -> str:
    return ", ".join(f"{cards.count(role)} {role}" for role in dict.fromkeys(cards))


def start(game: Game) -> Result:
    """Every seat in the game; the first night falls (FIIM 4.1.2; 4.2.1: the mafia's meeting,
    no shot), or, in a book without one, the first day begins."""
    cite = game.rules.cite
    need(game, "setup", f"{cite('start')}: the game has already started")
    if game.book.unbuilt:
        raise Refused(f"{game.book.name} needs what the engine does not have yet: "
                      f"{', '.join(game.book.unbuilt)} (docs/judge-engine.md)")
    if not all(p.role for p in game.players):
        raise Refused(f"{cite('deal')}: deal the cards before the night falls")
    seats = table.seats(SeatStanding(seat=p.seat, in_game=True, fouls=0, silenced=False,
                                     immune=False) for p in game.players)
    first = game.book.first_night
    if first is None:
        return Result(game, [seats], [f"{cite('start')}: the game begins"], Go("new_day"))
    commands = [seats, table.phase("night")]
    says = first.says
    countdown = first.seconds is not None
    if first.seconds is not None:
        seconds = game.timings[first.seconds]
        commands.append(table.countdown(seconds))
        says = says.replace("{seconds}", f"{seconds:g}")
    night0 = replace(game, stage="night0", countdown=countdown)
    return Result(replace(night0, night_steps=plan(night0)), commands,
                  [f"{cite('start')}: night falls", f"{first.rule}: {says}"])
