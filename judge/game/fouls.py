"""Fouls and the judge's removals during the game: the book's foul ladder, a disqualification,
a card shown.

FIIM's §6 gives no ladder; its book file takes the clubs' (the third foul silences the player
for their next speech, the fourth takes them out); the Crow Club's fourth shows the card; a book
without fouls sets none. A removal is checked for a win like a vote or a kill (FIIM 1.4), and
whatever runs at the table for the game ends with it.
"""

from __future__ import annotations

from dataclasses import replace

from contract.commands import SeatStanding
from judge.game import table
from judge.game.end import win_check
from judge.game.state import Game, Refused, Result, set_player

_ORDINALS = ("first", "second", "third", "fourth")


def _in_play(game: Game, seat: int) -> None:
    fouls = game.rules.cite("fouls")
    if game.stage in ("setup", "over"):
        raise Refused(f"{fouls}: fouls are given during the game")
    if not game.player(seat).in_game:
        raise Refused(f"{fouls}: seat {seat} is out of the game")


def foul(game: Game, seat: int) -> Result:
    """One foul, and what the book's ladder makes of it."""
    _in_play(game, seat)
    if not game.book.fouls.given:
        raise Refused(f"{game.rules.cite('fouls')}: {game.book.name} gives no fouls")
    ladder = game.book.fouls
    player = game.player(seat)
    fouls = player.fouls + 1
    silenced = fouls == ladder.silence_at
    game = set_player(game, seat, fouls=fouls, silenced=player.silenced or silenced)
    standing = SeatStanding(seat=seat, fouls=fouls)
    lines = [f"seat {seat}: foul {fouls}"]
    if silenced:
        standing.silenced = True
        lines.append(f"seat {seat}: {_ORDINALS[fouls - 1]} foul, silenced for the next speech")
    commands = [table.seats([standing])]
    if fouls == ladder.out_at:
        if ladder.show_role:
            game = set_player(game, seat, shown=True)
        out = remove(game, seat, "fouls", f"seat {seat}: {_ORDINALS[fouls - 1]} foul, out of "
                     "the game", tell_table=fouls < 4)  # the table takes out four fouls itself
        return Result(out.game, commands + out.commands, lines + out.lines)
    return Result(game, commands, lines)


def disqualify(game: Game, seat: int, reason: str) -> Result:
    """The judge takes a player out (a grave violation): out at once, no last words; the card
    shown when the book says so (the Crow Club's «вскрытие карты»; the online book's
    «инфаркт», whose leavers all show theirs)."""
    _in_play(game, seat)
    if game.book.fouls.show_role or game.book.leaving.show_role:
        game = set_player(game, seat, shown=True)
    why = f" ({reason})" if reason else ""
    return remove(game, seat, "disqualified", f"seat {seat} is disqualified{why}")


def show_card(game: Game, seat: int) -> Result:
    """The judge shows a player's card to the table (a club's penalty; the player stays)."""
    _in_play(game, seat)
    if game.player(seat).shown:
        raise Refused(f"seat {seat}'s card is shown already")
    return Result(set_player(game, seat, shown=True), [],
                  [f"seat {seat}'s card is shown: {game.player(seat).role}"])


def remove(game: Game, seat: int, how: str, line: str, tell_table: bool = True) -> Result:
    """``seat`` out of the game now, by ``how``; the win is checked (1.4)."""
    game = set_player(game, seat, in_game=False, left=how)
    game = replace(game, nominees=tuple(s for s in game.nominees if s != seat),
                   speakers=tuple(s for s in game.speakers if s != seat))
    commands = [table.out([seat])] if tell_table else []
    if game.floor == seat:
        game = replace(game, floor=None)
        commands.append(table.timer_stop())
    over = win_check(game)
    if over is None:
        return Result(game, commands, [line])
    if game.floor is not None:  # whatever runs at the table for the game ends with it
        commands.append(table.timer_stop())
    if game.vote is not None and game.stage in ("vote", "question"):
        commands.append(table.vote_cancel())
    if game.running_step is not None:
        commands.append(table.night_stop())
    return Result(over.game, commands + over.commands, [line, *over.lines])
