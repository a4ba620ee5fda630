"""The classic club's book (config/books/classic-000.toml; digest docs/rules/classic-000.md),
played on the pure engine with the table's events, each test named after the book's section.

Seats as dealt by ``ROLES``: 1 Godfather, 2 Right Hand, 3 family member, 4 joker, 5 Police
Chief, 6 Detective, 7 Doctor, 8 Maniac, 9 Laura, 10 civilian. Every night here is also checked
for privacy: the public view and every command but the step's own (to its actors) and their
private answers name no actor and no role.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from judge.game import Game, Refused, load_rules, new_game
from judge.game.end import win_check
from judge.game.state import set_player
from judge.game.table import NO, YES
from judge.overlay.public import public_view
from judge.overlay.view import overlay_view, remember
from judge.record import document as rec
from judge.record import sheet
from results import scoring
from tests.support.judge_game import night as play_night
from tests.support.judge_game import run, tap
from tests.support.table_event import table_event

ROLES = ["godfather", "right_hand", "family", "joker", "chief", "detective", "doctor", "maniac",
         "laura", "civilian"]
OPTIONAL = ["joker", "detective", "maniac", "laura"]
RULES = load_rules("classic-000")


def dealt() -> Game:
    game, _, _ = run(new_game(10, rules=RULES), tap("deal", roles=ROLES, add=OPTIONAL),
                     tap("start"))
    return game


def to_vote(game: Game) -> Game:
    while game.stage in ("night0", "day"):
        game, _, _ = run(game, tap("next"))
    assert game.stage == "vote"
    return game


def count(game: Game, candidate: int, voters: list[int]) -> tuple[Game, list, list[str]]:
    """The table proposes ``voters`` for ``candidate`` and the judge confirms."""
    game, _, _ = run(game, table_event("event/vote/proposed", {
        "candidate": candidate, "count": len(voters), "voters": voters, "leftover": []}))
    return run(game, tap("confirm"))


def result(**body) -> object:
    return table_event("event/vote/result", {"kind": "nominees", **body})


def to_night(game: Game) -> Game:
    """Through the day to a vote nobody is given (nobody leaves: «5. Голосование», reading)."""
    game = to_vote(game)
    game, _, _ = run(game, result(outcome="tie", tied=list(game.alive), counts=[]))
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    return game


def night(game: Game, picks: dict[str, dict[int, list[int]]]) -> tuple[Game, list, list[str]]:
    """Every step of tonight in turn with its actors' picks, checking the night's privacy."""
    return play_night(game, picks, assert_private)


def assert_private(game: Game, commands: list, actors: tuple[int, ...]) -> None:
    """Night privacy: the public view and the overlay name no role and no night pick, and no
    light is for anyone but the step's actors: only the step's own command names them (the
    table wakes them on their private indicators), only they get an answer (``night/reveal``)."""
    overlay = overlay_view(remember((), game, 0.0), 0.0, delay=0, secrets=False)
    for text in (repr(public_view(game)), repr(overlay)):
        assert not any(role in text for role in set(ROLES) - {"civilian"})
    for command in commands:
        verb = command.spec.verb
        assert verb != "night/reveal" or command.payload.seat in actors
        assert verb not in ("vote/start", "timer/start") or game.stage != "night" or \
            command.payload.seat is None


def steps_of(commands: list) -> dict[str, list[int]]:
    return {c.payload.step: c.payload.actors for c in commands if c.spec.verb == "night/step"}


def reveals(commands: list) -> list[tuple[int, int]]:
    return [(c.payload.seat, c.payload.pattern) for c in commands
            if c.spec.verb == "night/reveal"]


def test_classic_000_roles_the_deck_by_count_and_the_organisers_optional_cards():
    """«СОБСТВЕННО О РОЛЯХ» (the digest §1): FIIM's 3 in 10 family, a chief and a doctor; the
    joker, detective, maniac and Laura each in place of a civilian."""
    book = RULES.book
    plain = book.deck_for(10).cards(10)
    assert sorted(plain) == sorted(["godfather", "right_hand", "family", "chief", "doctor",
                                    *["civilian"] * 5])
    assert sorted(book.deck_for(10).cards(10, tuple(OPTIONAL))) == sorted(ROLES)
    assert book.deck_for(12).cards(12).count("family") == 2
    assert book.deck_for(24).cards(24).count("family") == 5


def test_classic_000_first_night_the_family_and_joker_meet_and_nobody_acts():
    """«Итак, после раздачи карточек…»: the first night is the meeting; no shot, no check."""
    game = dealt()
    assert game.stage == "night0"
    game, commands, lines = run(game, tap("next"))
    assert game.stage == "day" and not steps_of(commands) and game.acts == ()
    assert lines[0] == "«2. День»: morning"


def test_classic_000_regulation_the_day_is_the_discussion_then_30_s_each_then_every_player():
    """«3. Обсуждение», «4. Обвинение», «5. Голосование»: the whole table's five minutes, then
    each in turn for 30 s, no nominations; then every player in the game is a candidate."""
    game, _, _ = run(dealt(), tap("next"))
    game, commands, lines = run(game, tap("next"))
    assert lines == ["«3. Обсуждение»: the discussion: the whole table, 300 s"]
    assert commands[0].payload.kind == "discussion" and commands[0].payload.seat is None
    with pytest.raises(Refused):
        run(game, tap("nominate", seat=3))
    game = to_vote(game)
    assert game.vote.candidates == tuple(range(1, 11))


def test_classic_000_vote_the_judge_sets_the_order_and_most_votes_leaves_card_shown():
    """«5. Голосование»: "Порядок голосования определяет ведущий"; "наибольшее количество
    голосов покидает игру, перевернув карту"."""
    game, _, _ = run(dealt(), tap("next"))
    game, _, lines = run(game, tap("choose", of="vote", decision="vote_first", value=4))
    game = to_vote(game)
    assert game.vote.candidates == (4, 5, 6, 7, 8, 9, 10, 1, 2, 3)
    game, _, lines = run(game, result(outcome="eliminated", eliminated=1,
                                      counts=[{"candidate": 1, "count": 6}]))
    assert game.stage == "last_words"
    assert lines[0] == "«5. Голосование»: seat 1 has the most votes and leaves"


