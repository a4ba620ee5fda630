"""Scores by preset (results/scoring.py, config/scoring/*.toml) on hand-made records with known
totals, bad preset files, and properties: the parts add up, the winners' side and only it gets
the win points, extra points go to their seat alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.record import document as rec
from kit.config import ConfigError
from results import scoring

ROLES = ["don", "mafia", "mafia", "sheriff", *["civilian"] * 6]
PRESETS = scoring.presets()
FIIM, CROW = PRESETS["fiim"], PRESETS["crow-club"]


def hand_made(winner: Any = "red", victim: int | None = 7,
              guesses: list[int] | None = None, left: dict[int, Any] | None = None,
              extra: Sequence[tuple[int, float]] = ()) -> rec.Record:
    """A record with only what scoring reads: the cards, who left how, the first night, the
    winner and the judge's extra points."""
    left = left or {}
    players = [rec.Player(seat=s, role=r, left=None if s not in left else
                          rec.Departure(how=left[s], at=0.0, day=1, night=1))
               for s, r in enumerate(ROLES, start=1)]
    night = rec.Night(number=1, at=0.0, killed=victim,
                      best_move=None if guesses is None or victim is None else
                      rec.BestMove(by=victim, guesses=guesses))
    return rec.Record(id="t", table="t", created=0.0, started=1.0, players=players,
                      nights=[night], winner=winner,
                      status="finished" if winner else "in_progress",
                      extra_points=[rec.ExtraPoints(seat=s, points=p, reason="r", by="j",
                                                    at=0.0) for s, p in extra])


def totals(record: rec.Record, preset: scoring.Preset) -> list[float]:
    return [s.total for s in scoring.score(record, preset)]


def test_fiim_1_4_the_winning_side_takes_the_win_points():
    assert totals(hand_made("red", victim=None), FIIM) == [0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    assert totals(hand_made("black", victim=None), FIIM) == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]


def test_fiim_4_5_9_best_move_three_black_guesses_and_two():
    three = hand_made("red", victim=7, guesses=[1, 2, 3])
    assert totals(three, FIIM)[6] == 1.5  # win 1 + 0.5
    two = hand_made("black", victim=7, guesses=[1, 2, 9])
    assert totals(two, FIIM)[6] == 0.25 and "2 of 3 black" in scoring.score(two, FIIM)[6].notes[0]
    one = hand_made("black", victim=7, guesses=[1, 8, 9])
    assert totals(one, FIIM)[6] == 0


def test_fiim_4_5_9_a_black_shot_by_their_own_side_scores_no_guesses():
    assert totals(hand_made("red", victim=2, guesses=[1, 3, 4]), FIIM)[1] == 0


def test_fiim_6_removals_and_disqualification_by_the_preset():
    record = hand_made("red", victim=None, left={5: "fouls", 6: "disqualified"})
    assert totals(record, FIIM)[4:6] == [1.0, 0.5]  # FIIM: no points for fouls, -0.5 DQ
    assert totals(record, CROW)[4:6] == [1.0, 1.0]  # Crow: 2 - 1 each (§6 «вскрытие карты»)


def test_crow_club_compensates_the_first_nights_victim_whose_side_lost():
    lost = hand_made("black", victim=7)
    assert totals(lost, CROW)[6] == 0.5 and totals(lost, FIIM)[6] == 0
    won = hand_made("red", victim=7)
    assert totals(won, CROW)[6] == 2.0  # the win only: no compensation for a winner
    abandoned = hand_made(None, victim=7)
    assert totals(abandoned, CROW) == [0] * 10  # no result, no win, no compensation


def test_the_judges_extra_points_with_their_reason():
    record = hand_made("red", victim=None, extra=[(4, 0.3), (4, 0.2), (1, -0.4)])
    scores = scoring.score(record, FIIM)
    assert (scores[3].extra, scores[3].total) == (0.5, 1.5) and scores[0].total == -0.4
    assert "extra +0.3: r" in scores[3].notes


