"""The engine: one input at a time, the game after it.

``step(game, input, now) -> (game, commands, records)``: ``input`` is an ``Action`` (a tap on
the judge's panel) or a ``TableEvent`` (what the table published, below ``mafia/<table>/``); the
result is the new game, the commands to send the table (``cmd/<verb>``) and the lines for the
game's record, each citing its book's paragraph. Nothing here does I/O or reads a clock: ``now``
is data, so a game is replayed exactly from its journal of inputs (``replay``). A refused action
raises ``Refused`` citing its paragraph and changes nothing.

The modules beside this one each decide one part (``setup``, ``day``, ``votes``, ``night``,
``leaving``, ``fouls``, ``end``) and say where the game goes next (``state.Go``); ``go`` takes
it there, so no module needs to know the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, NamedTuple

import msgspec

from contract import events
from contract.commands import SeatStanding
from judge.game import counting, day, end, fouls, leaving, night, setup, table
from judge.game.actions import UNDOABLE as _UNDOABLE
from judge.game.actions import (
    Call,
    Choose,
    Confirm,
    Correct,
    Deal,
    Disqualify,
    EndStep,
    Foul,
    JudgeAction,
    Name,
    Next,
    NightInput,
    NightPick,
    Nominate,
    Reject,
    Reseat,
    Seating,
    ShowCard,
    Start,
    Swap,
    Undo,
    Violation,
    Withdraw,
    decode,
)
from judge.game.book import Endgame as EndgameRow
from judge.game.endgames import ENDGAMES
from judge.game.mechanisms import MECHANISMS, mechanism, stepless
from judge.game.state import (
    Action,
    BadArgument,
    Command,
    Game,
    Go,
    Mark,
    Refused,
    Result,
    TableEvent,
    take_out,
)
from judge.game.votes import procedure
from judge.game.wind_up import wind_up
from kit.i18n import Line, Words

#: the undoable actions in words, for the record's "undo: ..." line
ACTION_WORDS = {"name": Words("action.name"), "reseat": Words("action.reseat"),
                "swap": Words("action.swap"), "deal": Words("action.deal"),
                "call": Words("action.call"),
                "nominate": Words("action.nominate"), "withdraw": Words("action.withdraw"),
                "foul": Words("action.foul"), "violation": Words("action.violation"),
                "disqualify": Words("action.disqualify")}


def step(game: Game, given: Action | TableEvent, now: float
         ) -> tuple[Game, list[Command], list[Line]]:
    """The game after one input, the commands it sends the table and its record lines."""
    if isinstance(given, TableEvent):
        new, commands, records = _run(on_event(game, given))
        if new is not game and game.undo:  # an undo plays it again
            last = game.undo[-1]
            new = replace(new, undo=(*game.undo[:-1],
                                     replace(last, events=(*last.events, given))))
    else:
        action = decode(given)
        new, commands, records = _run(act(game, action, now))
        if not isinstance(action, Undo) and new is not game:
            marks = (*game.undo[-19:], Mark(replace(game, undo=()), given.kind)) \
                if action.undoable else ()
            new = replace(new, undo=marks, last_action=given.kind)
    if new is game:
        return game, [], []
    return replace(new, version=game.version + 1), commands, records


def _run(result: Result) -> tuple[Game, list[Command], list[Line]]:
    """A module's result, followed wherever it sends the game."""
    game, commands, lines = result.game, list(result.commands), list(result.lines)
    then = result.then
    while then is not None:
        more = go(game, then)
        game, then = more.game, more.then
        commands += more.commands
        lines += more.lines
    return game, commands, lines


def go(game: Game, then: Go) -> Result:
    """Take the game where a module sent it."""
    if then.to == "vote":
        return procedure(game).start(game)
    if then.to == "revote":
        return procedure(game).revote(game)
    if then.to == "nightfall":
        return night.nightfall(game, then.why)
    if then.to == "new_day":
        return day.new_day(game)
    if then.to == "morning":
        return night.morning(game)
    if then.to == "after_last_words":
        return leaving.after_last_words(game)
    raise ValueError(f"no such turn of the game: {then.to!r}")


