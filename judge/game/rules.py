"""A book put to use: its mechanisms, vote procedure and endgames found, their options checked,
its citations complete, the table preset read, the timings settled (``Rules``).

``load_rules("crow-club")`` (a shipped book's name, or a file path) is what the judge's config
and every replay of a journal use; ``FIIM`` is the default book. Every mistake in a book, from
a misspelt key to a mechanism no module defines, is one ``kit.config.ConfigError`` listing them
all with their key paths.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from contract import validation
from judge.game import book as books
from judge.game.book import Book
from judge.game.endgames import ENDGAMES
from judge.game.mechanisms import MECHANISMS, stepless, used
from judge.game.state import Refused, Rules, Timings
from judge.game.votes import PROCEDURES
from kit.config import ConfigError
from kit.i18n import Line

T = TypeVar("T")

#: the ``[cite]`` keys the engine itself cites (a vote procedure adds its own)
CORE_CITES = ("seats", "players", "deck", "deal", "start", "day", "opener", "floor",
              "nominate", "vote_running", "count", "voters", "nightfall", "night", "morning",
              "killed", "fouls")


def load_rules(name_or_path: str | Path = "fiim", base: Path | None = None,
               timings: Mapping[str, float] | None = None,
               night_input: str = "keypad") -> Rules:
    """The rules of a book: a shipped one by name or a file (relative to ``base``), with the
    ``timings`` given over the book's."""
    path = books.book_path(str(name_or_path), base)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0  # the loader says what is wrong with it
    book = _book(str(path), stamp)
    preset = books.load_preset(book)
    try:
        settled = Timings(**dict(timings or {})).over(book, preset)
    except Refused as exc:
        raise ConfigError(book.path, [str(exc)]) from None
    return Rules(book=book, preset=preset, timings=settled, night_input=night_input)


@cache
def _book(path: str, stamp: int) -> Book:
    """A book put to use, once per version of its file (``stamp``: its modification time)."""
    book = books.load(path)
    checked, problems = put_to_use(book)
    if problems:
        raise ConfigError(str(path), problems)
    return checked


def put_to_use(book: Book) -> tuple[Book, list[str]]:
    """The book with each step's, the procedure's and each endgame's ``options`` read into
    their module's ``Options``, and every problem: a module that does not exist, a bad option,
    a citation the engine needs and the book does not give."""
    problems: list[str] = []
    steps = []
    known = {*MECHANISMS, *PROCEDURES, *ENDGAMES, *books.ROUND_KINDS}
    problems += [f"unbuilt: {name!r} is built now: take it off the list" for name in
                 book.unbuilt if name in known]
    for i, step in enumerate(book.night.steps):
        where = f"night.steps[{i}]"
        mechanism = _module(MECHANISMS, "mechanism", step.mechanism, f"{where}.mechanism",
                            book, problems)
        if mechanism is None:
            if step.mechanism in book.unbuilt:
                steps.append(step)
            continue
        step = msgspec.structs.replace(
            step, options=_options(step.options, mechanism.Options, where, problems))
        if isinstance(step.options, mechanism.Options):
            problems += [f"{where}.{p}" for p in mechanism.check(book, step)]
        steps.append(step)
    built = {*MECHANISMS, *book.unbuilt}
    for name, role in book.roles.items():
        problems += [f"roles.{name}.traits: no mechanism {t!r}" for t in role.traits
                     if t not in built]
    problems += [f"night.resolution: no mechanism {m!r}" for m in book.night.resolution
                 if m not in built]
    options = {}
    for name, raw in book.night.options.items():
        found = MECHANISMS.get(name)
        if found is None or name not in stepless(book):
            problems.append(f"night.options.{name}: no mechanism {name!r} that runs no step in "
                            "the book (a step's options go with the step)")
            continue
        options[name] = _options(raw, found.Options, f"night.options.{name}", problems)
    vote = book.vote
    procedure = _module(PROCEDURES, "procedure", vote.procedure, "vote.procedure", book,
                        problems)
    if procedure is not None:
        vote = msgspec.structs.replace(
            vote, options=_options(vote.options, procedure.Options, "vote", problems))
        if isinstance(vote.options, procedure.Options):
            problems += [f"vote.{p}" for p in procedure.check(book, vote.options)]
    endgames = []
    for i, row in enumerate(book.endgames):
        endgame = _module(ENDGAMES, "endgame", row.kind, f"endgames[{i}].kind", book, problems)
        if endgame is None:
            if row.kind in book.unbuilt:
                endgames.append(row)
            continue
        endgames.append(msgspec.structs.replace(
            row, options=_options(row.options, endgame.Options, f"endgames[{i}]", problems)))
    if procedure is not None:
        problems += [f"timings.{name}: missing (the vote procedure {procedure.name!r} times "
                     f"{what} with it)" for name, what in procedure.timings.items()
                     if name not in book.timings]
    needed = (*CORE_CITES, *(procedure.cites if procedure is not None else ()),
              *(c for m in used(book) if m in MECHANISMS for c in MECHANISMS[m].cites))
    problems += [f"cite.{key}: missing (the engine cites it)" for key in needed
                 if key not in book.cite]
    night = msgspec.structs.replace(book.night, steps=tuple(steps), options=options)
    return msgspec.structs.replace(book, night=night, vote=vote,
                                   endgames=tuple(endgames)), problems


def _module(registry: Mapping[str, T], kind: str, name: str, where: str, book: Book,
            problems: list[str]) -> T | None:
    """The module ``name`` of a folder (``registry``), or ``None``: a problem named at
    ``where`` unless the book lists it as ``unbuilt``."""
    module = registry.get(name)
    if module is None and name not in book.unbuilt:
        problems.append(f"{where}: no {kind} {name!r} (there are: {', '.join(sorted(registry))})")
    return module


def _options(raw: Any, kind: type[msgspec.Struct], where: str, problems: list[str]) -> Any:
    try:
        return msgspec.convert(raw, kind)
    except msgspec.ValidationError as exc:
        said = validation.describe(str(exc))
        problems.append(f"{where}.options.{said}" if " - at `$." in str(exc)
                        else f"{where}.options: {said}")
        return raw


def wrong_preset(book: Book, plays: str | None) -> Line | None:
    """Why a game of ``book`` may not start on a table that plays the rule preset ``plays``
    (its ``state``'s ``rules``; ``None``: it plays none): the book needs its ``table_preset``
    (a FIIM table counts the votes left over for the last nominee, the online variant's second
    round needs them to abstain), in words that say which line to change; ``None`` when the
    table plays it."""
    needs = books.preset_path(book).stem
    if plays == needs:
        return None
    file = f"rules/{needs}.toml"
    if plays is None:
        return Line(None, "refused.table_preset.none", book=book.title, needs=needs, file=file)
    return Line(None, "refused.table_preset", table=plays, book=book.title, needs=needs,
                file=file)


FIIM_BOOK = "fiim"


@cache
def fiim() -> Rules:
    """FIIM's rules as shipped (``config/books/fiim.toml``), the default."""
    return load_rules(FIIM_BOOK)
