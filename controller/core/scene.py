"""What each seat light shows: layers over the seats' standing, in daylight (pure).

From the bottom up, the first layer that has something to say about a seat wins from there:

1. **standing** (``cmd/seats``): in game, out, fouls, silenced, immunity: the table at a glance;
2. **nominated** today (``event/nomination``), on a seat whose standing shows nothing else,
   until the day's vote is over;
3. **manual** (``cmd/light``): what the rules core set for a seat, until it sets ``auto``;
4. **speaker**: the seat holding the floor (``cmd/timer/start``): steady, blinking in the last
   10 s, blinking fast in the last 5 s, yellow while paused;
5. **vote**: the candidate under vote blinks; once the count is proposed, the seats that voted
   are lit for the judge.

Colours are for RGB lights; a single-colour LED shows the mode only, so the modes alone are
chosen to tell the states apart as far as they can (docs/lights.md has the table).
"""

from __future__ import annotations

import msgspec

from contract.lights import Light, LightMode


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's standing in the game, as ``cmd/seats`` sets it."""

    in_game: bool = True
    fouls: int = 0
    silenced: bool = False
    immune: bool = False


IN_GAME = Light(LightMode.DIM, "#ffffff")
OUT = Light(LightMode.OFF)
FOUL_LIGHTS = {
    1: Light(LightMode.DIM, "#ffc000"),
    2: Light(LightMode.ON, "#ff8000"),
    3: Light(LightMode.BLINK, "#ff2000"),
}
SILENCED = Light(LightMode.ON, "#2040ff")
IMMUNE = Light(LightMode.ON, "#00c040")
NOMINATED = Light(LightMode.ON, "#ff00ff")
SPEAKER = {
    "normal": Light(LightMode.ON, "#ffffff"),
    "warning": Light(LightMode.BLINK, "#ffffff"),
    "final": Light(LightMode.FAST_BLINK, "#ff0000"),
    "paused": Light(LightMode.ON, "#ffff00"),
}
CANDIDATE = Light(LightMode.BLINK, "#ff00ff")
VOTED = Light(LightMode.ON, "#00ff00")


def standing_light(standing: Standing) -> Light:
    """The daylight scene for one seat. Out beats everything; then silence (the player may not
    speak this round), then fouls, then immunity."""
    if not standing.in_game:
        return OUT
    if standing.silenced:
        return SILENCED
    if standing.fouls:
        return FOUL_LIGHTS[min(standing.fouls, 3)]
    if standing.immune:
        return IMMUNE
    return IN_GAME
