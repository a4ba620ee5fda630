#!/usr/bin/env bash
# Set up (when needed) and run the controller with simulated seats and a local broker.
# Extra arguments go to `mafia-table sim`, e.g. --window (draw the table, press it with the
# mouse), --broker 127.0.0.1:1884 or -v.
# --judge (first argument) also starts the judge's panel against this table and prints its
# address and a fresh password (docs/judge.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "${1:-}" = "--judge" ]; then
    shift
    dir="${XDG_STATE_HOME:-$HOME/.local/state}/mafia-table/judge-sim"
    mkdir -p "$dir"
    [ -s "$dir/judge.pass" ] || .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(9))' > "$dir/judge.pass"
    cat > "$dir/judge.toml" <<TOML
table = "table-1"
[broker]
host = "127.0.0.1"
port = 1883
[panel]
listen = "${JUDGE_LISTEN:-127.0.0.1:8080}"
password_file = "judge.pass"
[journal]
path = "judge.db"
TOML
    .venv/bin/mafia-table sim --config config/table.example.toml "$@" &
    table=$!
    trap 'kill "$table" 2>/dev/null; wait "$table" 2>/dev/null' EXIT
    echo "judge panel password: $(cat "$dir/judge.pass")  (in $dir/judge.pass)"
    .venv/bin/mafia-table judge --config "$dir/judge.toml"
    exit $?
fi
exec .venv/bin/mafia-table sim --config config/table.example.toml "$@"
