# ruff: noqa: RUF002 (the book quoted in Russian, whose letters look Latin)
"""The Crow Club's book (config/books/crow-club.toml, digest docs/rules/crow-club.md) on the pure
engine with table events: each test named after the book's section («…», the book has no
numbers) it plays. Seats as ``ROLES`` deals them at 13 (the maniac's first size): 1 the Don,
2-3 mafia, 4 the maniac, 5 the doctor, 6 the sheriff, 7 the paranoid, 8 the firefighter (the
organiser's card), 9-13 civilians."""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from dataclasses import replace

import pytest

from judge.game import Action, Game, Previous, Refused, load_rules, new_game, step
from judge.game.end import before_night, win_check
from judge.game.offers import offered
from judge.game.state import set_player
from judge.record import document as rec
from judge.record.previous import previous
from judge.record.sheet import protocol, results_csv
from results import mafiaratings as mr
from results import scoring
from tests.support.book_play import BookPlay
from tests.support.judge_game import night, result, run, tap

RULES = load_rules("crow-club")
ROLES = ["don", "mafia", "mafia", "maniac", "doctor", "sheriff", "paranoid", "firefighter",
         *["civilian"] * 5]


def dealt(roles: list[str] = ROLES, **setup) -> Game:
    game, _, _ = run(new_game(len(roles), rules=RULES),
                     tap("deal", roles=roles, add=["firefighter"]), *(
                         tap("choose", of=of, decision=of, value=value)
                         for of, value in setup.items()))
    return game


def to_night(game: Game) -> Game:
    if game.stage == "setup":
        game, _, _ = run(game, tap("start"))
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    return game


def shot(seat: int, by: tuple[int, ...] = (1, 2, 3)) -> dict[int, list[int]]:
    return {a: [seat] for a in by}


def steps(commands: list) -> list[tuple[str, list[int]]]:
    return [(c.payload.step, c.payload.actors) for c in commands if c.spec.verb == "night/step"]


@pytest.mark.parametrize(("seats", "blacks", "maniac", "thief"), [
    (7, 2, 0, 0), (10, 3, 0, 0), (12, 3, 0, 0), (13, 3, 1, 0), (14, 4, 1, 0), (16, 4, 1, 1),
    (18, 5, 1, 1), (24, 6, 1, 1)])
def test_crow_club_standard_deck_maniac_after_12_thief_after_15_blacks_one_in_four(
        seats, blacks, maniac, thief):
    """«Стандартно мы играем…»: the maniac after 12 players, the thief after 15, the mafia a
    quarter of the table rounded half up (the digest's reading of "1:3"), a doctor, a sheriff
    and a paranoid always."""
    deck = Counter(RULES.book.deck_for(seats).cards(seats))
    assert deck["don"] + deck["mafia"] == blacks and deck["don"] == 1
    assert (deck["maniac"], deck["thief"]) == (maniac, thief)
    assert deck["doctor"] == deck["sheriff"] == deck["paranoid"] == 1


def test_crow_club_wake_order_only_the_acting_seats_wake_in_the_books_order():
    """«порядок пробуждения…»: the Don's shot (the mafia wake, the Don decides), the maniac, the
    doctor's heal then his poison, the sheriff, the firefighter, and the paranoid only the night
    he is shot; «Маньяк»: the sheriff's check of the maniac answers red; «Доктор»: the heal takes
    back the maniac's kill; «Параноик»: the shot paranoid takes one with him."""
    game = to_night(dealt())
    game, commands, lines = night(game, {
        "mafia_shot": shot(7), "maniac_kill": {4: [9]}, "doctor": {5: [9]},
        "sheriff_check": {6: [4]}, "firefighter": {8: [10]}, "paranoid": {7: [2]}})
    assert steps(commands) == [("mafia_shot", [1, 2, 3]), ("maniac_kill", [4]), ("doctor", [5]),
                               ("doctor_poison", [5]), ("sheriff_check", [6]),
                               ("firefighter", [8]), ("paranoid", [7])]
    assert "«Шериф»: sheriff check of seat 4: red" in lines
    assert "«Параноик»: paranoid's revenge: takes seat 2 with him" in lines
    assert game.stage == "last_words" and game.leaving == (7, 2)
    assert game.player(9).in_game and game.player(10).tags == ("silenced",)
    assert "«порядок пробуждения…»: shots were fired tonight, but the ambulance came in time" \
        in lines


