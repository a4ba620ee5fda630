"""Run code under real MicroPython: its WebAssembly port (npm, installed by scripts/setup.sh into
tests/micropython/node_modules) under Node. One call starts one interpreter: batch what a test
module needs into one call."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support.paths import REPO

HERE = REPO / "tests" / "micropython"
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def available() -> str | None:
    """Why MicroPython cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed (scripts/setup.sh installs it)"
    if not (PACKAGE / "micropython.wasm").exists():
        return f"{PACKAGE} is missing (scripts/setup.sh installs it)"
    return None


def run(files: dict[str, Path], code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Copy ``files`` (MicroPython path -> host path) into MicroPython's filesystem and run
    ``code``; the result's ``stdout`` is what it printed."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as spec:
        json.dump({"files": {k: str(v) for k, v in files.items()}, "code": code}, spec)
    try:
        return subprocess.run(["node", str(HERE / "run.mjs"), spec.name], capture_output=True,
                              text=True, timeout=timeout, check=False)
    finally:
        Path(spec.name).unlink()
