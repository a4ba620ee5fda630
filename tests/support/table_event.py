"""Table events for the judge's tests, written with only the fields a test is about.

``table_event(topic, fields)`` fills in every other field a real payload has (as the simulated
table would send it: the first attempt, no anomalies, no reason...) and decodes the result
through ``judge.panel.table_events.from_data``, so a test's event is checked against the very type
the panel decodes the table's payloads into.
"""

from __future__ import annotations

from typing import Any

from judge.game import TableEvent
from judge.panel.table_events import from_data

_DEFAULTS: dict[str, dict[str, Any]] = {
    "nomination": {"reason": None, "day": 1, "nominees": []},
    "vote/proposed": {"session": "s", "attempt": 1, "voters": [], "leftover": [],
                      "anomalies": []},
    "vote/confirmed": {"session": "s", "attempt": 1, "voters": [], "leftover": [],
                       "by": "command", "reason": None},
    "vote/rejected": {"session": "s", "attempt": 1, "by": "command"},
    "vote/result": {"session": "s", "kind": "nominees"},
    "timer": {"timer": "t", "seat": None, "kind": "speech", "remaining_ms": 0,
              "duration_ms": 0},
    "night/result": {"night_step": "n", "missing": [], "agreed": None},
}


def table_event(topic: str, fields: dict[str, Any] | None = None, /,
                **more: Any) -> TableEvent:
    """The event on ``topic`` with ``fields`` (and ``more``), the rest filled in."""
    kind = topic.split("/", 1)[1] if topic.startswith(("event/", "private/")) else topic
    data = {**_DEFAULTS.get(kind, {}), **(fields or {}), **more}
    if kind == "night/result":
        data["picks"] = [{"miss": None, **p} for p in data.get("picks", [])]
    if kind == "seats":
        data["seats"] = [{"in_game": True, "fouls": 0, "silenced": False, "immune": False, **s}
                         for s in data["seats"]]
    given = from_data(topic, data)
    assert given is not None, f"{topic} carries no event"
    return given