def act(game: Game, action: JudgeAction, now: float) -> Result:
    """One of the judge's actions, at ``now`` (a violation's length is counted by it)."""
    match action:
        case Name():
            return setup.name(game, action.seat, action.name)
        case Seating():
            return setup.seating(game, tuple(action.names))
        case Reseat():
            return setup.reseat(game)
        case Swap():
            return setup.swap(game, tuple(action.seats))
        case Deal():
            roles = None if action.roles is None else tuple(action.roles)
            return setup.deal(game, action.seed, roles, tuple(action.add), action.called)
        case Call():
            return setup.call(game, action.number)
        case Start():
            return setup.start(game)
        case Next():
            return _next(game)
        case Nominate():
            return day.nominate(game, action.seat)
        case Withdraw():
            return day.withdraw(game, action.seat)
        case Foul():
            return fouls.foul(game, action.seat)
        case Violation():
            return fouls.violation(game, action.seat, action.ends, now)
        case Disqualify():
            return fouls.disqualify(game, action.seat, action.reason)
        case ShowCard():
            return fouls.show_card(game, action.seat)
        case Confirm():
            return counting.decide(game, "confirm")
        case Reject():
            return counting.decide(game, "reject")
        case Correct():
            return counting.decide(game, "correct", tuple(action.voters), action.reason)
        case NightPick():
            return night.enter_pick(game, action.actor, tuple(action.targets))
        case EndStep():
            return night.end_step(game)
        case NightInput():
            if action.mode == game.night_input:
                return Result(game, [], [])
            return Result(replace(game, night_input=action.mode), [],
                          [Line(None, "line.night_input.count" if action.mode == "count"
                                else "line.night_input.keypad")])
        case Choose():
            return _choose(game, action)
        case Undo():
            return _undo(game)
    raise Refused(Line(None, "refused.panel_action", action=action.kind))


def _choose(game: Game, given: Choose) -> Result:
    """The judge's decision for a night step's mechanism, for a mechanism with no step (a
    trait, the Crow Club's immunity), for the vote procedure, or for an endgame the judge
    declares (the Crow Club's ghosts' forfeit, the maniac's gift) (``given.of``): one of the
    ``decisions`` it declares, its value of that decision's shape (``_shaped``), and one it
    asks now (while it asks another, this one is refused naming what it asks). At night,
    tonight's steps are planned again after it (a Don named by the judge: no successor's
    step)."""
    of = given.of
    if of == "vote":
        vote = procedure(game)
        declared, asked = vote.decisions, vote.offers(game)

        def decide(value: object) -> Result:
            return vote.choose(game, value)
    else:
        step = next((s for s in game.book.night.steps if s.name == of), None)
        row = next((r for r in game.book.endgames if r.kind == of), None)
        if step is not None or (of in stepless(game.book) and of in MECHANISMS):
            module = mechanism(step.mechanism) if step is not None else MECHANISMS[of]
            declared, asked = module.decisions, module.offers(game, step)

            def decide(value: object) -> Result:
                return module.choose(game, step, value)
        elif row is not None:
            ending = ENDGAMES[row.kind]
            declared, asked = ending.decisions, ending.offers(game, row)

            def decide(value: object) -> Result:
                return _declare(game, row, value)
        else:
            raise Refused(Line(game.rules.cite("night"), "refused.choose.step", step=of,
                               book=game.book.title))
    if not declared:  # it asks nothing, ever: its own refusal says so
        return decide(given.value)
    value = _shaped(given, declared)
    kinds = [o.kind for o in asked]
    if kinds and given.decision not in kinds:
        raise Refused(Line(None, "refused.choose.not_asked", asked=[o.label for o in asked]))
    chosen = decide(value)
    if chosen.game.stage not in ("night", "night0") or chosen.game.running_step is not None:
        return chosen
    return chosen._replace(game=replace(chosen.game, night_steps=night.plan(chosen.game)))


def _declare(game: Game, row: EndgameRow, value: object) -> Result:
    """A win the judge declares (the Crow Club's ghosts' forfeit, the maniac's gift): the
    game stops where it is, whatever runs at the table ends, and the winner the endgame names
    wins."""
    if game.stage in ("setup", "over"):
        raise Refused(Line(row.rule, "refused.endgame.playing"))
    said = ENDGAMES[row.kind].declare(game, row, value)
    over = end.declared(game, msgspec.structs.replace(row, team=said.winner))
    return Result(over.game, [*wind_up(game, {}), *over.commands], [said.line, *over.lines])


#: a decision's shape when it declares none (``None`` is a shape: no value)
_UNDECLARED = object()


