"""The speaker: night music and short cues through pygame.mixer (SDL), or nothing.

Night music (``night(True)``) fades in and loops; ``night(False)`` fades it out. The cues are
the tones (``CUES``) and, in every voice the table speaks (``contract.commands.VOICES``), the
numbers and the words said aloud (``<voice>/number/<n>``, ``<voice>/<words>``: ``SPOKEN``,
made by ``scripts/make_voice.sh``); which voice to say them in is the core's, in each cue's
name, so a change of language is heard from the next cue on. Cues go out
as one sound per call (``play``): each part after its own stretch of silence, so the parts
sound exactly as far apart as asked, to the sample, whatever the machine is doing. The
music ducks under a cue (``duck``: down to ``duck`` of its volume) and comes back (``restore``);
when to play, duck and restore is the caller's (``controller.cue_schedule``).

Sound out is a small interface (``SoundOut``) with one registry of backends, ``SOUND_OUT``,
chosen by config (``backends.audio``): ``sdl`` (a ``Speaker`` on the system's sound device),
``disk`` (a ``Speaker`` on SDL's disk driver: real samples, at real-time pace, into a file; for
tests and benches) and ``off`` (``Silence``). No sound device, a missing or broken sound file:
a warning in ``health`` and the game goes on silent; a cue never stops the table.
"""

from __future__ import annotations

import array
import logging
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

import msgspec

from contract.api import NO_SOUND_DEVICE
from contract.commands import MAX_SEATS, VOICES, Voice
from kit.config import Section

log = logging.getLogger(__name__)

SOUNDS = Path(__file__).resolve().parent / "sounds"
CUES = ("tick", "window", "warning", "end")
#: the words said aloud besides the numbers, one file each per voice: sounds/words/<voice>/
SPOKEN = ("ten_seconds",)


class MusicConfig(Section):
    """The night music (``[music]``); paths are relative to the config file."""

    playlist: list[str] = msgspec.field(default_factory=list)  # empty: the built-in track
    shuffle: bool = False
    fade_in: Annotated[float, msgspec.Meta(ge=0, le=60)] = 4.0
    fade_out: Annotated[float, msgspec.Meta(ge=0, le=60)] = 4.0
    volume: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.6
    duck: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.3
    #: the language the table speaks (the numbers at night, the timer's words) until the
    #: judge's panel says its own (cmd/audio)
    voice: Voice = "ru"


@dataclass(frozen=True)
class Music:
    """The night playlist and how it plays, as the speaker takes it: ``[music]``
    (``MusicConfig``) with its playlist as paths (the built-in track when it names none)."""

    playlist: list[Path] = field(default_factory=lambda: [SOUNDS / "night.wav"])
    shuffle: bool = False
    fade_in: float = 4.0
    fade_out: float = 4.0
    volume: float = 0.6
    duck: float = 0.3


def no_sound_device(environ: Mapping[str, str] = os.environ,
                    cards: Path = Path("/proc/asound/cards")) -> str | None:
    """Why SDL cannot find a sound device here, known without asking it; None if it may.

    Asking costs nine ``ALSA lib ...`` lines on stderr on a machine without a sound card (a
    headless server, a Pi before its speaker is fitted), printed by alsa-lib from SDL's hotplug
    thread while SDL looks for a device. (A Python error handler for alsa-lib cannot silence
    them: SDL's thread would wait for the interpreter lock that ``mixer.init`` holds.) So: no
    ALSA card in the kernel, no PulseAudio or PipeWire socket, and no ``SDL_AUDIODRIVER``
    chosen by hand: no device.
    """
    if environ.get("SDL_AUDIODRIVER"):
        return None
    try:
        has_card = cards.is_file() and "no soundcards" not in cards.read_text()
    except OSError:
        has_card = False
    runtime = Path(environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}")
    servers = [runtime / "pulse" / "native", runtime / "pipewire-0"]
    if has_card or environ.get("PULSE_SERVER") or any(p.exists() for p in servers):
        return None
    return "no sound card (/proc/asound/cards) and no sound server"


