"""The table's transition function: ``step(state, input) -> (state, effects)``.

``step`` applies one input to the table's state (``controller.core.state.TableState``) and
returns the new state with the effects to perform, the lights that now show differently, the
retained ``state`` document (``snapshot``) and the saved session among them. It is pure: same
state and input, same result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgspec

from contract import events
from contract.buttons import Button, JudgeButton, SeatButton
from contract.inputs import (
    Boot,
    ButtonEdge,
    CommandReceived,
    ConsoleStatus,
    Input,
    KeyPressed,
    Tick,
)
from controller.core import day, keypad, night, registry, timer, vote
from controller.core.debounce import Accepted, Debounce, on_edge, settle
from controller.core.effects import Effect, Emit, Music, PublishState, Reply, SetLight, WakeAt
from controller.core.performed import PersistSession, StepEffect
from controller.core.state import TableState, shown


def snapshot(state: TableState) -> dict[str, Any]:
    """The retained ``state`` document: what a newly connected client needs to draw the table."""
    return {
        "table": state.setup.table,
        "phase": state.phase,
        "seats": [{"seat": seat, "light": light.as_dict(),
                   "manual": None if manual is None else manual.as_dict(),
                   "standing": msgspec.structs.asdict(standing)}
                  for seat, (light, manual, standing) in enumerate(
                      zip(shown(state), state.lights, state.standings, strict=True), start=1)],
        "vote": vote.summary(state.session),
        "day": state.day.number,
        "nominations": [{"by": n.by, "seat": n.seat} for n in state.day.nominations],
        "timer": _timer_summary(state),
        "voice": state.speaks,
        "rules": state.setup.preset,
    }


def step(state: TableState, inp: Input) -> tuple[TableState, list[StepEffect]]:
    """Apply one input. The only entry point of the core.

    After the input's own effects come the consequences every change has: the lights that now
    show differently, the retained state and the saved session; replies come last.
    """
    new, made = _dispatch(state, inp)
    effects: list[StepEffect]
    if isinstance(inp, Boot):
        effects = [*(SetLight(s, light) for s, light in enumerate(shown(new), start=1)),
                   PublishState(snapshot(new)), *made]
    else:
        effects = [*made, *_consequences(state, new)]
    replies = [e for e in effects if isinstance(e, Reply)]
    return new, [e for e in effects if not isinstance(e, Reply)] + replies


def _scene(state: TableState) -> tuple[object, ...]:
    """Everything ``shown`` and ``snapshot`` read."""
    return (state.night, state.standings, state.session, state.day, state.lights, state.timer,
            state.night_step, state.voice)


def _consequences(before: TableState, after: TableState) -> list[StepEffect]:
    if all(a is b for a, b in zip(_scene(before), _scene(after), strict=True)):
        return []  # only bookkeeping moved (a debounce, a keypad entry): nothing to show or save
    old, new = shown(before), shown(after)
    effects: list[StepEffect] = [
        SetLight(seat, light)
        for seat, (was, light) in enumerate(zip(old, new, strict=True), start=1) if was != light]
    session_changed = before.session is not after.session
    if (effects or (session_changed
                    and vote.summary(before.session) != vote.summary(after.session))
            or before.lights != after.lights or before.standings != after.standings
            or before.day != after.day or before.night != after.night
            or _timer_summary(before) != _timer_summary(after) or before.speaks != after.speaks):
        effects.append(PublishState(snapshot(after)))
    if session_changed or before.night_step is not after.night_step:
        # every press in a window and every night pick too: a restart must find them
        effects.append(PersistSession(after.session, after.night_step))
    return effects


def _boot(state: TableState, t: float) -> tuple[TableState, list[Effect]]:
    """After a restart: a speech timer cannot go on (its time ran on unseen), so it is reported
    stopped; a vote resumes (``vote.resume``)."""
    effects: list[Effect] = [Music(True)] if state.night else []
    if state.timer is not None:
        stopped, more = timer.stop(state.timer, t)
        state = replace(state, timer=stopped)
        effects += more
    if state.session is not None:
        session, more = vote.resume(state.session, t)
        state = replace(state, session=session)
        effects += more
    if state.night_step is not None:  # cut short by the restart: what it had is its result
        effects += night.finish(msgspec.structs.replace(state.night_step, ends=t))
        state = replace(state, night_step=None)
    return state, effects


def _timer_summary(state: TableState) -> dict[str, Any] | None:
    current = state.timer
    if current is None:
        return None
    return {"id": current.id, "seat": current.seat, "kind": current.kind,
            "running": current.running, "duration_ms": round(current.duration * 1000)}


def _dispatch(state: TableState, inp: Input) -> tuple[TableState, list[Effect]]:
    match inp:
        case ButtonEdge():
            return _button_edge(state, inp)
        case KeyPressed():
            return _key(state, inp)
        case ConsoleStatus():
            return _console_status(state, inp)
        case Tick():
            return _tick(state, inp.t)
        case Boot():
            return _boot(state, inp.t)
        case CommandReceived():
            return registry.dispatch(state, inp)
    raise TypeError(f"not an input: {inp!r}")


# ---------------------------------------------------------------- buttons


def _button_event(button: Button, accepted: Accepted, source: events.Source, night: bool) \
        -> Emit:
    """A button's press or release; a seat's is private at night: nobody may learn who
    pressed."""
    if isinstance(button, SeatButton):
        seat = events.SeatPress if accepted.pressed else events.SeatRelease
        return Emit(seat(seat=button.seat, source=source), accepted.t, private=night)
    judge = events.JudgePress if accepted.pressed else events.JudgeRelease
    return Emit(judge(button=button.name, source=source), accepted.t)


def _accepted(state: TableState, button: Button, accepted: Accepted, source: events.Source) \
        -> tuple[TableState, list[Effect]]:
    """A debounced edge: its event, then what it means to a running vote or night step."""
    effects: list[Effect] = [_button_event(button, accepted, source, state.night)]
    if state.night and isinstance(button, SeatButton):
        step = state.night_step
        if step is not None and step.mode == "count" and accepted.pressed:
            step, more = night.pick(step, button.seat, step.spoken_at(accepted.t), accepted.t)
            return replace(state, night_step=step), effects + more
        return state, effects
    session = state.session
    if session is None:
        if isinstance(button, JudgeButton) and accepted.pressed and state.timer is not None:
            return _judge_timer(state, button, accepted.t, effects)
        return state, effects
    after: vote.Next
    if isinstance(button, SeatButton):
        after, more = vote.edge(session, button.seat, accepted.pressed, accepted.t)
    elif accepted.pressed:
        after, more = _judge_button(session, button, accepted.t)
    else:
        after, more = session, []
    return state.with_vote(after), effects + more


def _judge_timer(state: TableState, button: JudgeButton, t: float, effects: list[Effect]) \
        -> tuple[TableState, list[Effect]]:
    """The judge station during a speech: Confirm pauses and resumes, Reject adds 10 s,
    Next ends the speech."""
    current = state.timer
    assert current is not None
    if t < current.since:  # pressed before this timer's last change: it was not meant for it
        return state, effects
    new: timer.SpeechTimer | None
    if button.name == "confirm":
        new, more = (timer.pause if current.running else timer.resume)(current, t)
    elif button.name == "reject":
        new, more = timer.add(current, 10.0, t)
    else:
        new, more = timer.stop(current, t)
    return replace(state, timer=new), effects + more


def _judge_button(session: vote.VoteSession, button: JudgeButton, t: float) \
        -> tuple[vote.Next, list[Effect]]:
    if vote.too_early(session, t) is not None:
        return session, []  # pressed before the count it would act on existed
    if button.name == "confirm" and session.stage == "proposed":
        return vote.confirm(session, t, "button")
    if button.name == "reject" and session.stage == "proposed":
        return vote.reject(session, t, "button")
    if button.name == "next" and session.stage == "waiting" and session.pacing == "judge":
        return vote.open_window(session, t)
    return session, []


def _button_edge(state: TableState, edge: ButtonEdge) -> tuple[TableState, list[Effect]]:
    # a console debounces on its own MCU: its edges come clean, only GPIO contacts chatter
    hold = state.setup.debounce if edge.source == "gpio" else 0.0
    before = state.buttons.get(edge.button, Debounce())
    after, accepted = on_edge(before, edge.pressed, edge.t, hold, edge.source)
    if after == before:
        return state, []
    state = replace(state, buttons={**state.buttons, edge.button: after})
    if accepted is not None:
        return _accepted(state, edge.button, accepted, edge.source)
    if after.pending:
        return state, [WakeAt(after.settle_at(hold), settle=True)]
    return state, []


def _key(state: TableState, inp: KeyPressed) -> tuple[TableState, list[Effect]]:
    """A keypad key: its event, and the seat entry it completes (``7`` ``#`` -> 7); at night
    both are private, and an entry is an actor's pick in a running night step."""
    effects: list[Effect] = [
        Emit(events.KeyEvent(seat=inp.seat, key=inp.key, source=inp.source), inp.t,
             private=state.night)]
    entry, value = keypad.key(state.entries.get(inp.seat, keypad.Entry()), inp.key, inp.t)
    state = replace(state, entries={**state.entries, inp.seat: entry})
    if value is None:
        return state, effects
    effects.append(Emit(events.EntryEvent(seat=inp.seat, value=value, source=inp.source),
                        inp.t, private=state.night))
    step = state.night_step
    if step is not None and step.mode == "keypad":
        step, more = night.pick(step, inp.seat, value, inp.t)
        return replace(state, night_step=step), effects + more
    if state.night:
        return state, effects  # a count step's night: an entry is no pick and no nomination
    if state.session is not None:  # by day an entry is a nomination: refused, saying why
        return state, [*effects, day.event(
            state.day, inp.seat, value, inp.t, "refused",
            f"a vote is running (session {state.session.id!r}): nominations are made in the "
            "speeches before it (FIIM 4.4.2)")]
    speech = state.timer
    floor = speech.kind if (speech is not None and speech.seat == inp.seat
                            and speech.running) else None
    today, nomination = day.nominate(state.day, inp.seat, value, state.standings, inp.t,
                                     state.setup.one_nomination_per_speaker,
                                     state.setup.standings, floor,
                                     state.setup.one_nomination_rule)
    return replace(state, day=today), [*effects, nomination]


def _console_status(state: TableState, inp: ConsoleStatus) -> tuple[TableState, list[Effect]]:
    offline = state.offline - inp.seats if inp.online else state.offline | inp.seats
    session = state.session
    if session is not None and not inp.online:
        flagged = tuple(sorted(set(session.offline) | (inp.seats & set(session.voters))))
        session = msgspec.structs.replace(session, offline=flagged)
    return replace(state, offline=offline, session=session), []


def _tick(state: TableState, now: float) -> tuple[TableState, list[Effect]]:
    hold = state.setup.debounce
    effects: list[Effect] = []
    for button, before in sorted(state.buttons.items(), key=lambda item: item[1].raw_t):
        after, accepted = settle(before, now, hold)
        if accepted is not None:
            state = replace(state, buttons={**state.buttons, button: after})
            state, more = _accepted(state, button, accepted, after.source)
            effects += more
    if state.session is not None:
        session, more = vote.tick(state.session, now)
        if more:
            state = replace(state, session=session)
            effects += more
    if state.timer is not None:
        running, more = timer.tick(state.timer, now, state.speaks)
        if more:
            state = replace(state, timer=running)
            effects += more
    if state.night_step is not None and now >= state.night_step.ends + night.GRACE:
        effects += night.finish(state.night_step)
        state = replace(state, night_step=None)
    return state, effects
