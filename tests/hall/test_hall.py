"""A tournament hall on the shipped configs: five ``--sim`` tables, each on its own mosquitto
bridged (TLS, a per-table account, QoS 1, persistent sessions) to one hall mosquitto."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from hall.sim import SimulatedHall, password, start_board
from kit.local_broker import free_port, is_listening
from tests.support.mqtt import Received, Subscriber, on_topic, with_json
from tests.support.page_layout import fits
from tests.support.page_words import foreign_words

TABLES = 5
SPEAKER = 8  # the board's speaker column, from 0 (hall/static/board.html)
NOT_AUTHORIZED = 135  # MQTT 5 reason code
OUTAGE_S = 10.0  # the hall outage (the bridges see their connections close at once)


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    running = SimulatedHall(tmp_path_factory.mktemp("hall"), TABLES, spare_tables=1)
    try:
        running.start()
        yield running
    finally:
        running.close()


def hall_client(hall: SimulatedHall, account: str, topics: list[str], **kwargs) -> Subscriber:
    return Subscriber(hall.port, topics, auth=(account, password(account)), **kwargs)


def is_event(m: Received) -> bool:
    return "/event/" in m.topic


class Tables:
    """A client on each table's own broker: presses its seats (``sim/press``) and records the
    events the table publishes there (what the table sees, hall or no hall)."""

    def __init__(self, hall: SimulatedHall):
        self.local = {name: Subscriber(t.broker.port, [f"mafia/{name}/event/#"])
                      for name, t in hall.tables.items()}

    def press_and_release(self, seats: range) -> None:
        """Each seat once, at every table: a different button each time, so a slow controller
        that takes a press and the next one within the debounce lockout still reports both."""
        for seat in seats:
            for name, client in self.local.items():
                client.publish(f"mafia/{name}/sim/press", f'{{"seat": {seat}}}')
                client.publish(f"mafia/{name}/sim/release", f'{{"seat": {seat}}}')

    def wait_for_releases(self, total: int) -> None:
        """Until every table has published ``total`` releases (distinct ids: a copy is none)."""
        for name, client in self.local.items():
            client.wait_until(releases_at_least(f"mafia/{name}/event/seat/release", total),
                              timeout=20, what=f"{total} releases at {name}")

    def ids(self, name: str) -> set[str]:
        return {m.json()["id"] for m in self.local[name].matching(is_event)}

    def all_ids(self) -> set[str]:
        return set().union(*map(self.ids, self.local))

    def close(self) -> None:
        for client in self.local.values():
            client.close()


def releases_at_least(topic: str, total: int) -> Callable[[list[Received]], bool]:
    return lambda messages: len({m.json()["id"] for m in messages if m.topic == topic}) >= total


def has_every(ids: set[str]) -> Callable[[list[Received]], bool]:
    """True once every one of ``ids`` has arrived, however many times (waiting on distinct ids,
    not on a count of messages: a QoS 1 redelivery would make up the count early)."""
    return lambda messages: ids <= {m.json()["id"] for m in messages if is_event(m)}


def test_every_tables_events_reach_the_hall_through_a_hall_outage_each_by_its_id(hall):
    """At least once, by ``id`` (docs/hall.md): every event of every table reaches a persistent
    subscriber at the hall, before, during and after the hall broker's outage. QoS 1 may bring
    one twice (the hall broker stopped before it had the subscriber's PUBACK gives it again
    with DUP set when the session resumes; a bridge resends what it had in flight): a copy is
    the same event, same topic and bytes, which a consumer drops by ``id``."""
    watch = hall_client(hall, "observer", ["mafia/+/status", "mafia/+/event/#"],
                        client_id="hall-watch", persistent=True)
    tables = Tables(hall)
    try:
        for name in hall.tables:  # each controller is online, as the hall sees it
            watch.wait_for(with_json(f"mafia/{name}/status", state="online"), timeout=30)
        tables.press_and_release(range(1, 4))
        tables.wait_for_releases(3)
        watch.wait_until(has_every(tables.all_ids()), timeout=20, what="the events before")

        hall.hall.stop()
        try:
            down_at = time.monotonic()
            tables.press_and_release(range(4, 8))  # each table plays on, on its own broker
            tables.wait_for_releases(7)
            assert time.monotonic() - down_at < OUTAGE_S, "the machine is too slow for this test"
            time.sleep(OUTAGE_S - (time.monotonic() - down_at))  # the deliberate outage
        finally:
            hall.hall.start()  # even if this test fails: the module's other tests need the hall

        tables.press_and_release(range(8, 10))
        tables.wait_for_releases(9)
        watch.wait_until(has_every(tables.all_ids()), timeout=30, what="every table's events")
        for name in hall.tables:
            copies: dict[str, set[tuple[str, bytes]]] = defaultdict(set)
            for m in watch.matching(is_event):
                if m.topic.startswith(f"mafia/{name}/"):
                    copies[m.json()["id"]].add((m.topic, m.payload))
            assert set(copies) == tables.ids(name), name  # none lost, none made up
            assert all(len(same) == 1 for same in copies.values()), name  # a copy is the same
            assert len(copies) >= 18  # 9 presses and 9 releases at least
    finally:
        watch.close()
        tables.close()


def test_commands_reach_a_table_through_the_bridge_and_its_reply_comes_back(hall):
    core = hall_client(hall, "rules-core", ["mafia/+/reply/#"])
    try:
        for name in hall.tables:
            core.publish(f"mafia/{name}/cmd/light",
                         json.dumps({"id": f"l-{name}", "lights": [{"seat": 2, "mode": "on"}]}))
        for name in hall.tables:
            core.wait_for(with_json(f"mafia/{name}/reply/light", id=f"l-{name}", ok=True),
                          timeout=20)
    finally:
        core.close()


def test_a_tables_account_cannot_write_or_read_another_tables_topics_at_the_hall(hall):
    """Under the spare table's account: a running table's would throw its bridge off the hall
    broker (one client id per account), and they would take turns throwing each other off."""
    spare = f"table-{TABLES + 1}"
    intruder = hall_client(hall, spare, ["mafia/table-2/#", "mafia/+/status",
                                         f"mafia/{spare}/seating"])
    board = hall_client(hall, "hall-board", [])
    try:
        assert intruder.publish_outcome("mafia/table-2/event/seat/press", "{}") == NOT_AUTHORIZED
        assert intruder.publish_outcome("mafia/table-2/cmd/light", "{}") == NOT_AUTHORIZED
        assert intruder.publish_outcome("mafia/table-2/seating", "{}") == NOT_AUTHORIZED
        # the board writes table-2's seating, then the spare's: one publisher, delivered in order
        board.publish("mafia/table-2/seating", '{"round": 1}')
        board.publish(f"mafia/{spare}/seating", '{"round": 1}')
        intruder.wait_for(on_topic(f"mafia/{spare}/seating"))
        assert [m.topic for m in intruder.messages] == [f"mafia/{spare}/seating"]
    finally:
        intruder.close()
        board.close()


SEATING = "round,table,seat,player\n1,table-1,1,Anna\n1,table-1,2,Boris\n1,table-2,1,Vera\n"


@pytest.fixture
def board(hall):
    port = free_port()
    process = start_board(hall, port, log_path=hall.root / "board.log", language="en")
    try:
        deadline = time.monotonic() + 20
        while not is_listening("127.0.0.1", port):
            assert process.poll() is None, (hall.root / "board.log").read_text()
            assert time.monotonic() < deadline, "the board did not listen within 20 s"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_board_shows_every_table_sends_the_seating_and_calls_a_person_when_one_goes_offline(
        hall, board, chromium):
    """Last in this module: it stops table-5's controller."""
    page = chromium.new_page()
    page.goto(board)
    page.fill("#password", "wrong")
    page.click("#login")
    expect(page.locator("#wrong")).to_be_visible()
    one_language(page, "en")  # the login page, with its refusal
    page.fill("#password", password("board"))
    page.click("#login")
    for name in hall.tables:
        expect(page.locator(f"#table-{name}")).to_have_attribute("data-online", "true")
    expect(page.locator("#alert-list li.none")).to_have_text("nothing needs a person")
    # a simulated table with no sound device plays on silent: said so, not as a fault
    speaker = page.locator("#table-table-1 td").nth(SPEAKER)
    expect(speaker).to_have_text("no sound: simulation")
    expect(speaker).not_to_have_class("fault")
    one_language(page, "en")

    table_1 = Subscriber(hall.tables["table-1"].broker.port, ["mafia/table-1/seating"])
    try:
        seating_file = hall.root / "seating.csv"
        seating_file.write_text(SEATING)
        page.set_input_files("#seating-file", str(seating_file))
        expect(page.locator("#answer")).to_have_text("seating loaded: rounds 1")
        # each table's seats, each number beside its player
        expect(page.locator('#seated p[data-table="table-1"]')).to_have_text(
            "Table 1: 1\u00a0Anna\u00a0· 2\u00a0Boris")
        page.click("#send-round")
        expect(page.locator("#answer")).to_have_text("round 1 sent to the tables")
        # a round sent is not offered again
        expect(page.locator("#send-round")).to_be_disabled()
        expect(page.locator("#send-round")).to_have_text("Round 1 is at the tables")
        expect(page.locator("#table-table-1 td").first).to_have_text("Table 1")
        expect(page.locator("#table-table-1 td").nth(1)).to_have_text("connected")
        # through the hall broker and table-1's bridge, onto the table's own broker
        [seating] = table_1.wait_for(on_topic("mafia/table-1/seating"), timeout=20)
        assert seating.json() == {"v": 1, "round": 1, "seats": [
            {"seat": 1, "player": "Anna"}, {"seat": 2, "player": "Boris"}]}
    finally:
        table_1.close()

    # each board is drawn over the last: the rows and their cells stay, only what differs is
    # written (a row drawn again would lose its mark; the tbody's children would change)
    page.evaluate("""() => {
      window.rowWrites = [];
      document.querySelectorAll('#tables tbody, #tables tbody *').forEach((n) => { n.mark = 1; });
      new MutationObserver((records) => records.forEach((r) => window.rowWrites.push(
        r.target.closest('tr') ? r.target.closest('tr').id : 'tbody')))
        .observe(document.querySelector('#tables tbody'),
                 { subtree: true, childList: true, attributes: true, characterData: true });
    }""")
    hall.tables["table-5"].stop_controller()
    expect(page.locator("#table-table-5")).to_have_attribute("data-online", "false")
    assert page.evaluate("[...document.querySelectorAll('#tables tbody, #tables tbody *')]"
                         ".every((n) => n.mark)")
    writes = page.evaluate("window.rowWrites")
    assert "table-table-5" in writes and "tbody" not in writes, writes
    alert = page.locator('#alert-list li[data-table="table-5"]')
    expect(alert).to_have_text("Table 5: off (the table's controller is off)")
    expect(page.locator("#table-table-5 td").nth(1)).to_have_text("off")
    assert page.locator("#alert-list li").count() == 1  # the others need nobody

    # the organisers' switch: the same board in Russian, with no English word left on it
    page.click('#languages button[lang="ru"]')
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(alert).not_to_have_text("Table 5: off (the table's controller is off)")
    expect(speaker).to_have_text("без звука: симуляция")
    one_language(page, "ru")
    bad = hall.root / "bad-seating.csv"  # its reasons in the reader's words too
    bad.write_text("1,table-1,пять,Anna\n1,table 2,1,Vera\n")
    page.set_input_files("#seating-file", str(bad))
    expect(page.locator("#answer")).to_have_text(
        "рассадка не принята: строка 1: место «пять» не число от 1 до 24; "
        "строка 2: «table 2» не имя стола (буквы, цифры, - и _)")
    one_language(page, "ru", also=["table"])  # the file's own "table 2", quoted
    page.reload()  # the login's cookie kept the language: the page comes back in Russian
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(alert).to_have_text("Стол 5: выключен (не работает контроллер стола)")
    one_language(page, "ru")


def one_language(page: Page, language: str, also: list[str] | None = None) -> None:
    """No word of the other language on the board (the seating's names are names), no table's
    id (a table is "Стол 3"), and it fits an organiser's tablet either way or a phone."""
    found = foreign_words(page, language, names=["Anna", "Boris", "Vera", *(also or [])])
    assert found == [], found
    fits(page)
