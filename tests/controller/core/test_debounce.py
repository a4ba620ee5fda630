"""The button debounce: leading edge with a lockout, chatter absorbed, nothing stuck."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from contract.buttons import SeatButton
from contract.inputs import ButtonEdge
from controller.core.effects import Emit
from controller.core.state import TableSetup, initial_state
from tests.support.core_driver import Timeline

HOLD = 0.02
SEAT = SeatButton(1)


def table() -> Timeline:
    return Timeline(initial_state(TableSetup("t", 4, frozenset({SEAT}), debounce=HOLD)))


def edges(*pairs: tuple[float, bool]) -> list[ButtonEdge]:
    return [ButtonEdge(SEAT, pressed, t) for t, pressed in pairs]


def presses(effects) -> list[tuple[str, float]]:
    return [(e.kind, e.t) for e in effects if isinstance(e, Emit)]


def test_a_clean_press_and_release_are_reported_at_their_edge_times():
    tl = table()
    tl.feed(edges((1.000, True), (1.250, False)))
    tl.run_until(10)
    assert presses(tl.effects) == [("seat/press", 1.000), ("seat/release", 1.250)]


def test_chatter_after_a_press_is_absorbed():
    tl = table()
    tl.feed(edges((1.000, True), (1.002, False), (1.004, True), (1.007, False), (1.009, True)))
    tl.run_until(10)
    assert presses(tl.effects) == [("seat/press", 1.000)]


def test_a_tap_shorter_than_the_lockout_is_released_when_the_lockout_ends():
    tl = table()
    tl.feed(edges((1.000, True), (1.005, False)))
    assert presses(tl.effects) == [("seat/press", 1.000)]
    tl.run_until(1.000 + HOLD)
    assert presses(tl.effects) == [("seat/press", 1.000), ("seat/release", 1.005)]


def test_an_edge_exactly_one_lockout_later_is_accepted_at_once():
    tl = table()
    out = tl.feed(edges((1.0, True), (1.0 + HOLD, False)))
    assert presses(out) == [("seat/press", 1.0), ("seat/release", 1.0 + HOLD)]


# Timelines of raw edges: strictly increasing times, biased toward gaps near the lockout.
gaps = st.one_of(
    st.floats(min_value=0.0001, max_value=0.005),
    st.sampled_from([HOLD - 0.0001, HOLD, HOLD + 0.0001]),
    st.floats(min_value=0.0001, max_value=0.5),
)


@st.composite
def raw_timelines(draw) -> list[tuple[float, bool]]:
    levels = draw(st.lists(st.booleans(), min_size=1, max_size=40))
    t = 100.0
    out = []
    for level in levels:
        t += draw(gaps)
        out.append((round(t, 6), level))
    return out


@given(raw_timelines())
def test_debounced_levels_alternate_and_catch_up_with_the_wire(raw):
    tl = table()
    tl.feed(edges(*raw))
    tl.run_until(raw[-1][0] + HOLD + 1)
    events = presses(tl.effects)
    kinds = [kind for kind, _ in events]
    # alternate, starting with a press (the button starts released)
    assert kinds == ["seat/press", "seat/release"] * (len(kinds) // 2) + ["seat/press"] * (
        len(kinds) % 2
    )
    # every event is stamped with the time of a real edge, in order
    times = [t for _, t in events]
    assert times == sorted(times)
    assert set(times) <= {t for t, _ in raw}
    # after the wire is quiet, the accepted level is the wire's level
    assert (len(kinds) % 2 == 1) == raw[-1][1]


@given(raw_timelines())
def test_an_edge_a_full_lockout_after_the_last_accepted_one_is_never_delayed(raw):
    tl = table()
    last_accepted_t, level = float("-inf"), False
    for t, pressed in raw:
        for kind, at in presses(tl.run_until(t)):  # settles due before this edge
            last_accepted_t, level = at, kind == "seat/press"
        out = presses(tl.feed(edges((t, pressed))))
        if pressed != level and t - last_accepted_t >= HOLD:
            assert out == [("seat/press" if pressed else "seat/release", t)]
        for kind, at in out:
            last_accepted_t, level = at, kind == "seat/press"
