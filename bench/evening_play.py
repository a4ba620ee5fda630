"""A scripted judge at the judge's panel, for ``bench/evening.py``: games of a book played back to
back through the panel's live channel (docs/judge-api.md), the players of
``judge.game.scripted`` typing and pressing on the simulated table's ``sim/`` topics.

The panel is the rules core here, as at a club: this script only taps what a judge taps (Deal,
Start, Next, Confirm, New game) on the channel the panel's own page uses, and reads the view it
pushes; the players nominate on their keypads, put their fists up in the table's vote windows
and type their night picks, as ``examples/fiim_game.py``'s players do. Nothing waits where a
real table would only wait (a speech ends at the judge's Next at once; a night step lasts the
panel's ``night_step``); the table's vote windows keep their own pace.

    with LiveChannel("http://127.0.0.1:8080/", password) as live:
        judge = ScriptedJudge(live, Hands(broker_port), load_rules("fiim"))
        winner = judge.play(seed=1)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from judge.game import Rules, new_game
from judge.game.scripted import Players
from tests.support.judge_panel import TABLE, Hands
from tests.support.mqtt import Received

View = dict[str, Any]
#: how often a speaker nominates: about one nominee a day (as the hall's simulated tournament)
NOMINATE = 0.15
#: the book's timing of a floor given at each stage (FIIM's names)
SPEECHES = {"day": "speech", "defence": "defence", "last_words": "last_words"}
#: the longest any one thing of a game may take before the script gives up (s)
PATIENCE = 60.0


class Refused(Exception):
    """The panel refused an action for another reason than a newer game version."""


class LiveChannel:
    """The panel's live channel held by a script: logged in, the last view kept, actions sent
    on its version and answered (``ref``). Its socket lives on an asyncio loop of its own
    thread, so the script (and Playwright beside it) stays synchronous."""

    def __init__(self, url: str, password: str):
        self.url = url.rstrip("/")
        self._changed = threading.Condition()
        self.view: View | None = None
        self.answers: dict[int, dict[str, Any]] = {}
        self._refs = itertools.count(1)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._open(password), self.loop).result(30)
        self.until(lambda g: True)

    async def _open(self, password: str) -> None:
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                          headers={"Origin": self.url})
        async with self.http.post(self.url + "/login", data={"password": password}) as login:
            if login.status != 200:
                raise RuntimeError(f"the panel refused the login: {login.status}")
        self.ws = await self.http.ws_connect(self.url + "/live")
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            said = json.loads(message.data)
            with self._changed:
                if said.get("type") == "view":
                    self.view = said
                elif said.get("ref") is not None:
                    self.answers[said["ref"]] = said
                self._changed.notify_all()

    @property
    def game(self) -> View:
        assert self.view is not None
        game: View = self.view["game"]
        return game

    def until(self, holds: Callable[[View], bool], timeout: float = PATIENCE,
              what: str = "the awaited view") -> View:
        """The first game view from now on (the current one included) for which ``holds``."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.view is not None and holds(self.game),
                                          timeout):
                raise TimeoutError(f"the panel did not show {what} within {timeout:g} s "
                                   f"(stage {self.game['stage'] if self.view else None})")
            return self.game

    def wait(self, timeout: float) -> None:
        """Until the next message from the panel, or ``timeout`` seconds."""
        with self._changed:
            self._changed.wait(timeout)

    def act(self, action: str, **args: Any) -> View:
        """One action on the version shown, answered; again on the newer version when a table
        event moved the game while it travelled (as a judge taps again); the new view."""
        while True:
            version, ref = self.game["version"], next(self._refs)
            message = {"action": action, "args": args, "version": version, "ref": ref}
            asyncio.run_coroutine_threadsafe(self.ws.send_json(message), self.loop).result(10)
            answer = self._answer(ref, action)
            newer = functools.partial(_newer, version)
            if answer["type"] == "done":
                return self.until(newer, what=f"{action} taken")
            if answer.get("field") != "version":
                raise Refused(f"{action} {args}: {answer.get('message')}")
            self.until(newer, what="the newer version")

    def _answer(self, ref: int, action: str) -> dict[str, Any]:
        with self._changed:
            if not self._changed.wait_for(lambda: ref in self.answers, PATIENCE):
                raise TimeoutError(f"the panel did not answer {action}")
            return self.answers.pop(ref)

    def close(self) -> None:
        async def closing() -> None:
            await self.ws.close()
            await self.http.close()

        asyncio.run_coroutine_threadsafe(closing(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    def __enter__(self) -> LiveChannel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ScriptedJudge:
    """Whole games at the panel: each dealt by ``Players`` from its seed, played to the win."""

    def __init__(self, live: LiveChannel, hands: Hands, rules: Rules, seats: int = 10):
        self.live, self.hands, self.rules, self.seats = live, hands, rules, seats
        self.timings = new_game(seats, rules=rules).timings  # the book's, at a real table
        self.windows = 0  # the table's opened vote windows handled so far
        self.skipped = 0.0  # this game's seconds a real table would have waited, not waited

    def _skip(self, timing: str) -> None:
        """A wait of the book's ``timing`` a real table would have had here, not waited."""
        self.skipped += getattr(self.timings, timing, 0.0)

    # ------------------------------------------------------------------ a game

    def play(self, seed: int) -> str:
        """One game from a fresh one to its win; the winning side."""
        live = self.live
        if live.game["stage"] != "setup":
            live.act("new_game")
        self.players = Players.deal(random.Random(seed), self.rules, self.seats, NOMINATE)
        self.skipped = 0.0
        self.voted_on: int | None = None  # the day of the last first vote (day 1 splits)
        self.split: dict[int, int | None] = {}
        live.act("deal", roles=[self.players.roles[s] for s in sorted(self.players.roles)])
        live.act("start")
        turns = {"day": self.speech, "defence": self.speech, "last_words": self.speech,
                 "vote": self.vote, "question": self.vote, "night": self.night,
                 "night0": self.night}
        while (stage := live.game["stage"]) != "over":
            turns[stage]()
        winner: str = live.game["winner"]
        return winner

    def alive(self) -> list[int]:
        return [s["seat"] for s in self.live.game["seats"] if s["in_game"]]

    def speech(self) -> None:
        """Next: the floor to the next speaker, who may nominate on his keypad (and is done
        at once: the judge's next Next)."""
        stage = self.live.game["stage"]
        game = self.live.act("next")
        speaker = game["floor"]
        if speaker is not None:
            self._skip(SPEECHES.get(stage, "speech"))
        if game["stage"] != "day" or speaker is None \
                or not any(o["key"] == "nominate" for o in game["offers"]):
            return
        nominees = list(game["nominees"])
        choice = self.players.nominee(speaker, self.alive(), nominees)
        if choice is None and game["day"] == 1 and len(nominees) < 2:  # day 1 splits
            choice = next(s for s in self.alive() if s != speaker and s not in nominees)
        if choice is not None:
            self.hands.key(speaker, f"{choice}#")
            self.live.until(lambda g: choice in g["nominees"] or g["floor"] != speaker,
                            what=f"{speaker}'s nomination of {choice}")

    def vote(self) -> None:
        """Each player's fist in the window of his candidate, each count confirmed, until the
        vote is over (a tie's re-vote and the question come back here)."""
        live, players = self.live, self.players
        game = live.game
        stage, candidates = game["stage"], list(game["vote"]["candidates"])
        voters = self.alive()
        if game["vote"]["kind"] == "question":
            ballots: dict[int, int | None] = {
                v: 0 if players.rng.random() < 0.6 else None for v in voters}
        else:
            if game["day"] == 1 and self.voted_on != 1:  # day 1's first vote splits evenly
                self.split = players.split(voters, candidates) if len(candidates) >= 2 else {}
            self.voted_on = game["day"]
            ballots = {v: self.split[v] if self.split.get(v) in candidates
                       else players.ballot(v, candidates) for v in voters}
        deadline = time.monotonic() + PATIENCE
        while True:
            game = live.game
            if game["stage"] != stage or game["vote"] is None \
                    or game["vote"]["candidates"] != candidates:
                return
            opened = self._opened()
            if opened is not None:
                self.hands.fists([v for v, c in ballots.items() if c == opened["candidate"]])
            elif game["vote"]["proposed"] is not None:
                live.act("confirm")
            elif time.monotonic() > deadline:
                raise TimeoutError(f"the vote on {candidates} did not end")
            else:
                live.wait(0.05)  # a view, or the table's next window

    def _opened(self) -> dict[str, Any] | None:
        """The table's next opened vote window not yet handled, if one came."""
        opened = self.hands.record.matching(_window_opened)
        if len(opened) <= self.windows:
            return None
        self.windows += 1
        body: dict[str, Any] = opened[self.windows - 1].json()
        return body

    def night(self) -> None:
        """The night's next step (its actors type their picks in secret), or the morning."""
        live, players = self.live, self.players
        game = live.game
        if game["night_step"] is None and not game["night_steps"]:
            if game["stage"] == "night0":
                self._skip("meeting")  # 4.2.1: the mafia's minute, over at once
            live.act("next")  # the meeting over, or the morning
            return
        name, alive = game["night_steps"][0], self.alive()
        step = self.hands.upcoming("private/night/step", step=name)
        since = len(self.hands.record.messages)
        live.act("next")
        opened = step()
        typed = players.night_picks(name, self.rules.book.step(name).mechanism,
                                    opened["actors"], alive, game["night"], opened["picks"])
        for actor, seats in typed.items():
            self.hands.key(actor, "".join(f"{s}#" for s in seats))
        self._skip("best_move" if name == "best_move" else "night_step")
        # every number typed has reached the table: the rest of the step's time is only
        # waiting, and the judge ends it (as a judge does once the actors have shown)
        step_id, typed_n = opened["night_step"], sum(len(seats) for seats in typed.values())

        def ours(m: Received, topic: str) -> bool:
            return m.topic == TABLE + topic and m.json()["night_step"] == step_id

        def shown(messages: list[Received]) -> bool:
            tonight = messages[since:]
            return sum(ours(m, "private/night/pick") for m in tonight) >= typed_n \
                or any(ours(m, "private/night/result") for m in tonight)

        self.hands.record.wait_until(shown, timeout=PATIENCE, what=f"the picks of {name}")
        if live.game["night_step"] is not None:
            with contextlib.suppress(Refused):  # its time ran out as the tap travelled
                live.act("end_step")
        game = live.until(lambda g: g["night_step"] is None, what=f"the end of {name}")
        if game["checks"] and game["checks"][-1]["step"] == name:
            check = game["checks"][-1]
            players.checked(name, check["seat"], check["answer"])


def _newer(version: int, game: View) -> bool:
    return bool(game["version"] != version)


def _window_opened(m: Received) -> bool:
    return m.topic == TABLE + "event/vote/window" and m.json().get("state") == "opened"
