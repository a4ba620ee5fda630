"""The judge's actions as typed structs: every tap the live channel takes, and its arguments.

An action comes as ``{"action": kind, "args": {...}, "version": N}`` (docs/judge-api.md) and is
kept in the journal as its kind and arguments (``state.Action``). ``decode`` reads it into the
struct of its kind once, at the engine's door; a missing or mistyped argument is refused with
its name and changes nothing. The live channel's JSON Schema is generated from these structs
(``judge.panel.api_schema``), so the page, a club's app and the engine read one description.

Most actions are the rules' (``engine.step`` runs them); ``Timer`` and ``NewGame`` are the
panel's own (the floor's clock and a fresh game are not rule decisions).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from contract.commands import MAX_SEATS
from judge.game.state import Action, BadArgument, Refused
from kit.i18n import Line, Words

Seat = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS, description="A seat, 1..seats.")]
Seats = Annotated[list[Seat], msgspec.Meta(max_length=MAX_SEATS)]
Text = Annotated[str, msgspec.Meta(max_length=200)]
#: a number the judge was told (the classic club's roulette: 1..7 by the book's options)
Number = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS, description="A number, 1..24.")]
#: a name in the engine's vocabulary: a night step, a decision, an offer's kind
Identifier = Annotated[str, msgspec.Meta(pattern="^[a-z][a-z0-9_]{0,31}$")]


class JudgeAction(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One action's arguments; ``kind`` is its ``action``."""

    kind: ClassVar[str]
    #: whether ``undo`` can take it back: the table has nothing of it it cannot be told again
    undoable: ClassVar[bool] = False


class Name(JudgeAction):
    """Setup: a seat's player name (kept tidy: ``kit.player_names``; a player already seated
    elsewhere is refused)."""

    kind = "name"
    undoable = True
    seat: Seat
    name: Text = ""


class Seating(JudgeAction):
    """Setup: the table's seats and who sits where, a name per seat in seat order (the panel
    seats the table's own number of players, and the last game's players for the next)."""

    kind = "seating"
    names: Annotated[list[Text], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]


class Reseat(JudgeAction):
    """Setup: the players' names drawn to new seats at random (a seating drawn by lot)."""

    kind = "reseat"
    undoable = True


class Swap(JudgeAction):
    """Setup: two seats' players change places."""

    kind = "swap"
    undoable = True
    seats: Seats


class Deal(JudgeAction):
    """Setup: the cards. ``roles``: those dealt by hand, seat by seat; else at random by
    ``seed``. ``add``: optional cards of the book's deck, each in place of the card it replaces.
    ``called`` (a book whose ``[deal] called``): the players call numbers for their cards in
    turn (``call``), from seat 1 (``first``) or from the last seat (``last``), the stack shuffled
    by ``seed``."""

    kind = "deal"
    undoable = True
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**53)] = 0
    roles: Annotated[list[Annotated[str, msgspec.Meta(max_length=32)]],
                     msgspec.Meta(max_length=MAX_SEATS)] | None = None
    add: Annotated[list[Annotated[str, msgspec.Meta(max_length=32)]],
                   msgspec.Meta(max_length=MAX_SEATS)] = []
    called: Literal["first", "last"] | None = None


class Call(JudgeAction):
    """Setup, a deal by called numbers: the next player's number, 1 to the cards left."""

    kind = "call"
    undoable = True
    number: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)]


class Start(JudgeAction):
    """Setup done: every seat in the game, the first night (or day) begins."""

    kind = "start"


class Next(JudgeAction):
    """Whatever comes next: the next speaker, the vote, the next night step, the morning."""

    kind = "next"


class OnSeat(JudgeAction):
    """An action on one seat."""

    seat: Seat


class Nominate(OnSeat):
    """The judge accepts a nomination the table did not catch."""

    kind = "nominate"
    undoable = True


class Withdraw(OnSeat):
    """The judge takes a nomination back."""

    kind = "withdraw"
    undoable = True


class Foul(OnSeat):
    kind = "foul"
    undoable = True


class Violation(OnSeat):
    """A violation that goes on (a book with ``[fouls] every``): its start is a foul; at its
    end (``ends``) one more for every ``every`` seconds it lasted beyond the first."""

    kind = "violation"
    undoable = True
    ends: bool = False


class Disqualify(OnSeat):
    """The judge takes a player out now (a grave violation), with the reason."""

    kind = "disqualify"
    undoable = True
    reason: Text = ""


class ShowCard(OnSeat):
    """The judge shows a player's card to the table (the player stays in the game)."""

    kind = "show_card"


class Confirm(JudgeAction):
    """The table's proposed count is final."""

    kind = "confirm"


class Reject(JudgeAction):
    """The proposed count is thrown away; the table counts that candidate again."""

    kind = "reject"


class Correct(JudgeAction):
    """The judge's own count for the proposed candidate: its voters, and why."""

    kind = "correct"
    voters: Seats = []
    reason: Text = ""


class NightPick(JudgeAction):
    """The judge enters ``actor``'s pick in the running night step (or the one just ended):
    ``targets`` as the player showed them (none: no pick)."""

    kind = "night_pick"
    actor: Seat
    targets: Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)]],
                       msgspec.Meta(max_length=3)] = []


