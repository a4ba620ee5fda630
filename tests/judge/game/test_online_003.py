"""The online variant (003, «Правила мафии. Версия 0.7»; docs/rules/online-003.md) on the pure
engine with the table's events: each test is named after the book's paragraph it plays (a
paragraph is cited by its first words, the book having no headings), or after the digest's
reading where the book is silent. Every night here is played by ``private_night``, which holds
each input to the night's privacy (tests/support/night_privacy.py)."""

from __future__ import annotations

import csv
import io
import tomllib
from collections import Counter

import pytest

from judge.game import Action, Game, Refused, TableEvent, load_rules, new_game
from judge.game.book import BOOKS, preset_path
from judge.game.offers import offered
from judge.game.table import NO, YES
from judge.record import document as rec
from judge.record import sheet
from kit import i18n
from results import mafiaratings, scoring
from tests.support.judge_game import run, tap
from tests.support.night_privacy import Night, private_night
from tests.support.table_event import table_event

RULES = load_rules("online-003")
#: ten seats with every role the book's order of moves deals: 1 the boss, 2 and 3 mafia, 4 the
#: commissar, 5 the sergeant, 6 the doctor, 7 the maniac, 8 the kamikaze, 9 the journalist,
#: 10 an honest player
ROLES = ["boss", "mafia", "mafia", "commissar", "sergeant", "doctor", "maniac", "kamikaze",
         "journalist", "honest"]
ADDED = ["boss", "sergeant", "doctor", "maniac", "kamikaze", "journalist"]
ORDER = ("maniac_kill", "mafia_kill", "boss", "kamikaze", "doctor", "commissar_check",
         "journalist")


def result(**body) -> TableEvent:
    return table_event("event/vote/result", body)


def dealt(roles: list[str] = ROLES, added: list[str] = ADDED) -> Game:
    """The cards as the judge typed them; the silent acquaintance; day 1 opens."""
    game, _, _ = run(new_game(len(roles), rules=RULES), tap("deal", roles=roles, add=added),
                     tap("start"), tap("next"))
    assert game.stage == "day" and game.day == 1
    return game


def to_vote(game: Game) -> tuple[Game, list]:
    """Every speech of the day, then the vote (or the deciding vote) the judge's Next starts."""
    commands: list = []
    while game.stage == "day":
        game, more, _ = run(game, tap("next"))
        commands += more
    return game, commands


def to_night(game: Game) -> Game:
    """The day's speeches and a first vote that goes to night (nobody raises a hand)."""
    game, _ = to_vote(game)
    game, _, _ = run(game, result(outcome="night"))
    assert game.stage == "night"
    return game


def night_of(game: Game, picks: dict[str, dict[int, list[int]]]) -> Night:
    return private_night(game, picks)


# ------------------------------------------------------------------ the deck, the deal


@pytest.mark.parametrize(("players", "mafia"), [
    (7, 2), (8, 2), (9, 3), (10, 3), (12, 3), (13, 4), (15, 4), (16, 5), (19, 5), (20, 6),
    (22, 6), (23, 7), (24, 7)])
def test_online_003_otdelny_vopros_7_players_2_mafia_1_commissar_4_honest_and_the_share_beyond(
        players, mafia):
    """«Отдельный вопрос…»: "…7 игроков сбалансированным составом является 2 мафа - 1 ком -
    4 честных"; the other counts the digest's reading, ⌊2n/7 + ½⌋ mafia (§1)."""
    cards = Counter(RULES.book.deck_for(players).cards(players))
    assert cards == Counter(mafia=mafia, commissar=1, honest=players - mafia - 1)
    assert mafia == int(2 * players / 7 + 0.5)
    added = ADDED if players > 7 else ADDED[:-1]  # at 7, four honest cards: four to replace
    with_all = Counter(RULES.book.deck_for(players).cards(players, tuple(added)))
    assert with_all["boss"] == 1 and with_all["mafia"] == mafia - 1
    assert with_all["honest"] == players - mafia - 1 - (len(added) - 1)


def test_online_003_dlya_igry_neobhodimo_from_7_to_24_players():
    """«Для игры необходимо…»: "(от 7 до 24)"."""
    for seats in (6, 25):
        with pytest.raises(Refused, match="7 to 24, not"):
            new_game(seats, rules=RULES)


