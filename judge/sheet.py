"""The game's protocol sheet (HTML that prints on A4) and its per-player CSV, from the record.

Pure rendering: ``protocol(record, scores)`` is the page a club keeps (who sat where, every
nomination, every ballot with its voters, every shot, check and foul, the scores with what
earned them, the judge's extra points and the record's edits); ``results_csv`` is one line per
player for an organiser's spreadsheet. Every value from the record is escaped.
"""

from __future__ import annotations

import csv
import io
import time
from html import escape

from judge.record import Departure, Foul, Night, Nomination, Record, VoteRound, team_of
from judge.scoring import PlayerScore

CSV_COLUMNS = ("game", "table", "date", "status", "winner", "seat", "name", "role", "side",
               "won", "fouls", "left", "win", "best_move", "penalty", "compensation", "extra",
               "total")


def when(at: float | None) -> str:
    """A moment as UTC ``YYYY-MM-DD HH:MM:SS``."""
    return "" if at is None else time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at))


def moment(day: int, night: int, stage: str) -> str:
    """``D2`` (day 2), ``N1`` (night 1), ``V2`` (day 2's vote) for a foul's moment."""
    if stage in ("night", "night0"):
        return f"N{night}"
    return f"{'V' if stage in ('vote', 'question') else 'D'}{day}"


def departure(left: Departure | None) -> str:
    if left is None:
        return ""
    return {"voted_out": f"voted out day {left.day}", "shot": f"shot night {left.night}",
            "fouls": f"4th foul day {left.day}",
            "disqualified": f"disqualified {left.reason}".strip()}[left.how]


def fouls(items: list[Foul]) -> str:
    return " ".join(moment(f.day, f.night, f.stage) for f in items)


def seats(values: list[int]) -> str:
    return ", ".join(map(str, values)) or "—"