class EndStep(JudgeAction):
    """The running night step ends now (the table sends its result)."""

    kind = "end_step"


class NightInput(JudgeAction):
    """How the table takes night picks from now on: on the keypads, or by the vote buttons
    while it speaks the numbers (``count``: a table with buttons only)."""

    kind = "night_input"
    mode: Literal["keypad", "count"]


class Choose(JudgeAction):
    """The judge's decision a mechanism or the vote procedure asked for (its ``choose``
    offer, whose ``args`` carry ``of`` and ``decision``): ``of`` is the night step, the
    mechanism with no step, or ``vote``; ``decision`` which decision (the offer's ``kind``);
    ``value`` what the judge chose, of the one shape the decision takes (its module's
    ``decisions``: a seat, seats, a number, a side; none for a decision that takes no value;
    docs/judge-api.md, "Decisions")."""

    kind = "choose"
    of: Identifier
    decision: Identifier
    value: int | bool | Annotated[str, msgspec.Meta(max_length=200)] | Seats | None = None


class Undo(JudgeAction):
    """Take back the judge's last undoable action (a name, a deal, a called number, a
    nomination, a withdrawal, a foul, a violation's start or end, a disqualification), keeping
    what the table reported since."""

    kind = "undo"


class Timer(JudgeAction):
    """The floor's clock: pause, resume, or 10 s more (the panel's, not a rule decision)."""

    kind = "timer"
    op: Literal["pause", "resume", "add"]


class NewGame(JudgeAction):
    """End this game (kept in the games, abandoned if unfinished) and start a new one."""

    kind = "new_game"


ACTIONS: dict[str, type[JudgeAction]] = {a.kind: a for a in (
    Name, Seating, Reseat, Swap, Deal, Call, Start, Next, Nominate, Withdraw, Foul, Violation,
    Disqualify, ShowCard, Confirm, Reject, Correct, NightPick, EndStep, NightInput, Choose, Undo,
    Timer, NewGame)}
#: what an undo can take back
UNDOABLE = tuple(kind for kind, a in ACTIONS.items() if a.undoable)


Group = Literal["setup", "game", "vote", "night", "seat", "clock", "panel"]


# ------------------------------------------------------------------ offers


class Param(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An argument the judge gives: ``seat`` (one of ``seats``), ``seats`` (any of ``seats``, at
    least ``min``, at most ``max``), ``number``, ``text``, ``roles`` (a card per seat, of
    ``choices``), ``choice`` (one of ``choices``), ``choices`` (any of ``choices``)."""

    name: str
    kind: Literal["seat", "seats", "number", "text", "roles", "choice", "choices"]
    seats: list[int] = []
    #: what a choice may be, each sent as it is (a number as a number: the roulette's)
    choices: list[str | int] = []
    min: int | None = None
    max: int | None = None


class Offer(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One action the judge may take now (``judge.game.offers``): its ``action`` kind, what it
    will do (``kind``: ``give_floor``, ``start_vote``, ``morning``..., a ``choose`` offer's
    decision: docs/judge-api.md lists them), the ``args`` it carries, the ``params`` the judge
    gives; ``key`` names it on a page (its button's id); ``label`` is its words
    (``kit.i18n.Words``: a catalog key and its parameters, rendered in the reader's
    language)."""

    action: str
    kind: str
    key: str
    label: Words
    args: dict[str, Any] = {}
    params: list[Param] = []
    enabled: bool = True
    primary: bool = False
    group: Group = "game"


def decision(decision: str, of: str, *, key: str, label: Words, group: Group,
             value: Any = None, params: list[Param] | None = None,
             primary: bool = False) -> Offer:
    """The offer of the judge's ``decision`` for ``of`` (a night step, a mechanism with no
    step, or ``vote``): ``choose`` with ``of`` and ``decision`` in its ``args`` (and the
    ``value`` when the offer carries it: Laura's "goes over"), its ``kind`` the decision."""
    args: dict[str, Any] = {"of": of, "decision": decision}
    if value is not None:
        args["value"] = value
    return Offer(action="choose", kind=decision, key=key, label=label, group=group, args=args,
                 params=params or [], primary=primary)


def decode(given: Action) -> JudgeAction:
    """The typed action of a tap; ``Refused`` names the argument that is wrong."""
    kind = ACTIONS.get(given.kind)
    if kind is None:
        raise Refused(Line(None, "refused.action", action=given.kind))
    try:
        return msgspec.convert(dict(given.args), kind)
    except msgspec.ValidationError as exc:
        said, _, where = str(exc).partition(" - at `$")
        path = where.rstrip("`").lstrip(".")
        field = f"args.{path}" if path else "args"
        raise BadArgument(Line(None, "refused.arguments", action=given.kind, field=field,
                               detail=said), field) from None
    except (TypeError, ValueError) as exc:  # args that are not an object
        raise BadArgument(Line(None, "refused.arguments", action=given.kind, field="args",
                               detail=str(exc)), "args") from None
