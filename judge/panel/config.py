"""The judge service's config file (TOML): which table, which broker account, where the panel
listens, its password file, its journal, the rule book and the game's timings.

    table = "table-1"
    table_name = "Стол 1"    # what the club calls it on the sheet (or { ru = "...", en = "..." });
                             # default: «Стол 1» / "Table 1" from the number the id ends in
    [game]
    book = "fiim"            # a shipped book (fiim, crow-club, classic-000, online-003) or a
                             # book file's path (a club's copy): docs/judge-engine.md
    seats = 12               # the table's players (default: the book's smallest game)
    night_input = "keypad"   # or "count": a table with vote buttons only (the judge may change it)
    hide_roles = false       # the panel starts with the roles hidden (one tap shows them)
    [broker]                 # as the table's [broker]; the shipped ACL's account is rules-core
    host = "127.0.0.1"
    port = 1883
    username = "rules-core"
    password_file = "rules-core.pass"
    [panel]
    listen = "0.0.0.0:8443"
    password_file = "judge.pass"     # one line: the judge's password
    language = "ru"                  # the pages' language until a reader switches: ru or en
    # insecure_http = true           # plain HTTP off loopback: everything in the clear
    [panel.tls]              # HTTPS (kit.webserve): the folder `mafia-table tls` makes
    dir = "/etc/mafia-table/tls"
    trust_listen = "0.0.0.0:8080"    # plain HTTP: the page offering the CA to the tablets
    [journal]
    path = "judge-table-1.db"
    [timings]                # seconds over the book's own (any timing the book names)
    speech = 60
    [overlay]                # the stream overlay (docs/overlay.md)
    secrets = false          # roles and night actions on the overlay: only with a delay
    delay = 0                # seconds a secret is held back (the stream delay)
    token_file = "overlay.token"   # one line; needed with secrets, optional without
    club = ""                # the club's name, for the rating platform's overlay
    mafiaratings_plugin = "dist"     # that overlay's build, served where it expects to be

Paths are relative to the config file. Every mistake is reported with its key, as
``ConfigError`` (the table config's error type). Without ``[panel.tls]`` the panel speaks plain
HTTP, which is refused on an address other machines can reach unless ``insecure_http`` says so
(``kit.webserve.transport_problems``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from judge.game import Game, Previous, Refused, Rules, Timings, load_rules, new_game
from judge.game.book import Book
from judge.overlay.config import OverlayConfig
from kit import i18n
from kit.config import ConfigError, Section
from kit.mqtt import BrokerConfig
from kit.webserve import WebTLS, transport_problems

#: the seconds a timing may be set to
MAX_SECONDS = 600
#: the languages the panel speaks: those with a catalog (``kit/i18n/*.json``)
LANGUAGES = tuple(i18n.languages())


class PanelConfig(Section):
    password_file: str
    listen: str = "127.0.0.1:8080"
    tls: WebTLS | None = None
    insecure_http: bool = False
    #: the pages' language until a reader switches (each tab remembers its own: docs/i18n.md)
    language: Literal[LANGUAGES] = i18n.DEFAULT  # type: ignore[valid-type]


class JournalConfig(Section):
    path: str = "judge.db"


class GameConfig(Section):
    """Which rule book the panel plays, and how the table takes night picks at first."""

    book: Annotated[str, msgspec.Meta(min_length=1)] = "fiim"
    seats: Annotated[int, msgspec.Meta(ge=4, le=24)] | None = None
    night_input: Literal["keypad", "count"] = "keypad"
    hide_roles: bool = False


#: a name a person reads: not empty, one line, short enough for a sheet's heading
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[^\n\r\t]+$")]


class JudgeConfig(Section):
    table: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
    panel: PanelConfig
    #: what the club calls the table on paper (judge.record.club), one name or one per language
    table_name: Name | dict[Annotated[str, msgspec.Meta(pattern="^[a-z]{2,3}$")], Name] | None \
        = None
    broker: BrokerConfig = msgspec.field(default_factory=BrokerConfig)
    journal: JournalConfig = msgspec.field(default_factory=JournalConfig)
    game: GameConfig = msgspec.field(default_factory=GameConfig)
    #: seconds by the book's timing names, over the book's own
    timings: dict[str, float] = msgspec.field(default_factory=dict)
    overlay: OverlayConfig = msgspec.field(default_factory=OverlayConfig)
    #: the folder of the config file (a club's book is found from it)
    base: str = ""

    @property
    def game_rules(self) -> Rules:
        """The rules the panel plays: the book, its table preset, the timings."""
        return load_rules(self.game.book, base=Path(self.base) if self.base else None,
                          timings=self.timings, night_input=self.game.night_input)

    @property
    def game_timings(self) -> Timings:
        return self.game_rules.timings

    def new_game(self, previous: Previous | None = None) -> Game:
        """A fresh game of the configured book, at the configured number of seats, after
        ``previous`` at the table."""
        return new_game(self.game.seats, rules=self.game_rules, previous=previous)


def load(path: str | Path, listen: str | None = None) -> JudgeConfig:
    """Read and check a judge config; ``listen`` (``--listen``) wins over ``[panel] listen``."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        cfg = msgspec.convert(raw, JudgeConfig)
    except (OSError, tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise ConfigError(str(path), [str(exc)]) from None
    base = path.parent

    def here(p: str | None) -> str | None:
        return None if p is None else str(base / p)

    broker = msgspec.structs.replace(cfg.broker, password_file=here(cfg.broker.password_file))
    tls = cfg.panel.tls
    if tls is not None:
        tls = msgspec.structs.replace(tls, dir=str(base / tls.dir))
    panel = msgspec.structs.replace(cfg.panel, password_file=here(cfg.panel.password_file),
                                    listen=listen or cfg.panel.listen, tls=tls)
    transport = transport_problems(panel.listen, panel.tls, panel.insecure_http,
                                   option="[panel] insecure_http = true",
                                   tls_option="[panel.tls]")
    if transport:
        raise ConfigError("--listen" if listen else str(path),
                          [f"panel.{problem}" for problem in transport])
    overlay = msgspec.structs.replace(
        cfg.overlay, token_file=here(cfg.overlay.token_file),
        mafiaratings_plugin=here(cfg.overlay.mafiaratings_plugin))
    problems = [*_one_line_file("panel.password_file", panel.password_file)]
    if isinstance(cfg.table_name, dict):
        problems += i18n.text_problems([("table_name", cfg.table_name)])
    problems += _timings(cfg.timings)
    if overlay.token_file is not None:
        problems += _one_line_file("overlay.token_file", overlay.token_file)
    plugin = overlay.mafiaratings_plugin
    if plugin is not None and not (Path(plugin) / "index.html").is_file():
        problems.append(f"overlay.mafiaratings_plugin: no index.html in {plugin} (the "
                        "directory `ng build` wrote)")
    if overlay.secrets and overlay.delay <= 0:
        problems.append("overlay.secrets: roles and night actions go on a stream only late: "
                        "set overlay.delay (seconds, the stream delay)")
    if overlay.secrets and overlay.token_file is None:
        problems.append("overlay.secrets: an overlay with roles needs overlay.token_file, or "
                        "any phone in the hall could read them")
    if problems:
        raise ConfigError(str(path), problems)
    cfg = msgspec.structs.replace(cfg, broker=broker, panel=panel, overlay=overlay,
                                  journal=JournalConfig(path=str(base / cfg.journal.path)),
                                  base=str(base))
    # the book and every timing are checked now, not in a game
    try:
        book = load_rules(cfg.game.book, base=base).book
    except ConfigError as exc:
        raise ConfigError(str(path), [f"game.book: {exc}"]) from None
    problems = _book_timings(cfg.timings, book)
    if problems:
        raise ConfigError(str(path), problems)
    try:
        new_game(cfg.game.seats, rules=cfg.game_rules)
    except ConfigError as exc:
        raise ConfigError(str(path), [f"game.book: {exc}"]) from None
    except Refused as exc:
        raise ConfigError(str(path), [f"game.seats: {exc}"]) from None
    return cfg


def _timings(timings: dict[str, float]) -> list[str]:
    return [f"timings.{name}: seconds above 0 and at most {MAX_SECONDS} expected, not "
            f"{value:g}" for name, value in timings.items() if not 0 < value <= MAX_SECONDS]


def _book_timings(timings: dict[str, float], book: Book) -> list[str]:
    """A ``[timings]`` name the book does not take, with the names it takes (each book's:
    docs/book-timings.md)."""
    takes = ", ".join(book.timings)
    return [f"timings.{name}: the book {book.title.get('en', book.id)!r} takes no timing "
            f"{name!r}; it takes {takes} (docs/book-timings.md)"
            for name in timings if name not in book.timings]


def _one_line_file(key: str, path: str) -> list[str]:
    """A password or token file: there, and not empty."""
    if not Path(path).is_file():
        return [f"{key}: file not found: {path}"]
    if not Path(path).read_text(encoding="utf-8").strip():
        return [f"{key}: the file is empty"]
    return []
