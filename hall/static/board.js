// The hall board: draws what the server pushes on /live; sends seating actions back. Its words
// are the catalog's (kit/i18n: I18n), in the organiser's language.
// Each board is drawn over the last: a table's row stays (keyed by the table), and only what
// differs is written (`put`); the alerts and the rounds are drawn again only when they changed.
"use strict";

const $ = (id) => document.getElementById(id);
const t = (key, params) => I18n.t(key, params);
// a node's property (textContent, className, a dataset entry...) written only when it differs
const put = (node, key, value) => { if (node[key] !== value) node[key] = value; };
let link = null, last = null, answer = null, live = false;
let shownAlerts = "", shownRounds = "";  // what the alerts and the rounds' menu show now
const COLUMNS = 10;

function cell(row, i, text, cls = "") {  // the row's i-th cell
  const td = row.cells[i];
  put(td, "textContent", text === null || text === undefined ? "—" : String(text));
  put(td, "className", cls);
}

function tableRow(body, id) {  // the row of table ``id``: kept, or made
  let row = document.getElementById(`table-${id}`);
  if (!row) {
    row = body.insertRow();
    row.id = `table-${id}`;
    for (let i = 0; i < COLUMNS; i++) row.insertCell();
  }
  return row;
}

// the table's phase (state.phase): "idle" is the day's speeches once day 1 began, else before it
const PHASES = { day: "board.phase.day", idle: "board.phase.idle", vote: "board.phase.vote",
  night: "board.phase.night" };
const phase = (tb) => (tb.phase === "idle" && tb.day > 0 ? "day" : tb.phase);
const STAGES = { waiting: "board.vote.waiting", open: "board.vote.open",
  proposed: "board.vote.proposed" };
const KINDS = { speech: "board.timer.speech", excuse: "board.timer.excuse",
  last_words: "board.timer.last_words", night: "board.timer.night", other: "board.timer.other" };

// the speaker (contract.api.sound): a simulated table without a sound card, or one whose sound
// is off by its configuration, is no fault and is not shown as one
const SPEAKERS = { ok: "board.speaker.ok", off: "board.speaker.off", silent: "board.speaker.silent",
  fault: "board.speaker.fault" };
const BRIDGES = { up: "board.bridge.up", down: "board.bridge.down", unknown: "board.bridge.unknown" };

function word(map, value) { return value in map ? t(map[value]) : value; }

function voteText(vote) {
  if (!vote) return null;
  const text = t("board.vote", { seat: vote.candidate, stage: word(STAGES, vote.stage) });
  return vote.waiting_s === null ? text :
    `${text} ${t("board.waiting", { seconds: Math.round(vote.waiting_s) })}`;
}

function draw(board) {
  last = board;
  const body = $("tables").tBodies[0];
  const rows = board.tables.map((tb) => {
    const row = tableRow(body, tb.table);
    put(row, "className", tb.online ? "online" : "offline");
    put(row.dataset, "online", String(tb.online));
    cell(row, 0, tb.table);
    const bridge = t(BRIDGES[tb.bridge] || "board.bridge.unknown");
    cell(row, 1, t(tb.online ? "board.online" : "board.offline", { bridge }));
    cell(row, 2, tb.game);
    cell(row, 3, tb.phase === null || tb.phase === undefined ? null : word(PHASES, phase(tb)));
    cell(row, 4, tb.day);
    cell(row, 5, tb.floor ? t(tb.floor.running ? "board.floor" : "board.floor.paused",
      { seat: tb.floor.seat, kind: word(KINDS, tb.floor.kind) }) : null);
    cell(row, 6, voteText(tb.vote));
    cell(row, 7, `${tb.consoles.online}/${tb.consoles.total}`,
         tb.consoles.online < tb.consoles.total ? "fault" : "");
    cell(row, 8, tb.speaker === null ? null : word(SPEAKERS, tb.speaker),
      tb.speaker === "fault" ? "fault" : "");
    cell(row, 9, tb.journal.depth === undefined || tb.journal.depth === null ? null
      : t(tb.journal.over_limit ? "board.journal.over" : "board.journal", { count: tb.journal.depth }),
         tb.journal.over_limit ? "fault" : "");
    return row;
  });
  // a table gone loses its row; the rows are moved only when the tables' order changed
  [...body.rows].filter((row) => !rows.includes(row)).forEach((row) => row.remove());
  if (rows.some((row, i) => body.rows[i] !== row)) body.append(...rows);
  const alerts = JSON.stringify(board.alerts);
  if (alerts !== shownAlerts) {
    shownAlerts = alerts;
    drawAlerts(board.alerts);
  }
  drawSeating(board.seating);
}

function drawAlerts(alerts) {
  const list = $("alert-list");
  list.replaceChildren();
  for (const a of alerts) {
    const li = document.createElement("li");
    li.textContent = I18n.words(a.words);
    li.dataset.kind = a.kind;
    li.dataset.table = a.table;
    list.append(li);
  }
  if (!alerts.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = t("board.alerts.none");
    list.append(li);
  }
}

function drawSeating(seating) {
  const select = $("round");
  if (JSON.stringify(seating.rounds) !== shownRounds) {
    shownRounds = JSON.stringify(seating.rounds);
    const chosen = select.value;
    select.replaceChildren(...seating.rounds.map((r) => new Option(t("board.round", { round: r }), r)));
    if (seating.rounds.map(String).includes(chosen)) select.value = chosen;
  }
  put($("send-round"), "disabled", !seating.rounds.length);
  put($("seating-state"), "textContent", seating.rounds.length
    ? t(seating.sent === null ? "board.seating.none_sent" : "board.seating.sent",
      { tables: seating.tables.join(", "), round: seating.sent === null ? 0 : seating.sent })
    : t("board.seating.none"));
}

function drawLink() {
  put($("link"), "textContent", t(live ? "board.live" : "board.reconnecting"));
  put($("link"), "className", live ? "up" : "down");
}

function redraw() {  // the language changed: every word again
  shownAlerts = shownRounds = "";
  drawLink();
  if (last) draw(last);
  $("answer").textContent = answer ? I18n.words(answer) : "";
}

function heard(message) {
  if (message.type === "board") draw(message);
  else { answer = message.words; $("answer").textContent = I18n.words(answer); }
}

$("seating-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) link.send({action: "load_seating", csv: await file.text()});
});
$("send-round").addEventListener("click", () => {
  link.send({action: "send_round", round: Number($("round").value)});
});
I18n.load().then(() => {
  I18n.translate();
  I18n.switcher($("languages"), redraw);
  drawLink();
  link = Live.connect("/live", {message: heard, change: (up) => { live = up; drawLink(); }});
});
