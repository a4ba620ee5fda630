"""Keypad entry: digits compose a seat number, ``#`` confirms it, ``*`` clears (pure).

A player enters "7#" or "10#". More than two digits keep the last two (a mistyped first digit
is overwritten by typing on); an entry left untouched for ``TIMEOUT`` seconds is forgotten, so a
stray digit from long ago never joins a new entry. A ``#`` with no digits confirms nothing.
"""

from __future__ import annotations

import msgspec

TIMEOUT = 4.0


class Entry(msgspec.Struct, frozen=True):
    """One seat's keypad entry so far: the digits typed and when the last key came."""

    digits: str = ""
    last: float = float("-inf")


def key(entry: Entry, pressed: str, t: float) -> tuple[Entry, int | None]:
    """Feed one key; returns the new entry and the number confirmed by ``#``, if any."""
    digits = entry.digits if t - entry.last <= TIMEOUT else ""
    if pressed == "*":
        return Entry("", t), None
    if pressed == "#":
        return Entry("", t), (int(digits) if digits else None)
    return Entry((digits + pressed)[-2:], t), None
