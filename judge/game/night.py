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
from judge.game.leaving import last_words
from judge.game.mechanisms import dying, mechanism, settle_night
from judge.game.state import (
    DAY_STANDINGS,
    Game,
    Go,
    Pick,
    Picks,
    Refused,
    Result,
    seats_text,
    set_player,
)


def nightfall(game: Game, why: str) -> Result:
    """Night falls (FIIM 4.5.1): the day's floor, vote and nominations end."""
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
                  [why, f"{game.rules.cite('nightfall')}: night {night}"])


def plan(game: Game) -> tuple[str, ...]:
    """Tonight's steps still to open: those after the last one opened, in wake order, whose
    nights hold tonight and whose mechanism opens them now."""
    steps = game.book.night.steps
    done = [i for i, s in enumerate(steps) if s.name in game.opened]
    after = steps[max(done) + 1:] if done else steps
    return tuple(s.name for s in after if s.nights.has(game.night)
                 and mechanism(s.mechanism).opens(game, s))


def next_step(game: Game) -> Result:
    """The judge's Next at night: the next step opens, or morning comes."""
    if game.running_step is not None:
        raise Refused(f"{game.rules.cite('night')}: the {game.running_step} step runs; its "
                      "result comes at its time")
    steps = plan(game)
    if not steps:
        return Result(game, [], [], Go("morning"))
    step = game.book.step(steps[0])
    actors = mechanism(step.mechanism).actors(game, step)
    opened = replace(game, running_step=step.name, opened=(*game.opened, step.name),
                     entries=(), step_actors=actors)
    commands = [table.timer_stop()] if game.countdown else []
    command = table.night_step(step.name, actors, step.picks, step.targets,
                               game.timings[step.seconds], game.night_input)
    return Result(replace(opened, night_steps=plan(opened), countdown=False),
                  [*commands, command], [f"{step.rule}: {step.words} ({seats_text(actors)})"])


def end_step(game: Game) -> Result:
    """The judge ends the running step early (``cmd/night/stop``: the table sends its result
    with the picks it has)."""
    if game.running_step is None or game.ending:
        raise Refused(f"{game.rules.cite('night')}: no night step runs")
    return Result(replace(game, ending=True), [table.night_stop()],
                  [f"the judge ends the {game.running_step} step"])


def enter_pick(game: Game, actor: int, targets: tuple[int, ...]) -> Result:
    """The judge enters an actor's pick by tapping (the player showed it, their keypad is
    dead): for the running step, it replaces what the table reports when its time is up; for
    the step that just ended (before the next opens), the step is counted again with it."""
    night = game.rules.cite("night")
    if game.stage not in ("night", "night0"):
        raise Refused(f"{night}: picks are entered at night")
    name = game.running_step or (game.opened[-1] if game.opened and game.tonight
                                 and game.tonight[-1].step == game.opened[-1] else None)
    if name is None:
        raise Refused(f"{night}: no night step to enter a pick for")
    step = game.book.step(name)
    actors = game.step_actors
    if actor not in actors:
        raise Refused(f"{night}: seat {actor} does not act in the {name} step "
                      f"({seats_text(actors)})")
    if len(targets) > step.picks:
        raise Refused(f"{night}: the {name} step takes {step.picks} pick(s)")
    entry = Pick(actor, targets, by_judge=True)
    said = f"the judge enters seat {actor}'s pick in the {name} step: " \
           f"{seats_text(targets) or 'none'}"
    if game.running_step is not None:
        entries = (*(e for e in game.entries if e.actor != actor), entry)
        return Result(replace(game, entries=entries), [], [said])
    # the step that just ended, counted again with the entry
    picks = game.tonight[-1].entered(entry)
    undone = replace(game, tonight=game.tonight[:-1],
                     acts=tuple(a for a in game.acts
                                if not (a.night == game.night and a.step == name)))
    counted = _count(undone, step.name, picks)
    return Result(counted.game, counted.commands, [said, *counted.lines])


def on_result(game: Game, result: events.NightResultEvent) -> Result | None:
    """The table's result of the running step (the judge's entries laid over it)."""
    if game.running_step != result.step:
        return None
    picks = Picks(result.step, tuple(Pick(p.actor, tuple(p.picks), p.miss)
                                     for p in result.picks),
                  tuple(result.missing), result.agreed)
    for entry in game.entries:
        picks = picks.entered(entry)
    return _count(replace(game, running_step=None, entries=(), ending=False), result.step, picks)


def _count(game: Game, name: str, picks: Picks) -> Result:
    step = game.book.step(name)
    acted = mechanism(step.mechanism).act(game, step, picks)
    game = replace(game, tonight=(*game.tonight, picks),
                   acts=game.acts if acted.act is None else (*game.acts, acted.act))
    game = replace(game, dying=dying(settle_night(game)))
    return Result(replace(game, night_steps=plan(game)), list(acted.commands),
                  list(acted.lines))


def morning(game: Game) -> Result:
    """Morning (FIIM 4.5.9, "Утро"): the night's leavers have their last words (4.5.4), then
    the day begins."""
    # the table keeps the night while its countdown runs: it ends first
    commands = [table.timer_stop()] if game.countdown else []
    leavers = game.dying
    standings = _standings(game, leavers)
    game = replace(game, running_step=None, night_steps=(), countdown=False, entries=(),
                   dying=())
    commands.append(table.phase("day"))
    said = [f"{game.rules.cite('morning')}: {line}" for line in _announced(game)]
    for seat, tags in standings.items():  # announced: the table must know who is silent
        game = set_player(game, seat, tags=tags)
        said.append(f"{game.rules.cite('morning')}: seat {seat} is {' and '.join(tags)} for "
                    "the day")
    if standings:  # the table blocks their floor (and the judge leaves the frozen out of votes)
        commands.append(table.seats(SeatStanding(seat=s, silenced=True) for s in standings))
    if leavers:
        killed = game.rules.cite("killed")
        lines = [f"{killed}: seat {s} was killed; a last minute" if game.book.leaving.last_words
                 else f"{killed}: seat {s} was killed" for s in leavers]
        words = last_words(game, leavers, lines[0], "day")
        return Result(words.game, commands + words.commands,
                      [*words.lines, *lines[1:], *said], words.then)
    return Result(game, commands, [f"{game.rules.cite('morning')}: morning", *said],
                  Go("new_day"))


def _announced(game: Game) -> list[str]:
    """The mechanisms' morning words on tonight's acts (``Mechanism.announce``)."""
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
