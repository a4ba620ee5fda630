"""A FIIM game run through the judge's live channel alone (docs/judge-api.md): no page, a script
that logs in, reads the views and sends actions, against the simulated example table over a
real mosquitto. On the way: a nomination typed on a keypad, a vote counted from the table's
fists and confirmed, a dead keypad whose pick the judge enters by tapping and a step the judge
ends early, the checks answered on the checker's indicator alone, and nothing of the night on a
public topic."""

from __future__ import annotations

import asyncio

import pytest

from kit.local_broker import free_port
from tests.support.judge_panel import TABLE, Hands, Judge, judge_config, table_config
from tests.support.live_channel import counted, logged_in
from tests.support.record_game import ROLES
from tests.support.running import Running


def night_step(hands: Hands, step: str):
    return hands.upcoming("private/night/step", step=step)


@pytest.mark.timeout(180)
def test_a_fiim_game_over_the_live_channel_alone(tmp_path, broker):
    listen = f"127.0.0.1:{free_port()}"
    config = judge_config(tmp_path, broker.port, listen)
    # the night steps are long (``FIIM_GAME``): the judge ends each one, nothing races a clock
    hands = Hands(broker.port)
    table = Running(table_config(tmp_path, broker.port))
    judge = Judge(config)

    async def game() -> None:
        async with logged_in(listen) as (_, live):
            await live.act("deal", roles=ROLES)
            await live.offer("start")
            g = await live.offer("next")  # morning: day 1 (4.2.1)
            assert g["stage"] == "day"

            # day 1: seats 1 and 2 nominate 5 and 6 on their keypads; all speak
            for speaker, nominee in ((1, 5), (2, 6)):
                g = await live.offer("next")
                assert g["floor"] == speaker
                hands.key(speaker, f"{nominee}#")
                await live.until(lambda g, n=nominee: n in g["nominees"])
            for _ in range(8):
                await live.offer("next")
            opened = hands.upcoming("event/vote/window", state="opened", candidate=5)
            g = await live.offer("next")  # the vote (4.4.4)
            assert g["stage"] == "vote"
            opened()
            await counted(live, hands, 5, [1, 2, 3, 4, 6, 7, 8])
            for candidate in (5, 6):  # 6 gets the votes left over (4.4.8)
                await live.until(lambda g, c=candidate: g["vote"] is not None
                                 and (g["vote"]["proposed"] or {}).get("candidate") == c)
                await live.offer("confirm")
            g = await live.until(lambda g: g["stage"] == "last_words")
            assert g["leaving"] == [5]
            await live.offer("next")
            # from before the judge's tap that starts the night: the table's event/phase
            # may reach the hands before the judge's view of the night reaches this script
            night_from = len(hands.record.messages)
            g = await live.offer("next")
            assert g["stage"] == "night"

            # night 1: seat 3's keypad is dead; the judge enters the pick it showed
            shot_opened = night_step(hands, "mafia_shot")
            g = await live.offer("next")
            assert g["night_step"] == "mafia_shot"
            assert shot_opened()["actors"] == [1, 2, 3]
            taken = hands.upcoming("private/night/pick", actor=2, taken=True)
            hands.key(1, "7#")
            hands.key(2, "7#")
            taken()
            await live.act("night_pick", actor=3, targets=[7])
            await live.offer("end-step")
            g = await live.until(lambda g: g["night_step"] is None)
            assert g["killed"] == 7 and "shot: 7" in [w["text"] for w in g["tonight"]]
            for step, actor, keys, pattern in (("don_check", 1, "4#", 1),
                                               ("sheriff_check", 4, "2#", 1)):
                reveal = hands.upcoming("cmd/night/reveal", seat=actor, pattern=pattern)
                opened = night_step(hands, step)
                await live.offer("next")
                assert opened()["actors"] == [actor]
                taken = hands.upcoming("private/night/pick", actor=actor, taken=True)
                hands.key(actor, keys)
                taken()
                await live.offer("end-step")
                reveal()
                await live.until(lambda g: g["night_step"] is None)
            opened = night_step(hands, "best_move")
            await live.offer("next")
            assert opened()["actors"] == [7]
            await live.act("night_pick", actor=7, targets=[1, 2, 3])  # named aloud
            await live.offer("end-step")
            g = await live.until(lambda g: g["night_step"] is None)
            assert g["best_move"] == [1, 2, 3]
            daylight = hands.upcoming("event/phase", phase="day")
            g = await live.offer("next")  # morning: 7's last minute (4.5.4)
            assert g["stage"] == "last_words" and g["leaving"] == [7]
            daylight()
            night = hands.record.messages[night_from:]

            # day 2: the three blacks out on fouls; red wins (1.4)
            await live.offer("next")
            g = await live.offer("next")
            assert g["stage"] == "day"
            for seat in (1, 2, 3):
                for _ in range(4):
                    g = await live.act("foul", seat=seat)
            assert g["stage"] == "over" and g["winner"] == "red"

        # nothing of the night on a public topic: who woke, what they picked, the answers
        fell = next(i for i, m in enumerate(night) if m.topic == TABLE + "event/phase"
                    and m.json()["phase"] == "night")
        public = [m for m in night[fell + 1:] if m.topic.startswith(TABLE + "event/")]
        assert all(not m.topic.startswith(TABLE + "event/night") for m in public)
        assert [m.topic.removeprefix(TABLE) for m in public] == ["event/phase"]  # the morning
        reveals = [m.json() for m in night if m.topic == TABLE + "cmd/night/reveal"]
        assert [(r["seat"], r["pattern"]) for r in reveals] == [(1, 1), (4, 1)]

    try:
        asyncio.run(game())
    finally:
        judge.stop()
        table.close()
        hands.record.close()
