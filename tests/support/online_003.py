"""The online variant's (003) tables and deal for the end-to-end tests: the example table cut to
seven seats, the 24-seat one, each on the book's table preset, and the cards dealt at seven."""

from __future__ import annotations

import re
from pathlib import Path

from controller import config as config_module
from tests.support.judge_panel import table_config
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.table_configs import strip_table

SEATS = 7
#: 1 and 2 the mafia (2 the boss), 3 the commissar, 4 the doctor, 5 the maniac, 6 the kamikaze,
#: 7 the journalist: the deck of seven with five of its optional cards
ROLES = ["mafia", "boss", "commissar", "doctor", "maniac", "kamikaze", "journalist"]
ADDED = ["boss", "doctor", "journalist", "kamikaze", "maniac"]
#: 24 seats: 1 the boss, 2-7 mafia, 8 the commissar, 9 the sergeant, 10 the doctor, 11 the
#: maniac, 12 the kamikaze, 13 the journalist, 14-24 honest: the deck of 24 with every optional
#: card
ROLES_24 = ["boss", *["mafia"] * 6, "commissar", "sergeant", "doctor", "maniac", "kamikaze",
            "journalist", *["honest"] * 11]
ADDED_24 = ["boss", "doctor", "journalist", "kamikaze", "maniac", "sergeant"]


def table_of_seven(tmp_path: Path, port: int) -> config_module.Config:
    """The example table cut to seven seats, playing the online book's table preset."""
    text = EXAMPLE_CONFIG.read_text(encoding="utf-8")
    for seat in range(8, 11):  # the wiring of the seats cut, and their console
        text = re.sub(rf"\[\[gpio\.seat\]\]\nseat = {seat}\n(\w+ = .*\n)*\n?", "", text)
    text = text.replace(f"seats = {list(range(1, 11))}", f"seats = {list(range(1, 8))}")
    return playing_online(tmp_path, port, text.replace("seats = 10\n", "seats = 7\n"), 7)


def table_of_24(tmp_path: Path, port: int) -> config_module.Config:
    """The 24-seat example table (its buttons on two expanders) as table-1, with a keypad
    console for every seat, playing the online book's table preset."""
    return playing_online(tmp_path, port, strip_table(24), 24)


def playing_online(tmp_path: Path, port: int, text: str, seats: int) -> config_module.Config:
    """The table config ``text`` of ``seats`` seats with the online book's preset
    (``judge_panel.table_config``)."""
    cfg = table_config(tmp_path, port, "online-003", text)
    assert cfg.seats == seats and cfg.vote.leftover == "abstain"
    assert [list(c.seats) for c in cfg.console] == [list(range(1, seats + 1))]
    return cfg
