"""The organisers' restrictions in the tournament's data (hall/tournament.py, issue 39 item 4):
made with them or refused naming what is wrong, held by the generated seating, a player
withdrawn (a substitute in their seats, or the rounds to come seated again without them, the
rounds played kept), the final's seats fixed."""

from __future__ import annotations

import pytest

from hall import tournament as tm
from kit.i18n import render
from results import scoring
from tests.support.tournament_games import every_game

PRESETS = scoring.presets()
NAMES = [f"Player {n}" for n in range(1, 31)]
RULES = ("apart, Player 1, Player 2, Player 3\n"  # a club
         "away, table-2, Player 4\n"  # the judge of table 2's relative
         "seat, 1, Player 5, 2\n")  # seat 1 in round 2


def made(restrictions: str = RULES, games: int = 4) -> tm.Tournament:
    return tm.create("Cup", "\n".join(NAMES), games, 3, "fiim", restrictions, 1000.0, PRESETS)


def sent(tournament: tm.Tournament, *numbers: int) -> tm.Tournament:
    for number in numbers:
        tournament = tm.sent(tournament, number, float(number))
    return tournament


def at_tables(tournament: tm.Tournament, name: str, stage: str = "main") -> list[str]:
    return [t for r in tournament.stage(stage) for t, seats in sorted(r.seating.items())
            if name in seats.values()]


#: the same rules as the organiser's page takes them: in Russian words, names as typed
#: (``tm.identity``: capitals and spaces aside)
RUSSIAN = ("врозь, player 1, PLAYER 2 , Player  3\n"
           "не за стол, 2, player 4\n"
           "Место, 1, player 5, 2\n")


@pytest.mark.parametrize("rules", [RULES, RUSSIAN])
def test_the_restrictions_are_held_by_the_generated_seating(rules):
    seated = tm.generate(made(rules), seed=2, seconds=0.3)
    assert seated.restrictions == rules  # kept as the organiser typed them
    for r in seated.stage("main"):
        club = [t for t, seats in r.seating.items()
                for p in ("Player 1", "Player 2", "Player 3") if p in seats.values()]
        assert len(set(club)) == 3
    assert "table-2" not in at_tables(seated, "Player 4")
    round_2 = seated.round(2)
    assert round_2 is not None
    assert any(seats[1] == "Player 5" for seats in round_2.seating.values())


@pytest.mark.parametrize(("rules", "said", "russian"), [
    ("apart, Player 1, Nobody", "line 1: 'Nobody' is no player",
     "строка 1: «Nobody» не игрок"),
    ("врозь, Player 1, Player 2\nне за стол, 2, Никто", "line 2: 'Никто' is no player",
     "строка 2: «Никто» не игрок"),
    ("реже, Player 1", "line 1: avoid needs two players or more", "строка 1: "),
    ("врозь, Player 1, Player 2, Player 3, Player 4",
     "Player 1, Player 2, Player 3, Player 4 must all sit apart from each other: there are 4 "
     "of them, and tables: 3",
     "нельзя сажать вместе друг с другом: Player 1, Player 2, Player 3, Player 4; их 4"),
    ("рядом, Player 1, Player 2", "line 1: 'рядом' is not a rule", "строка 1: «рядом»"),
    ("away, table-4, Player 4", "Player 4 kept away from table 4, but the tables are 1..3",
     "за стол 4 нельзя: Player 4, а столы — от 1 до 3"),
    ("seat, 1, Player 5, 7", "Player 5: a seat in round 7, but the rounds are 1..4",
     "Player 5: место в туре 7, а туры — от 1 до 4"),
    ("seat, 11, Player 5", "line 1: seat needs a seat number 1..10",
     "строка 1: для seat нужно место от 1 до 10"),
    ("away, 1, Player 4\naway, 2, Player 4\naway, 3, Player 4",
     "Player 4 is kept away from every table (tables: 3)",
     "ни за один стол нельзя: Player 4 (столов: 3)"),
    ("seat, 1, Player 5\nseat, 1, Player 6", "round 1: seat 1 is fixed for Player 5 and Player 6",
     "тур 1: место 1 закреплено и за Player 5, и за Player 6"),
])
def test_restrictions_that_cannot_work_are_refused_at_making(rules, said, russian):
    with pytest.raises(tm.TournamentError) as refused:
        made(rules)
    assert said in str(refused.value)
    assert russian in " | ".join(render(p, "ru") for p in refused.value.problems)


