"""A tournament at the hall, as data: its players, its rounds and their seatings, and what the
games the tables send make of it (pure; the board, ``hall.board``, keeps it in its store).

The organiser's flow (docs/tournament.md): ``create`` (the players, each one's games of the
main stage, the tables a round, the scoring preset, the restrictions for the seating), then the
main stage's seating, ``generate``d (``hall.seating.chart``) or loaded (``with_seating``), each
round ``sent`` to its tables (``messages``: retained ``seating``, carrying the tournament's id,
which comes back with each game), a player ``withdraw``n (a substitute in their seats, or the
rounds to come seated again without them), the games counted as they come (``games``), the
standings (``results.standings``: the main stage and the final scored apart), and the final
(``seed_final``: the main stage's best, seated for the final's rounds at one table, their
fixed seats held).

A game counts in a round when its message names this tournament and that round (the round's
seating named its players at the table), it came from a table of that round, and it is
finished; every other game the hall holds is listed with the reason it does not count.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from hall.seating import chart as seating_module
from hall.seating.chart import Seating
from hall.store import Held, result_words
from hall.tables import natural, table_words
from kit import i18n, player_names
from kit.i18n import Words
from results import mafiaratings, scoring, spreadsheet, standings
from results.record import Record
from results.standings import FINAL, MAIN

if TYPE_CHECKING:
    from hall.seating.inputs import Restrictions

#: the judge's panel keeps 40 characters of a name (judge/game/setup.py): a longer one would
#: come back shortened and count for nobody
MAX_NAME = 40
MAX_ROUNDS = 60
#: the preset a new tournament is scored by unless the organiser picks another: the rating
#: platform's FIIM scoring, exactly (config/scoring/fiim-mafiaratings-7.toml)
DEFAULT_SCORING = "fiim-mafiaratings-7"
#: the players at a table
SEATS = 10
Stage = Literal["main", "final"]


class TournamentError(ValueError):
    """What cannot be done, each reason in a sentence."""

    def __init__(self, problems: list[Words]):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


class Round(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    number: Annotated[int, msgspec.Meta(ge=1, le=999)]
    stage: Stage = "main"
    seating: dict[str, dict[int, str]]  # table -> seat -> player
    sent: float | None = None  # when it went to the tables


class Withdrawal(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``player`` plays no more from main round ``round`` on; ``substitute`` (a new player)
    took their seats from then, or the rounds were seated again without them."""

    player: str
    round: int
    substitute: str | None = None


