"""Write the AsyncAPI 3 document of the MQTT API from the types in ``contract.api`` and the
contract's verbs (``contract.verbs``).

    mafia-table asyncapi > docs/asyncapi.yaml

The document is generated, never edited by hand: the payload schemas are msgspec's JSON Schema
of the very structs the controller encodes and decodes with, and a test fails when the file in
``docs/`` differs from what this module writes.
"""

from __future__ import annotations

from typing import Any

import msgspec
import yaml

from contract import api, events
from contract.topics import topic_prefix
from contract.verbs import COMMANDS
from controller import __version__

REF = "#/components/schemas/{name}"

#: (channel name, topic below mafia/{table}/, payload type, direction, retained, summary)
CHANNELS: list[tuple[str, str, type, str, bool, str]] = [
    ("status", "status", api.Status, "send", True,
     "online at every connect; offline on a clean stop and as the MQTT last will."),
    ("state", "state", api.State, "send", True,
     "The whole table; republished after every change and every reconnect."),
    ("health", "health", api.Health, "send", True,
     "Outbox depth and limit, GPIO backend; republished on change and on every connect."),
    *[(f"event-{kind.replace('/', '-')}", f"event/{kind}", kind_type, "send", False,
       f"Event {kind}: stamped with the edge time; seq and id for gaps and duplicates.")
      for kind, kind_type in api.EVENT_TYPES.items() if events.KINDS[kind] not in events.SECRET],
    *[(f"private-{kind.replace('/', '-')}", f"private/{kind}", api.EVENT_TYPES[kind], "send",
       False, f"Private event {kind} (the rules core only, by the ACL): the night's secrets.")
      for kind in api.PRIVATE_KINDS],
    *[(entry.topic.replace("/", "-"), entry.topic, entry.payload, "receive", False,
       entry.summary) for entry in COMMANDS.values()],
]
#: command channel name -> its verb: every command is answered on reply/<verb>
REPLIES = {entry.topic.replace("/", "-"): entry.verb for entry in COMMANDS.values()}

DESCRIPTION = """\
MQTT API of one sport-mafia table controller. Every topic lives under mafia/{table}/.
Payloads are JSON objects with `v` (schema major) and `ts` (UTC ISO-8601, ms).
The controller connects with MQTT 5 and publishes everything with QoS 1.

Delivery: every event is journaled on disk before it is published and kept until the broker
acknowledges it, so a broker outage or a controller crash loses none. `seq` counts events from 1
with no gaps, across restarts; `id` is `<store id>-<seq>`. Consumers drop duplicates by `id`, and
after every (re)connect, or on a gap in `seq`, send cmd/replay with the last seq they have. A
backlog (and a replay) is published paced, behind live events, at most [store] catch_up_rate
events a second: consumers order by `seq` and must keep up with that rate. If the journal cannot
take events (a full disk), health.journal says so at once.

Request/reply: every command carries an `id` and gets exactly one reply on reply/<verb> with the
same `id`, or on the request's MQTT 5 response topic with its correlation data echoed. A refused
command (ok: false) changes nothing.
"""


def document() -> dict[str, Any]:
    """The AsyncAPI 3.0 document as plain data."""
    types = sorted({c[2] for c in CHANNELS} | {api.Reply}, key=lambda t: t.__name__)
    _, schemas = msgspec.json.schema_components(types, ref_template=REF)
    table = {"table": {"description": "The table id from the controller's config."}}
    channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    messages: dict[str, Any] = {}
    prefix = topic_prefix("{table}")  # the AsyncAPI channel parameter in place of the table

    def channel(name: str, topic: str, payload: type, summary: str) -> None:
        messages[payload.__name__] = {
            "name": payload.__name__,
            "contentType": "application/json",
            "payload": {"$ref": REF.format(name=payload.__name__)},
        }
        channels[name] = {
            "address": prefix + topic,
            "description": summary,
            "parameters": table,
            "messages": {payload.__name__: {"$ref": f"#/components/messages/{payload.__name__}"}},
        }

    for name, topic, payload, action, retained, summary in CHANNELS:
        channel(name, topic, payload, summary)
        operation: dict[str, Any] = {
            "action": action,
            "channel": {"$ref": f"#/channels/{name}"},
            "bindings": {"mqtt": {"qos": 1, "retain": retained, "bindingVersion": "0.2.0"}},
        }
        if name in REPLIES:
            verb = REPLIES[name]
            reply_name = f"reply-{verb.replace('/', '-')}"
            channel(reply_name, f"reply/{verb}", api.Reply,
                    f"Replies to {topic}, unless the request named an MQTT 5 response topic.")
            operation["reply"] = {
                "channel": {"$ref": f"#/channels/{reply_name}"},
                "address": {
                    "location": "$message.header#/responseTopic",
                    "description": "The request's MQTT 5 response topic when it has one, "
                                   f"else {prefix}reply/{verb}.",
                },
            }
            operation["messages"] = [{"$ref": f"#/channels/{name}/messages/{payload.__name__}"}]
        operations[f"{action}-{name}"] = operation

    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Mafia table controller", "version": __version__,
                 "description": DESCRIPTION},
        "defaultContentType": "application/json",
        "servers": {
            "broker": {
                "host": "localhost:1883",
                "protocol": "mqtt",
                "protocolVersion": "5",
                "description": "The club's mosquitto (config/mosquitto/); TLS on 8883.",
                "bindings": {"mqtt": {
                    "clientId": "mafia-table-{table}",
                    "cleanSession": True,
                    "keepAlive": 15,
                    "lastWill": {"topic": prefix + "status", "qos": 1, "retain": True,
                                 "message": "Status with state offline"},
                    "bindingVersion": "0.2.0",
                }},
            },
        },
        "channels": channels,
        "operations": operations,
        "components": {"messages": messages, "schemas": schemas},
    }


class _Dumper(yaml.SafeDumper):
    """Plain YAML for people: multi-line text as ``|`` blocks, no anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def render() -> str:
    # the header still names the types' first home: docs/asyncapi.yaml stays byte for byte
    header = ("# Generated by `mafia-table asyncapi` from controller/api.py: do not edit by "
              "hand.\n")
    return header + yaml.dump(document(), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                              width=100)
