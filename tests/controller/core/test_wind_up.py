"""A new game's ending of what the last one left at the table (docs/judge.md, "New game";
``judge.game.wind_up``), on the table's pure core: from every situation a game can leave it in,
the endings in the order the judge sends them leave the table idle and by day, each refused
only where there was nothing to end, and the next game's speech and vote are taken."""

from __future__ import annotations

import pytest

from contract.buttons import SeatButton
from contract.commands import encode
from contract.inputs import CommandReceived
from contract.verbs import TIMER_PAUSE, TableCommand, bare_command
from controller.core.effects import Reply
from controller.core.state import TableSetup, initial_state
from judge.game import table
from tests.support.core_driver import Timeline, press

SEATS = frozenset(SeatButton(s) for s in range(1, 11))
#: the judge's endings, all four (``wind_up`` sends those the game or the table says run)
ENDINGS = [table.vote_cancel(), table.timer_stop(), table.night_stop(), table.phase("day")]
#: the table's refusal of each when it has nothing to end
NOTHING = {"vote/cancel": "no vote is running", "timer/stop": "no timer is running",
           "night/stop": "no night step runs", "phase": "phase: it is day already"}
VOTE = table.vote_start([3, 5], list(range(1, 11)), day=1)
SITUATIONS: dict[str, list[TableCommand]] = {
    "idle": [],
    "a speech": [table.floor(4, 60, "speech")],
    "a speech paused": [table.floor(4, 60, "speech"), bare_command(TIMER_PAUSE)],
    "the discussion": [table.discussion(300)],
    "a vote's window": [VOTE],
    "the all-leave question": [table.vote_question([3, 5], list(range(1, 11)))],
    "the night": [table.phase("night")],
    "the night's countdown": [table.phase("night"), table.countdown(60)],
    "a night step": [table.phase("night"), table.night_step(
        "mafia_shot", [1, 2, 3], 1, "alive", 10, "keypad")],
    "a counted night step": [table.phase("night"), table.night_step(
        "mafia_shot", [1, 2, 3], 1, "alive", 10, "count")],
}


def received(command: TableCommand, t: float, n: int) -> CommandReceived:
    return CommandReceived(command.spec.verb, encode(command.stamped(f"c{n}")), t)


def replies(tl: Timeline, since: int) -> list[Reply]:
    return [e for e in tl.effects[since:] if isinstance(e, Reply)]


@pytest.mark.parametrize("situation", SITUATIONS)
def test_a_new_games_endings_leave_the_table_idle_by_day_from_every_situation(situation):
    tl = Timeline(initial_state(TableSetup("t", 10, SEATS, debounce=0.02)))
    for n, command in enumerate(SITUATIONS[situation]):
        tl.feed([received(command, 1.0 + n / 10, n)])
    if situation == "a vote's window":  # the first window opens; fists go up in it
        tl.run_until(2.0)
        tl.feed(press(1, 2.1) + press(2, 2.2))
    assert all(r.ok for r in replies(tl, 0)), replies(tl, 0)
    since = len(tl.effects)
    for n, command in enumerate(ENDINGS):
        tl.feed([received(command, 5.0 + n / 100, 100 + n)])
    for reply in replies(tl, since):
        assert reply.ok or reply.error == NOTHING[reply.verb], reply
    state = tl.state
    assert (state.session, state.timer, state.night_step, state.night) == (None, None, None,
                                                                           False)
    since = len(tl.effects)
    tl.feed([received(table.day_start(2), 6.0, 200), received(table.floor(1, 60, "speech"),
                                                              6.1, 201)])
    tl.feed([received(table.timer_stop(), 7.0, 202), received(VOTE, 7.1, 203)])
    assert all(r.ok for r in replies(tl, since)), replies(tl, since)
