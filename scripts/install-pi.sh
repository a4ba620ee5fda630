#!/usr/bin/env bash
# Install (or upgrade, or remove) the table controller on a Raspberry Pi, from this checkout:
#
#   sudo scripts/install-pi.sh                  # install, or upgrade in place (run it again)
#   sudo scripts/install-pi.sh --uninstall      # remove the program; keep config and journal
#   sudo scripts/install-pi.sh --uninstall --purge   # ... and /etc/mafia-table, the journal
#
# It runs on the 64-bit Raspberry Pi OS Bookworm and on Debian 12 or Ubuntu 24.04 for the Pi:
# anything arm64 with Python 3.11 or newer and apt (a 32-bit OS is not supported: PyPI has no
# armv7 wheels of some of the controller's libraries; docs/deployment.md). Each step that fails says what failed and what
# to do, and the script stops there with that step's exit code.
#
# What it puts where:
#   Debian packages   python3-venv, python3-spidev and python3-smbus2 (a [strip] or [expanders]
#                     table), mosquitto; python3-lgpio (gpiozero's pin library) where the
#                     distribution has it (Raspberry Pi OS, Ubuntu), else lgpio comes from PyPI
#                     into the venv (the [pi] extra; Debian has no python3-lgpio): it says which
#   user              mafia-table (system user; in the gpio, dialout and audio groups; gpio is
#                     made where the system has none, as Debian has not)
#   /opt/mafia-table/venv       the controller, in a venv that sees the system's lgpio
#                               (--system-site-packages); reinstalled only when the code changed
#   /etc/mafia-table/           table.toml (from config/table.example.toml, logging in to the
#                               local broker as the table), rules/ (the presets), the broker
#                               passwords (*.pass, readable by the service only)
#   /etc/mafia-table/tls/       HTTPS for the web pages (the judge's panel, the overlay):
#                               a local CA, made once and kept across upgrades (tablets trust
#                               it), and the pages' certificate for this Pi's names (host name,
#                               <host>.local, its private addresses, every --web-name), made
#                               again when they change (`mafia-table tls`, docs/deployment.md)
#   /var/lib/mafia-table/       the journal (events and saved table state)
#   /etc/systemd/system/mafia-table.service   examples/mafia-table.service (Type=notify, watchdog)
#   /etc/udev/rules.d/70-mafia-table.rules    consoles: the service's group, a stable name;
#                                             the GPIO chips: the gpio group
#   /etc/mosquitto/             the shipped config/mosquitto/ (local listener; the hall's TLS
#                               listener too once /etc/mosquitto/certs/ holds its certificates),
#                               the ACL, a password file with the table (and its events
#                               account), rules-core, technician, observer
#
# Upgrades keep what the club changed: a config file or preset edited here stays, and when the
# shipped version changed too, the new one lands beside it as <file>.new (as dpkg does); files
# nobody edited follow the shipped ones. The journal is never touched; the new controller opens
# it (and migrates its schema) at its first start.
#
# --root DIR puts every file under DIR instead of / (for tests and packaging); the system steps
# (apt-get, apt-cache, useradd, groupadd, usermod, chown, systemctl, udevadm) still run, so a test
# shadows them.
# --table ID names the table in a new table.toml and its broker account (default: the table the
# installed table.toml names, else table-1).
# --web-name NAME adds a host name or an IP address to the pages' certificate (again for more;
# kept in /etc/mafia-table/tls/names.txt, so an upgrade keeps it).
set -Eeuo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"

# step WHAT HINT: what the script does from here, and what to do when it fails. A failing command
# stops the script (set -e); the trap names the step, the command and its exit code, then the
# hint, so no failure is silent. (In a subshell it only exits: its parent reports it.)
STEP="reading the options"
HINT="run it as the comments at the top of $0 show"
step() { STEP="$1"; HINT="$2"; }
trap 'code=$?; if [ "$BASH_SUBSHELL" -eq 0 ]; then
        echo "install-pi: failed while $STEP: \`$BASH_COMMAND\` exited $code; $HINT" >&2; fi
      exit "$code"' ERR

