"""The hall board's pure parts: what it shows of each table and when it calls a person
(hall/tables.py), and the seating CSV (hall/seating/chart.py)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hall import tables
from hall.seating import chart as seating
from kit.i18n import render

LIMITS = tables.Limits(count_waiting_s=30.0)
ONLINE = {"state": "online", "version": "0.1.0", "boot_id": "b"}
HEALTH = {"boot_id": "b", "gpio": "mock", "outbox": {"depth": 0, "limit": 10, "over_limit": False},
          "consoles": [{"port": "/dev/ttyACM0", "seats": [1, 2], "online": True}],
          "audio": {"backend": "sdl", "ok": True, "problems": []}}


def vote(stage: str, attempt: int = 1) -> dict:
    return {"phase": "vote", "day": 1, "timer": None, "vote": {
        "id": "v1", "kind": "nominees", "candidates": [3, 5], "candidate": 3,
        "attempt": attempt, "stage": stage, "confirmed": []}}


def live_table(*messages: tuple[str, object, float]) -> tables.Hall:
    hall = tables.observe(tables.Hall(), "table-1", "status", ONLINE, 0.0)
    hall = tables.observe(hall, "table-1", "health", HEALTH, 0.0)
    for topic, document, now in messages:
        hall = tables.observe(hall, "table-1", topic, document, now)
    return hall


def kinds(hall: tables.Hall, now: float) -> list[str]:
    return [a["kind"] for a in tables.view(hall, now, LIMITS)["alerts"]]


def test_a_live_table_needs_nobody_and_shows_its_floor_and_vote():
    hall = live_table(("state", {"phase": "idle", "day": 2, "vote": None, "timer": {
        "id": "t", "seat": 4, "kind": "speech", "running": True, "duration_ms": 60000}}, 1.0))
    [row] = tables.view(hall, 2.0, LIMITS)["tables"]
    assert row["online"] and row["day"] == 2 and row["floor"] == {
        "seat": 4, "kind": "speech", "running": True}
    assert row["consoles"] == {"online": 1, "total": 1} and row["speaker"] == "ok"
    assert kinds(hall, 2.0) == []


@pytest.mark.parametrize(("topic", "document", "why", "russian"), [
    ("status", {"state": "offline", "boot_id": "b"}, "Table 1: off (the table's controller is off)",
     "Стол 1: выключен (не работает контроллер стола)"),
    ("bridge", "0", "Table 1: no link to the hall", "Стол 1: нет связи с залом"),
])
def test_a_table_offline_or_cut_from_the_hall_is_an_alert(topic, document, why, russian):
    """In the organiser's words: the table as they call it, what is wrong in a sentence."""
    hall = live_table((topic, document, 1.0))
    [alert] = tables.view(hall, 1.0, LIMITS)["alerts"]
    assert {k: v for k, v in alert.items() if k != "words"} == {
        "table": "table-1", "kind": "table_offline", "text": why}
    assert render(alert["words"], "ru") == russian


def test_a_console_offline_and_a_real_tables_speaker_fault_are_alerts():
    sick = {**HEALTH, "gpio": "lgpio",
            "consoles": [{"port": "/dev/ttyACM0", "seats": [1, 2], "online": False}],
            "audio": {"backend": "sdl", "ok": False, "problems": ["no sound device (sdl)"]}}
    hall = live_table(("health", sick, 1.0))
    texts = [a["text"] for a in tables.view(hall, 1.0, LIMITS)["alerts"]]
    assert texts == ["Table 1: console /dev/ttyACM0 offline (it serves 1, 2)",
                     "Table 1: speaker fault: no sound device (sdl)"]
    assert tables.view(hall, 1.0, LIMITS)["tables"][0]["speaker"] == "fault"


@pytest.mark.parametrize(("gpio", "audio", "speaker"), [
    ("mock", {"backend": "sdl", "ok": False, "problems": ["no sound device (sdl): no card"]},
     "silent"),  # a simulated table on a server: it plays on without sound
    ("lgpio", {"backend": "off", "ok": True, "problems": []}, "off"),  # off by configuration
])
def test_a_table_silent_by_simulation_or_configuration_is_no_alert(gpio, audio, speaker):
    hall = live_table(("health", {**HEALTH, "gpio": gpio, "audio": audio}, 1.0))
    assert tables.view(hall, 1.0, LIMITS)["tables"][0]["speaker"] == speaker
    assert kinds(hall, 1.0) == []


