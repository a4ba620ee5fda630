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

function word(map, value) { return value in map ? t(map[value]) : value; }

// the link as the organiser needs it: playing and reachable, cut from the hall, or off
function linkText(tb) {
  if (tb.online) return t("board.link.up");
  return t(tb.bridge === "down" ? "board.link.hall" : "board.link.off");
}

// what the table's journal holds for the hall: nothing, some events on their way, or too many
function journalText(journal) {
  if (journal.depth === undefined || journal.depth === null) return null;
  if (journal.over_limit) return t("board.journal.over", { count: journal.depth });
  return journal.depth ? t("board.journal", { count: journal.depth }) : t("board.journal.none");
}

// the tournament's round a table plays now: the latest sent round that seats it
function roundAt(tournament, table) {
  const rounds = (tournament && tournament.rounds) || [];
  const sent = rounds.filter((r) => r.sent !== null && r.tables.some((tb) => tb.table === table));
  return sent.length ? t("board.round", { round: sent[sent.length - 1].number }) : null;
}

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
    cell(row, 0, Seats.table(tb.table));
    cell(row, 1, linkText(tb), tb.online ? "" : "fault");
    cell(row, 2, roundAt(board.tournament, tb.table));
    cell(row, 3, tb.phase === null || tb.phase === undefined ? null : word(PHASES, phase(tb)));
    cell(row, 4, tb.day);
    cell(row, 5, tb.floor ? t(tb.floor.running ? "board.floor" : "board.floor.paused",
      { seat: tb.floor.seat, kind: word(KINDS, tb.floor.kind) }) : null);
    cell(row, 6, voteText(tb.vote));
    cell(row, 7, `${tb.consoles.online}/${tb.consoles.total}`,
         tb.consoles.online < tb.consoles.total ? "fault" : "");
    cell(row, 8, tb.speaker === null ? null : word(SPEAKERS, tb.speaker),
      tb.speaker === "fault" ? "fault" : "");
    cell(row, 9, journalText(tb.journal), tb.journal.over_limit ? "fault" : "");
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
  drawSeating(board.seating, board.tournament);
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

// the seating: a tournament's is the tournament page's (its state here, and a link); without a
// tournament, a seating file loaded here, its rounds sent from here, each table's seats shown
function drawSeating(seating, tournament) {
  const tour = tournament && tournament.tournament;
  $("tournament-seating").hidden = !tour;
  $("own-seating").hidden = !!tour;
  if (tour) {
    const rounds = tournament.rounds || [];
    const sent = rounds.filter((r) => r.sent !== null).map((r) => r.number);
    put($("tournament-state"), "textContent", t("board.seating.tournament", { name: tour.name,
      rounds: rounds.length ? rounds.map((r) => r.number) : t("board.seating.unseated"),
      sent: sent.length ? t("board.seating.sent_rounds", { rounds: sent })
        : t("board.seating.nothing_sent") }));
    return;
  }
  const select = $("round");
  if (JSON.stringify(seating.rounds) !== shownRounds) {
    shownRounds = JSON.stringify(seating.rounds);
    const chosen = select.value;
    select.replaceChildren(...seating.rounds.map((r) => new Option(t("board.round", { round: r }), r)));
    if (seating.rounds.map(String).includes(chosen)) select.value = chosen;
  }
  const chosen = Number(select.value);
  const already = seating.sent !== null && chosen === seating.sent;
  put($("send-round"), "disabled", !seating.rounds.length || already);
  put($("send-round"), "textContent", already ? t("board.sent_already", { round: chosen })
    : t("board.send"));
  put($("seating-state"), "textContent", seating.rounds.length
    ? t(seating.sent === null ? "board.seating.none_sent" : "board.seating.sent",
      { tables: seating.tables.map((id) => Seats.table(id, false)), round: seating.sent === null ? 0 : seating.sent })
    : t("board.seating.none"));
  drawSeats(seating.seats && seating.seats[chosen]);
}

// one round of the loaded seating: each table, each seat's number beside its player
function drawSeats(tables) {
  const box = $("seated");
  const text = JSON.stringify(tables || null) + I18n.language;
  if (box.dataset.shown === text) return;
  box.dataset.shown = text;
  box.replaceChildren(...Object.keys(tables || {}).sort(Seats.naturally).map((id) => {
    const p = document.createElement("p");
    p.dataset.table = id;
    const name = document.createElement("b");
    name.textContent = `${Seats.table(id)}: `;
    const seats = Object.keys(tables[id]).map(Number).sort((a, b) => a - b);
    p.append(name, ...Seats.list(seats, seats.map((s) => tables[id][s])));
    return p;
  }));
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
$("round").addEventListener("change", () => { if (last) drawSeating(last.seating, last.tournament); });
$("send-round").addEventListener("click", () => {
  link.send({action: "send_round", round: Number($("round").value)});
});
I18n.load().then(() => {
  I18n.translate();
  I18n.switcher($("languages"), redraw);
  drawLink();
  link = Live.connect("/live", {message: heard, change: (up) => { live = up; drawLink(); }});
});
