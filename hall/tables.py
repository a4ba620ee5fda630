"""The hall as the organisers see it, from the hall broker's retained topics: pure data.

``observe(hall, table, topic, document, now)`` folds one message of a table (``status``,
``state``, ``health``, ``bridge``) into the hall; ``view(hall, now, limits)`` is every table's
row and the alerts that need a person, each as words (``kit.i18n``: the page renders them in
its reader's language) and as English ``text`` (the logs', the tests'). Times are seconds of a
monotonic clock given as data, so the board's rules are tested on a fake timeline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from contract.api import sound
from kit.i18n import Words

#: the topics of a table the board reads (the ``hall-board`` account may read just these)
TOPICS = ("status", "state", "health", "bridge")


@dataclass(frozen=True)
class Limits:
    """How long the board lets something wait before it calls a person."""

    count_waiting_s: float = 30.0  # a proposed vote count not yet confirmed by the judge


@dataclass(frozen=True)
class Table:
    """What the hall broker last said of one table, and since when a count has waited."""

    status: dict[str, Any] | None = None
    state: dict[str, Any] | None = None
    health: dict[str, Any] | None = None
    bridge: str | None = None  # "1" the table's bridge is up, "0" down (its last will)
    proposed_since: float | None = None  # when the running vote's count was first proposed
    proposed_key: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class Hall:
    tables: dict[str, Table] = field(default_factory=dict)


def observe(hall: Hall, table: str, topic: str, document: Any, now: float) -> Hall:
    """``hall`` after ``table`` published ``document`` (parsed JSON, or the bridge's "0"/"1"
    text) on ``topic``. An unknown topic leaves it as it was."""
    if topic not in TOPICS:
        return hall
    old = hall.tables.get(table, Table())
    new = replace(old, **{topic: document})
    if topic == "state":
        vote = (document or {}).get("vote") or {}
        key = (vote.get("id"), vote.get("candidate"), vote.get("attempt")) \
            if vote.get("stage") == "proposed" else None
        since = old.proposed_since if key is not None and key == old.proposed_key else \
            (now if key is not None else None)
        new = replace(new, proposed_key=key, proposed_since=since)
    return Hall({**hall.tables, table: new})


#: the tables the seating generator names, ``table-1`` .. ``table-T``: a person reads "стол 3"
TABLE_NUMBER = re.compile(r"^table-(\d+)$")


def table_words(table: str, title: bool = False) -> Words:
    """A table as a person says it: ``table-3`` is "стол 3" ("Стол 3" as a ``title``, first in
    a line); another id is named as given ("стол «final»")."""
    found = TABLE_NUMBER.match(table)
    if found is None:
        return Words("tournament.table_title.named" if title else "tournament.table.named",
                     name=table)
    return Words("tournament.table_title" if title else "tournament.table",
                 number=int(found[1]))


def online(table: Table) -> bool:
    """The controller says it is online and its bridge to the hall is not known to be down."""
    return (table.status or {}).get("state") == "online" and table.bridge != "0"


def row(name: str, table: Table, now: float) -> dict[str, Any]:
    """One table's line on the board."""
    state = table.state or {}
    health = table.health or {}
    vote = state.get("vote")
    timer = state.get("timer")
    consoles = health.get("consoles") or []
    outbox = health.get("outbox") or {}
    return {
        "table": name,
        "online": online(table),
        "bridge": {"1": "up", "0": "down"}.get(table.bridge or "", "unknown"),
        "game": state.get("game"),
        "phase": state.get("phase"),
        "day": state.get("day"),
        "floor": None if not timer else {"seat": timer.get("seat"), "kind": timer.get("kind"),
                                         "running": timer.get("running")},
        "vote": None if not vote else {
            "kind": vote.get("kind"), "candidate": vote.get("candidate"),
            "stage": vote.get("stage"), "confirmed": vote.get("confirmed", []),
            "waiting_s": None if table.proposed_since is None
            else round(now - table.proposed_since, 1)},
        "consoles": {"online": sum(1 for c in consoles if c.get("online")),
                     "total": len(consoles)},
        "speaker": sound(health),
        "journal": {"depth": outbox.get("depth"), "over_limit": outbox.get("over_limit")},
    }


def alerts(name: str, table: Table, now: float, limits: Limits) -> list[dict[str, Any]]:
    """What at ``name`` needs a person now, most urgent first."""
    found: list[dict[str, Any]] = []
    said = table_words(name, title=True)

    def alert(kind: str, words: Words) -> None:
        found.append({"table": name, "kind": kind, "text": str(words),
                      "words": words.to_json()})

    if not online(table):
        alert("table_offline", Words("board.alert.offline.bridge" if table.bridge == "0"
                                     else "board.alert.offline", table=said))
        return found  # what it said before it went is stale
    health = table.health or {}
    for console in health.get("consoles") or []:
        if not console.get("online"):
            alert("console_offline", Words("board.alert.console", table=said,
                                           port=str(console.get("port")),
                                           seats=[s for s in console.get("seats", [])
                                                  if isinstance(s, int)]))
    audio = health.get("audio") or {}
    if sound(health) == "fault":  # a simulated table with no sound card, or one off, is none
        alert("speaker_fault", Words("board.alert.speaker", table=said,
                                     problems="; ".join(audio.get("problems") or ["?"])))
    if (health.get("outbox") or {}).get("over_limit"):
        alert("journal_over_limit", Words("board.alert.journal", table=said))
    if table.proposed_since is not None and now - table.proposed_since > limits.count_waiting_s:
        alert("count_waiting", Words("board.alert.count", table=said,
                                     seconds=round(now - table.proposed_since)))
    return found


def view(hall: Hall, now: float, limits: Limits) -> dict[str, Any]:
    """The whole board: a row per table (by table name) and every alert."""
    names = sorted(hall.tables, key=natural)
    return {"tables": [row(n, hall.tables[n], now) for n in names],
            "alerts": [a for n in names for a in alerts(n, hall.tables[n], now, limits)]}


def natural(name: str) -> tuple[Any, ...]:
    """table-2 before table-10."""
    head, _, tail = name.rpartition("-")
    return (head, int(tail), "") if tail.isdigit() else (name, 0, name)