ROOT=""
TABLE=""
WEB_NAMES=()
ACTION=install
PURGE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT="$(realpath -m "$2")"; shift 2 ;;
        --table) TABLE="$2"; shift 2 ;;
        --web-name) WEB_NAMES+=("--name=$2"); shift 2 ;;
        --uninstall) ACTION=uninstall; shift ;;
        --purge) PURGE=1; shift ;;
        -h|--help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-pi: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$TABLE" ] && [ -f "$ROOT/etc/mafia-table/table.toml" ]; then
    # an upgrade: the table the installed config names (its first `table = "..."` line)
    TABLE="$(sed -n '/^table = "/{s/^table = "\([^"]*\)".*/\1/p;q}' "$ROOT/etc/mafia-table/table.toml")"
fi
TABLE="${TABLE:-table-1}"  # a first install
[[ "$TABLE" =~ ^[A-Za-z0-9_-]{1,32}$ ]] || {
    echo "install-pi: --table: a table id is 1 to 32 letters, digits, '-' or '_'" >&2; exit 2; }
[ -n "$ROOT" ] || [ "$(id -u)" -eq 0 ] || { echo "install-pi: run it as root (sudo)" >&2; exit 2; }

USER_NAME=mafia-table
OPT="$ROOT/opt/mafia-table"
ETC="$ROOT/etc/mafia-table"
VAR="$ROOT/var/lib/mafia-table"
UNIT="$ROOT/etc/systemd/system/mafia-table.service"
UDEV="$ROOT/etc/udev/rules.d/70-mafia-table.rules"
MOSQ="$ROOT/etc/mosquitto"

say() { echo "install-pi: $*"; }

# install_config SRC DEST [MODE]: a file the club may edit. New: installed. Not edited since the
# last install: replaced by the new shipped version. Edited, and the shipped version changed:
# kept, the new shipped one put beside it as DEST.new. ($OPT/shipped/ keeps what was shipped.)
install_config() {
    local from="$1" to="$2" mode="${3:-0644}"
    local shipped="$OPT/shipped${to#"$ROOT"}"
    if [ ! -e "$to" ] || cmp -s "$to" "$shipped"; then
        if ! cmp -s "$from" "$to"; then
            install -D -m "$mode" "$from" "$to"
            say "installed $to"
        fi
        rm -f "$to.new"
    elif cmp -s "$from" "$to"; then
        rm -f "$to.new"
    elif ! cmp -s "$from" "$shipped"; then
        install -m "$mode" "$from" "$to.new"
        say "kept your $to; the new shipped version is $to.new"
    fi
    install -D -m 0644 "$from" "$shipped"
}

# install_program SRC DEST: a file the club does not edit, replaced on upgrade.
install_program() {
    if ! cmp -s "$1" "$2" 2>/dev/null; then
        install -D -m 0644 "$1" "$2"
        say "installed $2"
    fi
}

# make_secret FILE ACCOUNT: a random broker password, made once, readable by the service only
# (FILE's folder is made before, open to the service's user: a mode set on it here closed
# $ETC to the service, which then could not read its own table.toml).
make_secret() {
    local file="$1" account="$2"
    if [ ! -s "$file" ]; then
        (umask 027; head -c 24 /dev/urandom | base64 | tr -d '/+=' > "$file")
        say "made the $account broker password in $file"
    fi
    chown "root:$USER_NAME" "$file"
    chmod 0640 "$file"
    mosquitto_passwd -b "$MOSQ/mafia.passwd" "$account" "$(cat "$file")"
}

code_stamp() {  # what the venv was built from: changes when any shipped Python file changes
    (cd "$SRC" && find pyproject.toml contract kit controller hardware firmware_bridge judge hall \
        mafia_table -type f \
        ! -path '*/__pycache__/*' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)
}

# apt_has PACKAGE: true when apt can install PACKAGE here (the distribution has it).
apt_has() {
    [ -n "$(apt-cache madison "$1" 2>/dev/null)" ]
}

