"""The rating platform's own files (github.com/szotin/mafiaratings), read from a snapshot: a
checkout, or a bare git directory (then from its ``HEAD``). Nothing of the platform is in this
repository; what runs its code (bench/seating_platform.py, tests/support/platform_scoring.py)
reads it from the snapshot it is given."""

from __future__ import annotations

import subprocess
from pathlib import Path


def read_source(snapshot: Path, name: str) -> bytes:
    """One of the platform's files from a checkout or a (bare) git directory."""
    if (snapshot / name).is_file():
        return (snapshot / name).read_bytes()
    return subprocess.run(["git", "--git-dir", str(snapshot), "show", f"HEAD:{name}"],
                          capture_output=True, check=True).stdout