def test_crow_club_don_the_don_decides_and_may_shoot_his_own_who_leaves_without_testament():
    """«Дон Мафии»: "У него перстень, он решает": the Don's number stands over the mafia's; his
    own mafioso shot leaves with no last words (the digest's reading of "без завещания")."""
    game = to_night(dealt())
    game, _, lines = night(game, {"mafia_shot": {1: [3], 2: [9], 3: [10]}})
    assert "«Дон Мафии»: the Don shot at seat 3" in lines
    assert not game.player(3).in_game and game.stage == "day"
    assert "«После голосование стол покидает…»: seat 3 was killed" in lines


def test_crow_club_don_the_dons_3_leaves_though_the_whole_mafia_shoots_6():
    """«Дон Мафии»: "Если вся команда мафии ночью стреляет в игрока номер 6, а Дон показывает 3,
    Покинет стол 3." The table marks the three picks as differing; the Don's stands (3 is
    a mafioso here, who leaves "без завещания")."""
    game = to_night(dealt())
    game, _, lines = night(game, {"mafia_shot": {1: [3], 2: [6], 3: [6]}})
    assert "«Дон Мафии»: the Don shot at seat 3" in lines
    assert not game.player(3).in_game and game.player(6).in_game and game.stage == "day"


def test_crow_club_don_may_miss_though_the_mafia_agree():
    """«Дон Мафии»: "Дон может при желании или если этого требуют обстоятельства сделать
    промах": the Don shows nothing, his two mafia agree on 10: nobody is killed."""
    game = to_night(dealt())
    game, _, lines = night(game, {"mafia_shot": {2: [10], 3: [10]}})
    assert "«Дон Мафии»: the Don missed: nobody is killed" in lines
    assert game.player(10).in_game


def test_crow_club_don_the_departed_don_names_the_next_before_the_shot():
    """«Дон Мафии»: "Дон может назначить следующего дона после своего ухода … во время следующей
    ночи": the Don shot by the maniac wakes the next night alone and names seat 2, who decides
    the shot from then on."""
    game = to_night(dealt())
    game, _, _ = night(game, {"maniac_kill": {4: [1]}})
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    game, commands, _ = night(game, {"don_successor": {1: [2]},
                                     "mafia_shot": {2: [11], 3: [12]}})
    assert steps(commands)[:2] == [("don_successor", [1]), ("mafia_shot", [2, 3])]
    assert game.player(2).acts == "don" and game.player(2).role == "mafia"
    assert game.leaving == (11,) and game.player(12).in_game


def test_crow_club_doctor_one_poison_a_game_on_a_night_he_may_also_heal():
    """«Доктор»: "доктор может отравить одного из игроков, один раз за всю игру. В ночь когда
    доктор решит кого-то травить, он так же может лечить": night 1 he heals 9 and poisons 11;
    night 2 his poison step does not wake him."""
    game = to_night(dealt())
    game, _, lines = night(game, {"doctor": {5: [9]}, "doctor_poison": {5: [11]}})
    assert game.leaving == (11,) and "«Доктор»: doctor's heal of seat 9" in lines
    while game.stage != "night":
        game, _, _ = run(game, tap("next"))
    _, commands, _ = night(game, {})
    assert "doctor_poison" not in dict(steps(commands))


def test_crow_club_immortal_survives_the_night_and_the_morning_says_nothing():
    """«Бессмертный»: "Убрать его со стола можно только во время дневного голосования или по
    фоллам": the Don's shot at him is a plain miss."""
    roles = [*ROLES[:8], "immortal", *["civilian"] * 4]
    game, _, _ = run(new_game(13, rules=RULES),
                     tap("deal", roles=roles, add=["firefighter", "immortal"]))
    game = to_night(game)
    game, _, _ = night(game, {"mafia_shot": shot(9)})
    assert game.player(9).in_game and game.stage == "day"


def test_crow_club_immunity_not_nominated_on_day_1_not_shot_on_night_1_then_over():
    """«Иммунитет у игрока…»: "отсутствие возможности поднять его в первый день, а так же как
    либо отстрелить/отравить в первую ночь"; "Иммунитет не переносится на следующий игровой
    день"."""
    game = dealt(immunity=[9])
    assert game.player(9).immune
    game, _, _ = run(game, tap("start"), tap("next"))
    while game.round == 0:
        game, _, _ = run(game, tap("next"))
    with pytest.raises(Refused, match="seat 9 is immune: not nominated on day 1"):
        run(game, tap("nominate", seat=9))
    game = to_night(game)
    game, _, lines = night(game, {"mafia_shot": shot(9), "doctor_poison": {5: [9]}})
    assert game.player(9).in_game and not game.player(9).immune
    assert "«Иммунитет у игрока…»: immunity over: 9" in lines


