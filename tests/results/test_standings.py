"""A tournament's standings (results/standings.py): totals by preset, the platform's tie-break
order and its Ci compensation, stages scored apart; and properties: the order is total and
deterministic, a tie-break never reorders players whose totals differ, a game added to a round
changes that round, its stage and the overall table only."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.record import document as rec
from results import scoring
from results.standings import FINAL, MAIN, Game, Round, place_text, standings

ROLES = ["don", "mafia", "mafia", "sheriff", *["civilian"] * 6]
FIIM = scoring.presets()["fiim"]
PLAIN = msgspec.structs.replace(FIIM, compensation=scoring.Compensation())  # no Ci
NAMES = [f"P{k:02d}" for k in range(1, 21)]


def game(names: Sequence[str], winner: str | None = "red", victim: int | None = None,
         guesses: Sequence[int] = (), extra: Sequence[tuple[int, float]] = (),
         roles: Sequence[str] = ROLES, id: str = "g", status: str | None = None) -> rec.Record:
    """A finished game's record with only what scoring reads."""
    night = rec.Night(number=1, at=0.0, killed=victim,
                      best_move=rec.BestMove(by=victim, guesses=list(guesses))
                      if victim is not None and guesses else None)
    return rec.Record(
        id=id, table="table-1", created=0.0, started=1.0, ended=2.0, winner=winner,
        status=status or ("finished" if winner else "abandoned"), nights=[night],
        players=[rec.Player(seat=s, name=n, role=r) for s, (n, r)
                 in enumerate(zip(names, roles, strict=True), start=1)],
        extra_points=[rec.ExtraPoints(seat=s, points=p, reason="r", by="judge", at=0.0)
                      for s, p in extra])


def order(table) -> list[str]:
    return [row.player for row in table.rows]


def row(table, player: str):
    return next(r for r in table.rows if r.player == player)


TEN = NAMES[:10]  # seats 1..10: the don, two mafia, the sheriff, six civilians


def test_the_total_is_every_games_points_added_up_by_the_preset():
    games = [Game(game(TEN, "red"), 1), Game(game(TEN, "black", extra=[(5, 0.3)]), 2)]
    table = standings(games, [Round(1), Round(2)], PLAIN).overall
    assert row(table, "P01").total == 1.0  # the don won one
    assert row(table, "P05").total == 1.3 and row(table, "P05").extra == 0.3
    assert row(table, "P04").games == 2 and row(table, "P04").wins == 1
    # P05 first; the don and the sheriff (a special role's win) share 2-3; the rest 4-10
    assert [(r.place, r.last) for r in table.rows] == [(1, 1), (2, 3), (2, 3), *[(4, 10)] * 7]


def test_equal_totals_go_by_the_platforms_default_order_epg_then_w_s_k():
    """include/scoring.php: SCORING_DEFAULT_SORTING '(epg)wsk' (line 68), compare_scores
    (lines 978-1107): the bracket sums the extra, penalty and legacy (best move) points; then
    the wins, the wins as the Sheriff or the Don, the times shot on night 1 as red; the higher
    first; then (here) the name."""
    comp = msgspec.structs.replace(PLAIN, compensation=scoring.Compensation(first_shot=1.0))
    first = ["D1", "M1", "M2", "S1", "C1", "C2", "C3", "C4", "C5", "C6"]
    second = ["N1", "N2", "N3", "N4", "K", "Y", "N7", "N8", "N9", "N10"]
    third = ["Y", "N2", "N3", "N4", "N11", "N1", "N7", "N8", "N9", "N10"]
    games = [Game(game(first, "red"), 1),                        # S1, C1..C6: 1 win each
             Game(game(second, "black", victim=5), 2),           # K shot first: compensated
             Game(game(third, "red", extra=[(1, 1.0)]), 3)]      # Y (the don, lost): extra
    table = standings(games, [Round(n) for n in (1, 2, 3)], comp).overall
    equal = [r for r in table.rows if r.total == 1.0]
    # Y: 1.0 of extra (e); S1, N4: a win as the Sheriff (w, s); C1..C6, N6..N10: a win (w);
    # K: shot first (k), compensated, no win
    assert equal[0].player == "Y" and equal[0].extra == 1.0 and equal[0].wins == 0
    assert [r.player for r in equal[1:3]] == ["N4", "S1"]  # a special role's win, by name
    assert equal[1].place == equal[2].place == equal[1].last - 1  # and share a place
    assert all(r.wins == 1 and r.special_role_wins == 0 for r in equal[3:-1])
    assert [r.player for r in equal[3:-1]] == sorted(r.player for r in equal[3:-1])
    assert equal[-1].player == "K" and equal[-1].first_killed == 1 and equal[-1].wins == 0


