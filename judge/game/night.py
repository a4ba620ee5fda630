"""The night: the book's wake order, each step sent to the table for exactly the seats that act,
their picks made into acts by the step's mechanism, and the morning (FIIM 4.5).

At nightfall the steps of tonight are the book's ``[[night.steps]]`` whose ``nights`` hold
tonight and whose mechanism opens them (a step with no living actor does not: no Don's check
once the Don is out). They open one at a time on the judge's Next, as ``cmd/night/step`` to
their actors only (keypad, or count mode: ``Rules.night_input``); the table's
``private/night/result`` (with any pick the judge entered by tapping laid over it) goes to the
mechanism, whose answers go to the actors' private indicators. After each, the night so far is
settled again (``mechanisms.settle_night``), so a later step may depend on it (FIIM 4.5.9: the
best move only for the night's victim). At morning whoever the night takes out leaves, after
last words when the book gives them.
"""

from __future__ import annotations

from dataclasses import replace

from contract import events
from contract.commands import SeatStanding
from judge.game import table
from judge.game.end import before_night
from judge.game.leaving import last_words
from judge.game.mechanisms import MECHANISMS, dying, mechanism, settle_night, used
from judge.game.state import (
    DAY_STANDINGS,
    STANDINGS,
    Game,
    Go,
    Pick,
    Picks,
    Refused,
    Result,
    set_player,
)
from kit.i18n import Line, Words


def nightfall(game: Game, why: Line | None) -> Result:
    """Night falls (FIIM 4.5.1): the day's floor, vote and nominations end; unless one of the
    book's endgames decides at the day's end (the Crow Club's «критика»: black wins without
    the night; the «угадайка»: no night, the three play on by day)."""
    decided = before_night(game)
    if decided is not None:
        return Result(decided.game, decided.commands, [*([why] if why else []), *decided.lines],
                      decided.then)
    night = game.night + 1
    commands = [table.phase("night")]
    served = [p for p in game.players if p.tags]  # the day's standings end with the day
    for player in served:
        game = set_player(game, player.seat, tags=())
    if served:
        commands.insert(0, table.seats(SeatStanding(seat=p.seat, silenced=p.silenced)
                                       for p in served))
    game = replace(game, stage="night", night=night, floor=None, speakers=(), vote=None,
                   nominees=(), running_step=None, opened=(), entries=(), tonight=(), dying=())
    return Result(replace(game, night_steps=plan(game)), commands,
                  [*([why] if why else []),
                   Line(game.rules.cite("nightfall"), "line.night", night=night)])


def plan(game: Game) -> tuple[str, ...]:
    """Tonight's steps still to open: those after the last one opened, in wake order, whose
    nights hold tonight and whose mechanism opens them now, but those a step opening tonight
    replaces (``Mechanism.replaces``: the classic club's chief kills instead of checking)."""
    steps = game.book.night.steps
    done = [i for i, s in enumerate(steps) if s.name in game.opened]
    after = steps[max(done) + 1:] if done else steps
    opening = [s for s in steps if s.nights.has(game.night)
               and mechanism(s.mechanism).opens(game, s)]
    replaced = {name for s in opening for name in mechanism(s.mechanism).replaces(game, s)}
    return tuple(s.name for s in after if s in opening and s.name not in replaced)


def next_step(game: Game) -> Result:
    """The judge's Next at night: the next step opens, or morning comes."""
    if game.running_step is not None:
        raise Refused(Line(game.rules.cite("night"), "refused.night.running",
                           step=game.book.step(game.running_step).words))
    steps = plan(game)
    if not steps:
        return Result(game, [], [], Go("morning"))
    step = game.book.step(steps[0])
    does = mechanism(step.mechanism)
    actors = does.actors(game, step)
    opened = replace(game, running_step=step.name, opened=(*game.opened, step.name),
                     entries=(), step_actors=actors)
    commands = [table.timer_stop()] if game.countdown else []
    command = table.night_step(step.name, actors, does.picks(game, step), step.targets,
                               game.timings[step.seconds], game.night_input)
    return Result(replace(opened, night_steps=plan(opened), countdown=False),
                  [*commands, command], [Line(step.rule, "line.step", step=step.words,
                                              seats=list(actors))])


def end_step(game: Game) -> Result:
    """The judge ends the running step early (``cmd/night/stop``: the table sends its result
    with the picks it has)."""
    if game.running_step is None or game.ending:
        raise Refused(Line(game.rules.cite("night"), "refused.night.none"))
    return Result(replace(game, ending=True), [table.night_stop()],
                  [Line(None, "line.step.ended", step=game.book.step(game.running_step).words)])