def test_crow_club_firefighter_a_foul_while_silenced_shows_the_card_at_once():
    """«Пожарный»: "фолл при тушении это незамедлительное вскрытие карты": the silenced seat's
    first foul takes him out with his card shown."""
    game = to_night(dealt())
    game, _, _ = night(game, {"firefighter": {8: [10]}})
    assert game.player(10).tags == ("silenced",)
    game, _, _ = run(game, tap("foul", seat=10))
    assert not game.player(10).in_game and game.player(10).shown
    assert game.player(10).left == "fouls"


def test_crow_club_firefighter_killed_he_names_three():
    """«Пожарный»: "При убийстве Пожарного, ведущий будит его ночью и пожарный выбирает 3х
    игроков, которые будут потушены после его ухода"."""
    game = to_night(dealt())
    game, commands, _ = night(game, {"mafia_shot": shot(8), "firefighter": {8: [9, 10, 11]}})
    step = next(c.payload for c in commands if c.spec.verb == "night/step"
                and c.payload.step == "firefighter")
    assert step.picks == 3
    assert [p.seat for p in game.players if "silenced" in p.tags] == [9, 10, 11]


def three_left(game: Game, seats: tuple[int, ...]) -> Game:
    game = replace(game, stage="day", day=3)
    for p in game.players:
        if p.seat not in seats:
            game = set_player(game, p.seat, in_game=False, left="voted_out")
    return game


def test_crow_club_guess_three_left_no_night_the_maniac_wins_one_on_one_with_a_black():
    """«Угадайкой называется…»: three left is the «угадайка»: no night, a new day; «Победа
    маньяка»: "выигрывает тогда, когда остается 1х1 с кем то на "угадайке", даже если маньяк
    остался 1х1 с черным"."""
    game = three_left(to_night(dealt()), (1, 4, 9))
    decided = before_night(game)
    assert decided is not None and decided.game.stage != "over"
    assert decided.then is not None and decided.then.to == "new_day"
    two = set_player(game, 9, in_game=False, left="voted_out")
    over = win_check(two)
    assert over is not None and over.game.winner == "maniacs"


def test_crow_club_critical_a_day_ends_with_the_reds_one_more_and_no_maniac_black_wins():
    """«Критикой называется…»: "4 мафии, 6 мирных жителей. - В этом случае при поднятии мирного
    жителя и при отсутствии за столом маньяков, ночь не наступает": after the vote, 3 blacks
    against 4 reds, no maniac: black wins without the night; with the maniac in, night falls."""
    game = to_night(dealt())
    left = three_left(game, (1, 2, 3, 5, 6, 9, 10))
    decided = before_night(left)
    assert decided is not None and decided.game.winner == "black"
    with_maniac = three_left(game, (1, 2, 3, 4, 5, 6, 9, 10))
    assert before_night(with_maniac) is None


def test_crow_club_victories_the_maniac_counts_against_the_blacks_parity():
    """«Победа мафии(черных)», «Победа мирных (красных)»: the maniac counts with the reds
    against the blacks (the digest's reading of "Пока маньяк в игре, игра не закончится победой
    мафии"); the reds win when no black and no maniac is left; «Критикой
    называется…»: "2 маньяка, 3 мирных жителя": the maniac at parity with the reds wins once
    no black is left."""
    game = to_night(dealt())
    assert win_check(three_left(game, (1, 2, 4, 9, 10))) is None  # 2 blacks, 3 others
    # "даже если среди красных затесался маньяк, он всё равно проиграл"
    assert win_check(three_left(game, (1, 2, 4, 9))).game.winner == "black"
    assert win_check(three_left(game, (5, 6, 9, 10))).game.winner == "red"
    assert win_check(three_left(game, (4, 9))).game.winner == "maniacs"


def day_two_vote(nominees: tuple[int, ...]) -> Game:
    """Night 1 passes with nobody acting; on day 2 the ``nominees`` are put up and voted."""
    game, _, _ = night(to_night(dealt()), {})
    game, _, _ = run(game, tap("next"), *(tap("nominate", seat=s) for s in nominees))
    while game.stage == "day":
        game, _, _ = run(game, tap("next"))
    assert game.stage == "vote"
    return game


