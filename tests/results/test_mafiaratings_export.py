"""The export of a game's record to mafiaratings' game JSON (results/mafiaratings.py),
judged by the port of the platform's own checks (results/mafiaratings_check.py)."""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from judge.record import document as rec
from kit import i18n
from results import mafiaratings as mr
from results import mafiaratings_format as fmt
from results.mafiaratings_check import check
from tests.support.mafiaratings_games import random_game
from tests.support.record_game import built, whole_game

FULL = "gsdutclhvknwr"


def exported(record: rec.Record, options: mr.Options | None = None) -> dict:
    return json.loads(mr.export_json(record, options or mr.Options()))


@pytest.fixture(scope="module")
def game() -> rec.Record:
    return built(whole_game().inputs)


def edited(record: rec.Record, **edit) -> rec.Record:
    return rec.apply_edits(record, [rec.Edit(at=1764578000.0, by="judge", **edit)])


def test_whole_game_exports_every_vote_shot_check_and_foul(game: rec.Record) -> None:
    """tests/support/record_game.py's game, round by round in the platform's counting (its day 0 is
    our day 1): day 0 seat 5 out 8:2; night 1 seat 7 shot, best move 1-2-3, the Don checks 4,
    the Sheriff 2; day 1 two ties 1-3 and "all leave?" yes by 4, 6, 8, 9, 10; night 2 seat 6
    shot by the lone mafioso, the Sheriff checks 8; day 2 seat 2 alone, voted out by all."""
    assert exported(game) == {
        "features": FULL, "winner": "civ", "startTime": 1764577806, "endTime": 1764577901,
        "players": [
            {"name": "Anna", "role": "don", "death": {"round": 1, "type": "day"},
             "voting": [5, [3, 3, False]], "nominating": [5], "shooting": [7]},
            {"name": "Boris", "role": "maf", "death": {"round": 2, "type": "day"},
             "sheriff": 1, "voting": [5, [1, 1, False], 2], "nominating": [6, 1],
             "shooting": [7, 6]},
            {"role": "maf", "death": {"round": 1, "type": "day"},
             "voting": [5, [3, 3, False]], "nominating": [None, 3], "shooting": [7]},
            {"name": "Dmitry", "role": "sheriff", "don": 1, "voting": [5, [1, 1, True], 2],
             "nominating": [None, None, 2]},
            {"death": {"round": 0, "type": "day"}, "voting": [6]},
            {"death": {"round": 2, "type": "night"}, "voting": [6, [1, 1, True]]},
            {"death": {"round": 1, "type": "night"}, "legacy": [1, 2, 3], "voting": [5]},
            {"warnings": [{"round": 0, "time": "speaking", "speaker": 2}], "sheriff": 2,
             "voting": [5, [1, 1, True], 2]},
            {"voting": [5, [3, 3, True], 2]},
            {"voting": [5, [3, 3, True], 2]},
        ]}
    assert check(exported(game)).accepted


def test_export_decodes_into_the_platform_model(game: rec.Record) -> None:
    data = mr.export_json(game)
    assert json.loads(fmt.encode(fmt.decode(data))) == json.loads(data)


def test_options_name_the_club_event_and_moderator(game: rec.Record) -> None:
    out = exported(game, mr.Options(club_id=1, event_id=7854, tournament_id=32,
                                    moderator_id=138, language="en"))
    assert (out["clubId"], out["eventId"], out["tournamentId"], out["moderator"],
            out["language"]) == (1, 7854, 32, {"id": 138}, "en")


def test_unfinished_game_is_refused_with_the_reason() -> None:
    halfway = built(whole_game().inputs[:60])
    assert halfway.status == "in_progress"
    with pytest.raises(mr.ExportRefused, match="not finished"):
        mr.export(halfway)


def test_abandoned_game_is_refused_with_its_reason() -> None:
    halfway = built(whole_game().inputs[:60])
    abandoned = edited(halfway, kind="abandon", reason="power cut")
    with pytest.raises(mr.ExportRefused, match="abandoned: power cut"):
        mr.export(abandoned)


