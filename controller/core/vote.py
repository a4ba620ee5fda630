"""Day votes and yes/no questions: the fist-vote count the judge confirms (FIIM 4.4.4-4.4.12).

A session votes on candidates one at a time, in nomination order (4.4.4). For each, a *window*
opens for ``rules.window`` seconds (4.4.5: "about 1.5 s"); a voter's press counts for the window
its **edge time** falls in, ``opens <= t < closes``, so a hand pulled back still counts (4.4.9)
and a slow event loop never moves a vote. When the window closes the count is *proposed*; only
the judge makes it final: confirm (station button or ``cmd/vote/confirm``), reject (the window
is run again) or correct (``cmd/vote/correct`` with the voters and a reason).

The proposal is a pure function of the session's recorded button edges and its windows, never of
the order inputs arrived in. Its rules:

* one vote per voter (4.4.7): a voter already counted for an earlier candidate, or pressing twice
  in one window, is not counted again and is flagged ``second_press``;
* at the last candidate, voters who voted for no one give their vote to it (4.4.8, ``leftover``),
  or abstain where the preset says so (club rules 003);
* a voter whose console was offline during the vote is flagged ``console_offline``: their
  press may not have reached the table;
* a button already down when the window opened is flagged ``held_from_before`` (and, if down for
  ``rules.stuck_after`` seconds at the close, ``stuck``); a press between windows is flagged
  ``between_windows``; a press in the window, or since the one before, from a seat that is not
  a voter (never was, or its standing barred it during the vote: ``barred``) is flagged
  ``not_a_voter``. Flags are for
  the judge; they never count a vote by themselves. A barred seat is never counted, not even
  as a leftover vote.

The outcome follows the preset's options, not its name: ``fork_gap`` (club rules 002, "вилка":
candidates within that many votes of the leader go to a re-vote, in the first round only) and
``abstain_wins`` (club rules 003: most votes "for night", nobody leaves and night falls).

Everything here is plain data in, plain data out: ``(session, facts, t) -> (session, effects)``.
A count made final (``confirm``, ``correct``) returns the next candidate's session or, when it
ends the vote, the ``VoteResult`` itself (``Next``): the table learns that the vote is over
from that value, never by looking through the effects.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from contract import events
from contract.events import AnomalyKind, Stage
from controller.core.effects import Cue, Effect, Emit, WakeAt

#: The candidate number of the "against all" window (club rules 003).
AGAINST_ALL = 0



class VoteRules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The vote options of a rule preset (``config/rules/*.toml``, section ``[vote]``)."""

    window: Annotated[float, msgspec.Meta(gt=0, le=10)] = 1.5
    gap: Annotated[float, msgspec.Meta(ge=0, le=30)] = 1.0
    pacing: Literal["auto", "judge"] = "auto"
    leftover: Literal["last_nominee", "abstain"] = "last_nominee"
    against_all: bool = False
    single_nominee_first_day: Literal["no_vote", "vote"] = "no_vote"
    question_tie: Literal["no", "yes"] = "no"
    early_finish: bool = False
    stuck_after: Annotated[float, msgspec.Meta(gt=0, le=60)] = 5.0
    fork_gap: Annotated[int, msgspec.Meta(ge=0, le=24)] = 0
    fork_rule: str = ""  # the paragraph a fork result cites
    abstain_wins: bool = False
    abstain_rule: str = ""  # the paragraph a "night" result cites

    def __post_init__(self) -> None:
        problem = needs_abstain(self.leftover, against_all=self.against_all,
                                abstain_wins=self.abstain_wins)
        if problem is not None:
            raise ValueError(problem)


AGAINST_ALL_NEEDS_ABSTAIN = (
    'against_all needs leftover = "abstain": with "against all" voted last, the votes of those '
    "who voted for no one cannot also go to the last nominee")
ABSTAIN_WINS_NEEDS_ABSTAIN = (
    'abstain_wins needs leftover = "abstain": where the votes of those who voted for no one go '
    "to the last nominee, nobody abstains")


def needs_abstain(leftover: str, *, against_all: bool = False, abstain_wins: bool = False) \
        -> str | None:
    """Why options that count the votes of those who voted for no one cannot go with the
    leftover-vote rule (``leftover = "last_nominee"``, FIIM 4.4.8, which gives those votes to
    the last nominee): an "against all" window or "most votes for night". None if they can.
    Checked once for a preset and again for a ``cmd/vote/start`` that asks for against_all."""
    if leftover != "last_nominee":
        return None
    if against_all:
        return AGAINST_ALL_NEEDS_ABSTAIN
    if abstain_wins:
        return ABSTAIN_WINS_NEEDS_ABSTAIN
    return None


