"""A whole night over a real broker: on keypads (emulated consoles), then by count on GPIO, and
the FIIM preset's one check a night (4.5.8) through the service."""

from __future__ import annotations

import json
import time

from controller import config as config_module
from controller.core import night
from tests.support.mqtt import on_topic, with_json
from tests.support.paths import PRESETS
from tests.support.running import Running, online
from tests.support.table_configs import CONSOLES, SMALL_TABLE, write_config
from tests.support.waiting import until


def night_on_keypads(run: Running, core) -> None:
    """Wait for the table and its consoles to be online, then make it night."""
    online(core)
    until(lambda: all(link.health.online for link in run.service.consoles), what="consoles")
    core.publish("mafia/t1/cmd/phase", '{"id": "n1", "phase": "night"}')
    core.wait_for(with_json("mafia/t1/reply/phase", id="n1", ok=True))


def test_a_night_on_keypads_shot_checks_and_best_move(tmp_path, broker, subscriber):
    cfg = config_module.load(write_config(tmp_path, SMALL_TABLE.format(port=broker.port)
                                          + CONSOLES))
    run = Running(cfg)
    core = subscriber
    try:
        night_on_keypads(run, core)
        hub, pair = run.service.emulators[1], run.service.emulators[4]

        def typing(seat: int, keys: str) -> None:
            (hub if seat <= 3 else pair).type(seat, keys)

        def step(id: str, keys: dict[int, str], **command) -> dict:
            """A step of a minute, each actor's ``keys`` typed, and once the table has taken
            every entry, the judge's stop: its result (the step's time is the core's rule, on
            its fake clock; here the wiring, whatever the machine's load)."""
            core.publish("mafia/t1/cmd/night/step", json.dumps(
                {"id": id, "actors": list(keys), "seconds": 60, **command}))
            core.wait_for(with_json("mafia/t1/private/night/step", night_step=id))
            for seat, typed in keys.items():
                typing(seat, typed)
            entries = sum(typed.count("#") for typed in keys.values())
            core.wait_for(with_json("mafia/t1/private/night/pick", night_step=id),
                          count=entries, timeout=10)
            core.publish("mafia/t1/cmd/night/stop", json.dumps({"id": f"stop-{id}"}))
            [result] = core.wait_for(with_json("mafia/t1/private/night/result", night_step=id),
                                     timeout=10)
            return result.json()

        # the mafia (1 and 2) shoot 5; both type during the step
        assert step("shot", {1: "5#", 2: "5#"}, step="mafia_shot")["agreed"] is True
        for id, actor, target in (("don", 1, 4), ("sheriff", 4, 2)):
            check = step(id, {actor: f"{target}#"}, step=f"{id}_check")
            assert check["picks"] == [{"actor": actor, "picks": [target], "miss": None}]
        core.publish("mafia/t1/cmd/night/reveal", '{"id": "r", "seat": 4, "pattern": 2}')
        until(lambda: pair.pins.indicators.get(4) == 2, what="the sheriff's indicator")

        best = step("best", {5: "1#2#3#"}, step="best_move", picks=3, targets="seats")
        assert best["picks"] == [{"actor": 5, "picks": [1, 2, 3], "miss": None}]
        assert not core.matching(lambda m: m.topic.startswith("mafia/t1/event/seat/"))
    finally:
        run.close()


#: seconds per spoken number in the count-mode test: a second a number, ten for the table
CADENCE = 1.0


def test_the_same_shot_on_a_gpio_only_table_by_count(table_config, subscriber):
    """Count mode over the wire: both mafiosi press while a number is spoken, and each pick is
    the number spoken at the press's own edge time (the timing rule itself is the core's, on its
    fake clock: tests/controller; here only the wiring, whatever the machine's load)."""
    run = Running(table_config)
    core = subscriber
    try:
        online(core)
        core.publish("mafia/t1/cmd/phase", '{"id": "n", "phase": "night"}')
        core.wait_for(with_json("mafia/t1/reply/phase", id="n", ok=True))
        core.publish("mafia/t1/cmd/night/step", json.dumps(
            {"id": "shot", "step": "mafia_shot", "actors": [1, 2], "targets": "seats",
             "mode": "count", "cadence": CADENCE}))
        [opened] = core.wait_for(on_topic("mafia/t1/private/night/step"))
        step = opened.json()
        numbers_from = step["mono_ms"] / 1000 + night.COUNT_LEAD
        # press while the first number is spoken (any number would do: the assertion below
        # reads the press's own time, so a late press on a busy machine still checks the wiring,
        # and the step's other numbers leave it seconds to arrive in)
        until(lambda: time.monotonic() >= numbers_from + 0.5 * CADENCE, what="the first number")
        for pin in (4, 17):  # seats 1 and 2 put their hands down
            run.pin(pin).drive_low()
        for pin in (4, 17):
            run.pin(pin).drive_high()
        picks = sorted(core.wait_for(on_topic("mafia/t1/private/night/pick"), count=2,
                                     timeout=10), key=lambda pick: pick.json()["actor"])
        core.publish("mafia/t1/cmd/night/stop", '{"id": "stop"}')  # the rest need not be heard
        [result] = core.wait_for(on_topic("mafia/t1/private/night/result"), timeout=10)
        assert [pick.json()["actor"] for pick in picks] == [1, 2]
        spoken = [step["allowed"][int((pick.json()["mono_ms"] / 1000 - numbers_from) // CADENCE)]
                  for pick in picks]
        assert result.json()["picks"] == [{"actor": 1, "picks": [spoken[0]], "miss": None},
                                          {"actor": 2, "picks": [spoken[1]], "miss": None}]
        assert result.json()["agreed"] is (spoken[0] == spoken[1])
    finally:
        run.close()


def test_fiim_4_5_8_a_dons_6_then_4_keeps_6_through_the_service(tmp_path, broker, subscriber):
    """The shipped fiim.toml, the real service and mosquitto: the Don (seat 1) types 6# then
    4#; the 4 is refused on his private channel and indicator, and his check of 6 stands."""
    body = f'\n    rules = "{PRESETS / "fiim.toml"}"' + SMALL_TABLE.format(port=broker.port)
    run = Running(config_module.load(write_config(tmp_path, body + CONSOLES)))
    core = subscriber
    try:
        night_on_keypads(run, core)
        core.publish("mafia/t1/cmd/night/step", json.dumps(
            {"id": "don", "step": "don_check", "actors": [1], "seconds": 60}))
        [started] = core.wait_for(with_json("mafia/t1/private/night/step", night_step="don"))
        assert started.json()["surplus"] == "first"
        hub = run.service.emulators[1]
        hub.type(1, "6#4#")
        [refused] = core.wait_for(with_json("mafia/t1/private/night/pick", night_step="don",
                                            value=4), timeout=10)
        assert refused.json()["taken"] is False and refused.json()["picks"] == [6]
        assert refused.json()["reason"] == "1 target picked already: the first stands"
        until(lambda: hub.pins.indicators.get(1) == night.REFUSED, what="the Don's indicator")
        core.publish("mafia/t1/cmd/night/stop", '{"id": "stop"}')
        [result] = core.wait_for(with_json("mafia/t1/private/night/result", night_step="don"),
                                 timeout=10)
        assert result.json()["picks"] == [{"actor": 1, "picks": [6], "miss": None}]
        assert not core.matching(lambda m: m.topic.startswith(
            ("mafia/t1/event/seat/", "mafia/t1/event/night/")))
    finally:
        run.close()
