"""A finished game's record (``judge.record.document``) as a mafiaratings game
(``mafiaratings_format``).

``export(record, options) -> Game`` is pure. The record's days and nights map to the platform's
rounds: its night ``n`` is the platform's night ``n`` (round ``n``), its day ``d`` the platform's
day ``d - 1`` (day 0 is the first day), so round ``r`` is night ``r`` then day ``r``, as the
platform counts. Per player it writes the role, how and when they left (``death``: round, type,
and the moment of a disqualification), each foul's moment (``warnings``), the seat nominated
and voted for each round (a split's re-votes and the "all leave?" answer as a list), the mafia's
shots, the Don's and the Sheriff's checks, the best move (``legacy``) and the judge's extra
points (``bonus``, the reasons as ``comment``).

``features`` says which of these the export holds; a detail the record does not hold whole is
left out with its letter rather than sent half-true: nominations when one has no nominator (the
judge added it), votes when a ballot's voters do not add up to its count or an alive player is
in no ballot, shots when a night's victim is not every shooter's pick. ``docs/exports.md`` has
the mapping field by field.

An unfinished game is refused (``ExportRefused``) with the reason, as words a reader's language
renders (the platform's own messages too, each by its key): the platform takes games
with a winner only (``Game::create`` throws "Unknown result" otherwise). So is a game its format
cannot hold, whatever book it was played by: the platform's game is ten players, each a don, a
mafioso, the sheriff or a civilian, and red or black winning (a club's book with other cards,
more seats or a third side is refused with the reason; a club's copy of FIIM's book is not).
So is a game the platform's checks would throw out (``mafiaratings_check``'s errors: a deck a
correction made other than FIIM's, say).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Protocol

import msgspec

from kit.i18n import Text, Words, joined
from results.mafiaratings_check import check
from results.mafiaratings_format import Death, Game, GameTime, Moderator, Player, Vote
from results.record import NEW_GAME, Day, Departure, Foul, Night, Record, Speech, VoteRound

_ROLES = {"don": "don", "mafia": "maf", "sheriff": "sheriff", "civilian": "civ"}
_WINNERS = {"red": "civ", "black": "maf"}
#: every letter the record can fill; each one is dropped when this game's record lacks it
_ALL_FEATURES = "gsdutclhvknwr"


class ExportRefused(ValueError):
    """The record cannot be exported: ``words`` say why (the sheet renders them in its reader's
    language); ``str()`` is the English (the API's 409, the log, the command line)."""

    def __init__(self, words: Words, said: str | None = None):
        """``said``: the English when it is not ``words``' own (the platform's messages)."""
        super().__init__(said if said is not None else str(words))
        self.words = words


Id = Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]


