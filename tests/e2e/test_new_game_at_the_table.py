"""A new game, or an abandon, from every stage of a game: the table ends what the last game left
running there (docs/judge.md, "New game"), so the next game's speeches and votes are taken
(issue 36: after a new game during a vote the next ``cmd/vote/start`` was answered "a vote is
running" and every speech timer refused). Against the simulated example table and the panel
as its own process, over a real mosquitto, through the live channel as a club's app drives it;
the vote case the app's way: the vote's start and the new game sent back to back, before the
table's ``state`` can reach the panel. A refusal the table gives where there was nothing left
to end is no news to the judge: the panel shows no notice in the whole walk."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import aiohttp
import pytest

from kit.local_broker import free_port
from tests.support.judge_panel import TABLE, Hands, Judge, book_game, judge_config, table_config
from tests.support.live_channel import Channel, View, counted, logged_in
from tests.support.online_003 import ADDED, ROLES, SEATS, table_of_seven
from tests.support.record_game import ROLES as FIIM_ROLES
from tests.support.running import Running

#: long night steps: the new game comes while one runs
GAME = "[timings]\nnight_step = 60\n"


def replied(hands: Hands, verb: str) -> Callable[[], dict]:
    """The table's next reply to ``cmd/<verb>`` (counted from now)."""
    return hands.upcoming(f"reply/{verb}")


async def fresh(live: Channel, hands: Hands, roles: list[str], add: list[str] | None = None,
                nominations: dict[int, int] | None = None) -> View:
    """A new game dealt ``roles`` and started, to day 1's first speech, whose timer the table
    takes; the speakers nominate as ``nominations`` says (by keypad)."""
    await live.act("deal", roles=roles, **({"add": add} if add else {}))
    await live.offer("start")
    while (await live.offer("next"))["stage"] != "day":
        pass
    speech = replied(hands, "timer/start")
    g = await live.offer("next")
    assert speech()["ok"], "the first speech's timer"
    if nominations and g["floor"] in nominations:
        await nominate(live, hands, g["floor"], nominations[g["floor"]])
    return g


async def nominate(live: Channel, hands: Hands, by: int, seat: int) -> None:
    hands.key(by, f"{seat}#")
    await live.until(lambda g: seat in g["nominees"])


async def to_vote(live: Channel, hands: Hands, nominations: dict[int, int]) -> None:
    """The day's speeches from the second on, nominating as given, up to the vote's Next."""
    while live.view["game"]["speakers"]:
        g = await live.offer("next")
        if g["floor"] in nominations:
            await nominate(live, hands, g["floor"], nominations[g["floor"]])


async def voted(live: Channel, hands: Hands, windows: list[tuple[int, list[int]]]) -> None:
    """The judge's Next starts the vote; each window's fists (once the table opened it), each
    count confirmed."""
    opened = hands.upcoming("event/vote/window", state="opened", candidate=windows[0][0])
    await live.offer("next")
    for i, (candidate, fists) in enumerate(windows):
        opened()
        await counted(live, hands, candidate, fists)
        await live.until(lambda g, c=candidate: g["vote"] is not None
                         and (g["vote"]["proposed"] or {}).get("candidate") == c)
        if i + 1 < len(windows):
            opened = hands.upcoming("event/vote/window", state="opened",
                                    candidate=windows[i + 1][0])
        await live.offer("confirm")


async def idle(hands: Hands) -> None:
    """Until the table's state says nothing runs, by day (the replies to the endings come
    after the state they make: the table publishes its state before its replies)."""
    def idle_now(messages: list) -> bool:
        states = [m.json() for m in messages if m.topic == TABLE + "state"]
        return bool(states) and states[-1]["vote"] is None and states[-1]["timer"] is None \
            and states[-1]["phase"] == "idle"
    await asyncio.to_thread(hands.record.wait_until, idle_now, timeout=30,
                            what="the table idle by day")


async def at_once(live: Channel, *actions: str) -> None:
    """The actions sent back to back, each on the version the one before makes (a club's app
    that does not wait for the views between them)."""
    version = live.view["game"]["version"]
    for i, action in enumerate(actions):
        await live.ws.send_json({"action": action, "version": version + i})


async def new_game(live: Channel, http: aiohttp.ClientSession | None = None,
                   listen: str = "") -> None:
    """The judge's New game, or (``http``) the game abandoned from the games' page."""
    version = live.view["game"]["version"]
    if http is None:
        await live.act("new_game")
        return
    async with http.post(f"http://{listen}/api/games/current/abandon",
                         json={"reason": "the table's power failed"}) as answer:
        assert answer.status == 200, await answer.text()
    await live.until(lambda g: g["version"] != version and g["stage"] == "setup")


