"""The record's lines and the judge's night screen in words, each said once: a vote's outcome
the procedure has no rule's words for is the catalog's word, never the table's identifier
(``against_all``); a book citing one paragraph for the day and its opener cites it once; the
heal's few words are the step's and the seat ("врач лечит: 9", not "врач лечит: лечит 9")."""

from __future__ import annotations

import pytest

from judge.game import fiim, load_rules
from judge.game.mechanisms import MECHANISMS
from kit import i18n
from tests.support.book_play import BookPlay

FIIM_SEATS = ["don", "mafia", "mafia", "sheriff", *["civilian"] * 6]


def said(play: BookPlay, language: str) -> list[str]:
    return [i18n.render({"cite": line.cite, "key": line.key, "params": line.params}, language)
            for line in play.record().log]


@pytest.mark.parametrize(("outcome", "ru", "en"), [
    ("against_all", "против всех", "against all"), ("fork", "вилка", "fork"),
    ("night", "ночь", "night")])
def test_a_vote_that_ends_without_a_rules_words_says_its_outcome_in_words(outcome, ru, en):
    play = BookPlay(fiim(), 10, FIIM_SEATS).to("day")
    play.nominate(1, 5).nominate(2, 6).to("vote").vote({}, outcome=outcome)
    assert f"голосование закончено: {ru}" in said(play, "ru")
    assert f"the vote ends: {en}" in said(play, "en")


def test_a_day_whose_opener_is_cited_by_the_days_own_paragraph_cites_it_once():
    play = BookPlay(load_rules("classic-000"), 10, [
        "godfather", "right_hand", "family", "joker", "chief", "detective", "doctor", "maniac",
        "laura", "civilian"], ("joker", "detective", "maniac", "laura")).to("day")
    assert "«4. Обвинение»: день 1, первым говорит игрок 1" in said(play, "ru")
    assert not [line for line in said(play, "ru") if line.count("«4. Обвинение»") > 1]
    fiim_day = said(BookPlay(fiim(), 10, FIIM_SEATS).to("day"), "ru")
    assert "4.3.1: день 1, первым говорит игрок 1 (4.3.2)" in fiim_day


def test_the_heal_on_the_judges_night_screen_names_the_step_once():
    rules = load_rules("online-003")
    play = BookPlay(rules, 10, [
        "boss", "mafia", "mafia", "commissar", "sergeant", "doctor", "maniac", "kamikaze",
        "journalist", "honest"], ("boss", "sergeant", "doctor", "maniac", "kamikaze",
                                  "journalist"))
    play.to("vote").vote({}, outcome="night")
    play.night({"doctor": {6: [9]}})
    [heal] = [a for a in play.game.acts if a.mechanism == "heal"]
    words = MECHANISMS["heal"].describe(play.game, heal)
    assert (i18n.render(words, "ru"), i18n.render(words, "en")) == (
        "врач лечит: 9", "the doctor's heal: 9")
