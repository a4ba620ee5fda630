// The judge's panel: renders the service's view, sends the judge's taps. No build step.
//
// It knows no rule book: what the judge may do now comes in the view as offers
// (view.game.offers, docs/judge-api.md), each rendered as a button whose id is the offer's
// key; a tap gathers the offer's params (the selected seats, a number, the cards typed on the
// seats, a choice) and sends the offer's action. The game's state (stage, seats, the floor,
// the vote, the night) is drawn as it is.
"use strict";
const $ = (id) => document.getElementById(id);
let view = null, socket = null, selected = new Set(), retry = 500, clock = null;
let rolesHidden = null;  // null until the first view says the panel's default

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
    <div class="role"></div><select class="deal" hidden></select><div class="fouls"></div>`;
  tile.addEventListener("click", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    selected.has(seat) ? selected.delete(seat) : selected.add(seat);
    tile.classList.toggle("selected", selected.has(seat));
  });
  tile.querySelector(".name").addEventListener("change", (e) =>
    act("name", { seat, name: e.target.value }));
  return tile;
}

function dealOptions(g) {  // the cards of the book, for a deal typed seat by seat
  const key = g.book.roles.map((r) => r.role).join(",");
  document.querySelectorAll(".seat .deal").forEach((select) => {
    if (select.dataset.book === key) return;
    select.dataset.book = key;
    select.innerHTML = g.book.roles.map((r) => `<option value="${r.role}">${r.role}</option>`)
      .join("");
    const plain = g.book.roles.find((r) => r.role === "civilian") || g.book.roles.at(-1);
    select.value = plain.role;
  });
}

function render(message) {
  view = message;
  const g = message.game, t = message.table;
  if (rolesHidden === null) rolesHidden = message.panel.hide_roles;
  document.body.classList.toggle("roles-hidden", rolesHidden);
  $("hide-roles").textContent = rolesHidden ? "Show roles" : "Hide roles";
  if ($("seats").children.length !== g.seats.length) {
    $("seats").textContent = "";
    g.seats.forEach((s) => $("seats").appendChild(seatTile(s.seat)));
  }
  dealOptions(g);
  const voted = new Set(g.vote && g.vote.proposed ? g.vote.proposed.voters : []);
  const down = new Set(message.down);
  g.seats.forEach((s) => {
    const tile = $("seats").querySelector(`[data-seat="${s.seat}"]`);
    const name = tile.querySelector(".name");
    if (document.activeElement !== name) name.value = s.name;
    name.disabled = g.stage !== "setup";
    const role = tile.querySelector(".role");
    role.textContent = (s.role || "") + (s.card ? " (shown)" : "");
    role.className = `role ${s.role || ""} ${s.team ? `team-${s.team}` : ""}`;
    tile.querySelector(".deal").hidden = g.stage !== "setup";
    tile.querySelector(".fouls").textContent = "●".repeat(s.fouls);
    tile.classList.toggle("out", !s.in_game);
    tile.classList.toggle("floor", g.floor === s.seat);
    tile.classList.toggle("nominee", g.nominees.includes(s.seat));
    tile.classList.toggle("voted", voted.has(s.seat));
    tile.classList.toggle("down", down.has(s.seat));
  });
  const stage = { setup: "Setup: names and cards", night0: "Night 0: the first night",
    day: `Day ${g.day}: speeches`, vote: `Day ${g.day}: the vote`, defence: "Defence speeches",
    question: "Shall they all leave?", last_words: "Last words", night: `Night ${g.night}`,
    over: `Game over: ${g.winner === "draw" ? "a draw" : `${g.winner} wins`}` }[g.stage] || g.stage;
  $("stage").textContent = stage;
  $("stage").dataset.stage = g.stage;
  $("book").textContent = g.book.name;
  const up = t.broker && t.status === "online";
  $("table-status").textContent = !t.broker ? "broker offline" :
    t.status !== "online" ? `table ${t.status}` : "table online";
  $("table-status").className = `status ${up ? "good" : "bad"}`;
  const floor = [g.floor ? `Floor: seat ${g.floor}` : "",
    g.speakers.length ? `${g.floor ? "next" : "Next"}: ${g.speakers.join(", ")}` : "",
    g.nominees.length ? `nominated ${g.nominees.join(", ")}` : ""].filter(Boolean);
  $("floor").textContent = floor.join(" · ");
  const p = g.vote && g.vote.proposed;
  $("vote").textContent = !g.vote ? "" : p ?
    `${p.candidate ? `Seat ${p.candidate}` : "All leave?"}: ${p.count} votes (${p.voters.join(", ") || "none"})` :
    `Voting on ${g.vote.candidates.join(", ")}` +
    (g.vote.counts.length ? ` · ${g.vote.counts.map(([c, n]) => `${c}: ${n}`).join(", ")}` : "");
  $("vote").dataset.proposed = p ? `${p.candidate}:${p.count}` : "";
  const night = g.stage === "night" || g.stage === "night0";
  $("night").textContent = !night ? "" : (g.night_step ? `Step: ${g.night_step}…` :
    `Next: ${g.night_steps[0] || "morning"}`) + g.tonight.map((a) => ` · ${a}`).join("") +
    (g.night_input === "count" ? " · count mode" : "");
  $("night").dataset.step = g.night_step || "";
  const online = t.consoles.filter(Boolean).length;
  $("health").textContent = (t.consoles.length ? `consoles ${online}/${t.consoles.length}` : "") +
    (t.audio === false ? " · speaker fault" : "");
  const timed = g.floor || (g.stage === "night0" && message.timer && message.timer.seat === null);
  clock = message.timer && timed ? { ...message.timer, at: performance.now() } : null;
  $("clock").hidden = !clock;
  tick();
  renderOffers(g.offers, g);
  $("setup").hidden = g.stage !== "setup";
  $("abandon").hidden = g.stage === "setup" || g.stage === "over";
  $("log").innerHTML = "";
  [...message.log, ...message.notices.map((n) => `⚠ ${n}`)].slice(-40).reverse().forEach((line) => {
    const li = document.createElement("li"); li.textContent = line; $("log").appendChild(li);
  });
  document.body.dataset.version = g.version;
}

// ------------------------------------------------------------------ offers

const GROUPS = { setup: "setup", clock: "clock-offers", game: "actions", vote: "actions",
  night: "actions", seat: "actions", panel: "actions" };

function renderOffers(offers, g) {
  const shown = new Set();
  offers.forEach((offer) => {
    if (offer.key === "name") return;  // the seats' name fields
    shown.add(offer.key);
    let button = $(offer.key);
    if (!button) {
      button = document.createElement("button");
      button.id = offer.key;
      button.className = "big";
      button.onclick = () => tap(button.offer);
      (offer.params || []).filter((p) => ["number", "choice", "choices"].includes(p.kind))
        .forEach((p) => $(GROUPS[offer.group || "game"]).appendChild(paramInput(offer, p)));
    }
    // in the order offered: the inputs of its params, then the button
    const box = $(GROUPS[offer.group || "game"]);
    (offer.params || []).forEach((p) => {
      const input = $(`${offer.key}-${p.name}`);
      if (input) box.appendChild(input);
    });
    box.appendChild(button);
    button.offer = offer;
    button.textContent = offer.label;
    button.disabled = offer.enabled === false;
    button.classList.toggle("primary", !!offer.primary);
    button.hidden = false;
    (offer.params || []).forEach((p) => {
      const input = $(`${offer.key}-${p.name}`);
      if (input) input.hidden = false;
    });
  });
  document.querySelectorAll("#setup button, #clock-offers button, #actions button").forEach((b) => {
    if (shown.has(b.id)) return;
    b.hidden = true;
    (b.offer && b.offer.params || []).forEach((p) => {
      const input = $(`${b.id}-${p.name}`);
      if (input) input.hidden = true;
    });
  });
}

function paramInput(offer, param) {  // a number, a choice or choices beside the offer's button
  const id = `${offer.key}-${param.name}`;
  let input;
  if (param.kind === "number") {
    input = document.createElement("input");
    input.type = "number"; input.inputMode = "numeric"; input.placeholder = param.name;
  } else {
    input = document.createElement("select");
    input.multiple = param.kind === "choices";
    input.innerHTML = param.choices.map((c) => `<option>${c}</option>`).join("");
    if (input.multiple) input.selectedIndex = -1;
    input.title = param.name;
  }
  input.id = id;
  input.className = "param";
  return input;
}

let picking = null;  // a night pick being entered: the actor chosen, the targets next

function tap(offer) {
  if (offer.action === "night_pick") return enterPick(offer);
  const args = { ...(offer.args || {}) };
  for (const param of offer.params || []) {
    const value = paramValue(offer, param);
    if (value === undefined) return;
    args[param.name] = value;
  }
  if ((offer.params || []).some((p) => p.kind === "seat" || p.kind === "seats")) clearSelection();
  act(offer.action, args);
}

function enterPick(offer) {  // first tap: the actor (one seat); second: the seats they showed
  const seats = [...selected].sort((a, b) => a - b);
  const [actor, targets] = offer.params;
  if (picking === null) {
    if (seats.length !== 1 || !actor.seats.includes(seats[0])) {
      return say(`select the one who acts (${actor.seats.join(", ")}), then tap again`);
    }
    picking = seats[0];
    clearSelection();
    return say(`seat ${picking}'s pick: select the seats they showed (none: no pick), then ` +
               "tap again");
  }
  const args = { actor: picking, targets: seats.slice(0, targets.max || 3) };
  picking = null;
  clearSelection();
  act("night_pick", args);
}

