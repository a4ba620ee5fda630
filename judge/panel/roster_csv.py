"""The club's roster as a file: read from the CSV a club keeps, written back as one.

What comes in is whatever a club's spreadsheet saves: UTF-8 with or without a byte order mark,
Windows-1251 (a Russian Excel's "CSV"), UTF-16 with its mark (Excel's "Unicode text"); ``;``,
tab or ``,`` between fields (the one on half its lines at least), or a name a line; a header
line or none (``Имя``, ``Name``,
``Игрок``, ``ФИО``...). The first column is the name; other columns (a phone, a rating) are
the club's and are not read. A file is taken whole or refused whole with every problem named
by its line (a workbook not saved as CSV, a file that is not text, a name over 40 characters,
one player written two ways): ``RosterFileError``, whose ``problems`` are words in no
language yet. Names come out tidy (``kit.player_names``).

What goes out is for the same spreadsheet to open with a double-click: UTF-8 after a byte order
mark, ``;`` between fields for a Russian reader (whose spreadsheet reads ``,`` as the decimal
comma) and ``,`` for an English one, a header in the reader's language, and a name a
spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``) after a ``'``, which reading
it back takes off.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from kit import i18n, player_names
from kit.i18n import Words

#: the largest file taken (a club's roster is a few hundred lines)
MAX_BYTES = 1 << 20
#: the most names taken from one file
MAX_NAMES = 10_000
#: how many problems a refusal lists (the rest are counted)
SHOWN = 5
#: a first cell that makes its line a header, beside the catalogs' own word for the column
HEADERS = {"имя", "игрок", "фио", "ник", "name", "player", "nickname"}
#: what a spreadsheet would run as a formula at the start of a cell
FORMULA = ("=", "+", "-", "@", "\t", "\r")


class RosterFileError(ValueError):
    """A roster file refused whole: ``problems``, each words naming its line."""

    def __init__(self, problems: Sequence[Words]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @property
    def words(self) -> Words:
        """The refusal as one message: the problems joined."""
        return Words("panel.roster.refused", problems=i18n.joined(self.problems))


@dataclass(frozen=True)
class Row:
    """A name read from the file, and the line it stands on (counted from 1)."""

    line: int
    name: str


def read(data: bytes) -> list[Row]:
    """The names of a roster file, tidy, in its order, each player once; ``RosterFileError``
    says why the file is not taken."""
    if len(data) > MAX_BYTES:
        raise RosterFileError([Words("panel.roster.refused.size", kib=MAX_BYTES // 1024)])
    text = _text(data)
    reader = csv.reader(io.StringIO(text), delimiter=_separator(text))
    rows: list[Row] = []
    problems: list[Words] = []
    seen: dict[str, Row] = {}
    first = True  # the first line with words may be a header
    for cells in _rows(reader):
        cell = cells[0] if cells else ""
        if _guarded(cell):
            cell = cell[1:]  # ours: written so that a spreadsheet would not run it
        whole = player_names.tidy(cell, longest=None)
        header, first = first and any(cells) and _header(whole), first and not any(cells)
        if not whole or header:
            continue
        if len(whole) > player_names.LONGEST:
            problems.append(Words("panel.roster.refused.long", line=reader.line_num,
                                  longest=player_names.LONGEST))
            continue
        other = seen.get(player_names.key(whole))
        if other is None:
            seen[player_names.key(whole)] = row = Row(reader.line_num, whole)
            rows.append(row)
        elif other.name != whole:
            problems.append(Words("panel.roster.refused.twice", line=reader.line_num,
                                  name=whole, first=other.line, spelt=other.name))
    if len(rows) > MAX_NAMES:
        problems.append(Words("panel.roster.refused.many", count=len(rows), most=MAX_NAMES))
    if problems:
        more = len(problems) - SHOWN
        raise RosterFileError(problems[:SHOWN] + (
            [Words("panel.roster.refused.more", count=more)] if more > 0 else []))
    if not rows:
        raise RosterFileError([Words("panel.roster.refused.empty")])
    return rows


def _separator(text: str) -> str:
    """The file's separator: the one of ``;``, tab and ``,`` on at least half of its first
    lines (the most of them), else none: a name a line (a name that holds a comma stays
    whole), read with a separator no text holds, quotes still read."""
    lines = [line for line in text.splitlines() if line.strip()][:50]
    on = {d: sum(d in line for line in lines) for d in (";", "\t", ",")}
    best = max(on, key=lambda d: on[d])
    return best if lines and on[best] * 2 >= len(lines) else "\x1f"


def _rows(reader: Iterator[list[str]]) -> Iterator[list[str]]:
    """The reader's rows; a file the csv module cannot read (a field past its limit) as not
    the text a roster is."""
    try:
        yield from reader
    except csv.Error:
        raise RosterFileError([Words("panel.roster.refused.text")]) from None


def _text(data: bytes) -> str:
    """The file's text in whichever encoding a club's spreadsheet saved it."""
    if data.startswith(b"PK\x03\x04"):
        raise RosterFileError([Words("panel.roster.refused.workbook")])
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise RosterFileError([Words("panel.roster.refused.text")]) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1251")
        except UnicodeDecodeError:
            raise RosterFileError([Words("panel.roster.refused.text")]) from None
    if any(ord(c) < 32 and c not in "\t\r\n" for c in text):
        raise RosterFileError([Words("panel.roster.refused.text")])
    return text


def _guarded(cell: str) -> bool:
    """Whether a cell starts with the ``'`` that ``write`` puts before a formula's first
    character (or before a name's own ``'`` such a one follows)."""
    return cell.startswith("'") and cell[1:2] in (*FORMULA, "'") and len(cell) > 1


def _header(cell: str) -> bool:
    """Whether a first line's first cell names the column rather than a player."""
    own = {player_names.key(i18n.t("panel.roster.csv.name", language))
           for language in i18n.languages()}
    return player_names.key(cell) in HEADERS | own


def write(rows: Iterable[tuple[str, int, str]], language: str) -> bytes:
    """The roster as a CSV for ``language``'s spreadsheet: each name, the games played at
    this panel and the day of the last one (``YYYY-MM-DD``), under a header."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if language == "ru" else ",", lineterminator="\r\n")
    writer.writerow([i18n.t(key, language) for key in (
        "panel.roster.csv.name", "panel.roster.csv.games", "panel.roster.csv.last")])
    for name, games, last in rows:
        guard = name.startswith(FORMULA) or _guarded(name)  # a name's own "'=": "''="
        writer.writerow([f"'{name}" if guard else name, games, last])
    return ("\ufeff" + out.getvalue()).encode("utf-8")
