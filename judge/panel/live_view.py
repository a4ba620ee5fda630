"""What the panel shows, live: the judge's view of the game and the table, pushed to every
logged-in tab at each change, and each change handed to whoever follows the panel (the stream
overlay, ``judge.overlay.routes``).

The game is the kept one (``judge.panel.kept_game``); the table is what it last said (``TableSeen``,
which the service keeps up to date from the link). The view itself is built from them by
``judge.panel.views.judge_view``, which alone adds the game's secrets: nothing here is sent before
the login (``kit.weblogin``).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from contract.api import sound
from judge.game import Game
from judge.game.actions import Offer
from judge.game.book import preset_path
from judge.overlay.view import Shown
from judge.panel.kept_game import KeptGame
from judge.panel.views import (
    Clock,
    JudgeGame,
    PanelSettings,
    PresetCheck,
    TableStatus,
    ViewMessage,
    Window,
    as_text,
    judge_game,
)
from kit import i18n
from kit.i18n import Words
from kit.webpages import Pages


@dataclass
class TableSeen:
    """The table as the panel last heard it: shown in the page's header (the broker, the
    table's status, its consoles and audio, the payloads refused), with the fists down, the
    floor's clock and the table's refusals; and read by a new game, which ends what the last
    one left running."""

    broker: bool = False  # the link to the broker is up
    status: str | None = "unknown"  # the table's own status/ (unknown until it says)
    health: dict[str, Any] | None = None  # its latest health/
    state: dict[str, Any] = field(default_factory=dict)  # its latest retained state/
    day: int = 0  # its own day number (state.day)
    bad_events: int = 0  # its payloads refused (not their type), since the start
    down: set[int] = field(default_factory=set)  # seats whose vote button is down now
    timer: dict[str, Any] | None = None  # the latest event/timer, as the page shows it
    timer_at: float = 0.0  # when it came (the live view's clock, ``LiveView.now``)
    window: dict[str, int] | None = None  # the vote's window open now (candidate, attempt)
    notices: deque[Words] = field(default_factory=lambda: deque(maxlen=20))  # commands refused


class LiveView:
    """The judge's pages (``pages``, the logged-in tabs) and the panel's followers
    (``watchers``), told of every change by ``show``."""

    def __init__(self, kept: KeptGame, hide_roles: bool = False,
                 language: str = i18n.DEFAULT, now: Callable[[], float] = time.monotonic):
        self.kept, self.hide_roles, self.language = kept, hide_roles, language
        #: the panel's clock (monotonic seconds): when a timer event came, and when a view is
        #: made, so the view's clock is the time left then (``clock``)
        self.now = now
        self.seen = TableSeen()
        self.pages = Pages()
        self.watchers: list[Callable[[Shown], None]] = []
        self._pushed = ""  # the last view pushed to the tabs
        #: the last game and its view from the judge's chair: a fist or the clock's tick
        #: leaves the (frozen) game as it was, and its view with it
        self._viewed: tuple[Game, JudgeGame] | None = None

    def message(self) -> ViewMessage:
        """The page's whole view (``judge.panel.views.ViewMessage``, docs/judge-api.md): the game
        from the judge's chair with what the judge may do now, its latest record lines and the
        table."""
        seen = self.seen
        health = seen.health or {}
        consoles = health.get("consoles") or []
        if self._viewed is None or self._viewed[0] is not self.kept.game:
            self._viewed = (self.kept.game, judge_game(self.kept.game))
        viewed = self._viewed[1]
        game = msgspec.structs.replace(
            viewed, offers=[*viewed.offers, *own_offers(self.kept.game, seen.timer)])
        return ViewMessage(
            game=game, log=list(self.kept.lines)[-60:],
            table=TableStatus(broker=seen.broker, status=seen.status or "unknown",
                              consoles=[c.get("online") for c in consoles],
                              audio=(health.get("audio") or {}).get("ok"),
                              sound=sound(health),
                              bad_events=seen.bad_events, rules=self.preset_check()),
            down=sorted(seen.down), timer=self.clock(),
            notices=list(seen.notices),
            panel=PanelSettings(hide_roles=self.hide_roles, language=self.language),
            window=None if seen.window is None or self.kept.game.vote is None
            else Window(**seen.window))

    def preset_check(self) -> PresetCheck | None:
        """The rule preset the table plays beside the one the book needs, once the table has
        said which it plays (``state``'s ``rules``; a table older than it says nothing)."""
        if "rules" not in self.seen.state:
            return None
        return PresetCheck(plays=self.seen.state["rules"],
                           needs=preset_path(self.kept.game.book).stem)

    def clock(self) -> Clock | None:
        """The table's clock as it stands now: its last ``event/timer`` (or night step), the
        time left counted down since it came while it runs. The table reports its timer only
        as it changes (started, a warning, paused...), so without this count a view made
        between two reports (a fist, the table's health) would show the time left at the last
        report, up to a whole speech behind; now it lags the table by the event's and the
        view's way over the network only (docs/judge-api.md, ``timer``)."""
        timer = self.seen.timer
        if timer is None:
            return None
        left = timer["remaining_ms"]
        if timer["running"]:
            left = max(0, left - round(1000 * (self.now() - self.seen.timer_at)))
        return Clock(**{**timer, "remaining_ms": left})

    def text(self) -> str:
        """The view as every tab reads it: JSON in the panel's language (``as_text``)."""
        return as_text(self.message(), self.language)

    def shown(self) -> Shown:
        return Shown(self.kept.game, self.seen.timer, frozenset(self.seen.down))

    def show(self) -> None:
        """Something changed: every tab gets the new view, built once for all of them (a view
        the same as the last one pushed, a health message that changed nothing shown, is not
        sent again), and every follower is told. On the loop that serves the pages the
        followers are told on its next turn, after the tabs' frames are written: the stream
        overlay's work (its own view, held back by its delay) is not on the way of the judge's
        (docs/performance.md, "The judge's screen")."""
        shown = self.shown()
        if self.pages.sockets:
            text = self.text()
            if text != self._pushed:
                self._pushed = text
                self.pages.push(text)
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # a panel not served (a test's): told now
            loop = None
        for watch in self.watchers:
            if loop is None:
                watch(shown)
            else:
                loop.call_soon(watch, shown)


#: what each of the panel's own offers does (``Offer.kind``; the engine's: ``offers.KINDS``)
OWN_KINDS = ("pause_clock", "resume_clock", "add_time", "new_game")


def own_offers(game: Game, timer: dict[str, Any] | None = None) -> list[Offer]:
    """The panel's own actions the judge may take now: the floor's clock (a speaker's, the
    night countdown, the table's discussion: Pause while it runs, Resume while it is paused, as
    the table's last ``timer`` says; both before it says), a new game (the judge's primary
    action once the game is over: the evening's next game)."""
    running = None if timer is None else timer.get("running")
    applies = {"pause": running is not False, "resume": running is not True, "add": True}
    offers = [Offer(action="timer", kind=kind, key=op, label=label, args={"op": op},
                    group="clock")
              for op, kind, label in (("pause", "pause_clock", Words("offer.pause")),
                                      ("resume", "resume_clock", Words("offer.resume")),
                                      ("add", "add_time", Words("offer.add", seconds=10)))
              if (game.floor is not None or game.countdown or game.discussing) and applies[op]]
    return [*offers, Offer(action="new_game", kind="new_game", key="new-game",
                           label=Words("offer.new_game"), group="panel",
                           primary=game.stage == "over")]
