"""``scripts/install-pi.sh`` into a scratch root, in its documented form (no options but the
root) from a state with nothing installed: the files a Pi gets, idempotence, an upgrade that
keeps the club's config and journal, an uninstall and a purge; lgpio from the distribution where
it has ``python3-lgpio`` (Raspberry Pi OS), else from PyPI into the venv (Debian); every failing
step named. The system steps (apt-get, apt-cache, useradd, groupadd, chown, systemctl, udevadm)
are shadowed on PATH by stubs that record their arguments; the venv, pip (lgpio's wheel from PyPI
included), mosquitto_passwd and the installed controller's ``check-config`` run for real."""

from __future__ import annotations

import functools
import os
import re
import shutil
import socket
import sqlite3
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from kit import pki
from tests.support.paths import REPO

#: each install builds a real venv (pip, numpy's and pygame's wheels): on two busy cores that is
#: minutes, past the suite's 120 s bound for one test
pytestmark = pytest.mark.timeout(600)

SCRIPT = REPO / "scripts" / "install-pi.sh"
STUBBED = ["apt-get", "usermod", "userdel", "chown", "systemctl", "udevadm"]
#: ``apt-cache madison python3-lgpio`` where the distribution has it (Raspberry Pi OS's archive)
LGPIO_IN_ARCHIVE = (" python3-lgpio | 0.2.2-1~rpt1 | http://archive.raspberrypi.com/debian "
                    "bookworm/main arm64 Packages")
#: the journal as controller 0.1.0 wrote it (before schema versions): an upgrade must open it
JOURNAL_0_1_0 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (seq INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload BLOB NOT NULL,
                     acked INTEGER NOT NULL DEFAULT 0);
CREATE INDEX events_unacked ON events (seq) WHERE acked = 0;
INSERT INTO meta VALUES ('store_id', 'oldstore0001');
INSERT INTO meta VALUES ('state', '{"broken": "on purpose"}');
INSERT INTO events VALUES (1, 'event/seat/press', '{"seq": 1}', 1);
INSERT INTO events VALUES (2, 'event/seat/press', '{"seq": 2}', 0);
"""


@pytest.fixture(scope="module")
def pi(tmp_path_factory):
    """A scratch root with the controller installed once, as documented (``sudo
    scripts/install-pi.sh``, no options), on a system whose archive has ``python3-lgpio`` (the
    venv is the slow part), booted with systemd (``/run/systemd/system``: its services started
    now)."""
    base = tmp_path_factory.mktemp("pi")
    env, log = system_stubs(base, lgpio_in_archive=True)
    root = base / "root"
    (root / "run/systemd/system").mkdir(parents=True)
    first = install(root, env)
    return root, env, log, first


def system_stubs(base: Path, *, lgpio_in_archive: bool) -> tuple[dict[str, str], Path]:
    """Stubs of the system steps in ``base/bin`` recording into ``base/system-steps.log``: a
    machine with no mafia-table user (until useradd makes it) and, of the groups, only dialout
    (until groupadd makes one); ``apt-cache`` knows ``python3-lgpio`` only if
    ``lgpio_in_archive``. The environment that puts them first on PATH, and the log."""
    stubs = base / "bin"
    stubs.mkdir()
    log = base / "system-steps.log"
    (base / "group").write_text("dialout\n")  # getent's databases: a name a line
    (base / "passwd").write_text("")
    for name in STUBBED:
        write_stub(stubs / name, f'echo "{name} $*" >> {log}')
    for name, database in (("useradd", "passwd"), ("groupadd", "group")):
        write_stub(stubs / name, f'echo "{name} $*" >> {log}; for a; do made=$a; done; '
                                 f'echo "$made" >> {base / database}')
    write_stub(stubs / "getent", f'echo "getent $*" >> {log}; grep -qx "$2" {base}/"$1"')
    found = f"echo '{LGPIO_IN_ARCHIVE}'" if lgpio_in_archive else "true"
    write_stub(stubs / "apt-cache", f'echo "apt-cache $*" >> {log}; '
                                    f'[ "$1 $2" = "madison python3-lgpio" ] && {found}; true')
    return {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}, log


def write_stub(path: Path, body: str) -> None:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


#: the copies ``this_release`` made, removed as the worker ends
_COPIES: list[tempfile.TemporaryDirectory[str]] = []


@functools.cache
def this_release() -> Path:
    """This checkout copied (``release``) once a worker: the script installs from its own
    folder, and pip builds the project in that tree (``build/``), so an install from the
    checkout itself wrote there, two workers' installs at once into the same folder."""
    _COPIES.append(tempfile.TemporaryDirectory(prefix="install-pi-source-"))
    return release(Path(_COPIES[-1].name))


