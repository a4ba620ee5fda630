"""A whole tournament on a simulated hall (issue 29, "Done when"): three ``--sim`` tables
bridged to the hall, 30 players, 3 rounds, the organiser's flow on the board's tournament page
in Debian's headless chromium (make it, generate the seating, send each round), each game
played by the scripted judge (``examples/fiim_game.py`` at pace 0, sending its record as the
judge's panel does), the public standings page watched during a round (nothing of any game on
it), and the standings at the end equal to a sum made by hand from the exported games (the
rating platform's game JSON, one file a game)."""

from __future__ import annotations

import csv
import io
import json
import math
import zipfile
from collections import defaultdict

import pytest
from playwright.sync_api import Page, expect

from hall.sim import SimulatedHall, password, with_board
from hall.sim_tournament import Tournament
from kit.local_broker import free_port
from tests.support.public_view import PUBLIC_KEYS, SECRET_VALUES, walk

PLAYERS = [f"Player {n}" for n in range(1, 31)]
ROLE_WORDS = ("sheriff", "don", "mafia", "maf", "civilian", "civ", "black", "red", "night",
              "table-")


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    running = SimulatedHall(tmp_path_factory.mktemp("tournament"), 3)
    with with_board(running, free_port(), log_path=running.root / "board.log") as url:
        yield running, url


def log_in(page: Page, url: str) -> None:
    page.goto(url)
    page.fill("#password", password("board"))
    page.click("#login")
    expect(page.locator("#tables tbody tr")).to_have_count(3)


def in_english(page: Page, url: str) -> Page:
    """``page`` reading the board's pages in English (the switch's cookie, docs/i18n.md)."""
    page.context.add_cookies([{"name": "lang", "value": "en", "url": url}])
    return page


def public_words(page: Page) -> str:
    return page.locator("body").inner_text().lower()


def hand_sums(games: dict[str, dict]) -> dict[str, float]:
    """Each player's total by FIIM's preset (config/scoring/fiim.toml), from the platform's
    game JSON alone: 1 a win, the best move's 0 / 0 / 0.25 / 0.5 (a red player shot on night 1
    naming 0..3 blacks), -0.5 a disqualification, the judge's bonus, and the platform's Ci
    over the stage: each lost game shot first as red takes min(K * 0.4 / round(G * 0.4), 0.4)
    (K: shot first as red, G: games played)."""
    totals: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    shot_first: dict[str, int] = defaultdict(int)
    lost_shot_first: dict[str, int] = defaultdict(int)
    for game in games.values():
        roles = {seat: p.get("role", "civ") for seat, p in enumerate(game["players"], 1)}
        for seat, p in enumerate(game["players"], 1):
            name, red = p["name"], roles[seat] in ("civ", "sheriff")
            played[name] += 1
            won = (game["winner"] == "civ") == red
            totals[name] += 1.0 if won else 0.0
            bonus = p.get("bonus", 0)
            assert isinstance(bonus, int | float), bonus  # the scripted judge gives no title
            totals[name] += bonus
            death = p.get("death")
            if isinstance(death, dict) and death.get("type") == "kickOut":
                totals[name] -= 0.5
            first = isinstance(death, dict) and death == {**death, "round": 1, "type": "night"}
            if first and red:
                shot_first[name] += 1
                lost_shot_first[name] += not won
                blacks = sum(roles[s] in ("maf", "don") for s in p.get("legacy", []))
                totals[name] += (0.0, 0.0, 0.25, 0.5)[blacks]
    for name, lost in lost_shot_first.items():
        expected = math.floor(played[name] * 0.4 + 0.5)
        each = 0.4 if expected == 0 else shot_first[name] * 0.4 / expected
        totals[name] += lost * min(each, 0.4)
    return dict(totals)


