"""A rule book as data: ``config/books/<book>.toml`` read into typed, checked structs.

A book says everything the judge's engine decides that differs between clubs: the sides and the
cards, the deck for each player count, the first night, the day's speaking rounds, which vote
procedure runs, the night's wake order (each step a *mechanism*: a kill, a check, a best
move...), the order in which the night's effects land, the win conditions, the fouls, and the
paragraph (FIIM) or section title (the clubs' books) each decision cites. Code holds the
mechanisms; the book says which of them it uses and with which options. docs/judge-engine.md
describes every key; ``config/books/fiim.toml`` is the worked example.

What the *table* decides (a vote's windows, the left-over votes, the "all leave?" majority, a
night step's seconds) is in the table's rule preset (``config/rules/<preset>.toml``), which the
book names (``table_preset``) and the judge reads (``TablePreset``), so no rule is said twice.

``load(path)`` reads a file and checks it whole: every problem is reported at once, each with
its key path (``night.steps[1].options.yes.roles: ...``), as a ``kit.config.ConfigError``.
The checks that need the mechanisms (a step's options, a mechanism that does not exist) are
made by ``judge.game.rules`` when a book is put to use; this module is the schema alone.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from contract import validation
from contract.commands import MAX_SEATS
from kit import i18n
from kit.config import ConfigError

REPO = Path(__file__).resolve().parent.parent.parent
#: the shipped books and the table's rule presets, by name
BOOKS = REPO / "config" / "books"
PRESETS = REPO / "config" / "rules"

#: an identifier in a book: a role, a team, a step, a timing (lower case, digits, underscores)
Name = Annotated[str, msgspec.Meta(pattern="^[a-z][a-z0-9_]{0,31}$(?!\n)")]
#: what a decision cites: FIIM's paragraph ("4.4.12.3") or a club book's section («Голосование»);
#: a heading the book gives in several languages, or the table's reading of a section, in each
#: (``{ ru = "«Шеф Полиции»", en = "«Police Chief»" }``: each screen shows its own,
#: ``kit.i18n.Line``)
Cite = Annotated[str, msgspec.Meta(min_length=1, max_length=160)] | dict[
    Annotated[str, msgspec.Meta(pattern="^[a-z]{2,3}$")],
    Annotated[str, msgspec.Meta(min_length=1, max_length=160)]]
Players = Annotated[int, msgspec.Meta(ge=4, le=MAX_SEATS)]
Seconds = Annotated[float, msgspec.Meta(gt=0, le=600)]
#: a book's own words in each language (``title = { ru = "Дон", en = "Don" }``): English is
#: required (a language a text lacks reads in English), the others are those with a catalog
#: (``kit.i18n``); ``{{seconds}}`` and the like name the message's parameters
Local = dict[Annotated[str, msgspec.Meta(pattern="^[a-z]{2,3}$")],
             Annotated[str, msgspec.Meta(max_length=200)]]


class _Table(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """A table of a book file: unknown keys are errors (a misspelt key is never ignored)."""


class NoOptions(_Table, frozen=True):
    """The ``options`` of a mechanism, procedure or endgame that takes none."""


class PlayerRange(_Table, frozen=True):
    min: Players
    max: Players


class Team(_Table, frozen=True):
    """A side (``red``, ``black``, the maniacs...). ``title``: the book's word for it, per
    language."""

    title: Local


class Role(_Table, frozen=True):
    """A card. ``team``: the side it plays for; ``traits``: mechanisms the role carries without
    waking (an immortal survives the night: the trait takes part in the morning's
    resolution); ``title``: the book's word for it, per language."""

    team: Name
    title: Local
    traits: tuple[Name, ...] = ()


class DeckRow(_Table, frozen=True):
    """The cards for a player count from ``players[0]`` to ``players[1]``: ``roles`` by count,
    and ``rest`` (a role) for every seat they leave (none: ``roles`` are the whole deck).
    ``optional``: roles the organiser may add, each in place of a card of the role named
    (``{ immortal = "civilian" }``). ``says``: the deck in words per language, for a
    refusal."""

    players: tuple[Players, Players]
    roles: dict[Name, Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS)]]
    rest: Name | None = None
    optional: dict[Name, Name] = {}
    says: Local = {}

    def cards(self, players: int, added: tuple[str, ...] = ()) -> list[str]:
        """The deck for ``players`` seats, with the ``added`` optional roles each in place of
        a card of the role it replaces (``LookupError(role, replaced)`` when it is no optional
        card, ``replaced`` then ``None``, or there is no card left for it to replace)."""
        cards = [role for role, n in self.roles.items() for _ in range(n)]
        if self.rest is not None:
            cards += [self.rest] * (players - len(cards))
        for role in added:
            replaced = self.optional.get(role)
            if replaced is None or replaced not in cards:
                raise LookupError(role, replaced)
            cards[cards.index(replaced)] = role
        return cards


