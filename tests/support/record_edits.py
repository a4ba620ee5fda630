"""The whole scripted game's record (``tests.support.record_game``) and hypothesis's edits of
it: a JSON pointer into it (one it has, or a made-up path) and a value (any JSON, or one of the
record's own), what a judge's correction names."""

from __future__ import annotations

import msgspec
from hypothesis import strategies as st

from judge.record import document as rec
from tests.support.record_game import whole_game

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=False) | st.text(
        max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                               max_size=3), max_leaves=8)


def pointers(node, at: str = "") -> list[str]:
    """Every JSON pointer into a record's document (its fields, their items, their leaves)."""
    inside = node.items() if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else ()
    found = [at] if at else []
    for key, child in inside:
        found += pointers(child, f"{at}/{key}")
    return found


_whole = rec.build(whole_game().inputs, "table-1")
assert _whole is not None
WHOLE = _whole
RECORD_POINTERS = pointers(msgspec.to_builtins(WHOLE))
paths = st.sampled_from(RECORD_POINTERS) | st.lists(st.sampled_from(
    ["players", "days", "0", "12", "name", "left", "", "~1", "votes"]), max_size=5).map(
    lambda keys: "/" + "/".join(keys))
values = json_values | st.sampled_from(RECORD_POINTERS).map(lambda p: rec.read(WHOLE, p))
