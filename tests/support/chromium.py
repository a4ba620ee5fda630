"""Debian's headless Chromium, driven by Playwright: the web pages' tests and benches.

``scripts/setup.sh`` installs Debian's ``chromium``; Playwright's own browser download is never
used (``executable_path``), so the browser is the one a club's machine would run.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser

#: Debian's chromium (scripts/setup.sh installs it)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


@contextmanager
def headless_chromium() -> Iterator[Browser]:
    """A headless Debian chromium, closed at the end; a clear error when it is not installed."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError("Debian's chromium is missing: scripts/setup.sh installs it")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
