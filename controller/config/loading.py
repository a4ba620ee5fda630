"""Reading a config file: parse, override, merge the preset, type-check, then check the rest.

``parse`` gives the typed config or the first shape error (types, ranges, unknown keys);
``load`` goes on to every check a type cannot do (``wiring``, the LED current ``budget``,
``credentials``) and refuses the file with all their problems at once, so the service never
starts half-configured. Paths in a loaded config are absolute.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec

from contract import validation
from controller.config.budget import budget
from controller.config.credentials import file_problems
from controller.config.overrides import Overrides, apply_overrides, check_flags
from controller.config.paths import sim_store_path
from controller.config.presets import merge_preset
from controller.config.schema import Config, table_id_problem
from controller.config.wiring import wiring_problems
from kit.config import ConfigError


def load(path: str | Path, overrides: Overrides | None = None) -> Config:
    """Read, override and check a config file. Raises ``ConfigError`` listing every problem."""
    path = Path(path)
    config = parse(path, overrides)
    problems = _check(config, path.parent)
    if problems:
        raise ConfigError(str(path), problems)
    return _resolve_paths(config, path.parent)


def parse(path: str | Path, overrides: Overrides | None = None) -> Config:
    """Read and override a config file and check its shape (types, ranges, keys), not how its
    parts fit together: for tools that show a config's mistakes, like ``pinout``. Paths in it
    stay relative to the file."""
    path = Path(path)
    source = str(path)
    overrides = overrides or Overrides()
    check_flags(overrides)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(source, ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(source, [f"cannot read the file: {exc}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, [f"not valid TOML: {exc}"]) from None
    apply_overrides(raw, overrides, source)
    merge_preset(raw, path.parent, source)
    try:
        config = msgspec.convert(raw, Config)
    except msgspec.ValidationError as exc:
        problem = validation.describe(str(exc))
        if problem.startswith("table: expected str matching regex"):
            problem = f"table: {table_id_problem(str(raw.get('table')))}"
        raise ConfigError(source, [problem]) from None
    if overrides.simulated:
        store = msgspec.structs.replace(
            config.store, path=str(sim_store_path(path, config.table)))
        config = msgspec.structs.replace(config, store=store)
    return config


def _check(config: Config, base: Path) -> list[str]:
    """Every problem a type cannot see, from every check (none stops the others)."""
    return wiring_problems(config) + budget(config).problems + file_problems(config, base)


def _resolve_paths(config: Config, base: Path) -> Config:
    """Make file paths absolute, relative to the config file's folder."""

    def resolved(name: str | None) -> str | None:
        return None if name is None else str((base / name).resolve())

    broker = config.broker
    tls = broker.tls
    if tls is not None:
        tls = msgspec.structs.replace(
            tls,
            ca_file=resolved(tls.ca_file),
            cert_file=resolved(tls.cert_file),
            key_file=resolved(tls.key_file),
        )
    broker = msgspec.structs.replace(
        broker, password_file=resolved(broker.password_file), tls=tls,
        events_password_file=resolved(broker.events_password_file))
    store = msgspec.structs.replace(config.store, path=resolved(config.store.path))
    music = msgspec.structs.replace(
        config.music, playlist=[str(resolved(track)) for track in config.music.playlist])
    return msgspec.structs.replace(config, broker=broker, store=store, music=music)
