// The public standings page, for the stream: no login; it shows what /standings/live pushes
// (the standings of the games over, docs/tournament.md) and sends nothing back.
// ?table=overall (the default), main, final, or a round's number chooses the table. Its words
// are the catalog's (kit/i18n: I18n) in the reader's language: the `lang` cookie the board's
// switch sets, or #lang=en after the address (a stream's browser source has no switch).
"use strict";

const t = (key, params) => I18n.t(key, params);
const STAGES = {main: "standings.stage.main", final: "standings.stage.final"};
// the places the bar marks: the final's (hall.tournament.seed_final takes the best ten)
const TOP = 10;

const TEXT = {
  progress: (rounds) => {
    const current = rounds.find((r) => r.over < r.tables) || rounds[rounds.length - 1];
    return current ? t("standings.progress", {round: current.number, rounds: rounds.length,
      games: {key: "standings.progress.games", params: {over: current.over,
        count: current.tables}}}) : "";
  },
};

const $ = (id) => document.getElementById(id);
const wanted = new URLSearchParams(location.search).get("table") || "overall";
let last = null;

function pick(standings) {
  if (standings.stages[wanted] && wanted in STAGES) return [t(STAGES[wanted]), standings.stages[wanted]];
  if (standings.rounds[wanted]) return [t("standings.round", {round: Number(wanted)}),
    standings.rounds[wanted]];
  return [t("standings.overall"), standings.overall];
}

function draw(view) {
  last = view;
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  if (!view.standings) {
    $("name").textContent = t("standings.waiting");
    $("progress").textContent = "";
    $("which").textContent = "";
    return;
  }
  $("name").textContent = view.name;
  $("progress").textContent = TEXT.progress(view.rounds);
  const [title, table] = pick(view.standings);
  $("which").textContent = title;
  // the bar marks the final's places once a game is in; on the final's own table, none
  const final = !table.games || wanted === "final"
    || view.rounds.some((r) => String(r.number) === wanted && r.stage === "final");
  for (const r of table.rows) {
    const row = body.insertRow();
    row.dataset.player = r.player;
    // the first ten places (a shared place that starts in them too) are the final's: marked
    if (!final && r.place <= TOP) row.className = "top";
    for (const key of ["place", "player", "total", "games", "wins", "extra", "ci"]) {
      const td = row.insertCell();
      // a place the tie-breaks leave shared reads "3–4"
      td.textContent = key === "place" ? (r.last > r.place ? `${r.place}\u2013${r.last}` : String(r.place))
        : typeof r[key] === "number" ? I18n.number(r[key]) : String(r[key]);
      td.dataset.key = key;
      if (key === "total") td.className = "total";
    }
  }
  // the bar beside the first ten says what it means: the main stage's best ten go to the final
  const marked = !final && table.rows.some((r) => r.place <= TOP);
  $("legend").hidden = !marked;
  $("legend-text").textContent = marked ? t("standings.legend.top", {count: TOP}) : "";
}

I18n.load().then(() => {
  I18n.translate();
  Live.connect("/standings/live", {message: draw});
});
