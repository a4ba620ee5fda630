#!/usr/bin/env bash
# A simulated tournament hall on this machine: N tables (default 4), each a `--sim` controller on
# its own mosquitto bridged (TLS, its own account) to one hall mosquitto, and the hall board.
# Prints where to look (the board's address and password, each table's broker); Ctrl-C stops all.
# Extra arguments go to `python -m hall.sim`, e.g. --board-port 8091.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m hall.sim "${1:-4}" "${@:2}"
