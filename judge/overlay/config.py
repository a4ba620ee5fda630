"""The overlay's section of the judge's config file, ``[overlay]`` (docs/overlay.md): read with
the rest of the file by ``judge.panel.config``, which checks it whole (the token file there and
one line, secrets only late and only with a token)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec

from kit.config import Section


class OverlayConfig(Section):
    """The spectator overlay: public by default; roles and night actions only when ``secrets``
    is on, then ``delay`` seconds late and only with the ``token_file``'s token."""

    secrets: bool = False
    delay: Annotated[float, msgspec.Meta(ge=0, le=3600)] = 0.0
    token_file: str | None = None
    club: Annotated[str, msgspec.Meta(max_length=80)] = ""
    mafiaratings_plugin: str | None = None

    @property
    def token(self) -> str | None:
        """The token the overlay's pages and endpoints need (None: open to anyone)."""
        if self.token_file is None:
            return None
        return Path(self.token_file).read_text(encoding="utf-8").strip()
