"""The tables the core's tests play on, and hypothesis's payloads for its commands."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from contract.buttons import Button, JudgeButton, SeatButton
from controller.core.state import TableSetup

#: the six-seat table "t1": seats 1 and 2 and the judge's confirm button wired, simulated
WIRED: frozenset[Button] = frozenset({SeatButton(1), SeatButton(2), JudgeButton("confirm")})
SETUP = TableSetup("t1", 6, WIRED, debounce=0.02, simulated=True)

#: a ten-seat table with every seat's button and the judge's three wired
TEN_SEATS_WIRED = frozenset({*(SeatButton(s) for s in range(1, 11)), JudgeButton("confirm"),
                             JudgeButton("reject"), JudgeButton("next")})

#: JSON documents near a command's shape: its field names, a light's modes, odd values
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.floats(allow_nan=False)
    | st.sampled_from(["on", "off", "dim", "blink", "#00ff00", "x", "", "id"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "lights", "seat", "mode", "color", "z"]), inner,
                      max_size=4),
    max_leaves=12,
)
#: any command payload: bytes, JSON of any shape, light commands good and bad
payloads = st.one_of(
    st.binary(max_size=64),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.builds(lambda ls: json.dumps({"id": "h", "lights": ls}).encode(),
              st.lists(st.fixed_dictionaries({"seat": st.integers(-1, 8),
                                              "mode": st.sampled_from(["on", "off", "x"])}),
                       max_size=3)),
)
