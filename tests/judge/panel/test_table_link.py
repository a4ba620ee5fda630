"""The judge's MQTT link with paho driven from the panel's own asyncio loop
(``kit.mqtt.LoopDriver``), on the hall's broker as shipped: the ``rules-core`` account over its
TLS listener, a burst of the table's messages, each handed to the panel on the loop's thread,
in order, and a command out."""

from __future__ import annotations

import asyncio
import json
import threading

from contract.verbs import TIMER_PAUSE, bare_command
from judge.panel import config as judge_config
from judge.panel.table_link import TableLink
from tests.support.judge_configs import GOOD, write
from tests.support.shipped_broker import Hall
from tests.support.waiting import until_async

BURST = 200


def tls_config(tmp_path, hall: Hall) -> judge_config.JudgeConfig:
    (tmp_path / "rules-core.pass").write_text(hall.password("rules-core") + "\n")
    certs = tmp_path / "certs"
    return judge_config.load(write(tmp_path, GOOD.replace('"table-1"', '"t1"') + f"""
[broker]
port = {hall.tls_port}
username = "rules-core"
password_file = "{tmp_path / 'rules-core.pass'}"
[broker.tls]
ca_file = "{certs / 'ca.crt'}"
cert_file = "{certs / 't1.crt'}"
key_file = "{certs / 't1.key'}"
"""))


def test_over_tls_the_panel_gets_every_message_in_order_on_its_loop_and_its_commands_go_out(
        tmp_path):
    hall = Hall(tmp_path)
    with hall.broker:
        table = hall.client("t1", ["mafia/t1/cmd/#"])
        got: list[tuple[str, bytes, bool]] = []
        ups: list[bool] = []

        async def run() -> None:
            loop_thread = threading.get_ident()
            link = TableLink(
                tls_config(tmp_path, hall),
                lambda topic, payload: got.append(
                    (topic, payload, threading.get_ident() == loop_thread)),
                ups.append)
            link.start(asyncio.get_running_loop())
            try:
                await until_async(lambda: ups == [True], what="the link up over TLS")
                # subscribed once a message on one of its topics comes through
                table.publish("mafia/t1/health", "{}")
                await until_async(lambda: any(t == "health" for t, _, _ in got),
                                  what="the subscription")
                for n in range(BURST):  # back to back: many packets in each TLS record
                    table.publish("mafia/t1/event/timer", json.dumps({"n": n}))
                await until_async(lambda: sum(t == "event/timer" for t, _, _ in got) == BURST,
                                  what="the burst")
                link.send(bare_command(TIMER_PAUSE))
                command = table.wait_for(lambda m: m.topic == "mafia/t1/cmd/timer/pause")
                assert command[0].json()["id"] in link.pending
            finally:
                link.stop()

        try:
            asyncio.run(run())
        finally:
            table.close()
    timers = [json.loads(p)["n"] for t, p, _ in got if t == "event/timer"]
    assert timers == list(range(BURST))
    assert all(on_loop for _, _, on_loop in got)
    assert ups == [True]  # one connection all along
