"""What a page is shown of a game: everything for the judge, a public projection for anyone else.

Secrecy by construction: roles, night picks, check results and the best move are
added only by ``judge_view``; ``public_view`` is built without them, so nothing private can leak
through a forgotten field.
"""

from __future__ import annotations

from typing import Any

import msgspec

from judge.game import Game


def public_view(game: Game) -> dict[str, Any]:
    """The game as the hall may see it: seats, names, standings, the floor, the vote."""
    vote = None
    if game.vote is not None:
        proposed = game.vote.proposed
        vote = {"kind": game.vote.kind, "candidates": list(game.vote.candidates),
                "counts": [list(c) for c in game.vote.counts],
                "proposed": None if proposed is None else {
                    "candidate": proposed.candidate, "count": proposed.count,
                    "voters": list(proposed.voters),
                    "anomalies": msgspec.to_builtins(proposed.anomalies)}}
    return {
        "version": game.version, "stage": game.stage, "day": game.day, "night": game.night,
        "seats": [{"seat": p.seat, "name": p.name, "in_game": p.in_game, "fouls": p.fouls,
                   "silenced": p.silenced} for p in game.players],
        "floor": game.floor, "speakers": list(game.speakers), "nominees": list(game.nominees),
        "vote": vote, "leaving": list(game.leaving), "winner": game.winner,
        "can_undo": bool(game.undo),
    }


def judge_view(game: Game) -> dict[str, Any]:
    """The game from the judge's chair: the public view plus the secrets."""
    view = public_view(game)
    for seat, player in zip(view["seats"], game.players, strict=True):
        seat["role"] = player.role
    view.update(
        dealt=all(p.role for p in game.players),
        # which step runs tells who is still in: no Don's check once the Don is out, a best
        # move only after a first-night kill (DESIGN 10: night steps are private at the table)
        night_step=game.running_step if game.stage == "night" else None,
        night_steps=list(game.night_steps), killed=game.killed,
        checks=[{"step": s, "night": n, "seat": seat, "answer": a}
                for s, n, seat, a in game.checks],
        best_move=list(game.best_move), last_action=game.last_action)
    return view