def test_online_003_pervy_hod_igry_the_game_opens_with_a_day_after_a_silent_acquaintance():
    """«Первый ход игры…»: "Первый ход игры - день"; the digest's reading for a table: the mafia,
    the commissar and the sergeant see each other once, with no move (no step opens)."""
    game, commands, lines = run(new_game(10, rules=RULES), tap("deal", roles=ROLES, add=ADDED),
                                tap("start"))
    assert game.stage == "night0" and game.night_steps == ()
    assert "«Для игры необходимо…»: the mafia, the commissar and the sergeant see each other " \
           "(60 s); no action" in lines
    game, commands, lines = run(game, tap("next"))
    assert game.stage == "day" and game.day == 1
    assert not [c for c in commands if c.spec.verb == "night/step"]


# ------------------------------------------------------------------ the night


def test_online_003_poryadok_hodov_nochyu_each_role_wakes_alone_in_the_books_order():
    """«Порядок ходов ночью…»: "МАНЬЯК, МАФИЯ, БОСС, ЯКУДЗА, КАМИКАДЗЕ, ВРАЧ, КОМИССАР,
    ЖУРНАЛИСТ" (the roles dealt); only the acting seats get the step, each answer only on its
    actor's indicator, and nothing of it public (``private_night``)."""
    game = to_night(dealt())
    assert game.night_steps == ORDER
    night = night_of(game, {"commissar_check": {4: [2]}, "journalist": {9: [1, 7]}})
    assert list(night.woke) == list(ORDER)
    assert night.woke == {"maniac_kill": [7], "mafia_kill": [2, 3], "boss": [1],
                          "kamikaze": [8], "doctor": [6], "commissar_check": [4],
                          "journalist": [9]}
    assert night.told == {"maniac_kill": [], "mafia_kill": [], "boss": [], "kamikaze": [],
                          "doctor": [], "commissar_check": [(4, YES)], "journalist": [(9, NO)]}
    assert night.game.stage == "day" and night.game.alive == tuple(range(1, 11))


def test_online_003_lyuboy_rolevoy_personazh_every_move_may_be_skipped():
    """«Любой ролевой персонаж…»: "имеет право не делать хода ночью": a night with no pick is
    a quiet morning."""
    night = night_of(to_night(dealt()), {})
    assert night.game.stage == "day" and len(night.game.alive) == 10
    assert "«Утром ведущий произносит…»: morning" in night.lines


def test_online_003_po_igrovoy_legende_the_mafia_who_name_someone_must_agree():
    """«По игровой легенде…»: "Ночью мафия убивает одного из жителей"; the digest's reading
    (FIIM 4.5.4-4.5.5): every mafioso who names someone names the same player; one who names
    nobody does not spoil it; the boss takes no part."""
    night = night_of(to_night(dealt()), {"mafia_kill": {2: [10]}})
    assert night.game.player(10).left == "shot"
    assert "«По игровой легенде…»: the mafia shot at seat 10" in night.lines
    night = night_of(to_night(dealt()), {"mafia_kill": {2: [10], 3: [9]}})
    assert len(night.game.alive) == 10
    assert "«Любой ролевой персонаж…»: the mafia missed: nobody is killed" in night.lines


def test_online_003_utrom_vedushchiy_the_morning_names_the_killers_the_frozen_the_patient():
    """«Утром ведущий произносит…»: the maniac's and the mafia's kills ("маньяк убил …,
    мафия убила …"), the boss's freeze ("заморозил"), the doctor's patient ("врач лечил Г");
    of the commissar only that he "проверил … документы"; "Роли убитых вскрываются". The
    journalist, the reading: only that he moved."""
    night = night_of(to_night(dealt()), {
        "maniac_kill": {7: [10]}, "mafia_kill": {2: [4], 3: [4]}, "boss": {1: [5]},
        "doctor": {6: [9]}, "commissar_check": {4: [7]}, "journalist": {9: [2, 3]}})
    assert night.morning == [
        "«Утром ведущий произносит…»: seat 10 was killed",
        "«Утром ведущий произносит…»: seat 4 was killed",
        "«Утром ведущий произносит…»: the maniac killed seat 10",
        "«Утром ведущий произносит…»: the mafia killed seat 4",
        "«Утром ведущий произносит…»: the doctor came to seat 9",
        "«Утром ведущий произносит…»: the commissar checked someone's papers",
        "«Утром ведущий произносит…»: the journalist made his move",
        "«Утром ведущий произносит…»: seat 5 is frozen for the day",
        "seat 10 leaves the game", "seat 4 leaves the game",
        "«Первый ход игры…»: day 2, seat 2 opens («Первый ход игры…» (reading: FIIM 4.3.2))"]
    game = night.game
    assert game.player(10).shown and game.player(4).shown  # "Роли убитых вскрываются"
    assert not game.player(7).shown and game.player(5).tags == ("frozen",)


