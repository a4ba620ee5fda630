"""The shipped ``fiim-mafiaratings-7`` preset scores games as the rating platform does (issue 39
item 5): the same games, scored by our standings (results/standings.py) and by the platform's
own PHP (include/scoring.php, its scoring 19 version 7), give the same totals, the same points
of each group, the same counts and the same order, in every table: a tournament's overall (its
main rounds and its final scored apart), each stage alone, each round alone.

The platform's side is vectors its own code computed under php-cli, committed with how they were
made (tests/support/platform_scoring.py; tests/data/platform_scoring/vectors.json): 25 whole
random games in three tournaments, with fourth-foul removals, disqualifications, best moves,
the judge's extra points and players shot first again and again. The test first checks the games
are the same: our export of each kept record is the game the platform scored."""

from __future__ import annotations

import json

import msgspec
import pytest

from results import scoring, standings
from results.record import BestMove, Record
from tests.support.platform_scoring import VECTORS, platform_game

PRESET = scoring.presets()["fiim-mafiaratings-7"]
DATA = json.loads(VECTORS.read_text(encoding="utf-8"))
#: our parts of a total, by the platform's scoring groups
GROUPS = {"main": "win", "legacy": "best_move", "extra": "extra", "penalty": "penalty",
          "night1": "ci"}
COUNTS = {"games": "games", "wins": "wins", "special_role_wins": "special_role_wins",
          "killed_first_count": "first_killed"}


def records(t: dict) -> list[tuple[int, str, list[Record]]]:
    return [(r["number"], r["stage"], [msgspec.convert(x, Record) for x in r["records"]])
            for r in t["rounds"]]


def same(ours: standings.Table, platform: list[dict], ids: dict[str, int]) -> None:
    """Our table is the platform's: player for player in its order, every number."""
    assert [ids[row.player] for row in ours.rows] == [p["id"] for p in platform]
    for row, p in zip(ours.rows, platform, strict=True):
        assert row.total == pytest.approx(p["points"], abs=1e-9), row.player
        for group, part in GROUPS.items():
            assert getattr(row, part) == pytest.approx(p[group], abs=1e-9), (row.player, group)
        assert row.compensation == 0.0
        for count, ours_count in COUNTS.items():
            assert getattr(row, ours_count) == p[count], (row.player, count)
    assert [(r.place, r.last) for r in ours.rows] == [(n, n) for n in range(1, len(platform) + 1)]


def test_the_vectors_are_of_the_platforms_fiim_scoring_as_the_preset_names_it():
    assert PRESET.platform == f"{DATA['platform']['scoring']}/{DATA['platform']['version']}"
    main, extra, legacy, penalty, night1 = (DATA["scoring"][g] for g in
                                             ("main", "extra", "legacy", "penalty", "night1"))
    assert main == [{"matter": 2, "points": 1}] and PRESET.win.points == 1.0
    assert legacy[0]["points"] == "matter(10) ? 0.7 : (matter(11) ? 0.5 : 0)"
    assert PRESET.best_move.guessed == [0.0, 0.0, 0.5, 0.7]
    assert extra[1]["points"] == "matter(24) ? 0 : 0.3" and PRESET.extra.per_game == 0.3
    assert penalty[0]["points"].startswith("matter(12) || matter(13) || matter(14) ? -0.5")
    assert night1[0]["points"] == "max(min(counter(0,1)*0.5/round(counter(0,0)*0.4),0.5),0)"
    assert "sorting" not in DATA["scoring"]  # its default, "(epg)wsk", then the player's id


@pytest.mark.parametrize("n", range(len(DATA["tournaments"])))
def test_the_games_scored_are_the_games_our_export_sends(n):
    t = DATA["tournaments"][n]
    game_id = 0
    for (number, stage, kept), event in zip(records(t), t["games"], strict=True):
        assert (event["id"], event["group"]) == (number, stage)
        for record, game in zip(kept, event["games"], strict=True):
            game_id += 1
            assert platform_game(record, t["ids"], game_id, game["endTime"]) == game


@pytest.mark.parametrize("n", range(len(DATA["tournaments"])))
def test_every_table_of_a_tournament_is_the_platforms(n):
    t = DATA["tournaments"][n]
    kept = records(t)
    games = [standings.Game(r, number) for number, _, rs in kept for r in rs]
    rounds = [standings.Round(number, stage) for number, stage, _ in kept]
    ours = standings.standings(games, rounds, PRESET, ids=t["ids"])
    platform = t["standings"]
    same(ours.overall, platform["overall"], t["ids"])
    assert list(ours.stages) == list(platform["groups"])
    for stage, table in ours.stages.items():
        same(table, platform["groups"][stage], t["ids"])
    for number, table in ours.rounds.items():
        same(table, platform["events"][str(number)], t["ids"])


def test_the_vectors_hold_the_cases_that_tell_scorings_apart():
    """Games where FIIM scorings differ: a best move of 2 and of 3, a fourth foul, a
    disqualification, extra points, a Ci, and totals the tie-breaks alone decide."""
    games = [g for t in DATA["tournaments"] for e in t["games"] for g in e["games"]]
    players = [p for g in games for p in g["players"]]
    deaths = [p["death"]["type"] for p in players if isinstance(p.get("death"), dict)]
    assert {"warnings", "kickOut"} <= set(deaths)
    assert any("bonus" in p for p in players)
    rows = [row for t in DATA["tournaments"] for row in t["standings"]["overall"]]
    assert any(r["legacy"] > 0 for r in rows) and any(r["night1"] > 0 for r in rows)
    assert any(r["penalty"] < 0 for r in rows)
    ties = [(a, b) for t in DATA["tournaments"] for a, b in zip(
        t["standings"]["overall"], t["standings"]["overall"][1:], strict=False)
        if abs(a["points"] - b["points"]) < 1e-9]
    assert len(ties) >= 10


def test_a_best_move_naming_a_seat_twice_goes_to_the_platform_as_the_seats_named():
    """The platform counts each black seat of the list (GamePlayersStats): [2, 2, 5] with 2
    black would be two guesses there, 0.5 points; it is one here, and is sent as [2, 5]."""
    t = DATA["tournaments"][0]
    record = next(r for _, _, rs in records(t) for r in rs
                  if r.nights and r.nights[0].best_move is not None)
    night = record.nights[0]
    assert night.best_move is not None
    black = next(p.seat for p in record.players if p.role in ("don", "mafia"))
    red = next(p.seat for p in record.players
               if p.role not in ("don", "mafia") and p.seat != night.best_move.by)
    best = BestMove(by=night.best_move.by, guesses=[black, black, red])
    record = msgspec.structs.replace(record, nights=[
        msgspec.structs.replace(night, best_move=best), *record.nights[1:]])
    game = platform_game(record, t["ids"], 1, 1)
    assert game["players"][best.by - 1]["legacy"] == [black, red]
    assert scoring.score(record, PRESET)[best.by - 1].best_move == 0.0  # one of three black
