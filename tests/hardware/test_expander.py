"""MCP23017 buttons: the register encoding against the datasheet (DS20001952, revisions C and
D), the fake chip's interrupt logic, and presses that keep the time of the INT line's edge
(gpiozero MockFactory)."""

from __future__ import annotations

import itertools
import queue
import sys
import types

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from contract.buttons import JudgeButton, SeatButton
from contract.inputs import ButtonEdge
from hardware import mcp23017
from hardware.expander import (
    ExpanderButtons,
    ExpanderChip,
    ExpanderConfig,
    ExpanderJudge,
    FakeExpanderBus,
    open_bus,
)

INT_PIN = 17
CONFIG = ExpanderConfig(interrupt=INT_PIN, chip=[
    ExpanderChip(address=0x20, seats=list(range(1, 15))),
    ExpanderChip(address=0x21, seats=list(range(15, 25)), judge=ExpanderJudge(confirm=11)),
])


def test_register_addresses_are_table_3_1_with_bank_0():
    port_a = [mcp23017.IODIRA, mcp23017.IPOLA, mcp23017.GPINTENA, mcp23017.DEFVALA,
              mcp23017.INTCONA, mcp23017.IOCON, mcp23017.GPPUA, mcp23017.INTFA,
              mcp23017.INTCAPA, mcp23017.GPIOA, mcp23017.OLATA]
    assert port_a == list(range(0x00, 0x16, 2))
    assert mcp23017.IOCON_MIRROR == 0x40 and mcp23017.IOCON_ODR == 0x04  # IOCON bits 6 and 2


def test_setup_makes_used_inputs_pulled_up_interrupting_buttons_and_int_open_drain():
    writes = dict(mcp23017.setup_writes(0b0100_0001_0100_0001)[1:])  # GPA0, GPA6, GPB0, GPB6
    assert writes[mcp23017.IOCON] == 0x44  # MIRROR | ODR, BANK = 0 stays the layout we use
    # first the layout: BANK = 0 whatever the chip was left in, then IOCON proper
    assert mcp23017.setup_writes(1)[:2] == [(0x05, 0x00), (0x0A, 0x44)]
    # GPA7 and GPB7 output only (revision D): outputs, their latch low before the direction
    order = [register for register, _ in mcp23017.setup_writes(1)]
    assert order.index(mcp23017.OLATA) < order.index(mcp23017.IODIRA)
    assert (writes[mcp23017.OLATA], writes[mcp23017.OLATB]) == (0x00, 0x00)
    assert (writes[mcp23017.IODIRA], writes[mcp23017.IODIRB]) == (0x7F, 0x7F)
    assert (writes[mcp23017.GPPUA], writes[mcp23017.GPPUB]) == (0x41, 0x41)
    assert (writes[mcp23017.GPINTENA], writes[mcp23017.GPINTENB]) == (0x41, 0x41)
    assert (writes[mcp23017.INTCONA], writes[mcp23017.INTCONB]) == (0, 0)  # vs previous state
    assert (writes[mcp23017.IPOLA], writes[mcp23017.IPOLB]) == (0, 0)


@pytest.mark.parametrize("output_only", [7, 15])
def test_no_button_goes_on_gpa7_or_gpb7(output_only):
    assert output_only not in mcp23017.BUTTON_INPUTS and len(mcp23017.BUTTON_INPUTS) == 14
    with pytest.raises(ValueError, match="output only"):
        mcp23017.setup_writes(1 << output_only)


def test_input_names_and_package_pins_follow_the_pin_diagram():
    assert [mcp23017.input_name(i) for i in (0, 7, 8, 15)] == ["GPA0", "GPA7", "GPB0", "GPB7"]
    assert [mcp23017.PACKAGE_PIN[i] for i in (0, 7, 8, 15)] == [21, 28, 1, 8]


ALL_BUTTONS = sum(1 << i for i in mcp23017.BUTTON_INPUTS)


def _configured_chip(mask: int = ALL_BUTTONS) -> mcp23017.FakeMcp23017:
    chip = mcp23017.FakeMcp23017()
    for register, value in mcp23017.setup_writes(mask):
        chip.write(register, value)
    return chip


