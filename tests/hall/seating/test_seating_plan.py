"""The seating generator (hall/seating/): whatever the instance, every round seats every
player once, ten to a table, every player plays their games, kept-apart pairs never share a
table, no one sits at a table kept from them, fixed seats are held, the same seed gives the
same seating, and it refuses exactly what cannot be seated."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.seating import chart as seating
from hall.seating import floor, groups, labels, plan
from hall.seating.floor import players_floor
from hall.seating.inputs import default_names
from hall.seating.instance import Instance, Refused, instance
from hall.seating.scores import number_counts, players_score, table_counts
from hall.seating.split import split
from kit.i18n import render

WORK = 0.02  # seconds of work: enough to seat, the properties hold at any budget


@st.composite
def instances(draw: st.DrawFn) -> Instance:
    """Small instances of every shape: one to four tables, players sitting out or not, short
    last rounds, a few pairs kept apart or avoiding each other, players kept from a table,
    fixed seats."""
    tables = draw(st.integers(1, 4))
    players = draw(st.integers(10 * tables, 10 * tables + 7))
    games = draw(st.sampled_from([g for g in range(1, 13) if players * g % 10 == 0]))
    pair = st.tuples(st.integers(0, players - 1), st.integers(0, players - 1)).filter(
        lambda p: p[0] != p[1])
    apart = draw(st.lists(pair, max_size=4)) if players >= 10 * tables + 2 or tables > 1 else []
    avoid = draw(st.lists(pair, max_size=2))
    avoid = [p for p in avoid if tuple(sorted(p)) not in {tuple(sorted(q)) for q in apart}]
    away = draw(st.dictionaries(st.integers(0, players - 1), st.integers(0, tables - 1),
                                max_size=3)).items() if tables > 1 else []
    rounds = len(Instance(players, games, tables).round_tables())
    fixed = draw(st.dictionaries(st.tuples(st.integers(0, rounds - 1), st.integers(0, 9)),
                                 st.integers(0, players - 1), max_size=3))
    seats = {(r, p, s) for (r, s), p in fixed.items()}
    seats = {(r, p, s) for r, p, s in seats if sum(1 for q in seats if q[:2] == (r, p)) == 1}
    return instance(players, games, tables, apart, avoid, away, seats)


def seated(inst: Instance, seed: int) -> plan.Plan | None:
    try:
        return plan.make(inst, seed, WORK)
    except Refused:
        return None


@settings(max_examples=40)
@given(instances(), st.integers(0, 2**32 - 1))
def test_every_round_seats_every_player_once_and_keeps_the_pairs_apart(inst: Instance,
                                                                       seed: int) -> None:
    made = seated(inst, seed)
    if made is None:  # refused: then the pairs cannot be split over the tables
        with pytest.raises(Refused):
            split(inst)
        return
    assert [len(r) for r in made.layout] == inst.round_tables()
    games = [0] * inst.players
    for round_ in made.layout:
        players = [p for game in round_ for p in game]
        assert all(len(game) == 10 for game in round_)
        assert len(set(players)) == len(players)  # nobody twice in a round
        for p in players:
            games[p] += 1
        for t, game in enumerate(round_):
            assert not {(a, b) for a in game for b in game if a < b} & inst.apart
            assert not {(p, t) for p in game} & inst.away
    assert games == [inst.games] * inst.players
    for r, p, seat in inst.seats:  # a fixed seat is held wherever the player plays that round
        assert all(game[seat] == p for game in made.layout[r] if p in game)


@settings(max_examples=15)
@given(instances(), st.integers(0, 2**32 - 1))
def test_the_same_seed_gives_the_same_seating(inst: Instance, seed: int) -> None:
    first, again = seated(inst, seed), seated(inst, seed)
    assert (first is None) == (again is None)
    if first is not None and again is not None:
        assert first.layout == again.layout and first.scores == again.scores


@settings(max_examples=15)
@given(instances(), st.integers(0, 2**32 - 1))
def test_the_csv_is_what_the_board_reads(inst: Instance, seed: int) -> None:
    made = seated(inst, seed)
    if made is not None:
        names = default_names(inst.players)
        board = plan.named(made.layout, names)
        assert seating.parse(seating.render(board), seats=10) == board


@settings(max_examples=15)
@given(st.integers(1, 4), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_whole_tens_of_games_give_every_player_every_number_equally(tables: int, tens: int,
                                                                    seed: int) -> None:
    inst = instance(10 * tables + 3 * (tables > 1), 10 * tens, tables)
    made = plan.make(inst, seed, WORK)
    assert made.scores.numbers == 0
    assert all(row == [tens] * 10 for row in number_counts(inst.definition(), made.layout))


def splittable(players: int, tables: int, pairs: set[tuple[int, int]]) -> bool:
    """The oracle, by brute force: some table for each kept-apart player with no pair at one
    table and no table over 10 of them."""
    restricted = sorted({p for pair in pairs for p in pair})
    for choice in itertools.product(range(tables), repeat=len(restricted)):
        at = dict(zip(restricted, choice, strict=True))
        if all(at[a] != at[b] for a, b in pairs) and max(
                (choice.count(t) for t in range(tables)), default=0) <= 10:
            return True
    return False


@settings(max_examples=60)
@given(st.integers(1, 4), st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)).filter(
    lambda p: p[0] < p[1]), max_size=12), st.integers(1, 3))
def test_a_full_hall_refuses_the_pairs_exactly_when_no_split_exists(
        tables: int, pairs: set[tuple[int, int]], games: int) -> None:
    inst = instance(10 * tables, games, tables, pairs)
    possible = splittable(inst.players, tables, inst.apart)
    made = seated(inst, 1)
    assert (made is not None) == possible


def test_a_player_kept_apart_from_more_than_the_other_tables_hold_is_refused() -> None:
    with pytest.raises(Refused, match="1 is kept apart from 11 others"):
        split(instance(20, 10, apart=[(0, k) for k in range(1, 12)]))
    assert split(instance(20, 10, apart=[(0, k) for k in range(1, 11)]))[0] == 0


def test_more_kept_apart_from_each_other_than_tables_is_refused_naming_them() -> None:
    group = [(a, b) for a, b in itertools.combinations(range(4), 2)]
    with pytest.raises(Refused, match=r"1, 2, 3, 4 must all sit apart from each other"):
        split(instance(30, 10, apart=group))
    assert len(split(instance(40, 10, apart=group))) == 4
    with pytest.raises(Refused, match="1 and 2 are kept apart, and every round has one "
                                      "table"):
        split(instance(15, 2, apart=[(0, 1)]))


@given(st.integers(0, 60), st.integers(0, 15), st.integers(-1, 7))
def test_the_numbers_are_refused_exactly_when_they_cannot_work(players: int, games: int,
                                                               tables: int) -> None:
    impossible = (players < 10 or games < 1 or tables < 1 or tables > max(1, players // 10)
                  or players * games % 10 != 0)
    try:
        instance(players, games, tables)
    except Refused as exc:
        assert impossible, exc.reasons
    else:
        assert not impossible


def test_each_refusal_says_why() -> None:
    with pytest.raises(Refused) as caught:
        instance(9, 3, 2, apart=[(0, 0), (3, 12)])
    assert [str(r) for r in caught.value.reasons] == [
        "players: 9; a game needs 10",  # never "1 tables": no count agrees with a word
        "tables: 2; the players (9) fill at most this many tables of 10 in a round: 1",
        "players 9 x games 3 = 27 in all, not a multiple of 10: the players cannot all play "
        "the same number of games",
        "apart pair (1, 1): a player with themself",
        "apart pair (4, 13): the players are 1..9"]
    assert [render(r, "ru") for r in caught.value.reasons][:2] == [  # the tournament page's
        "игроков: 9, а за столом играют 10",
        "столов: 2, а игроки (9) займут в туре не больше столов по 10: 1"]
    with pytest.raises(Refused, match="both kept apart and allowed to meet"):
        instance(20, 5, apart=[(0, 1)], avoid=[(1, 0)])


def test_players_sitting_out_take_turns_evenly() -> None:
    """35 players at 3 tables, 6 games each: 21 games, 7 rounds, 5 players out each round."""
    inst = instance(35, 6, 3, apart=[(0, 1), (2, 3)])
    made = plan.make(inst, 7, 0.2)
    assert [len(r) for r in made.layout] == [3] * 7
    out = [sorted(set(range(35)) - {p for g in r for p in g}) for r in made.layout]
    assert all(len(o) == 5 for o in out)


def test_a_short_last_round_holds_only_players_its_tables_can_take() -> None:
    """37 players at 3 tables, 10 games each: 37 games, 12 full rounds and one of one table;
    the pairs kept apart split over the 3 tables, so the last round takes only those whose
    split table it has, or who are kept apart from nobody."""
    inst = instance(37, 10, 3, apart=[(0, 1), (1, 2), (0, 2), (3, 4)])
    kept = split(inst)
    rounds = groups.presence(inst, kept, np.random.default_rng(0))
    assert [len(r) for r in rounds] == [30] * 12 + [10]
    assert all(kept.get(int(p), 0) == 0 for p in rounds[-1])
    made = plan.make(inst, 3, 0.2)
    assert [len(r) for r in made.layout] == [3] * 12 + [1]


def test_thirty_players_ten_rounds_reach_the_floor() -> None:
    """The cyclic start gives the least players score a 3-table hall can have."""
    inst = instance(30, 10)
    made = plan.make(inst, 1, 2.0)
    assert made.start == "cyclic"
    assert made.scores.players == pytest.approx(players_floor(inst))


def test_where_the_pairs_floor_holds_the_tables_up_pairs_are_traded_for_tables() -> None:
    """50 x 8: the pairs first reach their floor (555.10), where the tables cannot go below
    320 (floor.py's J - players); the rest of the work trades pairs for tables, and the seating
    kept has fewer tables and still pairs far from a random seating's."""
    inst = instance(50, 8)
    made = plan.make(inst, 1, 3.0)
    assert made.start == "cyclic"
    assert made.scores.tables < 320
    assert players_floor(inst) < made.scores.players < 1.4 * players_floor(inst)
    assert made.scores.players + made.scores.tables >= floor.joint(inst)  # type: ignore[operator]
    thirty = plan.make(instance(30, 10), 1, 2.0)  # not held up there: the pairs stay first
    assert thirty.scores.players == pytest.approx(players_floor(instance(30, 10)))


def test_renumbering_the_tables_changes_only_the_tables_score() -> None:
    inst = instance(50, 8)
    rng = np.random.default_rng(4)
    before = groups.random_start(inst, {}, rng)
    after = labels.renumber(inst, before, rng, 20)
    defn = inst.definition()

    def layout(table_of: np.ndarray) -> list[list[list[int]]]:
        return [[[int(p) for p in np.flatnonzero(row == t)] for t in range(5)] for row in table_of]

    assert players_score(defn, layout(before)) == players_score(defn, layout(after))
    assert labels.tables_cost(inst, after) < labels.tables_cost(inst, before)
    assert all(sum(row) == 8 for row in table_counts(defn, layout(after)))


def test_avoid_pairs_meet_no_more_than_expected() -> None:
    inst = instance(30, 10, avoid=[(0, 1), (2, 3)])
    made = plan.make(inst, 2, 1.0)
    from hall.seating.scores import meetings

    m = meetings(inst.definition(), made.layout)
    assert m[0][1] <= 3 and m[2][3] <= 3  # expected 3.10
