"""Debian's headless Chromium, driven by Playwright: the web pages' tests and benches.

``scripts/setup.sh`` installs Debian's ``chromium``; Playwright's own browser download is never
used (``executable_path``), so the browser is the one a club's machine would run.

A test's ``chromium`` fixture is one browser a worker's tests share (``SharedChromium``): its
start (Playwright's driver, then the browser) is paid once a worker, not once a test, and each
test's pages still start clean, in browser contexts of their own (``Browser.new_page`` makes
one: no cookie, storage or cache of another test's), closed after the test.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

#: Debian's chromium (scripts/setup.sh installs it)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def _installed() -> None:
    if not Path(CHROMIUM).exists():
        raise RuntimeError("Debian's chromium is missing: scripts/setup.sh installs it")


@contextmanager
def headless_chromium() -> Iterator[Browser]:
    """A headless Debian chromium, closed at the end; a clear error when it is not installed."""
    from playwright.sync_api import sync_playwright

    _installed()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class SharedChromium:
    """One headless chromium lent to test after test (``lend``, ``give_back``), started on first
    use and again if it died; ``close`` ends it.

    Playwright's synchronous API runs its asyncio loop in a greenlet of this thread and leaves
    that loop marked as the thread's running loop after each call: a later test's
    ``asyncio.run`` would then refuse to start ("cannot be called from a running event loop").
    So the mark is Playwright's only while a test has the browser: ``lend`` puts it back and
    ``give_back`` takes it away."""

    def __init__(self) -> None:
        self._manager: Any = None
        self._browser: Browser | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def lend(self) -> Browser:
        """The browser, for one test."""
        if self._browser is not None:
            asyncio.events._set_running_loop(self._loop)
            if self._browser.is_connected():
                return self._browser
            self.close()  # it crashed or was closed: a new one
        from playwright.sync_api import sync_playwright

        _installed()
        self._manager = sync_playwright()
        playwright: Playwright = self._manager.start()
        self._browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                         args=CHROMIUM_ARGS)
        self._loop = asyncio.events._get_running_loop()  # Playwright's, as its calls leave it
        return self._browser

    def give_back(self) -> None:
        """Every context the test left open closed (its pages with them); the thread's asyncio
        free again."""
        if self._browser is None:
            return
        try:
            if self._browser.is_connected():
                for context in self._browser.contexts:
                    context.close()
        finally:
            asyncio.events._set_running_loop(None)

    def close(self) -> None:
        """The browser and Playwright's driver stopped."""
        if self._browser is None:
            return
        asyncio.events._set_running_loop(self._loop)
        try:
            if self._browser.is_connected():
                self._browser.close()
        finally:
            self._manager.__exit__(None, None, None)
            self._manager = self._browser = self._loop = None
            asyncio.events._set_running_loop(None)