class Nights(_Table, frozen=True):
    """Which nights a step opens: from ``first`` to ``last`` (none: every night after). Night 0
    is the first night (the deal's, FIIM's meeting); night 1 follows day 1."""

    first: Annotated[int, msgspec.Meta(ge=0, le=99)] = 1
    last: Annotated[int, msgspec.Meta(ge=0, le=99)] | None = None

    def has(self, night: int) -> bool:
        return night >= self.first and (self.last is None or night <= self.last)


class Step(_Table, frozen=True):
    """One night step in the wake order: the table's ``cmd/night/step`` named ``name``, for the
    living holders of ``roles`` (or whoever the mechanism says: the best move's victim), on the
    ``nights`` given, with ``picks`` numbers each, for ``seconds`` (a timing's name); when no
    holder of ``roles`` is in the game, the first of ``take_over`` that has one acts instead
    (the classic club's detective after the chief, the online book's sergeant). The
    ``mechanism`` decides what the picks do; ``options`` are its own (checked by the
    mechanism's ``Options`` struct when the book is put to use). ``rule`` is cited when the step
    opens; ``label`` names it in the record lines and on the judge's screen, per language
    (default: its name, words for underscores)."""

    name: Name
    mechanism: Name
    rule: Cite
    roles: tuple[Name, ...] = ()
    take_over: tuple[Name, ...] = ()
    nights: Nights = Nights()
    picks: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    seconds: Name = "night_step"
    targets: Literal["alive", "seats", "numbers"] = "alive"
    label: Local = {}
    options: Any = msgspec.field(default_factory=dict)

    @property
    def words(self) -> Local:
        return self.label or {"en": self.name.replace("_", " ")}


class NightRules(_Table, frozen=True):
    """``steps``: the wake order. ``resolution``: the mechanisms (and roles' traits) in the
    order their effects are settled at morning (a heal after the kills it undoes).
    ``options``: the options of the mechanisms that run no step (a trait, one only the
    resolution names), by name (the Crow Club's immunity: who earned it in the last game)."""

    steps: tuple[Step, ...] = ()
    resolution: tuple[Name, ...] = ()
    options: dict[Name, Any] = {}


class DealRules(_Table, frozen=True):
    """How the cards may be dealt besides at random or as typed: ``called``, each player in
    turn calls a number from 1 to the cards left and takes the card at that place in the
    judge's stack, the last the last card; the side it begins from changes game by game (the
    Crow Club's «Раздача»)."""

    called: bool = False


class FirstNight(_Table, frozen=True):
    """The night before day 1, night 0 (absent: the judge's Start opens day 1). A
    countdown of ``seconds`` (a timing) runs at the table when there is one; ``says`` is the
    record line after ``rule``, per language (``{{seconds}}``: the countdown's)."""

    rule: Cite
    seconds: Name | None = None
    says: Local = {}


#: the day's round kinds the engine plays (``Round.kind``)
ROUND_KINDS = ("speeches", "discussion")


class Round(_Table, frozen=True):
    """One speaking round of a day. ``kind``: ``speeches``, every player in the game once, in
    seat order from the round's opener, for ``timing`` seconds (the opener and the closer for
    ``opener_timing`` and ``closer_timing`` when given); or ``discussion``, the whole table at
    once for ``timing`` seconds, nobody's floor (the classic club's «3. Обсуждение»: the
    table's timer with no seat); another must be in the book's ``unbuilt``. ``nominations``:
    whether a speaker may nominate in it (the judge's Nominate is refused otherwise);
    ``timer``: the table's timer kind of a speech (a round that is not a ``speech`` takes no
    keypad nomination at the table); ``days``: which days hold it (``first``: day 1 only,
    ``later``: from day 2)."""

    timing: Name
    kind: Name = "speeches"
    opener_timing: Name | None = None
    closer_timing: Name | None = None
    nominations: bool = True
    timer: Literal["speech", "other"] = "speech"
    days: Literal["all", "first", "later"] = "all"
    rule: Cite | None = None