def test_a_substitute_takes_the_withdrawn_players_seats_and_nothing_else_changes():
    seated = sent(tm.generate(made(""), seed=1, seconds=0.3), 1, 2)
    after = tm.withdraw(seated, "Player 7", 3, "Zoe", 1, 0.3)
    assert after.players == [*NAMES, "Zoe"]
    assert [w.player for w in after.withdrawals] == ["Player 7"]
    for before, now in zip(seated.stage("main"), after.stage("main"), strict=True):
        if before.number < 3:
            assert now == before
        else:
            swapped = {t: {s: "Zoe" if p == "Player 7" else p for s, p in seats.items()}
                       for t, seats in before.seating.items()}
            assert now.seating == swapped
    with pytest.raises(tm.TournamentError, match="'Player 7' is not playing the rounds to come"):
        tm.withdraw(after, "Player 7", 4, None, 1, 0.3)
    with pytest.raises(tm.TournamentError, match="'Player 8' cannot be a substitute"):
        tm.withdraw(sent(after, 3), "Zoe", 4, "Player 8", 1, 0.3)
    with pytest.raises(tm.TournamentError, match="'player 8' cannot be a substitute"):
        tm.withdraw(sent(after, 3), "Zoe", 4, " player  8", 1, 0.3)  # one player, as typed
    with pytest.raises(tm.TournamentError, match="'' cannot be a substitute"):
        tm.withdraw(sent(after, 3), "Zoe", 4, "\u200b", 1, 0.3)  # an invisible name


def test_the_player_withdrawn_is_named_as_the_organiser_types_names():
    seated = sent(tm.generate(made(""), seed=1, seconds=0.3), 1, 2)
    after = tm.withdraw(seated, " player  7 ", 3, " Zoe ", 1, 0.3)
    assert [(w.player, w.substitute) for w in after.withdrawals] == [("Player 7", "Zoe")]
    assert after.players[-1] == "Zoe"


def test_a_withdrawal_without_a_substitute_seats_the_rounds_to_come_again():
    """30 players at 3 tables, 4 rounds; Player 7 leaves after round 2: rounds 3 and 4 are
    two tables of the 29 left, the rounds played as they were, the club still apart."""
    seated = sent(tm.generate(made(), seed=1, seconds=0.3), 1, 2)
    after = tm.withdraw(seated, "Player 7", 3, None, 1, 0.3)
    assert after.stage("main")[:2] == seated.stage("main")[:2]
    assert all("Player 7" not in seats.values() for r in after.stage("main")[2:]
               for seats in r.seating.values())
    assert [len(r.seating) for r in after.stage("main")] == [3, 3, 2, 2]
    for r in after.stage("main"):
        names = [p for seats in r.seating.values() for p in seats.values()]
        assert len(names) == len(set(names)) == 10 * len(r.seating)
        club = [t for t, seats in r.seating.items()
                for p in ("Player 1", "Player 2", "Player 3") if p in seats.values()]
        assert len(set(club)) == len(club)
    assert "table-2" not in at_tables(after, "Player 4")
    again = tm.withdraw(sent(after, 3), "Player 9", 4, None, 2, 0.3)  # a second one
    assert all(p not in seats.values() for p in ("Player 7", "Player 9")
               for seats in again.stage("main")[3].seating.values())
    assert tm.decode(tm.encode(again)) == again


def test_a_withdrawal_is_refused_from_a_round_at_the_tables_or_before_anything_is_played():
    seated = sent(tm.generate(made(""), seed=1, seconds=0.3), 1, 2)
    with pytest.raises(tm.TournamentError, match="round 2 of the main stage is already at "
                                                 "the tables"):
        tm.withdraw(seated, "Player 7", 2, None, 1, 0.3)
    with pytest.raises(tm.TournamentError, match="after the first"):
        tm.withdraw(seated, "Player 7", 1, None, 1, 0.3)
    with pytest.raises(tm.TournamentError, match="round 3 has not been sent"):
        tm.withdraw(seated, "Player 7", 4, None, 1, 0.3)
    with pytest.raises(tm.TournamentError, match="'Nobody' is not playing"):
        tm.withdraw(seated, "Nobody", 3, None, 1, 0.3)


def test_the_finals_fixed_seats_are_held():
    main = sent(tm.generate(made("", games=3), seed=1, seconds=0.3), 1, 2, 3)
    games = every_game(main)
    best = [row.player for row in tm.table_of(main, games, PRESETS).stages["main"].rows][:10]
    seats = f"seat, 1, {best[0]}\nseat, 10, {best[1]}, 2\n"
    final = tm.seed_final(main, games, PRESETS, 10, 3, "table-1", 1, 0.3, seats)
    rounds = final.stage("final")
    assert all(r.seating["table-1"][1] == best[0] for r in rounds)
    assert rounds[1].seating["table-1"][10] == best[1]
    with pytest.raises(tm.TournamentError, match="the final's seats: line 1: 'Nobody' is no "
                                                 "player"):
        tm.seed_final(main, games, PRESETS, 10, 3, "table-1", 1, 0.3, "seat, 1, Nobody")
