"""The day: its speaking rounds, the floor, nominations (FIIM 4.3, 4.4.1-4.4.3).

A day is the book's ``[[day.rounds]]`` of that day in order, each every player in the game once
in seat order from the round's opener, or a discussion: the whole table at once on the table's
timer with no seat (the classic club's «3. Обсуждение»: the judge's Next starts it, the next
Next ends it). FIIM 4.3.2: day 1 opens with seat 1, each next day with
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
from judge.game.mechanisms import barred
from judge.game.state import (
    NO_LAST_WORDS,
    NO_SPEECH,
    STANDINGS,
    Command,
    Game,
    Go,
    Refused,
    Result,
    need,
    set_player,
)
from kit.i18n import Line, Words

#: a turn's words (the table's timer kinds)
SPEECHES = {"speech": Words("speech.speech"), "excuse": Words("speech.excuse"),
            "last_words": Words("speech.last_words")}


def rounds(game: Game) -> tuple[Round, ...]:
    """Today's rounds (``days``: every day, day 1 only, from day 2)."""
    wanted = ("all", "first") if game.day == 1 else ("all", "later")
    return tuple(r for r in game.book.day.rounds if r.days in wanted)


def _next_opener(game: Game) -> int:
    seats = len(game.players)
    return next(s for k in range(1, seats + 1)
                if (s := (game.opener + k - 1) % seats + 1) in game.alive)


def _order(game: Game, opener: int) -> tuple[int, ...]:
    """Every player in the game in seat order from ``opener`` (taken out since it opened the
    day: from the next seat in the game, as 4.3.2 passes an empty seat on)."""
    start = next((i for i, s in enumerate(game.alive) if s >= opener), 0)
    return game.alive[start:] + game.alive[:start]


def _speakers(game: Game, opener: int, round: int) -> tuple[int, ...]:
    """Who speaks in today's round ``round``, in order: nobody in turn in a discussion."""
    return () if rounds(game)[round].kind == "discussion" else _order(game, opener)


def unopened(game: Game) -> bool:
    """Today's first round has not begun: nobody has had the floor yet (the morning, while
    the judge announces the night's result, FIIM 4.5.9)."""
    return (game.stage == "day" and game.round == 0 and game.floor is None
            and not game.discussing and game.speakers == _speakers(game, game.opener, 0))


def new_day(game: Game) -> Result:
    """A new day: its first round, from its opener (FIIM 4.3.1-4.3.2)."""
    opener = _next_opener(game)
    day, table_day = game.day + 1, game.table_day + 1
    game = replace(game, stage="day", day=day, table_day=table_day, opener=opener, round=0,
                   floor=None, nominees=(), vote=None, previous_tie=(), discussing=False)
    game = replace(game, speakers=_speakers(game, opener, 0))
    cite, opener_cite = game.rules.cite("day"), game.rules.cite("opener")
    said = Line(cite, "line.day", day=day, seat=opener, opener=opener_cite) \
        if opener_cite != cite else Line(cite, "line.day.one_rule", day=day, seat=opener)
    return Result(game, [table.day_start(table_day)], [said])


def _next_round(game: Game) -> Result:
    """The day's next round, opened by the next seat when the book moves it every round."""
    opener = _next_opener(game) if game.book.day.opener == "per_round" else game.opener
    game = replace(game, round=game.round + 1, opener=opener, floor=None)
    game = replace(game, speakers=_speakers(game, opener, game.round))
    return Result(game, [], [Line(game.rules.cite("day"), "line.round", round=game.round + 1,
                                  day=game.day, seat=opener)])


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


def discussing(game: Game) -> bool:
    """Whether today's round now is a discussion (the whole table's, nobody's floor)."""
    return game.stage == "day" and rounds(game)[game.round].kind == "discussion"


def _discussion(game: Game) -> Result:
    """A discussion round: the judge's Next starts the whole table's timer (no seat), the next
    one ends it and the round."""
    now = rounds(game)[game.round]
    if not game.discussing:
        seconds = game.timings[now.timing]
        return Result(replace(game, discussing=True), [table.discussion(seconds)],
                      [Line(now.rule or game.rules.cite("day"), "line.discussion",
                            seconds=seconds)])
    return _round_over(replace(game, discussing=False), [table.timer_stop()], [])


