"""The end of a game: the book's win conditions, checked after every removal.

``win_check(game)`` asks the book's ``[[endgames]]`` in order (``judge.game.endgames``) and
ends the game with the first that holds. Whoever is leaving after their last words is already
out of the count (FIIM 1.4: "the moment of removal is the vote or the night's kill"), and
leaves with the game's end if it comes in their minute (the table is told).
"""

from __future__ import annotations

from dataclasses import replace

from judge.game import table
from judge.game.endgames import ENDGAMES
from judge.game.state import Game, Result, set_player


def how_leaving(game: Game) -> str:
    """How the players in ``game.leaving`` leave: shot at night (their last words come at
    morning) or voted out."""
    return "shot" if game.after_last_words == "day" else "voted_out"


def counted_out(game: Game) -> Game:
    """The game with whoever is leaving after their last words out already."""
    how = how_leaving(game)
    counted = replace(game, leaving=())
    for seat in game.leaving:
        if counted.player(seat).in_game:
            counted = set_player(counted, seat, in_game=False, left=how,
                                 shown=counted.player(seat).shown or game.book.leaving.show_role)
    return counted


def win_check(game: Game) -> Result | None:
    """The game over, when one of the book's win conditions holds now; else ``None``."""
    counted = counted_out(game)
    row = next((row for row in game.book.endgames
                if ENDGAMES[row.kind].holds(counted, row)), None)
    if row is None:
        return None
    leaving = [s for s in game.leaving if game.player(s).in_game]
    commands = [table.out(leaving)] if leaving else []
    counts = ", ".join(f"{sum(1 for s in counted.alive if counted.team(s) == team)} "
                       f"{info.title or team}" for team, info in game.book.teams.items())
    said = "a draw" if row.team == "draw" else f"{row.team} wins"
    return Result(replace(counted, stage="over", winner=row.team, speakers=(), floor=None,
                          vote=None, running_step=None, night_steps=()), commands,
                  [*(f"seat {s} leaves the game" for s in leaving),
                   f"{row.rule}: {said} ({counts} at the table)"])
