"""In-order acceptance of a console's reliable events (go-back-N), pure.

The host accepts ``seq`` = last accepted + 1 (wrapping 255 -> 1) and nothing else: an earlier
one is a duplicate (acknowledge again, do not deliver), a later one means one went missing on
the line (drop it; the console sends everything unacknowledged again, in order). The last
accepted ``seq`` is kept per (unique id, boot id), so a console that is unplugged and plugged in
again resumes exactly; one that rebooted (new boot id) starts afresh with ``first_seq``.

Two positions are kept per boot. *Accepted*: the last event handed to the table (what decides
deliver / duplicate / gap). *Journaled*: the last one whose position is on disk together with
the events it caused (``journaled``): only that one is acknowledged to the console. A press
accepted but not yet journaled when the controller dies is therefore still in the console's
ring buffer, sent again, and accepted again by the next controller, which starts from the
journaled positions: every press is published exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from firmware_bridge.protocol import seq_after

Verdict = Literal["deliver", "duplicate", "gap"]


@dataclass(frozen=True)
class Position:
    """Where a console's event stream stands: its last accepted ``seq`` and ``count``, the
    number of events accepted from this boot so far (it orders two positions where ``seq``,
    wrapping at 255, cannot)."""

    unique_id: bytes
    boot_id: int
    seq: int
    count: int

    @property
    def key(self) -> tuple[bytes, int]:
        return self.unique_id, self.boot_id


class Sequencer:
    """``journaled``: the positions the journal holds (from a previous run)."""

    def __init__(self, journaled: Iterable[Position] = ()) -> None:
        self._accepted: dict[tuple[bytes, int], Position] = {}
        self._journaled: dict[tuple[bytes, int], Position] = {}
        self._first: dict[tuple[bytes, int], int] = {}
        self._free: dict[tuple[bytes, int], dict[int, Position]] = {}  # count -> position
        self._current: tuple[bytes, int] | None = None
        for position in journaled:
            self.journaled(position)

    def hello(self, unique_id: bytes, boot_id: int, first_seq: int | None = None) -> None:
        """A console introduced itself (again). For a boot with nothing accepted yet,
        ``first_seq`` (its oldest unacknowledged event) is where counting starts, so a lost
        first frame is a gap, not a silent loss; without it (protocol 1.0/1.1) the first event
        to arrive starts."""
        self._current = (unique_id, boot_id)
        last = self._accepted.get(self._current)
        if last is None and first_seq:
            self._first[self._current] = first_seq
        elif last is not None and first_seq and 2 <= (first_seq - last.seq) % 255 < 128:
            # the console forgot events after the last position known here: a host acknowledged
            # them without journaling a position (an event for no one, or one held under a
            # full disk, then a restart); waiting for them would drop every later one as a gap
            skipped = (first_seq - last.seq) % 255 - 1
            self.journaled(Position(*self._current, 255 if first_seq == 1 else first_seq - 1,
                                    last.count + skipped))

    @property
    def ack(self) -> int:
        """The ``ack`` to send: the current boot's last journaled ``seq`` (0: none yet)."""
        position = self._journaled.get(self._current) if self._current else None
        return position.seq if position else 0

    def offer(self, seq: int) -> tuple[Verdict, Position | None]:
        """The verdict on an EVENT's ``seq``, and the position it reaches when delivered."""
        assert self._current is not None, "events before HELLO"
        last = self._accepted.get(self._current)
        if last is None:
            first = self._first.get(self._current)
            if first is None or seq == first:
                return "deliver", self._accept(seq, 1)
            last_seq, count = (255 if first == 1 else first - 1), 0
        else:
            last_seq, count = last.seq, last.count
        if seq == seq_after(last_seq):
            return "deliver", self._accept(seq, count + 1)
        # within the 127 before ``last`` (mod 255): already delivered
        behind = (last_seq - seq) % 255
        return ("duplicate" if 0 <= behind < 128 else "gap"), None

    def _accept(self, seq: int, count: int) -> Position:
        assert self._current is not None
        position = Position(*self._current, seq, count)
        self._accepted[self._current] = position
        return position

    def journaled(self, position: Position) -> bool:
        """``position`` is on disk: it may be acknowledged. True if it moved the current boot's
        acknowledgement (an older position, or another boot's, changes nothing to send)."""
        known = self._journaled.get(position.key)
        if known is not None and known.count >= position.count:
            return False
        free = self._free.get(position.key, {})
        while position.count + 1 in free:  # events for no one, waiting behind this one
            position = free.pop(position.count + 1)
        self._journaled[position.key] = position
        accepted = self._accepted.get(position.key)
        if accepted is None or accepted.count < position.count:
            self._accepted[position.key] = position
        return position.key == self._current

    def needs_no_journal(self, position: Position) -> bool:
        """The event that reached ``position`` causes nothing to journal (a foreign seat, an
        ignored kind): acknowledged as soon as every event before it is journaled, never
        before (the ack is cumulative). True if that moved the current boot's ack now."""
        known = self._journaled.get(position.key)
        if position.count == (known.count if known else 0) + 1:
            return self.journaled(position)
        self._free.setdefault(position.key, {})[position.count] = position
        return False
