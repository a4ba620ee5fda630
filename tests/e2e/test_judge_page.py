"""The judge's page in a real headless Chromium, knowing no book: the deal's cards are the book's,
the roles hidden from the start when the config says so and shown again with one tap, the
offers drawn as buttons and gone when the rules no longer take them; a table with no sound
card on a simulated table said plainly, a real speaker fault in red."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from contract.api import NO_SOUND_DEVICE
from kit.local_broker import free_port
from tests.support.judge_panel import PASSWORD, TABLE, Hands, Judge, Panel, judge_config, login
from tests.support.page_layout import fits
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.process import kill_if_running, start_service, stop_cleanly
from tests.support.record_game import ROLES
from tests.support.running import Running
from tests.support.table_configs import quick_table

#: judge/panel/static/panel.css's --red (#e0454b), as the browser computes it
RED = "rgb(224, 69, 75)"


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
        assert role.text_content() == "Don"  # the book's word for the card
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


@pytest.mark.timeout(180)
def test_a_simulated_table_with_no_sound_card_is_said_plainly_and_a_real_speaker_fault_in_red(
        tmp_path, broker, chromium):
    """A real simulated table (``mafia-table run --sim``) whose SDL opens no sound device (its
    driver is one not here, as on a server with no sound card) plays on silent: the panel says
    so in either language, not in red; one whose sound is off by its configuration says that;
    a real table with no sound device where its speaker should be is a fault, in red."""
    listen = f"127.0.0.1:{free_port()}"
    judge = Judge(judge_config(tmp_path, broker.port, listen))
    hands = Hands(broker.port)
    table = start_service("--sim", "--config", str(EXAMPLE_CONFIG),
                          "--broker", f"127.0.0.1:{broker.port}",
                          env={"SDL_AUDIODRIVER": "none", "STATE_DIRECTORY": str(tmp_path)})
    try:
        page = login(chromium, f"http://{listen}/").page
        sound = page.locator("#health .sound")
        expect(sound).to_have_text(
            "simulated table: no sound card here, the game plays on without sound")

        def colour(selector: str) -> str:
            return page.eval_on_selector(selector, "e => getComputedStyle(e).color")

        page.locator("#languages button[lang=ru]").click()
        expect(sound).to_have_text(
            "симуляция стола: звуковой карты здесь нет, игра идёт без звука")
        expect(sound).to_have_class("sound silent")
        calm = colour("#health .sound")
        fits(page)  # the longest of the words, on a tablet either way and a phone
        stop_cleanly(table)
        running = Running(quick_table(tmp_path, broker.port))  # [backends] audio = "off"
        try:
            expect(sound).to_have_text("звук стола выключен в настройках")
            assert colour("#health .sound") == calm
            fits(page)
        finally:
            running.close()
        body = {"boot_id": "b", "gpio": "lgpio", "outbox": {}, "consoles": [], "audio": {
            "backend": "sdl", "ok": False,
            "problems": [f"{NO_SOUND_DEVICE} (sdl): no sound card (/proc/asound/cards)"]}}
        hands.record.client.publish(TABLE + "health", json.dumps(body), qos=1, retain=True)
        expect(sound).to_have_text("неисправен динамик")
        expect(sound).to_have_class("sound fault")
        assert colour("#health .sound") == RED != calm  # the panel's --red
    finally:
        kill_if_running(table)
        hands.record.client.publish(TABLE + "health", b"", qos=1, retain=True)  # no leftover
        judge.stop()
        hands.record.close()