def test_classic_000_detective_his_vote_is_counted_where_the_chiefs_is():
    """«Детектив \\ Detective»: "ведущий все равно прибавляет голос тому, за кого проголосовал
    Шеф Полиции": the judge's confirm corrects the table's count."""
    game = to_vote(run(dealt(), tap("next"))[0])
    game, commands, lines = count(game, 1, [5, 9])  # the chief voted 1, the detective did not
    assert commands[0].spec.verb == "vote/correct"
    assert commands[0].payload.voters == [5, 6, 9]
    assert lines[-1].startswith("«Detective»: ")
    game, commands, _ = run(game, table_event("event/vote/confirmed", {
        "candidate": 1, "count": 3, "voters": [5, 6, 9], "leftover": [], "by": "correction"}))
    game, commands, lines = count(game, 2, [6, 7])  # the detective's own vote is taken off
    assert commands[0].payload.voters == [7]


def test_classic_000_vote_a_tie_is_the_russian_roulette_hidden_number_and_calls_in_turn():
    """«5. Голосование»: «Русскую рулетку»: the judge's hidden number 1-7, the tied call in
    vote order, no number twice; the caller of the number leaves as voted out."""
    game = to_vote(run(dealt(), tap("next"))[0])
    game, _, lines = run(game, result(outcome="tie", tied=[3, 8], counts=[
        {"candidate": 3, "count": 4}, {"candidate": 8, "count": 4}]))
    assert game.stage == "roulette"
    hidden = public_view(game)
    game, _, _ = run(game, tap("choose", of="vote", decision="roulette_number", value=5))
    assert {**public_view(game), "version": hidden["version"]} == hidden  # the number unseen
    game, _, lines = run(game, tap("choose", of="vote", decision="roulette_call", value=2))
    assert "seat 3" in lines[0]
    with pytest.raises(Refused):
        run(game, tap("choose", of="vote", decision="roulette_call", value=2))
    game, _, lines = run(game, tap("choose", of="vote", decision="roulette_call", value=5))
    assert "seat 8" in lines[0] and game.stage == "last_words"


