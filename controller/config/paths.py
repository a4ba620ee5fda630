"""Where a table's journal lives when the config does not say (``store.path`` unset).

Kept apart from the schema because it reads the environment: systemd's ``StateDirectory=``,
else the XDG state home. A ``--sim`` run gets a journal of its own, so a simulation never
resumes a real table's game.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def state_home() -> Path:
    """``$STATE_DIRECTORY`` (systemd's ``StateDirectory=``), else ``$XDG_STATE_HOME/mafia-table``,
    by default ``~/.local/state/mafia-table``."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"])
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "mafia-table"


def sim_store_path(config_file: Path, table: str) -> Path:
    """The journal of a ``--sim`` run: ``<state home>/sim/<table>-<hash of the config file's
    absolute path>.db``, the state home as ``Config.store_path`` finds it. Never the config's
    own ``store.path`` (a real table's journal), and not shared by two checkouts on one
    machine: each clone's config file has its own."""
    digest = hashlib.sha256(str(config_file.resolve()).encode()).hexdigest()[:10]
    return state_home() / "sim" / f"{table}-{digest}.db"
