// The hall board: draws what the server pushes on /live; sends seating actions back. Its words
// are the catalog's (kit/i18n: I18n), in the organiser's language.
"use strict";

const $ = (id) => document.getElementById(id);
const t = (key, params) => I18n.t(key, params);
let socket = null, last = null, answer = null, live = false;

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text === null || text === undefined ? "—" : String(text);
  if (cls) td.className = cls;
}

const PHASES = { day: "board.phase.day", night: "board.phase.night" };
const STAGES = { waiting: "board.vote.waiting", open: "board.vote.open",
  proposed: "board.vote.proposed" };
const KINDS = { speech: "board.timer.speech", excuse: "board.timer.excuse",
  last_words: "board.timer.last_words", night: "board.timer.night", other: "board.timer.other" };

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
  body.replaceChildren();
  for (const tb of board.tables) {
    const row = body.insertRow();
    row.id = `table-${tb.table}`;
    row.className = tb.online ? "online" : "offline";
    row.dataset.online = String(tb.online);
    cell(row, tb.table);
    const bridge = t(BRIDGES[tb.bridge] || "board.bridge.unknown");
    cell(row, t(tb.online ? "board.online" : "board.offline", { bridge }));
    cell(row, tb.game);
    cell(row, tb.phase === null || tb.phase === undefined ? null : word(PHASES, tb.phase));
    cell(row, tb.day);
    cell(row, tb.floor ? t(tb.floor.running ? "board.floor" : "board.floor.paused",
      { seat: tb.floor.seat, kind: word(KINDS, tb.floor.kind) }) : null);
    cell(row, voteText(tb.vote));
    cell(row, `${tb.consoles.online}/${tb.consoles.total}`,
         tb.consoles.online < tb.consoles.total ? "fault" : "");
    cell(row, tb.speaker === null ? null : t(tb.speaker === "ok" ? "board.speaker.ok" : "board.speaker.fault"),
         tb.speaker === "fault" ? "fault" : "");
    cell(row, tb.journal.depth === undefined || tb.journal.depth === null ? null
      : t(tb.journal.over_limit ? "board.journal.over" : "board.journal", { count: tb.journal.depth }),
         tb.journal.over_limit ? "fault" : "");
  }
  const list = $("alert-list");
  list.replaceChildren();
  for (const a of board.alerts) {
    const li = document.createElement("li");
    li.textContent = I18n.words(a.words);
    li.dataset.kind = a.kind;
    li.dataset.table = a.table;
    list.append(li);
  }
  if (!board.alerts.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = t("board.alerts.none");
    list.append(li);
  }
  const seating = board.seating;
  const select = $("round");
  const chosen = select.value;
  select.replaceChildren(...seating.rounds.map((r) => new Option(t("board.round", { round: r }), r)));
  if (seating.rounds.map(String).includes(chosen)) select.value = chosen;
  $("send-round").disabled = !seating.rounds.length;
  $("seating-state").textContent = seating.rounds.length
    ? t(seating.sent === null ? "board.seating.none_sent" : "board.seating.sent",
      { tables: seating.tables.join(", "), round: seating.sent === null ? 0 : seating.sent })
    : t("board.seating.none");
}

function drawLink() {
  $("link").textContent = t(live ? "board.live" : "board.reconnecting");
  $("link").className = live ? "up" : "down";
}

function redraw() {
  drawLink();
  if (last) draw(last);
  $("answer").textContent = answer ? I18n.words(answer) : "";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/live`);
  socket.onopen = () => { live = true; drawLink(); };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "board") draw(message);
    else { answer = message.words; $("answer").textContent = I18n.words(answer); }
  };
  socket.onclose = () => {
    live = false;
    drawLink();
    setTimeout(connect, 1000);
  };
}

$("seating-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) socket.send(JSON.stringify({action: "load_seating", csv: await file.text()}));
});
$("send-round").addEventListener("click", () => {
  socket.send(JSON.stringify({action: "send_round", round: Number($("round").value)}));
});
I18n.load().then(() => {
  I18n.translate();
  I18n.switcher($("languages"), redraw);
  drawLink();
  connect();
});
