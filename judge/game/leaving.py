"""Players leaving: their last words, then out, then the win check (FIIM 4.4.13, 4.5.4, 1.4).

A vote's leavers and a night's leave the same way; ``after`` says where the game goes once
they are out (``night`` after a day's vote, ``day`` after the morning's). A book without last
words (the online book: "the dead may not speak") takes them out at once. A book that shows
a leaver's card (``[leaving] show_role``) shows it as they leave.
"""

from __future__ import annotations

from dataclasses import replace

from judge.game import table
from judge.game.end import counted_out, win_check
from judge.game.state import Game, Go, Result


def last_words(game: Game, seats: tuple[int, ...], why: str, after: str) -> Result:
    """``seats`` leave; first, when the book gives them, each has last words in turn."""
    game = replace(game, leaving=seats, after_last_words=after, floor=None, vote=None)
    if game.book.leaving.last_words is None:
        return Result(replace(game, speakers=()), [], [why], Go("after_last_words"))
    return Result(replace(game, stage="last_words", speakers=seats), [], [why])


def after_last_words(game: Game) -> Result:
    """The leavers leave; the win is checked at every removal (FIIM 1.4); the game goes on to
    the next day or the night."""
    leaving = game.leaving
    after = game.after_last_words
    game = counted_out(game)
    commands = [table.out(leaving)] if leaving else []
    lines = [f"seat {s} leaves the game" for s in leaving]
    over = win_check(game)
    if over is not None:
        return Result(over.game, commands + over.commands, lines + over.lines)
    if after == "day":
        return Result(game, commands, lines, Go("new_day"))
    return Result(game, commands, lines,
                  Go("nightfall", f"{game.rules.cite('nightfall')}: night falls"))
