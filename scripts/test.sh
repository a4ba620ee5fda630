#!/usr/bin/env bash
# Set up (when needed) and run the whole test suite: lint, the type checker (pyproject.toml's
# [tool.mypy]: the core and the journal strictly), then pytest against real parts (a real
# mosquitto, gpiozero's MockFactory), in parallel workers (pyproject.toml's addopts: -n 3),
# ending with the 25 slowest tests (--durations) so CI's output shows where the time goes.
# Extra arguments go to pytest (-n 0: in one process).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest --durations=25 "$@"
