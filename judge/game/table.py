"""The commands the game sends the table (docs/mqtt-api.md), each made in one place: every
module of the engine asks here, never builds a command itself.

Each is a ``contract.verbs.TableCommand``: the verb's spec and the contract's payload struct, the
very one the table decodes, so a wrong field fails mypy. The pure engine has no ids: a payload
is built with ``id=UNSTAMPED`` and the panel stamps it as it sends.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from contract.commands import (
    DayStart,
    NightStepCommand,
    NominationWithdraw,
    PhaseCommand,
    RevealCommand,
    SeatsCommand,
    SeatStanding,
    TimerStart,
    VoteCorrect,
    VoteQuestion,
    VoteStart,
)
from contract.events import TimerKind
from contract.verbs import (
    DAY_START,
    NIGHT_REVEAL,
    NIGHT_STEP,
    NIGHT_STOP,
    NOMINATION_WITHDRAW,
    PHASE,
    SEATS,
    TIMER_START,
    TIMER_STOP,
    UNSTAMPED,
    VOTE_CANCEL,
    VOTE_CONFIRM,
    VOTE_CORRECT,
    VOTE_QUESTION,
    VOTE_REJECT,
    VOTE_START,
    TableCommand,
    bare_command,
)
from judge.game.state import Command

#: the private indicator's patterns for a check's answer (cmd/night/reveal): steady, blink twice
YES, NO = 1, 2


def seats(standings: Iterable[SeatStanding]) -> Command:
    """``cmd/seats``: each seat's standing that changed (in_game, fouls, silenced, immune)."""
    return TableCommand(SEATS, SeatsCommand(id=UNSTAMPED, seats=list(standings)))


def out(seats_out: Iterable[int]) -> Command:
    """``cmd/seats``: these seats leave the game at the table."""
    return seats(SeatStanding(seat=s, in_game=False) for s in seats_out)


def phase(name: Literal["day", "night"]) -> Command:
    return TableCommand(PHASE, PhaseCommand(id=UNSTAMPED, phase=name))


def floor(seat: int, seconds: float, kind: TimerKind) -> Command:
    """``cmd/timer/start``: ``seat`` has the floor (a speech, an excuse, last words)."""
    return TableCommand(TIMER_START, TimerStart(id=UNSTAMPED, seat=seat, seconds=seconds,
                                                kind=kind, replace=True))


def countdown(seconds: float) -> Command:
    """``cmd/timer/start`` at night: the judge's countdown (FIIM 4.2.1's minute)."""
    return TableCommand(TIMER_START, TimerStart(id=UNSTAMPED, seconds=seconds, kind="night"))


def timer_stop() -> Command:
    return bare_command(TIMER_STOP)


def day_start(day: int) -> Command:
    return TableCommand(DAY_START, DayStart(id=UNSTAMPED, day=day))


def vote_start(nominees: Iterable[int], voters: Iterable[int], day: int, *,
               against_all: bool | None = None, round: int = 1) -> Command:
    """``cmd/vote/start``: the table counts the fists for each nominee in order."""
    return TableCommand(VOTE_START, VoteStart(id=UNSTAMPED, nominees=list(nominees),
                                              voters=list(voters), day=day,
                                              against_all=against_all, round=round))


def vote_question(subjects: Iterable[int], voters: Iterable[int]) -> Command:
    return TableCommand(VOTE_QUESTION, VoteQuestion(id=UNSTAMPED, subjects=list(subjects),
                                                    voters=list(voters)))


def vote_decision(verb: Literal["confirm", "reject", "correct"], voters: Iterable[int] = (),
                  reason: str = "") -> Command:
    """``cmd/vote/confirm``, ``reject`` or ``correct`` (with the voters and a reason)."""
    if verb == "correct":
        return TableCommand(VOTE_CORRECT, VoteCorrect(id=UNSTAMPED, voters=list(voters),
                                                      reason=reason))
    return bare_command(VOTE_CONFIRM if verb == "confirm" else VOTE_REJECT)


def vote_cancel() -> Command:
    return bare_command(VOTE_CANCEL)


def withdraw(seat: int) -> Command:
    return TableCommand(NOMINATION_WITHDRAW, NominationWithdraw(id=UNSTAMPED, seat=seat))


def night_step(step: str, actors: Iterable[int], picks: int,
               targets: Literal["alive", "seats", "numbers"], seconds: float,
               mode: str) -> Command:
    """``cmd/night/step`` for exactly the seats that act: keypad entries within ``seconds``,
    or in ``count`` mode presses while the table speaks the numbers (no seconds then)."""
    if mode == "count":
        return TableCommand(NIGHT_STEP, NightStepCommand(
            id=UNSTAMPED, step=step, actors=list(actors), picks=picks, targets=targets,
            mode="count"))
    return TableCommand(NIGHT_STEP, NightStepCommand(
        id=UNSTAMPED, step=step, actors=list(actors), picks=picks, targets=targets,
        seconds=seconds))


def reveal(seat: int, pattern: int) -> Command:
    """``cmd/night/reveal``: an answer on one seat's private indicator, nowhere else."""
    return TableCommand(NIGHT_REVEAL, RevealCommand(id=UNSTAMPED, seat=seat, pattern=pattern))


def night_stop() -> Command:
    return bare_command(NIGHT_STOP)
