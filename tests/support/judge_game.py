"""The judge's game core driven by hand: taps, inputs run in order, the days and nights the
rules tests start from, a game that ends in last words, and hypothesis's taps and table events.

``run`` steps ``judge.game`` one input a second; ``tap(kind, **args)`` is the judge's action.
Seats as dealt by ``ROLES`` (``tests.support.record_game``): 1 the Don, 2 and 3 mafia, 4 the
Sheriff, 5-10 civilians.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from contract.verbs import TableCommand
from judge.game import Action, Game, TableEvent, new_game, step
from tests.support.record_game import ROLES
from tests.support.table_event import table_event
from tests.support.table_night import reported

#: what the judge's core sends the table
Commands = list[TableCommand]


def run(game: Game, *inputs: Action | TableEvent) -> tuple[Game, Commands, list[str]]:
    commands: Commands = []
    records: list[str] = []
    for i, given_input in enumerate(inputs):
        game, more, lines = step(game, given_input, float(i))
        commands += more
        records += [str(line) for line in lines]  # in English (kit.i18n)
    return game, commands, records


def tap(kind: str, **args) -> Action:
    return Action(kind, args)


def started() -> Game:
    game, _, _ = run(new_game(), tap("deal", roles=ROLES), tap("start"))
    return game


def day_one() -> Game:
    game, _, _ = run(started(), tap("next"))
    return game


def speeches(game: Game, nominations: dict[int, int] | None = None) -> tuple[Game, Commands]:
    """Every speaker of the day in turn, nominating as given (speaker -> seat)."""
    commands: Commands = []
    while game.speakers or game.floor is not None:
        game, more, _ = run(game, tap("next"))
        commands += more
        if nominations and game.floor in nominations:
            target = nominations[game.floor]
            game, more, _ = run(game, table_event("event/nomination", {
                "by": game.floor, "seat": target, "outcome": "accepted"}))
    return game, commands


def night(game: Game, picks: dict[str, dict[int, list[int]]],
          check: Callable[[Game, Commands, tuple[int, ...]], None] | None = None
          ) -> tuple[Game, Commands, list[str]]:
    """Every step of tonight (or of the deal's night) in turn on the judge's Next, each answered
    by the table with its actors' picks (``picks[step]``: actor -> seats keyed; none given:
    nobody picks), as the table's own night code reports them (``table_night.reported``: a
    group whose picks differ marked ``disagree``). ``check(game, commands, actors)`` sees each
    input's commands (``actors``: the step's, once it answered)."""
    commands: Commands = []
    lines: list[str] = []
    while game.stage in ("night", "night0"):
        game, more, said = run(game, tap("next"))
        commands, lines = commands + more, lines + said
        if check is not None:
            check(game, more, ())
        if game.running_step is not None:
            actors = next(tuple(c.payload.actors) for c in more if c.spec.verb == "night/step")
            game, more, said = run(game, reported(game, picks.get(game.running_step, {})))
            commands, lines = commands + more, lines + said
            if check is not None:
                check(game, more, actors)
    return game, commands, lines


def result(**body) -> TableEvent:
    return table_event("event/vote/result", body)


def night_one() -> Game:
    game, _ = speeches(day_one())
    return game


def shot(game: Game, picks: dict[int, int]) -> Game:
    game, _, _ = run(game, tap("next"), table_event("private/night/result", {
        "step": "mafia_shot", "picks": [{"actor": a, "picks": [p]} for a, p in picks.items()],
        "missing": [], "agreed": len(set(picks.values())) == 1}))
    return game


def ended_in_last_words() -> list[Action | TableEvent]:
    """A whole game: seats 5 and 6 out on fouls on day 1, seat 7 voted out, and in seat 7's
    last words seat 8's fourth foul ends it (1.4)."""
    return [tap("deal", roles=ROLES), tap("start"), tap("next"),
            *[tap("foul", seat=5)] * 4, *[tap("foul", seat=6)] * 4,
            tap("next"), table_event("event/nomination", {"by": 1, "seat": 7,
                                                         "outcome": "accepted"}),
            tap("next"), table_event("event/nomination", {"by": 2, "seat": 9,
                                                         "outcome": "accepted"}),
            *[tap("next")] * 7,  # seats 3, 4, 7, 8, 9, 10, then the vote
            result(outcome="eliminated", eliminated=7, tied=[]), tap("next"),
            *[tap("foul", seat=8)] * 3]


def morning_after_night_one() -> list[Action | TableEvent]:
    """Day 1 with no nomination, night 1: the mafia shoot seat 6, the checks, 6's best move,
    then «Утро» and 6's last minute (4.5.4, 4.5.9): the inputs up to 6 having the floor."""
    def answered(step_name: str, picks: dict[int, list[int]]) -> list[Action | TableEvent]:
        return [tap("next"), table_event("private/night/result", {
            "step": step_name, "missing": [], "agreed": True,
            "picks": [{"actor": a, "picks": p} for a, p in picks.items()]})]
    return [tap("deal", roles=ROLES), tap("start"), tap("next"),  # night 0, day 1
            *[tap("next")] * 11,  # seats 1..10 speak; nobody nominated: night 1
            *answered("mafia_shot", {1: [6], 2: [6], 3: [6]}),
            *answered("don_check", {1: [4]}), *answered("sheriff_check", {4: [2]}),
            *answered("best_move", {6: [1, 2, 3]}),
            tap("next"), tap("next")]  # «Утро»; 6 has the floor


actions = st.one_of(
    st.builds(lambda: tap("next")), st.builds(lambda: tap("confirm")),
    st.builds(lambda: tap("reject")), st.builds(lambda: tap("undo")),
    st.builds(lambda s: tap("foul", seat=s), st.integers(0, 11)),
    st.builds(lambda s: tap("nominate", seat=s), st.integers(1, 10)),
    st.builds(lambda s: tap("withdraw", seat=s), st.integers(1, 10)),
    st.builds(lambda v: tap("correct", voters=v), st.lists(st.integers(1, 10), max_size=4)),
)


seats = st.integers(0, 11)


in_range = st.integers(1, 11)  # a seat the event's type takes (1..24), not always at the table


events = st.one_of(
    st.builds(lambda b, s: table_event("event/nomination", {"by": b, "seat": s,
                                                          "outcome": "accepted"}),
              in_range, seats),
    st.builds(lambda c, n: table_event("event/vote/proposed", {"candidate": c, "count": n,
                                                             "voters": []}), seats,
              st.integers(0, 10)),
    st.builds(lambda s: table_event("event/vote/result", {"outcome": "eliminated",
                                                         "eliminated": s}), in_range),
    st.builds(lambda t: table_event("event/vote/result", {"outcome": "tie", "tied": t}),
              st.lists(seats, min_size=2, max_size=3, unique=True)),
    st.sampled_from([table_event("event/vote/result", {"outcome": o})
                     for o in ("yes", "no", "no_vote", "against_all")]),
    st.builds(lambda name, picks: table_event("private/night/result", {
        "step": name, "picks": [{"actor": 1, "picks": picks}, {"actor": 2, "picks": picks}],
        "missing": []}), st.sampled_from(["mafia_shot", "don_check", "sheriff_check",
                                          "best_move"]),
        st.lists(seats, max_size=3)),
)

