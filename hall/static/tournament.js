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
// a restriction's kind in the organiser's words («врозь», «не за стол»), whichever they typed
const KINDS = {apart: "tournament.kind.apart", avoid: "tournament.kind.avoid",
  away: "tournament.kind.away", seat: "tournament.kind.seat"};

const TEXT = {
  summary: (tour, presets) => t("tournament.summary", {name: tour.name,
    players: count("desk.players", tour.players.length), games: count("desk.games", tour.games),
    tables: count("desk.tables", tour.tables),
    scoring: scoringTitle(presets, tour.scoring)}),
  at: (time) => new Date(time * 1000).toLocaleTimeString(I18n.language),
  liveState: (row) => {  // a table of a round at play: off, not started, or its phase and day
    if (!row) return t("tournament.playing");
    if (!row.online) return t("tournament.offline");
    if (row.phase === "idle" && !row.day) return t("tournament.not_started");
    // the day's speeches are the day itself: "идёт игра · день 2", else the phase before it
    const phase = row.phase === "idle" || row.phase === "day" ? null : row.phase;
    return [t("tournament.playing"), phase ? word(PHASES, phase) : null,
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
// whether a preset is the rating platform's scoring exactly (its file's `platform`), said so
const scoringNote = (presets, id) => {
  const found = presets.find((p) => p.id === id);
  if (!found) return "";
  return found.platform ? t("tournament.scoring.platform") : t("tournament.scoring.ours");
};
// a place shared by players the tie-breaks leave equal: "3–4"
const placeText = (row) => (row.last > row.place ? `${row.place}\u2013${row.last}` : String(row.place));
let link = null, last = null, live = false, asked = null;

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
    // the platform's own scoring at first: the standings go to mafiaratings
    const chosen = select.dataset.language ? select.value : view.default_scoring;
    select.dataset.language = I18n.language;
    select.replaceChildren(...view.presets.map((p) => new Option(I18n.text(p.title), p.id)));
    select.value = chosen;
    if (!select.value && view.presets.length) select.value = view.presets[0].id;
  }
  $("t-scoring-note").textContent = scoringNote(view.presets, select.value);
  const tour = view.tournament;
  const started = !!(tour && (view.rounds || []).some((r) => r.sent));
  $("create").hidden = started;
  for (const id of ["summary", "seating", "games-section", "standings-section", "final"]) {
    $(id).hidden = !tour;
  }
  $("title").textContent = tour ? tour.name : t("tournament.title");
  if (tour) drawSummary(tour, view);
  drawReplaced(view.replaced || [], started);
}

// the tournament in a line, its restrictions as the organiser typed them, who withdrew (and
// who plays for them); the withdrawal form offers the players still playing
function drawSummary(tour, view) {
  $("summary-text").textContent = TEXT.summary(tour, view.presets);
  const rules = (view.restrictions || []).map((r) => (r.kind ? `${word(KINDS, r.kind)},${r.rest}`
    : r.rest).trim());
  $("summary-restrictions").hidden = !rules.length;
  $("summary-restrictions").textContent = t("tournament.summary.restrictions",
    {lines: rules.join("; ")});
  const gone = tour.withdrawals || [];
  $("summary-withdrawals").hidden = !gone.length;
  $("summary-withdrawals").textContent = t("tournament.summary.withdrawals", {list: gone.map(
    (w) => (w.substitute ? t("tournament.summary.substitute", w)
      : t("tournament.summary.withdrawn", w))).join("; ")});
  const out = new Set(gone.map((w) => w.player));
  $("w-players").replaceChildren(...tour.players.filter((p) => !out.has(p))
    .map((p) => new Option(p)));
  const next = (view.rounds || []).find((r) => r.stage === "main" && r.sent === null);
  if (next && !$("w-round").dataset.touched) $("w-round").value = next.number;
}

// the tournaments a new one replaced, kept: each can come back while this one has not started
function drawReplaced(kept, started) {
  $("replaced").hidden = !kept.length || started;
  $("replaced-list").replaceChildren(...kept.map((old) => {
    const li = document.createElement("li");
    li.append(t("tournament.replaced.one", {name: old.name,
      players: count("desk.players", old.players),
      seated: old.rounds ? t("desk.replace.seated", {rounds: Array.from({length: old.rounds},
        (_, k) => k + 1)}) : t("desk.replace.unseated"), at: TEXT.at(old.replaced)}), " ");
    const button = document.createElement("button");
    button.className = "bring-back";
    button.textContent = t("tournament.replaced.back");
    button.addEventListener("click", () => send({action: "bring_back_tournament", n: old.n}));
    li.append(button);
    return li;
  }));
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
        : TEXT.liveState(here[tb.table]);
      const name = document.createElement("b");
      name.textContent = `${Seats.table(tb.table)}${state ? ` (${state})` : ""}: `;
      p.append(name, ...Seats.list(tb.seats, tb.players));
      where.append(p);
    }
    // a round at the tables says when it went; one not yet offers to send it
    const sent = cell(row, r.sent === null ? "" : t("tournament.sent_at", {time: TEXT.at(r.sent)}));
    if (r.sent === null) {
      const button = document.createElement("button");
      button.className = "send";
      button.dataset.round = r.number;
      button.textContent = t("tournament.send", {round: r.number});
      button.addEventListener("click", () => send({action: "send_tournament_round", round: r.number}));
      sent.replaceChildren(button);
    }
  }
}