def install(root: Path, env: dict[str, str], *args: str, script: Path | None = None) -> str:
    done = run_script(root, env, *args, script=script)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "install-pi:" not in done.stderr, done.stderr  # no step failed on the way
    return done.stdout


def run_script(root: Path, env: dict[str, str], *args: str,
               script: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``install-pi.sh`` (``this_release``'s, unless ``script`` names another) into ``root``."""
    script = script or this_release() / SCRIPT.relative_to(REPO)
    return subprocess.run(["bash", str(script), "--root", str(root), *args], env=env,
                          capture_output=True, text=True, timeout=600)


def test_a_fresh_install_puts_everything_in_place(pi):
    root, _, log, out = pi
    venv = root / "opt/mafia-table/venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    assert (venv / "bin/mafia-table").is_file()
    assert "lgpio (the GPIO pin library) from the distribution's package python3-lgpio" in out
    etc = root / "etc/mafia-table"
    table = (etc / "table.toml").read_text()
    assert 'table = "table-1"' in table and 'username = "table-1"' in table
    assert 'password_file = "broker.pass"' in table
    assert {p.name for p in (etc / "rules").iterdir()} == {
        p.name for p in (REPO / "config/rules").iterdir()}
    assert f"{etc / 'table.toml'}: ok (table table-1" in out  # the installed controller checked
    # the service's user reaches its config (the folder was once left 0750 root:root, and the
    # controller could not read table.toml: found by scripts/check-arm64.sh running it)
    assert stat.S_IMODE(etc.stat().st_mode) == 0o755
    for account in ("broker", "rules-core", "observer"):
        secret = etc / f"{account}.pass"
        assert len(secret.read_text().strip()) >= 20
        assert stat.S_IMODE(secret.stat().st_mode) == 0o640
    passwd = (root / "etc/mosquitto/mafia.passwd").read_text()
    accounts = [line.split(":")[0] for line in passwd.splitlines()]
    assert accounts == ["table-1", "table-1-events", "rules-core", "technician", "observer"]
    assert 'events_username = "table-1-events"' in table
    conf = (root / "etc/mosquitto/conf.d/mafia.conf").read_text()
    assert "listener 1883 127.0.0.1" in conf and "8883" not in conf  # no certificates here
    assert (root / "etc/mosquitto/mafia.acl").read_text() == (
        REPO / "config/mosquitto/mafia.acl").read_text()
    assert (root / "var/lib/mafia-table").is_dir()
    udev = (root / "etc/udev/rules.d/70-mafia-table.rules").read_text()
    assert 'KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in udev
    unit = (root / "etc/systemd/system/mafia-table.service").read_text()
    assert "Type=notify" in unit and "WatchdogSec=" in unit
    steps = log.read_text().splitlines()
    assert steps[:2] == ["apt-get update -qq", "apt-cache madison python3-lgpio"]
    assert ("apt-get install -y -qq --no-install-recommends python3-venv python3-spidev "
            "python3-smbus2 mosquitto mosquitto-clients openssl python3-lgpio") in steps
    assert ("useradd --system --user-group --home-dir /var/lib/mafia-table --no-create-home "
            "--shell /usr/sbin/nologin mafia-table") in steps
    assert "groupadd --system gpio" in steps  # none here: the udev rule gives it the chips
    assert "usermod -a -G gpio mafia-table" in steps
    assert "usermod -a -G dialout mafia-table" in steps
    assert "usermod -a -G audio mafia-table" not in steps  # no such group on this machine
    assert f"chown root:mafia-table {etc / 'broker.pass'}" in steps
    assert steps[-4:] == ["systemctl daemon-reload", "systemctl restart mosquitto",
                          "systemctl enable mafia-table", "systemctl restart mafia-table"]


def test_the_installed_unit_passes_systemd_analyze_verify(pi, tmp_path):
    """(scripts/setup.sh installs Debian's systemd, which brings systemd-analyze.)"""
    root = pi[0]
    unit = (root / "etc/systemd/system/mafia-table.service").read_text()
    # the unit as it is, but for where the scratch root put the program (verify checks it)
    (tmp_path / "mafia-table.service").write_text(
        unit.replace("/opt/mafia-table/", f"{root}/opt/mafia-table/"))
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "mafia-table.service")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr  # unknown keys: a warning


def test_running_it_again_changes_nothing(pi):
    root, env, _, _ = pi
    before = snapshot(root)
    out = install(root, env)
    assert "installed" not in out and "installing the controller" not in out
    assert "made the" not in out  # the user, the group, the broker's passwords: all there
    after = snapshot(root)
    after.pop("etc/mosquitto/mafia.passwd")  # mosquitto_passwd salts each hash anew
    before.pop("etc/mosquitto/mafia.passwd")
    assert after == before


def test_an_upgrade_keeps_the_clubs_config_and_journal(pi, tmp_path):
    root, env, _, _ = pi
    etc = root / "etc/mafia-table"
    journal = root / "var/lib/mafia-table/table-1.db"
    with sqlite3.connect(journal) as db:
        db.executescript(JOURNAL_0_1_0)
    edited_table = (etc / "table.toml").read_text().replace("seats = 10", "seats = 12")
    (etc / "table.toml").write_text(edited_table)
    (etc / "rules/fiim.toml").write_text((etc / "rules/fiim.toml").read_text() + "# ours\n")

    new = release(tmp_path / "src")  # the next release: a preset and the unit changed
    (new / "config/rules/fiim.toml").write_text(
        (new / "config/rules/fiim.toml").read_text() + "# shipped in the next release\n")
    other = next(p.name for p in sorted((new / "config/rules").glob("*.toml"))
                 if p.name != "fiim.toml")  # a preset nobody here edited
    (new / "config/rules" / other).write_text(
        (new / "config/rules" / other).read_text() + "# also new\n")
    (new / "examples/mafia-table.service").write_text(
        (new / "examples/mafia-table.service").read_text() + "# next release\n")
    out = install(root, env, script=new / "scripts/install-pi.sh")

    assert (etc / "table.toml").read_text() == edited_table  # the club's own, untouched
    assert not (etc / "table.toml.new").exists()  # the shipped example did not change
    assert (etc / "rules/fiim.toml").read_text().endswith("# ours\n")
    assert (etc / "rules/fiim.toml.new").read_text().endswith("# shipped in the next release\n")
    assert f"kept your {etc / 'rules/fiim.toml'}" in out
    assert (etc / "rules" / other).read_text().endswith("# also new\n")  # nobody edited it
    assert (root / "etc/systemd/system/mafia-table.service").read_text().endswith(
        "# next release\n")

    installed = root / "opt/mafia-table/venv/bin/mafia-table"
    shown = subprocess.run([str(installed), "state", "show", "--config", str(etc / "table.toml")],
                           env={**env, "STATE_DIRECTORY": str(journal.parent)},
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert "store oldstore0001, last seq 2, 1 events wait for the broker" in shown.stdout


def test_the_pages_get_a_ca_kept_across_upgrades_and_a_certificate_for_the_pis_names(pi,
                                                                                   tmp_path):
    root, env, log, out = pi
    tls = root / "etc/mafia-table/tls"
    ca = (tls / "ca.crt").read_bytes()
    host = socket.gethostname().split(".")[0].lower()
    names = pki.certificate_names(tls / "server.crt")
    assert {host, f"{host}.local", "localhost"} <= set(names.dns) and "127.0.0.1" in names.ips
    assert f"install-pi: CA SHA-256 fingerprint {pki.fingerprint(tls / 'ca.crt')}" in out
    assert stat.S_IMODE((tls / "ca.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((tls / "server.key").stat().st_mode) == 0o640
    assert f"chown root:mafia-table {tls} {tls / 'server.key'}" in log.read_text().splitlines()
    subprocess.run(["openssl", "verify", "-CAfile", "ca.crt", "server.crt"], cwd=tls,
                   check=True, capture_output=True)

    scratch = tmp_path / "root"  # its own root: the module's install stays for the other tests
    shutil.copytree(root, scratch, symlinks=True)
    tls = scratch / "etc/mafia-table/tls"
    install(scratch, env, "--web-name", "judge.club.lan", "--web-name", "192.168.77.5")
    named = pki.certificate_names(tls / "server.crt")
    assert "judge.club.lan" in named.dns and "192.168.77.5" in named.ips
    install(scratch, env, script=release(tmp_path / "src") / "scripts/install-pi.sh")  # upgrade
    assert pki.certificate_names(tls / "server.crt") == named  # names.txt kept the names
    assert (tls / "ca.crt").read_bytes() == ca  # every tablet still trusts it


def test_uninstall_keeps_config_and_journal_and_purge_removes_them(pi, tmp_path):
    root, env, log, _ = pi
    scratch = tmp_path / "root"  # its own root: the module's install stays for the other tests
    shutil.copytree(root, scratch, symlinks=True)
    out = install(scratch, env, "--uninstall")
    assert not (scratch / "opt/mafia-table").exists()
    assert not (scratch / "etc/systemd/system/mafia-table.service").exists()
    assert not (scratch / "etc/udev/rules.d/70-mafia-table.rules").exists()
    assert (scratch / "etc/mafia-table/table.toml").is_file() and "kept" in out
    assert (scratch / "var/lib/mafia-table").is_dir()
    assert "systemctl disable --now mafia-table" in log.read_text()
    install(scratch, env, "--uninstall", "--purge")
    assert not (scratch / "etc/mafia-table").exists()
    assert not (scratch / "var/lib/mafia-table").exists()
    assert not (scratch / "etc/mosquitto/mafia.passwd").exists()
    assert "userdel mafia-table" in log.read_text()


def test_a_bad_table_id_is_refused_before_anything(tmp_path):
    done = subprocess.run(["bash", str(SCRIPT), "--root", str(tmp_path), "--table", "a b"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--table: a table id is" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_without_python3_lgpio_the_venv_takes_lgpio_from_pypi(tmp_path):
    """Debian's own arm64 (and other distributions than Raspberry Pi OS) has no python3-lgpio:
    the [pi] extra brings lgpio's wheel from PyPI into the venv, and the install says so. This
    root runs no systemd (a card's image being built, scripts/check-arm64.sh's chroot): the
    services are enabled for the first boot, not started, and no step fails for it."""
    env, log = system_stubs(tmp_path, lgpio_in_archive=False)
    root = tmp_path / "root"
    venv = root / "opt/mafia-table/venv"
    out = install(root, env, "--table", "t9")
    assert (f"lgpio (the GPIO pin library) from PyPI, into {root}/opt/mafia-table/venv (this "
            "distribution has no python3-lgpio)") in out
    assert not any("python3-lgpio" in step for step in log.read_text().splitlines()
                   if step.startswith("apt-get install"))
    found = subprocess.run([str(venv / "bin/python"), "-c", "import lgpio; print(lgpio.__file__)"],
                           capture_output=True, text=True, timeout=60)
    assert found.returncode == 0 and found.stdout.startswith(str(venv)), found.stderr
    steps = [step for step in log.read_text().splitlines() if step.startswith("systemctl")]
    assert steps == ["systemctl enable mafia-table mosquitto"]
    assert "mafia-table and mosquitto start at the next boot (enabled)" in out

    again = install(root, env)  # an upgrade, as documented: the installed table, lgpio kept
    assert "installing the controller" not in again
    assert "lgpio (the GPIO pin library) from PyPI" in again
    assert f"{root}/etc/mafia-table/table.toml: ok (table t9" in again


def test_a_failing_step_says_what_failed_and_what_to_do(tmp_path):
    env, _ = system_stubs(tmp_path, lgpio_in_archive=True)
    write_stub(tmp_path / "bin/apt-get", "echo 'E: Could not resolve deb.debian.org' >&2; exit 100")
    done = run_script(tmp_path / "root", env)
    assert done.returncode == 100
    assert done.stderr.splitlines() == [
        "E: Could not resolve deb.debian.org",
        "install-pi: failed while installing the Debian packages (apt-get): `apt-get update -qq` "
        "exited 100; check the network and that `sudo apt-get update` works, then run this again"]


def test_a_python_older_than_3_11_is_named_with_what_to_install(tmp_path):
    env, _ = system_stubs(tmp_path, lgpio_in_archive=True)  # Ubuntu 22.04's Python, say
    write_stub(tmp_path / "bin/python3", '[ "$1" = --version ] && echo "Python 3.10.12"; exit 1')
    done = run_script(tmp_path / "root", env)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "install-pi: the controller needs Python 3.11 or newer; this system has Python 3.10.12: "
        "install Raspberry Pi OS Bookworm, Debian 12 or Ubuntu 24.04 (or newer) on the card"]
    assert not (tmp_path / "root/opt").exists()


def test_a_config_the_controller_refuses_stops_the_install_before_the_service(pi, tmp_path):
    root, env, log, _ = pi
    scratch = tmp_path / "root"  # its own root: the module's install stays for the other tests
    shutil.copytree(root, scratch, symlinks=True)
    table = scratch / "etc/mafia-table/table.toml"
    table.write_text(re.sub(r"(?m)^seats = \d+$", 'seats = "ten"', table.read_text()))
    started = log.read_text().count("systemctl restart mafia-table")
    done = run_script(scratch, env)
    assert done.returncode == 2
    assert "seats" in done.stderr  # check-config's own words name the field
    assert done.stderr.splitlines()[-1] == (
        f"install-pi: failed while checking {table} (mafia-table check-config): "
        f"`\"$OPT/venv/bin/mafia-table\" check-config \"$ETC/table.toml\"` exited 2; fix what "
        f"it names (sudoedit {table}), then run this again")
    assert log.read_text().count("systemctl restart mafia-table") == started


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root but the venv (pip's caches move), by path."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and "opt/mafia-table/venv" not in str(p)}


def release(to: Path) -> Path:
    """A copy of this checkout's files (tracked and new), as the next release's source."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                           cwd=REPO, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, files):
        source = REPO / name.decode()
        if source.is_file():
            (to / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name.decode())
    return to
