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
    assert ("Player 1, Player 2, Player 3, Player 4 must all sit apart from each other: there are "
            "4 of them, and tables: 3") in err
    assert run(capsys, "--players", "30", "--rounds", "10", "--seconds", "0")[0] == 2


def test_a_bad_file_is_refused_whole_naming_each_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rules.csv").write_text("apart,1,2\nseparate,3,4\navoid,5\napart,6,99,6\n")
    code, _, err = run(capsys, "--players", "30", "--rounds", "10", "--restrictions",
                       str(tmp_path / "rules.csv"))
    assert code == 2
    assert "line 2: 'separate' is not a rule (apart, avoid, away, seat)" in err
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


def test_a_table_kept_from_a_player_and_a_fixed_seat(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rules.csv").write_text("away, table-2, Player 4, 5\nseat, 10, Player 6\n"
                                        "seat, 1, 7, 3\n")
    code, out, _ = run(capsys, "--players", "30", "--rounds", "6", "--restrictions",
                       str(tmp_path / "rules.csv"))
    assert code == 0
    board = seating.parse(out, seats=10)
    for tables in board.values():
        assert not {"Player 4", "Player 5"} & set(tables["table-2"].values())
        assert any(game.get(10) == "Player 6" for game in tables.values())
    assert any(game.get(1) == "Player 7" for game in board[3].values())
    (tmp_path / "bad.csv").write_text("away, Player 4\nseat, 12, Player 6\nseat, 1, 7, x\n")
    code, _, err = run(capsys, "--players", "30", "--rounds", "6", "--restrictions",
                       str(tmp_path / "bad.csv"))
    assert code == 2
    assert "line 1: away needs a table (a number, or table-N) and a player or more" in err
    assert "line 2: seat needs a seat number 1..10" in err
    assert "line 3: a round is a number from 1" in err


def test_reseating_after_a_withdrawal_and_a_substitute(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, first, _ = run(capsys, "--players", "30", "--rounds", "6")
    (tmp_path / "so-far.csv").write_text(first)
    code, out, err = run(capsys, "--players", "30", "--rounds", "6", "--reseat",
                         str(tmp_path / "so-far.csv"), "--from-round", "4", "--withdraw",
                         "Player 9", "--substitute", "Player 10=Zoe")
    assert code == 0 and "kept start" in err
    before, after = seating.parse(first, seats=10), seating.parse(out, seats=10)
    assert all(after[r] == before[r] for r in (1, 2, 3))
    playing = set()
    for r in (4, 5, 6):  # 29 left: two tables, nine sitting out in turn
        names = [p for game in after[r].values() for p in game.values()]
        assert "Player 9" not in names and "Player 10" not in names
        assert len(after[r]) == 2 and len(set(names)) == 20
        playing |= set(names)
    assert "Zoe" in playing
    code, out, err = run(capsys, "--players", "30", "--rounds", "6", "--reseat",
                         str(tmp_path / "so-far.csv"), "--from-round", "2", "--substitute",
                         "Player 3=Anna")
    assert code == 0 and err == ""  # a substitute alone: the seats renamed, nothing seated
    renamed = seating.parse(out, seats=10)
    assert renamed[1] == before[1]
    assert all(renamed[r] == {t: {s: "Anna" if p == "Player 3" else p for s, p in game.items()}
                              for t, game in before[r].items()} for r in range(2, 7))


@pytest.mark.parametrize(("argv", "said"), [
    (["--withdraw", "Player 1"], "--from-round, --withdraw and --substitute go with --reseat"),
    (["--reseat", "x.csv", "--withdraw", "Player 1"], "--reseat needs --from-round K"),
    (["--reseat", "x.csv", "--from-round", "3"], "--reseat needs a --withdraw or a --substitute"),
    (["--reseat", "x.csv", "--from-round", "3", "--substitute", "Anna"],
     "--substitute 'Anna': NAME=NEW expected"),
])
def test_reseating_options_that_do_not_go_together_are_refused(
        capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    code, _, err = run(capsys, "--players", "30", "--rounds", "6", *argv)
    assert code == 2 and said in err


def test_a_reseating_of_another_tournament_or_a_stranger_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "--players", "30", "--rounds", "6")
    (tmp_path / "so-far.csv").write_text(first)
    code, _, err = run(capsys, "--players", "30", "--rounds", "8", "--reseat",
                       str(tmp_path / "so-far.csv"), "--from-round", "4", "--withdraw",
                       "Nobody", "--substitute", "Player 2=Player 3")
    assert code == 2
    assert "not players of this tournament: Nobody" in err
    assert "the seating's rounds are not rounds 1..8 of this tournament" in err