def test_extra_points_are_the_bonus_and_their_reasons_the_comment(game: rec.Record) -> None:
    with_points = rec.apply_edits(game, [
        rec.Edit(kind="extra_points", at=1.0, by="judge", reason=reason,
                 after={"seat": 4, "points": points, "reason": reason, "by": "judge",
                        "at": 1.0})
        for points, reason in ((0.3, "found both mafiosi"), (0.2, "held the town"))])
    player = exported(with_points)["players"][3]
    assert (player["bonus"], player["comment"]) == (0.5, "found both mafiosi; held the town")
    assert check(exported(with_points)).accepted


def test_disqualification_is_a_kick_out_at_its_moment(game: rec.Record) -> None:
    """Seat 9 disqualified during seat 2's last words (day 3): a kick-out with its moment."""
    out = edited(game, kind="correction", reason="5.2.3", path="/players/8/left",
                 after={"how": "disqualified", "at": 1764577900.5, "day": 3, "night": 2,
                        "reason": "5.2.3"})
    player = exported(out)["players"][8]
    assert player["death"] == {"round": 2, "type": "kickOut", "time": {
        "round": 2, "time": "day kill speaking", "speaker": 2}}
    assert check(exported(out)).accepted


def test_votes_cast_after_a_departure_are_left_out_not_sent_half_true(game) -> None:
    """Seat 9 disqualified in day 3's speeches yet counted in its vote: the record's votes are
    not whole, so the export drops them and says so (no v, no k); the platform takes it."""
    out = edited(game, kind="correction", reason="5.2.3", path="/players/8/left",
                 after={"how": "disqualified", "at": 1764577892.5, "day": 3, "night": 2,
                        "reason": "5.2.3"})
    data = exported(out)
    assert data["features"] == FULL.replace("v", "").replace("k", "")
    assert data["players"][8]["death"]["time"] == {"round": 2, "time": "speaking",
                                                   "speaker": 9}
    assert all("voting" not in p for p in data["players"])
    assert check(data).accepted


def test_a_nomination_without_its_nominator_drops_nominating(game: rec.Record) -> None:
    out = edited(game, kind="correction", reason="the judge nominated",
                 path="/days/0/nominations/0/by", after=None)
    data = exported(out)
    assert "n" not in data["features"]
    assert all("nominating" not in p for p in data["players"])
    assert check(data).accepted


def test_a_victim_not_every_shooters_pick_drops_shooting(game: rec.Record) -> None:
    out = edited(game, kind="correction", reason="misread", path="/nights/0/shots/2/picks",
                 after=[8])
    data = exported(out)
    assert "h" not in data["features"]
    assert check(data).accepted


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(seed=8567, extra=[])  # seat 9 voted out, the last mafioso's fourth foul in 9's last words
@given(seed=st.integers(0, 2**32 - 1),
       extra=st.lists(st.tuples(st.integers(1, 10), st.integers(-20, 20)), max_size=3))
