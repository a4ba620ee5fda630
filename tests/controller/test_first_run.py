"""A first run that tells the truth: a clean simulated table, stored state shown and reset,
one controller per table id, and flag errors that name the flag."""

from __future__ import annotations

import io
import signal
import time

import pytest

from controller import config, stored_state
from controller.presence import live_controller
from controller.service import Service
from mafia_table import cli
from tests.support.mqtt import Subscriber, with_json
from tests.support.process import finish, kill_if_running, start_service, stop_cleanly
from tests.support.running import Running
from tests.support.table_configs import SMALL_TABLE, write_config


@pytest.fixture
def state_home(tmp_path, monkeypatch):
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


@pytest.fixture
def config_file(tmp_path, broker):
    return write_config(tmp_path, SMALL_TABLE.format(port=broker.port))


def _run_and_read_day(config_file, state_home, subscriber, *flags: str, set_day: int = 0) -> int:
    """Start ``run --sim``, read the day of its first retained ``state``, optionally start day
    ``set_day``, stop. Returns the day the table started with."""
    t0 = time.time()
    fresh = lambda match: lambda m: m.at >= t0 and match(m)  # noqa: E731
    process = start_service("--config", str(config_file), "--sim", *flags,
                            env={"XDG_STATE_HOME": str(state_home)})
    try:
        [online] = subscriber.wait_for(fresh(with_json("mafia/t1/status", state="online")))
        boot = online.json()["boot_id"]
        [state] = subscriber.wait_for(
            lambda m: m.topic == "mafia/t1/state" and m.at >= online.at)
        if set_day:
            subscriber.publish("mafia/t1/cmd/day/start", f'{{"id": "d", "day": {set_day}}}')
            subscriber.wait_for(fresh(with_json("mafia/t1/state", day=set_day)))
        stop_cleanly(process)
        subscriber.wait_for(fresh(with_json("mafia/t1/status", state="offline", boot_id=boot)))
        return state.json()["day"]
    finally:
        kill_if_running(process)


def test_sim_starts_clean_unless_told_to_resume(config_file, state_home, subscriber):
    assert _run_and_read_day(config_file, state_home, subscriber, set_day=10) == 0
    assert _run_and_read_day(config_file, state_home, subscriber, "--resume") == 10
    assert _run_and_read_day(config_file, state_home, subscriber) == 0


def test_each_checkout_has_its_own_simulated_journal(tmp_path, state_home):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    clone_a = write_config(tmp_path / "a", SMALL_TABLE.format(port=1883))
    clone_b = write_config(tmp_path / "b", SMALL_TABLE.format(port=1883))
    sim = config.Overrides(simulated=True)
    a, b = config.load(clone_a, sim), config.load(clone_b, sim)
    assert a.store_path() != b.store_path()
    assert a.store_path().is_relative_to(state_home / "mafia-table" / "sim")
    real = config.load(clone_a)  # the config's own store.path is never a simulation's
    assert real.store_path() == tmp_path / "a" / "t1.db"


def test_a_second_controller_on_the_table_refuses_to_start(config_file, state_home, subscriber):
    first = start_service("--config", str(config_file), env={"XDG_STATE_HOME": str(state_home)})
    try:
        [online] = subscriber.wait_for(with_json("mafia/t1/status", state="online"))
        second = start_service("--config", str(config_file), "--sim",
                               env={"XDG_STATE_HOME": str(state_home)})
        code, out = finish(second)
        assert code == 2, out
        assert (f"another controller (boot {online.json()['boot_id']}, version 0.1.0) is "
                "online on table t1") in out
        assert "boot" in out and "starting" not in out.split("another controller")[1]
        stop_cleanly(first)  # the first one was never disturbed
        assert [m.json()["boot_id"] for m in subscriber.messages
                if m.topic == "mafia/t1/status"] == [online.json()["boot_id"]] * 2
    finally:
        kill_if_running(first)


def test_a_killed_controllers_will_frees_the_table(config_file, state_home, subscriber, broker):
    first = start_service("--config", str(config_file), env={"XDG_STATE_HOME": str(state_home)})
    subscriber.wait_for(with_json("mafia/t1/status", state="online"))
    first.send_signal(signal.SIGKILL)
    finish(first)
    subscriber.wait_for(with_json("mafia/t1/status", state="offline"))
    cfg = config.load(config_file)
    assert live_controller(cfg.broker, "t1", will_wait=0) is None


