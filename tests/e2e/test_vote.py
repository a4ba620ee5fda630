"""A day's vote through the MQTT API alone, on a real broker with gpiozero mock seats."""

from __future__ import annotations

import json
import signal

from controller import config as config_module
from tests.support.asyncapi import validate
from tests.support.mqtt import Consumer, Subscriber, with_json
from tests.support.process import finish, kill_if_running, start_service, stop_cleanly
from tests.support.running import Running, online
from tests.support.table_configs import SMALL_TABLE, write_config
from tests.support.waiting import until

QUICK_VOTE = "\n    [vote]\n    window = 0.8\n    gap = 0.3\n"


def vote_config(tmp_path, port: int, extra: str = QUICK_VOTE) -> str:
    return SMALL_TABLE.format(port=port) + extra


def event(kind: str, **fields):
    return with_json(f"mafia/t1/event/vote/{kind}", **fields)


def tap(core: Subscriber, **button) -> None:
    """A hand on a simulated button: press, then release (through the real mock-pin path)."""
    core.publish("mafia/t1/sim/press", json.dumps(button))
    core.publish("mafia/t1/sim/release", json.dumps(button))


def test_a_whole_days_vote_with_a_reject_and_a_correction(tmp_path, broker, subscriber):
    cfg = config_module.load(write_config(tmp_path, vote_config(tmp_path, broker.port)))
    run = Running(cfg)
    core = subscriber
    try:
        online(core)
        core.publish("mafia/t1/cmd/vote/start", json.dumps(
            {"id": "day2", "nominees": [2, 3], "voters": [1, 2, 3, 4, 5, 6], "day": 2}))
        core.wait_for(with_json("mafia/t1/reply/vote/start", id="day2", ok=True))

        core.wait_for(event("window", candidate=2, state="opened"))
        tap(core, seat=1)
        [proposed] = core.wait_for(event("proposed", candidate=2))
        assert proposed.json()["voters"] == [1]
        # seat 1 voted: its light comes on for the judge (performed right after the event)
        until(lambda: run.pin(18).state == 1, what="seat 1's light")

        tap(core, judge="reject")  # the judge saw two fists
        core.wait_for(event("rejected", candidate=2, by="button"))
        core.wait_for(event("window", candidate=2, state="opened", attempt=2))
        tap(core, seat=1)
        tap(core, seat=3)
        [again] = core.wait_for(event("proposed", candidate=2, attempt=2))
        assert again.json()["voters"] == [1, 3]
        tap(core, judge="confirm")
        core.wait_for(event("confirmed", candidate=2, by="button", count=2))

        core.wait_for(event("window", candidate=3, state="opened"))
        [last] = core.wait_for(event("proposed", candidate=3))
        assert (last.json()["voters"], last.json()["leftover"]) == ([], [2, 4, 5, 6])
        core.publish("mafia/t1/cmd/vote/correct", json.dumps(
            {"id": "fix", "voters": [2], "reason": "seat 2 voted; its button is loose"}))
        [fixed] = core.wait_for(event("confirmed", candidate=3, by="correction"))
        assert (fixed.json()["voters"], fixed.json()["leftover"]) == ([2], [4, 5, 6])
        [result] = core.wait_for(event("result", session="day2"))
        assert result.json()["outcome"] == "eliminated" and result.json()["eliminated"] == 3
        assert result.json()["counts"] == [{"candidate": 2, "count": 2},
                                           {"candidate": 3, "count": 4}]
        state = core.wait_for(lambda m: m.topic == "mafia/t1/state"
                              and m.json()["phase"] == "idle" and m.json()["vote"] is None)
        assert state
    finally:
        run.close()
    for message in core.messages:
        if message.topic.startswith("mafia/t1/event/") or message.topic == "mafia/t1/state":
            validate(message.topic, message.payload)


def test_a_controller_killed_mid_vote_resumes_with_the_presses_it_had(tmp_path, broker):
    long_window = "\n    [vote]\n    window = 10\n    gap = 0.2\n"
    config_file = write_config(tmp_path, vote_config(tmp_path, broker.port, long_window))
    core = Consumer(broker.port, "t1")
    replies = Subscriber(broker.port, ["mafia/t1/reply/#"])
    process = start_service("--config", str(config_file))
    try:
        online(core)
        core.publish("mafia/t1/cmd/vote/start", json.dumps(
            {"id": "d3", "nominees": [3, 1], "voters": [1, 2, 3, 4, 5, 6], "day": 3}))
        core.wait_for(event("window", candidate=3, state="opened"))
        tap(core, seat=2)
        core.wait_for(lambda m: m.topic == "mafia/t1/event/seat/release")
        process.send_signal(signal.SIGKILL)  # in the middle of the open window
        finish(process)

        process = start_service("--config", str(config_file))
        core.wait_for(event("resumed", session="d3", stage="open"))
        # (replayed copies may come too: the consumer asks for a replay when it sees online)
        proposed = core.wait_for(event("proposed", candidate=3))[-1]
        assert proposed.json()["voters"] == [2]
        assert {"seat": 1, "kind": "restarted"} in proposed.json()["anomalies"]
        core.publish("mafia/t1/cmd/vote/confirm", '{"id": "ok3"}')
        replies.wait_for(with_json("mafia/t1/reply/vote/confirm", id="ok3", ok=True))
        confirmed = core.wait_for(event("confirmed", candidate=3))[-1]
        assert confirmed.json()["voters"] == [2]
        last = max(core.events)
        core.wait_for_seq(last)  # no event lost across the kill: 1..last all arrived
        assert sorted(core.events) == list(range(1, last + 1))
        stop_cleanly(process)
    finally:
        kill_if_running(process)
        core.close()
        replies.close()
