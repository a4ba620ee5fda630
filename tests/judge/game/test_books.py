"""The rule books as data (config/books/*.toml, judge/game/book.py): every shipped book loads and
deals at every table size it plays; a role added in a book's own file plays with no code; a bad
book is refused naming the key; a book and its table preset agree."""

from __future__ import annotations

import re
import tomllib
from collections import Counter

import pytest

from judge.game import Action, Refused, load_rules, new_game, step
from judge.game.book import BOOKS, load_preset, preset_path
from judge.game.table import NO, YES, reveal
from kit.config import ConfigError
from tests.support.club_books import DETECTIVE, club_book
from tests.support.table_event import table_event

SHIPPED = sorted(p.stem for p in BOOKS.glob("*.toml"))


def test_the_four_books_are_shipped():
    assert SHIPPED == ["classic-000", "crow-club", "fiim", "online-003"]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_book_loads_and_deals_its_deck_at_every_size_it_plays(name):
    rules = load_rules(name)
    book = rules.book
    for seats in range(book.players.min, book.players.max + 1):
        game = new_game(seats, rules=rules)
        row = book.deck_for(seats)
        assert row is not None
        game, _, lines = step(game, Action("deal", {"seed": seats}), 0.0)
        dealt = Counter(p.role for p in game.players)
        assert sum(dealt.values()) == seats
        assert dealt == Counter(row.cards(seats))
        assert all(book.team_of(p.role) in book.teams for p in game.players)
        assert [str(line) for line in lines] == [f"{book.cite['deal']}: the cards are dealt"]
    with pytest.raises(Refused, match=re.escape(book.cite["players"])):
        new_game(book.players.max + 1, rules=rules)


@pytest.mark.parametrize(("name", "seats", "extra", "instead"), [
    ("crow-club", 12, "immortal", "civilian"), ("crow-club", 14, "firefighter", "civilian"),
    ("classic-000", 10, "joker", "civilian"), ("online-003", 7, "boss", "mafia"),
])
def test_the_organisers_optional_cards_take_the_place_they_say(name, seats, extra, instead):
    rules = load_rules(name)
    plain = Counter(rules.book.deck_for(seats).cards(seats))
    game, _, _ = step(new_game(seats, rules=rules), Action("deal", {"seed": 1, "add": [extra]}),
                      0.0)
    dealt = Counter(p.role for p in game.players)
    assert dealt[extra] == 1 and dealt[instead] == plain[instead] - 1
    with pytest.raises(Refused, match="not an optional card"):
        step(new_game(seats, rules=rules), Action("deal", {"seed": 1, "add": ["don"]}), 0.0)


def test_fiim_1_1_a_hand_dealt_deck_other_than_the_books_is_refused_in_its_words():
    with pytest.raises(Refused, match=r"1\.1: the deck is one Don, two mafia, one Sheriff"):
        step(new_game(), Action("deal", {"roles": ["don"] * 10}), 0.0)


def test_a_book_with_mechanisms_not_built_yet_deals_but_plays_no_game(tmp_path):
    """A club's copy of FIIM's book with a night step no module runs yet, listed in
    ``unbuilt``: it loads and deals, and its game is refused at the start naming it."""
    lasso = '\n[[night.steps]]\nname = "lasso"\nmechanism = "lasso"\nroles = ["don"]\n' \
            'rule = "our rules"\n'
    path = club_book(tmp_path, lasso, 'roles = { don = 1, mafia = 2, sheriff = 1, civilian = 6 }')
    path.write_text('unbuilt = ["lasso"]\n' + path.read_text(encoding="utf-8"))
    rules = load_rules(path)
    assert rules.book.unbuilt == ("lasso",)
    game, _, _ = step(new_game(rules=rules), Action("deal", {"seed": 3}), 0.0)
    with pytest.raises(Refused, match="needs what the engine does not have yet: lasso"):
        step(game, Action("start"), 0.0)


# ------------------------------------------------------------------ a role from data alone

def test_a_second_checker_added_in_a_books_own_file_wakes_and_is_answered_alone(tmp_path):
    """Item 3's "a role from data alone": a detective with the check mechanism, in a club's copy
    of FIIM's book; no code. He wakes after the Sheriff, only he is sent the step, and his answer
    is on his indicator alone."""
    path = club_book(tmp_path, DETECTIVE, 'roles = { don = 1, mafia = 2, sheriff = 1, '
                                          'detective = 1, civilian = 5 }')
    rules = load_rules(path)
    roles = ["don", "mafia", "mafia", "sheriff", "detective", *["civilian"] * 5]
    game = new_game(rules=rules)
    for given in (Action("deal", {"roles": roles}), Action("start"), Action("next")):
        game, _, _ = step(game, given, 0.0)
    while game.stage != "night":  # day 1: nobody nominated, no vote (4.4.1)
        game, _, _ = step(game, Action("next"), 0.0)
    assert game.night_steps == ("mafia_shot", "don_check", "sheriff_check", "detective_check")
    for name in game.night_steps[:-1]:
        game, _, _ = step(game, Action("next"), 0.0)
        game, _, _ = step(game, table_event("private/night/result", {
            "step": name, "picks": [], "missing": []}), 0.0)
    game, commands, lines = step(game, Action("next"), 0.0)
    assert [c.payload.actors for c in commands] == [[5]]
    assert [str(line) for line in lines] == ["our rules, «Детектив»: detective check (5)"]
    game, commands, lines = step(game, table_event("private/night/result", {
        "step": "detective_check", "picks": [{"actor": 5, "picks": [2]}], "missing": []}), 0.0)
    assert commands == [reveal(5, YES)]
    assert [str(line) for line in lines] == [
        "our rules, «Детектив»: detective check of seat 2: black"]
    assert game.checks[-1] == ("detective_check", 1, 2, True)
    assert reveal(5, NO) != commands[0]