def test_our_own_stale_online_status_does_not_block_a_restart(table_config, subscriber):
    """After a power cut the broker may still hold ``online`` from this journal's last run."""
    stale = Subscriber(table_config.broker.port, [])
    try:
        stale.client.publish("mafia/t1/status", '{"v": 1, "ts": 1, "state": "online", '
                             '"version": "0.1.0", "boot_id": "b0"}', qos=1, retain=True)
        subscriber.wait_for(with_json("mafia/t1/status", boot_id="b0"))
        found = live_controller(table_config.broker, "t1", will_wait=0)
        assert found is not None and found.boot_id == "b0"
        assert live_controller(table_config.broker, "t1", own_boot_id="b0", will_wait=0) is None
    finally:
        stale.close()


def test_an_unreachable_broker_does_not_stop_a_start(table_config):
    away = config.broker_from_flags("127.0.0.1:9")  # nothing listens on the discard port
    assert live_controller(away, "t1") is None


def test_state_show_and_reset_keep_the_events(tmp_path, table_config, monkeypatch, capsys):
    service = Service(table_config)
    service.store.append("event/x", lambda seq: b'{"seq": %d}' % seq)
    service.store.save("state", b'{"broken": true}')
    service.store.save("session", b'{"id": "v7"}')
    boot = service.boot_id
    service.shutdown()
    config_file = tmp_path / "table.toml"  # table_config's file

    assert cli.main(["state", "show", "--config", str(config_file)]) == 0
    shown = capsys.readouterr().out
    assert "last seq 1, 1 events wait for the broker" in shown
    assert f"boot {boot}" in shown and "vote      running: v7" in shown
    assert "saved     unreadable" in shown

    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert cli.main(["state", "reset", "--config", str(config_file)]) == 1
    assert "running: v7" in stored_state.describe(table_config)

    assert cli.main(["state", "reset", "--config", str(config_file), "--yes"]) == 0
    after = stored_state.describe(table_config)
    assert "saved     nothing" in after and "vote      none" in after
    assert "last seq 1, 1 events wait" in after  # the outbox is not the reset's to drop


@pytest.mark.parametrize("argv", [
    ["run", "--config", "FILE", "--table", ""],
    ["sim", "--config", "FILE", "--table", "a/b"],
    ["watch", "--table", ""],
    ["watch", "--config", "FILE", "--table", "x" * 33],
])
def test_a_bad_table_flag_is_named_in_plain_words(argv, tmp_path, capsys):
    file = write_config(tmp_path, SMALL_TABLE.format(port=1883))
    assert cli.main([str(file) if a == "FILE" else a for a in argv]) == 2
    err = capsys.readouterr().err
    assert "--table: a table id is 1 to 32 letters, digits, '-' or '_'" in err
    assert "regex" not in err and "config error in" not in err


def test_resume_needs_sim(config_file, capsys):
    assert cli.main(["run", "--config", str(config_file), "--resume"]) == 2
    assert "--resume goes with --sim" in capsys.readouterr().err


def test_under_the_shipped_acl_the_probe_never_throws_the_live_controller_off(hall):
    cfg = hall.table_config()
    run = Running(cfg)
    try:
        core = hall.client("rules-core", ["mafia/t1/status"])
        try:
            core.wait_for(with_json("mafia/t1/status", state="online"))
        finally:
            core.close()
        # as the table's own account the probe would take over the controller's session (the
        # broker names clients after their accounts): it does not connect, and the live
        # controller stays on the broker
        assert live_controller(cfg.broker, "t1", will_wait=0) is None
        assert run.service.mqtt.connected.is_set()
    finally:
        run.close()


def test_a_second_controller_on_the_same_journal_is_refused_at_once(config_file, state_home,
                                                                    subscriber, capsys):
    first = start_service("--config", str(config_file), env={"XDG_STATE_HOME": str(state_home)})
    try:
        [online] = subscriber.wait_for(with_json("mafia/t1/status", state="online"))
        # the same journal: its last boot id is the live one's, so only the lock can tell
        second = start_service("--config", str(config_file))
        code, out = finish(second)
        assert code == 2, out
        assert "another controller is running on the journal" in out and "t1.db" in out
        assert cli.main(["state", "reset", "--config", str(config_file), "--yes"]) == 1
        assert "a controller is running on" in capsys.readouterr().err
        stop_cleanly(first)
    finally:
        kill_if_running(first)
    assert online.json()["boot_id"] in stored_state.describe(config.load(config_file))
