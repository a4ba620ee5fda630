"""A withdrawal at the organiser's desk (hall/desk.py, ``withdraw_player``) on a real store and
a real asyncio loop: refused with the reason, then the rounds to come seated again in a
thread, the answer in the organiser's language, a substitute named the same way; and the
final's fixed seats passed through ``seed_final``."""

from __future__ import annotations

import asyncio

import pytest

from hall.desk import Desk
from hall.store import HallStore
from kit.i18n import render
from results import scoring
from tests.support.waiting import until_async

PRESETS = scoring.presets()
NAMES = "\n".join(f"Player {n}" for n in range(1, 31))


def test_a_player_withdrawn_at_the_desk(tmp_path):
    published: list[str] = []
    desk_of: list[Desk] = []

    async def flow() -> None:
        desk = Desk(HallStore(tmp_path / "board.db"), PRESETS,
                    lambda topic, _: published.append(topic), lambda: None)
        desk_of.append(desk)
        desk.act({"action": "create_tournament", "name": "Cup", "players": NAMES, "games": 3,
                  "tables": 3, "restrictions": "away, 1, Player 4"})
        desk.act({"action": "generate_seating", "seed": 1, "seconds": 0.3})
        await until_async(lambda: desk.working is None, what="the seating made")
        with pytest.raises(ValueError):  # malformed: the channel answers so (hall/board.py)
            desk.act({"action": "withdraw_player", "player": "Player 7", "from_round": "soon"})
        early = desk.act({"action": "withdraw_player", "player": "Player 7", "from_round": 2})
        await until_async(lambda: desk.working is None, what="the withdrawal refused")
        assert early["type"] == "done" and str(desk.notice) == (
            "the withdrawal refused: round 1 has not been sent to the tables")
        desk.act({"action": "send_tournament_round", "round": 1})
        desk.act({"action": "withdraw_player", "player": "Player 7", "from_round": 2,
                  "seconds": 0.3})
        await until_async(lambda: desk.working is None, what="the rounds seated again")
        assert str(desk.notice) == ("Player 7 withdrawn: the main stage is seated again "
                                    "from round 2 on")
        assert render(desk.notice, "ru") == ("Player 7 выбывает: основной этап рассажен "
                                             "заново с тура 2")
        assert desk.tournament is not None
        assert [len(r.seating) for r in desk.tournament.rounds] == [3, 2, 2]
        desk.act({"action": "send_tournament_round", "round": 2})
        desk.act({"action": "withdraw_player", "player": "Player 8", "from_round": 3,
                  "substitute": "Zoe"})
        await until_async(lambda: desk.working is None, what="the substitute in")
        assert str(desk.notice) == "Zoe plays for Player 8 from round 3 on"
        assert render(desk.notice, "ru") == "Zoe играет вместо Player 8 с тура 3"
        assert "Zoe" in desk.tournament.players

    asyncio.run(flow())
    assert published == ["mafia/table-1/seating", "mafia/table-2/seating",
                         "mafia/table-3/seating", "mafia/table-1/seating",
                         "mafia/table-2/seating"]
    [desk] = desk_of
    assert desk.tournament is not None
    kept_away = [t for r in desk.tournament.rounds for t, seats in r.seating.items()
                 if "Player 4" in seats.values()]
    assert "table-1" not in kept_away