# ------------------------------------------------------------------ bad books


@pytest.mark.parametrize(("change", "says"), [
    (("team = \"black\"\ntitle = { ru = \"Дон\"", "team = \"blak\"\ntitle = { ru = \"Дон\""),
     "roles.don.team: no team 'blak'"),
    (("mechanism = \"check\"", "mechanism = \"chek\""),
     "night.steps[1].mechanism: no mechanism 'chek'"),
    (("yes = { roles = [\"sheriff\"] }", "yes = { roles = [\"sherif\"] }"),
     "night.steps[1].options.yes.roles: no role 'sherif'"),
    (("options = { of = \"mafia_shot\" }", "options = { off = \"mafia_shot\" }"),
     "night.steps[3].options: object contains unknown field 'off'"),
    (("civilian = 6 }", "civilian = 5 }"), "deck[0].roles: 9 cards for 10..10 players"),
    (("seconds = \"best_move\"", "seconds = \"best_mov\""),
     "night.steps[3].seconds: no timing 'best_mov'"),
    (("nominate = \"4.4.2\"", "nominat = \"4.4.2\""), "cite.nominate: missing"),
    (("defence = 30", "defense = 30"),
     "timings.defence: missing (the vote procedure 'nominees' times each tied nominee's"),
    (("procedure = \"nominees\"", "procedure = \"fork_tops\""),
     "vote.procedure: no procedure 'fork_tops'"),
    (("kind = \"parity\"", "kind = \"paritty\""), "endgames[1].kind: no endgame 'paritty'"),
    (("min = 10", "min = 10\nmix = 3"), "players: object contains unknown field 'mix'"),
    (('en = "FIIM" }', 'rus = "FIIM" }'), "title: no 'en' text"),  # a book's title, as its cards'
])
def test_a_bad_book_is_refused_naming_the_key(tmp_path, change, says):
    path = club_book(tmp_path, "", 'roles = { don = 1, mafia = 2, sheriff = 1, civilian = 6 }')
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_rules(path)
    assert any(says in problem for problem in refused.value.problems), refused.value.problems


def test_a_club_book_written_before_titles_were_per_language_is_told_what_to_write(tmp_path):
    """Its ``name = "..."`` was the book's title; msgspec alone says only "unknown field"."""
    path = club_book(tmp_path, "", 'roles = { don = 1, mafia = 2, sheriff = 1, civilian = 6 }')
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('title = { ru = "ФИИМ", en = "FIIM" }', 'name = "Наш клуб"', 1),
                    encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_rules(path)
    assert refused.value.problems == [
        'name: a book\'s title is now per language: title = { ru = "Наш клуб", en = "Наш клуб" }']


def test_a_mechanism_listed_as_unbuilt_that_is_built_must_come_off_the_list(tmp_path):
    path = club_book(tmp_path, "", 'roles = { don = 1, mafia = 2, sheriff = 1, civilian = 6 }')
    path.write_text('unbuilt = ["kill"]\n' + path.read_text(encoding="utf-8"))
    with pytest.raises(ConfigError, match="'kill' is built now"):
        load_rules(path)


# ------------------------------------------------------------------ the book and its preset


def test_fiim_the_book_reads_the_tables_rules_from_its_preset_and_says_none_again():
    """What the table decides is in its preset: the book names it and says none of its keys;
    the judge's night step seconds and 4.4.10's single nominee come from the preset."""
    rules = load_rules("fiim")
    raw = tomllib.loads(preset_path(rules.book).read_text(encoding="utf-8"))
    assert rules.timings.night_step == raw["night"]["seconds"] == 10
    assert rules.preset.vote.single_nominee_first_day == raw["vote"]["single_nominee_first_day"]
    book = tomllib.loads((BOOKS / "fiim.toml").read_text(encoding="utf-8"))
    for section in ("vote", "night", "day"):
        said_twice = set(book.get(section, {})) & set(raw.get(section, {}))
        assert said_twice <= {"steps"}, said_twice  # the book's wake order, the preset's kinds


def test_fiim_the_presets_night_steps_are_the_books_kills_and_checks():
    """The table blocks a shot or a check on a seat whose standing says so: its preset names
    the book's steps by what they do (a kill is a ``shot``, a check ``checked``)."""
    rules = load_rules("fiim")
    raw = tomllib.loads(preset_path(rules.book).read_text(encoding="utf-8"))
    kinds = {"kill": "shot", "check": "checked"}
    book_steps = {s.name: kinds[s.mechanism] for s in rules.book.night.steps
                  if s.mechanism in kinds}
    assert raw["night"]["steps"] == book_steps
    assert load_preset(rules.book).name == raw["name"]