class Day(_Table, frozen=True):
    """``rounds`` in order; ``opener``: ``per_day`` (FIIM 4.3.2: the seat after yesterday's
    opener opens today) or ``per_round`` (every round opens with the next seat)."""

    rounds: tuple[Round, ...]
    opener: Literal["per_day", "per_round"] = "per_day"


class Vote(_Table, frozen=True):
    """The day's vote: the ``procedure`` (a module of ``judge.game.votes``) and its own
    ``options``."""

    procedure: Name
    options: Any = msgspec.field(default_factory=dict)


class Leaving(_Table, frozen=True):
    """A player who leaves: ``last_words`` (a timing; none: no last words), ``show_role``
    (the card is shown to the table)."""

    last_words: Name | None = None
    show_role: bool = False


class Fouls(_Table, frozen=True):
    """The foul ladder: ``silence_at`` fouls silence the player for their next speech (0:
    never), ``out_at`` take them out (4: the table's own rule), ``show_role`` on that removal;
    ``out_while``: day standings (``state.DAY_STANDINGS``) under which any foul takes the
    player out (the Crow Club's «Пожарный»: "фолл при тушении это незамедлительное вскрытие
    карты"); ``every``: a violation that goes on is a foul for every so many seconds of it,
    its start the first (the Crow Club's «Фолл»: "один фолл длится 5 секунд, то есть если вы
    нарушаете дольше 5 секунд, то вам дается ещё один фолл"; 0: every foul is the judge's tap);
    ``given = false``: the book has no fouls (the judge's Foul is refused)."""

    given: bool = True
    silence_at: Annotated[int, msgspec.Meta(ge=0, le=4)] = 0
    out_at: Annotated[int, msgspec.Meta(ge=1, le=4)] = 4
    show_role: bool = False
    out_while: tuple[Literal["silenced", "frozen"], ...] = ()
    every: Annotated[float, msgspec.Meta(ge=0, le=60)] = 0


class Endgame(_Table, frozen=True):
    """A win condition (a module of ``judge.game.endgames``) for ``team`` (or ``draw``),
    checked in the book's order after every removal."""

    kind: Name
    team: Name
    rule: Cite
    options: Any = msgspec.field(default_factory=dict)


#: the stages a book may give its own name (``Book.stages``)
StageName = Literal["setup", "night0", "day", "vote", "defence", "roulette", "question",
                    "last_words", "night"]


class Book(_Table, frozen=True):
    """A rule book. ``title``: how screens name it, per language, in the book's own terms
    (``{ ru = "ФИИМ", en = "FIIM" }``); ``source``: the book it digests; ``stages``: the book's
    own names for its stages, per language, over the panel's (the Crow Club's night 0 is «ночь
    знакомства»; ``{{day}}`` and ``{{night}}`` are the day's and the night's numbers)."""

    title: Local
    source: str
    table_preset: str
    players: PlayerRange
    teams: dict[Name, Team]
    roles: dict[Name, Role]
    deck: tuple[DeckRow, ...]
    cite: dict[Name, Cite]
    timings: dict[Name, Seconds | Literal["preset"]]
    day: Day
    vote: Vote
    night: NightRules
    endgames: tuple[Endgame, ...]
    first_night: FirstNight | None = None
    stages: dict[StageName, Local] = {}
    leaving: Leaving = Leaving()
    fouls: Fouls = Fouls()
    deal: DealRules = DealRules()
    #: what the book needs and the engine has no module for yet (mechanisms, a procedure,
    #: endgames, round kinds): such a book loads and deals, and a game of it is refused
    unbuilt: tuple[Name, ...] = ()
    #: where the file came from (set by ``load``; not a key of the file)
    path: str = ""

    @property
    def id(self) -> str:
        """The book's name in records and configs: its file's (``fiim``, ``crow-club``)."""
        return Path(self.path).stem if self.path else ""

    def team_of(self, role: str) -> str:
        return self.roles[role].team if role in self.roles else ""

    def role_title(self, role: str) -> Local:
        """The book's word for a card, per language (the card's name when it has none)."""
        found = self.roles.get(role)
        return found.title if found is not None else {"en": role}

    def team_title(self, team: str) -> Local:
        found = self.teams.get(team)
        return found.title if found is not None else {"en": team}

    def step(self, name: str) -> Step:
        return next(s for s in self.night.steps if s.name == name)

    def deck_for(self, players: int) -> DeckRow | None:
        return next((d for d in self.deck if d.players[0] <= players <= d.players[1]), None)


