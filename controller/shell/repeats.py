"""Each command run once, however often it arrives: a repeat gets the first copy's reply.

A command can come twice. Its sender sends it again, with the same ``id``, when no reply came
within a few seconds (a broker killed before its autosave loses commands and replies:
docs/mqtt-api.md, "Losing nothing"); and a broker restarted before it had read the
controller's PUBACK delivers it again by itself. Run twice, ``cmd/timer/add`` would add twice and
``cmd/vote/confirm`` would confirm the next count.

So the loop asks, before it applies a command (``repeat``), whether the same verb, id and payload
was accepted already; a repeat gets that reply again and is not applied. After applying one, it
tells what the table answered (``taken``): an accepted command is remembered. A command the
table refused changed nothing, so a copy of it is judged afresh; a different payload under an id
already seen is a new command (a sender that reuses ids). Every copy gets one reply.

Bounded: the last ``limit`` accepted commands. It lives in memory: a controller restart forgets
it (its ``status`` has a new ``boot_id``).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import OrderedDict

from contract.commands import request_id
from contract.inputs import CommandReceived
from controller.core.effects import Reply

#: Accepted commands whose replies are kept for their repeats.
REMEMBERED = 1024


def _key(cmd: CommandReceived) -> tuple[str, str, bytes] | None:
    """(verb, id, the payload's digest), or None for a command with no usable id."""
    id = request_id(cmd.payload)
    if id is None:
        return None
    return cmd.verb, id, hashlib.blake2b(cmd.payload, digest_size=16).digest()


class RecentCommands:
    """The last ``limit`` accepted commands and their replies (the loop's ``repeats``). Loop
    thread only."""

    def __init__(self, limit: int = REMEMBERED):
        self._limit = limit
        self._accepted: OrderedDict[tuple[str, str, bytes], Reply] = OrderedDict()
        self.repeats = 0  # copies answered without being applied, since the start

    def repeat(self, cmd: CommandReceived) -> Reply | None:
        """The reply to give ``cmd`` instead of applying it (a copy of a command accepted
        already), or None."""
        key = _key(cmd)
        reply = None if key is None else self._accepted.get(key)
        if reply is None:
            return None
        self._accepted.move_to_end(key)  # type: ignore[arg-type]
        self.repeats += 1
        return dataclasses.replace(reply, response_topic=cmd.response_topic,
                                   correlation=cmd.correlation)

    def taken(self, cmd: CommandReceived, reply: Reply) -> None:
        """The table answered ``cmd`` with ``reply``: remembered if it accepted it."""
        key = _key(cmd)
        if key is None or not reply.ok:
            return
        self._accepted[key] = reply
        self._accepted.move_to_end(key)
        if len(self._accepted) > self._limit:
            self._accepted.popitem(last=False)
