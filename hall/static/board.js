// The hall board: draws what the server pushes on /live; sends seating actions back.
"use strict";

const $ = (id) => document.getElementById(id);
let socket = null;

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text === null || text === undefined ? "—" : String(text);
  if (cls) td.className = cls;
}

function voteText(vote) {
  if (!vote) return null;
  let text = `${vote.kind} #${vote.candidate} ${vote.stage}`;
  if (vote.waiting_s !== null) text += ` (${Math.round(vote.waiting_s)} s)`;
  return text;
}

function draw(board) {
  const body = $("tables").tBodies[0];
  body.replaceChildren();
  for (const t of board.tables) {
    const row = body.insertRow();
    row.id = `table-${t.table}`;
    row.className = t.online ? "online" : "offline";
    row.dataset.online = String(t.online);
    cell(row, t.table);
    cell(row, t.online ? `online (bridge ${t.bridge})` : `offline (bridge ${t.bridge})`);
    cell(row, t.game);
    cell(row, t.phase);
    cell(row, t.day);
    cell(row, t.floor ? `seat ${t.floor.seat} ${t.floor.kind}${t.floor.running ? "" : " paused"}` : null);
    cell(row, voteText(t.vote));
    cell(row, `${t.consoles.online}/${t.consoles.total}`,
         t.consoles.online < t.consoles.total ? "fault" : "");
    cell(row, t.speaker, t.speaker === "fault" ? "fault" : "");
    cell(row, t.journal.depth === undefined ? null
      : `${t.journal.depth} waiting${t.journal.over_limit ? " (over limit)" : ""}`,
         t.journal.over_limit ? "fault" : "");
  }
  const list = $("alert-list");
  list.replaceChildren();
  for (const a of board.alerts) {
    const li = document.createElement("li");
    li.textContent = a.text;
    li.dataset.kind = a.kind;
    li.dataset.table = a.table;
    list.append(li);
  }
  if (!board.alerts.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "nothing needs a person";
    list.append(li);
  }
  const seating = board.seating;
  const select = $("round");
  const chosen = select.value;
  select.replaceChildren(...seating.rounds.map((r) => new Option(`round ${r}`, r)));
  if (seating.rounds.map(String).includes(chosen)) select.value = chosen;
  $("send-round").disabled = !seating.rounds.length;
  $("seating-state").textContent = seating.rounds.length
    ? `tables in the seating: ${seating.tables.join(", ")}; sent: ${seating.sent === null ? "none yet" : "round " + seating.sent}`
    : "no seating loaded";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/live`);
  socket.onopen = () => { $("link").textContent = "live"; $("link").className = "up"; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "board") draw(message);
    else $("answer").textContent = message.message;
  };
  socket.onclose = () => {
    $("link").textContent = "reconnecting…";
    $("link").className = "down";
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
connect();