def test_classic_000_godfather_decides_the_kill_and_the_jokers_pick_is_not_counted():
    """«Крестный Отец \\ Godfather»: "решает, кого ночью убивать"; «Joker \\ Джокер»: wakes
    with the family, his pick is not the family's."""
    game = to_night(run(dealt(), tap("next"))[0])
    game, commands, lines = night(game, {"family_kill": {1: [10], 2: [8], 4: [7]}})
    assert steps_of(commands)["family_kill"] == [1, 2, 3, 4]
    assert lines[1] == "«Godfather»: the family shot at seat 10"
    assert lines[-1] == "«2. День»: seat 10 was killed; a last minute"


def test_classic_000_right_hand_after_the_godfathers_death_takes_his_functions():
    """«Правая Рука \\ Johnny»: "После смерти Крестного Отца принимает его функции": the
    Godfather out, the Right Hand shows 8 and a family member 9 (the table marks the family's
    picks as differing): 8 is killed, not "the family missed"."""  # noqa: RUF002
    game = to_night(run(dealt(), tap("next"))[0])
    game = set_player(game, 1, in_game=False, left="voted_out")
    game, commands, lines = night(game, {"family_kill": {2: [8], 3: [9]}})
    assert steps_of(commands)["family_kill"] == [2, 3, 4]
    assert "«Godfather»: the family shot at seat 8" in lines
    assert game.leaving == (8,)


def test_classic_000_without_godfather_and_right_hand_the_family_agrees_the_joker_aside():
    """«Члены Семьи»: "убивают ночью"; with neither the Godfather nor the Right Hand the family
    members must agree (the digest's reading), and the joker pointing elsewhere does not spoil
    it («Joker \\ Джокер»: "Мафия не знает кто из них Джокер")."""
    game = to_night(run(dealt(), tap("next"))[0])
    for seat in (1, 2):
        game = set_player(game, seat, in_game=False, left="voted_out")
    game, _, lines = night(game, {"family_kill": {3: [9], 4: [10]}})
    assert "«Godfather»: the family shot at seat 9" in lines and game.leaving == (9,)


def test_classic_000_police_chief_kills_the_player_his_check_found_the_next_night():
    """«Шеф Полиции \\ Police Chief»: "если угадал, следующей ночью может его убить": the
    check answers privately, and the next night his kill replaces the check; only on the
    player found."""  # noqa: RUF002
    game = to_night(run(dealt(), tap("next"))[0])
    game, commands, _ = night(game, {"chief_check": {5: [3]}})
    assert "chief_check" in steps_of(commands) and "chief_kill" not in steps_of(commands)
    assert reveals(commands) == [(5, reveals(commands)[0][1])]
    game = to_night(game)
    game, commands, lines = night(game, {"chief_kill": {5: [3]}})
    steps = steps_of(commands)
    assert steps["chief_kill"] == [5] and "chief_check" not in steps
    assert lines[-1] == "«2. День»: seat 3 was killed; a last minute"


