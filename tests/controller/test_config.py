"""Config checking: every kind of mistake is named by its key path, and nothing half-loads."""

from __future__ import annotations

import pytest

from controller import config
from controller.core.vote import VoteRules
from kit.config import ConfigError
from mafia_table import cli
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.table_configs import write_config

BASE = """
table = "t1"
seats = 10
[backends]
gpio = "mock"
"""


def problems_of(tmp_path, body: str, overrides: config.Overrides | None = None) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        config.load(write_config(tmp_path, body), overrides)
    return caught.value.problems


def test_the_example_config_is_valid():
    cfg = config.load(EXAMPLE_CONFIG)
    assert (cfg.table, cfg.seats, cfg.backends.gpio) == ("table-1", 10, "lgpio")
    assert len(cfg.gpio.buttons()) == 13


def test_command_line_overrides_win_over_the_file(tmp_path):
    cfg = config.load(write_config(tmp_path, BASE),
                      config.Overrides(table="hall-2", broker="10.1.2.3:1999", simulated=True))
    assert (cfg.table, cfg.broker.host, cfg.broker.port, cfg.backends.gpio) == (
        "hall-2", "10.1.2.3", 1999, "mock")
    assert cfg.backends.consoles == "emulated"  # --sim emulates the consoles too


def test_the_voice_override_wins_over_music_voice_and_is_checked_as_the_files_is(tmp_path):
    assert config.load(write_config(tmp_path, BASE), config.Overrides(voice="en")).music.voice \
        == "en"
    [problem] = problems_of(tmp_path, BASE, config.Overrides(voice="uk"))
    assert problem.startswith("music.voice:"), problem


@pytest.mark.parametrize(("body", "expected"), [
    (BASE + "colour = 1\n", "object contains unknown field 'colour'"),
    (BASE + "[gpio]\ndebounce = 5\n", "gpio: object contains unknown field 'debounce'"),
    (BASE.replace("seats = 10", 'seats = "ten"'), "seats: expected int, got str"),
    (BASE.replace("seats = 10", "seats = 3"), "seats: expected int >= 4"),
    (BASE.replace("seats = 10", "seats = 25"), "seats: expected int <= 24"),
    (BASE.replace('"t1"', '"table/1"'), "table: a table id is 1 to 32 letters, digits"),
    (BASE.replace('gpio = "mock"', 'gpio = "rpigpio"'), "backends.gpio: invalid enum value"),
    (BASE + "[broker]\nport = 70000\n", "broker.port: expected int <= 65535"),
    (BASE + "[gpio]\ndebounce_ms = -1\n", "gpio.debounce_ms: expected float >= 0.0"),
    (BASE + "[[gpio.seat]]\nseat = 1\nbutton = 40\n", "gpio.seat[0].button: expected int <= 27"),
    (BASE + "[[gpio.seat]]\nseat = 1\nrgb = [1, 2]\n",
     "gpio.seat[0].rgb: expected array of length >= 3"),
    (BASE.replace("seats = 10", ""), "object missing required field 'seats'"),
])
def test_shape_mistakes_name_the_key(tmp_path, body, expected):
    [problem] = problems_of(tmp_path, body)
    assert expected in problem


def test_a_seat_beyond_the_table_is_refused(tmp_path):
    assert problems_of(tmp_path, BASE + "[[gpio.seat]]\nseat = 11\nbutton = 4\n") == [
        "gpio.seat[0].seat: no seat 11 at this table (seats are 1..10)"]


def test_a_seat_wired_twice_is_refused(tmp_path):
    body = BASE + "[[gpio.seat]]\nseat = 2\nbutton = 4\n[[gpio.seat]]\nseat = 2\nbutton = 5\n"
    assert problems_of(tmp_path, body) == [
        "gpio.seat[1].seat: seat 2 is already wired by gpio.seat[0]"]


def test_one_pin_used_twice_is_refused_with_both_places(tmp_path):
    body = BASE + ("[gpio.judge]\nconfirm = 18\n"
                   "[[gpio.seat]]\nseat = 1\nbutton = 4\nlight = 18\n"
                   "[[gpio.seat]]\nseat = 2\nbutton = 5\nrgb = [6, 4, 7]\n")
    assert problems_of(tmp_path, body) == [
        "gpio.seat[1].rgb[1]: pin 4 is already used by gpio.seat[0].button",
        "gpio.judge.confirm: pin 18 is already used by gpio.seat[0].light",
    ]


def test_a_light_and_an_rgb_light_on_one_seat_is_refused(tmp_path):
    body = BASE + "[[gpio.seat]]\nseat = 1\nlight = 5\nrgb = [6, 7, 8]\n"
    assert problems_of(tmp_path, body) == [
        "gpio.seat[0]: give either light (one LED) or rgb (three pins), not both"]


