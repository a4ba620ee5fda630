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

from typing import Any, ClassVar

import msgspec

from contract import events
from judge.game.actions import Offer
from judge.game.book import NoOptions
from judge.game.state import Game, Refused, Result


class Procedure:
    """One vote procedure. A module of ``judge.game.votes`` defines a subclass and an instance
    of it as ``PROCEDURE``; its ``name`` is what a book's ``[vote] procedure`` names."""

    name: ClassVar[str]
    Options: ClassVar[type[msgspec.Struct]] = NoOptions
    #: the book's ``[cite]`` keys the procedure cites (the book must give them)
    cites: ClassVar[tuple[str, ...]] = ()
    stages: ClassVar[tuple[str, ...]] = ("vote", "question")

    def start(self, game: Game) -> Result:
        raise NotImplementedError

    def revote(self, game: Game) -> Result:
        raise NotImplementedError

    def on_result(self, game: Game, result: events.VoteResult) -> Result:
        raise NotImplementedError

    def options(self, game: Game) -> Any:
        return game.book.vote.options

    def offers(self, game: Game) -> list[Offer]:
        """The judge's decisions the procedure asks for now (``choose`` offers with ``args``
        ``{"of": "vote"}``: the classic club's hidden roulette number...). Default: none."""
        return []

    def choose(self, game: Game, value: Any) -> Result:
        raise Refused("the vote asks the judge nothing now")
