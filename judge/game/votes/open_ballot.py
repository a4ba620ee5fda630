"""The classic club's vote («5. Голосование»): every player in the game is a candidate, one vote
each, the most votes leaves with the card shown; a tie goes to «Русскую рулетку».

- "каждый из игроков, сидящих за столом, отдает свой голос за того, кого считает
  представителем мафии": no nominations; the candidates are every player in the game, the
  voters every one who may vote (``Game.voters``: not the frozen). A vote not given counts for
  nobody (the table preset's ``leftover = "abstain"``: the digest's reading, as the book has no
  last nominee to give it to).
- "Порядок голосования определяет ведущий": seat order from the day's opener, or from the seat
  the judge names during the day (``choose`` of ``vote`` with a seat).
- "Игрок, получивший наибольшее количество голосов покидает игру, перевернув карту": the
  table's plurality; no vote given at all: nobody leaves (the digest's reading).
- The linked vote («Детектив \\ Detective»: "Должен голосовать на дневном голосовании так, как
  и Шеф Полиции … ведущий все равно прибавляет голос тому, за кого проголосовал Шеф Полиции"):
  ``follows = { detective = "chief" }``: while both are in the game and vote, the detective's
  vote is where the chief's is. At each count the panel's confirm corrects the table's: the
  detective added to the chief's candidate, taken off another (``counted``).
- The roulette («Русскую рулетку»): "Ведущий загадывает цифру от 1 до 7 … и записывает ее.
  Игроки … по очереди называют любые цифры от 1 до 7. Как только названное число совпадет с
  загаданным ведущим числом, назвавший это число игрок погибает." No speeches and no re-vote:
  the judge enters his hidden number (the panel keeps it from every public view until it is
  hit), then each tied player's call as it is spoken (the calls are aloud: no keypad), in the
  order they were voted on, round and round, no number twice; the caller of the judge's number
  leaves as voted out. The table's ``roulette`` night step is not used: it takes a number in
  secret at night, where these calls are made aloud by day (the digest, "Tie").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

import msgspec

from contract import events
from judge.game import table
from judge.game.actions import Number, Offer, Param, Seat, decision
from judge.game.book import Name
from judge.game.leaving import last_words
from judge.game.state import Game, Go, Refused, Result, Vote, with_note
from judge.game.votes.base import Counted, Procedure, ended
from kit.i18n import Line, Words

#: the notes the vote keeps: the seat the judge's order starts from; the roulette's tied
#: players (in vote order), the judge's hidden number, the numbers called and who called them
FIRST, TIED, NUMBER, CALLED, CALLERS = ("open_ballot.first", "open_ballot.tied",
                                        "open_ballot.number", "open_ballot.called",
                                        "open_ballot.callers")


class OpenBallotOptions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    follows: dict[Name, Name] = {}  # a card whose vote follows another's: { detective = "chief" }
    numbers: int = 7  # the roulette's revolver: "цифру от 1 до 7 (количество выстрелов)"


class OpenBallot(Procedure):
    name = "open_ballot"
    Options = OpenBallotOptions
    cites = ("vote", "most_votes", "no_votes", "roulette", "follows")
    stages = ("vote", "roulette")
    #: the seat the vote starts from; the roulette's hidden number, each tied player's call,
    #: and its end when every tied player is out meanwhile (no value)
    decisions: ClassVar[dict[str, Any]] = {"vote_first": Seat, "roulette_number": Number,
                                           "roulette_call": Number, "roulette_end": None}

    # ------------------------------------------------------------------ the vote

    def order(self, game: Game) -> tuple[int, ...]:
        """Every player in the game, in seat order from the judge's first seat (or the
        day's opener)."""
        alive = game.alive
        first = next((s for s in game.note(FIRST) if s in alive), game.opener)
        start = alive.index(first) if first in alive else 0
        return alive[start:] + alive[:start]

    def start(self, game: Game) -> Result:
        cite = game.rules.cite
        candidates = self.order(game)
        game = with_note(game, FIRST, ())
        return Result(replace(game, stage="vote", vote=Vote("open_ballot", candidates)),
                      [table.vote_start(candidates, game.voters, game.table_day)],
                      [Line(cite("vote"), "line.open_ballot", seats=list(candidates))])

    def revote(self, game: Game) -> Result:  # the book has no defence speeches to follow
        raise Refused(Line(game.rules.cite("roulette"), "refused.open_ballot.revote"))

    def counted(self, game: Game, count: events.VoteProposed | events.VoteConfirmed
                ) -> Counted:
        """The follower's vote where the leader's is: added to the leader's candidate (when
        it is not counted yet), taken off any other."""
        options: OpenBallotOptions = self.options(game)
        table_count = super().counted(game, count)
        voters = set(count.voters)
        counted = game.vote.counted if game.vote is not None else ()
        for follower_role, leader_role in options.follows.items():
            followers, leaders = game.with_role(follower_role), game.with_role(leader_role)
            if not followers or not leaders:
                continue  # the chief out: the detective is the chief now and votes freely
            follower, leader = followers[0], leaders[0]
            if follower not in game.voters or leader not in game.voters:
                continue  # frozen: no vote to follow, or none to give
            said = {"seat": follower, "leader": leader, "candidate": count.candidate,
                    "role": game.book.role_title(follower_role),
                    "leads": game.book.role_title(leader_role)}
            cite = game.rules.cite("follows")
            if leader in voters and follower not in voters and follower not in counted:
                return replace(table_count, voters=tuple(sorted({*count.voters, follower})),
                               why=Line(cite, "line.open_ballot.follows", **said))
            if follower in voters and leader not in voters:
                return replace(table_count,
                               voters=tuple(v for v in count.voters if v != follower),
                               why=Line(cite, "line.open_ballot.follows.not", **said))
        return table_count

    def on_result(self, game: Game, result: events.VoteResult) -> Result:
        cite = game.rules.cite
        game = replace(game, vote=replace(game.vote, proposed=None) if game.vote else None)
        if result.outcome == "eliminated" and result.eliminated in game.alive:
            seat = result.eliminated
            return last_words(game, (seat,), Line(cite("most_votes"), "line.vote.out",
                                                  seat=seat), "night")
        if result.outcome == "tie" and any(c.count for c in result.counts):
            tied = tuple(s for s in result.tied if s in game.alive)
            game = replace(with_note(game, TIED, tied), stage="roulette", vote=None)
            return Result(game, [], [Line(cite("roulette"), "line.roulette",
                                          seats=list(tied), numbers=self._numbers(game))])
        why = Line(cite("no_votes"), "line.open_ballot.none") if result.outcome == "tie" \
            else ended(result.outcome)
        return Result(game, [], [], Go("nightfall", why))

    # ------------------------------------------------------------------ the judge's choices

    def _numbers(self, game: Game) -> int:
        options: OpenBallotOptions = self.options(game)
        return options.numbers

    def caller(self, game: Game) -> int | None:
        """Whose call is next: the tied player after the last caller, in vote order, who is
        still in the game."""
        tied = [s for s in game.note(TIED) if s in game.alive]
        if not tied:
            return None
        callers = game.note(CALLERS)
        if not callers:
            return tied[0]
        order = game.note(TIED)
        after = order.index(callers[-1])
        return next(s for s in (*order[after + 1:], *order[:after + 1]) if s in tied)

    def tied(self, game: Game) -> tuple[int, ...]:
        """The roulette's players still in the game, in their calling order."""
        return tuple(s for s in game.note(TIED) if s in game.alive) \
            if game.stage == "roulette" else ()

    def offers(self, game: Game) -> list[Offer]:
        if game.stage == "day":
            return [decision("vote_first", "vote", key="vote-first", group="vote",
                             label=Words("offer.open_ballot.first"),
                             params=[Param(name="value", kind="seat", seats=list(game.alive))])]
        if game.stage != "roulette":
            return []
        numbers: list[str | int] = [*range(1, self._numbers(game) + 1)]
        if not game.note(NUMBER):
            return [decision("roulette_number", "vote", key="roulette-number", group="vote",
                             primary=True, label=Words("offer.roulette.number"),
                             params=[Param(name="value", kind="choice", choices=numbers)])]
        caller = self.caller(game)
        if caller is None:  # every tied player was taken out meanwhile
            return [decision("roulette_end", "vote", key="roulette-end", group="vote",
                             primary=True, label=Words("offer.roulette.end"))]
        free: list[str | int] = [n for n in numbers if n not in game.note(CALLED)]
        return [decision("roulette_call", "vote", key="roulette-call", group="vote",
                         primary=True, label=Words("offer.roulette.call", seat=caller),
                         params=[Param(name="value", kind="choice", choices=free)])]

    def choose(self, game: Game, value: Any) -> Result:
        if game.stage == "day":
            return self._first(game, value)
        roulette = game.rules.cite("roulette")
        if game.stage != "roulette":
            raise Refused(Line(roulette, "refused.roulette.none"))
        if not game.note(NUMBER):
            return Result(with_note(game, NUMBER, (self._number(game, value),)), [],
                          [Line(roulette, "line.roulette.written",
                                numbers=self._numbers(game))])
        caller = self.caller(game)
        if caller is None:
            return self._over(game, Go("nightfall", Line(roulette, "line.roulette.nobody")))
        number = self._number(game, value)
        if number in game.note(CALLED):
            raise Refused(Line(roulette, "refused.roulette.called", number=number))
        game = with_note(with_note(game, CALLED, (*game.note(CALLED), number)), CALLERS,
                         (*game.note(CALLERS), caller))
        if number != game.note(NUMBER)[0]:
            return Result(game, [], [Line(roulette, "line.roulette.miss", seat=caller,
                                          number=number)])
        out = self._over(game, None)
        return last_words(out.game, (caller,), Line(roulette, "line.roulette.hit", seat=caller,
                                                    number=number), "night")

    def _first(self, game: Game, value: Any) -> Result:
        """The judge's order: the vote starts from ``value``'s seat."""
        vote = game.rules.cite("vote")
        if not isinstance(value, int) or isinstance(value, bool) or value not in game.alive:
            raise Refused(Line(vote, "refused.open_ballot.first", seats=list(game.alive)))
        return Result(with_note(game, FIRST, (value,)), [],
                      [Line(vote, "line.open_ballot.first", seat=value)])

    def _number(self, game: Game, value: int) -> int:
        """A number of the revolver: 1 to the book's ``numbers`` (the value is a number
        already, its decision's shape: ``decisions``)."""
        top = self._numbers(game)
        if not 1 <= value <= top:
            raise Refused(Line(game.rules.cite("roulette"), "refused.roulette.number",
                               numbers=top))
        return value

    def _over(self, game: Game, then: Go | None) -> Result:
        """The roulette's notes gone (the number with them)."""
        for key in (TIED, NUMBER, CALLED, CALLERS):
            game = with_note(game, key, ())
        return Result(game, [], [], then)


PROCEDURE = OpenBallot()
