"""A hall's accounts and certificates, made with the Debian tools ``mosquitto_passwd`` and
``openssl`` (through ``kit.pki``), as config/mosquitto/README.md does them by hand.

For simulated halls, tests and benchmarks: the keys are unencrypted and short-lived.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path

from kit.pki import CA_CERT, CA_KEY, EC_KEY, issue, openssl


def make_certificates(folder: Path, clients: Iterable[str], *, days: int = 2) -> None:
    """In ``folder``: a hall CA (``ca.crt``), the broker's certificate for 127.0.0.1
    (``broker.crt``/``.key``) and one client certificate per name (``<name>.crt``/``.key``)."""
    folder.mkdir(parents=True, exist_ok=True)
    openssl("req", "-x509", *EC_KEY, "-keyout", CA_KEY, "-out", CA_CERT, "-days", str(days),
            "-subj", "/CN=hall-ca", cwd=folder)
    issue(folder, "broker", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1", days=days)
    for name in clients:
        issue(folder, name, f"/CN={name}", "extendedKeyUsage=clientAuth", days=days)


def make_password_file(path: Path, accounts: dict[str, str]) -> None:
    """A mosquitto password file holding ``accounts`` (name -> password), readable by us only."""
    path.unlink(missing_ok=True)
    path.touch(mode=0o600)
    for name, password in accounts.items():
        subprocess.run(["mosquitto_passwd", "-b", str(path), name, password], check=True,
                       capture_output=True)
