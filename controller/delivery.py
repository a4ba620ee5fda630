"""Delivery: journal events to the broker, live ones at once, a backlog paced behind them.

A live event (a press just made) is published the moment it is journaled. Everything else that
goes out in bulk, the backlog left unacknowledged by an outage or a crash and the copies
``cmd/replay`` asks for, is read from the journal a page at a time and *paced* two ways:

* at most ``window`` such messages wait for the broker's PUBACK at once, and the next page is
  read only as acknowledgements come back: however long the backlog (a million events), a live
  event never queues behind it in paho (which holds at most 20 messages in flight, the receive
  maximum mosquitto announces; the window leaves the rest for live events, retained documents
  and replies), memory holds a page, not the backlog, and a stop is obeyed at once;
* at most ``rate`` of them a second (a token bucket), because the broker acknowledges a message
  as soon as it has queued it for the subscribers: a consumer slower than the broker would see
  its queue there grow, a live event wait behind that queue, and mosquitto drop what overflows
  it (``max_queued_messages``, 1000 by default). Consumers must take ``rate`` events a second.

During a catch-up, live events therefore reach consumers before older backlog events: order
events by ``seq``, which has no gaps (docs/mqtt-api.md, "Delivery").

Every consumer may ask for a replay (a hall broker restart makes each of them ask for every
table it follows at once), and each replay's copies go to every subscriber: requests for one
journal are merged, into the replay under way when it will still send everything asked for, or
else into the one waiting after it. So at most two replays per journal exist, each answering
all the requests it took (at most ``REPLAY_REQUESTS``; more are refused busy).

Acknowledgements are written to the journal in batches (``commit``, once per loop turn), one
primary-key update per event.

Used on the loop thread only.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from controller.journal import Journal, JournalUnreadable, StoredEvent

log = logging.getLogger(__name__)

#: Backlog and replay messages in flight at most (paho's own limit is 20).
PACED_WINDOW = 8
#: The shortest wait for the token bucket to refill: fewer, larger steps.
MIN_WAIT = 0.02
#: Requests one replay answers at most; beyond, they are refused busy (ask again later).
REPLAY_REQUESTS = 64
REPLAYS_BUSY = "busy: too many replays waiting; ask again later"


@dataclass
class _Replay:
    """A replay under way or waiting: each of ``done(error)`` is called once, with None on
    success, when it has sent everything up to ``until``."""

    private: bool
    cursor: int  # the last seq published (the start, until it has started)
    until: int  # the newest seq when it was last asked for
    done: list[Callable[[str | None], None]]
    started: bool = False

    def finish(self, error: str | None) -> None:
        for done in self.done:
            done(error)


class Delivery:
    """Sends the events of ``journals`` (by ``private``) through ``publish``, which returns
    paho's message id, while ``connected()`` says the broker is there.

    ``rate``: paced messages a second at most; ``now`` is a monotonic clock and
    ``wake(seconds)`` must call ``tick`` after that long (once; it is not asked again before)."""

    def __init__(self, journals: dict[bool, Journal], publish: Callable[[str, bytes], int],
                 connected: Callable[[], bool], *, rate: float, now: Callable[[], float],
                 wake: Callable[[float], None], window: int = PACED_WINDOW):
        self._journals = journals
        self._publish = publish
        self._connected = connected
        self.window = window
        self._rate = rate
        self._now = now
        self._wake = wake
        self._capacity = max(window, rate * MIN_WAIT * 2)
        self._tokens = self._capacity
        self._filled_at = now()
        self._waking = False
        #: paho mid -> (private?, seq) of a journal event; None for a replay's copy
        self.in_flight: dict[int, tuple[bool, int] | None] = {}
        self._paced: set[int] = set()  # the mids of backlog and replay messages
        self._on_the_way: set[tuple[bool, int]] = set()  # sent or acked, ack not yet written
        self._acked: list[tuple[bool, int]] = []
        self._commit_due = False
        self._backlog: dict[bool, int] = {}  # journal -> the last seq handed out
        self._replays: deque[_Replay] = deque()
        self.stopped = False

    def live(self, event: StoredEvent, private: bool) -> None:
        """Publish a new event now, whatever the backlog."""
        self._send(event, private, paced=False)

    def reconnected(self) -> None:
        """After a connect: go through everything unacknowledged again, oldest first (paho
        sends again by itself what was in flight)."""
        self.commit()
        self._backlog = {private: 0 for private in self._journals}
        waiting = sum(journal.depth for journal in self._journals.values())
        if waiting:
            log.info("%d stored events wait: publishing them, %d at a time", waiting,
                     self.window)
        self.fill()

    def replay(self, private: bool, after_seq: int, done: Callable[[str | None], None]) -> None:
        """Publish copies of the kept events after ``after_seq`` (up to the newest now), paced
        after the backlog; then ``done(None)``, or ``done(error)`` if the journal cannot be
        read (or too many requests wait: ``REPLAYS_BUSY``)."""
        until = self._journals[private].last_seq
        for replay in self._replays:
            if replay.private != private or (replay.started and after_seq < replay.cursor):
                continue  # the one under way has sent some of these already
            if len(replay.done) >= REPLAY_REQUESTS:
                done(REPLAYS_BUSY)
                return
            if not replay.started:
                replay.cursor = min(replay.cursor, after_seq)
            replay.until = max(replay.until, until)
            replay.done.append(done)
            return
        self._replays.append(_Replay(private, after_seq, until, [done]))
        self.fill()

    def acked(self, mid: int) -> bool:
        """The broker acknowledged ``mid``; True when this is the first acknowledgement since
        the last ``commit`` (call ``commit`` soon)."""
        self._paced.discard(mid)
        sent = self.in_flight.pop(mid, None)
        if sent is not None:
            self._acked.append(sent)
        first, self._commit_due = not self._commit_due, True
        return first

    def commit(self) -> None:
        """Write the acknowledgements received so far to the journals, then send more."""
        acked, self._acked, self._commit_due = self._acked, [], False
        for private, journal in self._journals.items():
            seqs = [seq for p, seq in acked if p == private]
            if seqs:
                journal.acked(*seqs)
        self._on_the_way.difference_update(acked)
        self.fill()

    def tick(self) -> None:
        """The wait asked of ``wake`` is over."""
        self._waking = False
        self.fill()

    def fill(self) -> None:
        """Top the paced messages up to ``window``, once half of them have come back, as far
        as the rate allows (else ask to be woken when it does)."""
        if self.stopped or not self._connected() or len(self._paced) > self.window // 2:
            return
        now = self._now()
        self._tokens = min(self._capacity, self._tokens + (now - self._filled_at) * self._rate)
        self._filled_at = now
        while len(self._paced) < self.window and (self._backlog or self._replays):
            room = min(self.window - len(self._paced), int(self._tokens))
            if room <= 0:
                if not self._waking:
                    self._waking = True
                    self._wake(max(MIN_WAIT, (self.window - self._tokens) / self._rate))
                return
            if self._backlog:
                self._send_backlog(next(iter(self._backlog)), room)
            else:
                self._send_replay(self._replays[0], room)

    def _send_backlog(self, private: bool, room: int) -> None:
        try:
            page = self._journals[private].unacked_after(self._backlog[private], room)
        except JournalUnreadable:  # logged and in health; the next start moves the file aside
            page = []
        if not page:
            del self._backlog[private]
            return
        self._backlog[private] = page[-1].seq
        for event in page:
            if (private, event.seq) not in self._on_the_way:
                self._send(event, private, paced=True)
                self._tokens -= 1

    def _send_replay(self, replay: _Replay, room: int) -> None:
        try:
            page = [e for e in self._journals[replay.private].since(replay.cursor, room)
                    if e.seq <= replay.until]
        except JournalUnreadable as exc:
            self._replays.popleft()
            replay.finish(f"{exc}; events up to seq {replay.cursor} were published")
            return
        if not page:
            self._replays.popleft()
            replay.finish(None)
            return
        replay.cursor = page[-1].seq
        replay.started = True
        for event in page:
            mid = self._publish(event.topic, event.payload)
            self.in_flight[mid] = None
            self._paced.add(mid)
            self._tokens -= 1

    def _send(self, event: StoredEvent, private: bool, *, paced: bool) -> None:
        mid = self._publish(event.topic, event.payload)
        self.in_flight[mid] = (private, event.seq)
        self._on_the_way.add((private, event.seq))
        if paced:
            self._paced.add(mid)