def _shaped(given: Choose, declared: dict[str, Any]) -> Any:
    """``given.value`` as its decision's one shape (``Mechanism.decisions``,
    ``Procedure.decisions``); a decision not declared, or a value not of its shape, is refused
    naming the argument."""
    shape = declared.get(given.decision, _UNDECLARED)
    if shape is _UNDECLARED:
        raise BadArgument(Line(None, "refused.choose.decision", of=given.of,
                               decision=given.decision, known=", ".join(declared)),
                          "args.decision")
    try:
        return msgspec.convert(given.value, shape)
    except msgspec.ValidationError as exc:
        said = str(exc).partition(" - at `$")[0]
        raise BadArgument(Line(None, "refused.arguments", action=given.kind,
                               field="args.value", detail=said), "args.value") from None


def _next(game: Game) -> Result:
    """The judge's Next: whatever comes next in the stage the game is in."""
    if game.stage in ("night0", "night"):
        return night.next_step(game)
    if game.stage in ("day", "defence", "last_words"):
        return day.next_speaker(game)
    if game.stage in procedure(game).stages:
        raise Refused(Line(game.rules.cite("vote_running"), "refused.next.vote"))
    raise Refused(Line(None, "refused.next.none"))


def on_event(game: Game, given: TableEvent) -> Result:
    """What the table reported, and what it changes."""
    event = given.event
    if isinstance(event, events.DayEvent) and event.day > game.table_day:
        return Result(replace(game, table_day=event.day), [], [])
    if isinstance(event, events.NominationEvent):
        return day.on_nomination(game, event) or Result(game, [], [])
    counted = counting.on_count(game, event)
    if counted is not None:
        return counted
    if isinstance(event, events.VoteResult) and game.stage in procedure(game).stages:
        return procedure(game).on_result(game, event)
    if isinstance(event, events.TimerEvent) and game.countdown and event.seat is None \
            and event.state in ("ended", "stopped"):
        first = game.book.first_night
        rule = first.rule if first is not None else game.rules.cite("night")
        return Result(replace(game, countdown=False), [], [Line(rule, "line.countdown.up")])
    if isinstance(event, events.NightResultEvent):
        return night.on_result(game, event) or Result(game, [], [])
    if isinstance(event, events.SeatsEvent):
        return Result(_on_seats(game, event), [], [])
    return Result(game, [], [])


def _on_seats(game: Game, seats: events.SeatsEvent) -> Game:
    """The table's standings: a fourth foul takes the player out at the table too."""
    changed = game
    for s in seats.seats:
        if s.seat <= len(game.players) and not s.in_game and game.player(s.seat).in_game \
                and game.player(s.seat).fouls >= 4:
            changed = take_out(changed, s.seat, "fouls")
    return changed


def _undo(game: Game) -> Result:
    """Take back the judge's last undoable action and keep what the table reported since: the
    game before the action, with the table's events since played again (the commands they
    brought were sent when they came). The table is told the seats' standings again."""
    if not game.undo:
        if game.last_action and game.last_action not in _UNDOABLE:
            raise Refused(Line(None, "refused.undo.table"))
        raise Refused(Line(None, "refused.undo.none"))
    mark, rest = game.undo[-1], game.undo[:-1]
    before = mark.before
    for event in mark.events:
        before = _run(on_event(before, event))[0]
    if rest:  # the events since belong to the action before it now
        rest = (*rest[:-1], replace(rest[-1], events=(*rest[-1].events, *mark.events)))
    before = replace(before, undo=rest, version=game.version)
    commands = []
    if game.stage != "setup":
        commands.append(table.seats(
            SeatStanding(seat=p.seat, in_game=p.in_game, fouls=p.fouls, silenced=p.silenced,
                         immune=p.immune or None)
            for p in before.players))
    return Result(before, commands, [Line(None, "line.undo", action=ACTION_WORDS.get(
        mark.kind, mark.kind))])


class Replayed(NamedTuple):
    """One input of a journal played again: the input, its time, the game after it (the very
    game before it when it changed nothing) and its record lines."""

    given: Action | TableEvent
    at: float
    game: Game
    records: list[Line]


def replay(game: Game, inputs: Iterable[tuple[Action | TableEvent, float]],
           refused: Callable[[Action | TableEvent, Refused], None]) -> Iterator[Replayed]:
    """A journal's inputs played again from ``game``, the one loop that does it (the panel's
    restart, the record, the overlay's history). An input the core refuses (a journal written
    by another version of this code) is handed to ``refused`` and skipped."""
    for given, at in inputs:
        try:
            game, _, records = step(game, given, at)
        except Refused as exc:
            refused(given, exc)
            continue
        yield Replayed(given, at, game, records)
