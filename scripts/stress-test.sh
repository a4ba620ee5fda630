#!/usr/bin/env bash
# Run tests N times in a row while two busy processes load both cores, as CI's shared machine
# may be: a test that passes only on an idle machine is flaky, and a flaky test is a defect.
# pytest runs as scripts/test.sh runs it, in pyproject.toml's parallel workers (-n 3), so the
# tests meet each other as well as the load; each run says how long it took and the load then.
#   scripts/stress-test.sh [N] [pytest args...]   (default: 20 runs of the whole suite)
#   scripts/stress-test.sh 20 tests/firmware_bridge/test_consoles.py \
#       tests/firmware_bridge/test_console_session.py -q
# Stops at the first failing run and says which one it was.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
shift || true
scripts/setup.sh

busy=()
stop_busy() { [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true; }
trap stop_busy EXIT
for _ in 1 2; do
    python3 -c 'while True: pass' &
    busy+=($!)
done

for run in $(seq 1 "$runs"); do
    echo "stress-test: run $run of $runs (load: ${#busy[@]} busy processes)" >&2
    started=$SECONDS
    if ! .venv/bin/python -m pytest -p no:cacheprovider "$@"; then
        echo "stress-test: run $run of $runs FAILED after $((SECONDS - started)) s" >&2
        exit 1
    fi
    echo "stress-test: run $run of $runs passed in $((SECONDS - started)) s" \
         "(load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done
echo "stress-test: $runs runs passed under load" >&2
