"""Before the first night: the seats, the players' names, the deal, and the start (FIIM 4.1).

The seats are the table's (the panel's ``seating``: as many as the table has, when the book
plays that many), each with its player's name, tidy and seated once (``kit.player_names``);
the judge types them, draws them to seats by lot (``reseat``) or swaps two.

The deck is the book's for the number of seats (``[[deck]]``: FIIM 1.1's ten cards; a club's
by player count), with any of its optional cards the organiser adds. The judge deals at random
(a seed: the same seed deals the same cards) or types the cards dealt by hand, seat by seat.
The start sends every seat into the game and opens the first night (FIIM 4.1.2: "Наступает
ночь"), or the first day in a book without one.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from contract.commands import SeatStanding
from judge.game import table
from judge.game.night import plan
from judge.game.state import (
    Game,
    Go,
    Player,
    Previous,
    Refused,
    Result,
    Rules,
    need,
    set_player,
    with_note,
)
from kit import player_names
from kit.i18n import Line, Words


def new_game(rules: Rules, seats: int | None = None, previous: Previous | None = None
             ) -> Game:
    """A game of ``seats`` players (the book's smallest table by default), after ``previous``
    at the table (what the book proposes from it: the deal's side, the immune players)."""
    book = rules.book
    seats = book.players.min if seats is None else seats
    if not book.players.min <= seats <= book.players.max:
        exact = book.players.min == book.players.max
        raise Refused(Line(rules.cite("players"),
                           "refused.players.exact" if exact else "refused.players", book=book.title,
                           min=book.players.min, max=book.players.max, seats=seats))
    return Game(players=tuple(Player(s) for s in range(1, seats + 1)), rules=rules,
                night_input=rules.night_input, previous=previous)


def name(game: Game, seat: int, name: str) -> Result:
    """Seat ``seat``'s player, as the club writes the name once (``kit.player_names.tidy``);
    a player seated elsewhere already (the same ``key``: ``Иван`` and ``иван ``) is refused:
    one player sits once, and the records and standings count one name as one player."""
    name = player_names.tidy(name)
    game.player(seat)
    _seated_once(game, {seat: name})
    return Result(set_player(game, seat, name=name), [],
                  [Line(None, "line.name" if name else "line.name.none", seat=seat, name=name)])


def seating(game: Game, names: tuple[str, ...]) -> Result:
    """The table's seats and who sits where: a name per seat, in seat order (the panel's: the
    table's own number of seats, the last game's players kept for the next). A new number of
    seats is one the book plays, and the deal is dealt again for it."""
    need(game, "setup", Line(game.rules.cite("deal"), "refused.deal.started"))
    fresh = new_game(game.rules, len(names), game.previous)  # the book's sizes, or refused
    tidy = tuple(player_names.tidy(n) for n in names)
    _seated_once(fresh, dict(enumerate(tidy, start=1)))
    sized = len(names) == len(game.players)
    players = tuple(replace(p, name=n) for p, n in zip(
        game.players if sized else fresh.players, tidy, strict=True))
    lines = [] if sized else [Line(game.rules.cite("players"), "line.seats", count=len(names))]
    if any(tidy):
        lines.append(Line(None, "line.seating", seats=_seated(players)))
    if not sized:  # a deal by called numbers under way was for the other number of seats
        game = with_note(with_note(game, CALLERS, ()), STACK, ())
    return Result(replace(game, players=players), [], lines)


def reseat(game: Game) -> Result:
    """The names drawn to new seats at random, as a club draws its seating by lot (drawn from
    the game's version: the same journal seats the same way again)."""
    need(game, "setup", Line(game.rules.cite("deal"), "refused.deal.started"))
    names = [p.name for p in game.players]
    if not any(names):
        raise Refused(Line(None, "refused.reseat.nobody"))
    random.Random(game.version).shuffle(names)
    players = tuple(replace(p, name=n) for p, n in zip(game.players, names, strict=True))
    return Result(replace(game, players=players), [],
                  [Line(None, "line.reseat", seats=_seated(players))])


def swap(game: Game, seats: tuple[int, ...]) -> Result:
    """Two seats' players change places."""
    need(game, "setup", Line(game.rules.cite("deal"), "refused.deal.started"))
    if len(set(seats)) != 2:
        raise Refused(Line(None, "refused.swap.two"))
    a, b = sorted(set(seats))
    first, second = game.player(a), game.player(b)
    swapped = set_player(set_player(game, a, name=second.name), b, name=first.name)
    return Result(swapped, [], [Line(None, "line.swap", first=a, second=b)])


def _seated_once(game: Game, names: dict[int, str]) -> None:
    """``names`` (by seat) sit once each among the game's seats, or ``Refused`` names the
    player and the seat they already have."""
    now = {p.seat: p.name for p in game.players} | names
    for seat, name in sorted(names.items()):
        same = [other for other, theirs in sorted(now.items())
                if (other < seat or other not in names) and other != seat and name and theirs
                and player_names.key(theirs) == player_names.key(name)]
        if same:
            raise Refused(Line(None, "refused.name.seated", name=name, seat=same[0]))


def _seated(players: tuple[Player, ...]) -> list[Words]:
    """The named seats, each as "3 Анна"."""
    return [Words("words.seated", seat=p.seat, name=p.name) for p in players if p.name]


#: a deal by called numbers under way (``deal(called=...)``): who calls next, in turn, and the
#: stack of cards left in the judge's order (each card as its role's place in the book's roles)
CALLERS, STACK = "deal.callers", "deal.stack"


def deal(game: Game, seed: int, roles: tuple[str, ...] | None, add: tuple[str, ...],
         called: str | None = None) -> Result:
    """Each player draws a card (FIIM 4.1.3): at random by ``seed``, or the ``roles`` the judge
    dealt by hand, seat by seat, checked against the book's deck (with the ``add``ed cards);
    or, ``called`` (``first`` or ``last``: the side it begins from), by the numbers the players
    call in turn from the stack shuffled by ``seed`` (``call``)."""
    cite = game.rules.cite
    need(game, "setup", Line(cite("deal"), "refused.deal.started"))
    if called is not None and not game.book.deal.called:
        raise Refused(Line(cite("deal"), "refused.deal.called", book=game.book.title))
    if called is not None and roles is not None:
        raise Refused(Line(cite("deal"), "refused.deal.called.typed"))
    row = game.book.deck_for(len(game.players))
    if row is None:  # new_game keeps to the book's sizes, every one of which has a deck
        raise Refused(Line(cite("deck"), "refused.deck.none", count=len(game.players)))
    try:
        cards = row.cards(len(game.players), add)
    except LookupError as exc:
        key, params = _card_problem(game, exc)
        raise Refused(Line(cite("deck"), key, **params)) from None
    if roles is not None:
        if sorted(roles) != sorted(cards):
            raise Refused(Line(cite("deck"), "refused.deck.typed",
                               deck=row.says or _deck_words(game, cards)))
        dealt = list(roles)
    else:
        dealt = list(cards)
        random.Random(seed).shuffle(dealt)
    game = with_note(with_note(game, CALLERS, ()), STACK, ())
    if called is not None:
        seats = [p.seat for p in game.players]
        callers = tuple(seats if called == "first" else reversed(seats))
        known = list(game.book.roles)
        game = replace(game, players=tuple(replace(p, role="") for p in game.players))
        game = with_note(with_note(game, CALLERS, callers), STACK,
                         tuple(known.index(r) for r in dealt))
        return Result(game, [], [Line(cite("deal"), "line.deal.called", seat=callers[0])])
    players = tuple(replace(p, role=r) for p, r in zip(game.players, dealt, strict=True))
    return Result(replace(game, players=players), [], [Line(cite("deal"), "line.deal")])


def call(game: Game, number: int) -> Result:
    """The next player of a deal by called numbers calls ``number``, from 1 to the cards left
    (the Crow Club's «Раздача»: "называет любое число от 1 до количества оставшихся карт …
    Ведущий отсчитывает названное количество, и ваша карта та, чью цифру выбрали"); the last
    player takes the last card without a call ("последнему достаётся судьба")."""
    cite = game.rules.cite
    need(game, "setup", Line(cite("deal"), "refused.deal.started"))
    callers, stack = game.note(CALLERS), game.note(STACK)
    if not callers:
        raise Refused(Line(cite("deal"), "refused.call.none"))
    seat = callers[0]
    if not 1 <= number <= len(stack):
        raise Refused(Line(cite("deal"), "refused.call.number", seat=seat, number=number,
                           cards=len(stack)))
    known = list(game.book.roles)
    game = set_player(game, seat, role=known[stack[number - 1]])
    stack, callers = stack[:number - 1] + stack[number:], callers[1:]
    lines = [Line(cite("deal"), "line.call", seat=seat, number=number)]
    if len(callers) == 1:  # the last card is the last player's fate
        game = set_player(game, callers[0], role=known[stack[0]])
        lines += [Line(cite("deal"), "line.call.fate", seat=callers[0]),
                  Line(cite("deal"), "line.deal")]
        callers, stack = (), ()
    return Result(with_note(with_note(game, CALLERS, callers), STACK, stack), [], lines)


def _deck_words(game: Game, cards: list[str]) -> list[Words]:
    """The deck as the book's words: each card and how many."""
    return [Words("words.cards", count=cards.count(role), role=game.book.role_title(role))
            for role in dict.fromkeys(cards)]


def _card_problem(game: Game, exc: LookupError) -> tuple[str, dict[str, Any]]:
    """Why an optional card cannot be added (``DeckRow.cards``'s ``KeyError``s)."""
    role, replaced = exc.args
    title = game.book.role_title
    if replaced is None:
        return "refused.deck.not_optional", {"role": title(role)}
    return "refused.deck.none_left", {"role": title(role), "replaced": title(replaced)}


def start(game: Game) -> Result:
    """Every seat in the game; the first night falls (FIIM 4.1.2; 4.2.1: the mafia's meeting,
    no shot), or, in a book without one, the first day begins."""
    cite = game.rules.cite
    need(game, "setup", Line(cite("start"), "refused.start.started"))
    if game.book.unbuilt:
        raise Refused(Line(None, "refused.start.unbuilt", book=game.book.title,
                           names=", ".join(game.book.unbuilt)))
    if not all(p.role for p in game.players):
        raise Refused(Line(cite("deal"), "refused.start.not_dealt"))
    seats = table.seats(SeatStanding(seat=p.seat, in_game=True, fouls=0, silenced=False,
                                     immune=p.immune) for p in game.players)
    first = game.book.first_night
    if first is None:
        return Result(game, [seats], [Line(cite("start"), "line.start.day")], Go("new_day"))
    commands = [seats, table.phase("night")]
    countdown = first.seconds is not None
    seconds = game.timings[first.seconds] if first.seconds is not None else 0
    if first.seconds is not None:
        commands.append(table.countdown(seconds))
    night0 = replace(game, stage="night0", countdown=countdown)
    return Result(replace(night0, night_steps=plan(night0)), commands,
                  [Line(cite("start"), "line.start.night"),
                   Line(first.rule, "line.first_night", says=first.says, seconds=seconds)])