def enter_pick(game: Game, actor: int, targets: tuple[int, ...]) -> Result:
    """The judge enters an actor's pick by tapping (the player showed it, their keypad is
    dead): for the running step, it replaces what the table reports when its time is up; for
    the step that just ended (before the next opens), the step is counted again with it."""
    night = game.rules.cite("night")
    if game.stage not in ("night", "night0"):
        raise Refused(Line(night, "refused.pick.day"))
    name = game.running_step or (game.opened[-1] if game.opened and game.tonight
                                 and game.tonight[-1].step == game.opened[-1] else None)
    if name is None:
        raise Refused(Line(night, "refused.pick.none"))
    step = game.book.step(name)
    actors = game.step_actors
    if actor not in actors:
        raise Refused(Line(night, "refused.pick.actor", seat=actor, step=step.words,
                           seats=list(actors)))
    most = mechanism(step.mechanism).picks(game, step)
    if len(targets) > most:
        raise Refused(Line(night, "refused.pick.many", step=step.words, count=most))
    entry = Pick(actor, targets, by_judge=True)
    said = Line(None, "line.pick" if targets else "line.pick.none", seat=actor,
                step=step.words, seats=list(targets))
    if game.running_step is not None:
        entries = (*(e for e in game.entries if e.actor != actor), entry)
        return Result(replace(game, entries=entries), [], [said])
    # the step that just ended, counted again with the entry (what its count changed undone)
    picks = game.tonight[-1].entered(entry)
    undone = replace(game, tonight=game.tonight[:-1])
    for act in (a for a in game.acts if a.night == game.night and a.step == name):
        for seat, was in act.was:
            undone = set_player(undone, seat, acts=was)
    undone = replace(undone, acts=tuple(a for a in game.acts
                                        if not (a.night == game.night and a.step == name)))
    counted = _count(undone, step.name, picks)
    return Result(counted.game, counted.commands, [said, *counted.lines])


def on_result(game: Game, result: events.NightResultEvent) -> Result | None:
    """The table's result of the running step (the judge's entries laid over it)."""
    if game.running_step != result.step:
        return None
    picks = Picks(result.step, tuple(Pick(p.actor, tuple(p.picks), p.miss)
                                     for p in result.picks), tuple(result.missing))
    for entry in game.entries:
        picks = picks.entered(entry)
    return _count(replace(game, running_step=None, entries=(), ending=False), result.step, picks)


def _count(game: Game, name: str, picks: Picks) -> Result:
    step = game.book.step(name)
    acted = mechanism(step.mechanism).act(game, step, picks)
    act = acted.act
    if act is not None and acted.becomes:  # players who act as another role from now on
        act = replace(act, was=tuple((s, game.player(s).acts) for s, _ in acted.becomes))
        for seat, role in acted.becomes:
            game = set_player(game, seat, acts=role)
    game = replace(game, tonight=(*game.tonight, picks),
                   acts=game.acts if act is None else (*game.acts, act))
    game = replace(game, dying=dying(settle_night(game)))
    return Result(replace(game, night_steps=plan(game)), list(acted.commands),
                  list(acted.lines))


def morning(game: Game) -> Result:
    """Morning (FIIM 4.5.9, "Утро"): the night's leavers have their last words (4.5.4), then
    the day begins."""
    # the table keeps the night while its countdown runs: it ends first
    commands = [table.timer_stop()] if game.countdown else []
    leavers = game.dying
    fates = settle_night(game)
    standings = _standings(game, leavers)
    # the book's own paragraph for the morning after night 0 where it has one (FIIM's: 4.3.1
    # opens the day; its 4.5.9 «Утро» follows the best move)
    first = game.night == 0 and "first_morning" in game.book.cite
    morning = game.rules.cite("first_morning" if first else "morning")
    said = [Line(morning, "line.morning.said", words=words) for words in _announced(game)]
    game = replace(game, running_step=None, night_steps=(), countdown=False, entries=(),
                   dying=())
    lines: list[Line] = []
    for name in used(game.book):  # what a mechanism changes as the night ends
        if name in MECHANISMS:
            ended = MECHANISMS[name].morning(game)
            game, commands, lines = ended.game, commands + ended.commands, lines + ended.lines
    commands.append(table.phase("day"))
    for seat, tags in standings.items():  # announced: the table must know who is silent
        game = set_player(game, seat, tags=tags)
        said.append(Line(morning, "line.morning.standing", seat=seat,
                         standings=[STANDINGS[t] for t in tags]))
    if standings:  # the table blocks their floor (and the judge leaves the frozen out of votes)
        commands.append(table.seats(SeatStanding(seat=s, silenced=True) for s in standings))
    if leavers:
        killed = game.rules.cite("killed")
        # a leaver the night took without last words (the Crow Club's mafioso shot by his Don)
        unheard = {f.seat for f in fates if f.what == "no_last_words"}
        silent = tuple(s for s in leavers if s in unheard)
        kills = [Line(killed, "line.killed.last_words" if game.book.leaving.last_words
                      and s not in silent else "line.killed", seat=s) for s in leavers]
        words = last_words(game, leavers, kills[0], "day", silent)
        return Result(words.game, commands + words.commands,
                      [*words.lines, *kills[1:], *said, *lines], words.then)
    return Result(game, commands, [Line(morning, "line.morning"), *said, *lines],
                  Go("new_day"))


def _announced(game: Game) -> list[Words]:
    """The mechanisms' morning words on tonight's acts (``Mechanism.announce``), asked while
    ``game.dying`` still holds who the night takes."""
    tonight = [a for a in game.acts if a.night == game.night]
    said = (mechanism(a.mechanism).announce(game, a) for a in tonight)
    return [line for line in said if line]


def _standings(game: Game, leavers: tuple[int, ...]) -> dict[int, tuple[str, ...]]:
    """The day standings the night leaves (``state.DAY_STANDINGS``), on who stays."""
    out: dict[int, tuple[str, ...]] = {}
    for fate in settle_night(game):
        if fate.what in DAY_STANDINGS and fate.seat not in leavers \
                and game.player(fate.seat).in_game:
            out[fate.seat] = tuple(dict.fromkeys((*out.get(fate.seat, ()), fate.what)))
    return out