def test_missing_files_are_refused_with_their_resolved_path(tmp_path):
    body = BASE + ('[broker]\nusername = "t1"\npassword_file = "t1.pass"\n'
                   '[broker.tls]\nca_file = "ca.crt"\n')
    assert problems_of(tmp_path, body) == [
        f"broker.password_file: file not found: {tmp_path / 't1.pass'}",
        f"broker.tls.ca_file: file not found: {tmp_path / 'ca.crt'}",
    ]


def test_present_files_are_resolved_relative_to_the_config(tmp_path):
    (tmp_path / "t1.pass").write_text("secret\n")
    cfg = config.load(write_config(tmp_path, BASE + (
        '[broker]\nusername = "t1"\npassword_file = "t1.pass"\n')))
    assert cfg.broker.password_file == str(tmp_path / "t1.pass")


def test_unusable_secret_files_are_refused_before_run(tmp_path):
    (tmp_path / "t1.pass").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "ca.crt").write_text("not a certificate\n")
    problems = problems_of(tmp_path, BASE + (
        '[broker]\nusername = "t1"\npassword_file = "t1.pass"\n'
        '[broker.tls]\nca_file = "ca.crt"\n'))
    assert problems[0].startswith("broker.password_file: cannot read it as text")
    assert problems[1].startswith("broker.tls.ca_file: not a usable CA certificate")


def test_a_password_file_without_a_user_and_a_cert_without_a_key_are_refused(tmp_path):
    for name in ("p", "ca", "cert"):
        (tmp_path / name).write_text("x")
    body = BASE + ('[broker]\npassword_file = "p"\n'
                   '[broker.tls]\nca_file = "ca"\ncert_file = "cert"\n')
    problems = problems_of(tmp_path, body)
    assert problems[:2] == [
        "broker.password_file: set broker.username too",
        "broker.tls: give cert_file and key_file together",
    ]
    assert problems[2].startswith("broker.tls.ca_file: not a usable CA certificate")


