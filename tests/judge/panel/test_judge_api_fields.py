"""The view's fields say what docs/judge-api.md says they do (issue 36): ``seats[].silenced``
for every cause of silence, as the table is told it; ``timer`` the time left when the view is
made, not at the table's last report; ``table.rules`` the table's rule preset beside the
book's, and no Start while they differ."""

from __future__ import annotations

import json

import pytest

from judge.game import Game, Refused, load_rules, new_game
from judge.overlay.public import public_view
from judge.panel import config as judge_config
from judge.panel.service import Panel
from judge.panel.views import judge_view
from kit.i18n import render
from tests.support.judge_configs import GOOD, write
from tests.support.judge_game import day_one, night, run, tap

CROW_CLUB = load_rules("crow-club")
CROW_ROLES = ["don", "mafia", "mafia", "maniac", "doctor", "sheriff", "paranoid", "firefighter",
              *["civilian"] * 5]


def crow_club_night() -> Game:
    game, _, _ = run(new_game(len(CROW_ROLES), rules=CROW_CLUB),
                     tap("deal", roles=CROW_ROLES, add=["firefighter"]), tap("start"))
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    return game


def silenced(view: dict) -> list[int]:
    return [s["seat"] for s in view["seats"] if s["silenced"]]


def test_crow_club_firefighter_the_seat_he_silenced_is_silenced_in_every_view():
    """«Пожарный»: the seat the firefighter silenced is ``silenced`` in the judge's view and
    the public one, as the table is told (``cmd/seats`` ``silenced: true``), not only in the
    judge's ``tags``; the standing ends with the day."""
    game, commands, _ = night(crow_club_night(), {"firefighter": {8: [10]}})
    assert game.stage == "day"
    told = [s.seat for c in commands if c.spec.verb == "seats" for s in c.payload.seats
            if s.silenced]
    assert told == [10]
    assert silenced(judge_view(game)) == silenced(public_view(game)) == [10]
    assert judge_view(game)["seats"][9]["tags"] == ["silenced"]
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    assert silenced(judge_view(game)) == []


def test_fiim_the_third_foul_silences_in_the_same_field():
    """The foul ladder's silence (docs/judge.md, "Fouls") is the same field."""
    game, _, _ = run(day_one(), *[tap("foul", seat=4)] * 3)
    assert silenced(judge_view(game)) == silenced(public_view(game)) == [4]


def timer_event(seq: int, state: str, remaining_ms: int) -> bytes:
    return json.dumps({"v": 1, "ts": "2026-11-29T21:22:15.481Z", "id": f"s-{seq}", "seq": seq,
                       "timer": "t1", "seat": 3, "kind": "speech", "state": state,
                       "remaining_ms": remaining_ms, "duration_ms": 60000}).encode()


def test_the_views_timer_is_the_time_left_when_the_view_is_made(tmp_path):
    """The table reports its timer only as it changes: a view made 20 s after the speech
    started (on the table's health) says 40 s left, not the 60 s of the report; a paused
    clock stays as it was reported."""
    panel = Panel(judge_config.load(write(tmp_path, GOOD)))
    now = [100.0]
    panel.live.now = lambda: now[0]
    try:
        panel._on_table("event/timer", timer_event(1, "started", 60000))
        assert panel.live.message().timer.remaining_ms == 60000
        now[0] = 120.0
        panel._on_table("health", json.dumps({"consoles": [], "audio": {"ok": True}}).encode())
        assert panel.live.message().timer.remaining_ms == 40000
        now[0] = 170.0  # past its end, before the table says it ended
        assert panel.live.message().timer.remaining_ms == 0
        panel._on_table("event/timer", timer_event(2, "paused", 31000))
        now[0] = 200.0
        clock = panel.live.message().timer
        assert (clock.running, clock.remaining_ms) == (False, 31000)
    finally:
        panel.close()


def table_state(**rules) -> bytes:
    """The table's retained ``state`` with nothing running, and ``rules`` as given (none
    given: a table older than ``rules``, which does not say)."""
    return json.dumps({"v": 1, "ts": "2026-11-29T21:22:15.481Z", "table": "table-1",
                       "phase": "idle", "seats": [], "vote": None, "day": 0,
                       "nominations": [], "timer": None, "voice": "ru", **rules}).encode()


def test_a_table_on_no_preset_is_told_to_name_one_and_one_that_does_not_say_is_not_refused(
        tmp_path):
    """FIIM's book (the judge config's default) on a table whose config names no rules: the
    view says it plays none, Start is refused saying the line to add (once a notice too); a
    table that does not say (older than ``state``'s ``rules``) is not refused."""
    panel = Panel(judge_config.load(write(tmp_path, GOOD)))
    try:
        panel.apply(tap("deal", seed=1))
        panel._on_table("state", table_state(rules=None))
        message = panel.live.message()
        assert message.table.rules is not None
        assert (message.table.rules.plays, message.table.rules.needs) == (None, "fiim")
        with pytest.raises(Refused) as refused:
            panel.apply(tap("start"))
        assert refused.value.line.key == "refused.table_preset.none"
        assert render(refused.value.line, "en") == (
            "the table plays no rule preset, and FIIM needs fiim: set rules = "
            "\"rules/fiim.toml\" in the table's config and restart the table")
        assert [n.key for n in panel.live.seen.notices] == ["refused.table_preset.none"]
        panel._on_table("state", table_state(rules=None))  # told once
        assert len(panel.live.seen.notices) == 1
        assert panel.game.stage == "setup"
        panel._on_table("state", table_state())
        assert panel.live.message().table.rules is None
        panel.apply(tap("start"))
        assert panel.game.stage == "night0"
    finally:
        panel.close()


def test_the_tables_preset_is_shown_as_soon_as_its_state_says_it(tmp_path):
    """A tab connected before the table's retained ``state`` arrived (status and health come
    first, the panel shows each) is shown the preset check when ``state`` comes, not at the
    table's next health: once per preset said, not at every ``state``."""
    panel = Panel(judge_config.load(write(tmp_path, GOOD)))
    shown: list[object] = []
    panel.live.watchers.append(shown.append)
    try:
        panel._on_table("state", table_state(rules="online-003"))
        assert panel.live.message().table.rules is not None
        assert len(shown) == 1
        panel._on_table("state", table_state(rules="online-003"))
        assert len(shown) == 1
        panel._on_table("state", table_state(rules="fiim"))
        assert len(shown) == 2
    finally:
        panel.close()
