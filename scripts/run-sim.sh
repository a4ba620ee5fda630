#!/usr/bin/env bash
# Set up (when needed) and run the controller with simulated seats and a local broker, and the
# judge's panel against it: prints the panel's address and a password (docs/judge.md).
# Extra arguments go to `mafia-table sim`, e.g. --window (draw the table, press it with the
# mouse) or -v.
# --table-only (first argument): the simulated table alone, no panel (and so with --screenshot).
# (--judge, which the panel once needed, is still taken.)
# MAFIA_LANGUAGE=ru|en: the panel's language until the judge switches it, and the table's voice
# (the panel tells the table; docs/i18n.md, "The table's voice"; a table alone is started in
# it, `sim --voice`) (default ru).
# MAFIA_BROKER=HOST:PORT: the broker of both (default 127.0.0.1:1883; a private mosquitto is
# started there when nothing listens).
# The panel is on 127.0.0.1:8080, plain HTTP for this machine's browser. JUDGE_LISTEN=0.0.0.0:8443
# serves it to the network instead, over HTTPS with a local CA made in the state folder, and the
# page offering that CA to a tablet on port 8080 (JUDGE_TRUST_LISTEN=HOST:PORT moves it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
language="${MAFIA_LANGUAGE:-ru}"
case "$language" in
    ru|en) ;;
    *) echo "run-sim: MAFIA_LANGUAGE=$language: ru or en expected" >&2; exit 2 ;;
esac
if [ "${1:-}" = "--table-only" ]; then
    shift
    exec .venv/bin/mafia-table sim --config config/table.example.toml --voice "$language" "$@"
fi
case " $* " in  # a screenshot of the table is taken and done: no panel to leave running
    *" --screenshot "*|*" --screenshot="*) exec .venv/bin/mafia-table sim --config config/table.example.toml --voice "$language" "$@" ;;
esac
[ "${1:-}" = "--judge" ] && shift
broker="${MAFIA_BROKER:-127.0.0.1:1883}"
if ! [[ "$broker" =~ ^[^:]+:[0-9]+$ ]]; then
    echo "run-sim: MAFIA_BROKER=$broker: HOST:PORT expected" >&2; exit 2
fi
# one state folder per checkout: two clones run side by side keep their own games and password
checkout="$(pwd -P)"
dir="${XDG_STATE_HOME:-$HOME/.local/state}/mafia-table/judge-sim/$(basename "$checkout")-$(printf %s "$checkout" | sha1sum | cut -c1-8)"
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
host = "${broker%:*}"
port = ${broker##*:}
[panel]
listen = "$listen"
password_file = "judge.pass"
language = "$language"
$tls
[journal]
path = "judge.db"
TOML
.venv/bin/mafia-table sim --config config/table.example.toml --broker "$broker" "$@" &
table=$!
trap 'kill "$table" 2>/dev/null; wait "$table" 2>/dev/null' EXIT
scheme=http; [ -n "$tls" ] && scheme=https
echo "judge panel: $scheme://$listen/  password: $(cat "$dir/judge.pass")  (in $dir/judge.pass)"
.venv/bin/mafia-table judge --config "$dir/judge.toml"
exit $?