function paramValue(offer, param) {
  const input = $(`${offer.key}-${param.name}`);
  const seats = [...selected].sort((a, b) => a - b);
  switch (param.kind) {
    case "seat":  // one seat at a time: a second action would name a stale version
      if (seats.length !== 1) return say("select one seat first");
      return seats[0];
    case "seats": return seats;
    case "number": return input && input.value ? Number(input.value) : Date.now() % 1e9;
    case "text": { const text = prompt(`${offer.label}: ${param.name}?`);
      return text === null ? undefined : text; }
    case "roles": return [...document.querySelectorAll(".seat .deal")].map((s) => s.value);
    case "choice": return input ? input.value : undefined;
    case "choices": return input ? [...input.selectedOptions].map((o) => o.value) : [];
    default: return undefined;
  }
}

function tick() {  // the floor's time left, counted down between the table's timer events
  if (!clock) return;
  const running = clock.running;
  const left = Math.max(0, clock.remaining_ms - (running ? performance.now() - clock.at : 0));
  $("remaining").textContent = `${clock.seat || "night"}: ${Math.ceil(left / 1000)} s` +
    (running ? "" : " (paused)");
}
setInterval(tick, 250);

function clearSelection() {
  selected.clear();
  document.querySelectorAll(".seat.selected").forEach((t) => t.classList.remove("selected"));
}
$("hide-roles").onclick = () => {  // this screen only: one tap hides the roles, one shows them
  rolesHidden = !rolesHidden;
  if (view) render(view);
};
$("abandon").onclick = () => {  // kept in the games as abandoned, with the reason (docs/record.md)
  const reason = prompt("Abandon this game: why?");
  if (!reason) return;
  fetch("/api/games/current/abandon", { method: "POST", body: JSON.stringify({ reason }),
    headers: { "Content-Type": "application/json" } })
    .then((r) => (r.ok ? null : r.json().then((e) => say(e.error))), () => say("not connected"));
};
document.addEventListener("click", (e) => {  // new game needs a confirmation
  if (e.target.id === "new-game" && !confirm("End this game and start a new one?")) {
    e.stopImmediatePropagation();
  }
}, true);
connect();