class Anomaly(msgspec.Struct, frozen=True):
    seat: int
    kind: AnomalyKind


class Window(msgspec.Struct, frozen=True):
    """A vote window ``[opens, closes)``; presses in ``[after, opens)`` came between windows."""

    after: float
    opens: float
    closes: float


class Count(msgspec.Struct, frozen=True):
    """Votes for one candidate: ``voters`` pressed in its window, ``leftover`` are the voters
    who voted for no one and so count for the last candidate (4.4.8, ``leftover``)."""

    candidate: int
    voters: tuple[int, ...]
    leftover: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.voters) + len(self.leftover)


class Proposal(Count, frozen=True):
    """What the table counted, with what the judge should look at before confirming it."""

    anomalies: tuple[Anomaly, ...]


class Confirmed(Count, frozen=True):
    """A count the judge made final, and how."""

    by: Literal["button", "command", "correction"]
    reason: str | None = None


class Edge(msgspec.Struct, frozen=True, array_like=True):
    seat: int
    pressed: bool
    t: float


class VoteSession(msgspec.Struct, frozen=True, kw_only=True):
    """One running vote. ``candidates`` in voting order; ``index`` is the one being voted on."""

    id: str
    kind: Literal["nominees", "question"]
    candidates: tuple[int, ...]
    voters: tuple[int, ...]
    subjects: tuple[int, ...] = ()
    day: int = 0
    round: int = 1  # 2 and up: a re-vote (no fork there, club rules 002)
    rules: VoteRules = VoteRules()
    pacing: Literal["auto", "judge"] = "auto"
    started: float = 0.0
    index: int = 0
    attempt: int = 1
    stage: Stage = "waiting"
    next_open: float | None = None
    stage_since: float = 0.0
    window: Window | None = None
    last_close: float | None = None
    confirmed: tuple[Confirmed, ...] = ()
    edges: tuple[Edge, ...] = ()
    restarted: bool = False
    offline: tuple[int, ...] = ()  # voters whose console was offline during this vote
    barred: tuple[int, ...] = ()  # voters whose standing took their vote away during it

    @property
    def counting(self) -> tuple[int, ...]:
        """The voters whose votes count: ``voters`` less the ``barred``."""
        return tuple(seat for seat in self.voters if seat not in self.barred)

    @property
    def counted(self) -> frozenset[int]:
        """The seats a confirmed count already holds, pressed or leftover: each has cast its
        one vote (FIIM 4.4.7) and is counted for no later candidate."""
        return frozenset(v for c in self.confirmed for v in (*c.voters, *c.leftover))

    def voted_for_no_one(self, now: tuple[int, ...] = ()) -> tuple[int, ...]:
        """The counting voters whose vote no confirmed count holds and who are not among
        ``now`` (the voters of the count being made)."""
        counted = self.counted
        return tuple(s for s in self.counting if s not in counted and s not in now)

    @property
    def candidate(self) -> int:
        return self.candidates[self.index]

    @property
    def last(self) -> bool:
        return self.index == len(self.candidates) - 1


# ---------------------------------------------------------------- the count


def _level_at(edges: tuple[Edge, ...], seat: int, t: float) -> tuple[bool, float]:
    """Whether ``seat``'s button was down just before ``t``, and since when (``edges`` in time
    order)."""
    down, since = False, float("-inf")
    for edge in edges:
        if edge.seat == seat and edge.t < t and edge.pressed != down:
            down, since = edge.pressed, edge.t
    return down, since


