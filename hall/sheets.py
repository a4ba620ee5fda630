"""The tournament's seating on paper: the sheets an organiser prints from the browser (pure HTML;
``hall.tournament_routes`` serves them behind the board's login, ``static/print.css`` lays them
out on A4).

- ``tables_html``: a sheet per table per round, for the table itself: the tournament, the stage
  and round, the table, and each seat's number beside its player, large enough to read from a
  chair.
- ``players_html``: a sheet per player, for the player's pocket: each round, the table and the
  seat (a round the player sits out says so).

Each sheet is one A4 page (``tests/hall/test_tournament_print.py`` prints them in Chromium and
counts the pages, every name and seat on its own). Words are the catalogs' in ``language``; the
names are the tournament's, escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from hall.tables import natural, table_words
from hall.tournament import Round, Tournament
from kit import i18n
from kit.i18n import Words
from results.standings import FINAL, MAIN

#: the pages' one stylesheet, print and screen
STYLESHEET = "/static/print.css"
#: a stage's name on a sheet
STAGES = {MAIN: "standings.stage.main", FINAL: "standings.stage.final"}
#: a player's sheet with more rounds than these is set smaller, to stay one page
LONG, LONGER = 16, 30


def _round_words(r: Round) -> Words:
    """"Тур 3", or "Финал, тур 5" for a round of the final."""
    if r.stage == FINAL:
        return Words("print.round.final", round=r.number)
    return Words("print.round", round=r.number)


def _words(language: str) -> Callable[..., str]:
    """A catalog's words in ``language``, escaped for HTML."""
    return lambda key, **params: escape(i18n.t(key, language, **params))


def _page(title: str, sheets: Sequence[str], language: str, back: str) -> str:
    """A whole document: the controls (on screen only) and the sheets."""
    return (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title>"
            f'<link rel="stylesheet" href="{STYLESHEET}"></head><body>'
            f'<nav class="controls"><a href="{escape(back)}">'
            f'{escape(i18n.t("print.back", language))}</a> '
            f'<button type="button" onclick="window.print()">'
            f'{escape(i18n.t("print.print", language))}</button> '
            f'<span>{escape(i18n.t("print.help", language, count=len(sheets)))}</span></nav>'
            + ("".join(sheets) if sheets else
               f'<p class="none">{escape(i18n.t("print.none", language))}</p>')
            + "</body></html>")


def tables_html(tournament: Tournament, rounds: Sequence[Round], language: str) -> str:
    """A sheet per table of each of ``rounds`` (the tournament's own, in order)."""
    t = _words(language)
    sheets = []
    for r in rounds:
        for table in sorted(r.seating, key=natural):
            seats = r.seating[table]
            lines = "".join(f'<tr><td class="seat">{seat}</td>'
                            f'<td class="name">{escape(seats[seat])}</td></tr>'
                            for seat in sorted(seats))
            sheets.append(
                f'<section class="sheet table-sheet" data-round="{r.number}" '
                f'data-table="{escape(table)}">'
                f'<p class="tournament">{escape(tournament.name)}</p>'
                f"<h1>{escape(i18n.render(_round_words(r), language))} · "
                f"{escape(i18n.render(table_words(table, title=True), language))}</h1>"
                f'<table class="seats"><thead><tr><th>{t("print.col.seat")}</th>'
                f"<th>{t('print.col.player')}</th></tr></thead><tbody>{lines}</tbody></table>"
                "</section>")
    return _page(i18n.t("print.tables.title", language, name=tournament.name), sheets,
                 language, "/tournament")


def players_html(tournament: Tournament, language: str) -> str:
    """A sheet per player, in the players' order: each seated round, where they sit."""
    t = _words(language)
    where: dict[str, dict[int, tuple[str, int]]] = {p: {} for p in tournament.players}
    for r in tournament.rounds:
        for table, seats in r.seating.items():
            for seat, player in seats.items():
                where.setdefault(player, {})[r.number] = (table, seat)
    sheets = []
    for player in tournament.players:
        rounds = [r for r in tournament.rounds
                  if r.stage != FINAL or r.number in where[player]]
        lines = []
        for r in rounds:
            found = where[player].get(r.number)
            at = (f"<td>{escape(i18n.render(table_words(found[0], title=True), language))}</td>"
                  f'<td class="seat">{found[1]}</td>' if found else
                  f'<td colspan="2" class="out">{t("print.sits_out")}</td>')
            lines.append(f"<tr><td>{escape(i18n.render(_round_words(r), language))}</td>"
                         f"{at}</tr>")
        size = " longer" if len(lines) > LONGER else " long" if len(lines) > LONG else ""
        sheets.append(
            f'<section class="sheet player-sheet{size}" data-player="{escape(player)}">'
            f'<p class="tournament">{escape(tournament.name)}</p>'
            f"<h1>{escape(player)}</h1>"
            f'<table class="rounds"><thead><tr><th>{t("print.col.round")}</th>'
            f'<th>{t("print.col.table")}</th><th>{t("print.col.seat")}</th></tr></thead>'
            f'<tbody>{"".join(lines)}</tbody></table>'
            f'<p class="stage">{escape(_stages(tournament, language))}</p></section>')
    return _page(i18n.t("print.players.title", language, name=tournament.name), sheets,
                 language, "/tournament")


def _stages(tournament: Tournament, language: str) -> str:
    """A sheet's foot: the stages it holds ("основной этап: туры 1-3")."""
    said = []
    for stage in dict.fromkeys(r.stage for r in tournament.rounds):
        numbers = [r.number for r in tournament.stage(stage)]
        said.append(i18n.t("print.stage", language, stage=Words(STAGES[stage]), rounds=numbers))
    return "; ".join(said)