def test_a_missing_file_and_bad_toml_are_reported(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        config.load(tmp_path / "nope.toml")
    assert problems_of(tmp_path, "table = \n")[0].startswith("not valid TOML:")


def test_a_bad_broker_override_is_refused(tmp_path):
    assert problems_of(tmp_path, BASE, config.Overrides(broker="localhost")) == [
        "--broker: expected HOST:PORT, got 'localhost'"]


def test_check_config_command_reports_ok_and_mistakes(tmp_path, capsys):
    assert cli.main(["check-config", str(EXAMPLE_CONFIG)]) == 0
    assert "ok (table table-1, 10 seats, 13 GPIO buttons" in capsys.readouterr().out
    bad = write_config(tmp_path, BASE + "[[gpio.seat]]\nseat = 99\n")
    assert cli.main(["check-config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"config error in {bad}:" in err and "gpio.seat[0].seat: no seat 99" in err


def test_run_refuses_a_bad_config_before_starting_anything(tmp_path, capsys):
    bad = write_config(tmp_path, BASE.replace("seats = 10", "seats = 2"))
    assert cli.main(["run", "--config", str(bad)]) == 2
    assert "seats: expected int >= 4" in capsys.readouterr().err


def with_rules(preset: str) -> str:
    return BASE.replace("seats = 10", f'seats = 10\nrules = "{preset}"')


@pytest.mark.parametrize("preset", sorted((EXAMPLE_CONFIG.parent / "rules").glob("*.toml")),
                         ids=lambda p: p.name)
def test_every_shipped_rule_preset_loads(tmp_path, preset):
    cfg = config.load(write_config(tmp_path, with_rules(str(preset))))
    assert cfg.vote.window == 1.5


def test_the_example_uses_the_fiim_preset_and_003_allows_abstaining(tmp_path):
    assert config.load(EXAMPLE_CONFIG).vote == VoteRules()  # the FIIM defaults
    club = config.load(write_config(tmp_path, with_rules(
        str(EXAMPLE_CONFIG.parent / "rules" / "online-003.toml"))))
    assert (club.vote.leftover, club.vote.against_all, club.vote.abstain_wins) == (
        "abstain", False, True)  # "against all" is asked for per vote, in 003's second round


def test_against_all_with_the_leftover_rule_is_refused(tmp_path):
    [problem] = problems_of(tmp_path, BASE + "[vote]\nagainst_all = true\n")
    assert problem.startswith('vote: against_all needs leftover = "abstain"')


def test_the_tables_own_vote_keys_win_over_the_preset(tmp_path):
    preset = tmp_path / "p.toml"
    preset.write_text('name = "p"\nbook = "b"\n[vote]\nwindow = 2.0\ngap = 3.0\n')
    cfg = config.load(write_config(tmp_path, with_rules("p.toml") + "[vote]\nwindow = 1.2\n"))
    assert (cfg.vote.window, cfg.vote.gap) == (1.2, 3.0)


def test_the_tables_own_night_surplus_replaces_the_presets_whole(tmp_path):
    fiim = str(EXAMPLE_CONFIG.parent / "rules" / "fiim.toml")
    cfg = config.load(write_config(tmp_path, with_rules(fiim) + '[night]\nsurplus = '
                                   '{ best_move = "void" }\n'))
    assert cfg.night.surplus == {"best_move": "void"}  # the shot now falls to "first"


def test_preset_mistakes_are_named(tmp_path):
    assert problems_of(tmp_path, with_rules("no.toml")) == [
        f"rules: preset file not found: {tmp_path / 'no.toml'}"]
    (tmp_path / "bad.toml").write_text('name = "p"\n[vote]\nwindow = 1\n')
    [problem] = problems_of(tmp_path, with_rules("bad.toml"))
    assert "object missing required field 'book'" in problem
    (tmp_path / "odd.toml").write_text('name = "p"\nbook = "b"\n[vote]\nwindoww = 1\n')
    [problem] = problems_of(tmp_path, with_rules("odd.toml"))
    assert problem == "vote: object contains unknown field 'windoww'"


def test_standing_and_night_step_mistakes_in_a_preset_are_named(tmp_path):
    (tmp_path / "s.toml").write_text('name = "p"\nbook = "b"\n[standings.out]\n'
                                     'blocks = ["vote", "fly"]\n')
    [problem] = problems_of(tmp_path, with_rules("s.toml"))
    assert problem == "standings.out.blocks[1]: invalid enum value 'fly'"
    body = with_rules("s.toml").replace('rules = "s.toml"', '')
    [problem] = problems_of(tmp_path, body + '[night]\nsteps = { mafia_shot = "vote" }\n')
    assert problem == "night.steps[...]: invalid enum value 'vote'"  # msgspec's path
    [problem] = problems_of(tmp_path, body + '[night]\nsurplus = { best_move = "last" }\n')
    assert problem == "night.surplus[...]: invalid enum value 'last'"
    [problem] = problems_of(tmp_path, body + '[night]\nsurplus = { "Best-Move" = "first" }\n')
    assert problem.startswith("night.surplus: a key: expected str matching regex")


def test_console_mistakes_are_named(tmp_path):
    body = BASE + (
        "[[gpio.seat]]\nseat = 1\nbutton = 4\n"
        '[[console]]\nport = "/dev/a"\nseats = [1, 2]\n'
        '[[console]]\nport = "/dev/a"\nseats = [2, 11]\n')
    assert problems_of(tmp_path, body) == [
        "console[0].seats[0]: seat 1 has a vote button on GPIO (gpio.seat[0].button); set "
        "console[0].keys_only = true so its console serves the keypad only",
        "console[1].port: /dev/a is already console[0]",
        "console[1].seats[0]: seat 2 is already served by console[0]",
        "console[1].seats[1]: no seat 11 at this table (seats are 1..10)",
    ]


def test_a_keys_only_console_may_share_a_seat_with_a_gpio_button(tmp_path):
    cfg = config.load(write_config(tmp_path, BASE + (
        "[[gpio.seat]]\nseat = 1\nbutton = 4\n"
        '[[console]]\nport = "/dev/a"\nseats = [1, 2]\nkeys_only = true\n')))
    assert cfg.keypad_seats() == {1, 2}
    assert {b.seat for b in cfg.vote_buttons()} == {1}


def test_a_tool_logging_in_as_another_account_does_not_need_the_tables_password(tmp_path):
    """selftest and watch run as the rules core or an observer: the table's own password file
    (readable by the service user only) is not read."""
    body = BASE + '[broker]\nusername = "t1"\npassword_file = "/nonexistent/table.pass"\n'
    assert "file not found" in problems_of(tmp_path, body)[0]
    mine = tmp_path / "core.pass"
    mine.write_text("secret\n")
    cfg = config.load(write_config(tmp_path, body), config.Overrides(
        username="rules-core", password_file=str(mine)))
    assert (cfg.broker.username, cfg.broker.password_file) == ("rules-core", str(mine))
    assert problems_of(tmp_path, body, config.Overrides(password_file=str(mine))) == [
        "--password-file: give --username too"]
