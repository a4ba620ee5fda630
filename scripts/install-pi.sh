#!/usr/bin/env bash
# Install (or upgrade, or remove) the table controller on a Raspberry Pi, from this checkout:
#
#   sudo scripts/install-pi.sh                  # install, or upgrade in place (run it again)
#   sudo scripts/install-pi.sh --uninstall      # remove the program; keep config and journal
#   sudo scripts/install-pi.sh --uninstall --purge   # ... and /etc/mafia-table, the journal
#
# What it puts where:
#   Debian packages   python3-venv, python3-lgpio (gpiozero's pin factory), python3-spidev and
#                     python3-smbus2 (a [strip] or [expanders] table), mosquitto
#   user              mafia-table (system user; in the gpio, dialout and audio groups that exist)
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
#   /etc/udev/rules.d/70-mafia-table.rules    consoles: the service's group, a stable name
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
# (apt-get, useradd, usermod, chown, systemctl, udevadm) still run, so a test shadows them.
# --table ID names the table in a new table.toml and its broker account (default: the table the
# installed table.toml names, else table-1).
# --web-name NAME adds a host name or an IP address to the pages' certificate (again for more;
# kept in /etc/mafia-table/tls/names.txt, so an upgrade keeps it).
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"

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
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-pi: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$TABLE" ]; then  # an upgrade: the table the installed config names
    TABLE="$(sed -n 's/^table = "\(.*\)".*/\1/p' "$ROOT/etc/mafia-table/table.toml" 2>/dev/null \
             | head -n 1)"
    TABLE="${TABLE:-table-1}"
fi
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

# make_secret FILE ACCOUNT: a random broker password, made once, readable by the service only.
make_secret() {
    local file="$1" account="$2"
    if [ ! -s "$file" ]; then
        install -d -m 0750 "$(dirname "$file")"
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

install_all() {
    say "Debian packages"
    apt-get install -y -qq --no-install-recommends python3-venv python3-lgpio python3-spidev \
        python3-smbus2 mosquitto mosquitto-clients openssl >/dev/null

    if ! getent passwd "$USER_NAME" >/dev/null; then
        useradd --system --user-group --home-dir /var/lib/mafia-table --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
        say "made the system user $USER_NAME"
    fi
    for group in gpio dialout audio; do
        if getent group "$group" >/dev/null; then usermod -a -G "$group" "$USER_NAME"; fi
    done

    local stamp
    stamp="$(code_stamp)"
    if [ "$(cat "$OPT/.installed" 2>/dev/null)" != "$stamp" ]; then
        say "installing the controller into $OPT/venv"
        install -d "$OPT"
        [ -x "$OPT/venv/bin/python" ] || python3 -m venv --system-site-packages "$OPT/venv"
        "$OPT/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
            --upgrade "$SRC"
        echo "$stamp" > "$OPT/.installed"
    fi

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
    make_secret "$ETC/broker.pass" "$TABLE"
    make_secret "$ETC/broker.pass" "$TABLE-events"  # the events' connection, the same password
    make_secret "$ETC/rules-core.pass" rules-core
    make_secret "$ETC/technician.pass" technician
    make_secret "$ETC/observer.pass" observer
    chown mosquitto: "$MOSQ/mafia.passwd"
    chmod 0600 "$MOSQ/mafia.passwd"

    # the web pages' CA and certificate: the CA only when there is none (the tablets trust it)
    install -d -m 0750 "$ETC/tls"
    "$OPT/venv/bin/mafia-table" tls --dir "$ETC/tls" "${WEB_NAMES[@]}" | sed 's/^tls: /install-pi: /'
    chown "root:$USER_NAME" "$ETC/tls" "$ETC/tls/server.key"
    chmod 0600 "$ETC/tls/ca.key"
    chmod 0640 "$ETC/tls/server.key"

    install -d -m 0750 "$VAR"
    chown "$USER_NAME:$USER_NAME" "$VAR"

    install_program "$SRC/examples/mafia-table.service" "$UNIT"
    install_program "$SRC/config/udev/70-mafia-table.rules" "$UDEV"

    "$OPT/venv/bin/mafia-table" check-config "$ETC/table.toml"

    udevadm control --reload
    udevadm trigger --subsystem-match=tty
    systemctl daemon-reload
    systemctl restart mosquitto
    systemctl enable mafia-table
    systemctl restart mafia-table
    say "done: systemctl status mafia-table; edit $ETC/table.toml (seats, pins, consoles:" \
        "$OPT/venv/bin/mafia-table consoles), then systemctl restart mafia-table"
}

uninstall_all() {
    systemctl disable --now mafia-table || true
    rm -f "$UNIT" "$UDEV"
    rm -rf "$OPT"
    systemctl daemon-reload
    udevadm control --reload
    if [ "$PURGE" -eq 1 ]; then
        rm -rf "$ETC" "$VAR"
        rm -f "$MOSQ/conf.d/mafia.conf" "$MOSQ/mafia.acl" "$MOSQ/mafia.passwd"
        userdel "$USER_NAME" || true
        systemctl restart mosquitto || true
        say "removed the controller, its config, its journal and its user"
    else
        say "removed the controller; kept $ETC, $VAR and the broker config" \
            "(--uninstall --purge removes them)"
    fi
}

if [ "$ACTION" = install ]; then install_all; else uninstall_all; fi
