// The organiser's tournament page: draws the tournament the board pushes on /live (it comes
// with the board's tables) and sends the organiser's actions back (docs/tournament.md). Its
// words are the catalog's (kit/i18n: I18n), in the organiser's language.
"use strict";

const t = (key, params) => I18n.t(key, params);
const count = (key, n) => ({key, params: {count: n}});
// the words of the page's data, each by a literal key (the catalogs' test finds them)
const STAGES = {main: "tournament.stage.main", final: "tournament.stage.final"};
const PHASES = {day: "board.phase.day", idle: "board.phase.idle", vote: "board.phase.vote",
  night: "board.phase.night"};
const word = (map, value) => (value in map ? t(map[value]) : value);

const TEXT = {
  summary: (tour, presets) => t("tournament.summary", {name: tour.name,
    players: count("desk.players", tour.players.length), games: count("desk.games", tour.games),
    tables: count("desk.tables", tour.tables),
    scoring: scoringTitle(presets, tour.scoring)}),
  at: (time) => new Date(time * 1000).toLocaleTimeString(I18n.language),
  liveState: (row) => {  // a table of a round at play: its link, phase and day
    if (!row) return "";
    const phase = row.phase === "idle" && row.day > 0 ? "day" : row.phase;
    return [row.online ? null : t("tournament.offline"), phase ? word(PHASES, phase) : null,
      row.day ? t("tournament.day", {day: row.day}) : null].filter(Boolean).join("\u00a0· ");
  },
};

const $ = (id) => document.getElementById(id);
// a scoring preset's title (its file's, per language) in the organiser's language; its id
// when the board has no such preset
const scoringTitle = (presets, id) => {
  const found = presets.find((p) => p.id === id);
  return found ? I18n.text(found.title) : id;
};
let link = null, last = null, live = false;

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text === null || text === undefined ? "—" : String(text);
  if (cls) td.className = cls;
  return td;
}

function send(message) {
  link.send(message);
}

function drawCreate(view) {
  const select = $("t-scoring");
  if (select.dataset.language !== I18n.language) {  // drawn again in a language switched to
    const chosen = select.dataset.language ? select.value : "fiim";  // FIIM's own at first
    select.dataset.language = I18n.language;
    select.replaceChildren(...view.presets.map((p) => new Option(I18n.text(p.title), p.id)));
    select.value = chosen;
    if (!select.value && view.presets.length) select.value = view.presets[0].id;
  }
  const tour = view.tournament;
  $("create").hidden = !!(tour && tour.id && (view.rounds || []).some((r) => r.sent));
  for (const id of ["summary", "seating", "games-section", "standings-section", "final"]) {
    $(id).hidden = !tour;
  }
  $("title").textContent = tour ? tour.name : t("tournament.title");
  if (tour) $("summary-text").textContent = TEXT.summary(tour, view.presets);
}

function drawRounds(view, tables) {
  const body = $("rounds").tBodies[0];
  body.replaceChildren();
  const here = Object.fromEntries((tables || []).map((row) => [row.table, row]));
  for (const r of view.rounds || []) {
    const row = body.insertRow();
    row.dataset.round = r.number;
    row.dataset.stage = r.stage;
    row.dataset.sent = String(r.sent !== null);
    cell(row, r.number);
    cell(row, word(STAGES, r.stage));
    const where = cell(row, "");
    for (const tb of r.tables) {
      const p = document.createElement("p");
      p.className = tb.done ? "done" : "waiting";
      p.dataset.table = tb.table;
      const state = r.sent === null ? "" : tb.done ? t("tournament.done")
        : [t("tournament.playing"), TEXT.liveState(here[tb.table])].filter(Boolean).join("\u00a0· ");
      p.textContent = `${tb.table}${state ? ` (${state})` : ""}: ${tb.players.join(", ")}`;
      where.append(p);
    }
    cell(row, r.sent === null ? t("tournament.not_sent") : TEXT.at(r.sent));
    const button = document.createElement("button");
    button.className = "send";
    button.dataset.round = r.number;
    button.textContent = t("tournament.send", {round: r.number});
    button.addEventListener("click", () => send({action: "send_tournament_round", round: r.number}));
    row.insertCell().append(button);
  }
}

