"""The game's protocol sheet (HTML that prints on A4), its results for an organiser's
spreadsheet and for a script, from the record.

Pure rendering: ``protocol(record, scores, ...)`` is the page a club keeps (the game's number in
the evening, the table as the club calls it and the local time: ``judge.record.club``; who sat
where, every nomination, every ballot with its voters, every shot, check and foul with a
legend, the scores with what earned them, the judge's extra points and the record's edits);
``results_xlsx`` is one line per player for an organiser's spreadsheet, ``results_csv`` the
same for a script (``results.spreadsheet`` says why the two differ). The sheet and the
spreadsheet are written in ``language`` (docs/i18n.md): the catalog's words, the book's own for
its cards, sides and steps (``book``; without it, their names), names exactly as typed. Every
value from the record is escaped; the script's CSV holds the record's identifiers and numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

import msgspec

from judge.game.book import Book
from judge.game.counting import BOOKS_COUNT, JUDGES_COUNT
from judge.game.mechanisms import MECHANISMS
from judge.game.mechanisms.check import Says
from judge.game.votes import PROCEDURES
from judge.game.votes.base import OUTCOMES, Procedure
from judge.record import club
from kit import i18n
from kit.i18n import Words
from kit.i18n import web as i18n_web
from results import spreadsheet
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

#: the script's CSV's columns: the record's identifiers (docs/record.md), numbers with "."
CSV_COLUMNS = ("game", "table", "date", "status", "winner", "seat", "name", "role", "team",
               "won", "fouls", "left", "left_day", "left_night", "win", "best_move", "penalty",
               "compensation", "extra", "total")
#: the organiser's spreadsheet's columns, each header the catalog's
SPREADSHEET_HEADERS = ("csv.number", "csv.table", "csv.date", "csv.status", "csv.winner",
                       "csv.seat", "csv.name", "csv.role", "csv.side", "csv.won", "csv.fouls",
                       "csv.left", "csv.win", "csv.best_move", "csv.penalty",
                       "csv.compensation", "csv.extra", "csv.total")
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


#: what the sheet names its table by: a text, one per language, or words (``club.table_name``)
TableName = str | Mapping[str, str] | Words


def heading(record: Record, number: int | None, table: TableName, language: str) -> str:
    """The game as a club names it: «Протокол игры № 3 · Стол 1 · 4 декабря 2026» (a game
    still in setup has no number yet)."""
    said = club.day(record.started or record.created, language)
    if number is None:
        return i18n.t("sheet.heading.setup", language, table=table, date=said)
    return i18n.t("sheet.heading.number", language, n=number, table=table, date=said)


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

    def value(self, path: str, value: object) -> str:
        """A corrected field's value as the sheet writes it: a card by the book's word, seats
        as a list, a number as the language writes it, nothing as «—», a text as typed; any
        other (a script's correction of a whole item) in short."""
        if value is None or value in ([], ""):
            return "—"
        if path.endswith("/role") and isinstance(value, str):
            return self.role(value)
        if path.endswith("/team") and isinstance(value, str):
            return self.team(value)
        if isinstance(value, bool):
            return i18n.t("words.yes" if value else "words.no", self.language)
        if isinstance(value, int | float):
            return i18n.number(value, self.language)
        if isinstance(value, list) and all(isinstance(v, int) for v in value):
            return seats(value)
        return _short(value)

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


def results_csv(record: Record, scores: list[PlayerScore]) -> str:
    """For a script: one line per player, the record's identifiers (``don``, ``black``,
    ``voted_out``) and numbers as a program writes them (``1.25``), in no language
    (``results.spreadsheet.machine_csv``)."""
    day = (record.started or record.created)
    rows = [[record.id, record.table, club.local(day).date(), record.status,
             record.winner or "", player.seat, player.name, player.role, team_of(player),
             int(s.won), len(player.fouls), player.left.how if player.left else "",
             player.left.day if player.left else None,
             player.left.night if player.left else None,
             s.win, s.best_move, s.penalty, s.compensation, s.extra, s.total]
            for player, s in zip(record.players, scores, strict=True)]
    return spreadsheet.machine_csv(CSV_COLUMNS, rows)


def results_xlsx(record: Record, scores: list[PlayerScore], language: str = i18n.DEFAULT,
                 book: Book | None = None, table: TableName | None = None,
                 number: int | None = None) -> bytes:
    """For an organiser: one line per player in ``language``'s words, the game's number in
    the evening and the table as the club calls it, its local date, every number a number
    (``results.spreadsheet.xlsx``)."""
    said = BookWords(book, language)
    named = i18n.value(table if table is not None else club.table_name(record.table), language)
    day = club.local(record.started or record.created).date()
    rows = [[number, named, day, i18n.t(STATUS_SHORT[record.status], language),
             said.winner(record), player.seat, player.name, said.role(player.role),
             said.team(team_of(player)), int(s.won), len(player.fouls),
             departure(player.left, language), s.win, s.best_move, s.penalty,
             s.compensation, s.extra, s.total]
            for player, s in zip(record.players, scores, strict=True)]
    return spreadsheet.xlsx(short_name(number, named, language),
                            [i18n.t(h, language) for h in SPREADSHEET_HEADERS], rows)


def short_name(number: int | None, table: TableName, language: str) -> str:
    """The game in a few words, for a spreadsheet's tab and a file's name: «Стол 1, игра 3»."""
    if number is None:
        return i18n.value(table, language)
    return i18n.t("words.game", language, table=table, n=number)


def protocol(record: Record, scores: list[PlayerScore], preset: i18n.Text,
             controls: str = "", language: str = i18n.DEFAULT, book: Book | None = None,
             table: TableName | None = None, number: int | None = None) -> str:
    """The whole sheet; ``preset``: the scoring preset's title per language (its own file's);
    ``controls`` (the panel's forms) is shown on screen, not printed; ``table`` the club's
    name for the table (``club.table_name``), ``number`` the game's in its evening."""
    e = escape
    table = table if table is not None else club.table_name(record.table)
    head = heading(record, number, table, language)

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
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(head)}</title>
<link rel="stylesheet" href="/static/record/sheet.css">
</head><body data-game="{e(record.id)}">
<nav class="no-print"><a href="/games">{t("games.all")}</a> <a href="/">{t("games.panel")}</a>
<a href="/games/{e(record.id)}/results.xlsx" id="spreadsheet">{t("sheet.spreadsheet")}</a>
<button onclick="print()">{t("sheet.print")}</button>
{i18n_web.switch(language)}</nav>
<h1>{e(head)}</h1>
<p class="meta">{t("sheet.meta" if record.ended is not None else "sheet.meta.playing",
                    rules=book.title if book is not None else record.rules,
                    started=club.clock(record.started, language),
                    ended=club.clock(record.ended, language))}&nbsp;·
