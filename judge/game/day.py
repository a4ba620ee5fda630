"""The day: its speaking rounds, the floor, nominations (FIIM 4.3, 4.4.1-4.4.3).

A day is the book's ``[[day.rounds]]`` of that day in order, each every player in the game once
in seat order from the round's opener. FIIM 4.3.2: day 1 opens with seat 1, each next day with
the player after yesterday's opener; a seat that is out passes to the next one in the game (the
literal, seat-order reading). A book with ``opener = "per_round"`` (the Crow Club: "Каждый круг
стол открывает новый участник") moves the opener on at every round. When the last round is
over, the day's vote follows (``Go("vote")``); when the defence speeches are, the re-vote; when
the last words are, the leavers leave.
"""

from __future__ import annotations

from dataclasses import replace

from contract import events
from contract.commands import SeatStanding
from contract.events import TimerKind
from judge.game import table
from judge.game.book import Round
from judge.game.state import (
    NO_LAST_WORDS,
    NO_SPEECH,
    Game,
    Go,
    Refused,
    Result,
    need,
    set_player,
)


def rounds(game: Game) -> tuple[Round, ...]:
    """Today's rounds (``days``: every day, day 1 only, from day 2)."""
    wanted = ("all", "first") if game.day == 1 else ("all", "later")
    return tuple(r for r in game.book.day.rounds if r.days in wanted)


def _next_opener(game: Game) -> int:
    seats = len(game.players)
    return next(s for k in range(1, seats + 1)
                if (s := (game.opener + k - 1) % seats + 1) in game.alive)


def _order(game: Game, opener: int) -> tuple[int, ...]:
    start = game.alive.index(opener)
    return game.alive[start:] + game.alive[:start]


def new_day(game: Game) -> Result:
    """A new day: its first round, from its opener (FIIM 4.3.1-4.3.2)."""
    opener = _next_opener(game)
    day, table_day = game.day + 1, game.table_day + 1
    game = replace(game, stage="day", day=day, table_day=table_day, opener=opener, round=0,
                   speakers=_order(game, opener), floor=None, nominees=(), vote=None,
                   previous_tie=())
    return Result(game, [table.day_start(table_day)], [
        f"{game.rules.cite('day')}: day {day}, seat {opener} opens "
        f"({game.rules.cite('opener')})"])


def _next_round(game: Game) -> Result:
    """The day's next round, opened by the next seat when the book moves it every round."""
    opener = _next_opener(game) if game.book.day.opener == "per_round" else game.opener
    game = replace(game, round=game.round + 1, opener=opener, speakers=_order(game, opener),
                   floor=None)
    return Result(game, [], [f"{game.rules.cite('day')}: round {game.round + 1} of day "
                             f"{game.day}, seat {opener} opens"])


def _speech(game: Game, seat: int) -> tuple[TimerKind, float]:
    """The timer kind and seconds of ``seat``'s turn now."""
    timings = game.timings
    if game.stage == "defence":
        return "excuse", timings.defence
    if game.stage == "last_words":
        return "last_words", timings[game.book.leaving.last_words or "last_words"]
    now = rounds(game)[game.round]
    timing = now.timing
    if seat == game.opener and now.opener_timing:
        timing = now.opener_timing
    elif not game.speakers[1:] and now.closer_timing:
        timing = now.closer_timing
    return now.timer, timings[timing]


def next_speaker(game: Game) -> Result:
    """Give the floor to the next speaker in order (FIIM 4.3.2), or close the round."""
    speakers = game.speakers
    lines: list[str] = []
    unsilenced: list[SeatStanding] = []
    barred = NO_LAST_WORDS if game.stage == "last_words" else NO_SPEECH
    while speakers:
        player = game.player(speakers[0])
        standing = next((t for t in player.tags if t in barred), None)
        if standing is not None:  # the night's standing: no speech today
            lines.append(f"seat {player.seat} is {standing}: no "
                         f"{'last words' if game.stage == 'last_words' else 'speech'} today")
        elif game.stage == "day" and player.silenced:  # the foul ladder: one speech skipped
            lines.append(f"seat {player.seat} is silenced by fouls: no speech today")
            game = set_player(game, player.seat, silenced=False)
            unsilenced.append(SeatStanding(seat=player.seat, silenced=False))
        else:
            break
        speakers = speakers[1:]
    game = replace(game, speakers=speakers)
    # the table blocks a silenced seat's floor: it is told the silence is served
    stop = [table.seats(unsilenced)] if unsilenced else []
    if speakers:
        seat = speakers[0]
        kind, seconds = _speech(game, seat)
        shown = "speech" if kind == "other" else kind
        return Result(replace(game, speakers=speakers[1:], floor=seat),
                      [*stop, table.floor(seat, seconds, kind)],
                      [*lines, f"seat {seat} has the floor ({shown}, {seconds:g} s)"])
    if game.floor is not None:
        stop.append(table.timer_stop())
    game = replace(game, floor=None, speakers=())
    if game.stage == "day" and game.round + 1 < len(rounds(game)):
        more = _next_round(game)
        return Result(more.game, stop + more.commands, lines + more.lines)
    where = {"day": "vote", "defence": "revote"}.get(game.stage, "after_last_words")
    return Result(game, stop, lines, Go(where))


def _nominating(game: Game) -> None:
    nominate = game.rules.cite("nominate")
    need(game, "day", f"{nominate}: nominations are made in the day's speeches")
    if not rounds(game)[game.round].nominations:
        raise Refused(f"{nominate}: no nominations in this round")


def nominate(game: Game, seat: int) -> Result:
    """FIIM 4.4.2: the judge accepts a nomination ("Принято") the table did not catch."""
    _nominating(game)
    nominate = game.rules.cite("nominate")
    if not game.player(seat).in_game:
        raise Refused(f"{nominate}: seat {seat} is out of the game")
    if seat in game.nominees:
        raise Refused(f"{nominate}: seat {seat} is already nominated")
    return Result(replace(game, nominees=(*game.nominees, seat)), [],
                  [f"{nominate}: seat {seat} nominated by the judge"])


def withdraw(game: Game, seat: int) -> Result:
    nominate = game.rules.cite("nominate")
    need(game, "day", f"{nominate}: nominations are withdrawn before the vote")
    if seat not in game.nominees:
        raise Refused(f"{nominate}: seat {seat} is not nominated")
    return Result(replace(game, nominees=tuple(s for s in game.nominees if s != seat)),
                  [table.withdraw(seat)], [f"seat {seat}'s nomination withdrawn by the judge"])


def on_nomination(game: Game, event: events.NominationEvent) -> Result | None:
    """A nomination the table accepted from a speaker's keypad (FIIM 4.4.2)."""
    if game.stage != "day" or event.outcome != "accepted":
        return None
    seat = event.seat
    if seat not in game.alive or seat in game.nominees:
        return None
    return Result(replace(game, nominees=(*game.nominees, seat)), [],
                  [f"{game.rules.cite('nominate')}: seat {event.by} nominates seat {seat}"])
