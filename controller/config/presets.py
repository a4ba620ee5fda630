"""Rule presets: ``rules = "rules/fiim.toml"`` names a file whose options fill the table's.

A preset (``config/rules/*.toml``) names its rule book and gives ``[vote]``, ``[day]``,
``[night]`` and ``[standings]`` options. They are merged into the raw TOML before the type
check, key by key under the table's own keys (the table wins), so a preset's typo is reported
like the table's, with the preset's path.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import msgspec

from contract import validation
from kit.config import ConfigError


class Preset(msgspec.Struct, forbid_unknown_fields=True):
    """A rule preset file (``config/rules/*.toml``): which rule book, and its vote options."""

    name: str
    book: str
    vote: dict[str, Any] = msgspec.field(default_factory=dict)
    day: dict[str, Any] = msgspec.field(default_factory=dict)
    night: dict[str, Any] = msgspec.field(default_factory=dict)
    standings: dict[str, Any] = msgspec.field(default_factory=dict)


def merge_preset(raw: dict[str, Any], base: Path, source: str) -> None:
    """Fill ``[vote]``, ``[day]``, ``[night]`` and ``[standings]`` from the preset named by
    ``rules`` (the table's own keys win; in ``[standings]``, a standing the table names is
    taken whole from the table)."""
    name = raw.get("rules")
    if not isinstance(name, str):
        return  # absent (FIIM defaults) or not a string (reported by the type check)
    preset_path = base / name
    try:
        preset = msgspec.convert(tomllib.loads(preset_path.read_text(encoding="utf-8")), Preset)
    except FileNotFoundError:
        raise ConfigError(source, [f"rules: preset file not found: {preset_path}"]) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(source, [f"rules: cannot read preset {preset_path}: {exc}"]) from None
    except msgspec.ValidationError as exc:
        raise ConfigError(source, [f"rules: preset {preset_path}: "
                                   f"{validation.describe(str(exc))}"]) from None
    for section in ("vote", "day", "night", "standings"):
        own = raw.get(section, {})
        if isinstance(own, dict):
            raw[section] = {**getattr(preset, section), **own}
