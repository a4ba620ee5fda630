"""Setup's seats and names (judge/game/setup.py, FIIM 4.1): a name kept as the club writes it
once, each player seated once, the table's own number of seats (the panel's ``seating``), the
last game's players kept, a seating drawn by lot and two seats swapped; and the names' rules
themselves (kit/player_names.py), with a property test."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.game import Refused, load_rules, new_game, step
from kit import i18n, player_names
from tests.support.judge_game import run, tap
from tests.support.record_game import ROLES


def names(game) -> list[str]:
    return [p.name for p in game.players]


def test_a_name_is_kept_tidy_nfc_single_spaced_without_invisible_characters():
    typed = "\ufeff  Ива\u0301н\u00a0\u00a0 Петро\u200bв \t"
    game, _, _ = run(new_game(), tap("name", seat=3, name=typed))
    assert game.player(3).name == "Ива\u0301н Петров"
    assert player_names.tidy("Ал\u0435\u0308на") == "Алёна"  # NFC: one letter
    assert player_names.tidy("x" * 60) == "x" * player_names.LONGEST


def test_one_player_sits_once_whatever_the_case_the_spaces_and_yo():
    game, _, _ = run(new_game(), tap("name", seat=1, name="Алёна Иванова"))
    for typed in ("алена  иванова", " АЛЁНА ИВАНОВА", "Алена Иванова"):
        with pytest.raises(Refused) as refused:
            step(game, tap("name", seat=4, name=typed), 0.0)
        assert refused.value.line.key == "refused.name.seated"
        assert refused.value.line.params == {"name": player_names.tidy(typed), "seat": 1}
    # her own seat takes her name again, in another spelling (the judge's correction)
    again, _, _ = run(game, tap("name", seat=1, name="алёна иванова"))
    assert again.player(1).name == "алёна иванова"


def test_the_table_seats_its_own_number_of_players_the_book_plays():
    crow = new_game(rules=load_rules("crow-club"))
    assert len(crow.players) == 7  # the book's smallest deck, until the table says
    ten, _, lines = step(crow, tap("seating", names=[""] * 10), 0.0)
    assert names(ten) == [""] * 10 and [line.key for line in lines] == ["line.seats"]
    assert "10 players" in i18n.render(lines[0], "en")
    with pytest.raises(Refused) as refused:  # FIIM plays ten
        step(new_game(), tap("seating", names=[""] * 12), 0.0)
    assert refused.value.line.key == "refused.players.exact"


def test_a_seating_keeps_the_deal_at_the_same_size_and_deals_again_at_another():
    dealt, _, _ = run(new_game(rules=load_rules("crow-club")), tap("deal", seed=3))
    assert all(p.role for p in dealt.players)
    same, _, _ = run(dealt, tap("seating", names=["Анна", *[""] * 6]))
    assert [p.role for p in same.players] == [p.role for p in dealt.players]
    bigger, _, _ = run(dealt, tap("seating", names=["Анна", *[""] * 9]))
    assert names(bigger)[0] == "Анна" and not any(p.role for p in bigger.players)


def test_a_seating_seats_each_player_once_and_only_in_setup():
    with pytest.raises(Refused) as refused:
        step(new_game(), tap("seating", names=["Иван", "иван ", *[""] * 8]), 0.0)
    assert refused.value.line.params == {"name": "иван", "seat": 1}
    started, _, _ = run(new_game(), tap("deal", roles=ROLES), tap("start"))
    with pytest.raises(Refused):
        step(started, tap("seating", names=[""] * 10), 0.0)


def test_a_seating_by_lot_moves_the_names_and_keeps_them_all_and_undo_takes_it_back():
    typed = ["Анна", "Борис", "", "Дмитрий", "Ева", "", "", "", "", "Жанна"]
    game, _, _ = run(new_game(), tap("seating", names=typed))
    drawn, _, lines = step(game, tap("reseat"), 0.0)
    assert sorted(names(drawn)) == sorted(typed) and names(drawn) != typed
    assert lines[0].key == "line.reseat"
    back, _, _ = run(drawn, tap("undo"))
    assert names(back) == typed
    with pytest.raises(Refused):
        step(new_game(), tap("reseat"), 0.0)  # nobody to move


def test_two_seats_swap_their_players_and_only_two():
    game, _, _ = run(new_game(), tap("name", seat=2, name="Анна"), tap("name", seat=7, name="Ян"))
    swapped, _, lines = step(game, tap("swap", seats=[7, 2]), 0.0)
    assert (swapped.player(2).name, swapped.player(7).name) == ("Ян", "Анна")
    assert i18n.render(lines[0], "ru") == "игроки 2 и 7 поменялись местами"
    for seats in ([2], [2, 7, 9], [2, 2]):
        with pytest.raises(Refused):
            step(game, tap("swap", seats=seats), 0.0)


TEXT = st.text(st.characters(codec="utf-8"), max_size=80)


@given(TEXT)
def test_a_tidy_name_is_tidy_once_and_for_all(name):
    tidy = player_names.tidy(name)
    assert player_names.tidy(tidy) == tidy
    assert tidy == tidy.strip() and "  " not in tidy and len(tidy) <= player_names.LONGEST
    assert unicodedata.is_normalized("NFC", tidy)
    assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in tidy)


#: names as clubs write them: Russian and Latin letters, spaces, a hyphen
NAMES = st.text(st.sampled_from("АВЕЁЖИКЛМНОПаеёжиклмнопABCabc -"), max_size=30)


@given(NAMES, st.sampled_from([str.upper, str.lower, str.title, lambda s: f"  {s}\t",
                               lambda s: s.replace(" ", "   "),
                               lambda s: s.replace("ё", "е").replace("Ё", "Е")]))
def test_a_name_in_another_case_spacing_or_with_e_for_yo_is_the_same_player(name, written):
    assert player_names.key(written(name)) == player_names.key(name)
