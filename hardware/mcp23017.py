"""The MCP23017 I2C port expander as data: its registers, the writes that make it a button
reader, and what an interrupt's read means. Sans-I/O: bytes in, edges out; ``FakeMcp23017``
models the chip's interrupt logic for the simulator and the tests.

Figures are from Microchip's datasheet DS20001952 (MCP23017/MCP23S17; revision C, 2016, and
revision D, 2022, whose one change for the MCP23017 is the first point below):

* Revision D, Table 1-1 (and Microchip's note "GPA7 - GPB7 Cannot Be Used as Inputs In
  MCP23017"): **GPA7 and GPB7 are output only**. As inputs, a level change during an I2C read
  can corrupt SDA. Every chip ever made has the same die, so no button goes on those two pins:
  ``BUTTON_INPUTS`` are the other 14, and ``setup_writes`` makes GPA7 and GPB7 outputs held low.

* Table 3-1 (``IOCON.BANK = 0``, the power-on layout): the A/B registers are paired, IODIRA
  0x00 ... OLATB 0x15, and a read continues to the next address (``SEQOP = 0``), so one read
  from ``INTFA`` returns INTFA, INTFB, INTCAPA, INTCAPB, GPIOA, GPIOB.
* 3.5.6 IOCON: ``MIRROR`` (bit 6) ORs both ports onto INTA and INTB; ``ODR`` (bit 2) makes INT
  open drain, so the INT pins of every chip can share one Pi GPIO with a pull-up (active low).
* 3.6.4 Interrupt operation: the first change of an input with ``GPINTEN`` set copies the port
  into ``INTCAP`` and asserts INT; later changes do not touch ``INTCAP`` until a read of
  ``INTCAP`` or ``GPIO`` clears the interrupt. 3.6.5: with ``INTCON = 0`` a pin interrupts when
  it differs from its previous state, and the reference becomes the state at the clear, so a
  change made while INT was held shows only in ``GPIO``: ``decode`` gives those changes the
  read's time, not the edge's.
* ``GPPU``: 100 kOhm pull-ups on the inputs (3.5.7), so a button to ground needs no resistor.
"""

from __future__ import annotations

from dataclasses import dataclass

IODIRA, IODIRB = 0x00, 0x01
IPOLA, IPOLB = 0x02, 0x03
GPINTENA, GPINTENB = 0x04, 0x05
DEFVALA, DEFVALB = 0x06, 0x07
INTCONA, INTCONB = 0x08, 0x09
IOCON = 0x0A  # also at 0x0B
IOCON_IN_BANK_1 = 0x05  # where IOCON is when BANK = 1
GPPUA, GPPUB = 0x0C, 0x0D
INTFA, INTFB = 0x0E, 0x0F
INTCAPA, INTCAPB = 0x10, 0x11
GPIOA, GPIOB = 0x12, 0x13
OLATA, OLATB = 0x14, 0x15
REGISTERS = 0x16

IOCON_BANK = 1 << 7
IOCON_MIRROR = 1 << 6
IOCON_SEQOP = 1 << 5
IOCON_DISSLW = 1 << 4
IOCON_HAEN = 1 << 3
IOCON_ODR = 1 << 2
IOCON_INTPOL = 1 << 1

#: the inputs a button may use: all but GPA7 (7) and GPB7 (15), output only (revision D)
BUTTON_INPUTS = tuple(i for i in range(16) if i % 8 != 7)
#: GPA7 and GPB7 as a mask: outputs, held low
OUTPUT_ONLY = 1 << 7 | 1 << 15

#: one read from INTFA: INTFA, INTFB, INTCAPA, INTCAPB, GPIOA, GPIOB
INTERRUPT_READ = (INTFA, 6)


def input_name(index: int) -> str:
    """``GPA0`` .. ``GPB7`` for inputs 0..15, as the datasheet's pin diagram names them."""
    return f"GP{'AB'[index // 8]}{index % 8}"


#: package pin of each input (28-pin PDIP/SOIC/SSOP: GPB0..7 are pins 1..8, GPA0..7 are 21..28)
PACKAGE_PIN = {i: (21 + i if i < 8 else i - 7) for i in range(16)}


def setup_writes(inputs: int) -> list[tuple[int, int]]:
    """(register, value) writes that make the chip read the ``inputs`` mask (bit i = input i;
    never GPA7 or GPB7, output only) as buttons to ground: GPA7 and GPB7 outputs driven low
    (latch written before the direction, so they never come up high), every other pin an input
    (unused ones too: never drive a line something may be wired to), pull-ups and
    interrupt-on-change on the used ones, compared with the previous state, INT mirrored and
    open drain. First the layout: a chip that other software left in ``BANK = 1``
    has IOCON at 0x05 (Table 3-1, right half), so 0x00 there makes it ``BANK = 0`` (on a chip
    already in ``BANK = 0``, 0x05 is GPINTENB, written again below); then IOCON proper."""
    if inputs & OUTPUT_ONLY:
        raise ValueError(f"inputs 0x{inputs:04x}: GPA7 and GPB7 are output only")
    a, b = inputs & 0xFF, inputs >> 8 & 0xFF
    return [
        (IOCON_IN_BANK_1, 0x00),
        (IOCON, IOCON_MIRROR | IOCON_ODR),
        (OLATA, 0x00), (OLATB, 0x00),
        (IODIRA, 0x7F), (IODIRB, 0x7F),
        (IPOLA, 0x00), (IPOLB, 0x00),
        (GPPUA, a), (GPPUB, b),
        (DEFVALA, 0x00), (DEFVALB, 0x00),
        (INTCONA, 0x00), (INTCONB, 0x00),
        (GPINTENA, a), (GPINTENB, b),
    ]


