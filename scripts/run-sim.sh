#!/usr/bin/env bash
# Set up (when needed) and run the controller with simulated seats and a local broker.
# Extra arguments go to `mafia-table sim`, e.g. --window (draw the table, press it with the
# mouse), --broker 127.0.0.1:1884 or -v.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/mafia-table sim --config config/table.example.toml "$@"
