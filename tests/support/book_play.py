"""A whole game of any book played through the judge's core, input by input, with the journal
kept for ``judge.record.document.build``: the judge's Next until a stage, a vote's ballots and
result as the table sends them, a night's steps each answered with its actors' picks.

    play = BookPlay(load_rules("crow-club"), 13, roles=ROLES, add=["firefighter"])
    play.to("vote").vote({5: [1, 2, 3]}, outcome="eliminated", eliminated=5)
    play.night({"mafia_shot": {1: [7]}})
    record = play.record()
"""

from __future__ import annotations

from judge.game import Action, Rules, TableEvent, new_game, step
from judge.record import document as rec
from tests.support.table_event import table_event

#: the journal's first moment (2025-12-01 08:30 UTC), one input a second after it
T0 = 1_764_577_800.0


def tap(kind: str, **args: object) -> Action:
    return Action(kind, dict(args))


class BookPlay:
    """One game by ``rules`` at ``seats`` seats, dealt ``roles`` (``add``: the optional cards
    dealt; ``deal``: the judge's deal inputs instead, a deal by called numbers), started;
    every input goes into ``journal``."""

    def __init__(self, rules: Rules, seats: int, roles: list[str], add: tuple[str, ...] = (),
                 deal: tuple[Action, ...] = ()):
        self.rules, self.seats = rules, seats
        self.game = new_game(seats, rules=rules)
        self.journal: list[Action | TableEvent] = []
        self.give(*(deal or (tap("deal", roles=roles, add=list(add)),)), tap("start"))

    def give(self, *inputs: Action | TableEvent) -> BookPlay:
        for given in inputs:
            self.game, _, _ = step(self.game, given, T0 + len(self.journal))
            self.journal.append(given)
        return self

    def to(self, *stages: str) -> BookPlay:
        """The judge's Next until the game is in one of ``stages`` (at most 100 of them)."""
        for _ in range(100):
            if self.game.stage in stages:
                return self
            self.give(tap("next"))
        raise AssertionError(f"no {stages} after 100 Nexts: {self.game.stage}")

    def vote(self, ballots: dict[int, list[int]], leftover: dict[int, list[int]] | None = None,
             **outcome: object) -> BookPlay:
        """The running vote's confirmed ballots (candidate -> voters; ``leftover``: candidate
        -> the seats whose unspent votes went to him) and the table's result."""
        for candidate, voters in ballots.items():
            spent = (leftover or {}).get(candidate, [])
            self.give(table_event("event/vote/confirmed", {
                "candidate": candidate, "voters": voters, "leftover": spent,
                "count": len(voters) + len(spent)}))
        return self.give(table_event("event/vote/result", dict(outcome)))

    def nominate(self, by: int, seat: int) -> BookPlay:
        return self.give(table_event("event/nomination", {"by": by, "seat": seat,
                                                          "outcome": "accepted"}))

    def night(self, picks: dict[str, dict[int, list[int]]]) -> BookPlay:
        """Tonight's steps in turn on the judge's Next, each answered with ``picks[step]``
        (actor -> seats; a step not given: nobody picks)."""
        while self.game.stage in ("night", "night0"):
            self.give(tap("next"))
            running = self.game.running_step
            if running is not None:
                self.give(table_event("private/night/result", {
                    "step": running, "missing": [],
                    "picks": [{"actor": a, "picks": p}
                              for a, p in picks.get(running, {}).items()]}))
        return self

    def record(self) -> rec.Record:
        built = rec.build([(g, T0 + i) for i, g in enumerate(self.journal)], "table-1",
                          self.rules, self.seats)
        assert built is not None
        return built