def counts(**by_seat: int) -> list[dict]:
    return [{"candidate": int(seat[1:]), "count": n} for seat, n in by_seat.items()]


def test_crow_club_fork_level_or_two_apart_is_spoken_for_then_voted_again():
    """«Вилка или автокатастрофа»: "одинаковое количество голосов или с разницей в 2 голоса":
    30 s each, then a re-vote, where "даже если разница в один голос … покинет стол тот
    игрок, у кого голосов больше"."""
    game = day_two_vote((9, 10))
    game, _, lines = run(game, result(outcome="fork", tied=[9, 10], counts=counts(s9=5, s10=3)))
    assert game.stage == "defence" and game.speakers == (9, 10)
    assert "«Вилка или автокатастрофа»: a fork: 9, 10, 30 s each, then a re-vote" in lines
    game, _, _ = run(game, *[tap("next")] * 3)
    assert game.stage == "vote" and game.vote.kind == "fork"
    game, _, _ = run(game, result(outcome="eliminated", eliminated=10))
    assert game.stage == "last_words" and game.leaving == (10,)


def test_crow_club_top_the_level_two_below_the_leader_are_voted_who_goes_up():
    """«Топ и вилка»: "Топ происходит в том случае когда 2 игрока набирают равное количество
    голосов, а третий на 1-2 голоса больше": the two speak, the city votes which goes up, then
    the final fork of the leader and him."""
    game = day_two_vote((9, 10, 11))
    game, _, lines = run(game, result(outcome="fork", tied=[9, 10, 11],
                                      counts=counts(s9=5, s10=4, s11=4)))
    assert game.stage == "defence" and game.vote.kind == "top" and game.speakers == (10, 11)
    assert lines == ["«Топ и вилка»: a top: seat 9 leads, 10, 11 level below: 30 s each, then "
                     "the city votes who goes up"]
    game, _, _ = run(game, *[tap("next")] * 3)
    game, _, _ = run(game, result(outcome="eliminated", eliminated=11))
    assert game.stage == "defence" and game.vote.kind == "final"
    assert game.vote.candidates == (9, 11)


def test_crow_club_fork_level_again_the_table_asks_whether_both_leave():
    """«Вилка или автокатастрофа»: "встаёт вопрос о поднятии двух игроков … или о том чтобы
    оставить их играть дальше": level again, the question; yes: both leave."""
    game = day_two_vote((9, 10))
    game, _, _ = run(game, result(outcome="fork", tied=[9, 10], counts=counts(s9=4, s10=4)))
    game, _, _ = run(game, *[tap("next")] * 3)
    game, commands, _ = run(game, result(outcome="tie", tied=[9, 10]))
    assert game.stage == "question" and [c.spec.verb for c in commands] == ["vote/question"]
    game, _, _ = run(game, result(outcome="yes"))
    assert game.leaving == (9, 10)


def test_crow_club_fork_both_out_during_their_speeches_no_revote_night_falls():
    """«Вилка или автокатастрофа»: the fork's two speak, then are voted again; both taken out
    while they speak (a disqualification), there is no one to vote: nobody leaves by the vote,
    night falls (the table is not asked to vote on no candidate)."""
    game = day_two_vote((9, 10))
    game, _, _ = run(game, result(outcome="fork", tied=[9, 10], counts=counts(s9=5, s10=3)))
    game, commands, lines = run(game, tap("disqualify", seat=9), tap("disqualify", seat=10),
                                *[tap("next")] * 2)
    assert "vote/start" not in [c.spec.verb for c in commands]
    assert game.vote is None and game.stage == "night"
    assert "«Голосование»: nobody is nominated: no vote" in lines, lines


def test_crow_club_paranoid_voted_out_takes_one_with_him():
    """«Параноик»: "то- же самое происходит, если параноика поднимают на голосовании": the judge
    enters whom the paranoid voted out takes; both have their testament."""
    game = day_two_vote((7, 9))
    game, _, _ = run(game, result(outcome="eliminated", eliminated=7))
    game, _, lines = run(game, tap("choose", of="paranoid", decision="revenge", value=11))
    assert game.leaving == (7, 11)
    assert "«Параноик»: the paranoid (seat 7) takes seat 11 with him" in lines


