"""The table's state: what the controller knows about the table, as one immutable value.

``TableSetup`` is fixed for the life of the service (from the config); ``TableState`` holds the
seats and what each light shows, the debounce state of every wired button, the running vote
session, speech timer and night step, and the day. ``table.step`` makes the next one from it
and an input; the command handlers read it and return the next one (``replies.Outcome``), so
the state has a module of its own below both.

What a seat light shows is ``shown(state)``: layers from ``scene`` (standing, nominated,
manual ``cmd/light``, speaker, vote), each going away by itself when its reason does. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import msgspec

from contract import events
from contract.buttons import Button
from contract.commands import Voice
from contract.events import Surplus
from contract.lights import Light
from controller.core import day, keypad, night, scene, standings, timer, vote
from controller.core.debounce import Debounce
from controller.core.night import NightStep
from controller.core.standings import NightAction


@dataclass(frozen=True)
class TableSetup:
    """Facts fixed for the life of the service, taken from the config.

    ``wired``: the vote and judge buttons the table can read (GPIO pins and consoles).
    ``keypads``: the seats with a console keypad. ``debounce``: the lockout in seconds.
    ``simulated``: whether ``sim/...`` commands may drive the (mock) pins. ``rules``: the vote
    options of the table's rule preset; ``standings``: what each standing blocks;
    ``night_steps``: the night steps that shoot or check (their targets' standings matter);
    ``night_surplus``: what each night step does with more picks than it takes (``night``).
    ``voice``: the language the table speaks until a ``cmd/audio`` says another (``[music]
    voice``). ``preset``: the rule preset those options came from (``rules``'s file name,
    ``fiim``), which ``state`` says, so a rules core can tell whether the table plays its book.
    """

    table: str
    seats: int
    wired: frozenset[Button] = frozenset()
    keypads: frozenset[int] = frozenset()
    debounce: float = 0.02
    simulated: bool = False
    rules: vote.VoteRules = field(default_factory=vote.VoteRules)
    one_nomination_per_speaker: bool = True
    one_nomination_rule: str = "FIIM 4.4.3"
    night_seconds: float = 10.0
    night_cadence: float = 1.2
    standings: standings.StandingRules = field(default_factory=standings.StandingRules)
    night_steps: dict[str, NightAction] = field(default_factory=lambda: dict(
        standings.NIGHT_STEPS))
    night_surplus: dict[str, Surplus] = field(default_factory=lambda: dict(night.SURPLUS))
    voice: Voice = "ru"
    #: the rule preset the table plays (the config's ``rules`` file's name), said in ``state``
    preset: str | None = None


@dataclass(frozen=True)
class TableState:
    """``lights``: the manual layer, per seat (None: the seat follows the table's scene).
    ``voice``: the language the table speaks now (``cmd/audio``'s, else the setup's); every
    spoken cue is named in it (``said``)."""

    setup: TableSetup
    lights: tuple[Light | None, ...] = ()
    standings: tuple[scene.Standing, ...] = ()
    buttons: dict[Button, Debounce] = field(default_factory=dict)
    entries: dict[int, keypad.Entry] = field(default_factory=dict)
    session: vote.VoteSession | None = None
    timer: timer.SpeechTimer | None = None
    day: day.Day = field(default_factory=day.Day)
    offline: frozenset[int] = frozenset()  # seats whose console is offline
    night: bool = False
    night_step: NightStep | None = None
    voice: Voice | None = None  # None: the setup's

    @property
    def speaks(self) -> Voice:
        """The language the table speaks now."""
        return self.voice or self.setup.voice

    @property
    def phase(self) -> str:
        if self.night:
            return "night"
        return "idle" if self.session is None else "vote"

    def light(self, seat: int) -> Light:
        """What seat ``seat`` shows now."""
        return shown(self)[seat - 1]

    def with_vote(self, after: vote.Next | None) -> TableState:
        """The table once its vote moved on, as the vote layer says: ``after`` is the running
        session, None (no vote runs: cancelled, or none started) or the ``VoteResult`` that
        ended it; then today's vote has been held (``Day.voted``: the nominated lights go
        out). The one place a finished vote changes the day."""
        if not isinstance(after, events.VoteResult):
            return replace(self, session=after)
        today = self.day if self.day.voted else msgspec.structs.replace(self.day, voted=True)
        return replace(self, session=None, day=today)


def initial_state(setup: TableSetup, *, lights: tuple[Light | None, ...] | None = None,
                  session: vote.VoteSession | None = None,
                  standings: tuple[scene.Standing, ...] | None = None,
                  today: day.Day | None = None,
                  interrupted: timer.SpeechTimer | None = None,
                  night: bool = False,
                  night_step: night.NightStep | None = None) -> TableState:
    """Every wired button released; the rest as saved before a restart, if any: each part is
    named (keyword-only), and one left out or not fitting the table (a light or standing per
    seat) starts afresh."""
    if lights is None or len(lights) != setup.seats:
        lights = (None,) * setup.seats
    if standings is None or len(standings) != setup.seats:
        standings = (scene.Standing(),) * setup.seats
    return TableState(setup=setup, lights=lights, standings=standings, session=session,
                      day=today or day.Day(), timer=interrupted, night=night,
                      night_step=night_step,
                      buttons={button: Debounce() for button in setup.wired})


def shown(state: TableState) -> tuple[Light, ...]:
    """Every seat's light: the layers of ``controller.core.scene``, bottom up; at night all
    public lights are dark."""
    if state.night:
        return (scene.OUT,) * len(state.standings)
    lights = [scene.standing_light(s) for s in state.standings]
    if state.session is None and not state.day.voted:
        for seat in state.day.nominees:
            if lights[seat - 1] == scene.IN_GAME:  # fouls and silence stay visible
                lights[seat - 1] = scene.NOMINATED
    for i, manual in enumerate(state.lights):
        if manual is not None:
            lights[i] = manual
    if state.timer is not None:
        stage = "final" if state.timer.final else "warning" if state.timer.warned else "normal"
        if state.timer.seat is not None:
            lights[state.timer.seat - 1] = scene.SPEAKER[stage if state.timer.running
                                                         else "paused"]
    session = state.session
    if session is not None and session.stage != "waiting":
        if session.kind == "nominees" and session.candidate != vote.AGAINST_ALL:
            lights[session.candidate - 1] = scene.CANDIDATE
        if session.stage == "proposed":  # a nominee who voted shows as a voter, solid
            for seat in vote.propose(session).voters:
                lights[seat - 1] = scene.VOTED
    return tuple(lights)