function drawGames(view) {
  const body = $("games").tBodies[0];
  body.replaceChildren();
  for (const g of view.games || []) {
    const row = body.insertRow();
    row.dataset.game = g.id;
    row.dataset.counted = String(g.counted);
    cell(row, Seats.table(g.table));
    cell(row, g.round);
    cell(row, I18n.words(g.result));
    cell(row, [g.counted ? t("tournament.counted") : t("tournament.not_counted", {why: g.why}),
      ...g.warnings.map((w) => I18n.words(w))].join("; "), g.counted ? "" : "fault");
    const history = cell(row, "");
    history.className = "history";
    history.replaceChildren(...g.history.map((e) => {
      const p = document.createElement("p");
      p.textContent = `${TEXT.at(e.received)}\u00a0· ${I18n.words(e.what)}`;
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
  $("export-xlsx").href = `/tournament/standings.xlsx?table=${encodeURIComponent(select.value)}`;
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  for (const r of table.rows) {
    const row = body.insertRow();
    row.dataset.player = r.player;
    cell(row, placeText(r)).dataset.key = "place";
    for (const key of ["player", "total", "win", "best_move", "penalty",
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
  $("scoring-note").textContent = t("tournament.standings.how", {
    scoring: scoringTitle(view.presets, view.tournament.scoring),
    note: scoringNote(view.presets, view.tournament.scoring)});
}

function drawLink() {
  $("link").textContent = t(live ? "board.live" : "board.reconnecting");
  $("link").className = live ? "up" : "down";
}

function heard(message) {
  if (message.type === "board") draw(message);
  else if (message.type === "confirm") ask(message);
  else {
    $("confirm").hidden = true;
    $("notice").textContent = message.words ? I18n.words(message.words) : message.message;
  }
}

// a question before anything changes (a new tournament over one being prepared): the same
// action again, naming what it replaces, only if the organiser says so
function ask(message) {
  asked = message;
  $("confirm-text").textContent = I18n.words(message.words);
  $("confirm").hidden = false;
  $("confirm-yes").focus();
}

function creation() {
  return {action: "create_tournament", name: $("t-name").value, players: $("t-players").value,
          games: Number($("t-games").value), tables: Number($("t-tables").value),
          scoring: $("t-scoring").value, restrictions: $("t-restrictions").value,
          same_yo: $("t-same-yo").checked};
}

$("create-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send(creation());
});
$("confirm-yes").addEventListener("click", () => {
  $("confirm").hidden = true;
  if (asked) send({...creation(), replace: asked.replace});
  asked = null;
});
$("confirm-no").addEventListener("click", () => {
  $("confirm").hidden = true;
  asked = null;
  $("notice").textContent = t("tournament.confirm.kept");
});
$("t-scoring").addEventListener("change", () => {
  if (last) $("t-scoring-note").textContent = scoringNote(last.tournament.presets, $("t-scoring").value);
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
        rounds: Number($("final-rounds").value), table: `table-${Number($("final-table").value)}`,
        seats: $("final-seats").value,
        seed: Number($("seed").value), seconds: Number($("seconds").value)});
});
$("w-round").addEventListener("input", () => { $("w-round").dataset.touched = "1"; });
$("withdraw-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send({action: "withdraw_player", player: $("w-player").value,
        from_round: Number($("w-round").value), substitute: $("w-substitute").value || null,
        seed: Number($("seed").value), seconds: Number($("seconds").value)});
});
I18n.load().then(() => {
  I18n.translate();
  I18n.switcher($("languages"), () => { drawLink(); if (last) draw(last); });
  drawLink();
  link = Live.connect("/live", {message: heard, change: (up) => { live = up; drawLink(); }});
});
