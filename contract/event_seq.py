"""What a consumer of the table's events learns from their ``seq`` (docs/mqtt-api.md, "Events
and delivery").

Each journal (the public ``event/...`` and the ``private/...``) numbers its events 1, 2, 3...
with no gaps, so a consumer that keeps the newest ``seq`` it has seen knows from the next one
whether it missed some (and can ask for them with ``cmd/replay`` ``after_seq``). A redelivered
or replayed event is older than the newest: nothing is missed, and the newest stays.
"""

from __future__ import annotations


def missed(last: int, seq: int) -> range:
    """The seqs between ``last`` (the newest seen; 0: none yet) and ``seq``, empty unless
    ``seq`` jumps ahead. Nothing counts as missed before the first event seen."""
    return range(last + 1, seq) if last else range(0)
