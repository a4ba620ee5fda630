"""The game's protocol sheet (HTML that prints on A4) and its per-player CSV, from the record.

Pure rendering: ``protocol(record, scores, ...)`` is the page a club keeps (who sat where, every
nomination, every ballot with its voters, every shot, check and foul, the scores with what
earned them, the judge's extra points and the record's edits); ``results_csv`` is one line per
player for an organiser's spreadsheet. Both are written in ``language`` (docs/i18n.md): the
catalog's words, the book's own for its cards, sides and steps (``book``; without it, their
names), names exactly as typed. Every value from the record is escaped; the CSV's numbers
stay numbers (``1.25``: data for a spreadsheet).
"""

from __future__ import annotations

import csv
import io
import time
from html import escape
from typing import Any

import msgspec

from judge.game.book import Book
from judge.game.counting import BOOKS_COUNT, JUDGES_COUNT
from judge.game.mechanisms import MECHANISMS
from judge.game.mechanisms.check import Says
from judge.game.votes import PROCEDURES
from judge.game.votes.base import OUTCOMES, Procedure
from kit import i18n
from kit.i18n import Words
from kit.i18n import web as i18n_web
from results.record import (
    JUDGE,
    NEW_GAME,
    Departure,
    Foul,
    Night,
    NightAction,
    Nomination,
    Record,
    VoteRound,
    team_of,
)
from results.scoring import PlayerScore

#: the CSV's columns, each header the catalog's ``csv.<column>``
CSV_COLUMNS = ("game", "table", "date", "status", "winner", "seat", "name", "role", "side",
               "won", "fouls", "left", "win", "best_move", "penalty", "compensation", "extra",
               "total")
CSV_HEADERS = {"game": "csv.game", "table": "csv.table", "date": "csv.date",
               "status": "csv.status", "winner": "csv.winner", "seat": "csv.seat",
               "name": "csv.name", "role": "csv.role", "side": "csv.side", "won": "csv.won",
               "fouls": "csv.fouls", "left": "csv.left", "win": "csv.win",
               "best_move": "csv.best_move", "penalty": "csv.penalty",
               "compensation": "csv.compensation", "extra": "csv.extra", "total": "csv.total"}
STATUS = {"finished": "sheet.status.finished", "in_progress": "sheet.status.in_progress",
          "abandoned": "sheet.status.abandoned"}
STATUS_SHORT = {"finished": "csv.status.finished", "in_progress": "csv.status.in_progress",
                "abandoned": "csv.status.abandoned"}
LEFT = {"voted_out": "sheet.left.voted_out", "shot": "sheet.left.shot",
        "fouls": "sheet.left.fouls", "disqualified": "sheet.left.disqualified"}
COUNT_REASONS = {JUDGES_COUNT: "sheet.reason.judge", BOOKS_COUNT: "sheet.reason.book"}
EDITS = {"correction": "sheet.edit.correction", "extra_points": "sheet.edit.extra_points",
         "abandon": "sheet.edit.abandon"}
#: a foul's moment: D2 (day 2), V2 (day 2's vote), N1 (night 1), in the language's letters
MOMENTS = {"day": "sheet.moment.day", "vote": "sheet.moment.vote",
           "night": "sheet.moment.night"}


def who(by: str, language: str) -> str:
    """Who made an edit: the name the judge gave, or, when none was (``JUDGE``), the reader's
    word for the judge."""
    return i18n.t("sheet.by_judge", language) if by == JUDGE else by


def why(reason: str | None, language: str) -> str:
    """Why a game was abandoned: the judge's reason, or the reader's words for the panel's
    own (``NEW_GAME``)."""
    return i18n.t("sheet.new_game", language) if reason == NEW_GAME else reason or ""