class Tournament(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    v: int = 1
    id: str  # in every seating sent, and back in every game: "t-<created>"
    name: str
    created: float
    players: list[str]
    games: int  # each player's games of the main stage
    tables: int  # the main stage's tables a round
    scoring: str  # a preset of config/scoring/
    restrictions: str = ""  # the seating generator's file (docs/hall.md)
    rounds: list[Round] = []
    same_yo: bool = True  # "ё" and "е" one letter in the players' names (``identity``)
    ids: dict[str, int] = {}  # a player's id on the rating platform, where the organiser gave it
    #: in order; a substitute is in ``players`` too (after the players it was made with)
    withdrawals: list[Withdrawal] = []

    def round(self, number: int) -> Round | None:
        return next((r for r in self.rounds if r.number == number), None)

    def stage(self, stage: str) -> list[Round]:
        return [r for r in self.rounds if r.stage == stage]


def encode(tournament: Tournament) -> bytes:
    return msgspec.json.encode(tournament)


def decode(document: bytes) -> Tournament:
    return msgspec.json.decode(document, type=Tournament)


# ------------------------------------------------------------------ making it


def create(name: str, players: str, games: int, tables: int, scoring_name: str,
           restrictions: str, now: float, presets: Mapping[str, scoring.Preset], *,
           same_yo: bool = True) -> Tournament:
    """A new tournament, or ``TournamentError`` with every problem: ``players`` one name a
    line (blank lines and ``#`` comments skipped), each tidied (``kit.player_names``), 10 or
    more, no player twice (``identity``: ``same_yo`` reads "ё" as "е"), none longer than the
    panel keeps; ``tables`` 1 to players / 10; the numbers the seating generator can seat (its
    own check, ``hall.seating.instance``: players x games a multiple of 10, as the command line
    refuses); a known preset; restrictions the seating generator reads."""
    from hall.seating import inputs

    problems = []
    name = name.strip()
    if not 1 <= len(name) <= 80:
        problems.append(Words("tournament.refused.name"))
    ids: dict[str, int] = {}
    try:
        names, ids = _names(players, same_yo)
    except inputs.InputError as exc:
        names = []
        problems += [Words("tournament.refused.players", problem=p) for p in exc.problems]
    except TournamentError as exc:
        names = []
        problems += exc.problems
    if len(names) < 10:
        problems.append(Words("tournament.refused.few", count=len(names)))
    if not 1 <= games <= MAX_ROUNDS:
        problems.append(Words("tournament.refused.games", count=games, most=MAX_ROUNDS))
    if names and not 1 <= tables <= max(1, len(names) // 10):
        problems.append(Words("tournament.refused.tables", count=tables,
                              most=max(1, len(names) // 10), players=len(names)))
    if not problems:
        problems += _unseatable(len(names), games, tables)
    if scoring_name not in presets:
        problems.append(Words("tournament.refused.scoring", scoring=scoring_name,
                              presets=", ".join(presets)))
    if names and restrictions.strip():
        problems += _restriction_problems(restrictions, names, games, tables, same_yo)
    if problems:
        raise TournamentError(problems)
    return Tournament(id=f"t-{int(now)}", name=name, created=now, players=names, games=games,
                      tables=tables, scoring=scoring_name, restrictions=restrictions,
                      same_yo=same_yo, ids=ids)


def identity(name: str, same_yo: bool = True) -> str:
    """Who a name is: two names of one identity are one player (``P1``, `` p1 `` and ``p  1``
    are one; ``Алёна`` and ``Алена`` too when ``same_yo``, as the judge's panel reads them,
    ``kit.player_names.key``). The spelling kept is the first one registered."""
    return player_names.key(name) if same_yo else player_names.tidy(name, None).casefold()


def _restriction_problems(text: str, names: list[str], games: int, tables: int,
                          same_yo: bool) -> list[Words]:
    """Whatever is wrong with the restrictions for these players, games and tables: a line the
    generator cannot read, a name of no player, or a table, round or seat not in the
    tournament, or rules no seating can hold (a player kept from every table, a seat fixed for
    two players who may meet, a group larger than the tables: the generator's own check,
    ``hall.seating.split``)."""
    from hall.seating import inputs
    from hall.seating.instance import Refused, instance, named
    from hall.seating.split import split

    try:
        rules = read_restrictions(text, names, same_yo)
    except inputs.InputError as exc:
        return [Words("tournament.refused.restrictions", problem=p) for p in exc.problems]
    try:
        shape = instance(len(names), games, tables)
    except Refused:
        return []  # its numbers are wrong: nothing to hold the restrictions to
    try:
        split(instance(len(names), games, tables, rules.apart, rules.avoid, rules.away,
                       rules.fixed(len(shape.round_tables()))))
    except Refused as exc:
        return [Words("tournament.refused.restrictions", problem=named(p, names))
                for p in exc.reasons]
    return []



def _names(text: str, same_yo: bool = True) -> tuple[list[str], dict[str, int]]:
    """The players of the players' text, each tidied, and the ids on the rating platform some
    lines give after the name (``Анна Петрова; 1234``, or a tab: a spreadsheet's two columns);
    a second line of one player (by ``identity``) is refused naming both lines, and so is an
    id given twice."""
    from hall.seating import inputs

    lines, given_ids = [], {}
    for raw in text.splitlines():
        name, _, after = raw.replace("\t", ";").rpartition(";")
        if name and after.strip().isdigit() and 0 < int(after) < 2**31:
            lines.append(player_names.tidy(name, None))
            given_ids[len(lines)] = int(after)
        else:
            lines.append(player_names.tidy(raw, None))
    seen: dict[str, tuple[int, str]] = {}
    owners: dict[int, tuple[int, str]] = {}
    again = []
    for number, line in enumerate(lines, start=1):
        if not line or line.startswith("#"):
            continue
        first = seen.setdefault(identity(line, same_yo), (number, line))
        if first[0] != number:
            again.append(Words("tournament.refused.again", line=number, name=line,
                               first=first[0], spelled=first[1]))
        if number in given_ids:
            owner = owners.setdefault(given_ids[number], (number, line))
            if owner[0] != number:
                again.append(Words("tournament.refused.id_again", line=number, name=line,
                                   id=given_ids[number], first=owner[0], owner=owner[1]))
    if again:
        raise TournamentError(again)
    given = [line for line in lines if line and not line.startswith("#")]
    names = inputs.names("\n".join(lines), len(given), "players")
    long = [n for n in names if len(n) > MAX_NAME]
    if long:
        raise TournamentError([Words("tournament.refused.long", name=n, most=MAX_NAME)
                               for n in long])
    return names, {lines[n - 1]: id_ for n, id_ in given_ids.items()}


#: the restrictions' kinds as the organiser's page names them in Russian (the generator's file
#: names them in English: docs/hall.md)
KINDS = {"врозь": "apart", "реже": "avoid", "не за стол": "away", "место": "seat"}


def restriction_text(text: str) -> str:
    """The restrictions an organiser typed, each line's kind as the seating generator reads it:
    «врозь, Анна, Борис» is ``apart, Анна, Борис``, «реже, ...» ``avoid, ...``, «не за стол, 2,
    Анна» ``away, 2, Анна``, «место, 1, Анна» ``seat, 1, Анна``; any other line as it is (the
    generator names what it cannot read)."""
    lines = []
    for line in text.splitlines():
        kind, rest = restriction_line(line)
        lines.append(f"{kind},{rest}" if kind else line)
    return "\n".join(lines)


def restriction_line(line: str) -> tuple[str | None, str]:
    """A restriction's kind as the generator names it (from the organiser's Russian word or
    the generator's own) and the rest of its line after the comma; None for a line of neither
    (a comment, a mistake: the generator says what is wrong)."""
    from hall.seating.inputs import KINDS as FILE_KINDS

    word, comma, rest = line.partition(",")
    word = word.strip().casefold()
    kind = KINDS.get(word, word if word in FILE_KINDS else None)
    return (kind, rest) if kind and comma else (None, line)


def read_restrictions(text: str, names: list[str], same_yo: bool = True,
                      source: str = "restrictions") -> Restrictions:
    """The restrictions an organiser typed (in either language's words, ``restriction_text``)
    for these players, each name read as the tournament reads names (``identity``: «анна» is
    «Анна»); ``hall.seating.inputs.InputError`` naming each line it cannot read."""
    from hall.seating import inputs

    if not text.strip():
        return inputs.Restrictions()
    return inputs.restrictions(restriction_text(text), names, source,
                               key=lambda name: identity(name, same_yo))


def _unseatable(players: int, games: int, tables: int) -> list[Words]:
    """What the seating generator would refuse in these numbers (the command line's check,
    ``hall.seating.instance``), each reason as the tournament's refusal."""
    from hall.seating.instance import Refused, instance

    try:
        instance(players, games, tables)
    except Refused as exc:
        return [Words("tournament.refused.unseatable", reason=r) for r in exc.reasons]
    return []


def seating_of(tournament: Tournament, stage: str = MAIN) -> Seating:
    """The stage's rounds as the seating CSV has them (``hall.seating.chart``)."""
    return {r.number: r.seating for r in tournament.stage(stage)}


def generate(tournament: Tournament, seed: int, seconds: float) -> Tournament:
    """The main stage seated by ``hall.seating.chart`` (players, games, tables, restrictions of
    the tournament); ``TournamentError`` with the generator's reasons."""
    from hall.seating import plan

    with _generator_refusals():
        rules = read_restrictions(tournament.restrictions, tournament.players,
                                  tournament.same_yo)
        made, _ = plan.seated(tournament.players, tournament.games, tournament.tables, rules,
                              seed, seconds)
    return with_seating(tournament, made)


@contextmanager
def _generator_refusals(file: str = "tournament.refused.restrictions") -> Iterator[None]:
    """The seating generator's refusals as the tournament's: a restrictions ``file`` it cannot
    read, an instance it cannot seat."""
    from hall.seating import inputs
    from hall.seating.instance import Refused

    try:
        yield
    except inputs.InputError as exc:
        raise TournamentError([Words(file, problem=p) for p in exc.problems]) from None
    except Refused as exc:
        raise TournamentError([Words("tournament.refused.unseatable", reason=r)
                               for r in exc.reasons]) from None


def with_seating(tournament: Tournament, seating: Seating, stage: str = MAIN, *,
                 loaded: bool = False) -> Tournament:
    """The stage's rounds replaced by ``seating`` (a generated one, or the CSV an organiser
    ``loaded``), numbered in order (the final's after the main stage's), each name as the
    tournament registered it (``identity``: the CSV's `` p1 `` is ``P1``). Refused, nothing
    replaced, while a round of the stage is at the tables, for the main stage once the final is
    seated, for a name of no player or a player twice in a round, and for a loaded file that
    does not seat the stage whole (``seating_problems``; the generator's seatings are whole by
    making)."""
    problems = []
    sent = [r.number for r in tournament.stage(stage) if r.sent is not None]
    if sent:
        problems.append(Words("tournament.refused.at_tables", round=sent[0],
                              stage=stage_words(stage)))
    if stage == MAIN and tournament.stage(FINAL):
        problems.append(Words("tournament.refused.final_seated"))
    if stage == FINAL and not tournament.stage(MAIN):
        problems.append(Words("tournament.refused.no_seating"))
    seating, wrong = seating_problems(tournament, seating, stage, whole=loaded)
    problems += wrong
    if problems:
        raise TournamentError(problems)
    others = [r for r in tournament.rounds if r.stage != stage]
    start = max((r.number for r in others), default=0)
    rounds = [Round(number=start + k, stage=stage, seating=seating[n])  # type: ignore[arg-type]
              for k, n in enumerate(sorted(seating), start=1)]
    return msgspec.structs.replace(tournament, rounds=[*others, *rounds])


def seating_problems(tournament: Tournament, seating: Seating, stage: str = MAIN, *,
                     whole: bool = True) -> tuple[Seating, list[Words]]:
    """``seating`` with each name as registered, and what keeps it from seating the stage:
    a name that is no player's, a player twice in a round; and, when it must seat the stage
    ``whole`` (a file an organiser loaded), a table not of ten (seats 1 to 10), rounds or a
    round's tables other than the tournament's numbers make, and a player with more or fewer
    games than the stage gives each (the main stage: the tournament's ``games``, every player;
    the final: the same number each). A table missing from a round leaves its ten players a
    game short: refused, as a half-seated stage would count for some and not for others."""
    registered = {identity(p, tournament.same_yo): p for p in tournament.players}
    problems: list[Words] = []
    strangers: set[str] = set()
    mapped: Seating = {}
    games: dict[str, int] = {}
    for number in sorted(seating):
        tables = seating[number]
        where: dict[str, str] = {}
        for table in sorted(tables):
            seats = tables[table]
            if whole and sorted(seats) != list(range(1, SEATS + 1)):
                problems.append(Words("tournament.refused.table_seats", round=number,
                                      table=table_words(table), count=len(seats),
                                      seats=SEATS))
            for seat in sorted(seats):
                player = registered.get(identity(seats[seat], tournament.same_yo))
                if player is None:
                    strangers.add(seats[seat])
                    continue
                if player in where:
                    problems.append(Words("tournament.refused.seated_twice", round=number,
                                          player=player, table=table_words(where[player]),
                                          then=table_words(table)))
                where[player] = table
                games[player] = games.get(player, 0) + 1
                mapped.setdefault(number, {}).setdefault(table, {})[seat] = player
    if strangers:
        problems.append(Words("tournament.refused.strangers",
                              names=", ".join(sorted(strangers)[:10])))
    if not whole:
        return mapped, problems
    if stage == MAIN:
        problems += _round_tables(tournament, seating)
    if stage == MAIN and not strangers:
        each = tournament.games
        off = [p for p in tournament.players if games.get(p, 0) != each]
        if off:
            problems.append(Words("tournament.refused.games_each", count=each,
                                  players=", ".join(f"{p} ({games.get(p, 0)})"
                                                    for p in off[:10]),
                                  more=Words("tournament.refused.more", count=len(off) - 10)
                                  if len(off) > 10 else ""))
    elif games and len(set(games.values())) > 1:
        problems.append(Words("tournament.refused.games_uneven", players=", ".join(
            f"{p} ({n})" for p, n in sorted(games.items())[:10])))
    return mapped, problems


def withdraw(tournament: Tournament, player: str, start: int, substitute: str | None,
             seed: int, seconds: float) -> Tournament:
    """``player`` plays no more from main round ``start`` on, the rounds before it (all sent
    to the tables) kept as they are: ``substitute`` (a new player) takes their seats from then
    on, or without one the main rounds from ``start`` are seated again without them
    (``hall.seating.reseat``). Refused for a player not playing the rounds to come, a round
    not of the main stage or already at the tables, or a substitute who cannot be one."""
    from hall.seating import plan, reseat
    from hall.seating.instance import Refused, instance

    main = tournament.stage(MAIN)
    numbers = [r.number for r in main]
    problems = []
    if not main:
        problems.append(Words("tournament.refused.no_seating"))
    elif tournament.stage(FINAL):
        problems.append(Words("tournament.refused.final_seated"))
    elif start not in numbers[1:]:
        problems.append(Words("tournament.refused.withdraw_round", round=start,
                              rounds=numbers[1:]))
    else:
        problems += [Words("tournament.refused.unsent", round=r.number) for r in main
                     if r.number < start and r.sent is None]
        problems += [Words("tournament.refused.at_tables", round=r.number,
                           stage=stage_words(MAIN)) for r in main
                     if r.number >= start and r.sent is not None][:1]
    slot = _slots(tournament)
    names = [tournament.players[k] for k in sorted(set(slot.values()))]  # the slots' first
    current = {name: _occupant(tournament, name) for name in names}
    playing = set(current.values()) - {w.player for w in tournament.withdrawals}
    player = next((p for p in playing if identity(p, tournament.same_yo)
                   == identity(player, tournament.same_yo)), player)  # as registered
    if player not in playing:
        problems.append(Words("tournament.refused.withdraw_player", player=player))
    if problems:
        raise TournamentError(problems)
    seating = {r.number: r.seating for r in main}
    with _generator_refusals():
        if substitute is not None:
            substitute = player_names.tidy(substitute, None)
            taken = {identity(p, tournament.same_yo) for p in tournament.players}
            if not 1 <= len(substitute) <= MAX_NAME \
                    or identity(substitute, tournament.same_yo) in taken:
                raise Refused([Words("seating.reseat.taken", name=substitute)])
            made = reseat.substitute(seating, start, {player: substitute}, tournament.players)
        else:
            slot_names = [current[n] for n in names]
            as_slots = {n: {t: {s: slot_names[slot[p]] for s, p in seats.items()}
                            for t, seats in tables.items()} for n, tables in seating.items()}
            gone = [slot_names[slot[w.player]] for w in tournament.withdrawals
                    if w.substitute is None] + [player]
            rules = read_restrictions(tournament.restrictions, names, tournament.same_yo)
            made, _ = plan.reseated(slot_names, instance(len(names), tournament.games,
                                                         tournament.tables),
                                    rules, as_slots, start, gone, seed, seconds)
    rounds = [r if r.number < start or r.stage != MAIN else
              msgspec.structs.replace(r, seating=made[r.number]) for r in tournament.rounds]
    added = [substitute] if substitute is not None else []
    return msgspec.structs.replace(
        tournament, rounds=rounds, players=[*tournament.players, *added],
        withdrawals=[*tournament.withdrawals, Withdrawal(player=player, round=start,
                                                         substitute=substitute)])


def _slots(tournament: Tournament) -> dict[str, int]:
    """Each player's slot: the index of the player they play for among those the tournament
    was made with (a substitute fills the slot of the player they replaced)."""
    slot = {}
    for k, name in enumerate(tournament.players):
        slot[name] = k
    for w in tournament.withdrawals:
        if w.substitute is not None:
            slot[w.substitute] = slot[w.player]
    return slot


def _occupant(tournament: Tournament, name: str) -> str:
    """Who plays in ``name``'s slot now: the last substitute in it, else ``name``."""
    for w in tournament.withdrawals:
        if w.player == name and w.substitute is not None:
            name = w.substitute
    return name


def sent(tournament: Tournament, number: int, now: float) -> Tournament:
    """Round ``number`` went to its tables (again: a round may be sent twice)."""
    if tournament.round(number) is None:
        raise TournamentError([Words("tournament.refused.round", round=number,
                                     rounds=[r.number for r in tournament.rounds])])
    return msgspec.structs.replace(tournament, rounds=[
        msgspec.structs.replace(r, sent=now) if r.number == number else r
        for r in tournament.rounds])


def messages(tournament: Tournament, number: int) -> dict[str, dict[str, Any]]:
    """Round ``number``'s ``seating`` documents, by table, with the tournament's id."""
    found = tournament.round(number)
    if found is None:
        raise TournamentError([Words("tournament.refused.round", round=number,
                                     rounds=[r.number for r in tournament.rounds])])
    return seating_module.messages({number: found.seating}, number, tournament.id)


# ------------------------------------------------------------------ the games


@dataclass(frozen=True)
class Game:
    """A game the hall holds, as the tournament sees it: counted (in ``round``) or not, why
    not, and what the organiser should look at (``warnings``)."""

    held: Held
    round: int | None
    counted: bool
    why: Words | None = None
    warnings: tuple[Words, ...] = ()


def games(tournament: Tournament, held: Sequence[Held]) -> list[Game]:
    """Every game held, with whether and where it counts."""
    found: list[Game] = []
    seen: set[tuple[int, str]] = set()
    for h in held:
        message, record = h.message, h.record
        round_ = tournament.round(message.round) if message.round is not None else None
        if message.tournament != tournament.id:
            found.append(Game(h, None, False, Words("tournament.why.elsewhere")))
        elif round_ is None:
            found.append(Game(h, message.round, False,
                              Words("tournament.why.round", round=message.round)))
        elif message.table not in round_.seating:
            found.append(Game(h, round_.number, False, Words(
                "tournament.why.table", table=table_words(message.table),
                round=round_.number)))
        elif record is None:
            found.append(Game(h, round_.number, False, Words(
                "tournament.why.withdrawn", reason=message.withdrawn or "")))
        elif record.status != "finished":
            found.append(Game(h, round_.number, False, Words(
                "tournament.why.abandoned",
                reason=record.abandon_reason or Words("tournament.why.no_reason"))))
        else:
            warnings = _seating_warnings(record.players, round_.seating[message.table],
                                         tournament.same_yo)
            if (round_.number, message.table) in seen:
                warnings.append(Words("tournament.warning.second",
                                      table=table_words(message.table),
                                      round=round_.number))
            seen.add((round_.number, message.table))
            found.append(Game(h, round_.number, True, warnings=tuple(warnings)))
    return found


def _seating_warnings(players: Sequence[Any], seats: Mapping[int, str],
                      same_yo: bool = True) -> list[Words]:
    """A seat whose name is not the seating's (by ``identity``: ``p1`` is ``P1``)."""
    return [Words("tournament.warning.name", seat=p.seat,
                  name=p.name or Words("tournament.warning.no_name"),
                  seated=seats.get(p.seat) or Words("tournament.warning.nobody"))
            for p in players
            if identity(seats.get(p.seat, ""), same_yo) != identity(p.name, same_yo)]


def as_registered(tournament: Tournament, record: Record) -> Record:
    """``record`` with each name the tournament's spelling of that player (``identity``), so
    a judge's ``p1`` counts for the registered ``P1``; a name of no player stays as it is."""
    registered = {identity(p, tournament.same_yo): p for p in tournament.players}
    players = [msgspec.structs.replace(p, name=registered.get(identity(p.name, tournament.same_yo),
                                                               p.name))
               for p in record.players]
    return msgspec.structs.replace(record, players=players)


def _round_tables(tournament: Tournament, seating: Seating) -> list[Words]:
    """The main stage's rounds and each one's tables as the tournament's numbers make them
    (``hall.seating.instance``: full rounds, the last one maybe on fewer tables)."""
    from hall.seating.instance import Instance

    expected = Instance(len(tournament.players), tournament.games,
                        tournament.tables).round_tables()
    given = [len(seating[n]) for n in sorted(seating)]
    if len(given) != len(expected):
        return [Words("tournament.refused.round_count", count=len(given),
                      rounds=len(expected))]
    return [Words("tournament.refused.round_tables", round=n, count=g, expected=e)
            for n, g, e in zip(sorted(seating), given, expected, strict=True) if g != e]


def stage_words(stage: str) -> Words:
    """A stage's name for a reader (``main``, ``final``)."""
    return Words({MAIN: "tournament.stage.main", FINAL: "tournament.stage.final"}[stage])


def table_of(tournament: Tournament, held: Sequence[Held],
             presets: Mapping[str, scoring.Preset]) -> standings.Standings:
    """The standings of the games that count."""
    counted = [standings.Game(as_registered(tournament, g.held.record), g.round)
               for g in games(tournament, held)
               if g.counted and g.held.record is not None and g.round is not None]
    return standings.standings(counted, [standings.Round(r.number, r.stage)
                                         for r in tournament.rounds],
                               presets[tournament.scoring], tournament.players, tournament.ids)


def complete(tournament: Tournament, counted: Sequence[Game], number: int) -> list[str]:
    """The tables of round ``number`` whose game has not come (empty: the round is over)."""
    found = tournament.round(number)
    done = {g.held.message.table for g in counted if g.counted and g.round == number}
    return [] if found is None else [t for t in sorted(found.seating) if t not in done]


def seed_final(tournament: Tournament, held: Sequence[Held],
               presets: Mapping[str, scoring.Preset], finalists: int, rounds: int,
               table: str, seed: int, seconds: float, seats: str = "") -> Tournament:
    """The final: the main stage's best ``finalists`` (its standings' order) seated for
    ``rounds`` games at ``table``, ``seats`` (the generator's ``seat`` lines, by finalist's
    name) fixed; refused while a main round is unsent or a game of it is still to come, or once
    the final is at the tables."""
    from hall.seating import plan

    problems = []
    main = tournament.stage(MAIN)
    counted = games(tournament, held)
    if not main:
        problems.append(Words("tournament.refused.no_seating"))
    for r in main:
        if r.sent is None:
            problems.append(Words("tournament.refused.unsent", round=r.number))
        elif waiting := complete(tournament, counted, r.number):
            problems.append(Words("tournament.refused.waiting", round=r.number,
                                  tables=[table_words(w) for w in waiting]))
    if not 1 <= rounds <= MAX_ROUNDS:
        problems.append(Words("tournament.refused.final_rounds", count=rounds, most=MAX_ROUNDS))
    if not seating_module.TABLE_ID.match(table):
        problems.append(Words("tournament.refused.table", table=table))
    best = [row.player for row in table_of(tournament, held, presets).stages[MAIN].rows] \
        if main else []
    if main and len(best) < finalists:
        problems.append(Words("tournament.refused.finalists", count=len(best),
                              finalists=finalists))
    if problems:
        raise TournamentError(problems)
    with _generator_refusals("tournament.refused.final_seats"):
        rules = read_restrictions(seats, best[:finalists], tournament.same_yo, "seats")
        made, _ = plan.seated(best[:finalists], rounds, 1, rules, seed, seconds)
    at_table = {n: {table: next(iter(tables.values()))} for n, tables in made.items()}
    return with_seating(tournament, at_table, FINAL)


# ------------------------------------------------------------------ what the pages show


def organiser_view(tournament: Tournament | None, held: Sequence[Held],
                   presets: Mapping[str, scoring.Preset], refused: int,
                   history: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
    """Everything the organiser's page shows (``history``: each game's entries)."""
    choices = [{"id": k, "title": p.title, "platform": p.platform} for k, p in presets.items()]
    if tournament is None:
        return {"tournament": None, "presets": choices, "default_scoring": DEFAULT_SCORING,
                "refused": refused}
    counted = games(tournament, held)
    return {
        "tournament": {k: v for k, v in msgspec.to_builtins(tournament).items()
                       if k != "rounds"},
        # each line of the restrictions: its kind, for the page to name in its language
        "restrictions": [dict(zip(("kind", "rest"), restriction_line(line), strict=True))
                         for line in tournament.restrictions.splitlines() if line.strip()],
        "presets": choices, "default_scoring": DEFAULT_SCORING, "refused": refused,
        "rounds": [{"number": r.number, "stage": r.stage, "sent": r.sent,
                    "tables": [{"table": t, "players": [seats[s] for s in sorted(seats)],
                                "seats": sorted(seats),
                                "done": t not in complete(tournament, counted, r.number)}
                               for t, seats in sorted(r.seating.items(),
                                                      key=lambda item: natural(item[0]))]}
                   for r in tournament.rounds],
        "games": [{"id": g.held.message.game, "table": g.held.message.table, "round": g.round,
                   "revision": g.held.message.revision, "received": g.held.received,
                   "status": None if g.held.record is None else g.held.record.status,
                   "winner": None if g.held.record is None else g.held.record.winner,
                   "counted": g.counted,
                   "why": None if g.why is None else g.why.to_json(),
                   "warnings": [w.to_json() for w in g.warnings],
                   "result": result_words(g.held.record).to_json(),
                   "history": [{"revision": e.revision, "received": e.received,
                                "what": e.what.to_json()}
                               for e in history.get(g.held.message.game, ())]}
                  for g in counted],
        "standings": msgspec.to_builtins(table_of(tournament, held, presets)),
    }


def public_view(tournament: Tournament | None, held: Sequence[Held],
                presets: Mapping[str, scoring.Preset]) -> dict[str, Any]:
    """The stream's standings page: the tournament's name, how far it is, the standings, from
    the games over and counted, and nothing else (no game, no seat, no card)."""
    if tournament is None:
        return {"name": None, "rounds": [], "standings": None}
    counted = games(tournament, held)
    return {
        "name": tournament.name,
        "rounds": [{"number": r.number, "stage": r.stage,
                    "tables": len(r.seating),
                    "over": len(r.seating) - len(complete(tournament, counted, r.number))}
                   for r in tournament.rounds],
        "standings": msgspec.to_builtins(table_of(tournament, held, presets)),
    }


# ------------------------------------------------------------------ exports

CSV_COLUMNS = ("place", "player", "total", "win", "best_move", "penalty", "compensation",
               "ci", "extra", "games", "wins", "special_role_wins", "first_killed")
#: each column's words for a person (the workbook's header, the pages' columns)
COLUMN_WORDS = {c: f"tournament.col.{c}" for c in CSV_COLUMNS}


def _cells(row: standings.Row) -> list[Any]:
    """A row as typed cells: the place a number (a shared one a text, "3-4" with an en
    dash), the rest as held."""
    place: int | str = row.place if row.last <= row.place else standings.place_text(row)
    return [place, *(getattr(row, c) for c in CSV_COLUMNS[1:])]


def standings_csv(table: standings.Table) -> str:
    """One table of the standings as CSV for a script (``results.spreadsheet.machine_csv``:
    the columns' identifiers, ``,`` and ``.``)."""
    return spreadsheet.machine_csv(CSV_COLUMNS, [_cells(row) for row in table.rows])


def standings_xlsx(table: standings.Table, title: str, language: str) -> bytes:
    """One table of the standings as the organiser's workbook (``results.spreadsheet.xlsx``,
    as the judge's results are): its header in ``language``, every number a number, so a
    Russian spreadsheet shows 1,25 and an English one 1.25, and sums them."""
    return spreadsheet.xlsx(title, [i18n.t(COLUMN_WORDS[c], language) for c in CSV_COLUMNS],
                            [_cells(row) for row in table.rows])


@dataclass
class Exported:
    """The tournament's games as the rating platform's game JSON: a file per game that can
    be, and why each other one cannot."""

    files: dict[str, bytes] = field(default_factory=dict)  # file name -> JSON
    #: game, table, round, why
    refused: list[tuple[str, str, int | None, Words | None]] = field(default_factory=list)

    def refused_csv(self, language: str) -> str:
        """``not-exported.csv``: each other game and why, in the reader's ``language`` (the
        cards a refusal names are the books' identifiers: the hall holds no book)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([i18n.t(key, language) for key in REFUSED_COLUMNS])
        writer.writerows((game, table, round, "" if why is None else i18n.render(why, language))
                         for game, table, round, why in self.refused)
        return out.getvalue()


#: ``not-exported.csv``'s header, by the words of each column
REFUSED_COLUMNS = ("csv.game", "csv.table", "tournament.col.round", "games.col.reason")


def exported(tournament: Tournament, held: Sequence[Held]) -> Exported:
    """Every game of this tournament (seated by it) through ``results.mafiaratings``."""
    done = Exported()
    for g in games(tournament, held):
        message, record = g.held.message, g.held.record
        if message.tournament != tournament.id:
            continue
        if record is None or not g.counted:
            done.refused.append((message.game, message.table, g.round, g.why))
            continue
        try:
            done.files[f"{message.game}.mafiaratings.json"] = mafiaratings.export_json(record)
        except mafiaratings.ExportRefused as exc:
            done.refused.append((message.game, message.table, g.round, exc.words))
    return done