def test_a_count_waiting_for_its_judge_longer_than_the_limit_is_an_alert():
    hall = live_table(("state", vote("open"), 0.0), ("state", vote("proposed"), 10.0),
                      ("state", vote("proposed"), 25.0))  # a republish keeps the first time
    assert kinds(hall, 40.0) == []
    assert kinds(hall, 40.5) == ["count_waiting"]
    assert tables.view(hall, 40.5, LIMITS)["tables"][0]["vote"]["waiting_s"] == 30.5


def test_a_new_attempt_starts_the_wait_again_and_a_confirmed_count_ends_it():
    hall = live_table(("state", vote("proposed"), 0.0), ("state", vote("proposed", 2), 20.0))
    assert kinds(hall, 45.0) == []
    assert kinds(tables.observe(hall, "table-1", "state", vote("open", 2), 45.0), 99.0) == []


def test_tables_are_listed_in_natural_order():
    hall = tables.Hall()
    for name in ("table-10", "table-2", "table-1"):
        hall = tables.observe(hall, name, "status", ONLINE, 0.0)
    assert [r["table"] for r in tables.view(hall, 0.0, LIMITS)["tables"]] == [
        "table-1", "table-2", "table-10"]


# Latin and Cyrillic names, with the CSV's own quote and comma in them
names = st.text(st.characters(min_codepoint=32, max_codepoint=0x44F), min_size=1,
                max_size=20).map(str.strip).filter(bool)
table_ids = st.text("abcXYZ019_-", min_size=1, max_size=32)
rounds = st.dictionaries(
    st.integers(1, 999),
    st.dictionaries(table_ids, st.dictionaries(st.integers(1, 24), names, min_size=1,
                                               max_size=12), min_size=1, max_size=4),
    min_size=1, max_size=3)


@given(rounds)
def test_seating_written_as_csv_reads_back_the_same(wanted):
    unique_per_round = all(
        len(ps) == len(set(ps)) for ps in
        ([p for seats in t.values() for p in seats.values()] for t in wanted.values()))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(seating.HEADER)
    for round_, tables_ in wanted.items():
        for table, seats in tables_.items():
            for seat, player in seats.items():
                writer.writerow([round_, table, seat, player])
    if unique_per_round:
        assert seating.parse(out.getvalue()) == wanted
    else:
        with pytest.raises(seating.SeatingError, match="seated twice"):
            seating.parse(out.getvalue())


def test_a_seating_with_mistakes_is_refused_whole_naming_each_line():
    text = ("1,table-1,1,Anna\n1,table-1,1,Boris\n1,table 2,1,Vera\nx,table-1,2,Gleb\n"
            "1,table-1,25,Dina\n1,table-1\n")
    with pytest.raises(seating.SeatingError) as caught:
        seating.parse(text)
    assert [str(p) for p in caught.value.problems] == [
        "line 2: round 1, table-1 seat 1 given twice ('Anna' and 'Boris')",
        "line 3: table 'table 2' is not a table id (letters, digits, - and _)",
        "line 4: round 'x' is not a number 1..999",
        "line 5: seat '25' is not a number 1..24",
        "line 6: 4 fields expected (round,table,seat,player), found 2"]
    assert [render(p, "ru") for p in caught.value.problems] == [  # the board's reader's words
        "строка 2: тур 1, table-1, место 1 дано дважды («Anna» и «Boris»)",
        "строка 3: «table 2» не имя стола (буквы, цифры, - и _)",
        "строка 4: тур «x» не число от 1 до 999",
        "строка 5: место «25» не число от 1 до 24",
        "строка 6: нужно 4 поля (тур, стол, место, игрок), а их 2"]


def test_a_round_goes_to_each_of_its_tables_and_an_unknown_round_is_refused():
    parsed = seating.parse("2,table-1,2,Boris\n2,table-1,1,Anna\n2,table-2,1,Vera\n")
    assert seating.messages(parsed, 2) == {
        "table-1": {"v": 1, "round": 2, "seats": [{"seat": 1, "player": "Anna"},
                                                   {"seat": 2, "player": "Boris"}]},
        "table-2": {"v": 1, "round": 2, "seats": [{"seat": 1, "player": "Vera"}]}}
    with pytest.raises(seating.SeatingError, match="no round 3"):
        seating.messages(parsed, 3)
