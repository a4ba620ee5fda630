"""``cmd/replay``: publish kept events again for a consumer that missed some.

The command names the journal (public or private) and the last ``seq`` the consumer has; every
kept event after it goes out again through ``controller.delivery``'s paced backlog, and the
reply comes when they are all on their way. Events pruned from the journal cannot come back:
the reply says which ones, and nothing is sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from contract.commands import parse_replay
from contract.inputs import CommandReceived
from controller.core.effects import Reply
from controller.delivery import Delivery
from controller.journal import Journal, JournalUnreadable

log = logging.getLogger(__name__)


def replay(cmd: CommandReceived, journals: dict[bool, Journal], delivery: Delivery,
           reply: Callable[[Reply], None]) -> None:
    """Answer ``cmd`` (on the loop thread): start the replay it asks for, or refuse it."""
    parsed = parse_replay(cmd.payload)
    error = parsed.error
    command_id = parsed.id if parsed.value is None else parsed.value.id

    def answer(error: str | None) -> None:
        reply(Reply(cmd.verb, command_id, error is None, error, cmd.response_topic,
                    cmd.correlation))

    if parsed.value is not None and error is None:
        journal = journals[parsed.value.private]
        after = parsed.value.after_seq
        try:
            oldest = journal.oldest_kept()
        except JournalUnreadable as exc:
            return answer(str(exc))
        if after + 1 < oldest:
            error = (f"after_seq: events {after + 1}..{oldest - 1} are no longer kept; "
                     f"the oldest kept is {oldest}")
        else:
            log.info("replaying the events after seq %d (up to %d)", after, journal.last_seq)
            delivery.replay(parsed.value.private, after, answer)
            return
    answer(error)
