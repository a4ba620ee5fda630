"""docs/asyncapi.yaml is the code's own description, and what the controller publishes fits it."""

from __future__ import annotations

import json
import re
import typing

import jsonschema
import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contract import api
from contract.events import KINDS
from contract.verbs import COMMANDS
from controller.asyncapi import render
from tests.support.asyncapi import DOC_PATH, schema_for, validate
from tests.support.mqtt import on_topic, with_json
from tests.support.running import Running, online


def test_the_committed_document_is_what_the_code_generates():
    assert DOC_PATH.read_text(encoding="utf-8") == render(), (
        "docs/asyncapi.yaml is stale: run `mafia-table asyncapi > docs/asyncapi.yaml`")


def test_every_message_the_controller_publishes_fits_the_document(table_config, subscriber):
    run = Running(table_config)
    try:
        online(subscriber)
        subscriber.wait_for(on_topic("mafia/t1/health"))
        run.pin(4).drive_low()
        run.pin(4).drive_high()
        subscriber.publish("mafia/t1/sim/press", '{"judge": "next", "id": "s1"}')
        subscriber.publish("mafia/t1/sim/release", '{"judge": "next"}')
        subscriber.wait_for(on_topic("mafia/t1/event/judge/release"))
        subscriber.publish("mafia/t1/cmd/light", json.dumps(
            {"id": "a", "lights": [{"seat": 2, "mode": "blink", "color": "#12ab34"}]}))
        subscriber.publish("mafia/t1/cmd/light", '{"id": "b", "lights": [{"seat": 99}]}')
        subscriber.publish("mafia/t1/cmd/replay", '{"id": "r", "after_seq": 0}')
        subscriber.publish("mafia/t1/cmd/replay", '{"id": "r2", "after_seq": -1}')
        subscriber.wait_for(with_json("mafia/t1/reply/replay", id="r2"))
        subscriber.wait_for(on_topic("mafia/t1/event/judge/release"), count=2)  # and replayed
    finally:
        run.close()
    subscriber.wait_for(with_json("mafia/t1/status", state="offline"))
    ours = [m for m in subscriber.messages
            if not m.topic.startswith(("mafia/t1/cmd/", "mafia/t1/sim/"))]
    for message in ours:
        validate(message.topic, message.payload)
    assert {m.topic for m in ours} == {
        "mafia/t1/status", "mafia/t1/state", "mafia/t1/health",
        "mafia/t1/event/seat/press", "mafia/t1/event/seat/release",
        "mafia/t1/event/judge/press", "mafia/t1/event/judge/release",
        "mafia/t1/reply/sim/press", "mafia/t1/reply/sim/release",
        "mafia/t1/reply/light", "mafia/t1/reply/replay",
    }


def test_the_last_will_fits_the_status_schema(table_config):
    run = Running(table_config)
    try:
        validate("mafia/t1/status", run.service.messages.status(online=False))
    finally:
        run.close()


# Command documents as a rules core might send them: right, nearly right and wrong shapes, built
# from the field names of every registered command (and of the structs inside them).
FIELD_NAMES = sorted({f.name for entry in COMMANDS.values()
                      for f in msgspec.structs.fields(entry.payload)}
                     | {"mode", "color", "in_game", "fouls", "silenced", "immune", "oops"})
values = st.one_of(st.none(), st.booleans(), st.integers(-3, 30),
                   st.floats(-2, 700, allow_nan=False),
                   st.sampled_from(["on", "dim", "x", "", "#00ff00", "#00FF0", "c1", "night",
                                    "speech", "2026-11-29T21:15:04.123Z", "12#", "confirm"]))
documents = st.recursive(values, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(FIELD_NAMES), inner, max_size=4), max_leaves=10)
commands = st.dictionaries(st.sampled_from(FIELD_NAMES), documents, max_size=5)


@pytest.mark.parametrize("verb", list(COMMANDS))
@given(doc=commands)
def test_the_document_and_the_decoder_agree_on_every_command_shape(verb, doc):
    entry = COMMANDS[verb]
    payload = json.dumps(doc).encode()
    try:
        msgspec.json.decode(payload, type=entry.payload)
        decodes = True
    except msgspec.ValidationError:
        decodes = False
    schema_ok = jsonschema.Draft202012Validator(
        schema_for(f"mafia/t1/{entry.topic}")).is_valid(doc)
    assert decodes == schema_ok, doc


MQTT_API = DOC_PATH.with_name("mqtt-api.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("kind", "field"), [(api.VoteAnomaly, "kind"),
                                             (api.NightPickList, "miss")],
                         ids=["anomaly kinds", "night misses"])
def test_the_prose_document_names_every_value_the_code_can_send(kind, field):
    """docs/mqtt-api.md and the AsyncAPI document (generated from the same types) list the same
    anomaly kinds and miss reasons."""
    literal = typing.get_type_hints(kind, include_extras=True)[field]
    names = set(re.findall(r"'([a-z_]+)'", str(literal)))
    assert names and {name for name in names if f"`{name}`" not in MQTT_API} == set()


def test_the_prose_document_names_every_command_and_no_other():
    """docs/mqtt-api.md names each registered command by its whole topic (`cmd/vote/cancel`,
    not "`cmd/vote/confirm`, `cancel`"), and every command topic it names is registered: the
    prose cannot keep a verb the table no longer serves, nor miss a new one."""
    named = set(re.findall(r"`((?:cmd|sim)/[a-z_]+(?:/[a-z_]+)*)`", MQTT_API))
    registered = {entry.topic for entry in COMMANDS.values()}
    assert sorted(registered - named) == [], "registered, but not named in docs/mqtt-api.md"
    assert sorted(named - registered) == [], "named in docs/mqtt-api.md, but not registered"


def test_the_prose_document_names_every_event_kind_and_no_other():
    """Likewise for the events: each kind of `contract.events.KINDS` is named in full
    (`event/vote/result` or `private/night/pick`), and no other."""
    named = set(re.findall(r"`(?:event|private)/([a-z_]+(?:/[a-z_]+)*)`", MQTT_API))
    assert sorted(set(KINDS) - named) == [], "emitted, but not named in docs/mqtt-api.md"
    assert sorted(named - set(KINDS)) == [], "named in docs/mqtt-api.md, but never emitted"