def test_the_first_change_is_captured_and_later_ones_wait_for_the_clear():
    """3.6.4: INTCAP keeps the port as it was at the first change until INTCAP or GPIO is
    read; 3.6.5: the reference is then the state at the clear, so a change made while INT was
    held raises no interrupt of its own and shows only in GPIO."""
    chip = _configured_chip()
    chip.set_level(3, False)
    assert chip.interrupting
    chip.set_level(5, False)  # while held
    intf, _, intcap, _, gpio, _ = chip.read(*mcp23017.INTERRUPT_READ)
    # (GPA7 is an output held low: bit 7 reads 0)
    assert (intf, intcap, gpio) == (1 << 3, 0x7F & ~(1 << 3), 0x7F & ~(1 << 3) & ~(1 << 5))
    assert not chip.interrupting  # the read cleared it
    chip.set_level(9, True)  # already high: no change, no interrupt
    assert not chip.interrupting


def test_gpa7_and_gpb7_read_as_the_low_outputs_they_are_made():
    chip = _configured_chip()
    chip.set_level(7, False)
    chip.set_level(15, True)  # a hand on an output pin changes nothing the chip reports
    assert not chip.interrupting
    assert chip.read(mcp23017.GPIOA, 2) == bytes([0x7F, 0x7F])


def test_an_input_without_interrupt_on_change_raises_none():
    chip = _configured_chip(mask=0x0001)
    chip.set_level(1, False)
    assert not chip.interrupting


def test_decode_times_captured_changes_at_the_edge_and_later_ones_at_the_read():
    changes, levels = mcp23017.decode(bytes([0x08, 0, 0xF7, 0xFF, 0xD7, 0xFF]), 0xFFFF)
    assert changes == [mcp23017.Change(3, False, True), mcp23017.Change(5, False, False)]
    assert levels == 0xFFD7


def test_decode_refuses_a_short_read():
    with pytest.raises(ValueError):
        mcp23017.decode(b"\x00\x00", 0xFFFF)


@given(steps=st.lists(st.one_of(
    st.tuples(st.just("set"), st.sampled_from(mcp23017.BUTTON_INPUTS), st.booleans()),
    st.tuples(st.just("read"), st.just(0), st.just(False))), max_size=60))
def test_reads_in_any_order_report_every_level_and_nothing_twice(steps):
    """Whatever the hands do between reads, the decoded changes walk the known levels to the
    chip's real levels, each change a real flip (never a repeat of the known level)."""
    chip = _configured_chip()
    known = ALL_BUTTONS
    for action, index, level in [*steps, ("read", 0, False)]:
        if action == "set":
            chip.set_level(index, level)
            continue
        changes, levels = mcp23017.decode(chip.read(*mcp23017.INTERRUPT_READ), known)
        for change in changes:
            assert bool(known >> change.index & 1) != change.level
            known ^= 1 << change.index
        assert known == levels == chip.levels & ALL_BUTTONS  # GPA7, GPB7: outputs, low


class Clock:
    """Host monotonic seconds that jump 1 s at every reading, so an edge's time (taken from
    its ticks) and a read's time can never be mistaken for each other."""

    def __init__(self) -> None:
        self._counter = itertools.count(1000)

    def __call__(self) -> float:
        return float(next(self._counter))


@pytest.fixture
def table():
    factory = MockFactory()
    bus = FakeExpanderBus([0x20, 0x21], factory.pin(INT_PIN))
    edges: queue.SimpleQueue[ButtonEdge] = queue.SimpleQueue()
    clock = Clock()
    buttons = ExpanderButtons(CONFIG, bus, factory=factory, now=clock, submit=edges.put)
    yield buttons, bus, edges, factory
    buttons.close()
    factory.reset()
    factory.close()


def test_a_press_is_timed_at_the_int_edge_not_at_the_read(table):
    buttons, _, edges, factory = table
    buttons.drive(SeatButton(3), True)
    edge = edges.get(timeout=1)
    assert (edge.button, edge.pressed) == (SeatButton(3), True)
    # EdgeButton: t = now() - age of the INT pin's edge ticks; the read's now() is a later
    # jump of the clock, so only the edge's time has this fraction of a second below it
    assert edge.t % 1 != 0
    assert factory.pin(INT_PIN).state == 1  # the read released INT
    buttons.drive(SeatButton(3), False)
    assert edges.get(timeout=1).pressed is False