def results_csv(record: Record, scores: list[PlayerScore]) -> str:
    """One line per player: who, their side, how they left, their points by part."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for player, s in zip(record.players, scores, strict=True):
        writer.writerow([record.id, record.table, when(record.started or record.created)[:10],
                         record.status, record.winner or "", player.seat,
                         _cell(player.name), player.role, team_of(player),
                         int(s.won), len(player.fouls), departure(player.left),
                         f"{s.win:g}", f"{s.best_move:g}", f"{s.penalty:g}",
                         f"{s.compensation:g}", f"{s.extra:g}", f"{s.total:g}"])
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet runs a cell that starts with = + - @ (also after a tab or a carriage
    return it skips, OWASP's list): such a name is quoted with '."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def protocol(record: Record, scores: list[PlayerScore], preset_name: str,
             controls: str = "") -> str:
    """The whole sheet; ``controls`` (the panel's forms) is shown on screen, not printed."""
    e = escape
    status = {"finished": f"finished: {record.winner} wins",
              "in_progress": "in progress",
              "abandoned": f"abandoned: {record.abandon_reason or ''}"}[record.status]
    rows = []
    for p, s in zip(record.players, scores, strict=True):
        rows.append(
            f'<tr data-seat="{p.seat}"><td>{p.seat}</td><td>{e(p.name)}</td><td>{e(p.role)}</td>'
            f'<td class="fouls">{e(fouls(p.fouls))}</td><td>{e(departure(p.left))}</td>'
            f"<td>{s.win:g}</td><td>{s.best_move:g}</td><td>{s.penalty:g}</td>"
            f"<td>{s.compensation:g}</td><td>{s.extra:g}</td><td><b>{s.total:g}</b></td></tr>")
    parts = [f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Protocol {e(record.id)}</title>
<link rel="stylesheet" href="/static/sheet.css">
</head><body>
<nav class="no-print"><a href="/games">All games</a> · <a href="/">Panel</a> ·
<a href="/games/{e(record.id)}/results.csv">CSV</a> ·
<a href="/api/games/{e(record.id)}">JSON</a> · <button onclick="print()">Print</button></nav>
<h1>Game protocol <span id="game-id">{e(record.id)}</span></h1>
<p class="meta">Table <b>{e(record.table)}</b> · rules {e(record.rules)} ·
started {e(when(record.started))} · ended {e(when(record.ended))} ·
<span id="status" data-status="{record.status}">{e(status)}</span> ·
scores: {e(preset_name)}</p>
<table id="players"><thead><tr><th>#</th><th>name</th><th>role</th><th>fouls</th><th>left</th>
<th>win</th><th>best move</th><th>penalty</th><th>comp.</th><th>extra</th><th>total</th></tr>
</thead><tbody>{''.join(rows)}</tbody></table>"""]
    parts.append('<div class="rounds">')
    nights = {n.number: n for n in record.nights}
    for day in record.days:
        parts.append(_day(day.number, day.opener, day.nominations, day.votes))
        if day.number in nights:
            parts.append(_night(nights.pop(day.number)))
    for night in nights.values():  # a night after the last day
        parts.append(_night(night))
    parts.append("</div>")
    if record.extra_points:
        parts.append('<h2>Extra points</h2><ul id="extra">' + "".join(
            f"<li>seat {x.seat}: {x.points:+g} — {e(x.reason)} ({e(x.by)}, {e(when(x.at))})</li>"
            for x in record.extra_points) + "</ul>")
    if record.history:
        parts.append('<h2>Edits</h2><ol id="history">' + "".join(
            f"<li>{e(when(h.at))} {e(h.by)}: {e(h.kind)} {e(h.path)} "
            f"{'' if h.kind != 'correction' else e(_short(h.before)) + ' → ' + e(_short(h.after))}"
            f" — {e(h.reason)}</li>" for h in record.history) + "</ol>")
    parts.append(f'<p class="sign">Judge: ____________________ &nbsp; {e(status)}</p>')
    parts.append(controls)
    parts.append("</body></html>")
    return "\n".join(parts)


def _day(number: int, opener: int, nominations: list[Nomination],
         votes: list[VoteRound]) -> str:
    noms = ", ".join(
        f"{n.seat}{'' if n.by is None else f' (by {n.by})'}{' withdrawn' if n.withdrawn else ''}"
        for n in nominations) or "none"
    lines = [f'<section class="day" data-day="{number}"><h2>Day {number}</h2>'
             f"<p>Opens: {opener}. Nominated: {escape(noms)}</p>"]
    for v in votes:
        title = "All leave?" if v.kind == "question" else \
            ("Vote" if v.round == 1 else f"Re-vote {v.round - 1}")
        ballots = "".join(
            f'<li class="ballot">{"yes" if b.candidate == 0 else b.candidate}: <b>{b.count}</b>'
            f" ({seats(b.voters)}{'; left over ' + seats(b.leftover) if b.leftover else ''})"
            f"{f'; {b.rejected} count(s) rejected' if b.rejected else ''}"
            f"{'; corrected: ' + escape(b.reason or '') if b.by == 'correction' else ''}</li>"
            for b in v.ballots)
        result = escape(v.outcome or "—")
        if v.eliminated:
            result += f": {seats(v.eliminated)} leave"
        elif v.tied:
            result += f": {seats(v.tied)}"
        if v.yes_count is not None:
            result += f" ({v.yes_count} of {v.voters_count})"
        lines.append(f"<p>{title} on {seats(v.candidates)}:</p><ul>{ballots}</ul>"
                     f"<p>Result: {result}</p>")
    lines.append("</section>")
    return "".join(lines)


#: FIIM's night steps, printed in its own words; any other book's steps are listed as they went
_FIIM_STEPS = ("mafia_shot", "don_check", "sheriff_check", "best_move")


def _night(night: Night) -> str:
    lines = [f'<section class="night" data-night="{night.number}"><h2>Night {night.number}</h2>']
    fiim = not night.actions or any(a.step in _FIIM_STEPS for a in night.actions)
    if fiim:
        lines.append(_fiim_shot(night))
    for action in night.actions:
        if action.step in _FIIM_STEPS:
            continue
        picks = "; ".join(f"{p.actor} → {seats(p.picks)}{' (' + p.miss + ')' if p.miss else ''}"
                          for p in action.picks) or "no pick"
        entered = f"; entered by the judge for {seats(action.entered)}" if action.entered else ""
        outcome = f"{action.outcome} {seats(action.targets)}".strip() if action.outcome \
            else "nothing"
        lines.append(f"<p>{escape(action.step)}: {escape(picks)}{entered}. "
                     f"<b>{escape(outcome)}</b></p>")
    if not fiim and night.killed is not None:
        lines.append(f"<p><b>seat {night.killed} killed</b></p>")
    for name, check in (("Don", night.don_check), ("Sheriff", night.sheriff_check)):
        if check is not None:
            answer = ("Sheriff" if check.answer else "not the Sheriff") if name == "Don" else \
                ("black" if check.answer else "red")
            lines.append(f"<p>{name} ({check.by}) checks {check.target}: {answer}</p>")
    if night.best_move is not None:
        lines.append(f"<p>Best move ({night.best_move.by}): "
                     f"{seats(night.best_move.guesses)}</p>")
    lines.append("</section>")
    return "".join(lines)


def _fiim_shot(night: Night) -> str:
    shots = "; ".join(f"{s.actor} → {seats(s.picks)}{' (' + s.miss + ')' if s.miss else ''}"
                      for s in night.shots) or "none"
    killed = f"seat {night.killed} killed" if night.killed is not None else "a miss"
    missing = f"; missing {seats(night.missing)}" if night.missing else ""
    return f"<p>Shots: {escape(shots)}{missing}. <b>{killed}</b></p>"


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."
