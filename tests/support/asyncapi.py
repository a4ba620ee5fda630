"""docs/asyncapi.yaml, read once, and the payload schema it gives each topic: what a test holds a
published or received message to."""

from __future__ import annotations

import json
import re

import jsonschema
import yaml

from tests.support.paths import REPO

DOC_PATH = REPO / "docs" / "asyncapi.yaml"
DOC = yaml.safe_load(DOC_PATH.read_text(encoding="utf-8"))


def schema_for(topic: str, table: str = "t1") -> dict:
    """The payload schema of the channel whose address matches ``topic``."""
    for channel in DOC["channels"].values():
        pattern = re.escape(channel["address"]).replace(re.escape("{table}"), re.escape(table))
        if re.fullmatch(pattern, topic):
            [ref] = channel["messages"].values()
            message = DOC["components"]["messages"][ref["$ref"].rsplit("/", 1)[1]]
            return {**message["payload"], "components": DOC["components"]}
    raise AssertionError(f"no channel in docs/asyncapi.yaml for {topic}")


def validate(topic: str, payload: bytes) -> None:
    """Fails unless ``payload`` fits the document's schema for ``topic``."""
    jsonschema.validate(json.loads(payload), schema_for(topic),
                        cls=jsonschema.Draft202012Validator)
