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

Bounded: the last ``limit`` accepted commands, each as one 16-byte digest of its verb, id and
payload (about 150 bytes with its place in the order: 150 kB when full; keeping each one's
reply took 500 kB, which an evening filled in its first games: issue 40). An accepted command's
reply is ``ok`` with its verb and id, so a repeat's reply is made again from the copy. It lives
in memory: a controller restart forgets it (its ``status`` has a new ``boot_id``).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from contract.commands import request_id
from contract.inputs import CommandReceived
from controller.core.effects import Reply

#: Accepted commands whose replies are kept for their repeats.
REMEMBERED = 1024


def _key(cmd: CommandReceived) -> tuple[bytes, str] | None:
    """(the digest of its verb, id and payload, the id), or None for a command with no usable
    id."""
    id = request_id(cmd.payload)
    if id is None:
        return None
    digest = hashlib.blake2b(digest_size=16)
    for part in (cmd.verb.encode(), id.encode(), cmd.payload):
        digest.update(len(part).to_bytes(4, "big"))
        digest.update(part)
    return digest.digest(), id


class RecentCommands:
    """The last ``limit`` accepted commands (the loop's ``repeats``). Loop thread only."""

    def __init__(self, limit: int = REMEMBERED):
        self._limit = limit
        self._accepted: OrderedDict[bytes, None] = OrderedDict()
        self.repeats = 0  # copies answered without being applied, since the start

    def repeat(self, cmd: CommandReceived) -> Reply | None:
        """The reply to give ``cmd`` instead of applying it (a copy of a command accepted
        already), or None."""
        key = _key(cmd)
        if key is None or key[0] not in self._accepted:
            return None
        self._accepted.move_to_end(key[0])
        self.repeats += 1
        return Reply(cmd.verb, key[1], True, None, cmd.response_topic, cmd.correlation)

    def taken(self, cmd: CommandReceived, reply: Reply) -> None:
        """The table answered ``cmd`` with ``reply``: remembered if it accepted it."""
        key = _key(cmd)
        if key is None or not reply.ok:
            return
        self._accepted[key[0]] = None
        self._accepted.move_to_end(key[0])
        if len(self._accepted) > self._limit:
            self._accepted.popitem(last=False)
