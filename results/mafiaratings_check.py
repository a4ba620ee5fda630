"""The checks mafiaratings runs on a game it receives, ported from its ``Game::check`` (in
``include/game.php`` of github.com/szotin/mafiaratings; ``docs/exports.md`` names the commit and
the lines of each check).

The platform refuses a game outright for what it throws on (``errors`` here: not ten players, a
role or a death type it does not know, a deck that is not 6 civilians, 1 sheriff, 2 mafia, 1 don)
and keeps a game with ``issues`` (its ``set_issue``): called with ``fix`` it strips the details an
issue is about and lowers ``features``. An export is right when both lists are empty: the platform
takes it whole.

Ported as written: ``check_game_result``, ``check_deaths``, ``check_nominations``,
``check_shooting``, ``check_vote``, ``check_voting``, ``check_voted_out``, ``check_warnings``,
``check_tech_fouls``, ``is_voting_canceled`` with ``when_voting_is_decided``, ``get_nominees``
and ``get_night_kill``, ``check_gametime``, ``compare_gametimes`` with ``who_speaks_first``
(rotation rule 0) and ``who_was_nominated_earlier`` (split order rules 0 and 1),
``get_player_death_time``. Read more simply: ``init_votings``' winners of a round (the most
voted in its last voting round, ``voting_winners``). Added, from the field docs
(``Game::feature_flags_help``): the letters of ``features`` are known, their dependencies hold,
each detail present is one its letter declares, ``death`` has the shape the letters say.

An error is kept twice: as the platform says it (``errors``, its English, as its PHP writes it:
the tests compare them) and as words (``reasons``, a catalog key per message) for a reader of
another language (the sheet's refusal, docs/i18n.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit.i18n import Words
from results.mafiaratings_format import (
    BONUS_TITLES,
    DEATH_TYPES,
    FEATURE_LETTERS,
    GAMETIMES,
    ROLES,
)

_BLACK = ("maf", "don")
_REMOVALS = ("warnings", "techFouls", "kickOut", "teamKickOut", "giveUp")
#: who a letter needs (``feature_flags_help``: "d must be set when u is set", ...)
_NEEDS = {"u": "d", "t": "d", "c": "d", "k": "v", "r": "w"}
#: the player fields each letter declares
_FIELD_LETTER = {"arranged": "a", "don": "g", "sheriff": "s", "death": "d", "legacy": "l",
                 "shooting": "h", "voting": "v", "nominating": "n", "warnings": "w",
                 "techFouls": "w", "record": "o"}


@dataclass
class Report:
    """What the platform would say: ``errors`` it refuses on (``reasons``: the same as words,
    one for one), ``issues`` it would fix away."""

    errors: list[str] = field(default_factory=list)
    issues: list[str] = field(default_factory=list)
    reasons: list[Words] = field(default_factory=list)

    def refuse(self, said: str, words: Words) -> None:
        """An error: ``said`` as the platform says it, ``words`` for a reader."""
        self.errors.append(said)
        self.reasons.append(words)

    @property
    def accepted(self) -> bool:
        return not self.errors and not self.issues


def check(game: dict[str, Any]) -> Report:
    """The platform's verdict on one game given as plain JSON data (``json.loads``)."""
    report = Report()
    players = game.get("players")
    if not isinstance(players, list) or len(players) != 10:
        report.refuse("Field players must be an array of size 10 in the game.",
                      Words("refused.export.platform.players"))
        return report
    if not all(isinstance(p, dict) for p in players):
        report.refuse("every player must be an object", Words("refused.export.platform.object"))
        return report
    _Checker(game, report).run()
    return report


