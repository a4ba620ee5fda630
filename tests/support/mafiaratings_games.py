"""Random whole FIIM games as journal inputs, for the export's property tests: a driver that
plays the game core (``judge.game.step``) as a table and a judge would, its choices drawn from a
``random.Random`` hypothesis controls.

Every input is one the table or the judge could send at that point: nominations in speeches,
each alive player's hand in every vote (re-votes and "all leave?" included), the mafia agreeing
on a victim or missing, the checks, the best move, fouls (a fourth takes a player out), and with
``disqualify_rate`` the judge's disqualifications. A game that has not ended after ``limit``
inputs stops there, unfinished.
"""

from __future__ import annotations

import random

from judge.game import BLACK, DON, SHERIFF, Action, Game, Refused, TableEvent, new_game, step
from tests.support.record_game import ROLES
from tests.support.table_event import table_event


class Player:
    """Feeds the inputs to the game core as it adds them, so each choice sees the game."""

    def __init__(self, rng: random.Random, t0: float = 1_764_577_800.0):
        self.rng = rng
        self.t = t0
        self.game: Game = new_game()
        self.inputs: list[tuple[Action | TableEvent, float]] = []
        self.nominators: dict[int, set[int]] = {}  # day -> who nominated
        self.foul_rate = 0.0
        self.disqualify_rate = 0.0

    def add(self, given: Action | TableEvent) -> None:
        """Play one input; one the game refuses is not kept (the driver chose wrong)."""
        at = self.t + self.rng.choice((0.5, 1.0, 7.0))
        try:
            self.game = step(self.game, given, at)[0]
        except Refused:
            return
        self.t = at
        self.inputs.append((given, at))

    def tap(self, kind: str, **args) -> None:
        self.add(Action(kind, args))

    def event(self, topic: str, **body) -> None:
        self.add(table_event(topic, body))


def random_game(rng: random.Random, limit: int = 600, disqualify_rate: float = 0.0
                ) -> list[tuple[Action | TableEvent, float]]:
    p = Player(rng)
    p.disqualify_rate = disqualify_rate
    p.event("state", day=0)
    for seat in rng.sample(range(1, 11), rng.randint(0, 10)):
        p.tap("name", seat=seat, name=f"player {seat}")
    roles = list(ROLES)
    rng.shuffle(roles)
    p.tap("deal", roles=roles)
    p.tap("start")
    p.foul_rate = rng.choice((0.02, 0.2))  # some games end by a fourth foul
    while p.game.stage != "over" and len(p.inputs) < limit:
        _move(p, rng)
    return p.inputs


def _move(p: Player, rng: random.Random) -> None:
    game = p.game
    if p.disqualify_rate and game.stage == "day" and rng.random() < p.disqualify_rate:
        p.tap("disqualify", seat=rng.choice(game.alive), reason="a grave violation")
        return
    if game.stage in ("day", "defence", "last_words") and rng.random() < p.foul_rate:
        p.tap("foul", seat=rng.choice(game.alive))
        return
    if game.stage == "day" and game.floor is not None and rng.random() < 0.5:
        free = [s for s in game.alive if s not in game.nominees]
        if free and game.floor not in p.nominators.get(game.day, set()):
            # FIIM 4.4.2: one nomination a speech; each player speaks once a day
            p.nominators.setdefault(game.day, set()).add(game.floor)
            p.event("event/nomination", by=game.floor, seat=rng.choice(free),
                    outcome="accepted")
    if game.stage == "vote":
        _vote(p, rng)
    elif game.stage == "question":
        _question(p, rng)
    elif game.stage == "night" and game.running_step is None and game.night_steps:
        p.tap("next")
        _night_step(p, rng)
    else:
        p.tap("next")


def _vote(p: Player, rng: random.Random) -> None:
    assert p.game.vote is not None
    candidates = list(p.game.vote.candidates)
    hands: dict[int, list[int]] = {c: [] for c in candidates}
    for voter in p.game.alive:
        hands[rng.choice(candidates)].append(voter)
    for candidate in candidates:
        p.event("event/vote/proposed", candidate=candidate, count=len(hands[candidate]),
                voters=hands[candidate])
        p.tap("confirm")
        p.event("event/vote/confirmed", candidate=candidate, voters=hands[candidate],
                leftover=[], count=len(hands[candidate]), by="command", reason=None)
    most = max(len(v) for v in hands.values())
    top = [c for c in candidates if len(hands[c]) == most]
    if len(top) == 1:
        p.event("event/vote/result", outcome="eliminated", eliminated=top[0], tied=[])
    else:
        p.event("event/vote/result", outcome="tie", tied=top)


def _question(p: Player, rng: random.Random) -> None:
    alive = list(p.game.alive)
    yes = [s for s in alive if rng.random() < 0.5]
    p.event("event/vote/proposed", candidate=0, count=len(yes), voters=yes)
    p.tap("confirm")
    p.event("event/vote/confirmed", candidate=0, voters=yes, leftover=[], count=len(yes),
            by="command", reason=None)
    p.event("event/vote/result", kind="question",
            outcome="yes" if len(yes) * 2 > len(alive) else "no", yes=yes,
            yes_count=len(yes), voters_count=len(alive))


def _night_step(p: Player, rng: random.Random) -> None:
    game = p.game
    name = game.running_step
    if name == "mafia_shot":
        actors = game.with_role(*BLACK)
        target = rng.choice(game.alive)
        picks = {a: [target] for a in actors}
        if rng.random() < 0.2:  # 4.5.5: one picks another seat: a miss
            picks[rng.choice(actors)] = [rng.choice(game.alive)]
        agreed = len({t[0] for t in picks.values()}) == 1
        body = {"step": name, "missing": [], "agreed": agreed,
                "picks": [{"actor": a, "picks": t, "miss": None} for a, t in picks.items()]}
    elif name == "best_move":
        body = {"step": name, "missing": [], "agreed": None,
                "picks": [{"actor": game.killed, "picks": rng.sample(range(1, 11), 3),
                           "miss": None}]}
    else:
        actor = game.with_role(DON if name == "don_check" else SHERIFF)[0]
        body = {"step": name, "missing": [], "agreed": None,
                "picks": [{"actor": actor, "picks": [rng.choice(game.alive)], "miss": None}]}
    p.event("private/night/result", **body)
