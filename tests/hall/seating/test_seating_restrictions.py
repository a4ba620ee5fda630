"""The restrictions organisers use, on the generator's output (docs/hall.md, "Making the
seating"): players of a group (a club, a family) never at one table; a player kept from a table
never at it; after a withdrawal the rounds played kept and the withdrawn player in none of the
rest, everything else still valid; a final's fixed seats as fixed; a last round with fewer
tables when the players do not fill them."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.seating import inputs, plan
from hall.seating.instance import Instance, Refused, instance
from hall.seating.reseat import Keep
from hall.seating.scores import Layout

WORK = 0.05


def meetings(layout: Layout) -> Counter[tuple[int, int]]:
    return Counter((a, b) for round_ in layout for game in round_
                   for a, b in itertools.combinations(sorted(game), 2))


def valid(inst: Instance, layout: Layout) -> None:
    """Every round ten different players a table, no kept-apart pair together, no one at a
    table kept from them."""
    for round_ in layout:
        seated = [p for game in round_ for p in game]
        assert all(len(game) == 10 for game in round_)
        assert len(set(seated)) == len(seated)
        for t, game in enumerate(round_):
            assert not {(a, b) for a, b in itertools.combinations(sorted(game), 2)} & inst.apart
            assert not {(p, t) for p in game} & inst.away


def test_a_club_of_four_and_a_family_of_two_never_meet() -> None:
    names = inputs.default_names(40)
    rules = inputs.restrictions("# the club\napart, Player 1, Player 2, Player 3, Player 4\n"
                                "apart, Player 7, 8\n", names)
    assert len(rules.apart) == 6 + 1
    made = plan.make(instance(40, 10, apart=rules.apart), 3, 0.5)
    together = meetings(made.layout)
    assert all(together[pair] == 0 for pair in rules.apart)
    assert sum(together.values()) == 45 * 4 * 10  # and the others play on


@pytest.mark.parametrize(("players", "games", "tables"), [(30, 10, 3), (45, 8, 4), (37, 10, 3)])
def test_a_judges_relative_never_sits_at_the_judges_table(players: int, games: int,
                                                         tables: int) -> None:
    """A full hall (the cyclic start), players sitting out, and a short last round."""
    away = {(0, 1), (5, 1), (6, 0), (6, 2)}
    inst = instance(players, games, tables, away=away, apart=[(0, 5)])
    made = plan.make(inst, 2, 0.5)
    valid(inst, made.layout)
    at = Counter((p, t) for round_ in made.layout for t, game in enumerate(round_) for p in game)
    assert [at[rule] for rule in sorted(away)] == [0, 0, 0, 0]
    if tables == 3:  # kept from two of three: always at the third
        assert at[6, 1] == sum(1 for round_ in made.layout if any(6 in g for g in round_))


def test_tables_kept_from_too_many_players_are_refused_naming_the_tables() -> None:
    with pytest.raises(Refused, match="players kept from tables: 21; they can sit only at "
                                      "tables 2, 3, seats there: 20"):
        plan.make(instance(30, 10, away=[(p, 0) for p in range(25)]), 1, WORK)
    with pytest.raises(Refused, match=r"3 is kept away from every table \(tables: 2\)"):
        instance(20, 10, away=[(2, 0), (2, 1)])
    with pytest.raises(Refused, match=r"3 kept away from table 4, but the tables are "
                                      r"1\.\.3"):
        instance(30, 10, away=[(2, 3)])


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([(30, 10, 3), (20, 6, 2), (35, 6, 3), (40, 5, 4)]),
       st.integers(1, 4), st.sets(st.integers(0, 19), min_size=1, max_size=2),
       st.integers(0, 2**16))
def test_after_a_withdrawal_the_played_rounds_stay_and_the_rest_is_valid(
        shape: tuple[int, int, int], played: int, gone: set[int], seed: int) -> None:
    players, games, tables = shape
    inst = instance(players, games, tables, apart=[(0, 1), (2, 3)], away=[(4, 0)])
    first = plan.make(inst, seed, WORK)
    played = min(played, len(first.layout) - 1)
    again = plan.make(inst, seed + 1, WORK, Keep(first.layout[:played], frozenset(gone)))
    assert again.start == "kept"
    assert again.layout[:played] == first.layout[:played]
    assert len(again.layout) == len(first.layout)
    rest = again.layout[played:]
    assert not {p for round_ in rest for game in round_ for p in game} & gone
    valid(inst, again.layout)
    totals = Counter(p for round_ in again.layout for game in round_ for p in game)
    free = [totals[p] for p in range(5, players) if p not in gone]
    assert max(free) - min(free) <= 1  # the seats to come shared as evenly as they can be
    assert all(totals[p] <= max(free) for p in range(5) if p not in gone)
    left_over = (players - len(gone)) // 10
    assert all(len(round_) == min(left_over, len(first.layout[played + k]))
               for k, round_ in enumerate(rest))


def test_a_withdrawal_that_keeps_nothing_or_leaves_nine_is_refused() -> None:
    inst = instance(20, 6, 2)
    made = plan.make(inst, 1, WORK)
    with pytest.raises(Refused, match="rounds kept: 0 of 6"):
        plan.make(inst, 1, WORK, Keep([], frozenset({0})))
    with pytest.raises(Refused, match="players left: 9"):
        plan.make(inst, 1, WORK, Keep(made.layout[:2], frozenset(range(11))))
    broken = [[list(range(10)), list(range(5, 15))], *made.layout[1:2]]
    with pytest.raises(Refused, match="round 1 as played is not ten different players"):
        plan.make(inst, 1, WORK, Keep(broken, frozenset({0})))


def test_a_finals_fixed_seats_are_held_and_the_rest_balanced() -> None:
    """Ten finalists, four games at one table: the first three fixed in every game (seats 1,
    2, 3), the fourth at seat 10 in game 2."""
    fixed = {(r, p, p) for r in range(4) for p in range(3)} | {(1, 3, 9)}
    inst = instance(10, 4, 1, seats=fixed)
    made = plan.make(inst, 5, 0.2)
    for r, p, seat in fixed:
        assert made.layout[r][0][seat] == p
    assert all(sorted(game) == list(range(10)) for round_ in made.layout for game in round_)
    others = Counter((p, s) for round_ in made.layout for game in round_
                     for s, p in enumerate(game) if p >= 3)
    assert max(others.values()) <= 2  # the free seats still spread


def test_fixed_seats_that_clash_are_refused() -> None:
    with pytest.raises(Refused, match="round 1: seat 2 is fixed for 1 and 2"):
        instance(10, 3, 1, seats=[(0, 0, 1), (0, 1, 1)])
    with pytest.raises(Refused, match=r"1: two seats in round 2 \(1 and 5\)"):
        instance(10, 3, 1, seats=[(1, 0, 0), (1, 0, 4)])
    with pytest.raises(Refused, match=r"1: a seat in round 4, but the rounds are 1\.\.3"):
        instance(10, 3, 1, seats=[(3, 0, 0)])
    assert instance(20, 3, 2, apart=[(0, 1)], seats=[(0, 0, 1), (0, 1, 1)]).seats  # apart: fine


def test_a_last_round_with_fewer_tables_takes_the_players_left() -> None:
    """43 players at 4 tables, 10 games each: 43 games, 10 full rounds and one of 3 tables;
    everyone plays 10 games, the last round's 30 players among them."""
    inst = instance(43, 10, 4, away=[(0, 3)])
    made = plan.make(inst, 4, 0.3)
    assert [len(r) for r in made.layout] == [4] * 10 + [3]
    valid(inst, made.layout)
    assert Counter(p for r in made.layout for g in r for p in g) == Counter(
        {p: 10 for p in range(43)})


