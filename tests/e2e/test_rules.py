"""The rules at the table through a real broker on a simulated table: standings in votes,
speeches and nominations, refusals where an accepted input would go, several shots (FIIM 4.5.5)
and a night countdown."""

from __future__ import annotations

import itertools
import json

from controller import config as config_module
from tests.support.mqtt import with_json
from tests.support.running import Running, online
from tests.support.table_configs import CONSOLES, SMALL_TABLE, write_config
from tests.support.waiting import until


def test_standings_refusals_and_several_shots_end_to_end(tmp_path, broker, subscriber):
    cfg = config_module.load(write_config(tmp_path, SMALL_TABLE.format(port=broker.port)
                                          + CONSOLES))
    run = Running(cfg)
    core = subscriber
    hub, pair = run.service.emulators[1], run.service.emulators[4]

    sent = itertools.count()

    def command(verb: str, **doc) -> dict:
        id = f"{verb}-{next(sent)}"
        core.publish(f"mafia/t1/cmd/{verb}", json.dumps({"id": id, **doc}))
        reply = "private/reply" if verb.startswith("night/") else "reply"
        [answer] = core.wait_for(with_json(f"mafia/t1/{reply}/{verb}", id=id))
        return answer.json()

    try:
        online(core)
        until(lambda: all(link.health.online for link in run.service.consoles), what="consoles")
        # a keypad nomination before the day began: refused, said so on event/nomination
        assert command("timer/start", seat=1, seconds=30)["ok"]
        hub.type(1, "4#")
        [early] = core.wait_for(with_json("mafia/t1/event/nomination", outcome="refused"))
        assert early.json()["reason"] == "the day has not begun (cmd/day/start)"
        assert command("timer/stop")["ok"] and command("day/start", day=2)["ok"]

        # seat 2 out: no floor, no vote, not a nominee; its last words nominate nobody
        assert command("seats", seats=[{"seat": 2, "in_game": False}])["ok"]
        refused = command("timer/start", seat=2, seconds=30)
        assert refused["error"] == ("seat: seat 2 is out of the game: it may not have the "
                                    "floor (FIIM 1.4, 4.4.11)")
        assert command("timer/start", seat=2, seconds=30, kind="last_words")["ok"]
        hub.type(2, "3#")
        [typed] = core.wait_for(lambda m: m.topic == "mafia/t1/event/nomination"
                                and m.json()["by"] == 2)
        assert typed.json()["outcome"] == "refused" and "FIIM 1.4" in typed.json()["reason"]
        assert command("timer/stop")["ok"]
        assert "it may not vote" in command("vote/start", nominees=[3], voters=[1, 2, 3],
                                            day=2)["error"]

        # a press from seat 2 in the window: not counted, shown to the judge
        assert command("vote/start", nominees=[3], voters=[1, 3], day=2, pacing="judge")["ok"]
        assert "a vote is running" in command("timer/start", seat=1, seconds=30)["error"]
        assert command("vote/next")["ok"]
        core.wait_for(with_json("mafia/t1/event/vote/window", state="opened"))
        run.pin(17).drive_low()  # seat 2's button
        run.pin(17).drive_high()
        run.pin(4).drive_low()  # seat 1's
        run.pin(4).drive_high()
        [proposed] = core.wait_for(lambda m: m.topic == "mafia/t1/event/vote/proposed"
                                   and m.json()["voters"] == [1], timeout=10)
        assert {"seat": 2, "kind": "not_a_voter"} in proposed.json()["anomalies"]
        assert command("vote/cancel")["ok"]

        # FIIM 4.2.3 at night: the Sheriff's look, a countdown that names and lights no seat
        assert command("phase", phase="night")["ok"]
        assert command("timer/start", kind="night", seconds=1)["ok"]
        [ended] = core.wait_for(with_json("mafia/t1/event/timer", state="ended", kind="night"))
        assert ended.json()["seat"] is None
        assert not run.pin(18).state and not any(run.pin(p).state for p in (22, 23, 24, 25))

        # FIIM 4.5.5 at night: seat 4 shows two targets, seat 5 agrees with the first: a miss
        assert command("night/step", step="mafia_shot", actors=[4, 5], seconds=2)["ok"]
        pair.type(4, "1#3#")
        pair.type(5, "1#")
        [shot] = core.wait_for(with_json("mafia/t1/private/night/result", step="mafia_shot"),
                               timeout=10)
        assert shot.json()["agreed"] is False
        assert shot.json()["picks"] == [
            {"actor": 4, "picks": [1, 3], "miss": "several_targets"},
            {"actor": 5, "picks": [1], "miss": None}]
    finally:
        run.close()
