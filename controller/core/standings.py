"""What a seat's standing keeps it from doing, as the rule preset says (pure).

A standing (``cmd/seats``: out of the game, silenced, immune, fouls) *blocks* some of the
actions the table takes part in:

* ``vote``: being counted in a day vote (a press, or a leftover vote, FIIM 4.4.8);
* ``nominated``: being put to the vote, or staying nominated;
* ``nominate``: putting someone to the vote from the keypad (FIIM 4.4.2);
* ``floor``: holding the floor on the speech timer (``last_words`` excepted: a player who
  leaves has them, FIIM 4.4.13 and 4.5.4);
* ``shot`` and ``checked``: being a target of a night step that shoots or checks (the preset's
  ``[night] steps`` says which step does which).

Which standing blocks what differs between rule books, so it is data: the preset's
``[standings.<name>]`` tables, each with the paragraph a refusal cites (``rule``). Nothing here
knows a book by its name.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from controller.core.scene import Standing

Action = Literal["vote", "nominated", "nominate", "floor", "shot", "checked"]
NightAction = Literal["shot", "checked"]  # what a night step does to its target
ACTIONS: tuple[Action, ...] = ("vote", "nominated", "nominate", "floor", "shot", "checked")

#: how a refusal words each action: "seat 7 is out of the game: it may not <verb> (rule)"
VERBS: dict[Action, str] = {
    "vote": "vote", "nominated": "be nominated", "nominate": "nominate",
    "floor": "have the floor", "shot": "be shot", "checked": "be checked",
}


#: the preset's ``[night] steps`` when it says nothing: which night steps shoot or check
NIGHT_STEPS: dict[str, NightAction] = {"mafia_shot": "shot", "don_check": "checked",
                                  "sheriff_check": "checked"}


class Blocks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One standing's entry in a preset: the actions it blocks and the paragraph to cite."""

    blocks: tuple[Action, ...] = ()
    rule: str = ""


class FoulBlocks(Blocks, frozen=True, forbid_unknown_fields=True):
    """Fouls block from ``at`` fouls on (the fourth always removes the player: out)."""

    at: Annotated[int, msgspec.Meta(ge=1, le=4)] = 3


class StandingRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The preset's ``[standings]``: FIIM's when a preset says nothing."""

    out: Blocks = Blocks(blocks=ACTIONS, rule="FIIM 1.4, 4.4.11")
    silenced: Blocks = Blocks()
    immune: Blocks = Blocks()
    fouls: FoulBlocks = FoulBlocks()


FIIM = StandingRules()


def _descriptions(standing: Standing, rules: StandingRules) -> list[tuple[str, Blocks]]:
    """The standings a seat has, each with what it blocks, worst first."""
    held: list[tuple[str, Blocks]] = []
    if not standing.in_game:
        held.append(("is out of the game", rules.out))
    if standing.silenced:
        held.append(("is silenced", rules.silenced))
    if standing.fouls >= rules.fouls.at:
        held.append((f"has {standing.fouls} fouls", rules.fouls))
    if standing.immune:
        held.append(("is immune", rules.immune))
    return held


def why_not(rules: StandingRules, standings: tuple[Standing, ...], seat: int,
            action: Action) -> str | None:
    """Why ``seat`` may not do ``action`` (naming the seat, its standing and the rule), or
    None if it may."""
    for what, entry in _descriptions(standings[seat - 1], rules):
        if action in entry.blocks:
            cite = f" ({entry.rule})" if entry.rule else ""
            return f"seat {seat} {what}: it may not {VERBS[action]}{cite}"
    return None


def allowed(rules: StandingRules, standings: tuple[Standing, ...], action: Action) \
        -> tuple[int, ...]:
    """The seats whose standing does not block ``action``."""
    return tuple(seat for seat in range(1, len(standings) + 1)
                 if why_not(rules, standings, seat, action) is None)
