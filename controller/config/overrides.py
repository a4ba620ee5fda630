"""Command-line flags over the file: ``--table``, ``--broker``, ``--voice``, ``--sim`` and
another account.

The flags are checked alone first (``check_flags``), so their errors name the flag and not the
config file; then ``apply_overrides`` writes them into the raw TOML, before the type check, so an
overridden value is checked like one in the file. ``broker_from_flags`` and ``with_account``
build a broker section from flags alone (``mafia-table watch`` without a config).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from contract import validation
from controller.config.schema import table_id_problem
from kit.config import COMMAND_LINE, ConfigError
from kit.mqtt import BrokerConfig


class Overrides(msgspec.Struct, frozen=True, kw_only=True):
    """Command-line flags that win over the file."""

    table: str | None = None
    broker: str | None = None  # HOST:PORT
    voice: str | None = None  # [music] voice (checked as the file's is)
    simulated: bool = False
    # another broker account (tools: ``watch``, ``selftest``): the table's own password file
    # is then neither needed nor read
    username: str | None = None
    password_file: str | None = None  # as given on the command line (relative to the cwd)


def check_flags(overrides: Overrides) -> None:
    """The flags alone, before the file: their errors name the flag, not the config file."""
    problems = []
    if overrides.table is not None and (problem := table_id_problem(overrides.table)):
        problems.append(f"--table: {problem}")
    if overrides.broker is not None:
        try:
            _host_port(overrides.broker)
        except ConfigError as exc:
            problems += exc.problems
    if overrides.password_file is not None and overrides.username is None:
        problems.append("--password-file: give --username too")
    if problems:
        raise ConfigError(COMMAND_LINE, problems)


def apply_overrides(raw: dict[str, Any], overrides: Overrides, source: str) -> None:
    if overrides.table is not None:
        raw["table"] = overrides.table
    if overrides.broker is not None:
        broker = raw.setdefault("broker", {})
        if not isinstance(broker, dict):
            raise ConfigError(source, ["broker: expected a table"])
        broker["host"], broker["port"] = _host_port(overrides.broker)
    if overrides.username is not None:
        broker = raw.setdefault("broker", {})
        if not isinstance(broker, dict):
            raise ConfigError(source, ["broker: expected a table"])
        broker["username"] = overrides.username
        broker.pop("password_file", None)
        if overrides.password_file is not None:  # absolute: it is not relative to the config
            broker["password_file"] = str(Path(overrides.password_file).resolve())
    if overrides.voice is not None:
        music = raw.setdefault("music", {})
        if not isinstance(music, dict):
            raise ConfigError(source, ["music: expected a table"])
        music["voice"] = overrides.voice
    if overrides.simulated:
        backends = raw.setdefault("backends", {})
        if isinstance(backends, dict):
            backends.update(gpio="mock", consoles="emulated", spi="mock", i2c="mock")


def _host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()):
        raise ConfigError(COMMAND_LINE, [f"--broker: expected HOST:PORT, got {text!r}"])
    return host, int(port)


def broker_from_flags(address: str) -> BrokerConfig:
    """A ``[broker]`` section from a ``--broker HOST:PORT`` flag alone."""
    host, port = _host_port(address)
    try:
        return msgspec.convert({"host": host, "port": port}, BrokerConfig)
    except msgspec.ValidationError as exc:
        raise ConfigError(COMMAND_LINE, [f"--broker: {validation.describe(str(exc))}"]) from None


def with_account(broker: BrokerConfig, username: str | None,
                 password_file: str | None) -> BrokerConfig:
    """``broker`` logging in as ``username`` (flags of ``watch``); the password file must exist."""
    if password_file is not None and username is None:
        raise ConfigError(COMMAND_LINE, ["--password-file: give --username too"])
    if username is None:
        return broker
    if password_file is not None and not Path(password_file).is_file():
        raise ConfigError(COMMAND_LINE, [f"--password-file: file not found: {password_file}"])
    return msgspec.structs.replace(broker, username=username, password_file=password_file)