function drawGames(view) {
  const body = $("games").tBodies[0];
  body.replaceChildren();
  for (const g of view.games || []) {
    const row = body.insertRow();
    row.dataset.game = g.id;
    row.dataset.counted = String(g.counted);
    cell(row, g.id);
    cell(row, g.table);
    cell(row, g.round);
    cell(row, I18n.words(g.result));
    cell(row, g.revision);
    cell(row, [g.counted ? t("tournament.counted") : t("tournament.not_counted", {why: g.why}),
      ...g.warnings.map((w) => I18n.words(w))].join("; "), g.counted ? "" : "fault");
    const history = cell(row, "");
    history.className = "history";
    history.replaceChildren(...g.history.map((e) => {
      const p = document.createElement("p");
      p.textContent = `${e.revision}\u00a0· ${TEXT.at(e.received)}\u00a0· ${I18n.words(e.what)}`;
      return p;
    }));
  }
  $("refused").textContent = view.refused ? t("tournament.refused", {count: view.refused}) : "";
}

function drawStandings(view) {
  const select = $("standings-table");
  const chosen = select.value || "overall";
  const s = view.standings;
  if (!s) return;
  const choices = [new Option(t("tournament.standings.overall"), "overall"),
    ...Object.keys(s.stages).map((k) => new Option(t("tournament.standings.stage",
      {stage: word(STAGES, k)}), k)),
    ...Object.keys(s.rounds).map((n) => new Option(t("board.round", {round: Number(n)}), n))];
  select.replaceChildren(...choices);
  select.value = choices.some((o) => o.value === chosen) ? chosen : "overall";
  const table = select.value === "overall" ? s.overall
    : s.stages[select.value] || s.rounds[select.value];
  $("export-csv").href = `/tournament/standings.csv?table=${encodeURIComponent(select.value)}`;
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  for (const r of table.rows) {
    const row = body.insertRow();
    row.dataset.player = r.player;
    for (const key of ["place", "player", "total", "win", "best_move", "penalty",
      "compensation", "ci", "extra", "games", "wins", "special_role_wins", "first_killed"]) {
      cell(row, typeof r[key] === "number" ? I18n.number(r[key]) : r[key]).dataset.key = key;
    }
  }
}

function draw(board) {
  const view = board.tournament;
  last = board;
  drawCreate(view);
  $("notice").textContent = view.notice ? I18n.words(view.notice) : "";
  document.body.dataset.working = String(!!view.working);
  if (!view.tournament) return;
  drawRounds(view, board.tables);
  drawGames(view);
  drawStandings(view);
}

function drawLink() {
  $("link").textContent = t(live ? "board.live" : "board.reconnecting");
  $("link").className = live ? "up" : "down";
}

function heard(message) {
  if (message.type === "board") draw(message);
  else $("notice").textContent = message.words ? I18n.words(message.words) : message.message;
}

$("create-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send({action: "create_tournament", name: $("t-name").value, players: $("t-players").value,
        games: Number($("t-games").value), tables: Number($("t-tables").value),
        scoring: $("t-scoring").value, restrictions: $("t-restrictions").value});
});
$("generate").addEventListener("click", () => {
  send({action: "generate_seating", seed: Number($("seed").value),
        seconds: Number($("seconds").value)});
});
$("t-seating-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) send({action: "load_tournament_seating", csv: await file.text()});
});
$("standings-table").addEventListener("change", () => { if (last) drawStandings(last.tournament); });
$("seed-final").addEventListener("click", () => {
  send({action: "seed_final", finalists: Number($("finalists").value),
        rounds: Number($("final-rounds").value), table: $("final-table").value,
        seed: Number($("seed").value), seconds: Number($("seconds").value)});
});
I18n.load().then(() => {
  I18n.translate();
  I18n.switcher($("languages"), () => { drawLink(); if (last) draw(last); });
  drawLink();
  link = Live.connect("/live", {message: heard, change: (up) => { live = up; drawLink(); }});
});
