"""``mafia-table hall seating``: the CSV the board reads on stdout or in a file, the quality on
stderr, the names and restrictions files checked line by line, and refusals with reasons."""

from __future__ import annotations

from pathlib import Path

import pytest

from hall.seating import chart as seating
from hall.seating import cli as seating_cli
from hall.seating.inputs import InputError, names, restrictions
from mafia_table import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = seating_cli.main(["--seconds", "0.2", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_writes_the_seating_and_its_quality(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--players", "30", "--rounds", "10")
    assert code == 0
    board = seating.parse(out, seats=10)
    assert sorted(board) == list(range(1, 11))
    assert sorted(board[1]) == ["table-1", "table-2", "table-3"]
    assert {p for t in board[1].values() for p in t.values()} == {f"Player {k}"
                                                                   for k in range(1, 31)}
    assert "scores as the platform computes them (0 = perfect): players " in err
    assert "numbers 0 (perfect)" in err
    assert "seat numbers (games a player takes each, min-max; expected 1): 1: 1, 2: 1" in err
    assert "no seating of these numbers scores below 400.34" in err


def test_names_and_restrictions_from_files(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    people = [f"P{k:02d}" for k in range(40)]
    (tmp_path / "names.txt").write_text("# the players\n" + "\n".join(people) + "\n")
    (tmp_path / "rules.csv").write_text("# one club\napart, P00, P01, P02\navoid, P05, 7\n")
    out_file = tmp_path / "seating.csv"
    code, out, err = run(capsys, "--players", "40", "--rounds", "10", "--names",
                         str(tmp_path / "names.txt"), "--restrictions", str(tmp_path / "rules.csv"),
                         "--output", str(out_file), "--seed", "3")
    assert code == 0 and out == ""
    board = seating.parse(out_file.read_text(), seats=10)
    for tables in board.values():
        for game in tables.values():
            assert len({"P00", "P01", "P02"} & set(game.values())) <= 1
    assert "kept apart: 3 pairs, never at one table" in err
    assert "avoid: P05 and P06 meet" in err


def test_the_same_seed_writes_the_same_file(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "--players", "20", "--rounds", "5", "--seed", "9")[1]
    assert run(capsys, "--players", "20", "--rounds", "5", "--seed", "9")[1] == first
    assert run(capsys, "--players", "20", "--rounds", "5", "--seed", "10")[1] != first


def test_refuses_what_cannot_be_seated_with_the_reasons(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--players", "25", "--rounds", "3", "--tables", "3")
    assert code == 2 and out == ""
    assert "cannot be seated: tables: 3; the players (25) fill at most this many tables of 10 " \
        "in a round: 2" in err
    assert "players 25 x games 3 = 75 in all, not a multiple of 10" in err
    (tmp_path / "rules.csv").write_text("apart,1,2,3,4\n")
    code, _, err = run(capsys, "--players", "30", "--rounds", "10", "--restrictions",
                       str(tmp_path / "rules.csv"))
    assert code == 2
    assert "the players 1, 2, 3, 4 must all sit apart from each other: there are 4 of them, " \
        "and tables: 3" in err
    assert run(capsys, "--players", "30", "--rounds", "10", "--seconds", "0")[0] == 2


def test_a_bad_file_is_refused_whole_naming_each_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rules.csv").write_text("apart,1,2\nseparate,3,4\navoid,5\napart,6,99,6\n")
    code, _, err = run(capsys, "--players", "30", "--rounds", "10", "--restrictions",
                       str(tmp_path / "rules.csv"))
    assert code == 2
    assert "line 2: 'separate' is not a rule (apart, avoid)" in err
    assert "line 3: avoid needs two players or more" in err
    assert "line 4: '99' is no player (a name, or 1..30)" in err
    code, _, err = run(capsys, "--players", "30", "--rounds", "10", "--names",
                       str(tmp_path / "missing.txt"))
    assert code == 2 and "cannot read" in err and "missing.txt" in err


def test_names_checks() -> None:
    assert names("Anna\n\n# x\nBoris\n", 2) == ["Anna", "Boris"]
    with pytest.raises(InputError) as caught:
        names("Anna\nBoris\nAnna\n" + "x" * 65 + "\n", 4)
    assert [str(p) for p in caught.value.problems] == [
        "line 3: 'Anna' again (first on line 1)", "line 4: a name of 1..64 characters expected"]
    with pytest.raises(InputError, match="names: 3, players: 4"):
        names("a\nb\nc\n", 4)
    rules = restrictions("apart,Anna,Boris,3\navoid,\"Boris\",Clara\n", ["Anna", "Boris", "Clara"])
    assert rules.apart == {(0, 1), (0, 2), (1, 2)} and rules.avoid == {(1, 2)}


def test_an_output_it_cannot_write_exits_1(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--players", "20", "--rounds", "5", "--output",
                       str(tmp_path / "no" / "such" / "dir.csv"))
    assert code == 1 and "cannot write" in err


def test_mounted_in_the_mafia_table_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["hall", "seating", "--players", "20", "--rounds", "5", "--seconds",
                     "0.1"]) == 0
    assert seating.parse(capsys.readouterr().out, seats=10)
