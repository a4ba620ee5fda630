#!/usr/bin/env bash
# Set up this checkout on a Debian machine: the Debian packages the controller and its tests use
# (mosquitto, python3-venv, openssl, nodejs and npm, chromium, libnss3-tools, systemd,
# libreoffice-calc-nogui) when missing, a virtualenv in .venv with the
# project installed, and MicroPython's WebAssembly port from npm into
# tests/micropython/node_modules (the console firmware's tests run under it).
# Safe to run again; it only does what is missing: pip runs only when pyproject.toml changed since
# the last install here (.venv/.installed holds its hash), so a start with nothing new is quick.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v python3 >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        python3 python3-venv >/dev/null
fi
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "setup: Python 3.11 or newer is needed (found $(python3 --version 2>&1))" >&2; exit 1; }

missing=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
command -v mosquitto_sub >/dev/null 2>&1 || missing+=(mosquitto-clients)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)  # the TLS tests make certificates
# certutil: the HTTPS tests make Chromium trust their CA as a tablet does (an NSS database)
command -v certutil >/dev/null 2>&1 || missing+=(libnss3-tools)
command -v node >/dev/null 2>&1 || missing+=(nodejs)  # MicroPython's WebAssembly port runs on it
# systemd-analyze verifies the unit the Pi install puts in place (tests/scripts/test_install_pi.py)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# the judge's panel and the hall board are tested in Debian's headless Chromium (driven by
# pip's playwright, which
# never downloads a browser of its own here)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# the organiser's spreadsheet is read back by LibreOffice as a double-click would open it
# (tests/results/test_spreadsheet.py)
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc-nogui)
[ -x .venv/bin/python ] || python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing Debian packages: ${missing[*]}" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
stamp=.venv/.installed
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ] || [ ! -x .venv/bin/mafia-table ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
    echo "$wanted" > "$stamp"
fi

# MicroPython for the firmware tests, at the version tests/micropython/package-lock.json pins
[ -f tests/micropython/node_modules/@micropython/micropython-webassembly-pyscript/micropython.wasm ] \
    || npm ci --prefix tests/micropython --no-audit --no-fund --loglevel=error