def test_players_the_tie_breaks_leave_equal_share_their_places_listed_by_name():
    """Issue 39: equal totals got distinct places (by name, which is no tie-break); now the
    places the tie-breaks cannot tell apart are shared: «3-4» (an en dash)."""
    games = [Game(game(TEN, "red"), 1)]
    table = standings(games, [Round(1)], PLAIN).overall
    civilians = [r for r in table.rows if r.player in TEN[4:]]
    assert {(r.place, r.last) for r in civilians} == {(2, 7)}
    assert [r.player for r in civilians] == sorted(TEN[4:])
    assert [place_text(r) for r in table.rows[:2]] == ["1", "2\u20137"]


def test_the_platforms_last_key_is_the_players_id_when_every_one_is_known():
    """include/scoring.php compare_scores: equal on every key, the lower id first."""
    by_id = msgspec.structs.replace(PLAIN, standings=msgspec.structs.replace(
        PLAIN.standings, by_id=True))
    games = [Game(game(TEN, "red"), 1)]
    ids = {name: 100 - k for k, name in enumerate(TEN)}  # the later the name, the lower the id
    table = standings(games, [Round(1)], by_id, ids=ids).overall
    civilians = [r for r in table.rows if r.player in TEN[4:]]
    assert [r.player for r in civilians] == TEN[4:][::-1]
    assert [(r.place, r.last) for r in civilians] == [(n, n) for n in range(2, 8)]
    partly = standings(games, [Round(1)], by_id, ids={TEN[4]: 1}).overall  # not all known
    assert {(r.place, r.last) for r in partly.rows if r.player in TEN[4:]} == {(2, 7)}


def test_first_night_deaths_as_red_break_the_last_tie_and_black_ones_do_not_count():
    games = [Game(game(TEN, "black", victim=7), 1), Game(game(TEN, "red", victim=2), 2)]
    table = standings(games, [Round(1), Round(2)], PLAIN).overall
    assert row(table, "P07").first_killed == 1 and row(table, "P02").first_killed == 0
    assert order(table).index("P07") < order(table).index("P05")  # 1.0 each: shot first


@pytest.mark.parametrize(("games", "first", "expected"), [
    (1, 1, 0.4),    # round(1 * 0.4) = 0: x / 0 is the cap
    (3, 1, 0.4),    # 1 * 0.4 / round(1.2) = 0.4
    (5, 1, 0.2),    # 1 * 0.4 / round(2.0) = 0.2
    (10, 2, 0.2),   # 2 * 0.4 / round(4.0) = 0.2 each
    (10, 5, 0.4),   # 5 * 0.4 / 4 = 0.5: capped at 0.4
    (4, 1, 0.2),    # round(1.6) = 2
])
def test_ci_compensates_each_lost_first_night_death_by_how_often_over_the_stage(
        games: int, first: int, expected: float):
    """FIIM's Ci (mafiaratings scoring 19, db/alter153.sql): in each game the red player was
    shot on night 1 and lost, min(K * 0.4 / round(G * 0.4), 0.4)."""
    played = [Game(game(TEN, "black", victim=7 if k < first else None, id=f"g{k}"), 1)
              for k in range(games)]
    r = row(standings(played, [Round(1)], FIIM).overall, "P07")
    assert (r.games, r.first_killed) == (games, first)
    assert r.ci == pytest.approx(first * expected)
    assert r.total == pytest.approx(r.ci)  # the reds lost every game


def test_ci_counts_no_game_the_victims_side_won():
    played = [Game(game(TEN, "red", victim=7, id="won"), 1),
              Game(game(TEN, "black", victim=7, id="lost"), 1),
              Game(game(TEN, "black", id="a"), 1)]
    r = row(standings(played, [Round(1)], FIIM).overall, "P07")
    # K = 2 (both first-night deaths), G = 3: 2 * 0.4 / round(1.2) = 0.8, capped 0.4, once
    assert (r.first_killed, r.ci, r.total) == (2, 0.4, 1.4)


def test_the_final_is_scored_apart_its_ci_counted_over_the_final_alone():
    rounds = [Round(1), Round(2), Round(3, FINAL)]
    main = [Game(game(TEN, "black", id="m1"), 1), Game(game(TEN, "black", id="m2"), 2)]
    final = [Game(game(TEN, "black", victim=7, id="f1"), 3)]
    tables = standings(main + final, rounds, FIIM)
    # in the final alone: G = 1, K = 1: the cap, 0.4; over all three games it would be 0.4 too,
    # but over the main stage's two games plus this one the main stage shows none
    assert row(tables.stages[FINAL], "P07").ci == 0.4
    assert row(tables.stages[MAIN], "P07").ci == 0.0
    assert row(tables.overall, "P07").ci == 0.4
    assert tables.stages[FINAL].games == 1 and tables.stages[MAIN].games == 2
    assert list(tables.stages) == [MAIN, FINAL]


