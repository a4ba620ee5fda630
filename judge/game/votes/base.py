"""What a vote procedure is: the protocol every module of ``judge.game.votes`` keeps.

The table counts the fists and proposes each candidate's count; the judge confirms, rejects or
corrects it, whatever the procedure (``judge.game.counting``). A procedure is what the
book's day does with the results: which vote starts after the speeches (``start``), which after
the defence speeches (``revote``), and what each ``event/vote/result`` leads to
(``on_result``: a leaver's last words, defence speeches, a question, the night). It answers
with a ``Result`` whose ``then`` says where the game goes (``Go("nightfall", why)`` when nobody
leaves); ``stages`` are the game stages in which its votes run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec

from contract import events
from judge.game.actions import Offer
from judge.game.book import Book, NoOptions
from judge.game.state import Game, Refused, Result
from kit.i18n import Line, Words

#: a vote's outcome (the table's, ``contract.events.VoteOutcome``) in words: the sheet's result
#: line and the record line of a vote that ends where its procedure has no rule's own words
OUTCOMES = {"eliminated": "sheet.outcome.eliminated", "tie": "sheet.outcome.tie",
            "yes": "sheet.outcome.yes", "no": "sheet.outcome.no",
            "no_vote": "sheet.outcome.no_vote", "night": "sheet.outcome.night",
            "fork": "sheet.outcome.fork", "against_all": "sheet.outcome.against_all"}


def ended(outcome: str) -> Line:
    """The record line of a vote that ends on ``outcome`` where the procedure has no rule's
    words for it ("the vote ends: a tie"); an outcome the contract does not know, as it is."""
    key = OUTCOMES.get(outcome)
    return Line(None, "line.vote.ends", outcome=outcome if key is None else Words(key))


@dataclass(frozen=True)
class Counted:
    """A count as the book reads it (``Procedure.counted``)."""

    line: Line  # the record line of the count once it is final
    #: the voters the book counts when they are not the table's, and the line saying why
    voters: tuple[int, ...] | None = None
    why: Line | None = None


class Procedure:
    """One vote procedure. A module of ``judge.game.votes`` defines a subclass and an instance
    of it as ``PROCEDURE``; its ``name`` is what a book's ``[vote] procedure`` names."""

    name: ClassVar[str]
    Options: ClassVar[type[msgspec.Struct]] = NoOptions
    #: the book's ``[cite]`` keys the procedure cites (the book must give them)
    cites: ClassVar[tuple[str, ...]] = ()
    #: the book's ``[timings]`` the procedure's own speeches take, each with what it times (in
    #: English, for docs/book-timings.md; the book must give them)
    timings: ClassVar[dict[str, str]] = {}
    #: each decision its ``offers`` ask of the judge and the one shape its value takes (as
    #: ``Mechanism.decisions``)
    decisions: ClassVar[dict[str, Any]] = {}
    stages: ClassVar[tuple[str, ...]] = ("vote", "question")
    #: the protocol sheet's title for each of its own ``Vote.kind`` (the verdict, the top...);
    #: a kind not named is the day's "Vote", then "Re-vote n"
    titles: ClassVar[dict[str, str]] = {}
    #: the sheet's words for an outcome of one of its kinds where the table's would mislead
    #: (kind -> outcome -> key, its seats the message's ``seats``): the online book's first
    #: vote "eliminated" only sends the seat to the bench
    results: ClassVar[dict[str, dict[str, str]]] = {}
    #: candidate 0 of each of its vote kinds that has one, in words: what the judge counts
    #: when no seat is voted on (FIIM 4.4.12.3's "all leave?": its yes votes)
    asked: ClassVar[dict[str, str]] = {"question": "words.asked.question"}

    def start(self, game: Game) -> Result:
        raise NotImplementedError

    def revote(self, game: Game) -> Result:
        raise NotImplementedError

    def on_result(self, game: Game, result: events.VoteResult) -> Result:
        raise NotImplementedError

    def options(self, game: Game) -> Any:
        return game.book.vote.options

    def check(self, book: Book, options: Any) -> list[str]:
        """What the options' types cannot say (a team the book does not have), each problem
        with its key below ``vote`` (``options.x: ...``)."""
        return []

    def counted(self, game: Game, count: events.VoteProposed | events.VoteConfirmed
                ) -> Counted:
        """The book's reading of the table's count for one candidate: the record line of the
        count once it is final (a seat's votes, or, candidate 0, the question's yes: FIIM
        4.4.12.3 "all leave?"; the online book's verdict "for"), and, when the book counts
        other voters than the table's (the classic club's detective votes as the chief),
        those voters and the line that says why. The judge's confirm of a proposal the book
        counts otherwise goes to the table as a correction (``judge.game.counting``); the
        table's confirmed count is recorded with ``line``."""
        return Counted(Line(game.rules.cite("count"), "line.votes" if count.candidate
                            else "line.votes.question", seat=count.candidate,
                            count=count.count))

    def tied(self, game: Game) -> tuple[int, ...]:
        """The players in the game a tie left to be decided among now, outside a vote (the
        classic club's roulette: the tied who call numbers); shown to everyone, as the table
        hears it. Default: none."""
        return ()

    def offers(self, game: Game) -> list[Offer]:
        """The judge's decisions the procedure asks for now (``actions.decision`` offers of one
        of its ``decisions``, ``of`` ``"vote"``: the classic club's hidden roulette
        number...). Default: none."""
        return []

    def choose(self, game: Game, value: Any) -> Result:
        raise Refused(Line(None, "refused.choose.vote"))
