"""The broker's credentials and the other files a config names, read at check time.

A password file (the events' account's too), a TLS CA, a client certificate and its key, the
music tracks: each must exist
(relative to the config file's folder), and the secrets must load (a non-empty password, a CA
and a certificate/key pair that ``ssl`` accepts). Reading them now means a bad one stops
``check-config``, not a table in the middle of a tournament.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from controller.config.schema import Config
from kit.mqtt import BrokerConfig


def file_problems(config: Config, base: Path) -> list[str]:
    problems: list[str] = []
    broker = config.broker
    if broker.password_file is not None and broker.username is None:
        problems.append("broker.password_file: set broker.username too")
    if broker.events_username is not None and broker.username is None:
        problems.append("broker.events_username: set broker.username too (on a broker "
                        "without accounts the events' connection needs none)")
    if broker.events_password_file is not None and broker.events_username is None:
        problems.append("broker.events_password_file: set broker.events_username too")
    files = {"broker.password_file": broker.password_file,
             "broker.events_password_file": broker.events_password_file}
    if broker.tls is not None:
        files |= {
            "broker.tls.ca_file": broker.tls.ca_file,
            "broker.tls.cert_file": broker.tls.cert_file,
            "broker.tls.key_file": broker.tls.key_file,
        }
        if (broker.tls.cert_file is None) != (broker.tls.key_file is None):
            problems.append("broker.tls: give cert_file and key_file together")
    missing = False
    for i, track in enumerate(config.music.playlist):
        files[f"music.playlist[{i}]"] = track
    for key, name in files.items():
        if name is not None and not (base / name).is_file():
            problems.append(f"{key}: file not found: {base / name}")
            missing = True
    if not missing:
        problems += secret_problems(broker, base)
    return problems


def secret_problems(broker: BrokerConfig, base: Path) -> list[str]:
    """Read the password and TLS files now, so a bad one stops ``check-config``, not ``run``."""
    problems = []
    for key, name in (("password_file", broker.password_file),
                      ("events_password_file", broker.events_password_file)):
        if name is None:
            continue
        try:
            if not (base / name).read_text(encoding="utf-8").strip():
                problems.append(f"broker.{key}: the file is empty")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"broker.{key}: cannot read it as text: {exc}")
    if broker.tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        try:
            context.load_verify_locations(cafile=base / broker.tls.ca_file)
        except (OSError, ssl.SSLError) as exc:
            problems.append(f"broker.tls.ca_file: not a usable CA certificate: {exc}")
        if broker.tls.cert_file is not None and broker.tls.key_file is not None:
            try:
                context.load_cert_chain(base / broker.tls.cert_file, base / broker.tls.key_file)
            except (OSError, ssl.SSLError) as exc:
                problems.append(f"broker.tls.cert_file: certificate and key_file do not load "
                                f"as a pair: {exc}")
    return problems