def test_crow_club_zero_round_15_s_no_nominations_then_the_opener_rotates():
    """«Нулевым кругом…»: 15 s each, no nominations on day 1's first round; «Каждый круг стол
    открывает…»: "Каждый круг стол открывает новый участник", opener and closer 60 s."""
    game, _, lines = run(dealt(), tap("start"), tap("next"), tap("next"))
    assert "seat 1 has the floor (speech, 15 s)" in lines
    with pytest.raises(Refused):
        run(game, tap("nominate", seat=9))
    while game.round == 0:
        game, _, lines = run(game, tap("next"))
    assert "«Каждый круг стол открывает…»: round 2 of day 1, seat 2 opens" in lines
    game, _, lines = run(game, tap("next"), tap("next"))
    assert lines == ["seat 2 has the floor (speech, 60 s)", "seat 3 has the floor (speech, 45 s)"]


THIEF_ROLES = ["don", "mafia", "mafia", "mafia", "maniac", "thief", "doctor", "sheriff",
               "paranoid", *["civilian"] * 7]


def test_crow_club_thief_copies_a_card_on_the_deal_night_and_plays_it():
    """«Вор»: "Просыпается сразу после раздачи карт, Рандомно выбирает любого из игроков после
    чего, получает его способности, и играет в команде с выбранным игроком": the thief (6)
    copies the doctor (7): both wake at the heal."""
    game, _, _ = run(new_game(16, rules=RULES), tap("deal", roles=THIEF_ROLES), tap("start"))
    game, commands, _ = night(game, {"thief": {6: [7]}})
    assert steps(commands) == [("thief", [6])]
    assert game.player(6).acts == "doctor" and game.player(6).role == "thief"
    game = to_night(game)
    _, commands, _ = night(game, {})
    assert ("doctor", [6, 7]) in steps(commands) or ("doctor", [7, 6]) in steps(commands)


def test_crow_club_the_record_holds_its_roles_and_the_mafiaratings_export_refuses_them():
    """A finished Crow Club game (the blacks and the maniac out on fouls): the record, the CSV
    and the sheet (scored by the organiser's crow-club preset) hold the club's cards and
    sides; mafiaratings' format holds FIIM's four roles only, so the export is refused naming
    the club's cards."""
    inputs: list = [tap("deal", roles=ROLES, add=["firefighter"]), tap("start"), tap("next")]
    game, _, _ = run(new_game(13, rules=RULES), *inputs)
    game, _, _ = run(game, *[tap("next")] * 14)
    assert game.stage == "day" and game.round == 1
    inputs += [tap("next")] * 14 + [tap("foul", seat=s) for s in (1, 2, 3, 4) for _ in range(4)]
    record = rec.build(((given, float(i)) for i, given in enumerate(inputs)), "table-1",
                       RULES, 13)
    assert record is not None and record.winner == "red"
    assert [p.role for p in record.players] == ROLES
    with pytest.raises(mr.ExportRefused, match="does not hold: doctor, firefighter, maniac, "
                                               "paranoid"):
        mr.export(record)
    preset = scoring.presets()["crow-club"]  # the organiser's points: the book gives none
    scores = scoring.score(record, preset)
    rows = list(csv.DictReader(io.StringIO(results_csv(record, scores), newline="")))
    assert [(r["role"], r["team"]) for r in rows][:4] == [
        ("don", "black"), ("mafia", "black"), ("mafia", "black"), ("maniac", "maniacs")]
    assert [r["role"] for r in rows] == ROLES
    assert (rows[3]["left"], rows[3]["left_day"]) == ("fouls", "1")
    page = protocol(record, scores, preset.title, language="en")
    assert all(role in page for role in ("maniac", "paranoid", "firefighter"))


def test_crow_club_guess_the_three_vote_among_themselves_and_the_maniac_wins_one_on_one():
    """«Угадайкой называется…»: with three left the day's vote is among all three, no
    nominations ("Маньяк выиграет игру если поднимет или мирного, или мафию"): the red voted
    out, the maniac and the Don are one on one: «Победа маньяка»."""
    game, _, _ = night(to_night(dealt()), {})
    game, _, _ = run(game, *(tap("disqualify", seat=s, reason="a grave violation")
                             for s in (2, 3, 5, 6, 7, 8, 10, 11, 12, 13)))
    while game.stage == "day":
        game, _, lines = run(game, tap("next"))
    assert game.stage == "vote" and game.vote.kind == "guess"
    assert lines[-1] == "«Угадайкой называется…»: the «угадайка»: the vote on 1, 4, 9"
    game, _, _ = run(game, result(outcome="eliminated", eliminated=9))
    while game.stage == "last_words":
        game, _, lines = run(game, tap("next"))
    assert game.winner == "maniacs" and lines[-1].startswith("«Победа маньяка»")


