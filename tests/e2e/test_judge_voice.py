"""One language choice for the panel and the table's voice: ``mafia-table judge`` (its own
process) tells the simulated table, over a real mosquitto, to speak the panel's ``[panel]
language`` (``cmd/audio`` ``voice``) whenever the table comes up, so a restarted table, which
starts in its own ``[music] voice``, is told again (docs/i18n.md, "The table's voice")."""

from __future__ import annotations

import pytest

from kit.local_broker import free_port
from tests.support.judge_panel import TABLE, Judge, judge_config, table_config
from tests.support.mqtt import Received, Subscriber, with_json
from tests.support.running import Running


def voices(messages: list[Received]) -> list[str]:
    """The table's voice in each ``state`` it published, in order."""
    return [m.json()["voice"] for m in messages if m.topic == TABLE + "state"]


@pytest.mark.timeout(60)
def test_the_table_speaks_the_panels_language_at_every_start(tmp_path, broker):
    watch = Subscriber(broker.port, [TABLE + "#"])
    config = table_config(tmp_path, broker.port)  # [music] voice: ru (the example's)
    table = Running(config)
    judge = Judge(judge_config(tmp_path, broker.port, f"127.0.0.1:{free_port()}",
                               language="en"))
    try:
        [told] = watch.wait_for(lambda m: m.topic == TABLE + "cmd/audio")
        assert told.json()["voice"] == "en"
        watch.wait_for(with_json(TABLE + "reply/audio", id=told.json()["id"], ok=True))
        watch.wait_until(lambda seen: voices(seen)[-1:] == ["en"], what="the table in English")

        table.close()  # a table restarted starts in its own voice, and is told again
        watch.wait_for(with_json(TABLE + "status", state="offline"))
        restarted_at = len(watch.messages)
        table = Running(config)
        watch.wait_until(lambda seen: voices(seen[restarted_at:])[:1] == ["ru"]
                         and voices(seen[restarted_at:])[-1:] == ["en"],
                         what="the restarted table in Russian, then in English")
        assert len(watch.matching(lambda m: m.topic == TABLE + "cmd/audio")) >= 2
    finally:
        judge.stop()
        table.close()
        watch.close()
