"""A table's journal as a rules core's audit reads it off the wire: every event a ``Subscriber``
recorded on table-1, one per id, in ``seq`` order, checked for gaps and for an id that came
twice, differently."""

from __future__ import annotations

from tests.support.mqtt import Subscriber


def events(record: Subscriber, kind: str) -> list[dict]:
    """Events of one journal (``event`` or ``private``), one per id, in ``seq`` order."""
    by_id: dict[str, tuple[str, dict]] = {}
    for m in record.matching(lambda m: m.topic.startswith(f"mafia/table-1/{kind}/")):
        body = m.json()
        if "seq" not in body:
            continue  # replies under private/reply/
        earlier = by_id.setdefault(body["id"], (m.topic, body))
        assert earlier == (m.topic, body), f"id {body['id']} came twice, differently"
    ordered = sorted(({"topic": t.split(f"/{kind}/", 1)[1], **b} for t, b in by_id.values()),
                     key=lambda e: e["seq"])
    seqs = [e["seq"] for e in ordered]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"{kind} seq has gaps"
    return ordered

