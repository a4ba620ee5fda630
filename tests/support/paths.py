"""Where things are in the checkout, for tests and benches wherever their file sits."""

from __future__ import annotations

from pathlib import Path

#: the checkout's root (this file is ``tests/support/paths.py``)
REPO = Path(__file__).resolve().parents[2]
#: the shipped example table: ten seats on GPIO, keypads on an emulated hub
EXAMPLE_CONFIG = REPO / "config" / "table.example.toml"
#: the shipped 24-seat example table: a strip of lights, the buttons on two expanders
EXAMPLE_24 = REPO / "config" / "table-24.example.toml"
#: the shipped rule presets (config/rules/*.toml), by book
PRESETS = REPO / "config" / "rules"