def test_online_003_utrom_vedushchiy_a_save_is_not_told_apart_from_a_quiet_night():
    """The digest's reading of «Утром ведущий произносит…»: a kill the doctor undid is not
    named, only his visit ("врач лечил Г"); he may heal himself ("даже если врач лечил сам
    себя"), and the book sets no limit, so two nights running."""
    night = night_of(to_night(dealt()), {"mafia_kill": {2: [6], 3: [6]}, "doctor": {6: [6]}})
    assert night.game.player(6).in_game
    assert night.morning[:2] == ["«Утром ведущий произносит…»: morning",
                                 "«Утром ведущий произносит…»: the doctor came to seat 6"]
    night = night_of(to_night(night.game), {"mafia_kill": {2: [6]}, "doctor": {6: [6]}})
    assert night.game.player(6).in_game


def test_online_003_kamikaze_once_a_game_he_and_the_one_he_names_leave():
    """The kamikaze, named in «Порядок ходов ночью…» only; the digest's reading: "once a game
    names a player, and both die that night". His own seat is no move, and he keeps it."""
    night = night_of(to_night(dealt()), {"kamikaze": {8: [8]}})
    assert len(night.game.alive) == 10
    assert "«Порядок ходов ночью…»: the kamikaze: seat 8 is himself or out of the game: not " \
           "taken, his move is kept" in night.lines
    night = night_of(to_night(night.game), {"kamikaze": {8: [1]}})
    game = night.game
    assert game.player(1).left == game.player(8).left == "shot"
    assert game.player(1).shown and game.player(8).shown
    assert "«Порядок ходов ночью…»: the kamikaze: seat 8 takes seat 1 with him" in night.lines
    assert "«Утром ведущий произносит…»: the kamikaze killed seat 1" in night.lines
    assert "kamikaze" not in to_night(game).night_steps  # he is gone: no more moves


def test_online_003_kamikaze_the_doctor_saves_the_one_he_names_never_him():
    """The digest's edge case: "The kamikaze names a player the doctor heals: the player
    lives, the kamikaze dies"; the doctor healing the kamikaze himself saves nothing: his is
    no kill."""
    night = night_of(to_night(dealt()), {"kamikaze": {8: [2]}, "doctor": {6: [2]}})
    assert night.game.player(2).in_game and not night.game.player(8).in_game
    assert "«Утром ведущий произносит…»: the kamikaze killed seat 2" not in night.lines
    night = night_of(to_night(dealt()), {"kamikaze": {8: [2]}, "doctor": {6: [8]}})
    assert not night.game.player(2).in_game and not night.game.player(8).in_game


def test_online_003_kamikaze_a_surplus_or_out_pick_keeps_his_one_move():
    """A seat out of the game is no move (his move kept for a later night)."""
    game = to_night(dealt())
    night = night_of(game, {"mafia_kill": {2: [10], 3: [10]}})
    night = night_of(to_night(night.game), {"kamikaze": {8: [10]}})
    assert len(night.game.alive) == 9 and "kamikaze" in to_night(night.game).night_steps


def test_online_003_journalist_is_told_whether_two_players_are_on_one_side():
    """The journalist, named in «Порядок ходов ночью…» only; the digest's reading: "names two
    players each night and is told privately whether they are on the same side (mafia / not
    mafia)": the boss is mafia, the maniac is not."""
    cases = [([1, 2], YES, "the same side"), ([1, 4], NO, "different sides"),
             ([7, 4], YES, "the same side"), ([7, 3], NO, "different sides")]
    for pair, pattern, words in cases:
        night = night_of(to_night(dealt()), {"journalist": {9: pair}})
        assert night.told["journalist"] == [(9, pattern)]
        assert f"«Порядок ходов ночью…»: the journalist of {pair[0]}, {pair[1]}: " \
               f"{words}" in night.lines
    night = night_of(to_night(dealt()), {"journalist": {9: [4]}})
    assert night.told["journalist"] == []
    assert "«Порядок ходов ночью…»: the journalist: no check tonight (it names two players " \
           "in the game)" in night.lines


def test_online_003_po_igrovoy_legende_the_commissar_is_told_mafia_or_not():
    """«По игровой легенде…»: "комиссар проверяет документы"; the answer (reading FIIM 4.5.7)
    mafia or not: the boss mafia, the maniac not."""
    for seat, pattern in ((1, YES), (3, YES), (7, NO), (10, NO)):
        night = night_of(to_night(dealt()), {"commissar_check": {4: [seat]}})
        assert night.told["commissar_check"] == [(4, pattern)]


