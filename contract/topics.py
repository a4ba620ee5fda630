"""Where a table's MQTT topics live: all of them under ``mafia/<table>/``.

The one place that spells the prefix, for the controller and for every client of it (the
judge's panel, the hall board and its simulator, ``watch``, ``selftest``, the examples and the
benches): ``topic_prefix("table-1") + "event/seat/press"``. ``topic_prefix("+")`` is the MQTT
wildcard for every table (the hall board reads all tables of the hall broker).
The topics below the prefix are documented in docs/mqtt-api.md and docs/asyncapi.yaml.
"""

from __future__ import annotations

#: the first level of every topic the project publishes
ROOT = "mafia"


def topic_prefix(table: str) -> str:
    """``mafia/<table>/``, with the slash: a topic is the prefix and its own part."""
    return f"{ROOT}/{table}/"
