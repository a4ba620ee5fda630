"""The overlay's view in the shape of mafiaratings' ``api/get/current_game.php``, the endpoint
its own stream overlay (``plugins/obs/PlayersOverlayPlugin``) polls for the current game.

A pure transform of ``judge.overlay.view.overlay_view``'s result, so it shows exactly what the
overlay may show: roles, checks and the best move (``legacy``) only when that view holds the
organiser's delayed ``secrets``, as the platform shows them only for a game without
``hideRoles``. Field by field, with the platform's source paths: docs/overlay.md.
"""

from __future__ import annotations

from typing import Any

#: the platform's role names (``role``: "town", "sheriff", "maf" or "don")
ROLE = {"civilian": "town", "sheriff": "sheriff", "mafia": "maf", "don": "don"}
#: the platform's ``deathType`` for each way out of our game
DEATH = {"voted": "voting", "killed": "shooting", "fouls": "warnings"}
NIGHT_STATE = {"setup": "notStarted", "night0": "arranging", "night": "starting"}
#: the API version the platform answers (``CURRENT_VERSION`` in current_game.php)
VERSION = 0


def current_game(view: dict[str, Any], club: str = "") -> dict[str, Any]:
    """The response body of ``current_game.php`` for the game ``view`` shows."""
    secrets = view.get("secrets")
    phase, state, round_ = _time(view)
    players = []
    for seat in view["seats"]:
        player: dict[str, Any] = {
            "id": 0, "name": seat["name"] or f"Player {seat['seat']}", "number": seat["seat"],
            "isSpeaking": seat["floor"], "photoUrl": "", "tnailUrl": "", "iconUrl": "",
            "hasPhoto": False, "warnings": seat["fouls"], "techFouls": 0,
            "state": "alive" if seat["in_game"] else "dead"}
        left = seat["left"]
        if left is not None:
            player["deathType"] = DEATH[left["how"]]
            # the platform counts rounds from 0 (night 0, day 0, night 1, day 1...: its day
            # n is our day n + 1) and gives a death on our day n or in our night n ``n - 1``
            player["deathRound"] = max(0, left.get("day", left.get("night", 0)) - 1)
        players.append(player)
    game: dict[str, Any] = {
        "club": {"name": club, "photoUrl": "", "tnailUrl": "", "iconUrl": "", "hasPhoto": False},
        "players": players, "phase": phase, "state": state, "round": round_}
    if phase == "day":
        game["nominees"] = list(view["nominees"])
        game["votingCanceled"] = False
    if secrets:
        for player, role in zip(players, secrets["roles"], strict=False):
            player["role"] = ROLE[role]
        for check in secrets["checks"]:
            key = "checkedByDon" if check["step"] == "don_check" else "checkedBySheriff"
            players[check["seat"] - 1].setdefault(key, check["night"])
        if secrets["best_move"]:
            game["legacy"] = list(secrets["best_move"])
    return {"game": game, "version": VERSION}


def _time(view: dict[str, Any]) -> tuple[str, str, int]:
    """(phase, state, round) as the platform names the moment of the game."""
    stage, day, night = view["stage"], view["day"], view["night"]
    if stage in NIGHT_STATE:
        return "night", NIGHT_STATE[stage], night
    if stage == "over":
        return "day", "townWon" if view["winner"] == "red" else "mafiaWon", max(0, day - 1)
    if stage == "last_words" and view["leaving"] and view["leaving"]["how"] == "killed":
        return "day", "nightKillSpeaking", night  # the morning after night n is day n
    state = {"vote": "voting", "question": "voting", "last_words": "dayKillSpeaking",
             "defence": "nomineeSpeaking" if view["floor"] else "voting"}.get(stage)
    if state is None:  # the day's speeches
        started = view["floor"] is not None or len(view["speakers"]) < sum(
            s["in_game"] for s in view["seats"])
        state = "speaking" if started else "starting"
    return "day", state, max(0, day - 1)