class _Checker:
    def __init__(self, game: dict[str, Any], report: Report):
        self.g = game
        self.p: list[dict[str, Any]] = game["players"]
        self.r = report
        self.features = str(game.get("features", "agsdutclhvknwro"))
        self.rules = str(game.get("rules", "0002000010000"))  # DEFAULT_RULES
        self.openers: dict[int, int] = {}  # who_speaks_first, asked again and again

    def has(self, letter: str) -> bool:
        return letter in self.features

    def issue(self, text: str) -> None:
        if text not in self.r.issues:
            self.r.issues.append(text)

    def run(self) -> None:
        self.check_features()
        self.check_game_result()
        if self.r.errors:
            return
        self.check_deaths()
        self.check_nominations()
        self.check_shooting()
        self.check_voting()
        self.check_fouls("warnings", 4, "warnings")
        self.check_fouls("techFouls", 2, "techFouls")

    # ------------------------------------------------------------------ features and shapes

    def check_features(self) -> None:
        for letter in self.features:
            if letter not in FEATURE_LETTERS:
                self.issue(f'features has an unknown letter "{letter}".')
        for letter, needed in _NEEDS.items():
            if self.has(letter) and not self.has(needed):
                self.issue(f'features has "{letter}" without "{needed}".')
        if self.g.get("winner") not in ("civ", "maf", "tie"):
            self.r.refuse('winner must be "civ", "maf" or "tie".',
                          Words("refused.export.platform.winner"))
        for i, p in enumerate(self.p):
            for key, letter in _FIELD_LETTER.items():
                if key in p and not self.has(letter) and not (key == "legacy" and self.has("i")):
                    self.issue(f'Player {i + 1} has "{key}" but features lack "{letter}".')
            if "death" in p:
                self.check_death_shape(i, p["death"])
            bonus = p.get("bonus")
            if bonus is not None and not _bonus_ok(bonus):
                self.issue(f"Player {i + 1} has an invalid bonus {bonus!r}.")

    def check_death_shape(self, i: int, death: Any) -> None:
        """``Game::api_help`` on "death": its shape follows the letters u, t, c."""
        detail = [x for x in "utc" if self.has(x)]
        ok = (isinstance(death, dict) if len(detail) > 1 or "c" in detail else
              isinstance(death, bool) if not detail else
              isinstance(death, int) and not isinstance(death, bool) if detail == ["u"] else
              isinstance(death, str))
        if not ok:
            self.issue(f"Player {i + 1} death {death!r} does not fit features "
                       f'"{"d" + "".join(detail)}".')

    # ------------------------------------------------------------------ check_game_result

    def check_game_result(self) -> None:
        counts = dict.fromkeys(ROLES, 0)
        for i, p in enumerate(self.p):
            role = p.get("role", "civ")
            if role not in counts:
                self.r.refuse(f'Player {i + 1} has invalid role "{role}". Role must be one '
                              'of: "civ", "sheriff", "maf", or "don".',
                              Words("refused.export.platform.role", seat=i + 1, role=str(role)))
                return
            counts[role] += 1
            round_ = _death_round(p)
            if round_ >= 0:
                for key in ("nominating", "voting", "shooting"):
                    if len(p.get(key) or ()) > round_ + 1:
                        self.issue(f"Player {i + 1} is {key} someone after he/she is dead.")
            if "legacy" in p:
                self.check_legacy(i, p)
            if "shooting" in p and role not in _BLACK:
                self.issue(f"Player {i + 1} can not shoot because he/she is red.")
        for role, want in (("civ", 6), ("sheriff", 1), ("maf", 2), ("don", 1)):
            if counts[role] != want:
                name = {"civ": "civilians", "sheriff": "sheriffs", "maf": "mafs",
                        "don": "dons"}[role]
                key = {"civ": "refused.export.platform.civ",
                       "sheriff": "refused.export.platform.sheriff",
                       "maf": "refused.export.platform.maf",
                       "don": "refused.export.platform.don"}[role]
                self.r.refuse(f"This game has {counts[role]} {name}. Must be {want}.",
                              Words(key, have=counts[role], want=want))

    def check_legacy(self, i: int, p: dict[str, Any]) -> None:
        if "death" not in p:
            self.issue(f"Player {i + 1} has to be dead to leave a legacy.")
            return
        kind, round_ = _death_type(p), _death_round(p)
        if kind is not None and kind != "night":
            self.issue(f"Player {i + 1} was not killed in night. he/she can not leave legacy.")
        if round_ > 1:
            self.issue(f"Player {i + 1} was killed in round {round_} he/she can not leave legacy.")
        legacy = p["legacy"]
        if isinstance(legacy, list) and not all(_seat(x) for x in legacy):
            self.issue(f"Player {i + 1} legacy {legacy!r} is not a list of seats.")

    # ------------------------------------------------------------------ check_deaths

    def check_deaths(self) -> None:
        if not self.has("d"):
            return
        for i, p in enumerate(self.p):
            if "death" not in p:
                continue
            kind, round_ = _death_type(p), _death_round(p)
            death = p["death"]
            moment = death.get("time") if isinstance(death, dict) else None
            if kind is None and self.has("t"):
                self.issue(f"Death type is not set for player {i + 1}.")
            if round_ < 0 and self.has("u"):
                self.issue(f"Death round is not set for player {i + 1}.")
            if kind is not None and kind not in DEATH_TYPES:
                self.r.refuse(f'Player {i + 1} has invalid death type "{kind}".',
                              Words("refused.export.platform.death", seat=i + 1, kind=str(kind)))
            elif kind in ("giveUp", "kickOut", "teamKickOut"):
                if moment is not None:
                    bad = gametime_issue(moment)
                    if bad:
                        self.issue(f"Player {i + 1} death time is incorect: {bad}")
                elif self.has("c"):
                    self.issue(f"Death time is not set for player {i + 1}.")
            elif kind == "night":
                self.check_night_death(i, round_)
            elif kind == "day" and self.has("v") and round_ >= 0:
                winners = self.voting_winners(round_)
                if winners is not None and i + 1 not in winners[0]:
                    self.issue(f"Player {i + 1} is specified as voted out in round {round_}. But "
                               "accordiong to the voting info, another player was voted out.")

    def check_night_death(self, i: int, round_: int) -> None:
        if round_ == 0:
            self.issue(f"Player {i + 1} was shot in night 0. This is not possible.")
        if round_ <= 0 or not self.has("h"):
            return
        shot = {"round": round_, "time": "shooting"}
        for j, p in enumerate(self.p):
            if p.get("role") not in _BLACK or self.compare(shot, self.death_time(j + 1)) >= 0:
                continue
            shooting = p.get("shooting")
            if shooting is None:
                self.issue(f"Shooting is not set for player {j + 1}.")
            elif len(shooting) < round_:
                self.issue(f"No shooting for player {j + 1} in round {round_}.")
            elif shooting[round_ - 1] != i + 1:
                self.issue(f"Wrong shooting to player {i + 1} in round {round_} for player "
                           f"{j + 1}. Because player {i + 1}was shot in night {round_}.")

    # ------------------------------------------------------------------ nominations, shots

    def check_nominations(self) -> None:
        if not self.has("n"):
            return
        for i, p in enumerate(self.p):
            noms = p.get("nominating")
            if not noms:
                continue
            death = self.death_time(i + 1, including_speech=True)
            speech = {"round": len(noms) - 1, "time": "speaking", "speaker": i + 1}
            if death is not None and self.compare(death, speech) < 0:
                self.issue(f"Player {i + 1} was dead when they nominated player {noms[-1]} in "
                           f"round {len(noms) - 1}.")
            for round_, nom in enumerate(noms):
                if nom is None:
                    continue
                if not _seat(nom):
                    self.issue(f"Player {i + 1} nominated {nom!r} in round {round_}.")
                    continue
                speech = {"round": round_, "time": "speaking", "speaker": i + 1}
                nominee_death = self.death_time(nom)
                if nominee_death is not None and self.compare(nominee_death, speech) < 0:
                    self.issue(f"Player {i + 1} nominated dead player {nom} in round {round_}.")

    def check_shooting(self) -> None:
        if not self.has("h"):
            return
        for i, p in enumerate(self.p):
            shots = p.get("shooting")
            if not shots:
                continue
            if p.get("role") not in _BLACK:
                self.issue(f"Player {i + 1} is not mafia but they were shooting .")
            if not all(s is None or _seat(s) for s in shots):
                self.issue(f"Player {i + 1} shooting {shots!r} is not a list of seats.")
            death = self.death_time(i + 1)
            last = {"round": len(shots) - 1, "time": "shooting"}
            if death is not None and self.compare(death, last) < 0:
                self.issue(f"Player {i + 1} was dead when they shot player {shots[-1]} in round "
                           f"{len(shots) - 1}.")

    # ------------------------------------------------------------------ voting

    def vote_of(self, seat: int, round_: int) -> Any:
        votes = self.p[seat - 1].get("voting") or []
        return votes[round_] if round_ < len(votes) else None

    def nomination_of(self, seat: int, round_: int) -> Any:
        noms = self.p[seat - 1].get("nominating") or []
        return noms[round_] if round_ < len(noms) else None

    def voting_winners(self, round_: int) -> tuple[list[int], bool] | None:
        """``init_votings``' winners of a round (the most voted in its last voting round) and
        whether they left; ``None`` if nobody voted. A kill-all answer decides when given;
        else the first winner left if their death says "day" in this round, or a removal
        came before their last words."""
        last_votes: dict[int, int] = {}
        depth = kill = voters = 0
        has_kill_all = False
        for seat in range(1, 11):
            v = self.vote_of(seat, round_)
            if v is None:
                continue
            seats = [x for x in v if not isinstance(x, bool)] if isinstance(v, list) else [v]
            if isinstance(v, list) and v and isinstance(v[-1], bool):
                has_kill_all = True
                kill += v[-1]
            if len(seats) > depth:
                depth, last_votes, voters = len(seats), {}, 0
            if len(seats) == depth and seats:
                last_votes[seats[-1]] = last_votes.get(seats[-1], 0) + 1
                voters += 1
        if not last_votes:
            return None
        most = max(last_votes.values())
        winners = sorted(s for s, n in last_votes.items() if n == most)
        if has_kill_all:
            return winners, kill * 2 > voters
        first = self.p[winners[0] - 1]
        death = first.get("death")
        killed = _death_type(first) == "day" and _death_round(first) == round_
        if not killed and isinstance(death, dict) and isinstance(death.get("time"), dict) \
                and death.get("type") not in ("day", "night"):
            last_words = {"time": "day kill speaking", "round": round_,
                          "speaker": winners[0], "order": 10**9}
            killed = self.compare(death["time"], last_words) < 0
        return winners, killed

    def nominees(self, round_: int, voting_round: int) -> list[int]:
        """``get_nominees``: the round's nominees in nomination order; for ``voting_round`` >
        0 those most voted in the voting round before it."""
        first = self.who_speaks_first(round_)
        order = [(first - 1 + k) % 10 + 1 for k in range(10)]
        noms = [n for n in (self.nomination_of(s, round_) for s in order) if n is not None]
        if voting_round > 0:
            votes = [0] * 11
            for seat in range(1, 11):
                v = self.vote_of(seat, round_)
                if isinstance(v, list) and voting_round <= len(v) and _seat(v[voting_round - 1]):
                    votes[v[voting_round - 1]] += 1
                elif _seat(v) and voting_round == 1:
                    votes[v] += 1
            most = max(votes)
            noms = [n for n in noms if _seat(n) and most and votes[n] == most]
        if self.rules[5:6] == "1" and voting_round & 1:
            noms.reverse()
        return noms

    def when_decided(self, round_: int) -> tuple[dict[str, Any], list[int]] | None:
        """``when_voting_is_decided``: the moment the round's vote was decided and its
        winners' seats; ``None`` when no one vote decided it."""
        votes = [0] * 11
        kill = save = depth = 0
        for seat in range(1, 11):
            v = self.vote_of(seat, round_)
            if isinstance(v, list) and v:
                if isinstance(v[-1], bool):
                    kill, save = kill + v[-1], save + (not v[-1])
                    depth, v = max(depth, len(v) - 2), v[-2] if len(v) > 1 else None
                else:
                    depth, v = max(depth, len(v) - 1), v[-1]
            if _seat(v):
                votes[v] += 1
        most = max(votes[1:])
        winners = [s for s in range(1, 11) if votes[s] == most]
        if len(winners) == 1:
            noms = self.nominees(round_, depth)
            if not noms:
                return None
            if len(noms) == 1:
                return {"round": round_, "time": "voting start"}, winners
            nominee = noms[-2]
            for n in noms[:-2]:
                if votes[n] == most:
                    nominee = n
                    break
            return ({"round": round_, "time": "voting", "votingRound": depth,
                     "nominee": nominee}, winners)
        if winners and kill > save:
            return {"round": round_, "time": "voting kill all", "votingRound": depth}, winners
        return None

    def night_kill(self, round_: int) -> int | None:
        """``get_night_kill``: the seat every mafioso in the game shot that night, if one."""
        if round_ <= 0:
            return None
        moment = {"round": round_, "time": "shooting"}
        shots = []
        for seat in range(1, 11):
            p = self.p[seat - 1]
            if p.get("role") in _BLACK and \
                    self.compare(moment, self.death_time(seat), no_order=True) <= 0:
                shooting = p.get("shooting") or []
                shots.append(shooting[round_ - 1] if round_ <= len(shooting) else None)
        if not shots or None in shots or len(set(shots)) != 1:
            return None
        return shots[0]

    def cancelled(self, round_: int) -> bool:
        """``is_voting_canceled``: a removal (fouls, kick-out, give-up) in this round before
        the vote was decided, or in the round before after it (and not of a voted-out one),
        cancels the round's vote. Unknown (a removal with no round) counts as cancelled, as it
        does where the platform tests it for truth."""
        for seat in range(1, 11):
            p = self.p[seat - 1]
            death = p.get("death")
            if not isinstance(death, dict) or death.get("type") not in _REMOVALS:
                continue
            r = death.get("round")
            if r is None and isinstance(death.get("time"), dict):
                r = death["time"].get("round")
            fouls = p.get("warnings" if death["type"] == "warnings" else "techFouls")
            need = 4 if death["type"] == "warnings" else 2
            if r is None and death["type"] in ("warnings", "techFouls") \
                    and isinstance(fouls, list) and len(fouls) >= need:
                r = fouls[need - 1].get("round")
            if r is None:
                return True
            if r == round_:
                decided = self.when_decided(r)
                if decided is None or (
                        self.compare(decided[0], self.death_time(seat), no_order=True) >= 0
                        and seat != self.night_kill(r)):
                    return True
            elif r == round_ - 1:
                decided = self.when_decided(r)
                if decided is not None and seat not in decided[1] and \
                        self.compare(decided[0], self.death_time(seat), no_order=True) < 0:
                    return True
        return False

    def rounds(self) -> int:
        return max((len(p.get(k) or []) for p in self.p for k in ("nominating", "voting")),
                   default=0)

    def check_voting(self) -> None:
        if not self.has("v"):
            return
        rounds = self.rounds()
        for seat in range(1, 11):
            death = self.death_time(seat, including_speech=True)
            round_ = 0
            while self.compare(death, {"round": round_, "time": "voting",
                                       "votingRound": 0}) >= 0:
                v = self.vote_of(seat, round_)
                if v is not None:
                    if not self.cancelled(round_):
                        votes = ([x for x in v if not isinstance(x, bool)]
                                 if isinstance(v, list) else [v])
                        for depth, vote in enumerate(votes):
                            self.check_vote(seat, vote, {"round": round_, "time": "voting",
                                                         "votingRound": depth})
                elif round_ < rounds and not self.cancelled(round_):
                    noms = len(self.nominees(round_, 0))
                    if noms > 0 and (round_ > 0 or noms > 1):
                        self.issue(f"Player {seat} did not vote in round {round_}. Although "
                                   "they were alive and voting was not canceled.")
                round_ += 1
        if self.has("d"):
            for round_ in range(rounds):
                self.check_voted_out(round_)

    def check_voted_out(self, round_: int) -> None:
        """``check_voting``'s last part and ``check_voted_out``: the round's voted out died."""
        decided = self.voting_winners(round_)
        if decided is None or self.cancelled(round_):
            return
        winners, killed = decided
        if not killed and len(winners) == 1 and (round_ > 0 or self.rules[4:5] == "0"):
            # a lone winner leaves (day 0 too under first-day rule 0); only a removal in
            # that round takes them out otherwise
            p = self.p[winners[0] - 1]
            if _death_round(p) != round_ or _death_type(p) in ("day", "night", None):
                self.issue(f"Player {winners[0]} was voted out in round {round_} but did "
                           "not die.")
        if not killed:
            return
        for seat in winners:
            p = self.p[seat - 1]
            if "death" not in p:
                self.issue(f"Player was voted out in round {round_} but is not dead.")
            elif _death_round(p) not in (-1, round_):
                self.issue(f"Player was voted out in round {round_} but was dead in round "
                           f"{_death_round(p)}.")
            elif _death_type(p) == "night":
                self.issue(f"Player was voted out in round {round_} but was dead by night.")

    def check_vote(self, voter: int, voted: Any, moment: dict[str, Any]) -> None:
        if not _seat(voted):
            self.issue(f"Player {voter} voted for {voted!r} in round {moment['round']}.")
            return
        moment = {**moment, "nominee": voted}
        voter_death = self.death_time(voter, including_speech=True)
        if voter_death is not None and self.compare(voter_death, moment) < 0:
            self.issue(f"Player {voter} was dead when they were voting for {voted} in round "
                       f"{moment['round']}.")
        voted_death = self.death_time(voted)
        if voted_death is not None and self.compare(voted_death, moment) < 0:
            self.issue(f"Player {voter} voted for dead player {voted} in round "
                       f"{moment['round']}.")
        if self.has("n") and not any(
                (p.get("nominating") or [None] * 99)[moment["round"]:moment["round"] + 1] ==
                [voted] for p in self.p):
            self.issue(f"Player {voter} voted for player {voted}, who is not nominated in round "
                       f"{moment['round']}.")

    # ------------------------------------------------------------------ warnings, tech fouls

    def check_fouls(self, key: str, limit: int, death_kind: str) -> None:
        """``check_warnings`` (limit 4) and ``check_tech_fouls`` (limit 2). As in the PHP, the
        count that ties a full set to a death is only taken in its error branches (a count that
        is not a number, or out of range): four well-formed warnings of a living player pass."""
        if not self.has("w"):
            return
        for i, p in enumerate(self.p):
            fouls = p.get(key)
            count = 0
            if fouls is None:
                continue
            if self.has("r"):
                if not isinstance(fouls, list):
                    self.issue(f"Player {i + 1} {key} is not an array.")
                    continue
                if len(fouls) > limit:
                    self.issue(f"Player {i + 1} has {len(fouls)} {key}.")
                for j, moment in enumerate(fouls):
                    bad = gametime_issue(moment)
                    if bad:
                        self.issue(f"Player {i + 1} {key} {j + 1} is incorect: {bad}")
            elif isinstance(fouls, bool) or not isinstance(fouls, int):
                count = min(len(fouls), limit) if isinstance(fouls, list) else 0
                self.issue(f"Player {i + 1} {key} is not a number.")
            elif not 0 <= fouls <= limit:
                count = min(max(fouls, 0), limit)
                self.issue(f"Player {i + 1} {key} is set to incorect number {fouls}.")
            if count == limit and self.has("d"):
                self.check_fouled_out(i, p, fouls, limit, death_kind)

    def check_fouled_out(self, i: int, p: dict[str, Any], fouls: Any, limit: int,
                         death_kind: str) -> None:
        if "death" not in p:
            self.issue(f"Player {i + 1} has {limit} {death_kind} but they are not dead.")
            return
        kind = _death_type(p)
        if kind is not None and kind != death_kind:
            self.issue(f"Player {i + 1} has {limit} {death_kind} but their death type is {kind}.")
        elif isinstance(fouls, list) and isinstance(fouls[-1], dict):
            round_ = _death_round(p)
            if round_ >= 0 and round_ != fouls[-1].get("round"):
                self.issue(f"Player {i + 1} has {limit} {death_kind} in round "
                           f"{fouls[-1].get('round')}. But according to death info thery were "
                           f"dead in round {round_}.")

    # ------------------------------------------------------------------ moments

    def death_time(self, seat: int, including_speech: bool = False) -> dict[str, Any] | None:
        """``get_player_death_time``: when the seat left (the end of the game if they did not;
        ``None`` if unknown)."""
        p = self.p[seat - 1]
        death = p.get("death")
        if death is None:
            return {"time": "end", "round": self.last_round()}
        if not isinstance(death, dict):
            return None
        if isinstance(death.get("time"), dict):
            return dict(death["time"])
        kind, round_ = death.get("type"), death.get("round")
        if kind == "night":
            return {"round": round_ if round_ is not None else 0,
                    "time": "night kill speaking" if including_speech else "shooting"}
        if kind == "day" and round_ is not None:
            if including_speech:
                return {"round": round_, "time": "day kill speaking", "speaker": seat}
            depth = 0
            for other in self.p:
                v = other.get("voting") or []
                if len(v) > round_ and isinstance(v[round_], list):
                    depth = len(v[round_]) - 1
                    break
            if depth == 0:
                return {"round": round_, "time": "voting", "votingRound": 0, "nominee": seat}
            return {"round": round_, "time": "voting kill all", "votingRound": depth}
        fouls = p.get("warnings" if kind == "warnings" else "techFouls")
        need = 4 if kind == "warnings" else 2
        if kind in ("warnings", "techFouls") and isinstance(fouls, list) and len(fouls) >= need:
            return dict(fouls[need - 1])
        return None

    def last_round(self) -> int:
        last = 0
        for p in self.p:
            for key in ("nominating", "voting", "shooting"):
                last = max(last, len(p.get(key) or ()))
            for key in ("don", "sheriff"):
                if isinstance(p.get(key), int):
                    last = max(last, p[key])
        return last

    def compare(self, a: dict[str, Any] | None, b: dict[str, Any] | None,
                no_order: bool = False) -> int:
        """``compare_gametimes``: <0 when ``a`` is earlier, >0 later, 0 the same moment (an
        unknown moment, ``None``, reads as the game's start, as PHP's unset fields do)."""
        a, b = a or {}, b or {}
        ra, rb = a.get("round", 0), b.get("round", 0)
        if ra != rb:
            return ra - rb
        ta, tb = a.get("time", "start"), b.get("time", "start")
        if ta != tb:
            return _time_index(ta) - _time_index(tb)
        result = 0
        if ta == "speaking":
            first = self.who_speaks_first(ra)
            result = ((a["speaker"] + 10 if a["speaker"] < first else a["speaker"]) -
                      (b["speaker"] + 10 if b["speaker"] < first else b["speaker"]))
        elif ta == "voting":
            depth = a.get("votingRound", 0)
            if depth != b.get("votingRound", 0):
                result = depth - b.get("votingRound", 0)
            elif "speaker" in a:
                result = (self.nominated_earlier(ra, a["speaker"], b["speaker"], depth)
                          if "speaker" in b else -1 if "nominee" in b else 1)
            elif "nominee" in a:
                result = (self.nominated_earlier(ra, a["nominee"], b["nominee"], depth)
                          if "nominee" in b else 1)
            else:
                result = -1 if "nominee" in b or "speaker" in b else 0
        elif ta == "day kill speaking":
            result = self.nominated_earlier(ra, a["speaker"], b["speaker"], 0)
        if result == 0 and not no_order:
            result = a.get("order", -1) - b.get("order", -1)
        return result

    def who_speaks_first(self, round_: int) -> int:
        """The seat that opens day ``round_``: the next one alive after the last day's opener
        (rules' rotation 0, FIIM's; the platform's rule 1 is not ported)."""
        if round_ not in self.openers:
            prev = 9 if round_ == 0 else self.who_speaks_first(round_ - 1) - 1
            day_start = {"round": round_, "time": "night kill speaking"}
            alive = ((prev + k) % 10 + 1 for k in range(1, 11))
            self.openers[round_] = next(
                (seat for seat in alive if self.compare(self.death_time(seat), day_start) > 0),
                0)
        return self.openers[round_]

    def nominated_earlier(self, round_: int, a: int, b: int, depth: int) -> int:
        if a == b:
            return 0
        reverse = -1 if self.rules[5:6] == "1" and depth & 1 else 1
        first = self.who_speaks_first(round_)
        seat = first
        for _ in range(10):
            noms = self.p[seat - 1].get("nominating") or []
            n = noms[round_] if round_ < len(noms) else None
            if n == a:
                return -reverse
            if n == b:
                return reverse
            seat = seat % 10 + 1
        return 0