def test_online_003_sergeant_checks_once_the_commissar_is_out():
    """The sergeant, named only ("Дополнительными - врач, сержант"); the digest's reading: he
    has no move while the commissar plays, and checks from the night after he leaves."""
    night = night_of(to_night(dealt()), {"mafia_kill": {2: [4], 3: [4]},
                                         "commissar_check": {4: [1]}})
    assert night.woke["commissar_check"] == [4] and night.told["commissar_check"] == [(4, YES)]
    night = night_of(to_night(night.game), {"commissar_check": {5: [7]}})
    assert night.woke["commissar_check"] == [5] and night.told["commissar_check"] == [(5, NO)]


def test_online_003_utrom_vedushchiy_the_boss_freezes_no_speech_no_vote_no_last_word():
    """«Утром ведущий произносит…»: the boss "заморозил" one; the digest's reading, the classic
    club's freeze: the next day the frozen player does not speak or vote; accused, he has no
    last word, and may still be jailed."""
    night = night_of(to_night(dealt()), {"boss": {1: [10]}})
    game, commands = to_vote(night.game)
    [start] = [c.payload for c in commands if c.spec.verb == "vote/start"]
    assert start.nominees == list(range(1, 11)) and 10 not in start.voters
    game, _, lines = run(game, result(outcome="eliminated", eliminated=10))
    assert game.stage == "defence"
    game, commands, lines = run(game, tap("next"))
    assert "seat 10 is frozen: no speech today" in lines
    assert game.stage == "question" and [c.payload.voters for c in commands
                                         if c.spec.verb == "vote/question"] == [
        [1, 2, 3, 4, 5, 6, 7, 8, 9]]


# ------------------------------------------------------------------ the day


def test_online_003_dnevnoe_golosovanie_every_player_is_a_candidate_and_no_hand_is_for_night():
    """«Дневное голосование…»: "Каждый игрок выдвигает одну кандидатуру (можно воздержаться,
    … проголосовать за ночь)" ... "Если большинство голосов отдано за ночь, наступает
    ночь": no nominations; every player in the game a candidate; the table's ``night``."""
    game = dealt()
    with pytest.raises(Refused, match="no nominations in this round"):
        run(game, tap("next"), tap("nominate", seat=3))
    game, commands = to_vote(game)
    [start] = [c.payload for c in commands if c.spec.verb == "vote/start"]
    assert (start.nominees, start.voters, start.against_all, start.round) == (
        list(range(1, 11)), list(range(1, 11)), None, 1)
    game, _, lines = run(game, result(outcome="night"))
    assert game.stage == "night" and lines[0] == (
        "«Дневное голосование…»: most votes went to night: nobody is accused, night falls")


def test_online_003_dnevnoe_golosovanie_the_accused_last_word_then_za_protiv_jailed():
    """«Дневное голосование…»: "игрок, набравший большинство голосов, отправляется на скамью
    подсудимых. Ему предоставляется последнее слово, после чего проходит второе голосование"
    (for or against, "ПРОТИВ"); "Роль посаженного в тюрьму вскрывается"; no last words after."""
    game, _ = to_vote(dealt())
    game, _, lines = run(game, result(outcome="eliminated", eliminated=7))
    assert game.stage == "defence" and lines == [
        "«Дневное голосование…»: seat 7 has the most votes and is accused: the last word "
        "(60 s), then for or against jailing him"]
    game, commands, lines = run(game, tap("next"))
    assert game.floor == 7 and "seat 7 has the floor (excuse, 60 s)" in lines
    game, commands, lines = run(game, tap("next"))
    assert game.stage == "question" and game.vote.kind == "verdict"
    assert [(c.payload.subjects, c.payload.voters) for c in commands
            if c.spec.verb == "vote/question"] == [([7], list(range(1, 11)))]
    game, _, lines = run(game, table_event("event/vote/confirmed", {
        "candidate": 0, "count": 6, "voters": [1, 2, 3, 4, 5, 6]}))
    assert lines == ["«Дневное голосование…»: FOR: 6 votes"]
    game, commands, lines = run(game, result(kind="question", outcome="yes", yes_count=6,
                                             voters_count=10))
    assert game.stage == "night" and game.player(7).left == "voted_out"
    assert game.player(7).shown and "«Дневное голосование…»: the majority is FOR: seat 7 is " \
                                     "jailed" in lines


