"""A whole FIIM game as the journal keeps it: the judge's taps and the table's events, in order,
with the times they came at. The record tests and the panel's tests replay it; ``built``
makes a record of a journal's inputs.

Seats: 1 Don, 2 and 3 mafia, 4 Sheriff, 5..10 civilians. What happens (the e2e panel test's
game, told by the table's events): day 1 seat 1 nominates 5, seat 2 nominates 6; 5 is voted
out (8 votes, the first count rejected) after a foul on 9 taken back and a foul on 8 that
stands; night 1 the mafia shoot 7, the Don checks 4 (yes), the Sheriff checks 2 (yes), 7's best
move is 1, 2, 3; day 2 a tie between 1 and 3 twice, and "all leave?" yes (5 of 8); night 2 a
lone mafioso shoots 6, the Sheriff checks 8 (no); day 3 seat 2 is voted out: red wins.
"""

from __future__ import annotations

import msgspec

from judge.game import Action, TableEvent
from judge.record import document as rec
from results import feed
from tests.support.table_event import table_event

ROLES = ["don", "mafia", "mafia", "sheriff", *["civilian"] * 6]
NAMES = {1: "Anna", 2: "Boris", 4: "Dmitry"}


class Script:
    """Builds the inputs one by one, one second apart from ``t0``."""

    def __init__(self, t0: float = 1_764_577_800.0):
        self.t = t0
        self.inputs: list[tuple[Action | TableEvent, float]] = []

    def tap(self, kind: str, **args) -> Script:
        return self.add(Action(kind, args))

    def event(self, topic: str, **body) -> Script:
        return self.add(table_event(topic, body))

    def add(self, given: Action | TableEvent) -> Script:
        self.t += 1.0
        self.inputs.append((given, self.t))
        return self

    def speeches(self, seats: list[int], nominations: dict[int, int] | None = None) -> Script:
        for seat in seats:
            self.tap("next")
            if nominations and seat in nominations:
                self.event("event/nomination", by=seat, seat=nominations[seat],
                           outcome="accepted")
        return self

    def ballot(self, candidate: int, voters: list[int], leftover: list[int] | None = None,
               reject_first: bool = False) -> Script:
        if reject_first:
            self.event("event/vote/proposed", candidate=candidate, count=len(voters) - 1,
                       voters=voters[1:])
            self.tap("reject")
            self.event("event/vote/rejected", candidate=candidate, by="command")
        counted = sorted(voters + (leftover or []))
        self.event("event/vote/proposed", candidate=candidate, count=len(counted),
                   voters=voters, leftover=leftover or [])
        self.tap("confirm")
        return self.event("event/vote/confirmed", candidate=candidate, voters=voters,
                          leftover=leftover or [], count=len(counted), by="command",
                          reason=None)

    def night_step(self, step: str, picks: dict[int, list[int]], missing=(),
                   agreed=None) -> Script:
        self.tap("next")
        return self.event("private/night/result", step=step, picks=[
            {"actor": a, "picks": p, "miss": None} for a, p in picks.items()],
            missing=list(missing), agreed=agreed)


def whole_game() -> Script:
    s = Script()
    s.event("state", day=0)
    for seat, name in NAMES.items():
        s.tap("name", seat=seat, name=name)
    s.tap("deal", roles=ROLES).tap("start").tap("next")  # night 0, then morning: day 1
    s.speeches([1, 2], {1: 5, 2: 6})
    s.tap("foul", seat=9).tap("undo").tap("foul", seat=8)
    s.speeches([3, 4, 5, 6, 7, 8, 9, 10])
    s.tap("next")  # the vote on 5 and 6
    s.ballot(5, [1, 2, 3, 4, 7, 8, 9, 10], reject_first=True).ballot(6, [5, 6])
    s.event("event/vote/result", outcome="eliminated", eliminated=5, tied=[],
            counts=[{"candidate": 5, "count": 8}, {"candidate": 6, "count": 2}])
    s.tap("next").tap("next")  # 5's last words; 5 leaves, night 1
    s.night_step("mafia_shot", {1: [7], 2: [7], 3: [7]}, agreed=True)
    s.night_step("don_check", {1: [4]})
    s.night_step("sheriff_check", {4: [2]})
    s.night_step("best_move", {7: [1, 2, 3]})
    s.tap("next").tap("next").tap("next")  # morning, 7's last minute, 7 leaves: day 2
    s.speeches([2, 3], {2: 1, 3: 3}).speeches([4, 6, 8, 9, 10, 1])
    s.tap("next")  # vote on 1 and 3
    s.ballot(1, [2, 4, 6, 8]).ballot(3, [1, 3, 9, 10])
    s.event("event/vote/result", outcome="tie", tied=[1, 3])
    s.tap("next").tap("next").tap("next")  # 1's and 3's excuses, the re-vote
    s.ballot(1, [2, 4, 6, 8]).ballot(3, [1, 3, 9, 10])
    s.event("event/vote/result", outcome="tie", tied=[1, 3])  # the question follows
    s.ballot(0, [4, 6, 8, 9, 10])
    s.event("event/vote/result", kind="question", outcome="yes", yes=[4, 6, 8, 9, 10],
            yes_count=5, voters_count=8)
    s.tap("next").tap("next").tap("next")  # last words of 1 and 3; they leave: night 2
    s.night_step("mafia_shot", {2: [6]}, agreed=True)
    s.night_step("sheriff_check", {4: [8]})
    s.tap("next").tap("next").tap("next")  # morning, 6's last minute, 6 leaves: day 3
    s.speeches([4], {4: 2}).speeches([8, 9, 10, 2])
    s.tap("next")  # the vote on 2 alone (day 3: a vote)
    s.ballot(2, [], leftover=[2, 4, 8, 9, 10])
    s.event("event/vote/result", outcome="eliminated", eliminated=2, tied=[])
    s.tap("next").tap("next")  # 2's last words; 2 leaves: red wins (1.4)
    return s


def built(inputs) -> rec.Record:
    """The record of a journal's inputs (there is one: every game here has inputs)."""
    record = rec.build(inputs, "table-1")
    assert record is not None
    return record


def seated_game(table: str, number: int, seats: dict[int, str], tournament: str,
                revision: int = 1, renamed: str | None = None) -> tuple[str, bytes]:
    """``whole_game`` played at ``table`` in round ``number`` of ``tournament``, its players
    named by the round's ``seats`` (seat 1 ``renamed``, as a judge may), as the judge's panel
    sends it to the hall: its ``record/`` topic and message (``results.feed``)."""
    base = built(whole_game().inputs)
    record = msgspec.structs.replace(
        base, table=table, id=f"{table}-r{number}",
        players=[msgspec.structs.replace(p, name=renamed if renamed and p.seat == 1
                                         else seats[p.seat]) for p in base.players])
    message = feed.message(table, record.id, revision, 1.0, record, tournament=tournament,
                           round=number)
    return feed.topic(table, record.id), feed.encode(message)
