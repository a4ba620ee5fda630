"""The mafiaratings game format and the port of the platform's checks (``Game::check`` in its
include/game.php), on games built to its format (tests/data/mafiaratings, docs/exports.md).

Each test that breaks a game is named after the PHP check it ports and expects its message."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import msgspec
import pytest

from results import mafiaratings_format as fmt
from results.mafiaratings_check import check, gametime_issue
from tests.support.paths import REPO

DATA = REPO / "tests" / "data" / "mafiaratings"
FIXTURES = sorted(DATA.glob("*.json"))


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_round_trips_through_the_model(path: Path) -> None:
    text = path.read_text()
    assert json.loads(fmt.encode(fmt.decode(text))) == json.loads(text)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_accepted_whole(path: Path) -> None:
    report = check(json.loads(path.read_text()))
    assert (report.errors, report.issues) == ([], [])
    assert report.accepted


def test_there_are_fixtures_of_each_shape() -> None:
    features = {load(p.name)["features"] for p in FIXTURES}
    assert {"gsdutclhvknwr", "dtwr"} <= features


def test_model_refuses_a_wrong_type_naming_the_field() -> None:
    game = load("civ_win_split_kill_all.json")
    game["players"][0]["voting"] = ["five"]
    with pytest.raises(msgspec.ValidationError, match=r"players\[0\]\.voting"):
        fmt.decode(json.dumps(game))


def broken(name: str, change) -> list[str]:
    game = copy.deepcopy(load(name))
    change(game)
    report = check(game)
    return report.errors + report.issues


CIV = "civ_win_split_kill_all.json"
MAF = "maf_win_warnings_kick_out.json"


def test_check_players_must_be_ten() -> None:
    assert broken(CIV, lambda g: g["players"].pop()) == [
        "Field players must be an array of size 10 in the game."]


def test_check_game_result_counts_the_deck() -> None:
    def two_dons(g):
        g["players"][0]["role"] = "don"
    assert broken(CIV, two_dons) == ["This game has 5 civilians. Must be 6.",
                                     "This game has 2 dons. Must be 1."]


def test_check_game_result_refuses_an_unknown_role() -> None:
    def mafia(g):
        g["players"][0]["role"] = "mafia"
    assert broken(CIV, mafia) == ['Player 1 has invalid role "mafia". Role must be one of: '
                                  '"civ", "sheriff", "maf", or "don".']


def test_check_game_result_no_votes_after_death() -> None:
    def late_vote(g):
        g["players"][1]["voting"].append(6)
    assert "Player 2 is voting someone after he/she is dead." in broken(CIV, late_vote)


def test_check_game_result_a_red_does_not_shoot() -> None:
    def red_shot(g):
        g["players"][0]["shooting"] = [4]
    assert "Player 1 can not shoot because he/she is red." in broken(CIV, red_shot)


def test_check_game_result_legacy_only_after_a_first_night_kill() -> None:
    def day_legacy(g):
        g["players"][1]["legacy"] = [6, 8]
    assert broken(CIV, day_legacy) == [
        "Player 2 was not killed in night. he/she can not leave legacy."]


def test_check_deaths_every_shooter_picked_the_victim() -> None:
    def wrong_shot(g):
        g["players"][7]["shooting"] = [10, 3]
    assert "Wrong shooting to player 10 in round 2 for player 8. Because player 10was shot " \
           "in night 2." in broken(MAF, wrong_shot)


def test_check_deaths_nobody_is_shot_in_night_0() -> None:
    def night_zero(g):
        g["players"][8]["death"] = {"round": 0, "type": "night"}
        g["players"][8].pop("legacy")
    assert "Player 9 was shot in night 0. This is not possible." in broken(MAF, night_zero)


def test_check_deaths_kick_out_needs_its_moment() -> None:
    def no_time(g):
        del g["players"][6]["death"]["time"]
    assert broken(MAF, no_time) == ["Death time is not set for player 7."]


def test_check_deaths_refuses_an_unknown_death_type() -> None:
    def shot(g):
        g["players"][9]["death"]["type"] = "shot"
    assert broken(MAF, shot) == ['Player 10 has invalid death type "shot".']


def test_check_deaths_the_voted_out_is_the_vote_winner() -> None:
    def wrong_leaver(g):
        g["players"][2]["death"] = {"round": 1, "type": "day"}
    assert "Player 3 is specified as voted out in round 1. But accordiong to the voting " \
           "info, another player was voted out." in broken(CIV, wrong_leaver)


def test_check_nominations_a_dead_player_is_not_nominated() -> None:
    def dead_nominee(g):
        g["players"][4]["nominating"] = [None, 4]
    assert "Player 5 nominated dead player 4 in round 1." in broken(CIV, dead_nominee)


def test_check_nominations_the_dead_do_not_nominate() -> None:
    def dead_nominator(g):
        g["players"][9]["nominating"] = [None, None, 1]
    assert "Player 10 was dead when they nominated player 1 in round 2." in \
        broken(MAF, dead_nominator)


def test_check_shooting_the_dead_do_not_shoot() -> None:
    """The platform compares the death with the shot of round ``len - 1`` (its shooting list
    starts at night 1): one night past a day death passes there, two do not."""
    def one_night_late(g):
        g["players"][5]["shooting"] = [4, 1]

    def two_nights_late(g):
        g["players"][5]["shooting"] = [4, 1, 3]
    assert broken(CIV, one_night_late) == []
    assert "Player 6 was dead when they shot player 3 in round 2." in \
        broken(CIV, two_nights_late)


def test_check_vote_only_for_the_nominated() -> None:
    def not_nominated(g):
        g["players"][0]["voting"][1] = 7
    assert broken(CIV, not_nominated) == [
        "Player 1 voted for player 7, who is not nominated in round 1."]


def test_check_vote_not_for_the_dead() -> None:
    def for_the_dead(g):
        g["players"][0]["voting"][1] = 4
    assert "Player 1 voted for dead player 4 in round 1." in broken(CIV, for_the_dead)


def test_check_game_result_the_dead_do_not_vote() -> None:
    """The platform's voting check walks a player's rounds while they live; a vote rounds
    after their death is caught by the length of their list."""
    def dead_voter(g):
        g["players"][3]["voting"] += [None, 6]
    assert "Player 4 is voting someone after he/she is dead." in broken(CIV, dead_voter)


def test_check_voting_every_alive_player_votes() -> None:
    def abstained(g):
        g["players"][9]["voting"] = [[8, 8, False]]
    assert broken(CIV, abstained) == [
        "Player 10 did not vote in round 1. Although they were alive and voting was not "
        "canceled."]


def test_is_voting_canceled_a_removal_before_the_vote_cancels_it() -> None:
    """Round 1 of the mafia's win has nominations and no vote: seat 4's fourth warning in
    the speeches cancelled it. Without that removal everyone alive should have voted."""
    def no_removal(g):
        del g["players"][3]["death"]
        g["players"][3]["warnings"] = g["players"][3]["warnings"][:3]
    problems = broken(MAF, no_removal)
    assert "Player 2 did not vote in round 1. Although they were alive and voting was not " \
           "canceled." in problems


def test_check_voting_the_voted_out_are_dead() -> None:
    def survivor(g):
        del g["players"][5]["death"]
        g["players"][5]["shooting"] = [4]
    assert "Player 6 was voted out in round 1 but did not die." in broken(CIV, survivor)


def test_check_warnings_a_full_set_is_tied_to_a_death_only_in_its_error_branches() -> None:
    """The PHP takes the count that must match a death only where the count is wrong (out of
    range, clamped to 4): there it wants the player out by warnings. Four well-formed
    warnings of a living player pass (the real Game::check agrees, run on it). Warnings as
    counts (no "r") are check_warnings as written; the platform's cleanup_features, run first,
    calls count() on them, which PHP 8 refuses: the export always sends moments."""
    def out_of_range(g):
        g["features"] = "dtw"
        g["players"][8]["warnings"] = 5

    def day_death_with_too_many(g):
        g["features"] = "dtw"
        g["players"][1]["warnings"] = 7

    def four_and_alive(g):
        del g["players"][3]["death"]
    counts = "death_types_only.json"
    assert {"Player 9 warnings is set to incorect number 5.",
            "Player 9 has 4 warnings but they are not dead."} <= set(broken(counts, out_of_range))
    assert {"Player 2 warnings is set to incorect number 7.",
            "Player 2 has 4 warnings but their death type is day."} <= set(
        broken(counts, day_death_with_too_many))
    assert not [x for x in broken(MAF, four_and_alive) if "warnings" in x]


def test_check_warnings_counts_without_details_are_numbers() -> None:
    def listed(g):
        g["features"] = "dtw"
        g["players"][0]["warnings"] = [{"round": 0, "time": "speaking", "speaker": 1}]
    assert "Player 1 warnings is not a number." in broken("death_types_only.json", listed)


def test_check_warnings_details_are_moments() -> None:
    def counted(g):
        g["players"][0]["warnings"] = 2
    assert broken("death_types_only.json", counted) == ["Player 1 warnings is not an array."]


def test_check_features_each_detail_needs_its_letter() -> None:
    def undeclared(g):
        g["features"] = g["features"].replace("h", "")
    problems = broken(CIV, undeclared)
    assert problems == ['Player 6 has "shooting" but features lack "h".']


def test_check_features_death_shape_follows_the_letters() -> None:
    def object_death(g):
        g["players"][1]["death"] = {"type": "day"}
    assert broken("death_types_only.json", object_death) == [
        "Player 2 death {'type': 'day'} does not fit features \"dt\"."]


@pytest.mark.parametrize(("moment", "problem"), [
    ({"time": "speaking", "speaker": 1}, "round must be set."),
    ({"round": 1}, "time must be set."),
    ({"round": 1, "time": "lunch"}, 'incorrect time "lunch".'),
    ({"round": 1, "time": "speaking"}, 'speaker must be set when time is "speaking".'),
    ({"round": 1, "time": "voting"}, "votingRound must be set."),
    ({"round": 1, "time": "voting", "votingRound": 0, "nominee": 11},
     'incorect nominee "11" - it must be a number from 1 to 10.'),
    ({"round": 1, "time": "voting", "votingRound": 0, "nominee": 3}, None),
])
def test_check_gametime(moment: dict, problem: str | None) -> None:
    assert gametime_issue(moment) == problem
