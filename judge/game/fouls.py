"""Fouls and the judge's removals during the game: the book's foul ladder, a disqualification,
a card shown.

FIIM's §6 gives no ladder; its book file takes the clubs' (the third foul silences the player
for their next speech, the fourth takes them out); the Crow Club's fourth shows the card, and so
does any foul of a player the firefighter silenced (``out_while``); a book without fouls sets
none. A removal is checked for a win like a vote or a kill (FIIM 1.4), and whatever runs at the
table for the game ends with it.
"""

from __future__ import annotations

import math
from dataclasses import replace

from contract.commands import SeatStanding
from judge.game import table
from judge.game.end import win_check
from judge.game.state import STANDINGS, Game, Refused, Result, set_player, take_out
from kit.i18n import Line, Words


def _in_play(game: Game, seat: int) -> None:
    fouls = game.rules.cite("fouls")
    if game.stage in ("setup", "over"):
        raise Refused(Line(fouls, "refused.fouls.playing"))
    if not game.player(seat).in_game:
        raise Refused(Line(fouls, "refused.out", seat=seat))


def foul(game: Game, seat: int) -> Result:
    """One foul, and what the book's ladder makes of it."""
    _in_play(game, seat)
    if not game.book.fouls.given:
        raise Refused(Line(game.rules.cite("fouls"), "refused.fouls.none", book=game.book.title))
    ladder = game.book.fouls
    player = game.player(seat)
    fouls = player.fouls + 1
    silenced = fouls == ladder.silence_at
    game = set_player(game, seat, fouls=fouls, silenced=player.silenced or silenced)
    standing = SeatStanding(seat=seat, fouls=fouls)
    lines = [Line(None, "line.foul", seat=seat, n=fouls)]
    if silenced:
        standing.silenced = True
        lines.append(Line(None, "line.foul.silenced", seat=seat, n=fouls))
    commands = [table.seats([standing])]
    under = next((t for t in player.tags if t in ladder.out_while), None)
    if fouls == ladder.out_at or under is not None:
        if ladder.show_role:
            game = set_player(game, seat, shown=True)
        why = Line(None, "line.foul.out", seat=seat, n=fouls)
        if fouls != ladder.out_at and under is not None:
            why = Line(game.rules.cite("fouls"), "line.foul.out_while", seat=seat,
                       standing=STANDINGS[under])
        out = remove(game, seat, "fouls", why,
                     tell_table=fouls < 4)  # the table takes out four fouls itself
        return Result(out.game, commands + out.commands, lines + out.lines)
    return Result(game, commands, lines)


def violation(game: Game, seat: int, ends: bool, now: float) -> Result:
    """A violation that goes on (``[fouls] every``; the Crow Club's «Фолл»: "один фолл длится 5
    секунд, то есть если вы нарушаете дольше 5 секунд, то вам дается ещё один фолл"): its start
    is a foul, as the judge's tap; at its end, ``now``, one more for every ``every`` seconds it
    lasted beyond the first (5 s: one foul in all, 5.1 s: two, 12 s: three), each on the
    book's ladder (the fourth shows the card). A player who leaves ends it."""
    _in_play(game, seat)
    every = game.book.fouls.every
    if not every:
        raise Refused(Line(game.rules.cite("fouls"), "refused.violation.none",
                           book=game.book.title))
    since = dict(game.violations).get(seat)
    if not ends:
        if since is not None:
            raise Refused(Line(game.rules.cite("fouls"), "refused.violation.running", seat=seat))
        started = foul(game, seat)
        going = started.game
        if going.player(seat).in_game and going.stage != "over":
            going = replace(going, violations=(*going.violations, (seat, now)))
        return Result(going, started.commands, [
            Line(game.rules.cite("fouls"), "line.violation", seat=seat, seconds=every),
            *started.lines])
    if since is None:
        raise Refused(Line(game.rules.cite("fouls"), "refused.violation.not_running",
                           seat=seat))
    lasted = max(0.0, now - since)
    total = max(1, math.ceil(lasted / every))
    result = Result(replace(game, violations=tuple(v for v in game.violations if v[0] != seat)),
                    [], [Line(game.rules.cite("fouls"), "line.violation.ended", seat=seat,
                              seconds=round(lasted, 1), fouls=Words("words.fouls",
                                                                  count=total))])
    for _ in range(total - 1):
        if not result.game.player(seat).in_game or result.game.stage == "over":
            break
        more = foul(result.game, seat)
        result = Result(more.game, result.commands + more.commands, result.lines + more.lines)
    return result


def disqualify(game: Game, seat: int, reason: str) -> Result:
    """The judge takes a player out (a grave violation): out at once, no last words; the card
    shown when the book says so (the Crow Club's «вскрытие карты»; the online book's
    «инфаркт», whose leavers all show theirs)."""
    _in_play(game, seat)
    if game.book.fouls.show_role or game.book.leaving.show_role:
        game = set_player(game, seat, shown=True)
    return remove(game, seat, "disqualified",
                  Line(None, "line.disqualified.why" if reason else "line.disqualified",
                       seat=seat, reason=reason))


def show_card(game: Game, seat: int) -> Result:
    """The judge shows a player's card to the table (a club's penalty; the player stays)."""
    _in_play(game, seat)
    if game.player(seat).shown:
        raise Refused(Line(None, "refused.card.shown", seat=seat))
    return Result(set_player(game, seat, shown=True), [],
                  [Line(None, "line.card.shown", seat=seat,
                        role=game.book.role_title(game.player(seat).role))])


def remove(game: Game, seat: int, how: str, line: Line, tell_table: bool = True) -> Result:
    """``seat`` out of the game now, by ``how``; the win is checked (1.4)."""
    game = take_out(game, seat, how)
    game = replace(game, nominees=tuple(s for s in game.nominees if s != seat),
                   speakers=tuple(s for s in game.speakers if s != seat))
    commands = [table.out([seat])] if tell_table else []
    if game.floor == seat:
        game = replace(game, floor=None)
        commands.append(table.timer_stop())
    over = win_check(game)
    if over is None:
        return Result(game, commands, [line])
    if game.floor is not None or game.discussing:  # whatever runs at the table ends with it
        commands.append(table.timer_stop())
    if game.vote is not None and game.stage in ("vote", "question"):
        commands.append(table.vote_cancel())
    if game.running_step is not None:
        commands.append(table.night_stop())
    return Result(over.game, commands + over.commands, [line, *over.lines])
