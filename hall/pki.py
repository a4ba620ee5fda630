"""A hall's accounts and certificates, made with the Debian tools ``mosquitto_passwd`` and
``openssl``, as config/mosquitto/README.md does them by hand.

For simulated halls, tests and benchmarks: the keys are unencrypted and short-lived.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path

EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_certificates(folder: Path, clients: Iterable[str], *, days: int = 2) -> None:
    """In ``folder``: a hall CA (``ca.crt``), the broker's certificate for 127.0.0.1
    (``broker.crt``/``.key``) and one client certificate per name (``<name>.crt``/``.key``)."""
    folder.mkdir(parents=True, exist_ok=True)
    openssl("req", "-x509", *EC_KEY, "-keyout", "ca.key", "-out", "ca.crt", "-days", str(days),
            "-subj", "/CN=hall-ca", cwd=folder)
    wanted = [("broker", "127.0.0.1", "subjectAltName=IP:127.0.0.1")]
    wanted += [(name, name, "extendedKeyUsage=clientAuth") for name in clients]
    for name, cn, extension in wanted:
        openssl("req", *EC_KEY, "-keyout", f"{name}.key", "-out", f"{name}.csr",
                "-subj", f"/CN={cn}", cwd=folder)
        (folder / f"{name}.ext").write_text(extension + "\n")
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", f"{name}.crt", "-days", str(days),
                "-extfile", f"{name}.ext", cwd=folder)


def make_password_file(path: Path, accounts: dict[str, str]) -> None:
    """A mosquitto password file holding ``accounts`` (name -> password), readable by us only."""
    path.unlink(missing_ok=True)
    path.touch(mode=0o600)
    for name, password in accounts.items():
        subprocess.run(["mosquitto_passwd", "-b", str(path), name, password], check=True,
                       capture_output=True)
