"""Club books for the judge's tests: a club's copy of FIIM's book (``club_book``) with its own
cards added from data (``card``: a role and its night step), as a club that copies a book and
changes it would, beside a copy of FIIM's table preset."""

from __future__ import annotations

from pathlib import Path

from judge.game import load_rules
from judge.game.book import BOOKS, preset_path


def card(role: str, team: str, step: str, mechanism: str, rule: str, options: str,
         label: str = "") -> str:
    """A book's tables for a new card and its night step (every night from night 1)."""
    words = f'label = "{label}"\n' if label else ""
    return f"""
[roles.{role}]
team = "{team}"

[[night.steps]]
name = "{step}"
mechanism = "{mechanism}"
roles = ["{role}"]
nights = {{ first = 1 }}
rule = "{rule}"
{words}options = {options}
"""


DETECTIVE = card("detective", "red", "detective_check", "check", "our rules, «Детектив»",
                 '{ yes = { teams = ["black"] }, says = { yes = "black", no = "red" } }')


def club_book(tmp_path: Path, extra: str, deck: str) -> Path:
    """FIIM's book with ``extra`` tables appended and its deck replaced, in the club's folder
    beside a copy of FIIM's table preset."""
    text = (BOOKS / "fiim.toml").read_text(encoding="utf-8")
    text = text.replace('roles = { don = 1, mafia = 2, sheriff = 1, civilian = 6 }', deck)
    text = text.replace('table_preset = "fiim"', 'table_preset = "fiim-preset.toml"')
    path = tmp_path / "our-club.toml"
    path.write_text(text + extra, encoding="utf-8")
    preset = preset_path(load_rules("fiim").book)
    (tmp_path / "fiim-preset.toml").write_text(preset.read_text(encoding="utf-8"))
    return path