@pytest.mark.parametrize(("text", "says"), [
    ("title = {en = 'x'}\n[win]\npoints = 1\n", "best_move"),
    ("title = {en = 'x'}\n[win]\npoints = 'one'\n[best_move]\nguessed = [0, 0, 0, 0]\n", "points"),
    ("title = {en = 'x'}\n[win]\npoints = 1\n[best_move]\nguessed = [0, 1]\n", "guessed"),
    ("title = {en = 'x'}\n[win]\npoints = 1e9\n[best_move]\nguessed = [0, 0, 0, 0]\n", "points"),
    ("title = {en = 'x'}\ncolour = 2\n[win]\npoints = 1\n[best_move]\nguessed = [0, 0, 0, 0]\n",
     "colour"),
    ("title = [", "Invalid value"),
    ("title = {ru = 'х'}\n[win]\npoints = 1\n[best_move]\nguessed = [0, 0, 0, 0]\n",
     "title: no 'en' text"),  # every language falls back to English
    ("title = {en = 'x', rus = 'х'}\n[win]\npoints = 1\n[best_move]\nguessed = [0, 0, 0, 0]\n",
     r"title\.rus: no such language"),
])
def test_a_bad_preset_file_is_refused_naming_the_key(tmp_path, text, says):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=says):
        scoring.load(path)


def test_a_preset_written_before_titles_were_per_language_is_told_what_to_write(tmp_path):
    path = tmp_path / "old.toml"
    path.write_text("name = 'Club'\n[win]\npoints = 1\n[best_move]\nguessed = [0, 0, 0, 0]\n")
    with pytest.raises(ConfigError) as refused:
        scoring.load(path)
    assert refused.value.problems == [
        'name: a scoring preset\'s title is now per language: title = { ru = "Club", en = "Club" }']


records = st.builds(
    hand_made, st.sampled_from(["red", "black", None]), st.sampled_from([None, *range(1, 11)]),
    st.one_of(st.none(), st.lists(st.integers(1, 10), min_size=3, max_size=3, unique=True)),
    st.dictionaries(st.integers(1, 10), st.sampled_from(["fouls", "disqualified", "shot"]),
                    max_size=4),
    st.lists(st.tuples(st.integers(1, 10), st.floats(-5, 5).map(lambda x: round(x, 2))),
             max_size=5))


@settings(max_examples=300, deadline=None)
@given(records, st.sampled_from(sorted(PRESETS)))
def test_totals_add_up_and_only_the_winners_side_gets_the_win(record, name):
    preset = PRESETS[name]
    scores = scoring.score(record, preset)
    for s in scores:
        parts = s.win + s.best_move + s.penalty + s.compensation + s.extra
        assert s.total == pytest.approx(parts)
        assert s.won == (record.winner is not None and s.side == record.winner)
        assert s.win == (preset.win.points if s.won else 0)
        assert s.extra == pytest.approx(preset.extra.per_game + sum(
            x.points for x in record.extra_points if x.seat == s.seat))
    without = scoring.score(rec.Record(**{**{f: getattr(record, f) for f in
                                             record.__struct_fields__}, "extra_points": []}),
                            preset)
    assert sum(s.total for s in scores) == pytest.approx(
        sum(s.total for s in without) + sum(x.points for x in record.extra_points))


def test_classic_000_scores_the_books_three_sides_with_no_best_move():
    """«ПРАВИЛА ИГРЫ»: no points in the book; the preset's win for each side that can win (the
    joker alone, Laura gone over with black: her recorded team), no best move."""
    classic = PRESETS["classic-000"]
    record = hand_made("joker", victim=7, guesses=[1, 2, 3])
    players = [msgspec.structs.replace(p, team=t) for p, t in zip(
        record.players, ["black", "black", "joker", "black", *["red"] * 6], strict=True)]
    record = msgspec.structs.replace(record, players=players)
    assert totals(record, classic) == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
