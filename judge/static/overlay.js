// The stream overlay: renders what the judge's service pushes on /overlay/live. Read-only: it
// sends nothing but the token. Secrets (roles, shots, checks) arrive only when the organiser
// enabled them, and then late (the service holds each back for the stream delay). No build step.
// The token comes after '#' in the page's address (/overlay#token=T): a fragment never leaves
// the browser, so no URL the service or a log sees holds it; it goes as the socket's first
// message instead.
"use strict";
const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const POLICY_VIOLATION = 1008;  // the service's answer to a wrong or missing token
const STAGE = { setup: "Seating", night0: "Night 0", day: "Day %d", vote: "Day %d · vote",
  defence: "Day %d · defence", question: "Day %d · all leave?", last_words: "Last words",
  night: "Night %n", over: "Game over" };
const LEFT = { voted: "voted out", killed: "killed", fouls: "out on fouls" };
let clock = null, retry = 500;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/overlay/live`);
  socket.onopen = () => {
    if (token !== null) socket.send(JSON.stringify({ token }));
  };
  socket.onmessage = (event) => {
    retry = 500;
    $("offline").hidden = true;
    const view = JSON.parse(event.data);
    if (view.type === "overlay") render(view);
  };
  socket.onclose = (event) => {
    $("offline").hidden = false;
    if (event.code === POLICY_VIOLATION) {  // trying again cannot help: the address is wrong
      $("offline").textContent = "the overlay's token is wrong or missing";
      return;
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function seatTile(seat) {
  const tile = document.createElement("div");
  tile.className = "seat";
  tile.dataset.seat = seat;
  tile.innerHTML = '<div class="num"></div><div class="name"></div><div class="fouls"></div>' +
    '<div class="left"></div><div class="fist">✊</div><div class="card"></div>';
  tile.querySelector(".num").textContent = seat;
  return tile;
}

function render(view) {
  if ($("seats").children.length !== view.seats.length) {
    $("seats").textContent = "";
    view.seats.forEach((s) => $("seats").appendChild(seatTile(s.seat)));
  }
  const secrets = view.secrets || null;
  const leaving = new Set(view.leaving ? view.leaving.seats : []);
  view.seats.forEach((s, i) => {
    const tile = $("seats").children[i];
    tile.querySelector(".name").textContent = s.name || `Player ${s.seat}`;
    tile.querySelector(".fouls").textContent = "●".repeat(s.fouls);
    tile.querySelector(".left").textContent = s.left ? LEFT[s.left.how] +
      (s.left.day ? ` · day ${s.left.day}` : s.left.night !== undefined ? ` · night ${s.left.night}` : "") : "";
    tile.classList.toggle("out", !s.in_game);
    tile.classList.toggle("floor", s.floor);
    tile.classList.toggle("nominee", s.nominated);
    tile.classList.toggle("down", s.down);
    tile.classList.toggle("leaving", leaving.has(s.seat));
    const role = secrets && secrets.roles.length ? secrets.roles[i] : "";
    tile.querySelector(".card").textContent = role;
    tile.querySelector(".card").className = "card" +
      (role ? (role === "mafia" || role === "don" ? " black" : " red") : "");
  });
  const stage = (STAGE[view.stage] || view.stage).replace("%d", view.day).replace("%n", view.night);
  $("stage").textContent = view.stage === "over" ? `${stage}: ${view.winner} wins` : stage;
  $("stage").dataset.stage = view.stage;
  $("nominees").hidden = !view.nominees.length;
  $("nominees").textContent = `Nominated: ${view.nominees.join(", ")}`;
  const vote = view.vote;
  $("votes").hidden = !vote;
  if (vote) {
    const counts = vote.counts.map(([c, n]) => `${c || "all"}: ${n}`);
    if (vote.proposed) counts.push(`${vote.proposed.candidate || "all"}: ${vote.proposed.count}…`);
    $("votes").textContent = `Votes ${counts.join(" · ") || "—"}` +
      (vote.fists.length ? ` · hands up ${vote.fists.length}` : "");
  }
  $("votes").dataset.counts = vote ? JSON.stringify(vote.counts) : "";
  renderSecrets(secrets);
  clock = view.timer ? { ...view.timer, at: performance.now() } : null;
  tick();
}

function renderSecrets(secrets) {  // only ever late: the service holds each for the delay
  const lines = !secrets ? [] : [
    ...secrets.shots.map((s) => `Night ${s.night}: shot at ${s.seat}`),
    ...secrets.checks.map((c) => `Night ${c.night}: ${c.by} checks ${c.seat}: ${c.answer}`),
    ...(secrets.best_move.length ? [`Best move: ${secrets.best_move.join(", ")}`] : [])];
  $("secret").hidden = !lines.length;
  $("secret").textContent = "";
  lines.forEach((line) => {
    const li = document.createElement("li"); li.textContent = line; $("secret").appendChild(li);
  });
}

function tick() {  // the floor's time left, counted down between the table's timer events
  $("timer").hidden = !clock;
  if (!clock) return;
  const left = Math.max(0, clock.remaining_ms - (clock.running ? performance.now() - clock.at : 0));
  const s = Math.ceil(left / 1000);
  $("timer").textContent = `${clock.seat ? `Seat ${clock.seat}` : "Meeting"} · ` +
    `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  $("timer").classList.toggle("low", s <= 10);
  $("timer").classList.toggle("paused", !clock.running);
}
setInterval(tick, 200);
connect();
