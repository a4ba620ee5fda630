// The judge's panel: renders the service's view, sends the judge's taps. No build step.
"use strict";
const $ = (id) => document.getElementById(id);
const ROLES = ["civilian", "sheriff", "mafia", "don"];
let view = null, socket = null, selected = new Set(), retry = 500, clock = null;

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/live`);
  socket.onopen = () => { retry = 500; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") render(message);
    else if (message.type === "refused") say(message.message);
  };
  socket.onclose = () => {
    $("table-status").textContent = "panel offline: reconnecting…";
    $("table-status").className = "status bad";
    setTimeout(() => fetch("/live", { method: "HEAD" }).then((r) => {
      if (r.status === 401) location.href = "/login"; else connect();
    }, connect), retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function act(action, args = {}) {
  if (!view || !socket || socket.readyState !== WebSocket.OPEN) return say("not connected");
  $("message").hidden = true;
  socket.send(JSON.stringify({ action, args, version: view.game.version }));
}

function say(text) { $("message").textContent = text; $("message").hidden = false; }

function seatTile(seat) {
  const tile = document.createElement("div");
  tile.className = "seat";
  tile.dataset.seat = seat;
  tile.innerHTML = `<div class="num">${seat}</div><input class="name" placeholder="name">
    <div class="role"></div><select class="deal" hidden>${ROLES.map((r) =>
      `<option>${r}</option>`).join("")}</select><div class="fouls"></div>`;
  tile.addEventListener("click", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    selected.has(seat) ? selected.delete(seat) : selected.add(seat);
    tile.classList.toggle("selected", selected.has(seat));
  });
  tile.querySelector(".name").addEventListener("change", (e) =>
    act("name", { seat, name: e.target.value }));
  return tile;
}

function render(message) {
  view = message;
  const g = message.game, t = message.table;
  if (!$("seats").children.length) g.seats.forEach((s) => $("seats").appendChild(seatTile(s.seat)));
  const voted = new Set(g.vote && g.vote.proposed ? g.vote.proposed.voters : []);
  const down = new Set(message.down);
  g.seats.forEach((s) => {
    const tile = $("seats").querySelector(`[data-seat="${s.seat}"]`);
    const name = tile.querySelector(".name");
    if (document.activeElement !== name) name.value = s.name;
    name.disabled = g.stage !== "setup";
    const role = tile.querySelector(".role");
    role.textContent = s.role || "";
    role.className = `role ${s.role === "mafia" ? "black" : s.role || ""}`;
    tile.querySelector(".deal").hidden = g.stage !== "setup";
    tile.querySelector(".fouls").textContent = "●".repeat(s.fouls);
    tile.classList.toggle("out", !s.in_game);
    tile.classList.toggle("floor", g.floor === s.seat);
    tile.classList.toggle("nominee", g.nominees.includes(s.seat));
    tile.classList.toggle("voted", voted.has(s.seat));
    tile.classList.toggle("down", down.has(s.seat));
  });
  const stage = { setup: "Setup: names and cards", night0: "Night 0: the mafia meet (4.2.1)",
    day: `Day ${g.day}: speeches`, vote: `Day ${g.day}: the vote`, defence: "Defence speeches",
    question: "Shall they all leave?", last_words: "Last words", night: `Night ${g.night}`,
    over: `Game over: ${g.winner} wins` }[g.stage] || g.stage;
  $("stage").textContent = stage;
  $("stage").dataset.stage = g.stage;
  const up = t.broker && t.status === "online";
  $("table-status").textContent = !t.broker ? "broker offline" :
    t.status !== "online" ? `table ${t.status}` : "table online";
  $("table-status").className = `status ${up ? "good" : "bad"}`;
  $("floor").textContent = g.floor ? `Floor: seat ${g.floor}` +
    (g.speakers.length ? ` · next ${g.speakers.join(", ")}` : "") :
    g.speakers.length ? `Next: ${g.speakers.join(", ")}` : "";
  $("floor").textContent += g.nominees.length ? ` · nominated ${g.nominees.join(", ")}` : "";
  const p = g.vote && g.vote.proposed;
  $("vote").textContent = !g.vote ? "" : p ?
    `Seat ${p.candidate || "all leave?"}: ${p.count} votes (${p.voters.join(", ") || "none"})` :
    `Voting on ${g.vote.candidates.join(", ")}` +
    (g.vote.counts.length ? ` · ${g.vote.counts.map(([c, n]) => `${c}: ${n}`).join(", ")}` : "");
  $("vote").dataset.proposed = p ? `${p.candidate}:${p.count}` : "";
  $("night").textContent = g.stage !== "night" ? "" : (g.night_step ?
    `Step: ${g.night_step}…` : `Next: ${g.night_steps[0] || "morning"}`) +
    (g.killed ? ` · shot: ${g.killed}` : "") +
    g.checks.filter((c) => c.night === g.night).map((c) =>
      ` · ${c.step} ${c.seat}: ${c.answer ? "yes" : "no"}`).join("");
  $("night").dataset.step = g.night_step || "";
  const online = t.consoles.filter(Boolean).length;
  $("health").textContent = (t.consoles.length ? `consoles ${online}/${t.consoles.length}` : "") +
    (t.audio === false ? " · speaker fault" : "");
  const timed = g.floor || (g.stage === "night0" && message.timer && message.timer.seat === null);
  clock = message.timer && timed ? { ...message.timer, at: performance.now() } : null;
  $("clock").hidden = !clock;
  tick();
  $("setup").hidden = g.stage !== "setup";
  $("start").disabled = !g.dealt;
  const voting = g.stage === "vote" || g.stage === "question";
  ["confirm", "reject", "correct"].forEach((id) => { $(id).hidden = !voting; $(id).disabled = !p; });
  $("next").hidden = g.stage === "setup" || g.stage === "over" || voting;
  $("abandon").hidden = g.stage === "setup" || g.stage === "over";
  $("next").textContent = { night0: "Morning", night: g.night_step ? "Step running…" :
    g.night_steps.length ? `Open ${g.night_steps[0].replace("_", " ")}` : "Morning",
    day: g.speakers.length ? `Floor to ${g.speakers[0]}` : "Start the vote",
    defence: g.speakers.length ? `Floor to ${g.speakers[0]}` : "Re-vote",
    last_words: g.speakers.length ? `Last words: ${g.speakers[0]}` : "They leave" }[g.stage] || "Next";
  $("undo").disabled = !g.can_undo;
  $("log").innerHTML = "";
  [...message.log, ...message.notices.map((n) => `⚠ ${n}`)].slice(-40).reverse().forEach((line) => {
    const li = document.createElement("li"); li.textContent = line; $("log").appendChild(li);
  });
  document.body.dataset.version = g.version;
}

function tick() {  // the floor's time left, counted down between the table's timer events
  if (!clock) return;
  const running = clock.running;
  const left = Math.max(0, clock.remaining_ms - (running ? performance.now() - clock.at : 0));
  $("remaining").textContent = `${clock.seat || "night"}: ${Math.ceil(left / 1000)} s` +
    (running ? "" : " (paused)");
}
setInterval(tick, 250);

const picked = () => [...selected].sort((a, b) => a - b);
function each(action) {  // one seat at a time: a second action would name a stale version
  const seats = picked();
  if (seats.length !== 1) return say("select one seat first");
  act(action, { seat: seats[0] });
  clearSelection();
}
function clearSelection() {
  selected.clear();
  document.querySelectorAll(".seat.selected").forEach((t) => t.classList.remove("selected"));
}
$("next").onclick = () => act("next");
$("confirm").onclick = () => act("confirm");
$("reject").onclick = () => act("reject");
$("correct").onclick = () => { act("correct", { voters: picked(), reason: "judge's count" });
  clearSelection(); };
$("foul").onclick = () => each("foul");
$("nominate").onclick = () => each("nominate");
$("withdraw").onclick = () => each("withdraw");
$("undo").onclick = () => act("undo");
["pause", "resume", "add"].forEach((op) => { $(op).onclick = () => act("timer", { op }); });
$("new-game").onclick = () => { if (confirm("End this game and start a new one?")) act("new_game"); };
$("abandon").onclick = () => {  // kept in the games as abandoned, with the reason (docs/record.md)
  const reason = prompt("Abandon this game: why?");
  if (!reason) return;
  fetch("/api/games/current/abandon", { method: "POST", body: JSON.stringify({ reason }),
    headers: { "Content-Type": "application/json" } })
    .then((r) => (r.ok ? null : r.json().then((e) => say(e.error))), () => say("not connected"));
};
$("deal").onclick = () => act("deal", { seed: Number($("seed").value || Date.now() % 1e9) });
$("deal-typed").onclick = () => act("deal", { roles: [...document.querySelectorAll(".seat .deal")]
  .map((s) => s.value) });
$("start").onclick = () => act("start");
connect();
