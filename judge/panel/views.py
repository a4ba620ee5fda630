"""What the judge's pages are shown of a game: the public projection
(``judge.overlay.public``) with the secrets added, and the live channel's messages.

Secrecy by construction: roles, teams, night picks, check results, the night's steps and the
best move are added only by ``judge_view``, here; ``public_view`` (the overlay room's) is built
without them, so nothing private can leak through a forgotten field. Both are typed
(``PublicGame``, ``JudgeGame``): the live channel's JSON Schema (``judge.panel.api_schema``,
docs/judge-api.md) is generated from these structs, and the functions return them as JSON
data.

Words are sent as words (``kit.i18n.Words``: a catalog key and its parameters, a record line's
citation too) so each page renders them in its reader's language; each carries ``text``, its
rendering in the panel's language, for a client that renders nothing itself (``as_json``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contract.api import Sound
from judge.game import Game
from judge.game.actions import Offer
from judge.game.day import unopened
from judge.game.mechanisms import dying, mechanism, settle_night
from judge.game.offers import offered
from judge.overlay.public import PublicGame, View, public_game
from kit import i18n
from kit.i18n import Line, Words


class Check(View, kw_only=True):
    step: str
    night: int
    seat: int
    answer: bool


class Card(View, kw_only=True):
    """A card of the book: its name, the book's word for it per language, its side."""

    role: str
    title: dict[str, str]
    team: str


class Side(View, kw_only=True):
    """A side of the book: its name and the book's word for it per language."""

    team: str
    title: dict[str, str]


class StepView(View, kw_only=True):
    """A night step of the book: its name and its words per language."""

    step: str
    title: dict[str, str]


class BookView(View, kw_only=True):
    """The book: its name (``fiim``: the record's ``rules``), its title per language, its
    cards, sides and night steps, and its own names for its stages (``night0``: «ночь
    знакомства»), per language, where it gives them."""

    id: str
    title: dict[str, str]
    roles: list[Card]
    teams: list[Side]
    steps: list[StepView]
    stages: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)


class Morning(View, kw_only=True):
    """The night's result as the judge announces it at morning (FIIM 4.5.9, «Утро»): the day
    it opens and who the night took (``killed``; empty: nobody). Sent from the morning's last
    words until the day's first speech."""

    day: int
    killed: list[int]


class JudgeGame(PublicGame, kw_only=True):
    """The game from the judge's chair: the public view, the secrets, and what the judge may do
    now (``offers``, the engine's ``offered``)."""

    dealt: bool
    night_step: str | None  # the step running at the table
    night_steps: list[str]  # tonight's steps still to open
    killed: int | None
    checks: list[Check]
    best_move: list[int]
    tonight: list[Words]  # tonight's acts in a few words ("shot: 7", "don check 4: sheriff")
    night_input: str
    last_action: str
    book: BookView
    offers: list[Offer]
    morning: Morning | None = None


def morning(game: Game) -> Morning | None:
    """The night's result while the judge announces it (``Morning``): the night's leavers in
    their morning minute, or, the day begun, the night's dead (``settle_night``) until the
    first speech; ``None`` at any other moment (and on day 1: night 0 kills nobody)."""
    if game.stage == "last_words" and game.after_last_words == "day":
        return Morning(day=game.day + 1, killed=list(game.leaving))
    if game.day > 1 and unopened(game):
        return Morning(day=game.day, killed=list(dying(settle_night(game))))
    return None


def judge_game(game: Game) -> JudgeGame:
    public = public_game(game)
    if game.stage == "last_words":  # the vote decided who leaves: nobody is nominated now
        public.nominees = []
    for seat, player in zip(public.seats, game.players, strict=True):
        seat.role = player.role
        seat.team = game.team(player.seat) if player.role else ""
        seat.tags = list(player.tags)
    book = game.book
    tonight = [mechanism(a.mechanism).describe(game, a) for a in game.acts
               if a.night == game.night] if game.stage in ("night", "night0") else []
    return JudgeGame(
        **{f: getattr(public, f) for f in PublicGame.__struct_fields__},
        dealt=all(p.role for p in game.players),
        # which step runs tells who is still in: no Don's check once the Don is out, a best
        # move only after a first-night kill (DESIGN 10: night steps are private at the table)
        night_step=game.running_step if game.stage in ("night", "night0") else None,
        night_steps=list(game.night_steps), killed=game.killed,
        checks=[Check(step=s, night=n, seat=seat, answer=a) for s, n, seat, a in game.checks],
        best_move=list(game.best_move), tonight=tonight, night_input=game.night_input,
        last_action=game.last_action,
        book=BookView(id=book.id, title=book.title,
                      teams=[Side(team=name, title=team.title)
                             for name, team in book.teams.items()],
                      roles=[Card(role=name, title=role.title, team=role.team)
                             for name, role in book.roles.items()],
                      steps=[StepView(step=s.name, title=s.words) for s in book.night.steps],
                      stages={str(stage): name for stage, name in book.stages.items()}),
        offers=offered(game), morning=morning(game))


def judge_view(game: Game, language: str = i18n.DEFAULT) -> dict[str, Any]:
    """The game from the judge's chair, as JSON data (its words' ``text`` in ``language``)."""
    return as_json(judge_game(game), language)


