"""Effects: what the core wants the shell to do, as plain data.

The event loop performs them in the order given: lights through the GPIO adapter, messages
through the MQTT link, timers itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from contract.buttons import Button
from contract.events import SECRET, Event
from contract.lights import Light

if TYPE_CHECKING:  # vote.py and night.py build these effects: no import from here
    from controller.core.night import NightStep
    from controller.core.vote import VoteSession


@dataclass(frozen=True)
class SetLight:
    """Show ``light`` on seat ``seat``'s light (if the seat has one wired)."""

    seat: int
    light: Light


@dataclass(frozen=True)
class Emit:
    """Publish ``event`` on ``event/<kind>`` (``private/<kind>`` if ``private``), timestamped
    ``t`` (host monotonic seconds).

    The shell stamps it with the envelope (``v``, ``ts``, ``id``, ``seq``...:
    ``contract.api.Envelope``).
    """

    event: Event
    t: float
    private: bool = False  # on ``private/<kind>``: the rules core's eyes only (night)

    def __post_init__(self) -> None:
        # a night step's event on the public topic would tell every observer who acts and whom
        # they pick: refused where it is made (the loop then keeps the table as it was)
        if not self.private and isinstance(self.event, SECRET):
            raise ValueError(f"{self.event.KIND} is a secret event: only ever on private/")

    @property
    def kind(self) -> str:
        """The topic below ``event/`` (or ``private/``)."""
        return self.event.KIND


@dataclass(frozen=True)
class PublishState:
    """Publish the retained ``state`` snapshot (seats and their lights, phase)."""

    snapshot: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """Answer a command: ``ok`` or an ``error`` sentence, on ``reply/<verb>``.

    ``response_topic``/``correlation`` echo the MQTT 5 properties of the request, if it had any.
    """

    verb: str
    id: str | None
    ok: bool
    error: str | None = None
    response_topic: str | None = None
    correlation: bytes | None = None


@dataclass(frozen=True)
class WakeAt:
    """Deliver a ``Tick`` to the core at host monotonic time ``t``. ``settle``: a button's
    debounce settling, which a stopping loop still delivers (nothing else is run early)."""

    t: float
    settle: bool = False


@dataclass(frozen=True)
class DrivePin:
    """Simulated tables only: drive a mock button pin as if a hand pressed or released it.

    The real gpiozero edge path then runs, so the resulting event is the genuine article.
    """

    button: Button
    pressed: bool


@dataclass(frozen=True)
class Cue:
    """Play the short sound ``name`` (``warning``, ``end``, ``window``, ``number/7``...) at
    ``t`` (host monotonic; now if ``t`` has passed). ``group`` names the sounds that
    ``CancelCues`` can take back before they are played (a night step's spoken numbers)."""

    name: str
    t: float
    group: str | None = None


@dataclass(frozen=True)
class CancelCues:
    """Drop the cues of ``group`` not yet played (``None``: every cue still waiting): the
    step they belong to ended early, or the phase changed."""

    group: str | None = None


@dataclass(frozen=True)
class Indicate:
    """Show ``pattern`` on seat ``seat``'s private indicator (0 off, 1 on, 2 blink, 3 double
    blink): only the seated player sees it."""

    seat: int
    pattern: int


@dataclass(frozen=True)
class Music:
    """Night music on (fade in) or off (fade out)."""

    on: bool


@dataclass(frozen=True)
class AudioControl:
    """``cmd/audio``: a new music volume, and/or the next track of the playlist."""

    volume: float | None = None
    next_track: bool = False


@dataclass(frozen=True)
class TypeKeys:
    """Simulated tables only: type ``keys`` on seat ``seat``'s emulated console keypad."""

    seat: int
    keys: str


@dataclass(frozen=True)
class PersistSession:
    """Save the running vote session and night step (``None``: none) so a restart can resume
    the vote and report the step."""

    session: VoteSession | None
    night_step: NightStep | None = None


#: The effects the shell performs (``controller.service``): its match over them is exhaustive,
#: checked by mypy, so an effect added here that nobody performs is a type error.
Performed = (SetLight | Emit | PublishState | Reply | DrivePin | TypeKeys | PersistSession | Cue
             | CancelCues | Music | AudioControl | Indicate)
#: Everything the core may ask for: ``WakeAt`` the event loop keeps for itself.
Effect = Performed | WakeAt
