"""How a club names a game on paper: the table as the club calls it, the game's number in the
evening, and its moments in the club's local time (the protocol sheet, the games list and the
organiser's spreadsheet; the record keeps the machine's: the table's id, UNIX seconds).

- **The table's name**: ``table_name`` in the judge's config (``"Стол 1"``, or one per language,
  ``{ ru = "Стол у окна", en = "Window table" }``); without it, the reader's word for a table and
  the number the id ends in (``table-1`` -> «Стол 1», "Table 1"), or the id quoted when it ends
  in none («Стол «vip»»).
- **The evening**: a club's evening runs past midnight, so an evening is the local day that
  starts at ``EVENING_STARTS`` o'clock (6:00): a game started at 01:30 is the previous
  evening's. Its games are numbered from 1 in the order they started; a game still in setup
  has no number yet (it may never be played).
- **Local time**: the machine's time zone (``TZ``, or the system's: on a Raspberry Pi
  ``sudo timedatectl set-timezone Europe/Moscow`` or ``raspi-config`` -> Localisation ->
  Timezone), written as the reader's language writes a date (CLDR, by Babel).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta

from babel.dates import format_date, format_time

from kit import i18n
from kit.i18n import Words
from results.record import Record

#: the hour a club's evening starts at, local time: a game started before it is the evening
#: before's
EVENING_STARTS = 6
#: the number a table's id ends in ("table-1", "t12")
_NUMBER = re.compile(r"(\d+)$")


def table_name(table: str, configured: str | Mapping[str, str] | None = None
               ) -> str | Mapping[str, str] | Words:
    """What the club calls ``table``: the configured name, else its number as the reader's
    «Стол N», else the id quoted (a parameter for any message: a text, per language, or
    words)."""
    if configured:
        return configured
    found = _NUMBER.search(table)
    if found is not None:
        return Words("words.table", n=int(found.group(1)))
    return Words("words.table.named", name=table)


def local(at: float) -> datetime:
    """``at`` (UNIX seconds) in the machine's local time zone."""
    return datetime.fromtimestamp(at).astimezone()


def evening(at: float) -> date:
    """The evening a moment belongs to: its local day, a night's small hours the day before's."""
    return (local(at) - timedelta(hours=EVENING_STARTS)).date()


def numbers(records: Iterable[Record]) -> dict[str, int]:
    """Each started game's number in its table's evening, from 1, by when it started."""
    started = sorted((r for r in records if r.started is not None),
                     key=lambda r: (r.started or 0.0, r.id))
    counted: dict[tuple[str, date], int] = {}
    found = {}
    for record in started:
        key = (record.table, evening(record.started or 0.0))
        counted[key] = counted.get(key, 0) + 1
        found[record.id] = counted[key]
    return found


def day(at: float | None, language: str) -> str:
    """The local date as ``language`` writes it in full («4 декабря 2026», "December 4,
    2026")."""
    return "" if at is None else format_date(local(at).date(), "long", locale=language)


def clock(at: float | None, language: str) -> str:
    """The local time of day, hours and minutes («22:32»)."""
    return "" if at is None else format_time(local(at), "HH:mm", locale=language)


def moment(at: float | None, language: str) -> str:
    """The local date and time («4 декабря 2026, 22:32»)."""
    if at is None:
        return ""
    return i18n.t("words.moment", language, date=day(at, language), time=clock(at, language))