def test_online_003_dnevnoe_golosovanie_no_majority_for_the_accused_is_night():
    """The digest's reading of "большинство" in the verdict: more than half of the voters;
    an even split keeps him (the preset's ``question_tie = "no"``)."""
    game, _ = to_vote(dealt())
    game, _, _ = run(game, result(outcome="eliminated", eliminated=7), tap("next"), tap("next"))
    game, _, lines = run(game, result(kind="question", outcome="no", yes_count=5,
                                      voters_count=10))
    assert game.stage == "night" and game.player(7).in_game
    assert "«Дневное голосование…»: no majority FOR jailing seat 7: nobody is jailed, night " \
           "falls" in lines


def test_online_003_dnevnoe_golosovanie_a_tie_last_words_then_the_second_round_against_all():
    """«Дневное голосование…»: "двое и более игроков набрали одинаковое количество голосов,
    им предоставляется последнее слово, после чего проводится второй тур выборов: ...
    виртуальный кандидат «против всех». Набравший большинство голосов сажается в тюрьму"."""
    game, _ = to_vote(dealt())
    game, _, lines = run(game, result(outcome="tie", tied=[3, 9]))
    assert game.stage == "defence" and game.speakers == (3, 9)
    game, _, _ = run(game, tap("next"), tap("next"))
    game, commands, lines = run(game, tap("next"))
    [start] = [c.payload for c in commands if c.spec.verb == "vote/start"]
    assert (start.nominees, start.against_all, start.round) == ([3, 9], True, 2)
    assert lines[-1] == "«Дневное голосование…»: the second round on 3, 9 and «against all»"
    game, _, lines = run(game, table_event("event/vote/confirmed", {
        "candidate": 0, "count": 2, "voters": [1, 2]}))
    assert lines == ["«Дневное голосование…»: against all: 2 votes"]
    game, _, lines = run(game, result(outcome="eliminated", eliminated=9))
    assert game.player(9).left == "voted_out" and game.player(9).shown
    assert game.stage == "night"


@pytest.mark.parametrize(("outcome", "said"), [
    ({"outcome": "against_all"}, "most votes against all: nobody is jailed, night falls"),
    ({"outcome": "tie", "tied": [3, 9]}, "a tie again: the city cannot agree, nobody is jailed"),
    ({"outcome": "tie", "tied": [3, 0]}, "a tie again: the city cannot agree, nobody is jailed"),
    ({"outcome": "night"}, "more voted for nobody than for anyone: the city cannot agree"),
])
def test_online_003_dnevnoe_golosovanie_the_second_round_jails_nobody_when_they_cannot_agree(
        outcome, said):
    """«Дневное голосование…»: "Если в результате двух голосований жители не могут
    договориться, кого посадить, или же большинство голосов было отдано против всех, ...
    в тюрьму не отправляется никто, и наступает ночь"."""
    game, _ = to_vote(dealt())
    game, _, _ = run(game, result(outcome="tie", tied=[3, 9]), *[tap("next")] * 3)
    game, _, lines = run(game, result(**outcome))
    assert game.stage == "night" and len(game.alive) == 10
    assert lines[0].startswith(f"«Дневное голосование…»: {said}")


def test_online_003_esli_igrok_vyletaet_a_heart_attack_shows_the_role_no_fouls():
    """«Если игрок вылетает из игры…»: "объявить «гибель от инфаркта». Такой игрок прекращает
    игру, и … роль вскрывается" (the judge's disqualification); the book has no fouls."""
    game = dealt()
    with pytest.raises(Refused, match="gives no fouls"):
        run(game, tap("foul", seat=2))
    game, _, lines = run(game, tap("disqualify", seat=2, reason="инфаркт"))
    assert game.player(2).left == "disqualified" and game.player(2).shown
    assert lines == ["seat 2 is disqualified (инфаркт)"]


# ------------------------------------------------------------------ the end


PLAIN = ["mafia", "mafia", "mafia", "commissar", *["honest"] * 6]


def one_on_one(killed: int, later: int) -> Game:
    """Seats 2 (mafia) and 10 (honest) left at day 2's vote: day 1 the judge's heart attacks
    take out the other mafia and the honest but ``killed`` and ``later``; night 1 the mafia
    kill ``killed``; day 2 a heart attack takes out ``later``, the last honest player out."""
    game = dealt(PLAIN, [])
    for seat in (1, 3, 4, 5, 6, 7, 8, 9):
        if seat not in (killed, later):
            game, _, _ = run(game, tap("disqualify", seat=seat))
    game = night_of(to_night(game), {"mafia_kill": {2: [killed]}}).game
    game, _, _ = run(game, tap("disqualify", seat=later))
    assert game.alive == (2, 10) and game.stage == "day"
    return game


