"""The end of a game: the book's win conditions, checked after every removal.

``win_check(game)`` asks the book's ``[[endgames]]`` in order (``judge.game.endgames``) and
ends the game with the first that holds. Whoever is leaving after their last words is already
out of the count (FIIM 1.4: "the moment of removal is the vote or the night's kill"), and
leaves with the game's end if it comes in their minute (the table is told). ``before_night``
asks them again at a day's end, for those that decide there (the Crow Club's «критика» and
«угадайка»).
"""

from __future__ import annotations

from dataclasses import replace

from judge.game import table
from judge.game.book import Endgame as EndgameRow
from judge.game.endgames import ENDGAMES
from judge.game.endgames.base import Dusk
from judge.game.state import Game, Go, Result, take_out
from kit.i18n import Line, Words


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
            counted = take_out(counted, seat, how,
                               shown=counted.player(seat).shown or game.book.leaving.show_role)
    return counted


def win_check(game: Game) -> Result | None:
    """The game over, when one of the book's win conditions holds now; else ``None``."""
    counted = counted_out(game)
    row = next((row for row in game.book.endgames
                if ENDGAMES[row.kind].holds(counted, row)), None)
    return None if row is None else _over(game, counted, row)


def declared(game: Game, row: EndgameRow) -> Result:
    """The game over by a win the judge declared (``Endgame.declare``): ``row``'s team, the
    winner it named, wins; whoever was leaving leaves."""
    return _over(game, counted_out(game), row)


def at_nightfall(game: Game) -> tuple[EndgameRow, Dusk] | None:
    """The first of the book's endgames that decides at a day's end, and what it decides."""
    for row in game.book.endgames:
        dusk = ENDGAMES[row.kind].at_nightfall(game, row)
        if dusk is not None:
            return row, dusk
    return None


def before_night(game: Game) -> Result | None:
    """The day is over: the game won without the night, or a new day instead of the night,
    when one of the book's endgames says so (``Endgame.at_nightfall``); ``None``: night falls."""
    decided = at_nightfall(game)
    if decided is None:
        return None
    row, dusk = decided
    if not dusk.wins:
        return Result(game, [], [dusk.line], Go("new_day"))
    over = _over(game, counted_out(game), row)
    return Result(over.game, over.commands, [dusk.line, *over.lines])


def _over(game: Game, counted: Game, row: EndgameRow) -> Result:
    """The game over: ``row``'s team wins (or a draw); whoever was leaving leaves."""
    leaving = [s for s in game.leaving if game.player(s).in_game]
    commands = [table.out(leaving)] if leaving else []
    counts = [Words("words.side", count=sum(1 for s in counted.alive if counted.team(s) == team),
                    team=info.title) for team, info in game.book.teams.items()]
    said = Line(row.rule, "line.draw", counts=counts) if row.team == "draw" else \
        Line(row.rule, "line.wins", team=game.book.team_title(row.team), counts=counts)
    return Result(replace(counted, stage="over", winner=row.team, speakers=(), floor=None,
                          discussing=False, vote=None, running_step=None, night_steps=()),
                  commands,
                  [*(Line(None, "line.leaves", seat=s) for s in leaving), said])
