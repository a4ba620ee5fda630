"""The speaker: short cues through pygame.mixer (SDL), or nothing.

Backends, chosen by config (``[audio] backend``): ``sdl`` (the system's sound device), ``disk``
(SDL's disk driver: real samples, at real-time pace, into a file; for tests and benches) and
``off``. No sound device, a missing or broken sound file: a warning in ``health`` and the game
goes on silent; a cue never stops the table.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SOUNDS = Path(__file__).resolve().parent / "sounds"
CUES = ("window", "warning", "end")


class Speaker:
    def __init__(self, backend: str, *, sounds: Path = SOUNDS, disk_file: Path | None = None):
        self.backend = backend
        self.problems: list[str] = []
        self._cues: dict[str, Any] = {}
        self._mixer: Any = None
        if backend == "off":
            return
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        if backend == "disk":
            os.environ["SDL_AUDIODRIVER"] = "disk"
            os.environ["SDL_DISKAUDIOFILE"] = str(disk_file or "/dev/null")
        try:
            import pygame.mixer as mixer

            mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
        except Exception as exc:  # pygame.error, ImportError: no sound, but the game goes on
            self._problem(f"no audio ({backend}): {exc}")
            return
        self._mixer = mixer
        for name in CUES:
            try:
                self._cues[name] = mixer.Sound(str(sounds / f"{name}.wav"))
            except Exception as exc:
                self._problem(f"cue {name!r} unusable: {exc}")

    def _problem(self, text: str) -> None:
        log.warning("speaker: %s; playing on without it", text)
        self.problems.append(text)

    def cue(self, name: str) -> None:
        """Play a cue now (it mixes over whatever plays)."""
        sound = self._cues.get(name)
        if sound is not None:
            sound.play()

    def health(self) -> dict[str, Any]:
        return {"backend": self.backend, "ok": not self.problems and (
            self.backend == "off" or self._mixer is not None), "problems": list(self.problems)}

    def close(self) -> None:
        if self._mixer is not None:
            self._mixer.quit()
            self._mixer = None
