"""``cmd/vote/...``: the judge's and the rules core's part in a vote, checked against the table
(pure).

The vote itself (windows, presses, the proposed count, the result) is ``controller.core.vote``;
these handlers decide whether a command may touch it now. ``vote/start`` (nominees, in
nomination order: FIIM 4.4.4) and ``vote/question`` (one yes/no window) open a session, by day
only, with voters and candidates whose standing allows it; ``confirm``, ``reject`` and
``correct`` act on a proposed count once the judge may see it; ``next`` opens the next window
when the judge paces the vote; ``cancel`` abandons it. Each handler returns what the vote is
next (``vote.Next``: the running session, or the ``VoteResult`` that ended it; None: no vote
runs), which ``_on_session`` puts into the table (``TableState.with_vote``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import msgspec

from contract.commands import VoteAction, VoteCorrect, VoteQuestion, VoteStart
from contract.events import VoteCancelled, VoteResult
from contract.seats import seat_problem
from controller.core import standings, vote
from controller.core.effects import Effect, Emit
from controller.core.replies import Handler, Outcome
from controller.core.state import TableState

VoteOutcome = tuple[vote.Next | None, list[Effect], str | None]
#: a vote handler: it decides what the vote is next (None: no vote runs)
VoteHandler = Callable[["TableState", Any, float], VoteOutcome]


def _on_session(handler: VoteHandler) -> Handler:
    """A command handler that puts what the vote handler says the vote is next into the
    table."""
    @functools.wraps(handler)  # its signature names the payload type it takes
    def on_session(state: TableState, value: Any, t: float) -> Outcome:
        after, effects, error = handler(state, value, t)
        return state.with_vote(after), effects, error
    return on_session


def _vote_start(state: TableState, cmd: VoteStart | VoteQuestion, t: float) -> VoteOutcome:
    if state.session is not None:
        return state.session, [], f"a vote is running (session {state.session.id!r})"
    if state.night:
        return None, [], "it is night: votes are for the day (cmd/phase day first)"
    question = isinstance(cmd, VoteQuestion)  # below, isinstance again: mypy narrows cmd by it
    candidates = cmd.subjects if isinstance(cmd, VoteQuestion) else cmd.nominees
    key = "subjects" if question else "nominees"
    problem = (seat_problem(key, candidates, state.setup.seats)
               or seat_problem("voters", cmd.voters, state.setup.seats))
    problem = problem or _standing_problem(state, key, candidates, "nominated") \
        or _standing_problem(state, "voters", cmd.voters, "vote")
    if problem:
        return None, [], problem
    rules = state.setup.rules
    if (isinstance(cmd, VoteStart) and cmd.day == 1 and len(cmd.nominees) == 1
            and rules.single_nominee_first_day == "no_vote"):
        held = VoteResult(session=cmd.id, kind="nominees", outcome="no_vote",
                          reason="one nominee on the first day (FIIM 4.4.10)")
        return held, [Emit(held, t)], None
    against_all = False if isinstance(cmd, VoteQuestion) else (
        rules.against_all if cmd.against_all is None else cmd.against_all)
    conflict = vote.needs_abstain(rules.leftover, against_all=against_all)
    if conflict is not None:
        return None, [], "against_all: " + conflict
    if isinstance(cmd, VoteQuestion):
        order: tuple[int, ...] = (vote.AGAINST_ALL,)
    else:
        order = (*cmd.nominees, *((vote.AGAINST_ALL,) if against_all else ()))
    session = vote.VoteSession(
        id=cmd.id, kind="question" if question else "nominees", candidates=order,
        voters=tuple(cmd.voters),
        subjects=tuple(cmd.subjects) if isinstance(cmd, VoteQuestion) else (),
        day=0 if isinstance(cmd, VoteQuestion) else cmd.day,
        round=1 if isinstance(cmd, VoteQuestion) else cmd.round, rules=rules,
        pacing=cmd.pacing or rules.pacing)
    session = msgspec.structs.replace(
        session, offline=tuple(sorted(state.offline & set(session.voters))))
    session, effects = vote.start(session, t)
    return session, effects, None


def _standing_problem(state: TableState, key: str, seats: list[int],
                      action: standings.Action) -> str | None:
    """The first of ``seats`` whose standing blocks ``action``, as ``key[i]: why``."""
    for i, seat in enumerate(seats):
        why = standings.why_not(state.setup.standings, state.standings, seat, action)
        if why is not None:
            return f"{key}[{i}]: {why}"
    return None


def _proposed(state: TableState, t: float) -> str | None:
    if state.session is None:
        return "no vote is running"
    if state.session.stage != "proposed":
        return f"nothing is proposed (the vote is {state.session.stage})"
    return vote.too_early(state.session, t)


def _vote_confirm(state: TableState, cmd: VoteAction, t: float) -> VoteOutcome:
    if (problem := _proposed(state, t)) is not None:
        return state.session, [], problem
    return (*vote.confirm(state.session, t, "command"), None)  # type: ignore[arg-type]


def _vote_reject(state: TableState, cmd: VoteAction, t: float) -> VoteOutcome:
    if (problem := _proposed(state, t)) is not None:
        return state.session, [], problem
    return (*vote.reject(state.session, t, "command"), None)  # type: ignore[arg-type]


def _vote_correct(state: TableState, cmd: VoteCorrect, t: float) -> VoteOutcome:
    if (problem := _proposed(state, t)) is not None:
        return state.session, [], problem
    session = state.session
    assert session is not None
    counted = session.counted
    for i, seat in enumerate(cmd.voters):
        if seat not in session.voters:
            return session, [], f"voters[{i}]: seat {seat} is not a voter in this vote"
        if seat in session.barred:
            why = standings.why_not(state.setup.standings, state.standings, seat, "vote")
            return session, [], f"voters[{i}]: {why or f'seat {seat} lost its vote'}"
        if seat in counted:
            return session, [], f"voters[{i}]: seat {seat} already voted for another candidate"
        if seat in cmd.voters[:i]:
            return session, [], f"voters[{i}]: seat {seat} given twice"
    return (*vote.correct(session, tuple(sorted(cmd.voters)), cmd.reason, t), None)


def _vote_next(state: TableState, cmd: VoteAction, t: float) -> VoteOutcome:
    session = state.session
    if session is None:
        return None, [], "no vote is running"
    if session.pacing != "judge":
        return session, [], "windows open by themselves in this vote (auto pacing)"
    if session.stage != "waiting":
        return session, [], f"the window cannot open now (the vote is {session.stage})"
    if (problem := vote.too_early(session, t)) is not None:
        return session, [], problem
    return (*vote.open_window(session, t), None)


def _vote_cancel(state: TableState, cmd: VoteAction, t: float) -> VoteOutcome:
    if state.session is None:
        return None, [], "no vote is running"
    return None, [Emit(VoteCancelled(session=state.session.id), t)], None


#: the handlers the command registry dispatches to (``controller.core.registry``)
start = _on_session(_vote_start)  # vote/start and vote/question: the payload tells which
confirm = _on_session(_vote_confirm)
reject = _on_session(_vote_reject)
correct = _on_session(_vote_correct)
next_window = _on_session(_vote_next)
cancel = _on_session(_vote_cancel)
