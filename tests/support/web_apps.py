"""The web apps with every route they can have, for the tests that go over all of them: the
judge's panel with the overlay (its token set, the rating platform's build too) and a whole
game played, and a hall board that never connects to a broker."""

from __future__ import annotations

from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hall import tables
from hall.board import Board
from hall.store import HallStore
from judge.panel import config as judge_config
from judge.panel.service import Panel
from results import scoring
from tests.support.judge_configs import GOOD, PASSWORD, write
from tests.support.record_game import whole_game

TOKEN = "the-streams-token"
PLUGIN_CONFIG = GOOD + """[overlay]
token_file = "overlay.token"
mafiaratings_plugin = "dist"
"""  # the overlay's every route, the platform's build too


def full_panel(tmp_path: Path) -> Panel:
    """A panel with every route it can have, and a whole game played (no broker: the table's
    side is the script's events)."""
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.html").write_text("<app-root></app-root>")
    (tmp_path / "overlay.token").write_text(TOKEN + "\n")
    panel = Panel(judge_config.load(write(tmp_path, PLUGIN_CONFIG)))
    for given, _ in whole_game().inputs:
        panel.apply(given)
    return panel


def board(tmp_path: Path) -> Board:
    """A hall board (password ``PASSWORD``, its store in ``tmp_path``) whose MQTT client never
    connects."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    return Board(password=PASSWORD, limits=tables.Limits(), client=client,
                 store=HallStore(tmp_path / "board.db"), presets=scoring.presets())