class Titles(Protocol):
    """What names a book's cards and sides in each language (``judge.game.book.Book`` does):
    a refusal naming a card or a side says it in the reader's words, not its identifier."""

    def role_title(self, role: str) -> Text: ...

    def team_title(self, team: str) -> Text: ...


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the platform identifies a game by and the record does not know (all optional: the
    platform finds the event by the game's time within the club). Read from a query string by
    ``options_from_query``, its keys the names below."""

    club_id: Id | None = msgspec.field(default=None, name="club")
    event_id: Id | None = msgspec.field(default=None, name="event")
    tournament_id: Id | None = msgspec.field(default=None, name="tournament")
    moderator_id: Id | None = msgspec.field(default=None, name="moderator")
    #: two letters; the platform assumes "ru"
    language: Annotated[str, msgspec.Meta(pattern="^[a-z]{2}$")] | None = None


def options_from_query(query: Mapping[str, str]) -> Options:
    """``Options`` from a request's query (``club``, ``event``, ``tournament``, ``moderator``:
    the platform's ids; ``language``); ``msgspec.ValidationError`` names a bad or unknown key."""
    return msgspec.convert(dict(query), Options, strict=False)


def export(record: Record, options: Options | None = None,
           titles: Titles | None = None) -> Game:
    """The record as the platform's game; ``ExportRefused`` names what stops it (its cards and
    sides by ``titles``, the record's book, when the caller has it; else by identifier)."""
    winner = _refuse_unfinished(record, titles)
    options = options or Options()
    features = _features(record)
    players = [_player(record, seat, features) for seat in range(1, 11)]
    game = Game(players=players, winner=winner,
                startTime=round(record.started or record.created),
                endTime=round(record.ended or record.created), features=features)
    if options.club_id is not None:
        game.clubId = options.club_id
    if options.event_id is not None:
        game.eventId = options.event_id
    if options.tournament_id is not None:
        game.tournamentId = options.tournament_id
    if options.moderator_id is not None:
        game.moderator = Moderator(id=options.moderator_id)
    if options.language is not None:
        game.language = options.language
    report = check(msgspec.to_builtins(game))  # a corrected deck, say
    if report.errors:
        raise ExportRefused(Words("refused.export.platform", errors=joined(report.reasons)),
                            "the rating platform would refuse this game: "
                            f"{'; '.join(report.errors)}")
    return game


def export_json(record: Record, options: Options | None = None,
                titles: Titles | None = None) -> bytes:
    return msgspec.json.encode(export(record, options, titles))


def _refuse_unfinished(record: Record, titles: Titles | None) -> str:
    """The platform's winner of a finished game; ``ExportRefused`` for any other."""
    if record.status == "abandoned":
        if record.abandon_reason == NEW_GAME:  # the panel's own reason: the sheet's words
            raise ExportRefused(Words("refused.export.abandoned.why",
                                      reason=Words("sheet.new_game")))
        if record.abandon_reason:
            raise ExportRefused(Words("refused.export.abandoned.why",
                                      reason=record.abandon_reason))
        raise ExportRefused(Words("refused.export.abandoned"))
    if record.status != "finished" or record.winner is None:
        raise ExportRefused(Words("refused.export.unfinished"))
    others = sorted({p.role for p in record.players if p.role and p.role not in _ROLES})
    if others:
        raise ExportRefused(Words("refused.export.cards", cards=[
            titles.role_title(role) if titles else role for role in others]))
    if len(record.players) != 10:
        raise ExportRefused(Words("refused.export.players", players=len(record.players)))
    undealt = [p.seat for p in record.players if p.role not in _ROLES]
    if undealt:
        raise ExportRefused(Words("refused.export.undealt", seats=undealt))
    if record.winner not in _WINNERS:
        raise ExportRefused(Words("refused.export.winner", winner=titles.team_title(
            record.winner) if titles else record.winner))
    return _WINNERS[record.winner]


# ------------------------------------------------------------------ what the record holds


def _features(record: Record) -> str:
    drop = set()
    if not _nominations_whole(record):
        drop.add("n")
    if not _votes_whole(record):
        drop |= {"v", "k"}
    if not _shots_whole(record):
        drop.add("h")
    return "".join(letter for letter in _ALL_FEATURES if letter not in drop)


def _nominations_whole(record: Record) -> bool:
    for day in record.days:
        standing = [n for n in day.nominations if not n.withdrawn]
        nominators = [n.by for n in standing]
        if None in nominators or len(set(nominators)) != len(nominators):
            return False
    return True


def _alive(record: Record, at: float) -> set[int]:
    return {p.seat for p in record.players if p.left is None or p.left.at > at}


def _votes_whole(record: Record) -> bool:
    for day in record.days:
        for vote in day.votes:
            if not vote.ballots:
                continue
            cast = [s for b in vote.ballots for s in (*b.voters, *b.leftover)]
            if any(len(b.voters) + len(b.leftover) != b.count for b in vote.ballots):
                return False
            if vote.kind == "nominees" and sorted(cast) != sorted(_alive(record, vote.at)):
                return False
            if vote.kind == "question" and not set(cast) <= _alive(record, vote.at):
                return False
    return True


def _shots_whole(record: Record) -> bool:
    """Every mafioso in the game at nightfall picked the night's victim (``check_deaths``)."""
    for night in record.nights:
        if night.killed is None:
            continue
        picks = {s.actor: s.picks for s in night.shots}
        shooters = [p.seat for p in record.players if p.role in ("don", "mafia")
                    and p.seat in _alive(record, night.at)]
        if any(picks.get(seat) != [night.killed] for seat in shooters):
            return False
    return True


# ------------------------------------------------------------------ one player


def _player(record: Record, seat: int, features: str) -> Player:
    rp = record.players[seat - 1]
    player = Player()
    if rp.name:
        player.name = rp.name
    if rp.role != "civilian":
        player.role = _ROLES[rp.role]
    moments = [_foul_moment(record, foul) for foul in rp.fouls]
    if moments:
        player.warnings = moments
    if rp.left is not None:
        player.death = _death(record, rp.left, moments)
    for night in record.nights:
        # the platform keeps one night per checker: the first (a second check tells nothing)
        if night.don_check is not None and night.don_check.target == seat \
                and player.don is msgspec.UNSET:
            player.don = night.number
        if night.sheriff_check is not None and night.sheriff_check.target == seat \
                and player.sheriff is msgspec.UNSET:
            player.sheriff = night.number
        if night.best_move is not None and night.best_move.by == seat:
            # each seat once: the platform counts every black seat of the list, a seat named
            # twice as two guesses (GamePlayersStats), where our scoring counts the seats named
            player.legacy = list(dict.fromkeys(night.best_move.guesses))
    extra = [e for e in record.extra_points if e.seat == seat]
    if extra:
        points = round(sum(e.points for e in extra), 2)
        if points:
            player.bonus = int(points) if points == int(points) else points
        player.comment = "; ".join(e.reason for e in extra)
    if "n" in features:
        _set_list(player, "nominating", [_nominated(day, seat) for day in record.days])
    if "v" in features:
        _set_list(player, "voting", [_voted(record, day, seat, "k" in features)
                                     for day in record.days])
    if "h" in features and rp.role in ("don", "mafia"):
        _set_list(player, "shooting", [_shot(night, seat) for night in record.nights])
    return player


def _set_list(player: Player, name: str, values: list) -> None:
    """``Game::cut_ending_nulls``: trailing nulls go; an empty list is no field."""
    while values and values[-1] is None:
        values.pop()
    if values:
        setattr(player, name, values)


def _death(record: Record, left: Departure, warnings: list[GameTime]) -> Death:
    if left.how == "voted_out":
        return Death(round=left.day - 1, type="day")
    if left.how == "shot":
        return Death(round=left.night, type="night")
    if left.how == "fouls" and len(warnings) >= 4:
        return Death(round=warnings[3].round, type="warnings")
    moment = _moment(record, left.at)  # a disqualification (or fouls without their moments)
    return Death(round=moment.round, type="kickOut", time=moment)


def _nominated(day: Day, seat: int) -> int | None:
    return next((n.seat for n in day.nominations if n.by == seat and not n.withdrawn), None)


def _voted(record: Record, day: Day, seat: int, kill_all: bool) -> Vote:
    """The seat's vote that day: the nominee, or for re-votes each round's, and last whether
    they said all the tied leave (4.4.12.3)."""
    votes: list[int | bool] = []
    for vote in day.votes:
        if vote.kind == "nominees":
            chosen = _chosen(vote, seat)
            if chosen is not None:
                votes.append(chosen)
        elif kill_all and vote.ballots and seat in _alive(record, vote.at) and votes:
            votes.append(any(seat in b.voters for b in vote.ballots))
    if not votes:
        return None
    split = sum(1 for v in day.votes if v.kind == "nominees" and v.ballots) > 1
    # a day with re-votes is a list for every voter, even one out before the re-vote: the
    # platform's init_votings fails ("Cannot use a scalar value as an array") on a seat voted
    # for by a number before a list
    return votes if split or len(votes) > 1 else votes[0]


def _chosen(vote: VoteRound, seat: int) -> int | None:
    return next((b.candidate for b in vote.ballots if seat in b.voters or seat in b.leftover),
                None)


def _shot(night: Night, seat: int) -> int | None:
    shot = next((s for s in night.shots if s.actor == seat), None)
    return shot.picks[0] if shot is not None and len(shot.picks) == 1 else None


# ------------------------------------------------------------------ moments


def _foul_moment(record: Record, foul: Foul) -> GameTime:
    """A foul's moment; who had the floor, when the record names them, is the speaker."""
    moment = _moment(record, foul.at, foul.stage)
    if foul.floor is not None and moment.speaker is not msgspec.UNSET:
        moment.speaker = foul.floor
    return moment


def _moment(record: Record, at: float, stage: str = "") -> GameTime:
    """The platform's moment (``Game::add_time_help``) of a time in the record: the phase that
    had begun by then and, in a day, the speech or vote that had. ``stage`` (a foul's) tells
    the last words before their speaker has the floor."""
    night = max((n for n in record.nights if n.at <= at), key=lambda n: n.at, default=None)
    day = max((d for d in record.days if d.at <= at), key=lambda d: d.at, default=None)
    if day is not None and (night is None or day.at >= night.at):
        return _day_moment(day, at, stage)
    if night is not None:
        words = night.last_words
        if words is not None and words.at <= at:
            return GameTime(round=night.number, time="night kill speaking", speaker=words.seat)
        if stage == "last_words" and night.killed is not None:
            return GameTime(round=night.number, time="night kill speaking",
                            speaker=night.killed)
        return GameTime(round=night.number, time="night start")
    started = record.started is not None and record.started <= at
    return GameTime(round=0, time="arrangement" if started else "start")


def _day_moment(day: Day, at: float, stage: str) -> GameTime:
    round_ = day.number - 1
    events: list[tuple[float, int, Speech | VoteRound]] = [
        (s.at, i, s) for i, s in enumerate(day.speeches) if s.at <= at]
    events += [(v.at, i, v) for i, v in enumerate(day.votes) if v.at <= at]
    if not events:
        return GameTime(round=round_, time="day start")
    latest = max(events, key=lambda e: (e[0], isinstance(e[2], VoteRound)))[2]
    nominee_votes = sum(1 for v in day.votes if v.kind == "nominees" and v.at <= at)
    if isinstance(latest, VoteRound):
        if stage == "last_words" and latest.eliminated:  # before the first leaver speaks
            return GameTime(round=round_, time="day kill speaking",
                            speaker=latest.eliminated[0])
        if latest.kind == "question":
            return GameTime(round=round_, time="voting kill all", votingRound=nominee_votes)
        return GameTime(round=round_, time="voting", votingRound=nominee_votes - 1)
    if latest.kind == "speech":
        return GameTime(round=round_, time="speaking", speaker=latest.seat)
    if latest.kind == "excuse":
        return GameTime(round=round_, time="voting", votingRound=max(nominee_votes - 1, 0),
                        speaker=latest.seat)
    return GameTime(round=round_, time="day kill speaking", speaker=latest.seat)
