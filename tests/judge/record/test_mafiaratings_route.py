"""The panel's export route, ``GET /api/games/<id>/export/mafiaratings``, over real HTTP: behind
the login, the export of a finished game, a refusal with its reason for an unfinished one, and
a clear 4xx for bad options."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp.test_utils import TestServer

from judge.panel import config as judge_config
from judge.panel.service import Panel, make_app
from results import mafiaratings as mr
from tests.support.judge_configs import GOOD, PASSWORD, write
from tests.support.record_game import built, whole_game
from tests.support.web_client import browser


def panel_with(tmp_path, inputs) -> Panel:
    """A panel whose journal holds ``inputs`` (the game played so far)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    panel = Panel(judge_config.load(write(tmp_path, GOOD)))
    for given, at in inputs:
        panel.journal.append(given, at)
    return panel


Answer = tuple[int, Any, str | None]  # status, JSON body, Content-Disposition


def current_id(panel: Panel) -> str:
    record = panel.games.current()
    assert record is not None
    return record.id


async def fetch(panel: Panel, paths: list[str], login: bool = True) -> list[Answer]:
    answers: list[Answer] = []
    async with TestServer(make_app(panel)) as server, browser(server) as http:
        if login:
            async with http.post(server.make_url("/login"), data={"password": PASSWORD},
                                 allow_redirects=False) as right:
                assert right.status == 302
        for path in paths:
            async with http.get(server.make_url(path)) as answer:
                answers.append((answer.status, json.loads(await answer.read()),
                                answer.headers.get("Content-Disposition")))
    return answers


def test_a_finished_game_exports_behind_the_login(tmp_path) -> None:
    inputs = whole_game().inputs
    panel = panel_with(tmp_path, inputs)
    id = current_id(panel)
    path = f"/api/games/{id}/export/mafiaratings"
    [(refused, body, _)] = asyncio.run(fetch(panel, [path], login=False))
    assert (refused, body) == (401, {"error": "log in first",
                                     "words": {"key": "games.refused.login", "params": {}}})
    [(status, game, disposition), (with_ids, named, _)] = asyncio.run(fetch(panel, [
        path, path + "?club=1&event=7854&moderator=138&language=en"]))
    expected = json.loads(mr.export_json(built(inputs)))
    assert (status, game) == (200, expected)
    assert disposition == f'attachment; filename="{id}.mafiaratings.json"'
    assert with_ids == 200
    assert (named["clubId"], named["eventId"], named["moderator"], named["language"]) == (
        1, 7854, {"id": 138}, "en")


def test_an_unfinished_game_is_refused_with_the_reason(tmp_path) -> None:
    panel = panel_with(tmp_path, whole_game().inputs[:60])
    path = f"/api/games/{current_id(panel)}/export/mafiaratings"
    [(status, body, _)] = asyncio.run(fetch(panel, [path]))
    assert status == 409
    assert body == {"error": "the game is not finished (no winner yet); the rating platform "
                             "takes finished games only",
                    "words": {"key": "refused.export.unfinished", "params": {}}}


def test_bad_options_and_unknown_games_get_a_clear_4xx(tmp_path) -> None:
    panel = panel_with(tmp_path, whole_game().inputs)
    path = f"/api/games/{current_id(panel)}/export/mafiaratings"
    answers = asyncio.run(fetch(panel, [
        path + "?club=seattle", path + "?colour=red", path + "?language=russian",
        path + "?event=0", "/api/games/nope/export/mafiaratings"]))
    assert [status for status, _, _ in answers] == [400, 400, 400, 400, 404]
    says = [body["error"] for _, body, _ in answers]
    assert "$.club" in says[0] and "colour" in says[1] and "$.language" in says[2]
    assert "$.event" in says[3] and says[4] == "no game 'nope'"


def test_the_cli_prints_a_game_or_says_why_not(tmp_path, capsys) -> None:
    """``mafia-table judge export --config FILE --game ID --format mafiaratings``."""
    from mafia_table.cli import main

    inputs = whole_game().inputs
    panel = panel_with(tmp_path, inputs)
    id = current_id(panel)
    panel.journal.close()
    config = str(tmp_path / "judge.toml")
    assert main(["judge", "export", "--config", config, "--game", id, "--format",
                 "mafiaratings", "--club", "1"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == {**json.loads(mr.export_json(built(inputs))), "clubId": 1}
    assert main(["judge", "export", "--config", config, "--game", "nope"]) == 1
    assert capsys.readouterr().err == "mafia-table judge export: no game 'nope'\n"
    assert main(["judge", "export", "--config", config, "--game", id, "--club", "x"]) == 1
    assert "$.club" in capsys.readouterr().err
    assert main(["judge", "export", "--config", config]) == 2
    assert "--game ID is needed" in capsys.readouterr().err


async def sheet(panel: Panel, language: str = "en") -> str:
    async with TestServer(make_app(panel)) as server, browser(server) as http:
        async with http.post(server.make_url("/login"), data={"password": PASSWORD}):
            pass
        async with http.get(server.make_url(f"/games/{current_id(panel)}"),
                            params={"lang": language}) as page:
            assert page.status == 200
            return await page.text()


def test_the_sheet_links_the_export_or_shows_why_not(tmp_path) -> None:
    finished = panel_with(tmp_path / "finished", whole_game().inputs)
    link = (f'<a href="/api/games/{current_id(finished)}/export/mafiaratings" download>'
            "mafiaratings export (JSON)</a>")
    assert link in asyncio.run(sheet(finished))
    halfway = panel_with(tmp_path / "halfway", whole_game().inputs[:60])
    assert ("<b>mafiaratings</b> export refused: the game is not finished (no winner yet); "
            "the rating platform takes finished games only") in asyncio.run(sheet(halfway))
    assert ("<b>mafiaratings</b> экспорт невозможен: игра не окончена (победителя ещё нет); "
            "рейтинговая платформа принимает только оконченные игры") in asyncio.run(
                sheet(halfway, "ru"))