def propose(session: VoteSession) -> Proposal:
    """The count for the current candidate from the recorded edges and its window."""
    window = session.window
    assert window is not None
    edges = tuple(sorted(session.edges, key=lambda e: (e.t, e.seat, e.pressed)))
    earlier = session.counted
    counting = session.counting
    presses = [e for e in edges if e.pressed and e.seat in counting]
    in_window: dict[int, int] = {}
    for edge in presses:
        if window.opens <= edge.t < window.closes:
            in_window[edge.seat] = in_window.get(edge.seat, 0) + 1
    strangers = {e.seat for e in edges if e.pressed and e.seat not in counting
                 and window.after <= e.t < window.closes}  # in this window or just before
    voters = tuple(sorted(seat for seat in in_window if seat not in earlier))
    anomalies: set[Anomaly] = {
        Anomaly(seat, "second_press") for seat, n in in_window.items()
        if n > 1 or seat in earlier
    } | {Anomaly(seat, "not_a_voter") for seat in strangers}
    for edge in presses:
        if window.after <= edge.t < window.opens:
            anomalies.add(Anomaly(edge.seat, "between_windows"))
    for seat in counting:
        down, since = _level_at(edges, seat, window.opens)
        if down:
            anomalies.add(Anomaly(seat, "held_from_before"))
        down, since = _level_at(edges, seat, window.closes)
        if down and window.closes - since >= session.rules.stuck_after:
            anomalies.add(Anomaly(seat, "stuck"))
    if session.restarted:
        anomalies.update(Anomaly(seat, "restarted") for seat in counting
                         if seat not in voters)
    anomalies.update(Anomaly(seat, "console_offline") for seat in session.offline
                     if seat not in voters and seat in counting)
    return Proposal(session.candidate, voters, leftover(session, voters),
                    tuple(sorted(anomalies, key=lambda a: (a.seat, a.kind))))


def leftover(session: VoteSession, voters: tuple[int, ...]) -> tuple[int, ...]:
    """The leftover-vote rule (FIIM 4.4.8: "if a player did not vote, the vote goes to the
    player put to the vote last"): the count for the last nominee, whose own ``voters`` are
    given, also holds every counting voter who voted for no one. Nobody's vote is left over in
    a question vote, before the last nominee, or where the preset says those voters abstain
    (``leftover = "abstain"``, club rules 003). The one place the rule is written: the
    proposal and the judge's correction both take it from here."""
    if (session.kind != "nominees" or not session.last
            or session.rules.leftover != "last_nominee"):
        return ()
    return session.voted_for_no_one(voters)


def _decided(session: VoteSession) -> bool:
    """``rules.early_finish``: a confirmed nominee has more votes than any other confirmed one
    and than the votes still to be cast (which is the most a later candidate can get), so the
    remaining windows cannot change who leaves. Where a first round has a fork (``fork_gap``),
    the leader must be more than the gap ahead of them: else a later candidate could still
    come within the gap and make it a fork."""
    if not session.rules.early_finish or session.kind != "nominees":
        return False
    leader = max(session.confirmed, key=lambda c: c.count)
    others = [c.count for c in session.confirmed if c is not leader]
    remaining = len(session.counting) - sum(c.count for c in session.confirmed)
    gap = session.rules.fork_gap if session.round == 1 else 0
    return leader.candidate != AGAINST_ALL and leader.count > max([remaining, *others]) + gap


def result(session: VoteSession) -> events.VoteResult:
    """The session's outcome from the confirmed counts: ``event/vote/result``."""
    if session.kind == "question":
        [confirmed] = session.confirmed
        yes = confirmed.count
        voters = len(session.counting)
        outcome: Literal["yes", "no"]
        if 2 * yes > voters:
            outcome = "yes"
        elif 2 * yes == voters:
            outcome = session.rules.question_tie
        else:
            outcome = "no"
        return events.VoteResult(
            session=session.id, kind="question", subjects=list(session.subjects),
            yes=list(confirmed.voters), yes_count=yes, voters_count=voters, outcome=outcome)
    rules = session.rules
    counts = [events.VoteCount(c.candidate, c.count) for c in session.confirmed]
    best = max(c.count for c in session.confirmed)
    night = session.voted_for_no_one()  # their votes "for night" (club rules 003)

    def nominees(outcome: events.VoteOutcome, **more: Any) -> events.VoteResult:
        return events.VoteResult(session=session.id, kind="nominees", counts=counts,
                                 outcome=outcome, **more)

    if rules.abstain_wins and len(night) > best:
        return nominees("night", abstained=list(night),
                        reason=f"most votes went to night: nobody leaves ({rules.abstain_rule})")
    gap = rules.fork_gap if session.round == 1 else 0
    leaders = [c.candidate for c in session.confirmed if c.count >= best - gap]
    if len(leaders) > 1 and gap:
        return nominees("fork", tied=leaders,
                        reason=f"a gap of {gap} votes or less: a re-vote ({rules.fork_rule})")
    if len(leaders) > 1:
        return nominees("tie", tied=leaders)
    if leaders[0] == AGAINST_ALL:
        return nominees("against_all")
    return nominees("eliminated", eliminated=leaders[0])


# ---------------------------------------------------------------- events


def _window(session: VoteSession, t: float, duration_ms: int | None = None) -> Emit:
    """``event/vote/window``: the current candidate's window opened (with its length) or
    closed."""
    return Emit(events.VoteWindow(
        session=session.id, candidate=session.candidate, attempt=session.attempt,
        state="closed" if duration_ms is None else "opened", duration_ms=duration_ms), t)


