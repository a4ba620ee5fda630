"""Reading an organiser's workbook back: as its cells hold it (openpyxl), and as a spreadsheet
program opens it (LibreOffice, headless, in a given locale: the cells as shown, and the type it
gave each). Debian's ``libreoffice-calc-nogui`` (scripts/setup.sh installs it).

    rows = rows_of(data)                        # [[header...], [3, "Стол 1", ...], ...]
    shown = as_shown(data, tmp_path, "ru_RU")   # [["№ игры", ...], ["3", ..., "1,25"], ...]
    kinds = cell_types(data, tmp_path)          # [["string", ...], ["float", ..., "float"]]

LibreOffice's first start in a profile folder takes seconds: a test module passes one
``profile`` folder to all its calls.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from openpyxl import load_workbook

#: LibreOffice's CSV export: ";" between fields, '"' around text, UTF-8, from line 1, each
#: cell as shown (its number in the locale's form)
_CSV = "csv:Text - txt - csv (StarCalc):59,34,76,1,,0,false,true,true"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


def rows_of(data: bytes) -> list[list[Any]]:
    """The first sheet's rows as its cells hold them (numbers, dates, texts; ``None``: empty)."""
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def _convert(data: bytes, folder: Path, to: str, locale: str = "en_US",
             profile: Path | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    profile = profile or folder / "profile"
    source = folder / "results.xlsx"
    source.write_bytes(data)
    out = folder / "out"
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{profile}",
                    "--convert-to", to, "--outdir", str(out), str(source)],
                   check=True, capture_output=True, timeout=180,
                   env={**os.environ, "LC_ALL": f"{locale}.UTF-8", "LANG": f"{locale}.UTF-8"})
    return out / f"results.{to.split(':')[0]}"


def as_shown(data: bytes, folder: Path, locale: str, profile: Path | None = None
             ) -> list[list[str]]:
    """The first sheet as LibreOffice in ``locale`` (``ru_RU``) shows it: every cell's text."""
    text = _convert(data, folder, _CSV, locale, profile).read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))


def cell_types(data: bytes, folder: Path, profile: Path | None = None) -> list[list[str]]:
    """The type LibreOffice gave each cell (``string``, ``float``, ``date``; ``""``: empty),
    from the flat OpenDocument it converts the workbook to."""
    tree = ET.parse(_convert(data, folder, "fods", profile=profile))
    rows = []
    for row in tree.iter(f"{{{_TABLE}}}table-row"):
        kinds: list[str] = []
        for cell in row.iter(f"{{{_TABLE}}}table-cell"):
            repeated = int(cell.get(f"{{{_TABLE}}}number-columns-repeated", "1"))
            kind = cell.get(f"{{{_OFFICE}}}value-type", "")
            kinds += [kind] * (repeated if kind else min(repeated, 1))
        while kinds and not kinds[-1]:
            kinds.pop()
        if kinds:
            rows.append(kinds)
    return rows