def test_online_003_esli_v_kontse_igry_the_last_honest_player_killed_casts_the_deciding_vote():
    """«Если в конце игры…»: "остается один маф и один честный, правом решающего голоса
    обладает последний убитый честный житель": the day's vote is his alone, the judge enters
    it (the last one out, by a heart attack, was not killed); the mafioso jailed: honest win."""
    game, commands = to_vote(one_on_one(killed=6, later=9))
    assert game.stage == "vote" and not [c for c in commands if c.spec.verb == "vote/start"]
    [offer] = [o for o in offered(game) if o.key == "deciding-vote"]
    assert offer.args == {"of": "vote", "decision": "deciding_vote"}
    assert offer.params[0].seats == [2, 10]
    assert str(offer.label) == "Deciding vote of seat 6: jail the selected"
    with pytest.raises(Refused, match="names one of 2, 10"):
        run(game, tap("choose", of="vote", decision="deciding_vote", value=5))
    game, _, lines = run(game, tap("choose", of="vote", decision="deciding_vote", value=2))
    assert game.stage == "over" and game.winner == "honest"
    assert "«Если в конце игры…»: seat 6's deciding vote: seat 2 is jailed" in lines


def test_online_003_esli_v_kontse_igry_the_deciding_vote_may_jail_the_honest_one():
    game, _ = to_vote(one_on_one(killed=9, later=4))
    assert [str(o.label) for o in offered(game) if o.key == "deciding-vote"] == [
        "Deciding vote of seat 9: jail the selected"]
    game, _, lines = run(game, tap("choose", of="vote", decision="deciding_vote", value=10))
    assert game.winner == "mafia" and lines[-1].startswith("«По игровой легенде…»: mafia wins")


def test_online_003_esli_v_kontse_igry_no_honest_killed_the_last_honest_out_decides():
    """The digest's reading where no honest player was ever killed at night: the last honest
    player out of the game in any way."""
    game = dealt(PLAIN, [])
    for seat in (1, 3, 4, 5, 6, 7, 8, 9):
        game, _, _ = run(game, tap("disqualify", seat=seat))
    game, _, lines = run(game, *[tap("next")] * 3)
    assert game.stage == "vote" and lines[-1] == (
        "«Если в конце игры…»: one mafioso and one honest player are left (2, 10): no honest "
        "player was killed; the deciding vote is seat 9's, the last honest player out")


def test_online_003_po_igrovoy_legende_no_parity_the_mafia_must_remove_every_honest_player():
    """«По игровой легенде…»: "мафия должна успеть убить всех честных": two mafiosi against one
    honest player play on; the honest win with no mafia and no maniac left."""
    game = dealt(PLAIN, [])
    for seat in (1, 5, 6, 7, 8, 9, 10):
        game, _, _ = run(game, tap("disqualify", seat=seat))
    assert game.stage == "day" and game.alive == (2, 3, 4)
    game, _, lines = run(game, tap("disqualify", seat=4))
    assert game.winner == "mafia"
    game = dealt()
    for seat in (1, 2, 3):
        game, _, _ = run(game, tap("disqualify", seat=seat))
    assert game.stage == "day"  # the maniac still plays: no honest win yet
    game, _, lines = run(game, tap("disqualify", seat=7))
    assert game.winner == "honest" and lines[-1].startswith("«По игровой легенде…»: honest wins")


def test_online_003_po_igrovoy_legende_the_maniac_wins_alone_or_one_on_one():
    """«По игровой легенде…»: "маньяк (если он есть в игре) должен убить вообще всех"; the
    digest's reading: also one on one with anyone (a day vote of two cannot jail him)."""
    game = dealt()
    for seat in (1, 2, 3, 4, 5, 6, 8, 9):
        game, _, _ = run(game, tap("disqualify", seat=seat))
    assert game.winner == "maniac" and game.alive == (7, 10)
    game = dealt()
    for seat in (1, 2, 3, 4, 5, 6, 8):
        game, _, _ = run(game, tap("disqualify", seat=seat))
    night = night_of(to_night(game), {"maniac_kill": {7: [9]}})
    assert night.game.winner == "maniac" and night.game.alive == (7, 10)