def test_classic_000_police_chief_his_kill_is_void_when_the_player_found_left_meanwhile():
    """«Шеф Полиции \\ Police Chief»: "может его убить": the kill is of the player found; one
    removed by the judge while the chief's step runs (a disqualification at night) is out
    already, and the chief's pick of him kills nobody (the property test found the step acting
    on a player no longer in the game)."""  # noqa: RUF002
    game = to_night(run(dealt(), tap("next"))[0])
    game, _, _ = night(game, {"chief_check": {5: [3]}})
    game = to_night(game)
    while game.running_step != "chief_kill":  # the steps before it open, and nobody picks
        game, _, _ = run(game, tap("next") if game.running_step is None else table_event(
            "private/night/result", {"step": game.running_step, "missing": [], "picks": []}))
    game, _, _ = run(game, tap("disqualify", seat=3))
    assert 3 not in game.alive
    game, _, lines = run(game, table_event("private/night/result", {
        "step": "chief_kill", "missing": [], "picks": [{"actor": 5, "picks": [3]}]}))
    act = next(a for a in game.acts if a.step == "chief_kill")
    assert (act.outcome, act.targets) == ("miss", ())
    assert any("kills nobody tonight" in line for line in lines)


def test_classic_000_police_chief_a_not_mafia_answer_opens_no_kill_and_the_joker_is_not_mafia():
    """«Joker \\ Джокер»: "под прикрытием": the chief's check calls him not mafia."""
    game = to_night(run(dealt(), tap("next"))[0])
    game, commands, lines = night(game, {"chief_check": {5: [4]}})
    assert any("not mafia" in line for line in lines)
    game, commands, _ = night(to_night(game), {})
    assert "chief_check" in steps_of(commands) and "chief_kill" not in steps_of(commands)


def test_classic_000_doctor_saves_from_the_chiefs_kill_too():
    """«Семейный Врач \\ Doctor»: "если, например, мафия в него стреляла" (the digest reads
    "например": every kill of the night)."""
    game = to_night(run(dealt(), tap("next"))[0])
    game, _, _ = night(game, {"chief_check": {5: [3]}})
    game, _, _ = night(to_night(game), {"chief_kill": {5: [3]}, "doctor": {7: [3]}})
    assert game.stage == "day" and game.player(3).in_game


def test_classic_000_laura_her_freeze_finds_the_right_hand_and_she_may_go_over():
    """«Laura \\ Лаура»: the frozen is silent, votes not; her freeze on the Right Hand is
    answered yes on her indicator, and the judge asks whose side she plays."""
    game = to_night(run(dealt(), tap("next"))[0])
    game, commands, lines = night(game, {"laura": {9: [10]}})
    assert reveals(commands) == [(9, NO)] and 10 not in game.voters
    assert "«Laura»: seat 10 is not the Right Hand: Laura is shown no" in lines
    game, commands, lines = night(to_night(game), {"laura": {9: [2]}})
    assert reveals(commands) == [(9, YES)] and 2 not in game.voters
    assert ("«Laura»: seat 2 is the Right Hand: Laura found it; the judge shows her "
            "the whole mafia, the joker included: 1, 2, 3, 4") in lines


def test_classic_000_laura_going_over_counts_her_black_at_once():
    """«Laura \\ Лаура»: "Или переходит на сторону мафии": the judge's answer for her."""
    game = to_night(run(dealt(), tap("next"))[0])
    while game.running_step != "laura":
        game, _, _ = run(game, tap("next"))
        if game.running_step not in (None, "laura"):
            game, _, _ = run(game, table_event("private/night/result", {
                "step": game.running_step, "missing": [], "picks": []}))
    game, _, lines = run(game, table_event("private/night/result", {
        "step": "laura", "missing": [], "picks": [{"actor": 9, "picks": [2]}]}))
    assert "«Laura»" in lines[-1]
    with pytest.raises(Refused):
        run(game, tap("choose", of="laura", decision="laura_over", value="yes"))
    game, _, lines = run(game, tap("choose", of="laura", decision="laura_over", value=True))
    assert game.team(9) == "black"
    with pytest.raises(Refused):
        run(game, tap("choose", of="laura", decision="laura_stays", value=False))