def test_abandoned_games_unnamed_seats_and_unknown_rounds_count_for_nobody():
    names = ["", *TEN[1:]]
    games = [Game(game(names, "red"), 1), Game(game(TEN, None, id="ab"), 1),
             Game(game(TEN, "red", id="elsewhere"), 9)]
    tables = standings(games, [Round(1)], PLAIN, players=["Z"])
    assert "" not in order(tables.overall) and "P01" not in order(tables.overall)
    assert row(tables.overall, "Z").games == 0  # registered, no game yet: stands with nothing
    assert tables.overall.games == 1 and tables.rounds[1].games == 1


def test_a_bad_tie_break_name_is_refused_with_the_names_allowed():
    with pytest.raises(msgspec.ValidationError, match="winz is not one of win, best_move"):
        msgspec.convert({"tie_break": ["winz"]}, scoring.Standings)


# ------------------------------------------------------------------ properties


@st.composite
def tournaments(draw) -> tuple[list[Game], list[Round]]:
    """Random finished games of random players over a few rounds (the last may be a final)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    rounds = [Round(n) for n in range(1, draw(st.integers(1, 4)) + 1)]
    if draw(st.booleans()):
        rounds[-1] = Round(rounds[-1].number, FINAL)
    games = []
    for k in range(draw(st.integers(0, 12))):
        names = rng.sample(NAMES[:draw(st.integers(10, 20))], 10)
        roles = rng.sample(ROLES, 10)
        victim = rng.choice([None, *range(1, 11)])
        guesses = rng.sample(range(1, 11), 3) if victim and rng.random() < 0.5 else []
        extra = [(rng.randint(1, 10), rng.choice([0.1, 0.2, 0.3, -0.5]))
                 for _ in range(rng.randint(0, 2))]
        games.append(Game(game(names, rng.choice(["red", "black"]), victim, guesses, extra,
                               roles, id=f"g{k}"), rng.choice(rounds).number))
    return games, rounds


def every_table(s):
    return [s.overall, *s.stages.values(), *s.rounds.values()]


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_the_order_is_total_and_the_same_whatever_the_order_of_the_games(t, rnd):
    games, rounds = t
    shuffled = list(games)
    rnd.shuffle(shuffled)
    first, again = standings(games, rounds, FIIM), standings(shuffled, rounds, FIIM)
    assert first == again
    keys = [key.split("+") for key in FIIM.standings.tie_break]
    for table in every_table(first):
        players = order(table)
        assert len(set(players)) == len(players)
        ranks = [(-r.total, *(-round(sum(getattr(r, n) for n in k), 6) for k in keys))
                 for r in table.rows]
        sort_keys = [(*rank, r.player) for rank, r in zip(ranks, table.rows, strict=True)]
        assert all(a < b for a, b in itertools.pairwise(sort_keys))  # strictly
        for rank, r in zip(ranks, table.rows, strict=True):  # equal ranks share, only they
            assert r.place == 1 + sum(other < rank for other in ranks)
            assert r.last == sum(other <= rank for other in ranks)


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.permutations(scoring.TIE_BREAK_NAMES))
def test_a_tie_break_never_reorders_players_whose_totals_differ(t, names):
    games, rounds = t
    other = msgspec.structs.replace(FIIM, standings=scoring.Standings(tie_break=list(names)))
    for a, b in zip(every_table(standings(games, rounds, FIIM)),
                    every_table(standings(games, rounds, other)), strict=True):
        assert [r.total for r in a.rows] == [r.total for r in b.rows]
        assert sorted((r.total, r.player) for r in a.rows) == sorted(
            (r.total, r.player) for r in b.rows)
        totals = [r.total for r in a.rows]
        assert totals == sorted(totals, reverse=True)


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.integers(0, 2**32))
def test_a_game_added_to_a_round_changes_only_that_round_its_stage_and_the_overall(t, seed):
    games, rounds = t
    rng = random.Random(seed)
    target = rng.choice(rounds)
    added = Game(game(rng.sample(NAMES, 10), rng.choice(["red", "black"]),
                      rng.choice([None, 3, 7]), id="added"), target.number)
    before, after = standings(games, rounds, FIIM), standings([*games, added], rounds, FIIM)
    for r in rounds:
        if r.number != target.number:
            assert before.rounds[r.number] == after.rounds[r.number]
    for stage, table in before.stages.items():
        if stage != target.stage:
            assert after.stages[stage] == table
    assert after.rounds[target.number].games == before.rounds[target.number].games + 1
    assert after.overall.games == before.overall.games + 1


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_without_ci_the_overall_is_the_sum_of_the_rounds_and_of_each_games_scores(t):
    games, rounds = t
    tables = standings(games, rounds, PLAIN)
    by_hand: dict[str, float] = {}
    for g in games:
        for s in scoring.score(g.record, PLAIN):
            by_hand[s.name] = by_hand.get(s.name, 0.0) + s.total
    for r in tables.overall.rows:
        assert r.total == pytest.approx(by_hand[r.player])
        in_rounds = sum(x.total for t_ in tables.rounds.values() for x in t_.rows
                        if x.player == r.player)
        assert r.total == pytest.approx(in_rounds)