def morning_after(game: Game, seat: int) -> Game:
    """Night 1: the Don shoots ``seat``; morning, the testament, day 2's first speech."""
    game, _, _ = night(to_night(game), {"mafia_shot": {1: [seat]}})
    while game.stage != "day" or game.floor is None:
        game, _, _ = run(game, tap("next"))
    return game


#: ten seats, two sides (no maniac): 1 the Don, 2-3 mafia, 4 the doctor, 5 the sheriff, 6 the
#: paranoid, 7 the firefighter, 8-10 civilians
TEN = ["don", "mafia", "mafia", "doctor", "sheriff", "paranoid", "firefighter",
       *["civilian"] * 3]


@pytest.mark.parametrize(("shot_seat", "winner"), [(9, "black"), (2, "red")])
def test_crow_club_kaspery_a_ghost_who_interferes_gives_the_win_to_the_other_side(
        shot_seat, winner):
    """«Касперами…»: "Если каспер залез игру, влияя на ход игры … игра останавливается и
    победа присуждается команде противоположной от каспера": a red shot at night (or a black
    his Don shot) gestures from outside during day 2's speech; the table's timer stops."""
    game = morning_after(dealt(TEN), shot_seat)
    assert [o.params[0].seats for o in offered(game) if o.key == "forfeit"] == [[shot_seat]]
    game, commands, lines = run(game, tap("choose", of="forfeit", decision="forfeit",
                                          value=shot_seat))
    assert game.stage == "over" and game.winner == winner
    assert lines[0] == f"«Касперами…»: seat {shot_seat}, a ghost, interfered with the game: " \
        "the game stops"
    assert [c.spec.verb for c in commands] == ["timer/stop"]


def test_crow_club_kaspery_with_three_sides_at_the_table_nobody_wins_krest():
    """«Касперами…»: "В случае если команды за столом было 3 - маньяк, мафия и мирные, победа не
    присуждается никому, в городе ничья, или "крест"": the maniac still in, a red ghost."""
    game = morning_after(dealt(), 9)
    game, _, _ = run(game, tap("choose", of="forfeit", decision="forfeit", value=9))
    assert game.winner == "draw" and game.stage == "over"


def test_crow_club_kaspery_only_who_left_by_anothers_action_is_a_ghost():
    """«Касперами…»: "покинули игровой стол, из за действий других персонажей (отстрел, отрава,
    поднятие)": a player in the game, or out on fouls, is no ghost; before the game, none."""
    game = morning_after(dealt(TEN), 9)
    for _ in range(4):
        game, _, _ = run(game, tap("foul", seat=10))
    assert game.player(10).left == "fouls"
    for seat in (10, 8, 99):
        with pytest.raises(Refused, match="is not a ghost"):
            run(game, tap("choose", of="forfeit", decision="forfeit", value=seat))
    with pytest.raises(Refused, match=r"args\.value: Expected `int`, got `str`"):
        run(game, tap("choose", of="forfeit", decision="forfeit", value="9"))
    with pytest.raises(Refused, match="only during a game"):
        run(dealt(TEN), tap("choose", of="forfeit", decision="forfeit", value=9))


def test_crow_club_manyak_the_maniac_gives_the_win_to_the_reds():
    """«Маньяк»: "Маньяк может отдать победу мирным - в случае, если он играл за мирных и весь
    стол знает что он маньяк": the judge names the maniac (seat 4) in day 1's speeches; the
    reds win."""
    game, _, _ = run(dealt(), tap("start"))
    while game.stage != "day" or game.floor is None:
        game, _, _ = run(game, tap("next"))
    assert [o.params[0].seats for o in offered(game) if o.key == "gift"] == [[4]]
    with pytest.raises(Refused, match="seat 9 cannot give the win away"):
        run(game, tap("choose", of="gift", decision="gift", value=9))
    game, _, lines = run(game, tap("choose", of="gift", decision="gift", value=4))
    assert game.winner == "red" and "«Маньяк»: seat 4 gives the win away: red" in lines
    assert not [o for o in offered(morning_after(dealt(TEN), 9)) if o.key == "gift"]


def at(game: Game, now: float, kind: str, **args) -> tuple[Game, list[str]]:
    """The judge's ``kind`` tap at ``now`` (seconds: a violation is counted by them)."""
    game, _, lines = step(game, Action(kind, args), now)
    return game, [str(line) for line in lines]