def _round_over(game: Game, stop: list[Command], lines: list[Line]) -> Result:
    """Today's round is over: the next round, or the vote."""
    if game.stage == "day" and game.round + 1 < len(rounds(game)):
        more = _next_round(game)
        return Result(more.game, stop + more.commands, lines + more.lines)
    where = {"day": "vote", "defence": "revote"}.get(game.stage, "after_last_words")
    return Result(game, stop, lines, Go(where))


def next_speaker(game: Game) -> Result:
    """Give the floor to the next speaker in order (FIIM 4.3.2), or close the round; in a
    discussion round, start or end the whole table's time."""
    if discussing(game):
        return _discussion(game)
    speakers = game.speakers
    lines: list[Line] = []
    unsilenced: list[SeatStanding] = []
    barred = NO_LAST_WORDS if game.stage == "last_words" else NO_SPEECH
    while speakers:
        player = game.player(speakers[0])
        standing = next((t for t in player.tags if t in barred), None)
        if standing is not None:  # the night's standing: no speech today
            lines.append(Line(None, "line.skip.last_words" if game.stage == "last_words"
                              else "line.skip.speech", seat=player.seat,
                              standing=STANDINGS[standing]))
        elif game.stage == "day" and player.silenced:  # the foul ladder: one speech skipped
            lines.append(Line(None, "line.skip.fouls", seat=player.seat))
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
                      [*lines, Line(None, "line.floor", seat=seat, kind=SPEECHES[shown],
                                    seconds=seconds)])
    if game.floor is not None:
        stop.append(table.timer_stop())
    return _round_over(replace(game, floor=None, speakers=()), stop, lines)


def _nominating(game: Game) -> None:
    nominate = game.rules.cite("nominate")
    need(game, "day", Line(nominate, "refused.nominate.day"))
    if not rounds(game)[game.round].nominations:
        raise Refused(Line(nominate, "refused.nominate.round"))


def nominate(game: Game, seat: int) -> Result:
    """FIIM 4.4.2: the judge accepts a nomination ("Принято") the table did not catch; not of a
    player a mechanism bars from it (the Crow Club's immune player on day 1)."""
    _nominating(game)
    nominate = game.rules.cite("nominate")
    if not game.player(seat).in_game:
        raise Refused(Line(nominate, "refused.out", seat=seat))
    if seat in game.nominees:
        raise Refused(Line(nominate, "refused.nominate.twice", seat=seat))
    why = barred(game, seat, "nominated")
    if why is not None:
        raise Refused(why)
    return Result(replace(game, nominees=(*game.nominees, seat)), [],
                  [Line(nominate, "line.nominate.judge", seat=seat)])


def withdraw(game: Game, seat: int) -> Result:
    nominate = game.rules.cite("nominate")
    need(game, "day", Line(nominate, "refused.withdraw.day"))
    if seat not in game.nominees:
        raise Refused(Line(nominate, "refused.withdraw.none", seat=seat))
    return Result(replace(game, nominees=tuple(s for s in game.nominees if s != seat)),
                  [table.withdraw(seat)], [Line(None, "line.withdraw", seat=seat)])


def on_nomination(game: Game, event: events.NominationEvent) -> Result | None:
    """A nomination the table accepted from a speaker's keypad (FIIM 4.4.2); one of a seat
    nominated already (the table's ``supported``) is not taken, and the log says so (the judge
    sees why the typed «7#» changed nothing)."""
    if game.stage != "day" or event.outcome not in ("accepted", "supported"):
        return None
    seat = event.seat
    if seat in game.nominees:  # a new game equal to this one: the input is kept, with its line
        return Result(replace(game), [], [Line(game.rules.cite("nominate"),
                                               "line.nominate.twice", by=event.by, seat=seat)])
    if event.outcome != "accepted" or seat not in game.alive:
        return None
    return Result(replace(game, nominees=(*game.nominees, seat)), [],
                  [Line(game.rules.cite("nominate"), "line.nominate", by=event.by, seat=seat)])