def test_online_003_po_igrovoy_legende_nobody_left_is_a_draw():
    """The digest's reading where the book is silent: the last three kill each other the same
    night (the maniac the mafioso, the mafioso the maniac, the kamikaze with one of them):
    nobody is left, a draw."""
    game = dealt(["mafia", "mafia", "commissar", "maniac", "kamikaze", "honest", "honest"],
                 ["maniac", "kamikaze"])
    for seat in (1, 3, 6, 7):
        game, _, _ = run(game, tap("disqualify", seat=seat))
    night = night_of(to_night(game), {"maniac_kill": {4: [2]}, "mafia_kill": {2: [4]},
                                      "kamikaze": {5: [2]}})
    assert night.game.alive == () and night.game.winner == "draw"
    assert night.lines[-1] == "«По игровой легенде…» (reading): a draw (0 mafia, 0 honest, " \
                              "0 maniac at the table)"


# ------------------------------------------------------------------ the book and its preset


def preset_raw() -> dict:
    return tomllib.loads(preset_path(RULES.book).read_text(encoding="utf-8"))


def test_online_003_the_presets_night_steps_are_the_books_kills_and_checks():
    """The table blocks a kill or a check on a seat whose standing says so: the preset names
    the book's own steps (not FIIM's), by what they do, and each step's surplus reading: a
    kill naming several is none (FIIM 4.5.5), every other move's first numbers stand
    (4.5.8)."""
    kinds = {"kill": "shot", "kamikaze": "shot", "check": "checked", "pair_check": "checked"}
    steps = RULES.book.night.steps
    night = preset_raw()["night"]
    assert night["steps"] == {s.name: kinds[s.mechanism] for s in steps if s.mechanism in kinds}
    assert night["surplus"] == {s.name: "void" if kinds.get(s.mechanism) == "shot" else "first"
                                for s in steps}
    assert RULES.timings.night_step == night["seconds"]


def test_online_003_the_book_says_none_of_its_presets_rules_again():
    """What the table decides is said in the preset only; the preset has no fouls standing the
    book lacks, and its votes need no window Next the panel does not send."""
    raw = preset_raw()
    book = tomllib.loads((BOOKS / "online-003.toml").read_text(encoding="utf-8"))
    for section in ("vote", "night", "day"):
        said_twice = set(book.get(section, {})) & set(raw.get(section, {}))
        assert said_twice <= {"steps"}, said_twice
    assert raw["standings"]["fouls"] == {"blocks": [], "rule": "003 has no fouls"}
    assert raw["vote"]["pacing"] == "auto" and "day" not in raw
    assert (RULES.preset.vote.leftover, RULES.preset.vote.abstain_wins) == ("abstain", True)
    assert not RULES.book.fouls.given and RULES.book.leaving.show_role
    assert RULES.book.leaving.last_words is None and RULES.book.unbuilt == ()


# ------------------------------------------------------------------ record, scores, export


def whole_game() -> list[tuple[Action | TableEvent, float]]:
    """Day 1 goes to night; night 1 every role moves; day 2 the heart attacks of the mafia and
    the maniac end it: the honest win."""
    inputs: list[Action | TableEvent] = [
        tap("deal", roles=ROLES, add=ADDED), tap("start"), tap("next"), *[tap("next")] * 11,
        result(outcome="night")]
    picks = {"maniac_kill": {7: [10]}, "mafia_kill": {2: [9], 3: [9]}, "boss": {1: [5]},
             "kamikaze": {8: [7]}, "doctor": {6: [9]}, "commissar_check": {4: [1]},
             "journalist": {9: [2, 4]}}
    for name in ORDER:
        inputs += [tap("next"), table_event("private/night/result", {
            "step": name, "missing": [],
            "picks": [{"actor": a, "picks": p} for a, p in picks[name].items()]})]
    inputs += [tap("next"), *[tap("disqualify", seat=s) for s in (1, 2, 3)]]
    return [(given, 1_764_577_800.0 + i) for i, given in enumerate(inputs)]


