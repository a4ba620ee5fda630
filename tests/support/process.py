"""The table service as a real process (``mafia-table run``), as systemd starts and stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys


def start_service(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``mafia-table run ARGS`` (its output, stderr too, on a pipe); ``env`` added to ours."""
    return subprocess.Popen([sys.executable, "-m", "mafia_table.cli", "run", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=None if env is None else {**os.environ, **env})


def stop_cleanly(process: subprocess.Popen[str]) -> str:
    """SIGTERM, as systemd stops it: the service must exit 0. Returns what it printed."""
    process.send_signal(signal.SIGTERM)
    code, out = finish(process)
    assert code == 0, out
    return out


def kill_if_running(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
        finish(process)


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Wait (15 s, then kill) for the process to exit: its exit code and what it printed."""
    try:
        out, _ = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    return process.returncode, out