def test_crow_club_foll_a_violation_that_goes_on_is_a_foul_every_5_s():
    """«В мафии есть такие понятия как "Фолл" и "вскрытие карты"»: "один фолл длится 5 секунд,
    то есть если вы нарушаете дольше 5 секунд, то вам дается ещё один фолл. 3 фолла вы можете
    заработать, 4й же - "вскрытие карты"": 5 s is one foul, 12.3 s three; 17 s is the fourth:
    the card shown, the player out, his violation over."""
    game, _, _ = run(dealt(), tap("start"), tap("next"))
    assert any(o.key == "violation" for o in offered(game))
    game, lines = at(game, 100.0, "violation", seat=9)
    assert game.player(9).fouls == 1 and game.violations == ((9, 100.0),)
    assert lines[0] == "«В мафии есть такие понятия как \"Фолл\" и \"вскрытие карты\"»: " \
        "seat 9: the violation goes on, a foul every 5 s"
    assert [o.key for o in offered(game) if o.key.startswith("violation-end")] == \
        ["violation-end-9"]
    with pytest.raises(Refused, match="seat 9's violation goes on already"):
        at(game, 101.0, "violation", seat=9)
    game, lines = at(game, 105.0, "violation", seat=9, ends=True)
    assert game.player(9).fouls == 1 and game.violations == ()
    assert lines[0].endswith("seat 9: the violation lasted 5 s, 1 foul in all")
    game, _ = at(game, 200.0, "violation", seat=10)
    game, lines = at(game, 212.3, "violation", seat=10, ends=True)
    assert game.player(10).fouls == 3 and lines[0].endswith("lasted 12.3 s, 3 fouls in all")
    undone, _ = at(game, 213.0, "undo")
    assert undone.player(10).fouls == 1 and undone.violations == ((10, 200.0),)
    game, _ = at(game, 300.0, "violation", seat=11)
    game, lines = at(game, 317.0, "violation", seat=11, ends=True)
    assert not game.player(11).in_game and game.player(11).shown and game.violations == ()
    with pytest.raises(Refused, match="seat 12 has no violation going on"):
        at(game, 318.0, "violation", seat=12, ends=True)


def test_crow_club_foll_a_violator_voted_out_ends_his_violation_and_fiim_has_none():
    """A player who leaves ends his violation; FIIM's book gives no foul by the clock."""
    game, _, _ = run(dealt(), tap("start"), tap("next"))
    game, _ = at(game, 10.0, "violation", seat=9)
    game, _ = at(game, 11.0, "disqualify", seat=9)
    assert game.violations == () and not [o for o in offered(game)
                                          if o.key.startswith("violation-end")]
    fiim, _, _ = run(new_game(), tap("deal", seed=1), tap("start"), tap("next"))
    with pytest.raises(Refused, match="FIIM gives no fouls for a violation that goes on"):
        at(fiim, 5.0, "violation", seat=1)
    assert not any(o.key == "violation" for o in offered(fiim))


def test_crow_club_razdacha_each_calls_a_number_from_1_to_the_cards_left_the_last_his_fate():
    """«Раздача»: "Каждый по очереди начиная с первого игрока, просыпается и называет любое
    число от 1 до количества оставшихся карт … Ведущий отсчитывает названное количество, и ваша
    карта та, чью цифру выбрали … последнему достаётся судьба(последняя оставшаяся карта)":
    the stack shuffled by the seed; seat 1 calls 13 (the bottom card), seat 2 calls 1 (the top
    one), ... seat 12 the last call, 1 or 2; seat 13 takes the last card."""
    stack = RULES.book.deck_for(13).cards(13, ("firefighter",))
    random.Random(7).shuffle(stack)
    game, _, lines = run(new_game(13, rules=RULES),
                         tap("deal", seed=7, called="first", add=["firefighter"]))
    assert lines == ["«Раздача»: the deal by called numbers, seat 1 calls first"]
    assert all(not p.role for p in game.players)
    (call,) = [o for o in offered(game) if o.key == "call"]
    assert str(call.label) == "Seat 1 calls a number, 1 to 13" and call.params[0].max == 13
    assert not next(o for o in offered(game) if o.key == "start").enabled
    with pytest.raises(Refused, match="seat 1 calls a number from 1 to 13, not 14"):
        run(game, tap("call", number=14))
    game, _, lines = run(game, tap("call", number=13), tap("call", number=1))
    assert (game.player(1).role, game.player(2).role) == (stack[12], stack[0])
    assert lines[-1] == "«Раздача»: seat 2 called 1"
    for _ in range(10):
        game, _, lines = run(game, tap("call", number=1))
    assert lines[-2:] == ["«Раздача»: seat 13 takes the last card (the fate)",
                          "«Раздача»: the cards are dealt"]
    assert [p.role for p in game.players] == [stack[12], *stack[:12]]
    assert not [o for o in offered(game) if o.key == "call"]
    game, _, _ = run(game, tap("start"))
    assert game.stage == "night0"
    with pytest.raises(Refused, match="FIIM has no deal by called numbers"):
        run(new_game(), tap("deal", seed=1, called="first"))