@pytest.mark.timeout(600)
def test_a_whole_tournament_runs_by_itself_and_its_standings_are_its_exported_games_sum(
        hall, chromium):
    running, url = hall
    organiser = in_english(chromium.new_page(), url)  # the hand-made figures below read "1.25"
    log_in(organiser, url)
    organiser.goto(f"{url}/tournament")
    expect(organiser.locator("#link")).to_have_text("live")
    organiser.fill("#t-name", "Simulated cup")
    organiser.fill("#t-players", "\n".join(PLAYERS))
    organiser.fill("#t-games", "3")
    organiser.fill("#t-tables", "3")
    organiser.select_option("#t-scoring", "fiim")  # the hand sum below is FIIM's
    organiser.click("#create-button")
    expect(organiser.locator("#notice")).to_contain_text("tournament 'Simulated cup' made")
    expect(organiser.locator("#summary-text")).to_contain_text("scoring FIIM")
    organiser.fill("#seconds", "1")
    organiser.click("#generate")
    expect(organiser.locator("#rounds tbody tr")).to_have_count(3, timeout=60_000)
    expect(organiser.locator("#notice")).to_have_text("the main stage is seated: rounds 1, 2, 3")

    public = in_english(chromium.new_page(), url)  # the stream's page: no login
    public.goto(f"{url}/standings")
    expect(public.locator("#name")).to_have_text("Simulated cup")

    tournament = Tournament(running, url, say=lambda _: None)
    for number in (1, 2, 3):
        organiser.click(f'#rounds button.send[data-round="{number}"]')
        expect(organiser.locator(f'#rounds tr[data-round="{number}"]')).to_have_attribute(
            "data-sent", "true")
        tables = [f"table-{n}" for n in (1, 2, 3)]
        judges = [tournament.judge(t, seed=number * 100 + k) for k, t in enumerate(tables)]
        if number == 2:  # during a round: the standings of the games over, nothing of a game
            expect(public.locator("#progress")).to_contain_text("round 2 of 3")
            shown = public_words(public)
            assert not [w for w in ROLE_WORDS if f" {w} " in f" {shown} "], shown
            view = json.loads(public.request.get(f"{url}/standings.json").text())
            keys, values = walk(view)
            assert keys - {"type", "1", "2", "3"} <= PUBLIC_KEYS
            assert not values & SECRET_VALUES
            for private in ("/tournament/games.zip", "/tournament/standings.csv"):
                kept = public.request.get(url + private, max_redirects=0)
                assert (kept.status, kept.headers["location"]) == (302, "/login"), private
            assert public.request.get(f"{url}/api/tournament").status == 401
        tournament.finish(number, judges)

    expect(organiser.locator("#games tbody tr[data-counted=true]")).to_have_count(9)
    expect(organiser.locator("#standings tbody tr")).to_have_count(30)
    expect(public.locator("#progress")).to_contain_text("3 of 3 games over")

    # the exports, as the organiser downloads them
    games = {}
    with zipfile.ZipFile(io.BytesIO(tournament.organiser.http.open(
            f"{url}/tournament/games.zip").read())) as archive:
        for name in archive.namelist():
            if name.endswith(".mafiaratings.json"):
                games[name] = json.loads(archive.read(name))
        # nothing left out, said in the board's language (this client chose none)
        assert archive.read("not-exported.csv").decode().splitlines() == [
            "игра,стол,тур,причина"]
    assert len(games) == 9
    with tournament.organiser.http.open(f"{url}/tournament/standings.csv") as answer:
        rows = list(csv.DictReader(io.StringIO(answer.read().decode())))
    by_hand = hand_sums(games)
    assert sorted(by_hand) == sorted(PLAYERS)
    assert {r["player"]: int(r["games"]) for r in rows} == dict.fromkeys(PLAYERS, 3)
    for r in rows:
        assert float(r["total"]) == pytest.approx(by_hand[r["player"]], abs=1e-6), r
    totals = [float(r["total"]) for r in rows]
    assert totals == sorted(totals, reverse=True)

    # the board and the public page show the same standings
    first = rows[0]
    expect(organiser.locator("#standings tbody tr").first).to_have_attribute(
        "data-player", first["player"])
    leader = public.locator("#standings tbody tr").first
    expect(leader).to_have_attribute("data-player", first["player"])
    shown_total = leader.locator('td[data-key="total"]').inner_text()
    assert float(shown_total) == float(first["total"])
