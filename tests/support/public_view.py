"""What the public standings may hold (hall/tournament.py ``public_view``): its keys, and a walk
over a JSON document collecting every key and string value, to check nothing else is there."""

from __future__ import annotations

from typing import Any

from hall.tournament import CSV_COLUMNS

#: every key the public view may hold: the standings' columns, the rounds' progress
PUBLIC_KEYS = {"name", "rounds", "number", "stage", "tables", "over", "standings", "overall",
               "stages", "main", "final", "games", "rows", "last", *CSV_COLUMNS}
#: what a game's secrets are written with: roles, sides
SECRET_VALUES = {"don", "mafia", "sheriff", "civilian", "red", "black"}


def walk(found: Any, keys: set[str] | None = None,
         values: set[str] | None = None) -> tuple[set[str], set[str]]:
    """Every key (as a string) and every string value in a JSON document."""
    keys, values = (set() if keys is None else keys), (set() if values is None else values)
    if isinstance(found, dict):
        keys |= {str(k) for k in found}
        for v in found.values():
            walk(v, keys, values)
    elif isinstance(found, list):
        for v in found:
            walk(v, keys, values)
    elif isinstance(found, str):
        values.add(found)
    return keys, values