class SoundOut(Protocol):
    """What the cue schedule, the effects and the virtual table ask of a sound backend."""

    def play(self, parts: list[tuple[str, float]]) -> tuple[Any, list[tuple[float, float]]]: ...

    def stop(self, playing: Any) -> None: ...

    def duck(self) -> None: ...

    def restore(self) -> None: ...

    def night(self, on: bool) -> None: ...

    def next_track(self) -> None: ...

    def set_volume(self, volume: float) -> None: ...

    def now_playing(self) -> str | None: ...

    def cues(self) -> set[str]: ...

    def health(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


class Silence:
    """``off``: no sound, and nothing wrong with that."""

    def __init__(self, *, music: Music | None = None, **_: Any):
        self.music = music or Music()

    def play(self, parts: list[tuple[str, float]]) -> tuple[Any, list[tuple[float, float]]]:
        return None, []

    def stop(self, playing: Any) -> None:
        pass

    def duck(self) -> None:
        pass

    def restore(self) -> None:
        pass

    def night(self, on: bool) -> None:
        pass

    def next_track(self) -> None:
        pass

    def set_volume(self, volume: float) -> None:
        pass

    def now_playing(self) -> str | None:
        return None

    def cues(self) -> set[str]:
        return set()

    def health(self) -> dict[str, Any]:
        return {"backend": "off", "ok": True, "problems": []}

    def close(self) -> None:
        pass


class Speaker:
    """Sound through pygame.mixer, on SDL's ``sdl`` (the sound device) or ``disk`` driver."""

    def __init__(self, backend: Literal["sdl", "disk"], *, sounds: Path = SOUNDS,
                 disk_file: Path | None = None, music: Music | None = None):
        self.backend = backend
        self.problems: list[str] = []
        self._cues: dict[str, Any] = {}
        self._samples: dict[str, array.array[int]] = {}  # _voiced, by cue name
        self._mixer: Any = None
        self.music = music or Music()
        self._tracks = list(self.music.playlist)
        if self.music.shuffle:
            random.shuffle(self._tracks)
        self._track = 0
        self._playing = False
        self._volume = self.music.volume
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        if backend == "disk":
            os.environ["SDL_AUDIODRIVER"] = "disk"
            os.environ["SDL_DISKAUDIOFILE"] = str(disk_file or "/dev/null")
        elif reason := no_sound_device():
            self._problem(f"{NO_SOUND_DEVICE} ({backend}): {reason}")
            return
        try:
            import pygame.mixer as mixer

            mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
        except Exception as exc:  # pygame.error, ImportError: no sound, but the game goes on
            # SDL could open no device (a driver chosen by hand that is not here...): as good
            # as none; pygame missing, or the disk driver failing, is something else
            opened = backend == "sdl" and not isinstance(exc, ImportError)
            self._problem(f"{NO_SOUND_DEVICE if opened else 'no audio'} ({backend}): {exc}")
            return
        self._mixer = mixer
        files = {name: sounds / f"{name}.wav" for name in CUES}
        for voice in VOICES:
            files |= {f"{voice}/number/{n}": sounds / "numbers" / voice / f"{n}.wav"
                      for n in range(1, MAX_SEATS + 1)}
            files |= {f"{voice}/{words}": sounds / "words" / voice / f"{words}.wav"
                      for words in SPOKEN}
        for name, path in files.items():
            try:
                self._cues[name] = mixer.Sound(str(path))
            except Exception as exc:
                self._problem(f"cue {name!r} unusable: {exc}")

    def _problem(self, text: str) -> None:
        log.warning("speaker: %s; playing on without it", text)
        self.problems.append(text)

    def play(self, parts: list[tuple[str, float]]) -> tuple[Any, list[tuple[float, float]]]:
        """Play the cues ``parts`` names, each ``after`` seconds from now, as one sound: the
        waits are silence in it, and a cue still sounding when the next one starts is cut
        there (as a judge counting fast stops a word for the next number). Returns what stops
        it (``stop``; None if nothing plays) and, for each part played, when it starts and how
        long it sounds (s from now). A cue without a sound is left out."""
        found = sorted(((after, name) for name, after in parts if name in self._cues),
                       key=lambda part: part[0])
        if not found:
            return None, []
        frequency, _, channels = self._mixer.get_init()  # 16-bit signed (``__init__``)
        starts = [round(after * frequency) * channels for after, _ in found]
        cuts = [*starts[1:], None]
        voiced = [self._voiced(name)[:None if cut is None else cut - start]
                  for (_, name), start, cut in zip(found, starts, cuts, strict=True)]
        mixed = array.array("h", bytes(2 * (starts[-1] + len(voiced[-1]))))
        for start, samples in zip(starts, voiced, strict=True):
            mixed[start:start + len(samples)] = samples
        channel = self._mixer.Sound(buffer=mixed.tobytes()).play()
        return channel, [(after, len(samples) / channels / frequency)
                         for (after, _), samples in zip(found, voiced, strict=True)]

    def _voiced(self, name: str) -> array.array[int]:
        """A cue's 16-bit samples without the silence at its end (nothing to play or duck
        for), read once."""
        if name not in self._samples:
            raw = self._cues[name].get_raw().rstrip(b"\0")
            self._samples[name] = array.array("h", raw + b"\0" * (len(raw) % 2))
        return self._samples[name]

    def stop(self, playing: Any) -> None:
        """Stop what ``play`` started (the cues of it not yet heard are not heard)."""
        if playing is not None and self._mixer is not None:
            playing.stop()

    def duck(self) -> None:
        """The music down under a cue."""
        if self._mixer is not None and self._playing:
            self._mixer.music.set_volume(self._volume * self.music.duck)

    def restore(self) -> None:
        """The music back at its volume, after the cues that ducked it."""
        if self._mixer is not None and self._playing:
            self._mixer.music.set_volume(self._volume)

    def night(self, on: bool) -> None:
        """Night music: fade in the current track (looping), or fade it out."""
        if self._mixer is None or on == self._playing:
            return
        if not on:
            self._mixer.music.fadeout(round(self.music.fade_out * 1000))
            self._playing = False
            return
        self._play(self._track)

    def _play(self, index: int) -> None:
        for attempt in range(len(self._tracks)):
            track = self._tracks[(index + attempt) % len(self._tracks)]
            try:
                self._mixer.music.load(str(track))
                self._mixer.music.set_volume(self._volume)
                self._mixer.music.play(loops=-1, fade_ms=round(self.music.fade_in * 1000))
            except Exception as exc:  # missing or corrupt: the next one, or silence
                self._problem(f"night track {track} unusable: {exc}")
                continue
            self._track = (index + attempt) % len(self._tracks)
            self._playing = True
            return

    def next_track(self) -> None:
        if self._mixer is not None and self._playing:
            self._play(self._track + 1)

    def set_volume(self, volume: float) -> None:
        self._volume = volume
        if self._mixer is not None and self._playing:
            self._mixer.music.set_volume(volume)

    def now_playing(self) -> str | None:
        """The night track playing (its file name), or None."""
        return self._tracks[self._track].name if self._playing else None

    def cues(self) -> set[str]:
        """The cues this speaker can play."""
        return set(self._cues)

    def health(self) -> dict[str, Any]:
        return {"backend": self.backend, "ok": not self.problems and self._mixer is not None,
                "problems": list(self.problems)}

    def close(self) -> None:
        if self._mixer is not None:
            self._mixer.quit()
            self._mixer = None


def _speaker(driver: Literal["sdl", "disk"]) -> Callable[..., SoundOut]:
    return lambda **options: Speaker(driver, **options)


#: ``backends.audio`` -> the factory of its ``SoundOut`` (keywords: ``disk_file``, ``music``)
SOUND_OUT: dict[str, Callable[..., SoundOut]] = {
    "sdl": _speaker("sdl"),
    "disk": _speaker("disk"),
    "off": Silence,
}
