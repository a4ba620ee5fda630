"""The view's fields say what docs/judge-api.md says they do (issue 36): ``seats[].silenced``
for every cause of silence, as the table is told it."""

from __future__ import annotations

from judge.game import Game, load_rules, new_game
from judge.overlay.public import public_view
from judge.panel.views import judge_view
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
