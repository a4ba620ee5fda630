"""Effects: what the core wants the shell to do, as plain data.

The event loop performs them in the order given: lights through the seat-light backends,
messages through the MQTT link, timers itself. These are the effects the game's parts (``vote``,
``night``, ``timer``, ``day``) and the command handlers make; the one the table's step adds
about their own state, ``PersistSession``, and the closed union the shell performs are
``controller.core.performed``, above the parts whose state it names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from contract.buttons import Button
from contract.events import SECRET, Event
from contract.lights import Light


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
    """Play the short sound ``name`` (a tone: ``warning``, ``end``, ``window``; words in a
    voice, ``spoken``: ``ru/number/7``, ``en/ten_seconds``...) at ``t`` (host monotonic; now
    if ``t`` has passed). ``group`` names the sounds that ``CancelCues`` can take back before
    they are played (a night step's spoken numbers), and that play as one sound, each after
    its own silence (``controller.cue_schedule``)."""

    name: str
    t: float
    group: str | None = None


def spoken(voice: str, words: str) -> str:
    """The cue that says ``words`` (``number/7``, ``ten_seconds``) in ``voice`` (``ru``):
    ``ru/number/7``. The speaker plays it from its voice's file (``hardware.audio``)."""
    return f"{voice}/{words}"


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


#: What the game's parts and the command handlers ask the shell to perform (``table.step``
#: adds ``performed.PersistSession``, and ``performed.Performed`` is the whole union the shell's
#: match covers).
ShellEffect = (SetLight | Emit | PublishState | Reply | DrivePin | TypeKeys | Cue | CancelCues
               | Music | AudioControl | Indicate)
#: Everything they may ask for: ``WakeAt`` the event loop keeps for itself.
Effect = ShellEffect | WakeAt