@dataclass(frozen=True)
class Change:
    """Input ``index`` is now at ``level``; ``at_edge``: it caused the interrupt, so it
    happened at the INT edge, else it happened between the edge and the read."""

    index: int
    level: bool
    at_edge: bool


def decode(block: bytes, previous: int) -> tuple[list[Change], int]:
    """The changes an ``INTERRUPT_READ`` block shows against ``previous`` levels (16 bits,
    GPA0 = bit 0), and the levels now. A flagged input (``INTF``) that ``INTCAP`` shows changed
    happened at the edge; any input whose ``GPIO`` differs from what was known after the
    capture changed later (after the capture, before the read)."""
    if len(block) != INTERRUPT_READ[1]:
        raise ValueError(f"an interrupt read is {INTERRUPT_READ[1]} bytes, got {len(block)}")
    intf = block[0] | block[1] << 8
    captured = block[2] | block[3] << 8
    now = block[4] | block[5] << 8
    changes = []
    known = previous
    if intf:
        known = (previous & ~intf | captured & intf) & 0xFFFF
        changes += [Change(i, bool(captured >> i & 1), True)
                    for i in range(16) if (known ^ previous) >> i & 1]
    changes += [Change(i, bool(now >> i & 1), False) for i in range(16) if (now ^ known) >> i & 1]
    return changes, now


class FakeMcp23017:
    """A register model of one chip, as its datasheet describes it (see the module doc):
    what the tests and ``--sim`` talk to instead of a chip. ``levels`` are the pins."""

    def __init__(self) -> None:
        self.registers = bytearray(REGISTERS)
        self.registers[IODIRA] = self.registers[IODIRB] = 0xFF  # power-on: all inputs
        self.levels = 0xFFFF  # pulled up, no button pressed
        self._reference = self.levels  # INTCON = 0: the state a change is compared to
        self.reads = 0

    @property
    def interrupting(self) -> bool:
        return bool(self.registers[INTFA] or self.registers[INTFB])

    def set_level(self, index: int, level: bool) -> None:
        self.levels = self.levels & ~(1 << index) | (int(level) << index)
        self._check(index // 8)

    def _check(self, port: int) -> None:
        enabled = self.registers[GPINTENA + port]
        mine = self.levels >> (8 * port) & 0xFF
        if self.registers[INTFA + port]:
            return  # INT held: INTCAP keeps the first change (3.6.4)
        control = self.registers[INTCONA + port]
        reference = (self._reference >> (8 * port) & 0xFF) & ~control | (
            self.registers[DEFVALA + port] & control)
        flagged = (mine ^ reference) & enabled
        if flagged:
            self.registers[INTFA + port] = flagged
            self.registers[INTCAPA + port] = self._port(port)

    def _port(self, port: int) -> int:
        """What port ``port`` (0 = A) reads: an input its pin, an output its latch."""
        direction = self.registers[IODIRA + port]
        return (self.levels >> (8 * port) & direction
                | self.registers[OLATA + port] & ~direction) & 0xFF

    def write(self, register: int, value: int) -> None:
        if register == IOCON + 1:
            register = IOCON
        if register in (INTFA, INTFB, INTCAPA, INTCAPB):
            return  # read-only
        if register == IOCON and value & IOCON_BANK:
            raise NotImplementedError("the fake models BANK = 0 only")
        self.registers[register] = value & 0xFF

    def read(self, register: int, length: int) -> bytes:
        """A sequential read (``SEQOP = 0``): the address pointer moves on, wrapping at 0x15."""
        self.reads += 1
        out = bytearray()
        for k in range(length):
            reg = (register + k) % REGISTERS
            if reg in (GPIOA, GPIOB):
                out.append(self._port(reg - GPIOA))
            elif reg == IOCON + 1:
                out.append(self.registers[IOCON])
            else:
                out.append(self.registers[reg])
            if reg in (INTCAPA, INTCAPB, GPIOA, GPIOB):  # clears that port's interrupt
                port = (reg - INTCAPA) % 2
                self.registers[INTFA + port] = 0
                mask = 0xFF << (8 * port)
                self._reference = self._reference & ~mask | self.levels & mask
        return bytes(out)
