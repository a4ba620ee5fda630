"""The table core: button events, light commands, simulator commands, bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from contract import events
from contract.buttons import JudgeButton, SeatButton
from contract.inputs import Boot, ButtonEdge, CommandReceived
from contract.lights import Light, LightMode
from controller.core import scene
from controller.core.effects import DrivePin, Emit, PublishState, Reply, SetLight
from controller.core.state import TableSetup, initial_state
from controller.core.table import snapshot, step
from tests.support.core_tables import SETUP, WIRED, payloads


def cmd(verb: str, doc: object) -> CommandReceived:
    payload = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return CommandReceived(verb, payload, t=5.0)


def test_boot_lights_every_seat_as_the_state_says_and_publishes_the_state():
    state, effects = step(initial_state(SETUP), Boot(1.0))
    assert [e for e in effects if isinstance(e, SetLight)] == [
        SetLight(seat, scene.IN_GAME) for seat in range(1, 7)  # every seat in game, dim white
    ]
    assert effects[-1] == PublishState(snapshot(state))


def test_a_seat_press_becomes_an_event_at_the_edge_time():
    _, effects = step(initial_state(SETUP), ButtonEdge(SeatButton(2), True, 12.345))
    assert effects == [Emit(events.SeatPress(seat=2, source="gpio"), 12.345)]


def test_a_judge_button_release_is_reported_with_its_name():
    state = initial_state(SETUP)
    state, _ = step(state, ButtonEdge(JudgeButton("confirm"), True, 1.0))
    _, effects = step(state, ButtonEdge(JudgeButton("confirm"), False, 1.5))
    assert effects == [Emit(events.JudgeRelease(button="confirm", source="gpio"), 1.5)]


def test_a_light_command_sets_the_lights_publishes_state_and_replies_ok():
    state, effects = step(initial_state(SETUP), cmd("light", {
        "id": "c1",
        "lights": [{"seat": 2, "mode": "on", "color": "#FF8000"}, {"seat": 6, "mode": "blink"}],
    }))
    assert state.light(2) == Light(LightMode.ON, "#ff8000")
    assert state.light(6) == Light(LightMode.BLINK)
    assert effects == [
        SetLight(2, Light(LightMode.ON, "#ff8000")),
        SetLight(6, Light(LightMode.BLINK)),
        PublishState(snapshot(state)),
        Reply("light", "c1", True),
    ]
    assert snapshot(state)["seats"][1] == {
        "seat": 2, "light": {"mode": "on", "color": "#ff8000"},
        "manual": {"mode": "on", "color": "#ff8000"},
        "standing": {"in_game": True, "fouls": 0, "silenced": False, "immune": False}}


def test_a_light_command_that_changes_nothing_only_replies():
    state, _ = step(initial_state(SETUP), cmd("light", {"id": "a", "lights": [
        {"seat": 1, "mode": "dim"}]}))
    again, effects = step(state, cmd("light", {"id": "b", "lights": [{"seat": 1, "mode": "dim"}]}))
    assert again == state
    assert effects == [Reply("light", "b", True)]


@pytest.mark.parametrize(("payload", "reply_id", "error"), [
    (b"not json", None, "payload is not valid JSON"),
    (b"[1, 2]", None, "expected object, got array"),
    ({"lights": [{"seat": 1, "mode": "on"}]}, None, "missing required field 'id'"),
    ({"id": "x", "lights": []}, "x", "lights: expected array of length >= 1"),
    ({"id": "x", "lights": [{"seat": 7, "mode": "on"}]}, "x", "lights[0].seat: no seat 7"),
    ({"id": "x", "lights": [{"seat": 0, "mode": "on"}]}, "x", "lights[0].seat: expected int >= 1"),
    ({"id": "x", "lights": [{"seat": 2**64, "mode": "on"}]}, "x", "expected int <= 24"),
    ({"id": "x", "lights": [{"seat": "1", "mode": "on"}]}, "x",
     "lights[0].seat: expected int, got str"),
    ({"id": "x", "lights": [{"seat": 1, "mode": "bright"}]}, "x", "lights[0].mode: invalid enum"),
    ({"id": "x", "lights": [{"seat": 1, "mode": "on", "color": "red"}]}, "x", "lights[0].color"),
    ({"id": "x", "lights": [{"seat": 1, "mode": "on"}, {"seat": 1, "mode": "off"}]}, "x",
     "lights[1].seat: seat 1 given twice"),
    ({"id": "x", "lights": [{"seat": 1, "mode": "on", "blink": 2}]}, "x",
     "lights[0]: object contains unknown field 'blink'"),
    ({"id": "", "lights": [{"seat": 1, "mode": "on"}]}, None, "id: expected str of length >= 1"),
])
def test_a_bad_light_command_gets_an_error_reply_and_changes_nothing(payload, reply_id, error):
    state = initial_state(SETUP)
    after, effects = step(state, cmd("light", payload))
    assert after == state
    assert len(effects) == 1
    reply = effects[0]
    assert isinstance(reply, Reply) and not reply.ok and reply.id == reply_id
    assert error in reply.error


@given(payloads, st.sampled_from(["light", "sim/press", "sim/release", "nonsense"]))
def test_any_payload_gets_exactly_one_reply_and_a_refused_one_changes_nothing(payload, verb):
    state = initial_state(SETUP)
    after, effects = step(state, CommandReceived(verb, payload, t=1.0))
    replies = [e for e in effects if isinstance(e, Reply)]
    assert len(replies) == 1
    if not replies[0].ok:
        assert after == state and effects == replies
        assert replies[0].error


def test_a_sim_press_drives_the_pin_of_a_wired_button():
    _, effects = step(initial_state(SETUP), cmd("sim/press", {"seat": 2}))
    assert effects == [DrivePin(SeatButton(2), True), Reply("sim/press", None, True)]
    _, effects = step(initial_state(SETUP), cmd("sim/release", {"judge": "confirm", "id": "r"}))
    assert effects == [DrivePin(JudgeButton("confirm"), False), Reply("sim/release", "r", True)]


@pytest.mark.parametrize(("doc", "error"), [
    ({"seat": 3}, "seat 3 has no button"),
    ({"judge": "next"}, "judge button 'next' has no button"),
    ({"judge": "boss"}, "judge: unknown button 'boss'"),
    ({"seat": 1, "judge": "confirm"}, 'exactly one of "seat" or "judge"'),
    ({}, 'exactly one of "seat" or "judge"'),
])
def test_a_bad_sim_command_is_refused(doc, error):
    _, effects = step(initial_state(SETUP), cmd("sim/press", doc))
    assert len(effects) == 1 and not effects[0].ok and error in effects[0].error


def test_sim_commands_are_refused_on_a_real_table():
    real = initial_state(TableSetup("t1", 6, WIRED, simulated=False))
    _, effects = step(real, cmd("sim/press", {"seat": 1, "id": "s"}))
    assert effects == [Reply("sim/press", "s", False,
                             "this table is not simulated (start it with --sim)")]


def test_an_unknown_command_is_answered_on_its_own_verb():
    _, effects = step(initial_state(SETUP), cmd("lights", {"id": "q"}))
    assert effects == [Reply("lights", "q", False, "unknown command 'lights'")]


def test_replies_echo_the_mqtt5_response_topic_and_correlation():
    inp = CommandReceived("light", b'{"id":"c","lights":[{"seat":1,"mode":"on"}]}', 1.0,
                          response_topic="core/replies", correlation=b"\x01\x02")
    _, effects = step(initial_state(SETUP), inp)
    assert effects[-1] == Reply("light", "c", True, None, "core/replies", b"\x01\x02")