class PresetVote(msgspec.Struct, kw_only=True, frozen=True):
    """What the judge reads of the table preset's ``[vote]`` (the table's defaults where the
    preset is silent: ``controller.core.vote.VoteRules``)."""

    single_nominee_first_day: Literal["no_vote", "vote"] = "no_vote"
    leftover: Literal["last_nominee", "abstain"] = "last_nominee"
    fork_gap: int = 0
    abstain_wins: bool = False


class PresetNight(msgspec.Struct, kw_only=True, frozen=True):
    """What the judge reads of the preset's ``[night]``: a step's ``seconds``."""

    seconds: float = 10.0


class TablePreset(msgspec.Struct, kw_only=True, frozen=True):
    """The table's rule preset as the judge reads it (only these keys; the table reads it
    whole). Its other sections and keys are the table's, and left alone."""

    name: str
    vote: PresetVote = PresetVote()
    night: PresetNight = PresetNight()


def book_path(name_or_path: str, base: Path | None = None) -> Path:
    """A shipped book by name (``fiim``, ``crow-club``...) or a file path (relative to ``base``,
    the judge's config folder)."""
    if "/" not in name_or_path and not name_or_path.endswith(".toml"):
        return BOOKS / f"{name_or_path}.toml"
    path = Path(name_or_path)
    return path if path.is_absolute() or base is None else base / path


def load(path: str | Path) -> Book:
    """Read a book file; a ``ConfigError`` names the file and every bad key."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        book = msgspec.convert(raw, Book)
    except FileNotFoundError:
        raise ConfigError(str(path), ["no such book"]) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(str(path), [str(exc)]) from None
    except msgspec.ValidationError as exc:
        raise ConfigError(str(path), i18n.title_was_name(raw, "a book's")
                          or [validation.describe(str(exc))]) from None
    book = msgspec.structs.replace(book, path=str(path))
    problems = check(book)
    if problems:
        raise ConfigError(str(path), problems)
    return book


def preset_path(book: Book) -> Path:
    """The table preset a book names: a shipped one by name, else a path from the book's."""
    name = book.table_preset
    if "/" not in name and not name.endswith(".toml"):
        return PRESETS / f"{name}.toml"
    return Path(book.path).parent / name


def load_preset(book: Book) -> TablePreset:
    """The table preset the book names, read for the keys the judge uses."""
    path = preset_path(book)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return msgspec.convert(_known(raw), TablePreset)
    except FileNotFoundError:
        raise ConfigError(book.path, [f"table_preset: no such preset {path}"]) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(book.path, [f"table_preset: {path}: {exc}"]) from None
    except msgspec.ValidationError as exc:
        raise ConfigError(book.path, [f"table_preset: {path}: "
                                      f"{validation.describe(str(exc))}"]) from None


def _known(raw: dict[str, Any]) -> dict[str, Any]:
    """The preset's keys the judge reads (the rest is the table's)."""
    keep = {"vote": PresetVote.__struct_fields__, "night": PresetNight.__struct_fields__}
    out: dict[str, Any] = {"name": raw.get("name")}
    for section, fields in keep.items():
        if isinstance(raw.get(section), dict):
            out[section] = {k: v for k, v in raw[section].items() if k in fields}
    return out