@pytest.mark.parametrize(("out", "winner"), [
    ((1, 2, 3, 5, 6, 7, 8, 9), "joker"),   # the joker with civilians only
    ((1, 2, 3, 4), "red"),                 # no black and no joker's win
    ((5, 6, 7, 8, 9, 10), "black"),        # parity: 3 black against the joker
])
def test_classic_000_every_win_of_the_book(out, winner):
    """«Joker \\ Джокер» ("одни мирные с ним за одним столом"), «ПРАВИЛА ИГРЫ» ("вычислить и
    устранить другую") and black's parity (reading: FIIM 1.4)."""
    game = replace(dealt(), stage="day")
    for seat in out:
        game = set_player(game, seat, in_game=False)
    over = win_check(game)
    assert over is not None and over.game.winner == winner


def test_classic_000_accusation_an_opener_taken_out_in_the_discussion_passes_the_floor_on():
    """«4. Обвинение»: "каждый игрок по кругу" from the day's opener; the opener disqualified
    during «3. Обсуждение», the round starts from the next seat in the game (FIIM 4.3.2's
    reading: an empty seat is passed on)."""
    game, _, _ = run(dealt(), tap("next"), tap("next"), tap("disqualify", seat=1))
    game, _, lines = run(game, tap("next"), tap("next"))
    assert lines[-1] == "seat 2 has the floor (speech, 30 s)"


def test_classic_000_the_record_the_csv_and_the_sheet_hold_its_roles_and_night_actions():
    """The record of a classic game (docs/record.md): its cards and sides, the chief's kill and
    Laura's found freeze as the night's actions, red's win; the CSV and the protocol sheet show
    them."""
    journal: list = []

    def given(game: Game, *inputs) -> Game:
        journal.extend(inputs)
        return run(game, *inputs)[0]

    def answered(game: Game, picks: dict[str, dict[int, list[int]]]) -> Game:
        while game.stage == "night":
            game = given(game, tap("next"))
            if game.running_step is not None:
                game = given(game, table_event("private/night/result", {
                    "step": game.running_step, "missing": [], "picks": [
                        {"actor": a, "picks": p} for a, p in
                        picks.get(game.running_step, {}).items()]}))
        return game

    def out(game: Game, seat: int) -> Game:
        while game.stage != "vote":
            game = given(game, tap("next"))
        game = given(game, result(outcome="eliminated", eliminated=seat,
                                  counts=[{"candidate": seat, "count": 6}]))
        while game.stage != "night":
            game = given(game, tap("next"))
        return game

    game = given(new_game(10, rules=RULES), tap("deal", roles=ROLES, add=OPTIONAL),
                 tap("start"), tap("next"))
    game = answered(out(game, 1), {"chief_check": {5: [3]}, "laura": {9: [2]}})
    game = answered(out(game, 2), {"chief_kill": {5: [3]}})
    while game.stage == "last_words":
        game = given(game, tap("next"))
    assert game.winner == "red"

    record = rec.build(((g, float(i)) for i, g in enumerate(journal)), "table-1", RULES, 10)
    assert record is not None and record.rules == "classic-000" and record.winner == "red"
    assert [(p.role, p.team) for p in record.players][:4] == [
        ("godfather", "black"), ("right_hand", "black"), ("family", "black"), ("joker", "joker")]
    done = {(n.number, a.step): (a.outcome, a.targets) for n in record.nights for a in n.actions}
    assert done[(1, "chief_check")] == ("yes", [3])
    assert done[(1, "laura")] == ("found", [2])
    assert done[(2, "chief_kill")] == ("kill", [3])
    scores = scoring.score(record, scoring.presets()["classic-000"])
    csv = sheet.results_csv(record, scores)
    assert ",laura,red," in csv and ",joker,joker," in csv
    html = sheet.protocol(record, scores, scoring.presets()["classic-000"].title)
    assert "chief_kill: 5 → 3. <b>Kill 3</b>" in html and "<b>Found 2</b>" in html
