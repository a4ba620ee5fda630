"""The tests' and the simulators' private mosquitto (kit/local_broker.py)."""

from __future__ import annotations

import socket

import pytest

from kit.local_broker import PORTS_VARIABLE, LocalBroker, ephemeral_ports, free_port, port_choices
from tests.support.mqtt import Subscriber


def test_a_free_port_is_never_one_an_outgoing_connection_could_take():
    """A broker stopped for an outage must find its port free when it starts again; a client
    connecting meanwhile takes its local port from the kernel's ephemeral range, so the ports
    handed out lie outside it (hall.sim's hall broker once failed "Address already in use")."""
    ephemeral = ephemeral_ports()
    ports = {free_port() for _ in range(200)}
    assert not ports & set(ephemeral)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        assert sock.getsockname()[1] in ephemeral  # what a client gets, for comparison


def test_a_killed_broker_comes_back_with_its_last_save(tmp_path):
    """``kill`` is a crash (SIGKILL): what the broker took after its last save is gone, what
    it had saved (``saved_since`` tells a completed save) is there."""
    with LocalBroker(persistence=True, workdir=tmp_path) as broker:
        before = broker.saves()
        away = Subscriber(broker.port, ["kept/#"], client_id="away", persistent=True)
        away.close()
        broker.stop()  # SIGTERM saves
        assert broker.saved_since(before)
        broker.start()
        saved = broker.saves()
        publisher = Subscriber(broker.port, [])
        publisher.publish("kept/one", "after the save")
        publisher.close()
        broker.kill()
        assert not broker.saved_since(saved)
        broker.start()
        back = Subscriber(broker.port, ["kept/#"], client_id="away", persistent=True)
        try:
            assert back.sessions == [True] and back.messages == []
        finally:
            back.close()


def test_free_ports_come_from_mafia_free_ports_when_set_each_once_before_any_again(monkeypatch):
    """The test suite's workers each take their own share (tests/support/workers.py): every
    port from it, and one process gets no port twice before it has been round its range (two
    quick calls for two listeners must not get one port)."""
    monkeypatch.setenv(PORTS_VARIABLE, "20000-20099")
    assert port_choices() == range(20000, 20100)
    ports = [free_port() for _ in range(50)]
    assert set(ports) <= set(range(20000, 20100))
    assert len(set(ports)) == 50  # a port another process holds is passed by, never repeated


@pytest.mark.parametrize(("value", "says"), [
    ("20000", "LOW-HIGH expected"),
    ("a-b", "LOW-HIGH expected"),
    ("20100-20000", "LOW <= HIGH"),
    ("80-90", "from 1024 to 65535"),
    ("20000-70000", "from 1024 to 65535"),
])
def test_a_bad_mafia_free_ports_is_refused_with_what_is_expected(monkeypatch, value, says):
    monkeypatch.setenv(PORTS_VARIABLE, value)
    with pytest.raises(ValueError, match=says) as refused:
        free_port()
    assert PORTS_VARIABLE in str(refused.value)


def test_mafia_free_ports_in_the_ephemeral_range_is_refused_with_why(monkeypatch):
    ephemeral = ephemeral_ports()
    monkeypatch.setenv(PORTS_VARIABLE, f"{ephemeral.start}-{ephemeral.start + 99}")
    with pytest.raises(ValueError, match="overlaps the kernel's ephemeral ports"):
        free_port()