def test_crow_club_razdacha_the_side_changes_game_by_game_and_immunity_is_proposed():
    """«Раздача»: "Каждую игру сторона раздачи меняется. В первую игру раздача всегда с первого
    игрока … Во вторую игру, раздача начинается с последнего игрока, и судьба достаётся уже
    первому игроку"; «Иммунитет у игрока…»: "После 10 человек, иммунитет выдаётся первому
    поднятому …, а так же всем покинувшим игру в первую ночь": the last game's record (dealt
    from seat 1, 9 voted out on day 1, 11 shot on night 1) proposes the next deal from seat 13
    and 9 and 11 immune."""
    play = BookPlay(RULES, 13, ROLES, deal=(
        tap("deal", seed=3, called="first", add=["firefighter"]),
        *[tap("call", number=1)] * 12))
    play.to("day")
    while play.game.round == 0 or play.game.floor != 2:
        play.give(tap("next"))
    play.nominate(2, 9).give(tap("next")).nominate(3, 10).to("vote")
    play.vote({9: [1, 2, 3, 4, 5, 6, 7]}, outcome="eliminated", eliminated=9)
    play.to("night").night({"mafia_shot": {1: [11]}}).to("day")
    last = previous(play.record())
    assert last is not None and (last.dealt_from, last.voted_out, last.night_one) == (
        "first", (9,), (11,))
    game = new_game(13, rules=RULES, previous=last)
    offers = {o.key: o for o in offered(game)}
    assert offers["deal-called"].args == {"called": "last"}
    assert str(offers["deal-called"].label) == "Deal by called numbers, from seat 13"
    assert offers["immunity-proposed"].args == {"of": "immunity", "decision": "immunity",
                                                "value": [9, 11]}
    game, _, _ = run(game, tap("deal", seed=1, called="last", add=["firefighter"]))
    game, _, lines = run(game, tap("call", number=1))
    assert lines == ["«Раздача»: seat 13 called 1"]
    game, _, _ = run(game, tap("choose", of="immunity", decision="immunity", value=[9, 11]))
    assert [p.seat for p in game.players if p.immune] == [9, 11]
    assert "immunity-proposed" not in {o.key for o in offered(game)}


@pytest.mark.parametrize(("last", "named", "proposed"), [
    (Previous("crow-club", ("", "", "", "D"), voted_out=(4,), night_one=(7,),
              kills=(("mafia_shot", 7),)), {6: "D"}, [6]),
    (Previous("crow-club", ("",) * 9, night_one=(3, 7),
              kills=(("maniac_kill", 3), ("mafia_shot", 7))), {}, [7]),
    (Previous("crow-club", ("",) * 9, night_one=(7,), kills=(("doctor_poison", 7),)), {}, []),
    (Previous("fiim", ("",) * 10, voted_out=(4,)), {}, []),
    (Previous("crow-club", ("",) * 12, voted_out=(4, 5), night_one=(2, 9)), {}, [2, 4, 5, 9]),
])
def test_crow_club_immunity_up_to_10_one_the_first_voted_out_else_the_blacks_first_shot(
        last, named, proposed):
    """«Иммунитет у игрока…»: "до 10 человек: первому поднятому, если никого не подняли -
    первому отстреленному черными игроку. Важно: до 10 человек, иммунитет выдаётся только одному
    игроку" (by his name when the last game had it: he may sit elsewhere now); after 10 the
    first voted out, two if two left by the vote, and all who left on night 1; a last game of
    another book proposes nothing."""
    game = new_game(13, rules=RULES, previous=last)
    for seat, name in named.items():
        game, _, _ = run(game, tap("name", seat=seat, name=name))
    offers = {o.key: o for o in offered(game)}
    assert (offers["immunity-proposed"].args["value"] if proposed else None) == (
        proposed or offers.get("immunity-proposed"))
