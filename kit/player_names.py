"""A player's name, written once and the same everywhere (the seats, the records, the standings,
the ratings, the club's roster): how a typed name is tidied, and when two names are one player.

``tidy`` is what is kept: the name in Unicode NFC (a "ё" typed as "е" and a combining
diaeresis is the one letter "ё"), without control or invisible format characters (a byte order
mark, a zero-width space pasted from a chat), every run of spaces (tabs, no-break spaces) one
space, none at either end, 40 characters at most. The spelling is the judge's (or the roster's):
no case is changed.

``key`` is what is compared: the tidy name case-folded, and "ё" read as "е". Russian writes
"ё" as "е" as often as not (Алёна and Алена, Фёдор and Федор are the same person in a club's
register, typed by different judges), and no club seats two players whose names differ in that
letter alone; so a roster that has "Алёна" offers her when "Алена" is typed, and keeps its own
spelling. ``Иван``, ``иван `` and ``ИВАН`` are one player.
"""

from __future__ import annotations

import unicodedata

#: the longest name kept (a seat's tile and the sheet's column show this much)
LONGEST = 40


def tidy(name: str, longest: int | None = LONGEST) -> str:
    """``name`` as it is kept: NFC, no control or format characters, single spaces, trimmed,
    ``longest`` characters at most (None: as long as it is)."""
    composed = unicodedata.normalize("NFC", name)
    kept = "".join(" " if c.isspace() else c for c in composed
                   if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf"))
    return " ".join(kept.split())[:longest].rstrip()


def key(name: str) -> str:
    """What two names are compared by: tidy, case-folded, "ё" as "е" (one player)."""
    return tidy(name).casefold().replace("ё", "е")