<span id="status" data-status="{record.status}">{e(status)}</span>&nbsp;·
{t("sheet.scores", preset=preset)}</p>
<table id="players"><thead><tr>{heads}</tr>
</thead><tbody>{''.join(rows)}</tbody></table>
<p class="legend" id="legend">{t("sheet.legend")}</p>"""]
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
            f"{e(x.reason)} ({e(who(x.by, language))}, {e(club.moment(x.at, language))})</li>"
            for x in record.extra_points) + "</ul>")
    if record.history:
        parts.append(f'<h2>{t("sheet.edits")}</h2><ol id="history">' + "".join(
            f"<li>{e(club.moment(h.at, language))} {e(who(h.by, language))}: {t(EDITS[h.kind])} "
            f'<span class="path">{e(field_path(h.path, record, language))}</span> '
            f"{'' if h.kind != 'correction' else e(said.value(h.path, h.before)) + ' → '}"
            f"{'' if h.kind != 'correction' else e(said.value(h.path, h.after))}"
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
_NUMBERED_BY = {"players": "seat", "days": "number", "nights": "number",
                "ballots": "candidate"}


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
            if field == "ballots" and n == 0:  # the question's yes, «against all»: no seat
                parts[-1] = i18n.t("sheet.field.ballots.asked", language)
            elif field in ITEMS:
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
