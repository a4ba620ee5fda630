// The organiser's tournament page: draws the tournament the board pushes on /live (it comes
// with the board's tables) and sends the organiser's actions back (docs/tournament.md).
"use strict";

// every word this script writes, in one place (English for now: a catalog will take over)
const TEXT = {
  live: "live",
  connecting: "reconnecting…",
  summary: (t) => `${t.name}: ${t.players.length} players, ${t.games} games each in the main ` +
    `stage, ${t.tables} tables a round, scoring ${t.scoring}`,
  stage: {main: "main", final: "final"},
  send: (n) => `Send round ${n} to its tables`,
  notSent: "not yet",
  done: "game in",
  waiting: "playing",
  counted: "counted",
  notCounted: (why) => `not counted: ${why}`,
  result: (g) => g.status === null ? "withdrawn" : g.winner ? `${g.status}, ${g.winner} won` : g.status,
  refused: (n) => n ? `${n} messages on the games' topics were refused (see the board's log)` : "",
  overall: "overall",
  stageTable: (s) => `${s} stage`,
  roundTable: (n) => `round ${n}`,
  at: (t) => new Date(t * 1000).toLocaleTimeString(),
  live_state: (row) => row ? `${row.online ? "" : "offline · "}${row.phase || "—"}${row.day ? " day " + row.day : ""}` : "",
};

const $ = (id) => document.getElementById(id);
let socket = null;
let last = null;

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text === null || text === undefined ? "—" : String(text);
  if (cls) td.className = cls;
  return td;
}

function send(message) {
  socket.send(JSON.stringify(message));
}

function drawCreate(view) {
  const select = $("t-scoring");
  if (!select.options.length) {
    select.replaceChildren(...view.presets.map((p) => new Option(p.name, p.id)));
  }
  const t = view.tournament;
  $("create").hidden = !!(t && t.id && (view.rounds || []).some((r) => r.sent));
  for (const id of ["summary", "seating", "games-section", "standings-section", "final"]) {
    $(id).hidden = !t;
  }
  if (t) {
    $("title").textContent = t.name;
    $("summary-text").textContent = TEXT.summary(t);
  }
}

function drawRounds(view, tables) {
  const body = $("rounds").tBodies[0];
  body.replaceChildren();
  const live = Object.fromEntries((tables || []).map((row) => [row.table, row]));
  for (const r of view.rounds || []) {
    const row = body.insertRow();
    row.dataset.round = r.number;
    row.dataset.stage = r.stage;
    row.dataset.sent = String(r.sent !== null);
    cell(row, r.number);
    cell(row, TEXT.stage[r.stage]);
    const where = cell(row, "");
    for (const t of r.tables) {
      const p = document.createElement("p");
      p.className = t.done ? "done" : "waiting";
      p.dataset.table = t.table;
      p.textContent = `${t.table} (${r.sent === null ? "" : t.done ? TEXT.done : TEXT.waiting + " " + TEXT.live_state(live[t.table])}): ${t.players.join(", ")}`;
      where.append(p);
    }
    cell(row, r.sent === null ? TEXT.notSent : TEXT.at(r.sent));
    const button = document.createElement("button");
    button.className = "send";
    button.dataset.round = r.number;
    button.textContent = TEXT.send(r.number);
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
    cell(row, TEXT.result(g));
    cell(row, g.revision);
    cell(row, [g.counted ? TEXT.counted : TEXT.notCounted(g.why), ...g.warnings].join("; "),
         g.counted ? "" : "fault");
    const history = cell(row, "");
    history.className = "history";
    history.replaceChildren(...g.history.map((e) => {
      const p = document.createElement("p");
      p.textContent = `${e.revision} · ${TEXT.at(e.received)} · ${e.what}`;
      return p;
    }));
  }
  $("refused").textContent = TEXT.refused(view.refused);
}

function drawStandings(view) {
  const select = $("standings-table");
  const chosen = select.value || "overall";
  const s = view.standings;
  if (!s) return;
  const choices = [new Option(TEXT.overall, "overall"),
    ...Object.keys(s.stages).map((k) => new Option(TEXT.stageTable(TEXT.stage[k] || k), k)),
    ...Object.keys(s.rounds).map((n) => new Option(TEXT.roundTable(n), n))];
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
      cell(row, r[key]).dataset.key = key;
    }
  }
}

function draw(board) {
  const view = board.tournament;
  last = board;
  drawCreate(view);
  $("notice").textContent = view.notice || "";
  document.body.dataset.working = String(!!view.working);
  if (!view.tournament) return;
  drawRounds(view, board.tables);
  drawGames(view);
  drawStandings(view);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/live`);
  socket.onopen = () => { $("link").textContent = TEXT.live; $("link").className = "up"; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "board") draw(message);
    else $("notice").textContent = message.message;
  };
  socket.onclose = () => {
    $("link").textContent = TEXT.connecting;
    $("link").className = "down";
    setTimeout(connect, 1000);
  };
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
connect();