def _words_in(language: str) -> Callable[[Any], Any]:
    """msgspec's ``enc_hook`` for a view: each ``Words`` as its key, parameters and ``text`` in
    ``language``."""

    def words(value: Any) -> Any:
        if isinstance(value, Words):
            return {**value.to_json(), "text": i18n.render(value, language)}
        raise NotImplementedError(f"no JSON for {type(value).__name__}")

    return words


def as_json(view: msgspec.Struct, language: str) -> Any:
    """A view as JSON data, each ``Words`` as its key, parameters and ``text`` in ``language``."""
    return msgspec.to_builtins(view, enc_hook=_words_in(language))


def as_text(view: msgspec.Struct, language: str) -> str:
    """A view as the JSON text a page reads (``as_json``'s, encoded straight from the structs:
    less than half the time of ``json.dumps`` of the builtins; docs/performance.md)."""
    return msgspec.json.encode(view, enc_hook=_words_in(language)).decode()


def words_schema(kind: type) -> dict[str, Any]:
    """The JSON Schema of ``Words`` and ``Line`` (``msgspec``'s ``schema_hook``)."""
    if kind in (Words, Line):
        return {"type": "object", "title": kind.__name__,
                "description": "Words: a catalog key and its parameters (docs/i18n.md); "
                               "``cite``: a record line's paragraph; ``text``: the words in "
                               "the panel's language.",
                "properties": {"key": {"type": "string"}, "params": {"type": "object"},
                               "cite": {"type": ["string", "object", "null"]},
                               "text": {"type": "string"}},
                "required": ["key", "params", "text"]}
    raise NotImplementedError(f"no schema for {kind.__name__}")


# ------------------------------------------------------------------ the live channel's messages

#: the live channel's contract version (docs/judge-api.md): a change a client must know of
#: bumps it; the schema document and every view carry it
API_VERSION = 4


class PresetCheck(View, kw_only=True):
    """The rule preset the table plays (``plays``: its ``state``'s ``rules``; null: its config
    names none) and the one the book needs (``needs``: the book's ``table_preset``). The panel
    starts no game while they differ (docs/judge.md, "The book and the table")."""

    plays: str | None
    needs: str


class TableStatus(View, kw_only=True):
    """The table as the panel sees it: the broker link, the table's status, each console's
    link, the speaker, how many of the table's payloads were refused (not their type), and the
    rule preset it plays beside the one the book needs (``rules``; null until the table says
    which it plays)."""

    broker: bool
    status: str
    consoles: list[bool | None]
    audio: bool | None
    #: the speaker in a word (``contract.api.sound``): ``ok``, ``off`` (off by the table's
    #: configuration), ``silent`` (a simulated table with no sound device: it plays on without
    #: sound, nothing to fix), ``fault`` (a speaker that should sound and does not), None
    #: before the table says
    sound: Sound | None = None
    bad_events: int
    rules: PresetCheck | None = None


class Clock(View, kw_only=True):
    """The floor's clock as the table last reported it (``event/timer``)."""

    running: bool
    seat: int | None
    kind: str
    state: str
    remaining_ms: int


class Window(View, kw_only=True):
    """The vote's window open at the table now (``event/vote/window``): whose (``candidate``;
    0 for a question such as FIIM's "all leave?") and which try (``attempt``, 2 and up after a
    rejected count). The panel says it before any count comes."""

    candidate: int
    attempt: int


class PanelSettings(View, kw_only=True):
    """The panel's own settings a page follows: ``hide_roles``: the roles start hidden;
    ``language``: the panel's (``[panel] language``), a page's until its reader chooses."""

    hide_roles: bool = False
    language: str = i18n.DEFAULT


class ViewMessage(View, tag="view", tag_field="type", kw_only=True):
    """The panel to every page, on connecting and after every change."""

    api: int = API_VERSION
    game: JudgeGame
    log: list[Line]
    table: TableStatus
    down: list[int]
    timer: Clock | None
    notices: list[Words]
    panel: PanelSettings
    window: Window | None = None


class Refusal(View, tag="refused", tag_field="type", kw_only=True):
    """The panel to the one page whose message it did not take: why (``words``, a ``Line``
    citing the rule; ``message``: its text in the panel's language), and the argument at fault
    when one is (``field``, e.g. ``args.seat``). Nothing changed."""

    message: str
    words: Line
    field: str | None = None
    ref: int | None = None  # the refused action's own ``ref``, when it gave one


class Done(View, tag="done", tag_field="type", kw_only=True):
    """The panel to the one page whose action it took, when the action gave a ``ref``: the
    new view follows (to every page), this says which action it answers."""

    ref: int


class ActionMessage(msgspec.Struct, forbid_unknown_fields=True):
    """A page (or an app) to the panel: one action, its arguments, and the game ``version`` it
    saw (an action on an older version is refused: another tab acted first); ``ref``, a number
    of the client's own, is answered by ``done`` or given back in the refusal, so a client
    knows what became of each action (a table event may move the game as a tap goes)."""

    action: str
    version: int
    args: dict[str, Any] = {}
    ref: int | None = None