def test_any_finished_game_exports_to_a_game_the_platform_takes_whole(seed, extra) -> None:
    record = built(random_game(random.Random(seed)))
    record = rec.apply_edits(record, [
        rec.Edit(kind="extra_points", at=1.0, by="judge", reason=f"r{i}",
                 after={"seat": seat, "points": tenths / 10, "reason": f"r{i}",
                        "by": "judge", "at": 1.0})
        for i, (seat, tenths) in enumerate(extra)])
    if record.status != "finished":
        with pytest.raises(mr.ExportRefused, match="not finished"):
            mr.export(record)
        return
    data = exported(record)
    report = check(data)
    assert (report.errors, report.issues) == ([], [])
    assert data["features"] == FULL  # the table's own games hold every detail
    for rp, player in zip(record.players, data["players"], strict=True):
        assert len(player.get("warnings", [])) == len(rp.fouls)
        how = rp.left.how if rp.left else None
        if how is None and any(rp.seat in v.eliminated for d in record.days for v in d.votes):
            how = "voted_out"  # the win (1.4) came during their last words: still voted out
        assert player.get("death", {}).get("type") == {
            None: None, "voted_out": "day", "shot": "night", "fouls": "warnings"}[how]
    for day in record.days:  # every confirmed count is the sum of the exported votes
        votes = [v for v in day.votes if v.kind == "nominees" and v.ballots]
        for depth, vote in enumerate(votes):
            for ballot in vote.ballots:
                cast = [p["voting"][day.number - 1] for p in data["players"]
                        if len(p.get("voting", [])) >= day.number]
                cast = [v if isinstance(v, int) else v[depth] for v in cast
                        if v is not None and ((isinstance(v, int) and depth == 0)
                                              or (isinstance(v, list) and len(v) > depth
                                              and not isinstance(v[depth], bool)))]
                assert cast.count(ballot.candidate) == ballot.count


def test_export_json_is_the_models_encoding(game: rec.Record) -> None:
    assert msgspec.json.decode(mr.export_json(game)) == msgspec.to_builtins(mr.export(game))


def test_a_fourth_foul_before_the_last_words_is_at_them_and_the_vote_stands() -> None:
    """Random game 1163 (tests/support/mafiaratings_games.py): seat 8, voted out on day 3, takes a
    fourth foul before their last words begin. The platform's client dates a warning by the
    game's moment: "day kill speaking" of the leaver, after the vote, which stands."""
    record = built(random_game(random.Random(1163)))
    data = exported(record)
    seat8 = data["players"][7]
    assert seat8["death"] == {"round": 2, "type": "warnings"}
    assert seat8["warnings"][3] == {"round": 2, "time": "day kill speaking", "speaker": 8}
    assert check(data).accepted


def test_fiim_4_4_13_voted_out_when_the_game_ended_in_their_last_words() -> None:
    """Random game 1277: seat 1 is voted out on day 4 and, in their last words, seat 10's
    fourth foul ends the game (1.4). The vote put seat 1 out (1.4: the moment of removal is
    the vote): the record says they left, voted out on day 4, and the export says the same,
    as the platform (which marks the voted out at the vote) expects."""
    record = built(random_game(random.Random(1277)))
    left = record.players[0].left
    assert left is not None and (left.how, left.day) == ("voted_out", 4)
    data = exported(record)
    assert data["players"][0]["death"] == {"round": 3, "type": "day"}
    assert data["players"][9]["warnings"][3] == {"round": 3, "time": "day kill speaking",
                                                 "speaker": 1}
    assert check(data).accepted


def test_a_game_the_platform_would_throw_out_is_refused_with_its_words(game) -> None:
    """A correction that leaves seven black cards: the platform's check_game_result throws."""
    out = edited(game, kind="correction", reason="misdealt", path="/players/4/role",
                 after="mafia")
    with pytest.raises(mr.ExportRefused) as refused:
        mr.export(out)
    assert str(refused.value) == ("the rating platform would refuse this game: This game has "
                                  "5 civilians. Must be 6.; This game has 3 mafs. Must be 2.")
    # a Russian sheet reads it in Russian; the platform's own English stays the message's
    assert i18n.render(refused.value.words, "ru") == (
        "рейтинговая платформа не примет эту игру: мирных в игре: 5, а должно быть 6.; "
        "мафиози в игре: 3, а должно быть 2.")
    assert str(refused.value.words) == str(refused.value)


