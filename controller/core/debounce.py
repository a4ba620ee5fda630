"""Debouncing of one button, as pure functions over timestamped edges.

Mechanical buttons chatter for a few milliseconds when pressed and released. We use a
*leading-edge* debounce with a lockout: a change of level is accepted at once, stamped with its
own edge time (so a vote is timed by the hand, not by the filter), and for ``hold`` seconds after
an accepted edge further edges are taken as chatter.

Chatter can end on the other level than the one accepted (a very short tap, or a release that
lands inside the lockout). Then the raw level is remembered and, once the lockout is over, a
``settle`` call accepts it, stamped with the time of the raw edge that produced it. So the
accepted level always catches up with the wire, and nothing is lost or stuck.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from contract.events import Source


class Debounce(msgspec.Struct, frozen=True):
    """The debounce state of one button.

    ``pressed``/``since``: the accepted level and the time of the edge that set it.
    ``raw``/``raw_t``: the last level seen on the wire and when. ``source``: what reported it.
    """

    pressed: bool = False
    since: float = float("-inf")
    raw: bool = False
    raw_t: float = float("-inf")
    source: Source = "gpio"

    @property
    def pending(self) -> bool:
        """True when the wire disagrees with the accepted level (a settle is due)."""
        return self.raw != self.pressed

    def settle_at(self, hold: float) -> float:
        """When the lockout of the last accepted edge ends."""
        return self.since + hold


@dataclass(frozen=True)
class Accepted:
    """A debounced level change: ``pressed`` at time ``t``."""

    pressed: bool
    t: float


def on_edge(d: Debounce, pressed: bool, t: float, hold: float,
            source: Source = "gpio") -> tuple[Debounce, Accepted | None]:
    """Feed one raw edge. Returns the new state and the accepted change, if any.

    An edge older than the last one seen is stale (inputs from two threads can cross) and only
    its level is ignored; the accepted state never goes back in time.
    """
    if t < d.raw_t:
        return d, None
    if pressed == d.pressed:
        return Debounce(d.pressed, d.since, pressed, t, source), None
    if t - d.since >= hold:
        return Debounce(pressed, t, pressed, t, source), Accepted(pressed, t)
    return Debounce(d.pressed, d.since, pressed, t, source), None


def settle(d: Debounce, now: float, hold: float) -> tuple[Debounce, Accepted | None]:
    """Accept a pending raw level once the lockout is over (called from timer ticks)."""
    if not d.pending or now < d.settle_at(hold):
        return d, None
    return Debounce(d.raw, d.raw_t, d.raw, d.raw_t, d.source), Accepted(d.raw, d.raw_t)
