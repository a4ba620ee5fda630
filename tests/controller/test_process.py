"""The service as a real process: ``mafia-table run``, signals, the last will, a private broker."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from kit.local_broker import free_port, is_listening
from tests.support.mqtt import Subscriber, with_json
from tests.support.paths import EXAMPLE_CONFIG, REPO
from tests.support.process import finish, start_service
from tests.support.table_configs import SMALL_TABLE, write_config


@pytest.fixture
def config_file(tmp_path, broker):
    return write_config(tmp_path, SMALL_TABLE.format(port=broker.port))


def test_sigkill_leaves_the_last_will_saying_offline(config_file, subscriber):
    process = start_service("--config", str(config_file))
    try:
        [online] = subscriber.wait_for(with_json("mafia/t1/status", state="online"))
        process.kill()
        [offline] = subscriber.wait_for(with_json("mafia/t1/status", state="offline"))
        assert offline.json()["boot_id"] == online.json()["boot_id"]
    finally:
        finish(process)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_publishes_offline_and_exits_0(config_file, broker, subscriber, signum):
    process = start_service("--config", str(config_file), "--table", "t1")
    subscriber.wait_for(with_json("mafia/t1/status", state="online"))
    process.send_signal(signum)
    code, out = finish(process)
    assert code == 0, out
    subscriber.wait_for(with_json("mafia/t1/status", state="offline"))
    assert "INFO controller.service: table t1 stopped" in out
    late = Subscriber(broker.port, ["mafia/t1/status"])  # offline is retained for newcomers
    try:
        [status] = late.wait_for(lambda m: m.topic == "mafia/t1/status")
        assert status.retain and status.json()["state"] == "offline"
    finally:
        late.close()


def test_under_systemd_log_lines_carry_journald_priorities(config_file, subscriber):
    process = start_service("--config", str(config_file), env={"JOURNAL_STREAM": "8:1234"})
    subscriber.wait_for(with_json("mafia/t1/status", state="online"))
    subscriber.publish("mafia/t1/cmd/light", "{}")
    subscriber.wait_for(lambda m: m.topic == "mafia/t1/reply/light")
    process.terminate()
    code, out = finish(process)
    assert code == 0, out
    assert "<6>controller.service: table t1 stopped" in out.splitlines()
    assert any(line.startswith("<4>controller.shell.intake: command light (id None) refused")
               for line in out.splitlines())


def test_run_sim_starts_a_private_broker_when_none_listens(tmp_path):
    port = free_port()
    process = start_service("--config", str(EXAMPLE_CONFIG), "--sim",
                            "--broker", f"127.0.0.1:{port}", "--table", "demo",
                            env={"XDG_STATE_HOME": str(tmp_path)})
    sub = None
    try:
        sub = _subscriber_when_listening(port, process)
        sub.wait_for(with_json("mafia/demo/status", state="online"))
        sub.publish("mafia/demo/sim/press", '{"seat": 3}')
        [event] = sub.wait_for(lambda m: m.topic == "mafia/demo/event/seat/press")
        assert event.json()["seat"] == 3
    finally:
        if sub is not None:
            sub.close()
        process.send_signal(signal.SIGTERM)
        code, out = finish(process)
    assert code == 0, out
    assert "started a private mosquitto" in out
    assert not is_listening("127.0.0.1", port)  # the private broker went with the service
    # a simulation's own journal, never the config's
    assert [p.name.split("-")[0] for p in (tmp_path / "mafia-table" / "sim").glob("*.db")] == [
        "demo", "demo"]  # public and private


def _subscriber_when_listening(port: int, process: subprocess.Popen[str]) -> Subscriber:
    """The CLI starts the broker before anything else; connect once it listens."""
    for _ in range(200):
        if is_listening("127.0.0.1", port):
            return Subscriber(port, ["mafia/#"])
        if process.poll() is not None:
            raise AssertionError(f"service exited: {process.communicate()[0]}")
        time.sleep(0.05)
    raise AssertionError("the private broker never listened")



#: a process that starts ``Service(config, freeze_startup=...)`` and says what the collector
#: still looks at once it is up
FREEZE_PROBE = """
import gc, json, sys
from controller import config
from controller.service import Service
service = Service(config.load(sys.argv[1]), freeze_startup=sys.argv[2] == "yes")
try:
    service.start()
    tracked = {id(o) for o in gc.get_objects()}
    after = [object()]  # made once the table is up
    print(json.dumps({"frozen": gc.get_freeze_count(), "loop": id(service.loop) in tracked,
                      "after": gc.is_tracked(after)}))
finally:
    service.shutdown()
"""


@pytest.mark.parametrize("freeze", [True, False])
def test_start_up_is_frozen_out_of_collections_only_where_asked(config_file, freeze):
    """``mafia-table run`` freezes what start-up made (``Service(freeze_startup=True)``): a
    full collection no longer stops the table for ~10 ms to look at the modules, the config,
    paho (docs/performance.md); what the running table makes is still collected. A service
    built without it (the tests') leaves the collector as it was."""
    done = subprocess.run([sys.executable, "-c", FREEZE_PROBE, str(config_file),
                           "yes" if freeze else "no"], cwd=REPO, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["after"] is True
    if freeze:
        assert seen["frozen"] > 10_000 and seen["loop"] is False
    else:
        assert seen["frozen"] == 0 and seen["loop"] is True

