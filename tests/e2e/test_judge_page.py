"""The judge's page in a real headless Chromium, knowing no book: the deal's cards are the book's,
the roles hidden from the start when the config says so and shown again with one tap, the
offers drawn as buttons and gone when the rules no longer take them."""

from __future__ import annotations

import pytest

from kit.local_broker import free_port
from tests.support.judge_panel import PASSWORD, Judge, Panel, judge_config
from tests.support.record_game import ROLES


@pytest.mark.timeout(120)
def test_the_roles_start_hidden_and_one_tap_shows_them(tmp_path, broker, chromium):
    listen = f"127.0.0.1:{free_port()}"
    config = judge_config(tmp_path, broker.port, listen)
    config.write_text(config.read_text() + "\n[game]\nhide_roles = true\n")
    judge = Judge(config)
    try:
        page = chromium.new_page()
        page.goto(f"http://{listen}/")
        page.fill("#password", PASSWORD)
        page.click("#login")
        panel = Panel(page, None)
        panel.stage("setup")
        cards = page.eval_on_selector_all('.seat[data-seat="1"] .deal option',
                                          "options => options.map(o => o.value)")
        assert cards == ["don", "mafia", "sheriff", "civilian"]  # the book's, in its order
        assert page.is_hidden("#confirm") and page.is_visible("#deal-typed")
        for seat, role in enumerate(ROLES, start=1):
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
        panel.tap("#deal-typed")
        role = page.locator('.seat[data-seat="1"] .role')
        role.wait_for(state="attached")
        assert role.text_content() == "don"
        assert not role.is_visible()  # hidden: [game] hide_roles
        page.click("#hide-roles")
        role.wait_for(state="visible")
        assert page.text_content("#hide-roles") == "Hide roles"
        page.click("#hide-roles")
        role.wait_for(state="hidden")
        panel.tap("#start")
        panel.stage("night0")
        assert page.is_hidden("#deal-typed") and page.is_visible("#next")
        assert page.text_content("#next") == "Morning"
    finally:
        judge.stop()
