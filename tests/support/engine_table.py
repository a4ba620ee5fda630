"""A simulated table for the pure engine: it answers the commands ``judge.game.step`` sends with
the events the real table would publish (docs/mqtt-api.md), its players' choices drawn by the
caller. It keeps to the table preset's vote rules the judge reads (``TablePreset``): the left-over
votes (the last nominee's, or abstaining), the fork gap of a first round, abstaining winning;
and to the preset's ``early_finish``, which only the table reads (a vote ends once the votes
still to come cannot change who leaves).

Events are queued (``pending``) rather than applied: the test decides when the table speaks, so a
judge's tap can come between a step opening and its result, or between two counts.
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from contract import commands as c
from judge.game import Game, TableEvent
from judge.game.book import preset_path
from tests.support.table_event import table_event

#: the players' choices: pick(options, at_most) -> a sub-list of options
Pick = Callable[[Sequence[int], int], list[int]]


@dataclass
class Vote:
    candidates: list[int]
    voters: list[int]
    round: int
    counted: dict[int, list[int]] = field(default_factory=dict)  # candidate -> its voters
    at: int = 0  # the candidate whose count is proposed
    question: bool = False


@dataclass
class SimTable:
    pick: Pick
    pending: deque[TableEvent] = field(default_factory=deque)
    vote: Vote | None = None
    step: str | None = None
    step_picks: dict[int, list[int]] = field(default_factory=dict)
    actors: list[int] = field(default_factory=list)
    _proposed: list[int] = field(default_factory=list)

    def hear(self, game: Game, sent: list[Any]) -> None:
        """The commands the core just sent, on ``game`` as it is now."""
        for command in sent:
            payload = command.payload
            if isinstance(payload, c.VoteStart):
                nominees = list(payload.nominees) + ([0] if payload.against_all else [])
                self.vote = Vote(nominees, list(payload.voters), payload.round)
                self._propose(game)
            elif isinstance(payload, c.VoteQuestion):
                self.vote = Vote([0], list(payload.voters), 1, question=True)
                self._propose(game)
            elif command.spec.verb in ("vote/confirm", "vote/correct") and self.vote:
                voters = list(payload.voters) if isinstance(payload, c.VoteCorrect) \
                    else self._proposed
                self._confirm(game, voters, "correction" if isinstance(
                    payload, c.VoteCorrect) else "command")
            elif command.spec.verb == "vote/reject" and self.vote:
                self._propose(game)
            elif command.spec.verb == "vote/cancel":
                self.vote = None
            elif isinstance(payload, c.NightStepCommand):
                self.step, self.actors = payload.step, list(payload.actors)
                alive = list(game.alive)
                self.step_picks = {a: self.pick(alive, payload.picks) for a in payload.actors
                                   if self.pick([0, 1], 1) == [1]}
                self.pending.append(self._result())
            elif command.spec.verb == "night/stop" and self.step is not None:
                pass  # the result is queued already: it comes now, or when the test says
            elif isinstance(payload, c.TimerStart) and payload.kind == "night":
                self.pending.append(table_event("event/timer", {
                    "seat": None, "kind": "night", "state": "ended"}))

    def _propose(self, game: Game) -> None:
        vote = self.vote
        assert vote is not None
        candidate = vote.candidates[vote.at]
        free = [v for v in vote.voters if not any(v in vs for vs in vote.counted.values())]
        chosen = self.pick(free, len(free))
        leftover: list[int] = []
        last = vote.at == len(vote.candidates) - 1
        if last and not vote.question and game.rules.preset.vote.leftover == "last_nominee":
            leftover = [v for v in free if v not in chosen]
        self._proposed = chosen + leftover
        self.pending.append(table_event("event/vote/proposed", {
            "candidate": candidate, "count": len(chosen) + len(leftover), "voters": chosen,
            "leftover": leftover}))

    def _confirm(self, game: Game, voters: list[int], by: str) -> None:
        vote = self.vote
        assert vote is not None
        candidate = vote.candidates[vote.at]
        vote.counted[candidate] = voters
        self.pending.append(table_event("event/vote/confirmed", {
            "candidate": candidate, "count": len(voters), "voters": voters, "by": by}))
        vote.at += 1
        if vote.at < len(vote.candidates) and not _decided(game, vote):
            self._propose(game)
            return
        self.pending.append(self._vote_result(game, vote))
        self.vote = None

    def _vote_result(self, game: Game, vote: Vote) -> TableEvent:
        counts = {k: len(v) for k, v in vote.counted.items()}
        kind = "question" if vote.question else "nominees"
        body: dict[str, Any] = {"kind": kind, "counts": [
            {"candidate": k, "count": n} for k, n in counts.items()]}
        if vote.question:
            yes = counts[0]
            body.update(outcome="yes" if yes * 2 > len(vote.voters) else "no", yes_count=yes,
                        voters_count=len(vote.voters))
            return table_event("event/vote/result", body)
        rules = game.rules.preset.vote
        top = max(counts.values())
        cast = sum(counts.values())
        if rules.abstain_wins and len(vote.voters) - cast > top:
            return table_event("event/vote/result", {**body, "outcome": "night"})
        gap = rules.fork_gap if vote.round == 1 else 0
        near = [k for k in vote.candidates if k in counts and counts[k] >= top - gap]
        if len(near) > 1:
            outcome = "fork" if gap and any(counts[k] != top for k in near) else "tie"
            return table_event("event/vote/result", {**body, "outcome": outcome,
                                                     "tied": near})
        if near == [0]:
            return table_event("event/vote/result", {**body, "outcome": "against_all"})
        return table_event("event/vote/result", {**body, "outcome": "eliminated",
                                                 "eliminated": near[0]})

    def _result(self) -> TableEvent:
        picks = [{"actor": a, "picks": p, "miss": None} for a, p in self.step_picks.items()]
        missing = [a for a in self.actors if a not in self.step_picks]
        targets = {tuple(picked) for picked in self.step_picks.values()}
        agreed = None if len(self.actors) < 2 else (
            not missing and len(targets) == 1 and len(next(iter(targets))) == 1)
        return table_event("private/night/result", {
            "step": self.step, "picks": picks, "missing": missing, "agreed": agreed})


@cache
def _early_finish(preset: Path) -> bool:
    return bool(tomllib.loads(preset.read_text(encoding="utf-8")).get("vote", {}).get(
        "early_finish", False))


def _decided(game: Game, vote: Vote) -> bool:
    """The preset's ``early_finish`` (``controller.core.vote``): a confirmed candidate has more
    votes than any other confirmed one and than the votes still to be cast."""
    if vote.question or not _early_finish(preset_path(game.book)):
        return False
    counts = sorted((len(v) for v in vote.counted.values()), reverse=True)
    remaining = len(vote.voters) - sum(counts)
    gap = game.rules.preset.vote.fork_gap if vote.round == 1 else 0
    return counts[0] > max([remaining, *counts[1:]]) + gap
