"""Names for the physical buttons the table knows about.

A button is either a seat's vote button (the "fist") or one of the judge station's buttons.
Both are small frozen values so they can key dictionaries and travel inside inputs and effects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

JudgeButtonName = Literal["confirm", "reject", "next"]
JUDGE_BUTTON_NAMES: tuple[JudgeButtonName, ...] = get_args(JudgeButtonName)


@dataclass(frozen=True, order=True)
class SeatButton:
    """The vote button of seat ``seat`` (1-based, as painted on the table)."""

    seat: int


@dataclass(frozen=True, order=True)
class JudgeButton:
    """One of the judge station's buttons: ``confirm``, ``reject`` or ``next``."""

    name: JudgeButtonName


Button = SeatButton | JudgeButton
