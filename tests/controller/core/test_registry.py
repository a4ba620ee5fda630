"""The command registry: the contract's verbs (``contract.verbs``) are what docs/asyncapi.yaml
documents and what the core's handlers serve, verb for verb, and any payload on any command
topic gets one reply and, when refused, changes nothing."""

from __future__ import annotations

import inspect
import json
from datetime import UTC, datetime

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contract import verbs
from contract.commands import (
    LightCommand,
    LightSpec,
    SeatsCommand,
    SeatStanding,
    SimButtonCommand,
    TimerStart,
    VoteStart,
    encode,
    parse,
    request_id,
)
from contract.inputs import CommandReceived
from contract.verbs import COMMANDS
from controller.core.effects import Reply
from controller.core.registry import HANDLERS, NOT_SIMULATED
from controller.core.state import TableSetup, initial_state
from controller.core.table import step
from tests.support.asyncapi import DOC
from tests.support.core_tables import SETUP, WIRED

REAL = TableSetup("t1", 6, WIRED)  # not simulated


def documented_commands() -> dict[str, dict]:
    """The document's received channels by topic (below mafia/{table}/)."""
    receive = {op["channel"]["$ref"].rsplit("/", 1)[1]: op
               for op in DOC["operations"].values() if op["action"] == "receive"}
    return {DOC["channels"][name]["address"].removeprefix("mafia/{table}/"): {
        "channel": DOC["channels"][name], "operation": op} for name, op in receive.items()}


def test_the_registry_and_the_asyncapi_document_agree_verb_for_verb():
    documented = documented_commands()
    assert list(documented) == [entry.topic for entry in COMMANDS.values()]
    for entry in COMMANDS.values():
        channel = documented[entry.topic]["channel"]
        operation = documented[entry.topic]["operation"]
        assert list(channel["messages"]) == [entry.payload.__name__], entry.verb
        assert channel["description"] == entry.summary
        assert operation["bindings"]["mqtt"]["retain"] is False
        reply = operation["reply"]["channel"]["$ref"].rsplit("/", 1)[1]
        assert DOC["channels"][reply]["address"] == f"mafia/{{table}}/reply/{entry.verb}"


def test_the_core_handles_every_verb_of_the_contract_but_the_shells_one():
    """The table serves every verb but the shell's one (cmd/replay, answered by the service
    from its journal: tests/contract/test_api_contract.py sends it to a running service), and
    nothing the contract does not name."""
    assert [verb for verb in COMMANDS if verb not in HANDLERS] == ["replay"]
    assert set(HANDLERS) <= set(COMMANDS)
    for verb in HANDLERS:
        _, effects = step(initial_state(SETUP), CommandReceived(verb, b'{"id": "x"}', 1.0))
        [answer] = [e for e in effects if isinstance(e, Reply)]
        assert answer.verb == verb and "unknown command" not in (answer.error or ""), answer


def test_each_handler_takes_the_payload_type_registered_with_it():
    for verb, handler in HANDLERS.items():
        annotation = inspect.signature(handler).parameters["cmd"].annotation
        assert COMMANDS[verb].payload.__name__ in annotation.split(" | "), (verb, annotation)


FIELDS = sorted({field.name for entry in COMMANDS.values()
                 for field in msgspec.structs.fields(entry.payload)})
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False, width=32)
    | st.sampled_from(["night", "day", "on", "auto", "#00ff00", "confirm", "12#", "x", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(FIELDS), inner, max_size=3),
    max_leaves=10)
payloads = st.one_of(
    st.binary(max_size=32),
    st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=3), json_values, max_size=5)
    .map(lambda doc: json.dumps(doc).encode()))


@given(verb=st.sampled_from(list(HANDLERS)), payload=payloads)
def test_a_registered_command_gets_one_reply_and_a_refused_one_changes_nothing(verb, payload):
    state = initial_state(SETUP)
    after, effects = step(state, CommandReceived(verb, payload, 1.0))
    [answer] = [e for e in effects if isinstance(e, Reply)]
    assert effects[-1] is answer and answer.verb == verb
    parsed = parse(payload, COMMANDS[verb].payload)
    assert answer.id == parsed.id
    if not answer.ok:
        assert after == state and effects == [answer]
        assert answer.id in (None, request_id(payload))


@pytest.mark.parametrize("command", [
    LightCommand(id="l1", lights=[LightSpec(seat=3, mode="blink", color="#00ff00")]),
    VoteStart(id="v1", nominees=[3, 5], voters=[1, 2, 3, 4, 5, 6], day=2, pacing="judge"),
    SeatsCommand(id="s1", seats=[SeatStanding(seat=2, fouls=3)]),
    TimerStart(id="t1", seconds=60, seat=4, ts=datetime(2026, 11, 29, 21, 15, tzinfo=UTC)),
    SimButtonCommand(judge="confirm"),
], ids=lambda command: type(command).__name__)
def test_a_command_encoded_by_the_contract_parses_back_as_the_same_struct(command):
    """The one encoding a client sends (``contract.commands.encode``) is what the table
    decodes: the same struct comes back."""
    assert parse(encode(command), type(command)).value == command


@given(verb=st.sampled_from(["no/such", "vote/nope", "timer", "cmd/light", "sim/nope"]),
       payload=payloads)
def test_an_unknown_verb_is_refused_with_the_id_the_payload_carries(verb, payload):
    state = initial_state(SETUP)
    after, effects = step(state, CommandReceived(verb, payload, 1.0))
    assert after == state
    assert effects == [Reply(verb, request_id(payload), False, f"unknown command {verb!r}")]


@given(verb=st.sampled_from([v for v, e in COMMANDS.items() if e.simulated]), payload=payloads)
def test_a_real_table_refuses_simulator_commands_before_reading_them(verb, payload):
    state = initial_state(REAL)
    after, effects = step(state, CommandReceived(verb, payload, 1.0))
    assert after == state
    assert effects == [Reply(verb, request_id(payload), False, NOT_SIMULATED)]


def test_a_verb_registered_twice_is_refused_at_import():
    """A second entry for a verb would silently replace the first in a dict literal."""
    light = COMMANDS["light"]
    with pytest.raises(ValueError, match="command 'light' registered twice"):
        verbs._catalog(light, light)