@st.composite
def feasible_rules(draw: st.DrawFn) -> tuple[Instance, int]:
    """An instance with restrictions some seating holds, and a seed: groups kept apart, tables
    kept from players, pairs to meet rarely. Feasible by making: each restricted player has a
    hidden table (at most 10 a table), a group takes players of different hidden tables and a
    player is kept only from tables not theirs."""
    players, games, tables = draw(st.sampled_from(
        [(20, 4, 2), (30, 5, 3), (40, 4, 4), (35, 4, 3), (25, 4, 2), (43, 10, 4)]))
    restricted = draw(st.lists(st.integers(0, players - 1), min_size=2, max_size=8,
                               unique=True))
    hidden = {p: k % tables for k, p in enumerate(restricted)}  # <= 8 a table: room for all
    by_table = [[p for p in restricted if hidden[p] == t] for t in range(tables)]
    apart: set[tuple[int, int]] = set()
    for _ in range(draw(st.integers(0, 3))):  # groups: one player of each of some tables
        chosen = draw(st.lists(st.sampled_from(range(tables)), min_size=2, max_size=tables,
                               unique=True)) if tables > 1 else []
        group = [draw(st.sampled_from(by_table[t])) for t in chosen if by_table[t]]
        apart |= {(min(a, b), max(a, b)) for a, b in itertools.combinations(group, 2)}
    away = {(p, t) for p in restricted for t in range(tables)
            if t != hidden[p] and draw(st.booleans())}
    avoid = set(draw(st.lists(st.tuples(st.integers(0, players - 1),
                                        st.integers(0, players - 1)).filter(
        lambda ab: ab[0] < ab[1]), max_size=4))) - apart
    return instance(players, games, tables, apart=apart, avoid=avoid, away=away), \
        draw(st.integers(0, 2**16))


@settings(max_examples=25, deadline=None)
@given(feasible_rules())
def test_restrictions_some_seating_holds_are_never_broken(case: tuple[Instance, int]) -> None:
    """Whatever groups, tables kept from players and pairs to avoid a feasible instance has:
    no kept-apart pair ever at one table, no one at a table kept from them, every round ten
    different players a table, everyone the same number of games."""
    inst, seed = case
    made = plan.make(inst, seed, WORK)
    valid(inst, made.layout)
    games = Counter(p for round_ in made.layout for game in round_ for p in game)
    assert games == Counter({p: inst.games for p in range(inst.players)})


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 6), st.data())
def test_a_finals_fixed_seats_are_always_as_fixed(rounds: int, data: st.DataObject) -> None:
    """Ten finalists at one table: any seats fixed without two players on one seat of a round
    nor a player on two: each exactly as fixed, every game the ten finalists."""
    fixed: dict[tuple[int, int], int] = {}  # (round, seat) -> player
    for r in range(rounds):
        who = data.draw(st.lists(st.integers(0, 9), max_size=10, unique=True))
        where = data.draw(st.permutations(range(10)))
        fixed |= {(r, where[k]): p for k, p in enumerate(who)}
    inst = instance(10, rounds, 1, seats={(r, p, s) for (r, s), p in fixed.items()})
    made = plan.make(inst, data.draw(st.integers(0, 99)), WORK)
    assert all(made.layout[r][0][s] == p for (r, s), p in fixed.items())
    assert all(sorted(round_[0]) == list(range(10)) for round_ in made.layout)
