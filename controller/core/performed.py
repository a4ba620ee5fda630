"""What the table's step hands the shell: the closed union of effects, performed by one match.

Every effect the game's parts and the command handlers make is ``effects.ShellEffect``;
``table.step`` adds ``PersistSession``, which carries the parts' own state (the running
``vote.VoteSession`` and ``night.NightStep``) and so sits here, above them, and not beside the
effects they make. ``Performed`` is the whole union the shell performs
(``controller.shell.effects``): its match over it is exhaustive, checked by mypy, so an effect
added here that nobody performs is a type error. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.core.effects import ShellEffect, WakeAt
from controller.core.night import NightStep
from controller.core.vote import VoteSession


@dataclass(frozen=True)
class PersistSession:
    """Save the running vote session and night step (``None``: none) so a restart can resume
    the vote and report the step."""

    session: VoteSession | None
    night_step: NightStep | None = None


#: The effects the shell performs (``controller.shell.effects``).
Performed = ShellEffect | PersistSession
#: Everything ``table.step`` returns: ``WakeAt`` the event loop keeps for itself.
StepEffect = Performed | WakeAt
