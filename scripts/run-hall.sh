#!/usr/bin/env bash
# A simulated tournament hall on this machine: N tables (default 4), each a `--sim` controller on
# its own mosquitto bridged (TLS, its own account) to one hall mosquitto, and the hall board.
# Prints where to look (the board's address and password, each table's broker); Ctrl-C stops all.
# Extra arguments go to `python -m hall.sim`, e.g. --board-port 8091 (with --tournament, to
# `python -m hall.sim_tournament`).
# A whole tournament by itself (docs/tournament.md): scripts/run-hall.sh 3 --tournament
#   (30 players, 3 rounds, a scripted judge at every table; --final 1 adds a final, --once stops
#   when it is over).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
module=hall.sim
args=()
for arg in "$@"; do
  if [ "$arg" = --tournament ]; then module=hall.sim_tournament; else args+=("$arg"); fi
done
exec .venv/bin/python -m "$module" "${args[0]:-4}" "${args[@]:1}"