def test_the_second_chip_and_its_judge_button_share_the_int_line(table):
    buttons, _, edges, _ = table
    buttons.drive(SeatButton(20), True)
    assert edges.get(timeout=1).button == SeatButton(20)
    buttons.drive(JudgeButton("confirm"), True)
    assert edges.get(timeout=1).button == JudgeButton("confirm")
    assert edges.empty()


def test_a_change_during_the_read_latency_gets_the_reads_time(table):
    buttons, bus, edges, _ = table
    read = bus.read_i2c_block_data
    late = [(0x20, 6)]

    def slow_bus(address, register, length):  # seat 7 (GPA6) lands while INT is held
        if late:
            bus.set_level(*late.pop(), False)
        return read(address, register, length)

    bus.read_i2c_block_data = slow_bus
    buttons.drive(SeatButton(1), True)
    first, second = edges.get(timeout=1), edges.get(timeout=1)
    assert (first.button, second.button) == (SeatButton(1), SeatButton(7))
    assert first.t % 1 != 0 and second.t % 1 == 0 and second.t > first.t


def test_an_input_of_no_button_is_read_but_not_reported(table):
    _, bus, edges, factory = table
    bus.set_level(0x21, 14, False)  # GPB6 of 0x21: no seat there (no interrupt enabled)
    assert factory.pin(INT_PIN).state == 1 and edges.empty()


def test_a_missing_chip_is_named_at_start():
    factory = MockFactory()
    try:
        with pytest.raises(RuntimeError, match="expander 0x21 on I2C does not answer"):
            ExpanderButtons(CONFIG, FakeExpanderBus([0x20], factory.pin(INT_PIN)),
                            factory=factory, now=Clock(), submit=lambda edge: None)
    finally:
        factory.reset()
        factory.close()


def _failing_reads(bus: FakeExpanderBus, count: int) -> None:
    """The next ``count`` reads on ``bus`` fail as a loose wire's would (smbus2's OSError)."""
    read = bus.read_i2c_block_data
    failures = [OSError(121, "Remote I/O error")] * count

    def flaky(address, register, length):
        if failures:
            raise failures.pop()
        return read(address, register, length)

    bus.read_i2c_block_data = flaky


def test_a_failed_read_is_counted_and_the_press_comes_with_the_next_read(table):
    buttons, bus, edges, _ = table
    _failing_reads(bus, 1)
    buttons.drive(SeatButton(2), True)
    assert edges.get(timeout=1).button == SeatButton(2)
    assert buttons.errors == 1


def test_a_line_left_low_by_failed_reads_is_read_again_without_an_edge(table):
    """Every read after the edge fails: INT stays low and brings no new edge; the held-line
    check reads again, and the press arrives, timed at that read."""
    buttons, bus, edges, _ = table
    _failing_reads(bus, 2 * 4)  # 2 chips x MAX_READS_PER_EDGE
    buttons.drive(SeatButton(4), True)
    edge = edges.get(timeout=5)
    assert (edge.button, edge.pressed) == (SeatButton(4), True)
    assert buttons.errors == 8 and edge.t % 1 == 0  # the read's time: the edge's was not kept


def test_a_pi_without_i2c_enabled_is_told_how(monkeypatch):
    """``/dev/i2c-1`` missing (I2C off) is a message with the fix, not smbus2's traceback."""
    def no_bus(bus: int):
        raise FileNotFoundError(2, "No such file or directory", f"/dev/i2c-{bus}")

    monkeypatch.setitem(sys.modules, "smbus2", types.SimpleNamespace(SMBus=no_bus))
    factory = MockFactory()  # not touched: the smbus2 backend's INT pin is the board's own
    try:
        with pytest.raises(RuntimeError, match=r"cannot open /dev/i2c-1 .*dtparam=i2c_arm=on"):
            open_bus("smbus2", CONFIG, factory)
    finally:
        factory.close()
