"""A command runs once by its id, and a simulated hand makes every edge of a burst
(docs/mqtt-api.md, "Commands and replies"; issue 26)."""

from __future__ import annotations

import itertools
import json
import threading
import time
from datetime import UTC, datetime

from contract.buttons import JudgeButton, SeatButton
from contract.inputs import CommandReceived
from controller.clock import ClockSync, SystemClock
from controller.core.effects import PublishState, Reply
from controller.core.state import TableSetup, initial_state
from controller.loop import EventLoop
from controller.shell import intake
from controller.shell.repeats import RecentCommands
from tests.support.mqtt import Subscriber, on_topic, with_json
from tests.support.running import Running, online
from tests.support.waiting import until

SETUP = TableSetup("t", 10, frozenset({SeatButton(1), JudgeButton("confirm")}), debounce=0.02)


def command(verb: str, doc: dict) -> CommandReceived:
    return CommandReceived(verb, json.dumps(doc).encode(), 1.0)


def run(*commands: CommandReceived) -> tuple[list[object], RecentCommands]:
    seen: list[object] = []
    recent = RecentCommands()
    loop = EventLoop(initial_state(SETUP), clock=SystemClock(), perform=seen.append,
                     repeats=recent)
    for cmd in commands:
        assert loop.submit(cmd)
    loop.stop()
    loop.run()
    return seen, recent


def duration_ms(seen: list[object]) -> int:
    [*_, last] = [e for e in seen if isinstance(e, PublishState)]
    return last.snapshot["timer"]["duration_ms"]


START = command("timer/start", {"id": "s", "seat": 1, "seconds": 60})
ADD = command("timer/add", {"id": "a", "seconds": 10})


def test_a_command_sent_again_with_its_id_is_answered_again_not_run_twice():
    """A sender that got no reply sends again, the same bytes: +10 s once, two replies ok."""
    seen, recent = run(START, ADD, ADD)
    assert [(e.id, e.ok) for e in seen if isinstance(e, Reply)] == [
        ("s", True), ("a", True), ("a", True)]
    assert duration_ms(seen) == 70_000
    assert recent.repeats == 1


def test_a_refused_command_is_judged_afresh_and_a_new_payload_under_an_old_id_runs():
    """A refusal changed nothing, so its copy may run once the table allows it; an id used
    again for another command is that other command (a sender that reuses ids)."""
    seen, recent = run(ADD, START, ADD, command("timer/add", {"id": "a", "seconds": 5}))
    assert [(e.id, e.ok) for e in seen if isinstance(e, Reply)] == [
        ("a", False), ("s", True), ("a", True), ("a", True)]
    assert duration_ms(seen) == 75_000
    assert recent.repeats == 0


def test_the_record_of_commands_is_bounded_to_the_newest():
    recent = RecentCommands(limit=2)
    cmds = [command("timer/add", {"id": f"a{n}", "seconds": 1}) for n in range(3)]
    for cmd in cmds:
        recent.taken(cmd, Reply("timer/add", request_id_of(cmd), True))
    assert recent.repeat(cmds[0]) is None  # forgotten: the oldest
    assert [recent.repeat(cmd).id for cmd in cmds[1:]] == ["a1", "a2"]


def request_id_of(cmd: CommandReceived) -> str:
    return json.loads(cmd.payload)["id"]


def test_a_copy_over_mqtt_gets_the_first_reply_on_its_own_response_topic(table_config,
                                                                         subscriber):
    run_ = Running(table_config)
    try:
        online(subscriber)
        subscriber.publish("mafia/t1/cmd/timer/start", START.payload)
        for n in range(2):
            subscriber.publish("mafia/t1/cmd/timer/add", ADD.payload,
                               response_topic=f"mafia/t1/reply/mine-{n}", correlation=b"%d" % n)
        for n in range(2):
            [reply] = subscriber.wait_for(on_topic(f"mafia/t1/reply/mine-{n}"))
            assert reply.json()["id"] == "a" and reply.json()["ok"]
            assert reply.correlation == b"%d" % n
        assert run_.service.loop.state.timer.duration == 70.0
        assert run_.service.recent_commands.repeats == 1  # in the next health.commands
    finally:
        run_.close()


def test_a_burst_of_simulated_presses_of_one_button_makes_every_edge(table_config, subscriber):
    """``sim/press`` and ``sim/release`` of one seat queued while the loop is busy (as commands
    held at the broker during an outage arrive: within microseconds) are each a press or a
    release, not one debounced contact: the hand spaces a button's drives by the lockout."""
    run_ = Running(table_config)
    hold = threading.Event()
    sender = Subscriber(table_config.broker.port, [])
    try:
        online(subscriber)
        held = threading.Event()
        run_.service.loop.call_soon(lambda: (held.set(), hold.wait()))
        assert held.wait(10)
        for n in range(10):
            for verb in ("press", "release"):
                sender.publish(f"mafia/t1/sim/{verb}", json.dumps({"id": f"{verb}-{n}",
                                                                   "seat": 1}))
        until(lambda: run_.service.loop.commands_waiting == 20, what="the burst queued")
        hold.set()
        releases = subscriber.wait_for(on_topic("mafia/t1/event/seat/release"), count=10)
        presses = subscriber.matching(on_topic("mafia/t1/event/seat/press"))
        assert len(presses) == 10 and len(releases) == 10
        edges = sorted(m.json()["mono_ms"] for m in presses + releases)
        assert min(b - a for a, b in itertools.pairwise(edges)) >= 20  # the debounce lockout
        subscriber.wait_for(with_json("mafia/t1/reply/sim/release", id="release-9", ok=True))
    finally:
        hold.set()
        sender.close()
        run_.close()


class WallClock:
    """The intake's wall clock, moved by the test (``ts`` ages by it alone)."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now


def test_a_copy_that_grew_stale_gets_its_first_reply_not_a_refusal(table_config, subscriber,
                                                                   monkeypatch):
    """A sender resending through a long outage: the first copy ran, so the one that comes
    41 s after its ``ts`` says so, while a new command that old is refused."""
    wall = WallClock()
    monkeypatch.setattr(intake, "time", wall)
    run_ = Running(table_config, clock_sync=lambda: ClockSync(True, 1.0, "test"))
    try:
        online(subscriber)
        sent = datetime.fromtimestamp(wall.now, UTC).isoformat()
        light = {"ts": sent, "lights": [{"seat": 1, "mode": "on"}]}
        subscriber.publish("mafia/t1/cmd/light", json.dumps({"id": "x", **light}))
        subscriber.wait_for(with_json("mafia/t1/reply/light", id="x", ok=True))
        wall.now += 41
        for id in ("x", "y"):
            subscriber.publish("mafia/t1/cmd/light", json.dumps({"id": id, **light}))
        [copy] = subscriber.wait_for(with_json("mafia/t1/reply/light", id="x"), count=2)[1:]
        [new] = subscriber.wait_for(with_json("mafia/t1/reply/light", id="y"))
        assert copy.json()["ok"]
        assert not new.json()["ok"] and new.json()["error"].startswith("ts: stale, sent 41")
    finally:
        run_.close()