def when(at: float | None, language: str = i18n.FALLBACK) -> str:
    """A moment as ``YYYY-MM-DD HH:MM:SS UTC``, the zone's name as ``language`` writes it."""
    if at is None:
        return ""
    return i18n.render(Words("words.utc", time=time.strftime("%Y-%m-%d %H:%M:%S",
                                                             time.gmtime(at))), language)


def date(at: float | None) -> str:
    """A day as ``YYYY-MM-DD`` (UTC): data for a spreadsheet, in no language."""
    return "" if at is None else time.strftime("%Y-%m-%d", time.gmtime(at))


def moment(day: int, night: int, stage: str, language: str = i18n.FALLBACK) -> str:
    """``D2`` (day 2), ``N1`` (night 1), ``V2`` (day 2's vote) for a foul's moment (in
    Russian: the same with its own letters)."""
    if stage in ("night", "night0"):
        return i18n.t(MOMENTS["night"], language, n=night)
    return i18n.t(MOMENTS["vote" if stage in ("vote", "question") else "day"], language, n=day)


def departure(left: Departure | None, language: str = i18n.FALLBACK) -> str:
    if left is None:
        return ""
    return i18n.t(LEFT[left.how], language, day=left.day, night=left.night,
                  reason=left.reason).strip()


def fouls(items: list[Foul], language: str = i18n.FALLBACK) -> str:
    return " ".join(moment(f.day, f.night, f.stage, language) for f in items)


def sentence(text: str) -> str:
    """``text`` as a sentence of its own, after a full stop: its first letter a capital
    («… 9 → 4. Убит игрок 4»)."""
    return text[:1].upper() + text[1:]


def seats(values: list[int]) -> str:
    return ", ".join(map(str, values)) or "—"


class BookWords:
    """The book's words for the record's identifiers, in one language (the names themselves
    when the book is not at hand)."""

    def __init__(self, book: Book | None, language: str):
        self.book, self.language = book, language

    def role(self, role: str) -> str:
        if not role or self.book is None:
            return role
        return i18n.text(self.book.role_title(role), self.language)

    def team(self, team: str) -> str:
        if not team or self.book is None:
            return team
        return i18n.text(self.book.team_title(team), self.language)

    def step(self, step: str) -> str:
        found = None if self.book is None else \
            next((s for s in self.book.night.steps if s.name == step), None)
        return step if found is None else i18n.text(found.words, self.language)

    def act(self, action: NightAction) -> str:
        """What a night step did, in its mechanism's words and the book's ("убит 10", "3:
        мафия"); without the book (or the step in it), the record's outcome as it is."""
        outcome, book = action.outcome or "", self.book
        step = None if book is None else \
            next((s for s in book.night.steps if s.name == action.step), None)
        if book is None or step is None or action.mechanism not in MECHANISMS:
            return f"{outcome} {seats(action.targets)}"
        words = MECHANISMS[action.mechanism].written(book, step, outcome, action.targets)
        return i18n.render(words, self.language)

    def reason(self, reason: str | None) -> str:
        """Why a count was corrected, in the reader's words: the table keeps the reason the
        judge's engine gave it in English (``judge.game.counting``), so the engine's own two
        and a citation of the book are given back in this language; a judge's typed reason
        stays as typed."""
        if reason in COUNT_REASONS:
            return i18n.t(COUNT_REASONS[reason], self.language)
        if reason and self.book is not None:
            for cite in self.book.cite.values():
                if not isinstance(cite, str) and i18n.cited(cite, "en") == reason:
                    return i18n.cited(cite, self.language)
        return reason or ""

    def leftover(self, leftover: list[int]) -> str:
        """Who raised no hand, and that their votes go against the last nominee, citing the
        book's paragraph for it (``[cite] leftover``: FIIM 4.4.8; else its count's)."""
        cite = None if self.book is None else \
            self.book.cite.get("leftover", self.book.cite.get("count"))
        if cite is None:
            return i18n.t("words.leftover.bare", self.language, seats=leftover,
                          count=len(leftover))
        return i18n.t("words.leftover", self.language, seats=leftover, count=len(leftover),
                      cite=cite)

    def nominates(self, day: int) -> bool:
        """Whether ``day`` holds nominations by the book: a round of it takes them (the online
        book's vote is its nomination: no line of nominees); without the book, it does."""
        if self.book is None:
            return True
        held = ("all", "first") if day == 1 else ("all", "later")
        return any(r.nominations and r.days in held for r in self.book.day.rounds)

    def answer(self, step: str, yes: bool) -> str | None:
        """A check's answer in the book's own words (its step's ``says``: the Crow Club's
        «чёрные»); ``None`` when the book has no such check step or gives no words for it."""
        found = None if self.book is None else \
            next((s for s in self.book.night.steps if s.name == step), None)
        if found is None or found.mechanism != "check" or found.options.says == Says():
            return None
        return i18n.text(found.options.says.yes if yes else found.options.says.no,
                         self.language)

    def vote(self, kind: str, number: int) -> str:
        """A vote round's title: the book's procedure's own for its kind (the online book's
        verdict, the Crow Club's top), else the day's "Vote", then "Re-vote n"."""
        titles = self._procedure().titles
        if kind in titles:
            return i18n.t(titles[kind], self.language)
        if number == 1:
            return i18n.t("sheet.vote", self.language)
        return i18n.t("sheet.revote", self.language, n=number - 1)

    def result(self, kind: str, outcome: str) -> str | None:
        """The procedure's own words for a vote kind's outcome (``Procedure.results``)."""
        return self._procedure().results.get(kind, {}).get(outcome)

    def _procedure(self) -> Procedure:
        book = self.book
        return PROCEDURES.get("" if book is None else book.vote.procedure, Procedure())

    def winner(self, record: Record) -> str:
        if record.winner == "draw":
            return i18n.t("stage.draw", self.language)
        return self.team(record.winner or "")


