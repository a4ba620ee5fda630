"""What a long-running process of the project does once it has started: its start-up's objects
moved out of the garbage collector's sight.

A full collection stops every thread while it looks at every tracked object. After start-up
that is mostly what start-up made and keeps for good: the modules, the config, paho, pygame or
aiohttp (the table's service: some 33,000 objects, 10 ms a full collection on the development
VM, 0.1-0.3 ms once they are frozen, as ``bench.hops`` prints; the judge's panel: 53,000
objects, 10.6 ms against 0.55 ms, docs/performance.md, "The judge's screen, server side"). A
table at play allocates little and collects rarely, but a command flood brings a full
collection every 2-3 s, and the judge's panel builds a view at every change; each full
collection is a press's whole budget. ``mafia-table run`` and ``mafia-table judge`` call
``freeze_startup`` once they are up; a process that builds many services (the tests) does not:
it would keep each one's garbage for good.
"""

from __future__ import annotations

import gc


def freeze_startup() -> None:
    """Collect once, then leave everything alive now out of every later collection
    (``gc.freeze``)."""
    gc.collect()
    gc.freeze()