@pytest.mark.timeout(300)
def test_a_new_game_from_every_stage_of_a_fiim_game_ends_what_runs_at_the_table(
        tmp_path, broker):
    listen = f"127.0.0.1:{free_port()}"
    config = judge_config(tmp_path, broker.port, listen)
    hands = Hands(broker.port)
    table = Running(table_config(tmp_path, broker.port))
    judge = Judge(config)
    ended: list[str] = []

    async def walk() -> None:
        async with logged_in(listen) as (http, live):
            async def stage(name: str, *, abandon: bool = False) -> None:
                await new_game(live, http if abandon else None, listen)
                await idle(hands)
                ended.append(name)

            await live.act("deal", roles=FIIM_ROLES)
            await stage("setup")

            await live.act("deal", roles=FIIM_ROLES)
            assert (await live.offer("start"))["stage"] == "night0"  # the mafia's minute
            await stage("the first night's countdown")

            assert (await fresh(live, hands, FIIM_ROLES))["floor"] == 1
            await stage("a speech")

            nominations = {1: 5, 2: 6}
            await fresh(live, hands, FIIM_ROLES, nominations=nominations)
            await to_vote(live, hands, nominations)
            # the app's way: the vote's start and the new game at once, the table's state of
            # the vote not heard yet
            await at_once(live, "next", "new_game")
            await live.until(lambda g: g["stage"] == "setup")
            await idle(hands)
            ended.append("a vote just started")

            await fresh(live, hands, FIIM_ROLES, nominations=nominations)
            await to_vote(live, hands, nominations)
            opened = hands.upcoming("event/vote/window", state="opened", candidate=5)
            await live.offer("next")
            opened()
            await counted(live, hands, 5, [1, 2, 3])
            await live.until(lambda g: g["vote"] is not None and g["vote"]["proposed"])
            await stage("a count proposed", abandon=True)

            await fresh(live, hands, FIIM_ROLES, nominations=nominations)
            await to_vote(live, hands, nominations)
            await voted(live, hands, [(5, [1, 2, 3, 4, 5]), (6, [])])  # 5 and 5: a tie
            await live.until(lambda g: g["stage"] == "defence")
            await live.offer("next")  # 5's defence (4.4.12)
            await stage("a defence speech")

            await fresh(live, hands, FIIM_ROLES, nominations=nominations)
            await to_vote(live, hands, nominations)
            await voted(live, hands, [(5, [1, 2, 3, 4, 6, 7, 8]), (6, [])])
            await live.until(lambda g: g["stage"] == "last_words")
            await live.offer("next")  # 5's last minute (4.4.13)
            await stage("last words")

            await fresh(live, hands, FIIM_ROLES, nominations=nominations)
            await to_vote(live, hands, nominations)
            await voted(live, hands, [(5, [1, 2, 3, 4, 6, 7, 8]), (6, [])])
            await live.until(lambda g: g["stage"] == "last_words")
            while (await live.offer("next"))["stage"] != "night":
                pass
            shot = hands.upcoming("private/night/step", step="mafia_shot")
            await live.offer("next")
            shot()
            await stage("a night step")

            await fresh(live, hands, FIIM_ROLES)
            for seat in (1, 2, 3):
                await live.act("disqualify", seat=seat)
            assert live.view["game"]["stage"] == "over"
            await stage("the game over")

            nominations = {1: 5, 2: 6}
            await fresh(live, hands, FIIM_ROLES, nominations=nominations)
            await to_vote(live, hands, nominations)
            vote = replied(hands, "vote/start")
            await live.offer("next")
            assert vote()["ok"], "the next game's vote"
            assert live.view["notices"] == []

    try:
        asyncio.run(walk())
    finally:
        judge.stop()
        table.close()
        hands.record.close()
    assert len(ended) == 9


@pytest.mark.timeout(300)
def test_a_new_game_in_the_online_variants_vote_and_verdict_ends_them_at_the_table(
        tmp_path, broker):
    listen = f"127.0.0.1:{free_port()}"
    hands = Hands(broker.port)
    table = Running(table_of_seven(tmp_path, broker.port))
    judge = Judge(judge_config(tmp_path, broker.port, listen,
                               game=book_game("online-003", SEATS)))

    async def walk() -> None:
        async with logged_in(listen) as (_, live):
            await fresh(live, hands, ROLES, ADDED)
            await to_vote(live, hands, {})
            await at_once(live, "next", "new_game")
            await live.until(lambda g: g["stage"] == "setup")
            await idle(hands)

            await fresh(live, hands, ROLES, ADDED)
            await to_vote(live, hands, {})
            # the first vote: every player a candidate; all seven on 1, who is accused
            # («Дневное голосование…»): the rest of the windows cannot change it
            await voted(live, hands, [(1, list(range(1, 8)))])
            await live.until(lambda g: g["stage"] == "defence")
            await live.offer("next")  # the accused's last word
            verdict = hands.upcoming("cmd/vote/question")
            await live.offer("next")
            verdict()
            await live.act("new_game")
            await idle(hands)

            await fresh(live, hands, ROLES, ADDED)
            await to_vote(live, hands, {})
            vote = replied(hands, "vote/start")
            await live.offer("next")
            assert vote()["ok"], "the next game's vote"
            assert live.view["notices"] == []

    try:
        asyncio.run(walk())
    finally:
        judge.stop()
        table.close()
        hands.record.close()
