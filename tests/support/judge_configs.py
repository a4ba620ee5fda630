"""A judge's config file and its password file, written to a test's folder: ``write(folder,
GOOD)`` is a panel for table-1 on a free port with the password ``PASSWORD``."""

from __future__ import annotations

PASSWORD = "s3cret"


def write(tmp_path, body: str, password: str | None = PASSWORD):
    if password is not None:
        (tmp_path / "judge.pass").write_text(password + "\n")
    path = tmp_path / "judge.toml"
    path.write_text(body)
    return path


GOOD = """
table = "table-1"
[panel]
listen = "127.0.0.1:0"
password_file = "judge.pass"
language = "en"
[journal]
path = "state/judge.db"
[timings]
speech = 45
"""

