"""The core's events (contract/events.py) are the API's: every one is documented, and
whatever the core may put in one is published, validated by the document and decoded back
unchanged."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contract import api, events
from controller.clock import SystemClock
from controller.core.effects import Emit
from controller.messages import MessageFactory
from tests.support.asyncapi import DOC, schema_for


def _kinds_in_the_module() -> set[type[events.Event]]:
    """Every event type in the core that names a topic (a ``KIND``)."""
    found, todo = set(), [events.Event]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__ == events.__name__ and hasattr(cls, "KIND"):
            found.add(cls)
    return found


def test_every_event_the_core_can_emit_is_in_its_kinds_once():
    assert _kinds_in_the_module() == set(events.KINDS.values())
    assert len(events.KINDS) == len(set(events.KINDS.values()))


def test_every_event_kind_is_documented_with_its_own_payload():
    for kind, event in events.KINDS.items():
        topics = ([] if event in events.SECRET else [f"mafia/t1/event/{kind}"]) + (
            [f"mafia/t1/private/{kind}"] if event in events.PRIVATE else [])
        assert topics, kind
        for topic in topics:
            name = schema_for(topic)["$ref"].rsplit("/", 1)[1]
            assert name == events.payload_type(event).__name__, topic
            assert name == api.EVENT_TYPES[kind].__name__


def test_every_documented_event_channel_is_a_kind_the_core_emits():
    documented = {channel["address"].removeprefix("mafia/{table}/")
                  for channel in DOC["channels"].values()}
    emitted = {topic.partition("/")[2] for topic in documented
               if topic.startswith(("event/", "private/"))}
    assert emitted == set(events.KINDS)


# -------------------------------------------------------------- any event the types allow

_, BODIES = msgspec.json.schema_components(events.PAYLOADS, ref_template="#/$defs/{name}")


def _values(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that fit a body's JSON schema (msgspec's, so only the shapes it writes)."""
    if "$ref" in schema:
        return st.deferred(lambda: _values(BODIES[schema["$ref"].rsplit("/", 1)[1]]))
    if "anyOf" in schema:
        return st.one_of([_values(option) for option in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return st.integers(schema.get("minimum", -2**31), schema.get("maximum", 2**31))
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "string":
        return st.text(max_size=12)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(_values(schema["items"]), max_size=4)
    assert kind == "object", schema
    required = set(schema.get("required", ()))
    return st.fixed_dictionaries(
        {k: _values(v) for k, v in schema["properties"].items() if k in required},
        optional={k: _values(v) for k, v in schema["properties"].items() if k not in required})


@st.composite
def emitted(draw: st.DrawFn) -> Emit:
    event = draw(st.sampled_from(list(events.KINDS.values())))
    body = draw(_values(BODIES[events.payload_type(event).__name__]))
    private = event in events.SECRET or (event in events.PRIVATE and draw(st.booleans()))
    return Emit(msgspec.convert(body, event), draw(st.floats(0, 10**6)), private=private)


FACTORY = MessageFactory(boot_id="b", store_id="s", gpio="mock", clock=SystemClock(),
                         host_boot="h")


@given(emit=emitted(), seq=st.integers(1, 2**53 - 1))
def test_any_event_is_published_as_documented_and_decodes_back_unchanged(emit, seq):
    payload = FACTORY.event(emit, seq)
    topic = f"mafia/t1/{'private' if emit.private else 'event'}/{emit.kind}"
    jsonschema.validate(json.loads(payload), schema_for(topic),
                        cls=jsonschema.Draft202012Validator)
    decoded = msgspec.json.decode(payload, type=api.EVENT_TYPES[emit.kind])
    assert isinstance(decoded, events.payload_type(type(emit.event)))
    body = {k: v for k, v in msgspec.to_builtins(decoded).items()
            if k not in api.Envelope.__struct_fields__}
    assert body == msgspec.to_builtins(emit.event)
    stamp = msgspec.json.decode(payload, type=api.Envelope)
    assert (stamp.v, stamp.id, stamp.seq, stamp.host_boot, stamp.mono_ms) == (
        api.SCHEMA_VERSION, f"s-{seq}", seq, "h", round(emit.t * 1000))


@given(data=st.data())
def test_a_night_steps_event_cannot_be_made_for_the_public_topic(data):
    """``events.SECRET`` events go on ``private/`` only: an ``Emit`` of one that forgot
    ``private=True`` is refused where it is made, never published on ``event/``."""
    event_type = data.draw(st.sampled_from(events.SECRET))
    event = msgspec.convert(data.draw(_values(BODIES[event_type.__name__])), event_type)
    with pytest.raises(ValueError, match=f"{event_type.KIND} is a secret event"):
        Emit(event, 1.0)
    assert Emit(event, 1.0, private=True).private