def test_every_refusal_of_the_export_reads_in_the_readers_language() -> None:
    halfway = built(whole_game().inputs[:60])
    for record, russian in (
            (halfway, "игра не окончена (победителя ещё нет); рейтинговая платформа принимает "
                      "только оконченные игры"),
            (edited(halfway, kind="abandon", reason="отключили свет"),
             "игра прервана: отключили свет; рейтинговая платформа принимает только оконченные "
             "игры"),
            (edited(halfway, kind="abandon", reason=rec.NEW_GAME),
             "игра прервана: начата новая игра; рейтинговая платформа принимает только "
             "оконченные игры")):
        with pytest.raises(mr.ExportRefused) as refused:
            mr.export(record)
        assert i18n.render(refused.value.words, "ru") == russian


def test_a_seat_checked_twice_keeps_the_first_night(game: rec.Record) -> None:
    """The platform keeps one night per checker and checked seat: the first check's."""
    out = edited(game, kind="correction", reason="misread", path="/nights/1/sheriff_check",
                 after={"by": 4, "target": 2, "answer": True})
    assert exported(out)["players"][1]["sheriff"] == 1
    assert "sheriff" not in exported(out)["players"][7]


def _mutations(data: dict) -> list[tuple[str, dict]]:
    """Ways to break an exported game that the platform always notices, with what it says."""
    found = []
    players = data["players"]
    for i, p in enumerate(players):
        death = p.get("death")
        if p.get("shooting"):
            civ = next(j for j, q in enumerate(players) if "role" not in q)
            broken = json.loads(json.dumps(data))
            broken["players"][i]["role"], broken["players"][civ]["role"] = "civ", p["role"]
            found.append((f"Player {i + 1} can not shoot because he/she is red.", broken))
        if death is not None and death["type"] == "day":
            broken = json.loads(json.dumps(data))
            broken["players"][i]["legacy"] = [1, 2, 3]
            found.append((f"Player {i + 1} was not killed in night. he/she can not leave "
                          "legacy.", broken))
        if death is not None:
            broken = json.loads(json.dumps(data))
            late = broken["players"][i].setdefault("nominating", [])
            late += [None] * (death["round"] + 1 - len(late)) + [1 if i else 2]
            found.append((f"Player {i + 1} is nominating someone after he/she is dead.",
                          broken))
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False))
def test_the_checks_notice_a_broken_export(seed, pick) -> None:
    """The checks are no rubber stamp: a game the exporter wrote, broken one way the platform
    always notices (a red who shoots, a best move after a day death, a nomination after death), is
    not taken whole; and the export reads back into the platform's model unchanged."""
    record = built(random_game(random.Random(seed)))
    assume(record.status == "finished")
    data = exported(record)
    assert json.loads(fmt.encode(fmt.decode(json.dumps(data)))) == data
    says, broken = pick.choice(_mutations(data))
    report = check(broken)
    assert says in report.issues
    assert not report.accepted


def test_a_voter_out_before_the_re_vote_still_gets_a_list() -> None:
    """Random game 185: on day 4 seat 1 votes, then is out before the re-vote. Written as a
    bare number before the later seats' lists for the same nominee, the platform's
    init_votings dies ("Cannot use a scalar value as an array"); a one-item list it reads."""
    data = exported(built(random_game(random.Random(185))))
    day4 = [p["voting"][3] if len(p.get("voting", [])) > 3 else None for p in data["players"]]
    assert day4 == [[1], None, None, None, None, [6, 6], [6, 6], None, [1, 6], None]
    assert check(data).accepted


def test_classic_000_a_game_of_its_cards_is_refused_naming_them(game: rec.Record) -> None:
    """The classic club's cards («СОБСТВЕННО О РОЛЯХ») are not the platform's four: refused
    with the reason, whoever won."""
    classic = ["godfather", "right_hand", "family", "chief", "joker", *["civilian"] * 5]
    players = [msgspec.structs.replace(p, role=r) for p, r in zip(game.players, classic,
                                                                   strict=True)]
    with pytest.raises(mr.ExportRefused, match="cards the rating platform's format does not "
                       "hold: chief, family, godfather, joker, right_hand"):
        mr.export(msgspec.structs.replace(game, players=players, winner="joker"))
