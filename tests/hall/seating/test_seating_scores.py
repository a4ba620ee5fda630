"""The port of the platform's seating scores (hall/seating/scores.py) against the
platform's own PHP: tests/data/seating_scores.json holds seatings of every shape (random and
generated, short last rounds, under 12 players, kept-apart groups, a player kept apart from
everyone) with the three scores ``SeatingDef::calculatePlayersScore``,
``calculateNumbersScore`` and ``calculateTablesScore`` gave them under php-cli
(``python -m bench.seating --record``, which runs the platform's include/seating.php from a
snapshot). The port must give the same numbers to the last bit."""

from __future__ import annotations

import json

import pytest

from hall.seating.scores import Definition, pair_expectations, score
from tests.support.paths import REPO

CASES = json.loads((REPO / "tests" / "data" / "seating_scores.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['players']}x{c['games']}")
def test_the_port_scores_as_the_platform(case: dict) -> None:
    defn = Definition(case["players"], case["tables"], case["games"], case["apart"])
    got = score(defn, case["layout"])
    assert [got.players, got.numbers, got.tables] == case["scores"]


def test_the_vectors_cover_the_quirks() -> None:
    shapes = {(c["players"], c["tables"], len(c["apart"])) for c in CASES}
    assert (11, 1, 1) in shapes  # restrictions below 12 players: dropped
    assert (24, 2, 23) in shapes  # a player kept apart from everyone
    assert any(len(r) < c["tables"] for c in CASES for r in c["layout"])  # a short round
    assert any(c["scores"][0] == 0 for c in CASES) and any(c["scores"][1] == 0 for c in CASES)


def test_below_12_players_the_platform_drops_the_restrictions() -> None:
    assert Definition(11, 1, 10, [[0, 1]]).groups() == ()


def test_a_player_kept_apart_from_everyone_keeps_the_platforms_quirk() -> None:
    """_createPlayersExpectations: the player's own expectation stays unset (0), and the
    entry keyed 0 (here player 0 itself) is dropped: player 0 then counts as unrestricted."""
    rows = pair_expectations(Definition(24, 2, 5, [[0, k] for k in range(1, 24)]))
    assert rows[0] is None
    assert rows[5] is not None and rows[5][0] == 5 * 9 / 22 and rows[5][1] == {0: 0}
