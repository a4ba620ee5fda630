"""How often a login checks a password: per address, and for the whole app. Pure: the times
are data (``now``), so the rules are tested on a fake clock.

- **Per address** (an IPv6 address counts by its /64: one device may take any address of it):
  after ``n`` wrong passwords in a row, the next one is checked only ``wrong_wait(n)`` seconds
  after the last (0.5 s, 1 s, 2 s... at most 8 s). Until then a try is not checked at all, so
  sending many at once gains nothing. An address quiet for an hour starts over.
- **For the whole app**: at most ``budget`` wrong passwords in any ``window`` seconds (20 in 10
  minutes) from browsers that never logged in here; then such browsers' tries are not checked
  until the oldest of those leaves the window. A spray from many addresses is held by this.
- **A browser that has logged in here before** (it holds the login's "known browser" cookie,
  which only a right password gives) is not held by the app's budget, and its wrong tries do
  not count in it: the judge's tablet gets in at once while strangers spray. It still waits
  after its own wrong tries, counted by its cookie rather than its address.

    throttle = Throttle()
    wait = throttle.held(who, known, now)      # > 0: answer "try again in wait s", unchecked
    throttle.wrong(who, known, now)            # a wrong password: the wait before its answer
    throttle.right(who)                        # a right one: that address starts over
"""

from __future__ import annotations

import ipaddress
from collections import deque
from dataclasses import dataclass

#: the longest a wrong password from one address waits for its answer, in seconds
MAX_WAIT = 8.0
#: wrong passwords a window may hold from browsers never logged in here, and the window
BUDGET = 20
WINDOW = 600.0
#: an address with no wrong try for this long starts over
FORGET = 3600.0
#: addresses remembered at most (the oldest are forgotten first)
MAX_ADDRESSES = 10_000


def wrong_wait(failures: int) -> float:
    """Seconds a wrong password waits after ``failures`` wrong ones in a row from its address."""
    return min(MAX_WAIT, 0.25 * 2 ** failures)


def address_key(remote: str | None) -> str:
    """Who a try is counted against: its IPv4 address, or its IPv6 address's /64."""
    try:
        address = ipaddress.ip_address(remote or "")
    except ValueError:
        return remote or "?"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@dataclass
class _Wrong:
    count: int
    last: float


class Throttle:
    """The wrong tries of one app: by who made them, and the app's recent ones."""

    def __init__(self, *, budget: int = BUDGET, window: float = WINDOW):
        self.budget, self.window = budget, window
        self.wrong_by: dict[str, _Wrong] = {}
        #: when the app's latest ``budget`` wrong tries by unknown browsers were made
        self.recent: deque[float] = deque(maxlen=budget)

    def held(self, who: str, known: bool, now: float) -> float:
        """Seconds before ``who`` may try again (0: check the password now)."""
        wait = 0.0
        wrong = self.wrong_by.get(who)
        if wrong is not None and now - wrong.last < FORGET:
            wait = wrong.last + wrong_wait(wrong.count) - now
        if not known and len(self.recent) == self.budget:
            wait = max(wait, self.recent[0] + self.window - now)
        return max(0.0, wait)

    def budget_spent(self, now: float) -> bool:
        """Whether browsers never logged in here are held now."""
        return len(self.recent) == self.budget and self.recent[0] + self.window > now

    def wrong(self, who: str, known: bool, now: float) -> float:
        """A wrong password from ``who``: kept; returns the wait before it is answered."""
        wrong = self.wrong_by.pop(who, None)  # re-inserted: the dict stays oldest first
        count = 1 if wrong is None or now - wrong.last >= FORGET else wrong.count + 1
        self.wrong_by[who] = _Wrong(count, now)
        while len(self.wrong_by) > MAX_ADDRESSES:
            del self.wrong_by[next(iter(self.wrong_by))]
        if not known:
            self.recent.append(now)
        return wrong_wait(count)

    def failures(self, who: str) -> int:
        wrong = self.wrong_by.get(who)
        return 0 if wrong is None else wrong.count

    def right(self, who: str) -> None:
        """A right password from ``who``: its wrong ones are forgotten."""
        self.wrong_by.pop(who, None)