#: the CSV opens with the byte order mark: a spreadsheet (Excel) then reads it as UTF-8, so
#: its Cyrillic headers and names are not mojibake (the rating platform's JSON has none)
BOM = "\ufeff"


def results_csv(record: Record, scores: list[PlayerScore], language: str = i18n.DEFAULT,
                book: Book | None = None) -> str:
    """One line per player: who, their side, how they left, their points by part; after
    ``BOM``."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([i18n.t(CSV_HEADERS[c], language) for c in CSV_COLUMNS])
    said = BookWords(book, language)
    for player, s in zip(record.players, scores, strict=True):
        writer.writerow([record.id, record.table, date(record.started or record.created),
                         i18n.t(STATUS_SHORT[record.status], language),
                         said.winner(record), player.seat,
                         _cell(player.name), said.role(player.role), said.team(team_of(player)),
                         int(s.won), len(player.fouls), departure(player.left, language),
                         f"{s.win:g}", f"{s.best_move:g}", f"{s.penalty:g}",
                         f"{s.compensation:g}", f"{s.extra:g}", f"{s.total:g}"])
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet runs a cell that starts with = + - @ (also after a tab or a carriage
    return it skips, OWASP's list): such a name is quoted with '."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def protocol(record: Record, scores: list[PlayerScore], preset: i18n.Text,
             controls: str = "", language: str = i18n.DEFAULT, book: Book | None = None) -> str:
    """The whole sheet; ``preset``: the scoring preset's title per language (its own file's);
    ``controls`` (the panel's forms) is shown on screen, not printed."""
    e = escape

    def t(key: str, **params: object) -> str:
        return e(i18n.t(key, language, **params))

    said = BookWords(book, language)
    draw = record.status == "finished" and record.winner == "draw"  # no side wins a draw
    status = i18n.t("sheet.status.finished.draw" if draw else STATUS[record.status], language,
                    winner=said.winner(record),
                    reason=why(record.abandon_reason, language))
    rows = []
    for p, s in zip(record.players, scores, strict=True):
        rows.append(
            f'<tr data-seat="{p.seat}"><td>{p.seat}</td><td>{e(p.name)}</td>'
            f'<td>{e(said.role(p.role))}</td>'
            f'<td class="fouls">{e(fouls(p.fouls, language))}</td>'
            f'<td>{e(departure(p.left, language))}</td>'
            f"<td>{_n(s.win, language)}</td><td>{_n(s.best_move, language)}</td>"
            f"<td>{_n(s.penalty, language)}</td><td>{_n(s.compensation, language)}</td>"
            f"<td>{_n(s.extra, language)}</td><td><b>{_n(s.total, language)}</b></td></tr>")
    heads = "".join(f"<th>{t(k)}</th>" for k in (
        "sheet.col.seat", "sheet.col.name", "sheet.col.role", "sheet.col.fouls",
        "sheet.col.left", "sheet.col.win", "sheet.col.best_move", "sheet.col.penalty",
        "sheet.col.compensation", "sheet.col.extra", "sheet.col.total"))
    parts = [f"""<!doctype html>
<html lang="{e(language)}"><head><meta charset="utf-8">
<title>{t("sheet.title", id=record.id)}</title>
<link rel="stylesheet" href="/static/record/sheet.css">
</head><body>
<nav class="no-print"><a href="/games">{t("games.all")}</a> <a href="/">{t("games.panel")}</a>
<a href="/games/{e(record.id)}/results.csv">CSV</a>
<a href="/api/games/{e(record.id)}">JSON</a> <button onclick="print()">{t("sheet.print")}</button>
{i18n_web.switch(language)}</nav>
<h1>{t("sheet.heading")} <span id="game-id">{e(record.id)}</span></h1>
<p class="meta">{t("sheet.meta" if record.ended is not None else "sheet.meta.playing",
                    table=record.table,
                    rules=book.title if book is not None else record.rules,
                    started=when(record.started, language),
                    ended=when(record.ended, language))}&nbsp;·
<span id="status" data-status="{record.status}">{e(status)}</span>&nbsp;·
{t("sheet.scores", preset=preset)}</p>
<table id="players"><thead><tr>{heads}</tr>
</thead><tbody>{''.join(rows)}</tbody></table>"""]
    parts.append('<div class="rounds">')
    nights = {n.number: n for n in record.nights}
    for day in record.days:
        parts.append(_day(day.number, day.opener, day.nominations, day.votes, said))
        if day.number in nights:
            parts.append(_night(nights.pop(day.number), said))
    for night in nights.values():  # a night after the last day
        parts.append(_night(night, said))
    parts.append("</div>")
    if record.extra_points:
        parts.append(f'<h2>{t("sheet.extra")}</h2><ul id="extra">' + "".join(
            f"<li>{t('sheet.extra.line', seat=x.seat, points=_signed(x.points, language))} — "
            f"{e(x.reason)} ({e(who(x.by, language))}, {e(when(x.at, language))})</li>"
            for x in record.extra_points) + "</ul>")
    if record.history:
        parts.append(f'<h2>{t("sheet.edits")}</h2><ol id="history">' + "".join(
            f"<li>{e(when(h.at, language))} {e(who(h.by, language))}: {t(EDITS[h.kind])} "
            f'<span class="path" title="{e(h.path)}">{e(field_path(h.path, record, language))}'
            "</span> "
            f"{'' if h.kind != 'correction' else e(_short(h.before)) + ' → ' + e(_short(h.after))}"
            f" — {e(h.reason)}</li>" for h in record.history) + "</ol>")
    parts.append(f'<p class="sign">{t("sheet.judge")} ____________________ &nbsp; '
                 f"{e(status)}</p>")
    parts.append(controls)
    parts.append("</body></html>")
    return "\n".join(parts)


def _n(value: float, language: str) -> str:
    return escape(i18n.number(value, language))


def _signed(value: float, language: str) -> str:
    return ("+" if value > 0 else "") + i18n.number(value, language)


def _day(number: int, opener: int, nominations: list[Nomination], votes: list[VoteRound],
         said: BookWords) -> str:
    language = said.language

    def t(key: str, **params: object) -> str:
        return escape(i18n.t(key, language, **params))

    noms = ", ".join(
        i18n.t("sheet.nomination" if n.by is None else "sheet.nomination.by", language,
               seat=n.seat, by=n.by or 0)
        + (i18n.t("sheet.withdrawn", language) if n.withdrawn else "")
        for n in nominations) or i18n.t("sheet.none", language)
    opens = t("sheet.opens", seat=opener, nominated=noms) \
        if nominations or said.nominates(number) else t("sheet.opens.only", seat=opener)
    lines = [f'<section class="day" data-day="{number}"><h2>{t("sheet.day", n=number)}</h2>'
             f"<p>{opens}</p>"]
    for v in votes:
        ballots = "".join(
            f'<li class="ballot">{_candidate(b.candidate, v, language)}: '
            f"<b>{b.count}</b> ({_voters(b.voters, b.leftover, said)})"
            f"{t('sheet.rejected', count=b.rejected) if b.rejected else ''}"
            f"{t('sheet.corrected', reason=said.reason(b.reason)) if b.by == 'correction' else ''}"
            "</li>"
            for b in v.ballots)
        outcome = v.outcome or ""
        own = said.result(v.kind, outcome)
        if own is not None:
            named = v.eliminated or v.candidates
            result = t(own, seats=seats(named), count=len(named))
        else:
            result = t(OUTCOMES[outcome]) if outcome in OUTCOMES else escape(outcome or "—")
            if v.eliminated:
                result += t("sheet.result.leave", seats=seats(v.eliminated),
                            count=len(v.eliminated))
            elif v.tied:
                result += f": {seats(v.tied)}"
        if v.yes_count is not None:
            result += t("sheet.result.of", yes=v.yes_count, voters=v.voters_count or 0)
        if v.kind == "question":  # its own words: "All leave? 5, 6:", no "on"
            on = t("sheet.vote.question.on", seats=seats(v.candidates))
        else:
            on = t("sheet.vote.on", vote=said.vote(v.kind, v.round), seats=seats(v.candidates))
        lines.append(f"<p>{on}</p>"
                     f"<ul>{ballots}</ul><p>{t('sheet.result', result='')}{result}</p>")
    lines.append("</section>")
    return "".join(lines)


def _voters(voters: list[int], leftover: list[int], said: BookWords) -> str:
    """A ballot's voters, then who raised no hand and where the book sends their votes (FIIM
    4.4.8, the Crow Club's "the last votes go to the last nominee"): those alone when no one
    raised a hand for him."""
    if not leftover:
        return escape(seats(voters))
    left = said.leftover(leftover)
    return escape(f"{seats(voters)}; {left}" if voters else left)


def _candidate(candidate: int, vote: VoteRound, language: str) -> str:
    """A ballot's candidate as the sheet names it: a seat, or candidate 0, the question's yes
    (a question has that one window) or a nominee vote's «against all» (voted last, after
    every nominee's window: the online book's second round)."""
    if candidate:
        return str(candidate)
    return escape(i18n.t("sheet.yes" if len(vote.ballots) == 1 else "sheet.outcome.against_all",
                         language))


#: FIIM's night steps, printed in its own words; any other book's steps are listed as they went
_FIIM_STEPS = ("mafia_shot", "don_check", "sheriff_check", "best_move")
#: how a pick does not stand (the table's ``miss``)
MISSES = {"missing": "sheet.miss.missing", "several_targets": "sheet.miss.several_targets",
          "disagree": "sheet.miss.disagree"}


def _miss(miss: str | None, language: str) -> str:
    if not miss:
        return ""
    return f" ({i18n.t(MISSES[miss], language) if miss in MISSES else miss})"


def _night(night: Night, said: BookWords) -> str:
    language = said.language

    def t(key: str, **params: object) -> str:
        return escape(i18n.t(key, language, **params))

    lines = [f'<section class="night" data-night="{night.number}">'
             f'<h2>{t("sheet.night", n=night.number)}</h2>']
    fiim = not night.actions or any(a.step in _FIIM_STEPS for a in night.actions)
    if fiim:
        lines.append(_fiim_shot(night, language))
    for action in night.actions:
        if action.step in _FIIM_STEPS:
            continue
        picks = "; ".join(f"{p.actor} → {seats(p.picks)}{_miss(p.miss, language)}"
                          for p in action.picks) or i18n.t("sheet.no_pick", language)
        entered = t("sheet.entered", seats=seats(action.entered)) if action.entered else ""
        outcome = said.act(action) if action.outcome else i18n.t("sheet.nothing", language)
        lines.append(f"<p>{escape(said.step(action.step))}: {escape(picks)}{entered}. "
                     f"<b>{escape(sentence(outcome))}</b></p>")
    if not fiim and night.killed is not None:
        killed = i18n.t("sheet.killed", language, seat=night.killed)
        lines.append(f"<p><b>{escape(sentence(killed))}</b></p>")
    for step, check in (("don_check", night.don_check), ("sheriff_check", night.sheriff_check)):
        if check is not None:
            own = said.answer(step, check.answer)
            answer = {("don_check", True): "sheet.answer.sheriff",
                      ("don_check", False): "sheet.answer.not_sheriff",
                      ("sheriff_check", True): "sheet.answer.black",
                      ("sheriff_check", False): "sheet.answer.red"}[step, check.answer]
            who = "sheet.check.don" if step == "don_check" else "sheet.check.sheriff"
            checked = t("sheet.check", who=Words(who), by=check.by, seat=check.target,
                        answer=Words(answer) if own is None else own)
            lines.append(f"<p>{checked}</p>")
    if night.best_move is not None:
        best = t("sheet.best_move", by=night.best_move.by,
                 seats=seats(night.best_move.guesses))
        lines.append(f"<p>{best}</p>")
    lines.append("</section>")
    return "".join(lines)


def _fiim_shot(night: Night, language: str) -> str:
    shots = "; ".join(f"{s.actor} → {seats(s.picks)}{_miss(s.miss, language)}"
                      for s in night.shots) or i18n.t("sheet.none", language)
    killed = i18n.t("sheet.killed", language, seat=night.killed) if night.killed is not None \
        else i18n.t("sheet.miss", language)
    missing = i18n.t("sheet.missing", language, seats=seats(night.missing),
                     count=len(night.missing)) \
        if night.missing else ""
    return (f"<p>{escape(i18n.t('sheet.shots', language, shots=shots))}{escape(missing)}. "
            f"<b>{escape(sentence(killed))}</b></p>")


#: a record field's words on the sheet (``field_path``), by the field's name
FIELDS = {"actions": "sheet.field.actions", "actor": "sheet.field.actor",
          "actors": "sheet.field.actors", "answer": "sheet.field.answer", "at": "sheet.field.at",
          "ballots": "sheet.field.ballots", "best_move": "sheet.field.best_move",
          "by": "sheet.field.by", "candidate": "sheet.field.candidate",
          "candidates": "sheet.field.candidates", "count": "sheet.field.count",
          "created": "sheet.field.created", "day": "sheet.field.day", "days": "sheet.field.days",
          "don_check": "sheet.field.don_check", "eliminated": "sheet.field.eliminated",
          "ended": "sheet.field.ended", "entered": "sheet.field.entered",
          "floor": "sheet.field.floor", "fouls": "sheet.field.fouls",
          "guesses": "sheet.field.guesses", "how": "sheet.field.how",
          "killed": "sheet.field.killed", "kind": "sheet.field.kind",
          "last_words": "sheet.field.last_words", "left": "sheet.field.left",
          "leftover": "sheet.field.leftover", "mechanism": "sheet.field.mechanism",
          "miss": "sheet.field.miss", "missing": "sheet.field.missing", "n": "sheet.field.n",
          "name": "sheet.field.name", "night": "sheet.field.night", "nights": "sheet.field.nights",
          "nominations": "sheet.field.nominations", "number": "sheet.field.number",
          "opener": "sheet.field.opener", "outcome": "sheet.field.outcome",
          "picks": "sheet.field.picks", "players": "sheet.field.players",
          "points": "sheet.field.points", "reason": "sheet.field.reason",
          "rejected": "sheet.field.rejected", "role": "sheet.field.role",
          "round": "sheet.field.round", "rules": "sheet.field.rules", "seat": "sheet.field.seat",
          "sheriff_check": "sheet.field.sheriff_check", "shots": "sheet.field.shots",
          "speeches": "sheet.field.speeches", "stage": "sheet.field.stage",
          "started": "sheet.field.started", "step": "sheet.field.step",
          "target": "sheet.field.target", "targets": "sheet.field.targets",
          "team": "sheet.field.team", "tied": "sheet.field.tied", "timings": "sheet.field.timings",
          "voters": "sheet.field.voters", "voters_count": "sheet.field.voters_count",
          "votes": "sheet.field.votes", "winner": "sheet.field.winner",
          "withdrawn": "sheet.field.withdrawn", "yes_count": "sheet.field.yes_count"}
#: the words for an item of a list field («игрок 7», «день 2»); any other list's item is
#: ``sheet.field.item`` («голосовавшие, № 1»)
ITEMS = {"actions": "sheet.field.actions.item",
         "ballots": "sheet.field.ballots.item", "days": "sheet.field.days.item",
         "fouls": "sheet.field.fouls.item", "nights": "sheet.field.nights.item",
         "nominations": "sheet.field.nominations.item", "picks": "sheet.field.picks.item",
         "players": "sheet.field.players.item", "shots": "sheet.field.shots.item",
         "speeches": "sheet.field.speeches.item", "votes": "sheet.field.votes.item"}
#: the fields whose items the sheet numbers by the item's own number, not its position: a
#: player by his seat, a day or a night by its number (``/players/6`` is seat 7)
_NUMBERED_BY = {"players": "seat", "days": "number", "nights": "number"}


def field_path(path: str, record: Record, language: str = i18n.FALLBACK) -> str:
    """A correction's JSON pointer in words («игрок 7: имя», «день 2, голосование 1, голоса,
    строка 2: голосовавшие»), walked through the record's own data: each field by its words in
    ``FIELDS``, an item of a list by ``ITEMS`` (a player by his seat, a day or a night by its
    number, anything else by its place from 1); a field not in ``FIELDS`` (a timing's name)
    is its name with spaces, an item of a list not in ``ITEMS`` ``sheet.field.item``."""
    node: Any = msgspec.to_builtins(record)
    parts: list[str] = []
    field, leaf = "", False
    for key in (k.replace("~1", "/").replace("~0", "~") for k in path[1:].split("/")):
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
            by = _NUMBERED_BY.get(field)
            n = node[by] if by and isinstance(node, dict) and by in node else int(key) + 1
            if field in ITEMS:
                parts[-1] = i18n.t(ITEMS[field], language, n=n)
            else:
                parts[-1] = i18n.t("sheet.field.item", language, field=parts[-1], n=n)
            leaf = False
            continue
        node = node.get(key) if isinstance(node, dict) else None
        field, leaf = key, True
        parts.append(i18n.t(FIELDS[key], language) if key in FIELDS else key.replace("_", " "))
    if len(parts) > 1 and leaf:  # «игрок 7: имя»
        return ", ".join(parts[:-1]) + ": " + parts[-1]
    return ", ".join(parts)


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."