install_all() {
    step "installing the Debian packages (apt-get)" \
        "check the network and that \`sudo apt-get update\` works, then run this again"
    say "Debian packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    local packages=(python3-venv python3-spidev python3-smbus2 mosquitto mosquitto-clients openssl)
    # lgpio, gpiozero's pin library: the distribution's where it has one, else PyPI's (the
    # [pi] extra) into the venv; the venv sees the system's packages, so either one serves
    local lgpio extra=""
    if apt_has python3-lgpio; then
        lgpio="the distribution's package python3-lgpio"
        packages+=(python3-lgpio)
    else
        lgpio="PyPI, into $OPT/venv (this distribution has no python3-lgpio)"
        extra="[pi]"
    fi
    apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
    say "lgpio (the GPIO pin library) from $lgpio"

    step "checking the Python version" \
        "install Raspberry Pi OS Bookworm, Debian 12 or Ubuntu 24.04 (or newer) on the card"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        echo "install-pi: the controller needs Python 3.11 or newer; this system has" \
             "$(python3 --version 2>&1): $HINT" >&2; exit 1; }

    step "making the service user $USER_NAME" "the message above says why; run this again"
    if ! getent passwd "$USER_NAME" >/dev/null; then
        useradd --system --user-group --home-dir /var/lib/mafia-table --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
        say "made the system user $USER_NAME"
    fi
    if ! getent group gpio >/dev/null; then  # Raspberry Pi OS has it; the udev rule uses it
        groupadd --system gpio
        say "made the group gpio (the GPIO chips' group)"
    fi
    for group in gpio dialout audio; do
        if getent group "$group" >/dev/null; then usermod -a -G "$group" "$USER_NAME"; fi
    done

    step "installing the controller into $OPT/venv (pip)" \
        "pip says why above; check the network, then run this again (a 32-bit system: PyPI has \
no armv7 wheels of msgspec, pygame and numpy; install the 64-bit OS, docs/deployment.md)"
    local stamp  # what the venv holds: the code, and lgpio from the system or PyPI
    stamp="$(code_stamp) lgpio$extra"
    if [ "$(cat "$OPT/.installed" 2>/dev/null)" != "$stamp" ]; then
        say "installing the controller into $OPT/venv"
        install -d "$OPT"
        [ -x "$OPT/venv/bin/python" ] || python3 -m venv --system-site-packages "$OPT/venv"
        "$OPT/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
            --upgrade "$SRC$extra"
        echo "$stamp" > "$OPT/.installed"
    fi

    step "installing the config into $ETC and $MOSQ" "the message above says why; run this again"
    install -d -m 0755 "$ETC" "$ETC/rules"
    for preset in "$SRC"/config/rules/*.toml; do
        install_config "$preset" "$ETC/rules/$(basename "$preset")"
    done
    local table_toml
    table_toml="$(mktemp)"
    # the example, as this table on the local broker: its account and password file
    sed -e "s/^table = \"table-1\"/table = \"$TABLE\"/" \
        -e "s/^# username = \"table-1\"/username = \"$TABLE\"/" \
        -e "s/^# events_username = \"table-1-events\"/events_username = \"$TABLE-events\"/" \
        -e 's|^# password_file = "/etc/mafia-table/broker.pass".*|password_file = "broker.pass"|' \
        "$SRC/config/table.example.toml" > "$table_toml"
    install_config "$table_toml" "$ETC/table.toml" 0640
    rm -f "$table_toml"
    chown "root:$USER_NAME" "$ETC/table.toml"

    install -d -m 0755 "$MOSQ/conf.d"
    local conf
    conf="$(mktemp)"
    if [ -f "$MOSQ/certs/broker.crt" ]; then
        cp "$SRC/config/mosquitto/mafia.conf" "$conf"
    else  # no certificates here: the local listener only (see config/mosquitto/README.md)
        sed '/^# MQTT over TLS/,$d' "$SRC/config/mosquitto/mafia.conf" > "$conf"
    fi
    install_config "$conf" "$MOSQ/conf.d/mafia.conf"
    rm -f "$conf"
    local acl
    acl="$(mktemp)"
    sed "s/table-1/$TABLE/g" "$SRC/config/mosquitto/mafia.acl" > "$acl"  # its events account
    install_config "$acl" "$MOSQ/mafia.acl"
    rm -f "$acl"
    touch "$MOSQ/mafia.passwd"
    step "making the broker's accounts (mosquitto_passwd)" \
        "the message above says why; run this again"
    make_secret "$ETC/broker.pass" "$TABLE"
    make_secret "$ETC/broker.pass" "$TABLE-events"  # the events' connection, the same password
    make_secret "$ETC/rules-core.pass" rules-core
    make_secret "$ETC/technician.pass" technician
    make_secret "$ETC/observer.pass" observer
    chown mosquitto: "$MOSQ/mafia.passwd"
    chmod 0600 "$MOSQ/mafia.passwd"

    # the web pages' CA and certificate: the CA only when there is none (the tablets trust it)
    step "making the web pages' certificate (mafia-table tls)" \
        "the message above says why; run this again"
    install -d -m 0750 "$ETC/tls"
    "$OPT/venv/bin/mafia-table" tls --dir "$ETC/tls" "${WEB_NAMES[@]}" | sed 's/^tls: /install-pi: /'
    chown "root:$USER_NAME" "$ETC/tls" "$ETC/tls/server.key"
    chmod 0600 "$ETC/tls/ca.key"
    chmod 0640 "$ETC/tls/server.key"

    step "installing the service files" "the message above says why; run this again"
    install -d -m 0750 "$VAR"
    chown "$USER_NAME:$USER_NAME" "$VAR"

    install_program "$SRC/examples/mafia-table.service" "$UNIT"
    install_program "$SRC/config/udev/70-mafia-table.rules" "$UDEV"

    step "checking $ETC/table.toml (mafia-table check-config)" \
        "fix what it names (sudoedit $ETC/table.toml), then run this again"
    "$OPT/venv/bin/mafia-table" check-config "$ETC/table.toml"

    step "starting the services (systemctl)" \
        "\`systemctl status mafia-table mosquitto\` and \`journalctl -u mafia-table\` say why"
    if udevadm control --reload 2>/dev/null; then
        udevadm trigger --subsystem-match=tty --subsystem-match=gpio
    else  # a chroot or a container being built: the rules apply from the next boot
        say "udev is not running here: the consoles' and GPIO chips' rule applies from the" \
            "next boot"
    fi
    if systemd_running; then
        systemctl daemon-reload
        systemctl restart mosquitto
        systemctl enable mafia-table
        systemctl restart mafia-table
        say "done: systemctl status mafia-table; edit $ETC/table.toml (seats, pins, consoles:" \
            "$OPT/venv/bin/mafia-table consoles), then systemctl restart mafia-table"
    else  # an image being built (a chroot, a container): enabled, started at its first boot
        systemctl enable mafia-table mosquitto
        say "done: systemd is not running here, so mafia-table and mosquitto start at the" \
            "next boot (enabled); edit $ETC/table.toml before it"
    fi
}

# systemd_running: this system was booted with systemd, which runs now (sd_booted(3)'s test);
# ($ROOT/run/...: not in a root being filled, nor a chroot or a container building an image)
systemd_running() {
    [ -d "$ROOT/run/systemd/system" ]
}

uninstall_all() {
    step "removing the controller" "the message above says why; run this again"
    if systemd_running; then
        systemctl disable --now mafia-table || true  # not there: nothing to stop
    elif [ -e "$UNIT" ]; then  # (a purge after an uninstall: the unit is gone already)
        systemctl disable mafia-table
    fi
    rm -f "$UNIT" "$UDEV"
    rm -rf "$OPT"
    if systemd_running; then
        systemctl daemon-reload
    fi
    udevadm control --reload 2>/dev/null || true  # no udev here: nothing to tell
    if [ "$PURGE" -eq 1 ]; then
        rm -rf "$ETC" "$VAR"
        rm -f "$MOSQ/conf.d/mafia.conf" "$MOSQ/mafia.acl" "$MOSQ/mafia.passwd"
        userdel "$USER_NAME" || true
        if systemd_running; then
            systemctl restart mosquitto || true
        fi
        say "removed the controller, its config, its journal and its user"
    else
        say "removed the controller; kept $ETC, $VAR and the broker config" \
            "(--uninstall --purge removes them)"
    fi
}

if [ "$ACTION" = install ]; then install_all; else uninstall_all; fi