def test_online_003_the_record_holds_its_roles_and_every_nights_move():
    record = rec.build(whole_game(), "table-1", rules=RULES, seats=10)
    assert record.status == "finished" and record.winner == "honest"
    assert [(p.role, p.team) for p in record.players][:4] == [
        ("boss", "mafia"), ("mafia", "mafia"), ("mafia", "mafia"), ("commissar", "honest")]
    assert {p.seat: p.left.how for p in record.players if p.left} == {
        10: "shot", 7: "shot", 8: "shot", 1: "disqualified", 2: "disqualified",
        3: "disqualified"}
    [night] = record.nights
    assert [(a.step, a.mechanism, a.targets, a.outcome) for a in night.actions] == [
        ("maniac_kill", "kill", [10], "kill"), ("mafia_kill", "kill", [9], "kill"),
        ("boss", "mark", [5], "frozen"), ("kamikaze", "kamikaze", [7], "kamikaze"),
        ("doctor", "heal", [9], "heal"), ("commissar_check", "check", [1], "yes"),
        ("journalist", "pair_check", [2, 4], "different")]
    assert record.days[0].votes[0].kind == "accuse" and record.days[0].votes[0].outcome == "night"


def test_online_003_the_sheet_and_the_csv_show_its_cards_its_moves_and_against_all():
    """The protocol sheet and the CSV of a game of the book: its cards and sides, each night
    move as it went, and the second round's «против всех» named as such (not "yes")."""
    second_round = [
        tap("deal", roles=ROLES, add=ADDED), tap("start"), tap("next"), *[tap("next")] * 11,
        table_event("event/vote/confirmed", {"candidate": 3, "count": 4, "voters": [1, 2, 4, 5]}),
        table_event("event/vote/confirmed", {"candidate": 9, "count": 4,
                                             "voters": [6, 7, 8, 10]}),
        result(outcome="tie", tied=[3, 9]), *[tap("next")] * 3,
        table_event("event/vote/confirmed", {"candidate": 3, "count": 5,
                                             "voters": [1, 2, 4, 5, 6]}),
        table_event("event/vote/confirmed", {"candidate": 0, "count": 2, "voters": [7, 8]}),
        result(outcome="eliminated", eliminated=3)]
    record = rec.build([(g, 1_764_577_800.0 + i) for i, g in enumerate(second_round)],
                       "table-1", rules=RULES, seats=10)
    html = sheet.protocol(record, scoring.score(record, scoring.presets()["online-003"]),
                          scoring.presets()["online-003"].title, language="en")
    assert "<li class=\"ballot\">against all: <b>2</b> (7, 8)</li>" in html
    assert "Result: eliminated: 3 leaves" in html
    played = rec.build(whole_game(), "table-1", rules=RULES, seats=10)
    html = sheet.protocol(played, scoring.score(played, scoring.presets()["online-003"]),
                          scoring.presets()["online-003"].title, language="en")
    for move in ("maniac_kill: 7 → 10. <b>Kill 10</b>", "boss: 1 → 5. <b>Frozen 5</b>",
                 "kamikaze: 8 → 7. <b>Kamikaze 7</b>", "doctor: 6 → 9. <b>Heal 9</b>",
                 "journalist: 9 → 2, 4. <b>Different 2, 4</b>"):
        assert move in html, move
    rows = list(csv.DictReader(io.StringIO(sheet.results_csv(
        played, scoring.score(played, scoring.presets()["online-003"])))))
    assert [(r["role"], r["team"]) for r in rows][:2] == [("boss", "mafia"), ("mafia", "mafia")]
    assert {r["role"] for r in rows} == {*ROLES}


def test_online_003_the_scoring_preset_gives_the_winners_the_win_and_nothing_else():
    """The book gives no points (config/scoring/online-003.toml says so): the win, FIIM's
    point for the organiser to confirm; no best move, no fouls, no penalty for the heart
    attack."""
    preset = scoring.presets()["online-003"]
    record = rec.build(whole_game(), "table-1", rules=RULES, seats=10)
    scores = scoring.score(record, preset)
    assert [s.total for s in scores] == [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]
    assert all(s.best_move == s.penalty == s.compensation == 0 for s in scores)


def test_online_003_the_mafiaratings_export_is_refused_naming_the_cards_it_cannot_hold():
    record = rec.build(whole_game(), "table-1", rules=RULES, seats=10)
    with pytest.raises(mafiaratings.ExportRefused, match=(
            "cards the rating platform's format does not hold: boss, commissar, doctor, "
            "honest, journalist, kamikaze, maniac, sergeant")):
        mafiaratings.export(record)
    # by the book's own words in the reader's language (the sheet's), not by identifier
    with pytest.raises(mafiaratings.ExportRefused) as refused:
        mafiaratings.export(record, titles=RULES.book)
    said = i18n.render(refused.value.words, "ru")
    assert said.startswith("карты, которых нет в формате рейтинговой платформы: "), said
    assert "комиссар, " in said and "commissar" not in said and "kamikaze" not in said
