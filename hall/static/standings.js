// The public standings page, for the stream: no login; it shows what /standings/live pushes
// (the standings of the games over, docs/tournament.md) and sends nothing back.
// ?table=overall (the default), main, final, or a round's number chooses the table.
"use strict";

// every word this script writes, in one place (English for now: a catalog will take over)
const TEXT = {
  waiting: "the tournament has not begun",
  overall: "Overall",
  stage: {main: "Main stage", final: "Final"},
  round: (n) => `Round ${n}`,
  progress: (rounds) => {
    const current = rounds.find((r) => r.over < r.tables) || rounds[rounds.length - 1];
    return current ? `round ${current.number} of ${rounds.length}: ` +
      `${current.over} of ${current.tables} games over` : "";
  },
};

const $ = (id) => document.getElementById(id);
const wanted = new URLSearchParams(location.search).get("table") || "overall";

function pick(standings) {
  if (wanted === "overall") return [TEXT.overall, standings.overall];
  if (standings.stages[wanted]) return [TEXT.stage[wanted] || wanted, standings.stages[wanted]];
  if (standings.rounds[wanted]) return [TEXT.round(wanted), standings.rounds[wanted]];
  return [TEXT.overall, standings.overall];
}

function draw(view) {
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  if (!view.standings) {
    $("name").textContent = TEXT.waiting;
    return;
  }
  $("name").textContent = view.name;
  $("progress").textContent = TEXT.progress(view.rounds);
  const [title, table] = pick(view.standings);
  $("which").textContent = title;
  for (const r of table.rows) {
    const row = body.insertRow();
    row.dataset.player = r.player;
    for (const key of ["place", "player", "total", "games", "wins", "extra", "ci"]) {
      const td = row.insertCell();
      td.textContent = String(r[key]);
      td.dataset.key = key;
      if (key === "total") td.className = "total";
    }
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/standings/live`);
  socket.onmessage = (event) => draw(JSON.parse(event.data));
  socket.onclose = () => setTimeout(connect, 1000);
}
connect();
