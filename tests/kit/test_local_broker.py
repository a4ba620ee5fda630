"""The tests' and the simulators' private mosquitto (kit/local_broker.py)."""

from __future__ import annotations

import socket

from kit.local_broker import LocalBroker, ephemeral_ports, free_port
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