def _proposed_event(session: VoteSession, proposal: Proposal, t: float) -> Emit:
    return Emit(events.VoteProposed(
        session=session.id, candidate=session.candidate, attempt=session.attempt,
        voters=list(proposal.voters), leftover=list(proposal.leftover), count=proposal.count,
        anomalies=[events.VoteAnomaly(a.seat, a.kind) for a in proposal.anomalies]), t)


# ---------------------------------------------------------------- transitions


def start(session: VoteSession, t: float) -> tuple[VoteSession, list[Effect]]:
    """A new session: announce it and schedule (auto) or await (judge) the first window."""
    event = Emit(events.VoteStarted(
        session=session.id, kind=session.kind, candidates=list(session.candidates),
        voters=list(session.voters), subjects=list(session.subjects), day=session.day,
        pacing=session.pacing), t)
    session, effects = _schedule(msgspec.structs.replace(session, started=t), t)
    return session, [event, *effects]


def _schedule(session: VoteSession, t: float) -> tuple[VoteSession, list[Effect]]:
    """Wait for the next window: after ``gap`` (auto pacing) or the judge's Next (judge)."""
    if session.pacing == "judge":
        return msgspec.structs.replace(session, stage="waiting", stage_since=t, next_open=None,
                                       window=None), []
    at = t + session.rules.gap
    session = msgspec.structs.replace(session, stage="waiting", stage_since=t, next_open=at,
                                      window=None)
    return session, [WakeAt(at)]


def open_window(session: VoteSession, t: float) -> tuple[VoteSession, list[Effect]]:
    after = session.started if session.last_close is None else session.last_close
    window = Window(after, t, t + session.rules.window)
    session = msgspec.structs.replace(session, stage="open", stage_since=t, next_open=None,
                                      window=window)
    event = _window(session, t, round(session.rules.window * 1000))
    return session, [event, Cue("window", t), WakeAt(window.closes)]


def tick(session: VoteSession, t: float) -> tuple[VoteSession, list[Effect]]:
    """Timers: open the next window (auto pacing) or close the open one."""
    if session.stage == "waiting" and session.next_open is not None and t >= session.next_open:
        return open_window(session, session.next_open)
    if session.stage == "open" and session.window is not None and t >= session.window.closes:
        closes = session.window.closes
        session = msgspec.structs.replace(session, stage="proposed", stage_since=closes,
                                          last_close=closes)
        return session, [_window(session, closes),
                         _proposed_event(session, propose(session), closes)]
    return session, []


def edge(session: VoteSession, seat: int, pressed: bool, t: float) \
        -> tuple[VoteSession, list[Effect]]:
    """Record a seat's debounced button edge (a non-voter's too: its press in a window is
    flagged ``not_a_voter``). A press that lands in a window already closed (it arrived late)
    changes its proposal, which is published again."""
    session = msgspec.structs.replace(session, edges=(*session.edges, Edge(seat, pressed, t)))
    if (pressed and session.stage == "proposed" and session.window is not None
            and t < session.window.closes):
        return session, [_proposed_event(session, propose(session), t)]
    return session, []


def bar(session: VoteSession, barred: tuple[int, ...], t: float) \
        -> tuple[VoteSession, list[Effect]]:
    """The voters whose standing now keeps them from voting (``barred``): counted no more; a
    count awaiting the judge is published again without them."""
    if barred == session.barred:
        return session, []
    session = msgspec.structs.replace(session, barred=barred)
    if session.stage == "proposed" and session.window is not None:
        return session, [_proposed_event(session, propose(session), t)]
    return session, []


def too_early(session: VoteSession, t: float) -> str | None:
    """Why a judge's decision made at ``t`` cannot apply to the current stage, if it cannot:
    a Confirm pressed before the window closed did not see this count, and a Next pressed
    before the previous count was settled does not open the next window."""
    if t < session.stage_since:
        return (f"the judge acted at {t:.3f}, before the vote reached its present stage "
                f"({session.stage}, since {session.stage_since:.3f})")
    return None


#: What a vote is after the judge made a count final: still running (the next candidate's
#: session) or over, with its ``VoteResult`` (which its effects also publish).
Next = VoteSession | events.VoteResult


def confirm(session: VoteSession, t: float, by: Literal["button", "command"]) \
        -> tuple[Next, list[Effect]]:
    """The judge confirms the proposal: it becomes final; then the next candidate or the end."""
    proposal = propose(session)
    return _finalize(session, Confirmed(proposal.candidate, proposal.voters, proposal.leftover,
                                        by), t)


