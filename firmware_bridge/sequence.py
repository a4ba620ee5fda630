"""In-order acceptance of a console's reliable events (go-back-N), pure.

The host accepts ``seq`` = last accepted + 1 (wrapping 255 -> 1) and nothing else: an earlier
one is a duplicate (acknowledge again, do not deliver), a later one means one went missing on
the line (drop it; the console sends everything unacknowledged again, in order). The last
accepted ``seq`` is kept per (unique id, boot id), so a console that is unplugged and plugged in
again resumes exactly; one that rebooted (new boot id) starts afresh with whatever it sends first.
"""

from __future__ import annotations

from typing import Literal

Verdict = Literal["deliver", "duplicate", "gap"]


def _after(seq: int) -> int:
    return 1 if seq >= 255 else seq + 1


class Sequencer:
    def __init__(self) -> None:
        self._last: dict[tuple[bytes, int], int] = {}
        self._current: tuple[bytes, int] | None = None

    def hello(self, unique_id: bytes, boot_id: int, first_seq: int | None = None) -> None:
        """A console introduced itself (again). For a boot not seen before, ``first_seq`` (its
        oldest unacknowledged event) is where counting starts, so a lost first frame is a gap,
        not a silent loss; without it (protocol 1.0/1.1) the first event to arrive starts."""
        self._current = (unique_id, boot_id)
        if self._current not in self._last and first_seq:
            self._last[self._current] = 255 if first_seq == 1 else first_seq - 1

    @property
    def last(self) -> int:
        """The last accepted ``seq`` of the current console (0: none yet): the ``ack`` to send."""
        return self._last.get(self._current, 0) if self._current else 0

    def offer(self, seq: int) -> Verdict:
        assert self._current is not None, "events before HELLO"
        last = self._last.get(self._current)
        if last is None or seq == _after(last):
            self._last[self._current] = seq
            return "deliver"
        # within the 127 before ``last`` (mod 255): already delivered
        behind = (last - seq) % 255
        return "duplicate" if 0 <= behind < 128 else "gap"
