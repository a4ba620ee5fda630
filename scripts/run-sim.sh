#!/usr/bin/env bash
# Set up (when needed) and run the controller with simulated seats and a local broker.
# Extra arguments go to `mafia-table sim`, e.g. --window (draw the table, press it with the
# mouse), --broker 127.0.0.1:1884 or -v.
# --judge (first argument) also starts the judge's panel against this table and prints its
# address and a fresh password (docs/judge.md): on 127.0.0.1:8080, plain HTTP for this machine's
# browser. JUDGE_LISTEN=0.0.0.0:8443 serves it to the network instead, over HTTPS with a local CA
# made in the state folder, and the page offering that CA to a tablet on port 8080
# (JUDGE_TRUST_LISTEN=HOST:PORT moves it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "${1:-}" = "--judge" ]; then
    shift
    dir="${XDG_STATE_HOME:-$HOME/.local/state}/mafia-table/judge-sim"
    mkdir -p "$dir"
    [ -s "$dir/judge.pass" ] || .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(9))' > "$dir/judge.pass"
    listen="${JUDGE_LISTEN:-127.0.0.1:8080}"
    host="${listen%:*}"
    tls=""
    case "$host" in
        127.*|localhost|"[::1]") ;;  # this machine only: plain HTTP
        *)  # other machines open it: HTTPS (kit.webserve refuses plain HTTP there)
            .venv/bin/mafia-table tls --dir "$dir/tls" | sed 's/^tls: /run-sim: /'
            tls="[panel.tls]
dir = \"tls\"
trust_listen = \"${JUDGE_TRUST_LISTEN:-$host:8080}\"" ;;
    esac
    cat > "$dir/judge.toml" <<TOML
table = "table-1"
[broker]
host = "127.0.0.1"
port = 1883
[panel]
listen = "$listen"
password_file = "judge.pass"
$tls
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
