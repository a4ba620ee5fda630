"""The scripted players: ten (or a book's number of) players who decide with a seeded random
generator what a real table decides, so a game plays by itself, the same seed the same game.

Not rules: the rules are the engine's. The players only choose, as people at a table would:
whom to nominate, whom to vote against, whom the mafia shoot, whom the Don and the Sheriff
check. ``examples/fiim_game.py`` plays them as its own rules core over MQTT, the hall's simulated
tournament through it, and ``bench/evening.py`` at the judge's panel, through its live channel.

    players = Players.deal(random.Random(7), load_rules("fiim"), 10)
    players.ballot(4, [5, 6])     # whom seat 4 votes against, or None (the vote goes to the last)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from judge.game.state import Rules

SHERIFF, CIVILIAN = "sheriff", "civilian"
#: the side the scripted mafia plays for: "black" in FIIM and the clubs', "mafia" online
BLACK = ("black", "mafia")


@dataclass
class Players:
    """The scripted players: who they are (``black``: the book's black side) and what they
    choose."""

    rng: random.Random
    roles: dict[int, str]
    blacks: set[str]
    nominate: float = 0.5  # how often a speaker nominates someone (the Sheriff who knows: always)
    sheriff_knows: dict[int, bool] = field(default_factory=dict)  # seat -> is mafia
    don_checked: set[int] = field(default_factory=set)

    @classmethod
    def deal(cls, rng: random.Random, rules: Rules, seats: int,
             nominate: float = 0.5) -> Players:
        """The book's deck for ``seats`` players, shuffled (FIIM's: the Don, two mafia, the
        Sheriff on the first four seats the shuffle gives, as it always was)."""
        book = rules.book
        row = book.deck_for(seats)
        assert row is not None  # new_game refused a table size the book does not play
        order = list(range(1, seats + 1))
        rng.shuffle(order)
        cards = sorted(row.cards(seats), key=lambda r: (r == CIVILIAN, list(book.roles).index(r)))
        roles = dict(zip(order, cards, strict=True))
        return cls(rng, roles, {r for r in book.roles if book.team_of(r) in BLACK}, nominate)

    def black(self, seat: int) -> bool:
        return self.roles[seat] in self.blacks

    def nominee(self, speaker: int, alive: list[int], nominees: list[int]) -> int | None:
        """Whom a speaker nominates, or None: the Sheriff a mafia they found, the mafia a
        townsperson, a townsperson someone now and then."""
        others = [s for s in alive if s != speaker and s not in nominees]
        found = [s for s in others if self.sheriff_knows.get(s)]
        if self.roles[speaker] == SHERIFF and found:
            return found[0]
        if self.black(speaker):
            others = [s for s in others if not self.black(s)]
        if not others or self.rng.random() < 1 - self.nominate:  # 0.5: as it always was
            return None
        return self.rng.choice(others)

    def ballot(self, voter: int, candidates: list[int]) -> int | None:
        """Whom a voter puts a fist up for, or None (their vote then goes to the last)."""
        found = [c for c in candidates if self.sheriff_knows.get(c)]
        if self.roles[voter] == SHERIFF and found:
            return found[0]
        if self.black(voter):
            town = [c for c in candidates if not self.black(c)]
            return self.rng.choice(town) if town else candidates[-1]
        return None if self.rng.random() < 0.15 else self.rng.choice(candidates)

    def split(self, voters: list[int], candidates: list[int]) -> dict[int, int | None]:
        """Day 1: the table splits evenly between the first two candidates."""
        shuffled = list(voters)
        self.rng.shuffle(shuffled)
        half = len(shuffled) // 2
        return {v: candidates[0] if i < half else candidates[1] for i, v in enumerate(shuffled)}

    def target(self, alive: list[int]) -> int:
        """The Don's choice for the shot: the Sheriff once found, else a townsperson."""
        town = [s for s in alive if not self.black(s)]
        found = [s for s in town if self.roles[s] == SHERIFF and s in self.don_checked]
        return found[0] if found else self.rng.choice(town)

    def others(self, actor: int, alive: list[int], picks: int) -> list[int]:
        """Any other step's picks (a heal, the maniac's kill, a silence...): ``picks`` seats
        of the others in the game, at random."""
        others = [s for s in alive if s != actor]
        return self.rng.sample(others, min(picks, len(others)))

    def check(self, checker: int, alive: list[int], known: set[int]) -> int:
        choices = [s for s in alive if s != checker and s not in known
                   and not (self.black(checker) and self.black(s))]
        return self.rng.choice(choices or [s for s in alive if s != checker])

    def night_picks(self, step: str, mechanism: str, actors: list[int], alive: list[int],
                    night: int, picks: int) -> dict[int, list[int]]:
        """What each actor of a night step types: the mafia's shot (on the second night the
        last of them aims elsewhere: once a game a miss), the best move's three seats, a
        check's one, and any other step's ``picks`` seats (``mechanism``: the book's, of the
        step)."""
        if step == "mafia_shot" or (mechanism == "kill" and len(actors) > 1):  # the mafia's
            aim = self.target(alive)
            chosen = {s: [aim] for s in actors}
            if night == 2 and len(actors) > 1:
                chosen[actors[-1]] = [self.rng.choice([s for s in alive if s != aim])]
            return chosen
        if step == "best_move":
            return {actors[0]: self.rng.sample([s for s in alive if s != actors[0]], 3)}
        if mechanism == "check":
            known = self.don_checked if step == "don_check" else set(self.sheriff_knows)
            return {actors[0]: [self.check(actors[0], alive, set(known))]}
        return {a: self.others(a, alive, picks) for a in actors}

    def checked(self, step: str, seat: int, answer: bool) -> None:
        """What a check told its checker: the Don remembers the seat, the Sheriff the answer."""
        if step == "don_check":
            self.don_checked.add(seat)
        elif step == "sheriff_check":
            self.sheriff_knows[seat] = answer