def gametime_issue(moment: Any) -> str | None:
    """``check_gametime``: what is wrong with one moment, or ``None``."""
    if not isinstance(moment, dict):
        return "a moment must be an object."
    if "round" not in moment:
        return "round must be set."
    if not isinstance(moment["round"], int) or moment["round"] < 0:
        return f'incorrect round "{moment["round"]}" - it must a number greater than 0.'
    time = moment.get("time")
    if time is None:
        return "time must be set."
    if time not in GAMETIMES:
        return f'incorrect time "{time}".'
    if time in ("voting", "voting kill all"):
        if "votingRound" not in moment:
            return "votingRound must be set."
        for key in ("speaker", "nominee"):
            if key in moment and not _seat(moment[key]):
                return f'incorect {key} "{moment[key]}" - it must be a number from 1 to 10.'
    if time in ("speaking", "day kill speaking"):
        if "speaker" not in moment:
            return 'speaker must be set when time is "speaking".'
        if not _seat(moment["speaker"]):
            return f'incorect speaker "{moment["speaker"]}" - it must be a number from 1 to 10.'
    return None


def _time_index(time: str) -> int:
    return GAMETIMES.index(time) if time in GAMETIMES else len(GAMETIMES)


def _seat(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 10


def _bonus_ok(bonus: Any) -> bool:
    items = bonus if isinstance(bonus, list) else [bonus]
    return all((isinstance(b, (int, float)) and not isinstance(b, bool)) or b in BONUS_TITLES
               for b in items)


def _death_round(p: dict[str, Any]) -> int:
    death = p.get("death")
    if isinstance(death, bool) or death is None:
        return -1
    if isinstance(death, int):
        return death
    if isinstance(death, dict) and isinstance(death.get("round"), int):
        return death["round"]
    return -1


def _death_type(p: dict[str, Any]) -> str | None:
    death = p.get("death")
    if isinstance(death, str):
        return death
    if isinstance(death, dict):
        return death.get("type")
    return None
