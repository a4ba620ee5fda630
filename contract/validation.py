"""One wording for validation errors, shared by command replies and config reports."""

import re


def describe(message: str) -> str:
    """Turn msgspec's ``Expected `int`, got `str` - at `$.lights[0].seat``` into
    ``lights[0].seat: expected int, got str`` (key path first, as people read it); a bad key of
    a table (``- at `key` in `$.night.surplus```) reads ``night.surplus: a key: expected ...``."""
    text, _, where = message.partition(" - at `")
    text = re.sub(r"field `([^`]*)`", r"field '\1'", text).replace("`", "")
    text = text[:1].lower() + text[1:]
    key, _, table = where.partition("key` in `")
    if table and not key:
        where, text = table, f"a key: {text}"
    path = where.rstrip("`").removeprefix("$").removeprefix(".")
    return f"{path}: {text}" if path else text
