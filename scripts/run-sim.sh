#!/usr/bin/env bash
# Set up (when needed) and run the controller with simulated GPIO seats and a local broker.
# Extra arguments go to `mafia-table run`, e.g. --broker 127.0.0.1:1884 or -v.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/mafia-table run --config config/table.example.toml --sim "$@"