def check(book: Book) -> list[str]:
    """What the schema cannot say: every name a book uses is one it defines, and every deck
    adds up to its player count."""
    problems: list[str] = []
    if book.players.min > book.players.max:
        problems.append("players: min is above max")
    for name, role in book.roles.items():
        if role.team not in book.teams:
            problems.append(f"roles.{name}.team: no team {role.team!r} (teams: "
                            f"{', '.join(book.teams)})")
    problems += _check_deck(book)
    for i, step in enumerate(book.night.steps):
        where = f"night.steps[{i}]"
        problems += [f"{where}.roles: no role {r!r}" for r in step.roles if r not in book.roles]
        problems += [f"{where}.take_over: no role {r!r}" for r in step.take_over
                     if r not in book.roles]
        if step.seconds not in book.timings:
            problems.append(f"{where}.seconds: no timing {step.seconds!r}")
        if [s.name for s in book.night.steps].count(step.name) > 1:
            problems.append(f"{where}.name: {step.name!r} is in the wake order twice")
    for i, rnd in enumerate(book.day.rounds):
        if rnd.kind not in ROUND_KINDS and rnd.kind not in book.unbuilt:
            problems.append(f"day.rounds[{i}].kind: no round {rnd.kind!r} (the engine plays "
                            f"{', '.join(ROUND_KINDS)}; another goes in `unbuilt` until it is "
                            "built)")
        if rnd.kind == "discussion" and rnd.nominations:
            problems.append(f"day.rounds[{i}].nominations: a discussion is nobody's floor: "
                            "nobody nominates in it (nominations = false)")
        for key in ("timing", "opener_timing", "closer_timing"):
            value = getattr(rnd, key)
            if value is not None and value not in book.timings:
                problems.append(f"day.rounds[{i}].{key}: no timing {value!r}")
    if book.leaving.last_words is not None and book.leaving.last_words not in book.timings:
        problems.append(f"leaving.last_words: no timing {book.leaving.last_words!r}")
    first = book.first_night
    if first is not None and first.seconds is not None and first.seconds not in book.timings:
        problems.append(f"first_night.seconds: no timing {first.seconds!r}")
    for i, end in enumerate(book.endgames):
        if end.team not in book.teams and end.team != "draw":
            problems.append(f"endgames[{i}].team: no team {end.team!r}")
    if book.fouls.silence_at and book.fouls.silence_at >= book.fouls.out_at:
        problems.append("fouls.silence_at: must be below out_at")
    problems += check_texts(book)
    return problems


def check_texts(book: Book) -> list[str]:
    """Every text a book gives per language gives English, and only languages there is a
    catalog for (a misspelt code is never ignored)."""
    texts: list[tuple[str, Local]] = [
        ("title", book.title),
        *((f"teams.{n}.title", t.title) for n, t in book.teams.items()),
        *((f"roles.{n}.title", r.title) for n, r in book.roles.items()),
        *((f"deck[{i}].says", d.says) for i, d in enumerate(book.deck) if d.says),
        *((f"night.steps[{i}].label", s.label) for i, s in enumerate(book.night.steps)
          if s.label)]
    if book.first_night is not None and book.first_night.says:
        texts.append(("first_night.says", book.first_night.says))
    texts += [(f"stages.{stage}", name) for stage, name in book.stages.items()]
    return local_problems(texts)


#: what is wrong with each ``(key path, text per language)`` (a mechanism's options check theirs)
local_problems = i18n.text_problems


def _check_deck(book: Book) -> list[str]:
    problems: list[str] = []
    covered: list[int] = []
    for i, row in enumerate(book.deck):
        where = f"deck[{i}]"
        low, high = row.players
        if low > high:
            problems.append(f"{where}.players: {low} is above {high}")
        if low < book.players.min or high > book.players.max:
            problems.append(f"{where}.players: outside players {book.players.min}.."
                            f"{book.players.max}")
        rest = () if row.rest is None else (row.rest,)
        for role in (*row.roles, *rest, *row.optional, *row.optional.values()):
            if role not in book.roles:
                problems.append(f"{where}: no role {role!r}")
        cards = sum(row.roles.values())
        if row.rest is None and (low != high or cards != low):
            problems.append(f"{where}.roles: {cards} cards for {low}..{high} players (give "
                            "`rest`, the role of the other seats, for a range)")
        elif cards > low:
            problems.append(f"{where}.roles: {cards} cards for {low} players")
        covered += range(low, high + 1)
    missing = [n for n in range(book.players.min, book.players.max + 1) if n not in covered]
    if missing:
        problems.append(f"deck: no cards for {', '.join(map(str, missing))} players")
    twice = sorted({n for n in covered if covered.count(n) > 1})
    if twice:
        problems.append(f"deck: two rows for {', '.join(map(str, twice))} players")
    return problems