def correct(session: VoteSession, voters: tuple[int, ...], reason: str, t: float) \
        -> tuple[Next, list[Effect]]:
    """The judge's own count replaces the proposal (``voters`` already checked). At the last
    nominee the leftover rule still gives it the votes of those who voted for no one."""
    return _finalize(session, Confirmed(session.candidate, voters, leftover(session, voters),
                                        "correction", reason),
                     t)


def _finalize(session: VoteSession, confirmed: Confirmed, t: float) \
        -> tuple[Next, list[Effect]]:
    """Add ``confirmed`` to the session; the vote is over (its result returned, not a session)
    at the last candidate or once the rest cannot change who leaves (``_decided``)."""
    event = Emit(events.VoteConfirmed(
        session=session.id, candidate=session.candidate, attempt=session.attempt,
        voters=list(confirmed.voters), leftover=list(confirmed.leftover), count=confirmed.count,
        by=confirmed.by, reason=confirmed.reason), t)
    session = msgspec.structs.replace(session, confirmed=(*session.confirmed, confirmed))
    if session.last or _decided(session):
        outcome = result(session)
        return outcome, [event, Emit(outcome, t)]
    session = msgspec.structs.replace(session, index=session.index + 1, attempt=1,
                                      restarted=False)
    session, effects = _schedule(session, t)
    return session, [event, *effects]


def reject(session: VoteSession, t: float, by: Literal["button", "command"]) \
        -> tuple[VoteSession, list[Effect]]:
    """The judge rejects the proposal: the same candidate's window runs again."""
    event = Emit(events.VoteRejected(session=session.id, candidate=session.candidate,
                                     attempt=session.attempt, by=by), t)
    session = msgspec.structs.replace(session, attempt=session.attempt + 1, restarted=False)
    session, effects = _schedule(session, t)
    return session, [event, *effects]


def resume(session: VoteSession, t: float) -> tuple[VoteSession, list[Effect]]:
    """After a controller restart: report exactly what the session had.

    A window that was open when the controller stopped is closed where it stood and proposed
    with every voter not counted flagged ``restarted`` (presses while the controller was down
    were not seen); the judge confirms or rejects it as usual. A pending auto window is
    rescheduled; a proposal waits for the judge as before.
    """
    session = _rebase(session, t)
    effects: list[Effect] = [Emit(events.VoteResumed(
        session=session.id, candidate=session.candidate, attempt=session.attempt,
        stage=session.stage), t)]
    if session.stage == "open" and session.window is not None:
        closes = min(t, session.window.closes)
        session = msgspec.structs.replace(
            session, stage="proposed", restarted=True, stage_since=t, last_close=closes,
            window=msgspec.structs.replace(session.window, closes=closes))
        effects.append(_window(session, t))
        effects.append(_proposed_event(session, propose(session), t))
    elif session.stage == "proposed":
        effects.append(_proposed_event(session, propose(session), t))
    else:
        session, scheduled = _schedule(session, t)
        effects += scheduled
    return session, effects


def _rebase(session: VoteSession, t: float) -> VoteSession:
    """Saved times are host monotonic seconds, which restart near zero when the Pi reboots.
    If the session holds times later than ``t``, shift them all back so the latest is ``t``:
    then nothing pressed from now on can fall into an old window."""
    times = [session.started, session.stage_since, *(e.t for e in session.edges)]
    if session.window is not None:
        times += [session.window.after, session.window.opens, session.window.closes]
    shift = t - max(times)
    if shift >= 0:
        return session

    def moved(value: float | None) -> float | None:
        return None if value is None else value + shift

    window = session.window
    if window is not None:
        window = Window(window.after + shift, window.opens + shift, window.closes + shift)
    return msgspec.structs.replace(
        session, started=session.started + shift, stage_since=session.stage_since + shift,
        next_open=moved(session.next_open), last_close=moved(session.last_close), window=window,
        edges=tuple(Edge(e.seat, e.pressed, e.t + shift) for e in session.edges))


def summary(session: VoteSession | None) -> dict[str, object] | None:
    """The running session as the retained ``state`` shows it."""
    if session is None:
        return None
    return {"id": session.id, "kind": session.kind, "candidates": list(session.candidates),
            "candidate": session.candidate, "attempt": session.attempt, "stage": session.stage,
            "confirmed": [{"candidate": c.candidate, "count": c.count}
                          for c in session.confirmed]}
