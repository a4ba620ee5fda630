"""The commands the game sends the table (``cmd/<verb>``, docs/mqtt-api.md), each made in one
place: every module of the engine asks here, never writes a verb or a field itself."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from judge.engine.state import Command

#: the private indicator's patterns for a check's answer (cmd/night/reveal): steady, blink twice
YES, NO = 1, 2


def seats(standings: Iterable[dict[str, Any]]) -> Command:
    """``cmd/seats``: each seat's standing that changed (in_game, fouls, silenced, immune)."""
    return Command("seats", {"seats": list(standings)})


def out(seats_out: Iterable[int]) -> Command:
    return seats({"seat": s, "in_game": False} for s in seats_out)


def phase(name: str) -> Command:
    return Command("phase", {"phase": name})


def floor(seat: int, seconds: float, kind: str) -> Command:
    """``cmd/timer/start``: ``seat`` has the floor (a speech, an excuse, last words)."""
    return Command("timer/start", {"seat": seat, "seconds": seconds, "kind": kind,
                                   "replace": True})


def countdown(seconds: float) -> Command:
    """``cmd/timer/start`` at night: the judge's countdown (FIIM 4.2.1's minute)."""
    return Command("timer/start", {"seconds": seconds, "kind": "night"})


def timer_stop() -> Command:
    return Command("timer/stop")


def day_start(day: int) -> Command:
    return Command("day/start", {"day": day})


def vote_start(nominees: Iterable[int], voters: Iterable[int], day: int,
               **options: Any) -> Command:
    """``cmd/vote/start``: the table counts the fists for each nominee in order."""
    return Command("vote/start", {"nominees": list(nominees), "voters": list(voters),
                                  "day": day, **options})


def vote_question(subjects: Iterable[int], voters: Iterable[int]) -> Command:
    return Command("vote/question", {"subjects": list(subjects), "voters": list(voters)})


def vote_decision(verb: str, **fields: Any) -> Command:
    """``cmd/vote/confirm``, ``reject`` or ``correct`` (with the voters and a reason)."""
    return Command(f"vote/{verb}", fields)


def vote_cancel() -> Command:
    return Command("vote/cancel")


def withdraw(seat: int) -> Command:
    return Command("nomination/withdraw", {"seat": seat})


def night_step(step: str, actors: Iterable[int], picks: int, targets: str,
               seconds: float, mode: str) -> Command:
    """``cmd/night/step`` for exactly the seats that act: keypad entries within ``seconds``,
    or in ``count`` mode presses while the table speaks the numbers (no seconds then)."""
    fields: dict[str, Any] = {"step": step, "actors": list(actors), "picks": picks,
                              "targets": targets}
    if mode == "count":
        fields["mode"] = "count"
    else:
        fields["seconds"] = seconds
    return Command("night/step", fields)


def reveal(seat: int, pattern: int) -> Command:
    """``cmd/night/reveal``: an answer on one seat's private indicator, nowhere else."""
    return Command("night/reveal", {"seat": seat, "pattern": pattern})


def night_stop() -> Command:
    return Command("night/stop")
