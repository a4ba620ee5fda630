// The judge's panel: renders the service's view, sends the judge's taps. No build step.
//
// It knows no rule book: what the judge may do now comes in the view as offers
// (view.game.offers, docs/judge-api.md), each rendered as a button whose id is the offer's
// key; a tap gathers the offer's params (the selected seats, a number, the cards typed on the
// seats, a choice) and sends the offer's action. The game's state (stage, seats, the floor,
// the vote, the night) is drawn as it is. Every word is the catalog's (kit/i18n: I18n), in
// the judge's language; the switch draws everything again, the log too.
//
// Each view is drawn over the last one: the nodes stay (the seat tiles keyed by seat, the
// offers' buttons by key, the log's lines), and only what differs is written (`put`; a class
// through classList.toggle, which writes nothing when it is already so). The log takes its new
// lines at the top and drops the oldest at the bottom, the rest untouched.
"use strict";
const $ = (id) => document.getElementById(id);
const t = (key, params) => I18n.t(key, params);
// a node's property (textContent, value, hidden, a dataset entry...) written only when it differs
const put = (node, key, value) => { if (node[key] !== value) node[key] = value; };
let view = null, socket = null, selected = new Set(), retry = 500, clock = null, message = null;
let rolesHidden = null;  // null until the first view says the panel's default
let online = true;
let shownHealth = "";  // the header's health parts drawn now
let sent = 0;  // the refs of this page's actions: the panel answers each (done, or refused)
let dealtShown = null;  // the deal the seats' card lists were last set to
let shownStage = null;  // the stage drawn last

const STAGES = { setup: "stage.setup", night0: "stage.night0", day: "stage.day",
  vote: "stage.vote", defence: "stage.defence", roulette: "stage.roulette",
  last_words: "stage.last_words", night: "stage.night", over: "stage.over" };
const PARAMS = { seed: "panel.param.seed", add: "panel.param.add", reason: "panel.param.reason",
  name: "panel.param.name", value: "panel.param.value", mode: "panel.param.mode",
  number: "panel.param.number" };

// candidate 0 of a vote, by the vote's kind (its book's procedure, in the view): FIIM's and the
// Crow Club's "all leave?", the online book's verdict «ЗА» or its second round's «против всех»
const ASKED = {
  question: { stage: "stage.question", proposed: "panel.proposed.question",
    window: "panel.window.question", all: "stream.all" },
  verdict: { stage: "stage.question.verdict", proposed: "panel.proposed.question.verdict",
    window: "panel.window.question.verdict", all: "stream.all.verdict" },
  second_round: { proposed: "panel.proposed.question.second_round",
    window: "panel.window.question.second_round", all: "stream.all.second_round" } };
const asked = (part, vote) => ((vote && ASKED[vote.kind]) || ASKED.question)[part];

const SOUNDS = { fault: "panel.speaker_fault", silent: "panel.no_sound", off: "panel.sound_off" };

function roleTitle(g, role) {  // the book's word for a card, in the judge's language
  const card = g.book.roles.find((r) => r.role === role);
  return card ? I18n.text(card.title) : role;
}
function teamTitle(g, team) {
  const side = g.book.teams.find((s) => s.team === team);
  return side ? I18n.text(side.title) : team;
}
function stepTitle(g, step) {
  const found = g.book.steps.find((s) => s.step === step);
  return found ? I18n.text(found.title) : step;
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/live`);
  socket.onopen = () => { retry = 500; online = true; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") render(message);
    else if (message.type === "refused") say(message.words);
    // what became of the page's own latest action (its ref): taken, or refused and why
    if (message.ref != null) Object.assign(document.body.dataset, { answered: message.ref,
      outcome: message.type === "done" ? "done" : `refused ${message.field || ""}`.trim() });
  };
  socket.onclose = () => {
    online = false;
    put($("table-status"), "textContent", t("panel.offline"));
    put($("table-status"), "className", "status bad");
    setTimeout(() => fetch("/live", { method: "HEAD" }).then((r) => {
      if (r.status === 401) location.href = "/login"; else connect();
    }, connect), retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function act(action, args = {}) {
  if (!view || !socket || socket.readyState !== WebSocket.OPEN) return say({ key: "panel.not_connected" });
  $("message").hidden = true;
  document.body.dataset.sent = ++sent;
  socket.send(JSON.stringify({ action, args, version: view.game.version, ref: sent }));
}

function say(words, good = false) {  // a message for the judge: words (drawn again in a new
  message = words;                     // language); good: what was done, not a refusal
  $("message").textContent = I18n.words(words);
  $("message").classList.toggle("good", good);
  $("message").hidden = false;
}

function seatTile(seat) {
  const tile = document.createElement("div");
  tile.className = "seat";
  tile.dataset.seat = seat;
  tile.innerHTML = `<div class="num">${seat}</div><input class="name" placeholder="${t("panel.name")}">
    <div class="who" hidden></div><div class="role"></div><select class="deal" hidden></select>
    <div class="fouls"></div>`;
  tile.addEventListener("click", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    selected.has(seat) ? selected.delete(seat) : selected.add(seat);
    tile.classList.toggle("selected", selected.has(seat));
    drawPicked();
  });
  const name = tile.querySelector(".name");
  name.addEventListener("change", (e) => {
    if (e.target.value !== e.target.dataset.picked) act("name", { seat, name: e.target.value });
    e.target.dataset.sent = e.target.value;
    delete e.target.dataset.picked;
  });
  name.addEventListener("input", () => { fitName(name); suggest(name, seat); });
  name.addEventListener("focus", () => suggest(name, seat));
  name.addEventListener("blur", () => { $("suggest").hidden = true; });
  return tile;
}

// a name in its field whole where a smaller type lets it be («Алёна Смирнова» was «Алёна
// Смирн…» at a tablet's and a phone's width): 17 px, down to 13 px as the name needs
function fitName(input) {
  input.style.fontSize = "";
  for (let size = 16; size >= 13 && input.scrollWidth > input.clientWidth; size--) {
    input.style.fontSize = `${size}px`;
  }
}
addEventListener("resize", () => document.querySelectorAll(".seat .name").forEach(fitName));

// ------------------------------------------------------------------ the club's players

let roster = { names: [], count: 0 };  // the club's roster: names the most played first

// a name as the roster compares it (kit/player_names.py's key): NFC, lower case, ё as е,
// single spaces
const nameKey = (name) => name.normalize("NFC").toLowerCase().replace(/ё/g, "е")
  .split(/\s+/).filter(Boolean).join(" ");

function loadRoster() {
  fetch("/api/roster", { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : null))
    .then((body) => { if (body) { roster = body; drawRoster(); } }, () => {});
}

function drawRoster() {
  put($("roster-count"), "textContent", t("panel.roster.count", { count: roster.count }));
}

// under a name being typed: the roster's players whose name has a word starting with each
// word typed (any case, ё or е), not seated elsewhere; a tap seats the one meant
function suggest(input, seat) {
  const box = $("suggest"), typed = nameKey(input.value);
  const seated = new Set(view ? view.game.seats.filter((s) => s.seat !== seat && s.name)
    .map((s) => nameKey(s.name)) : []);
  const words = typed.split(" ");
  const found = !typed ? [] : roster.names.filter(({ name }) => {
    const parts = nameKey(name).split(" ");
    return name !== input.value && !seated.has(nameKey(name)) &&
      words.every((w) => parts.some((part) => part.startsWith(w)));
  }).slice(0, 6);
  box.replaceChildren(...found.map(({ name }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.addEventListener("pointerdown", (e) => e.preventDefault());  // the field keeps focus
    button.addEventListener("click", () => {
      input.value = input.dataset.picked = input.dataset.sent = name;
      box.hidden = true;
      act("name", { seat, name });
      input.blur();
    });
    return button;
  }));
  box.hidden = !found.length;
  if (!found.length) return;
  const r = input.getBoundingClientRect();
  box.style.minWidth = `${r.width}px`;
  box.style.top = `${r.bottom + scrollY + 2}px`;
  box.style.left = `${Math.max(8, Math.min(r.left, innerWidth - 8 - box.offsetWidth)) + scrollX}px`;
}

$("roster-file").addEventListener("change", (e) => {  // the club's file: taken whole, or why not
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  file.arrayBuffer().then((data) => fetch("/api/roster", { method: "POST", body: data,
    headers: { "Content-Type": "text/csv" }, credentials: "same-origin" }))
    .then((r) => r.json().then((body) => {
      say(body.words || { key: "panel.error", params: { error: body.error } }, r.ok);
      if (r.ok) loadRoster();
    }), () => say({ key: "panel.not_connected" }));
});

function dealOptions(g) {  // the cards of the book, for a deal typed seat by seat
  const key = g.book.roles.map((r) => r.role).join(",") + I18n.language;
  document.querySelectorAll(".seat .deal").forEach((select) => {
    if (select.dataset.book === key) return;
    const chosen = select.value;
    select.dataset.book = key;
    select.replaceChildren(...g.book.roles.map((r) => new Option(I18n.text(r.title), r.role)));
    const plain = g.book.roles.find((r) => r.role === "civilian") || g.book.roles.at(-1);
    select.value = g.book.roles.some((r) => r.role === chosen) ? chosen : plain.role;
  });
}

// after a deal, each seat's list shows its card: what a re-deal would deal; a new game's lists
// start plain again (the last game's cards, dealt again, would sit where the players know them)
function dealShown(g) {
  const deal = g.seats.map((s) => s.role || "").join(",");
  document.body.classList.toggle("dealt", g.dealt);
  const fresh = g.stage === "setup" && shownStage !== null && shownStage !== "setup";
  if (deal === dealtShown && !fresh) return;  // the judge's own choices are left as they are
  dealtShown = deal;
  if (!g.dealt && !fresh) return;
  const plain = g.book.roles.find((r) => r.role === "civilian") || g.book.roles.at(-1);
  g.seats.forEach((s) => {
    put($("seats").querySelector(`[data-seat="${s.seat}"] .deal`), "value", s.role || plain.role);
  });
}

function render(message) {
  view = message;
  const g = message.game, tb = message.table;
  if (rolesHidden === null) rolesHidden = message.panel.hide_roles;
  document.body.classList.toggle("roles-hidden", rolesHidden);
  put($("hide-roles"), "textContent", t(rolesHidden ? "panel.show_roles" : "panel.hide_roles"));
  if ($("seats").children.length !== g.seats.length) {
    $("seats").textContent = "";
    g.seats.forEach((s) => $("seats").appendChild(seatTile(s.seat)));
  }
  dealOptions(g);
  dealShown(g);
  const voted = new Set(g.vote && g.vote.proposed ? g.vote.proposed.voters : []);
  const down = new Set(message.down);
  g.seats.forEach((s) => {
    const tile = $("seats").querySelector(`[data-seat="${s.seat}"]`);
    const name = tile.querySelector(".name");
    // the name as kept (tidy, in the roster's spelling), unless the judge is typing it now
    if (document.activeElement !== name || name.value === name.dataset.sent) {
      put(name, "value", s.name);
    }
    // typed in setup; in the game, the name as words that wrap (a field would cut it)
    put(name, "hidden", g.stage !== "setup");
    fitName(name);
    const who = tile.querySelector(".who");
    put(who, "textContent", s.name);
    put(who, "hidden", g.stage === "setup" || !s.name);
    const role = tile.querySelector(".role");
    put(role, "textContent", !s.role ? "" : s.card ? t("panel.role.shown",
      { role: roleTitle(g, s.role) }) : roleTitle(g, s.role));
    put(role.dataset, "role", s.role || "");
    put(role, "className", `role ${s.role || ""} ${s.team ? `team-${s.team}` : ""}`);
    put(tile.querySelector(".deal"), "hidden", g.stage !== "setup");
    put(tile.querySelector(".fouls"), "textContent", "●".repeat(s.fouls));
    tile.classList.toggle("out", !s.in_game);
    tile.classList.toggle("floor", g.floor === s.seat);
    tile.classList.toggle("nominee", g.nominees.includes(s.seat));
    tile.classList.toggle("tied", g.tied.includes(s.seat));
    tile.classList.toggle("voted", voted.has(s.seat));
    tile.classList.toggle("down", down.has(s.seat));
    tile.classList.toggle("victim", g.killed === s.seat && ["night", "night0"].includes(g.stage));
  });
  const winner = g.winner === "draw" ? t("stage.draw") : g.winner ? teamTitle(g, g.winner) : "";
  const drawn = g.stage === "over" && g.winner === "draw" ? "stage.over.draw"
    : g.stage === "question" ? asked("stage", g.vote) : STAGES[g.stage];
  const own = g.book.stages && g.book.stages[g.stage];  // the book's own name for the stage
  put($("stage"), "textContent", own ? t("stage.book", { stage: own, day: g.day, night: g.night })
    : drawn ? t(drawn, { day: g.day, night: g.night, winner }) : g.stage);
  put($("stage").dataset, "stage", g.stage);
  put($("book"), "textContent", I18n.text(g.book.title));
  const up = tb.broker && tb.status === "online";
  put($("table-status"), "textContent", !online ? t("panel.offline") : !tb.broker ?
    t("panel.broker_offline") : tb.status === "offline" ? t("panel.table_offline") : tb.status !== "online" ?
    t("panel.table_unknown") : t("panel.table_online"));
  put($("table-status"), "className", `status ${up && online ? "good" : "bad"}`);
  // the morning's news (FIIM 4.5.9: the judge announces it from here), or, in a vote's last
  // words, who leaves (the nominees were the vote's, decided); then the floor
  const m = g.morning, leaving = g.stage === "last_words" && !m ? g.leaving : [];
  const said = [m ? t(m.killed.length ? "panel.morning.killed" : "panel.morning.none",
    { day: m.day, seats: m.killed, count: m.killed.length }) : "",
  leaving.length ? t("panel.leaving", { seats: leaving, count: leaving.length }) : "",
  g.floor ? t("panel.floor", { seat: g.floor }) : ""].filter(Boolean);
  const floor = [...said,
    g.speakers.length ? t(said.length ? "panel.next_speakers" : "panel.next_speakers.first",
      { seats: g.speakers }) : "",
    g.nominees.length ? t("panel.nominated", { seats: g.nominees, count: g.nominees.length })
      : ""].filter(Boolean);
  const line = floor.join("\u00a0· ");  // no separator before the first part, which is capitalised
  put($("floor"), "textContent", line.charAt(0).toLocaleUpperCase(I18n.language) + line.slice(1));
  const p = g.vote && g.vote.proposed;
  // who raised a hand, then who did not and where the book sends their votes (FIIM 4.4.8)
  const hands = p ? [p.voters.map(I18n.number).join(", "), p.leftover.length ? t("words.leftover",
    { seats: p.leftover, count: p.leftover.length, cite: p.leftover_rule }) : ""] : [];
  put($("vote"), "textContent", !g.vote ? "" : p ?
    t(p.candidate ? "panel.proposed" : asked("proposed", g.vote), { seat: p.candidate,
      count: p.count, voters: hands.filter(Boolean).join("; ") || t("panel.nobody") }) :
    t("panel.voting", { seats: g.vote.candidates }) + (message.window ? `\u00a0· ${message.window.candidate
      ? t("panel.window", { seat: message.window.candidate })
      : t(asked("window", g.vote))}` : "") +
    (g.vote.counts.length ? `\u00a0· ${g.vote.counts.map(([c, n]) => t("panel.count",
      { seat: c || t(asked("all", g.vote)), count: n })).join(", ")}` : ""));
  put($("vote").dataset, "proposed", p ? `${p.candidate}:${p.count}` : "");
  const night = g.stage === "night" || g.stage === "night0";
  put($("night"), "textContent", !night ? "" : (g.night_step ?
    t("panel.night.running", { step: stepTitle(g, g.night_step) }) :
    g.night_steps.length ? t("panel.night.next", { step: stepTitle(g, g.night_steps[0]) }) :
    t("panel.night.morning")) + g.tonight.map((a) => `\u00a0· ${I18n.words(a)}`).join("") +
    (g.night_input === "count" ? `\u00a0· ${t("panel.night.count")}` : ""));
  put($("night").dataset, "step", g.night_step || "");
  const consoles = tb.consoles.filter(Boolean).length;
  // a simulated table with no sound card, or sound off by configuration, is no fault: said
  // plainly, not in red (contract.api.sound)
  const speaker = tb.sound in SOUNDS ? [tb.sound, t(SOUNDS[tb.sound])] : null;
  const health = [tb.consoles.length ? [null, t("panel.consoles", { online: consoles,
    total: tb.consoles.length })] : null, speaker].filter(Boolean);
  if (JSON.stringify(health) !== shownHealth) {
    shownHealth = JSON.stringify(health);
    $("health").replaceChildren(...health.flatMap(([kind, text], i) => {
      const part = document.createElement("span");
      part.textContent = text;
      if (kind) part.className = `sound ${kind}`;
      return i ? ["\u00a0· ", part] : [part];
    }));
  }
  // the floor's clock, the first night's meeting, the table's discussion, or a night step's own
  // time while it runs
  const timed = g.floor || (message.timer && message.timer.seat === null &&
    (g.stage === "night0" || g.discussing || (g.night_step && message.timer.kind === "night_step")));
  clock = message.timer && timed ? { ...message.timer, at: performance.now() } : null;
  put($("clock"), "hidden", !clock);
  tick();
  renderOffers(g.offers, g);
  put($("setup"), "hidden", g.stage !== "setup");
  put($("players"), "hidden", g.stage !== "setup");
  if (g.stage === "setup" && shownStage !== "setup") loadRoster();  // the last game's names in
  shownStage = g.stage;
  put($("abandon"), "hidden", g.stage === "setup" || g.stage === "over");
  put($("sheet-link"), "hidden", g.stage !== "over");  // the finished game's sheet, one tap away
  const input = g.offers.find((o) => o.action === "night_input");
  put($("table-settings"), "hidden", !input);
  put($("night-input-now"), "textContent", t(g.night_input === "count" ?
    "panel.night_input.count" : "panel.night_input.keypad"));
  drawPicked();
  renderLog([...message.log.map((l) => ({ said: l.text, line: () => I18n.line(l) })),
    ...message.notices.map((n) => ({ said: `⚠ ${n.text}`, line: () => `⚠ ${I18n.words(n)}` }))]
    .slice(-40));
  put(document.body.dataset, "version", String(g.version));
}

// ------------------------------------------------------------------ the log

let logged = [];  // what the log's lines say now, oldest first (the server's text of each)

function renderLog(lines) {  // newest at the top; only new lines drawn, the oldest dropped
  const said = lines.map((l) => l.said);
  // the longest run of the lines shown now, from some line on, that the new lines start with
  let kept = Math.min(logged.length, said.length);
  while (kept && !said.slice(0, kept).every((s, i) => s === logged[logged.length - kept + i])) {
    kept--;
  }
  const log = $("log");
  if (!kept) log.textContent = "";
  else for (let gone = logged.length - kept; gone > 0; gone--) log.lastElementChild.remove();
  lines.slice(kept).forEach((l) => {
    log.insertBefore(logLine(l.line()), log.firstChild);
  });
  logged = said;
}

// a log line whose seconds keep their unit on their line («(речь, 60 с)» wrapped to «60» and
// «с)» alone on the next at a tablet's width): each pair in a span that does not wrap, the
// line's text as it was
function logLine(text) {
  const li = document.createElement("li");
  let at = 0;
  for (const m of text.matchAll(/\d+ (?:с|s)(?![\p{L}\d])/gu)) {
    const pair = document.createElement("span");
    pair.className = "unit";
    pair.textContent = m[0];
    li.append(text.slice(at, m.index), pair);
    at = m.index + m[0].length;
  }
  li.append(text.slice(at));
  return li;
}

// ------------------------------------------------------------------ offers

// where an offer's button goes: the bar at the screen's foot holds what the judge taps every
// minute (the primary action, the stage's decisions, the selected seats' actions, Undo); the
// side column the setup, the rarer choices and the table's settings; the game's end (New game)
// is kept away from them, but at game over, when it is what comes next
function boxOf(offer, g) {
  const seated = (offer.params || []).some((p) => p.kind === "seat" || p.kind === "seats");
  if (offer.group === "clock") return "clock-offers";
  if (offer.action === "night_input") return "table-settings";
  if (offer.action === "new_game") return g.stage === "over" ? "bar-offers" : "panel-actions";
  if (offer.primary) return "bar-offers";
  if (seated) return "seat-offers";
  if (offer.kind === "deal_random" && undealt(g)) return "bar-offers";
  if (offer.group === "setup") return "setup";
  // the stage's decisions (a count rejected, a step ended, a violation over, Laura's side)
  if (["vote", "night", "game", "panel", "seat"].includes(offer.group || "game")) {
    return "bar-offers";
  }
  return "actions";
}

// setup before a deal: the night cannot start yet (its button dim in the bar), so the deal
// at random, with its seed, stands beside it, in view (on a phone the setup's buttons are under
// the ten seats); dealt, it goes back to the setup's box, and the start is the way forward
const undealt = (g) => g.stage === "setup" &&
  g.offers.some((o) => o.key === "start" && o.enabled === false);

// where a param's input goes: beside its offer's button, but a list several offers share (the
// optional cards) stays in the setup's box, under its words
const paramBox = (offer, param, g) => (param.name in SHARED ? "setup" : boxOf(offer, g));

function renderOffers(offers, g) {
  const shown = new Set(), order = {};  // box id -> its offers' nodes, in the order offered
  offers.forEach((offer) => {
    if (offer.key === "name") return;  // the seats' name fields
    shown.add(offer.key);
    let button = $(offer.key);
    if (!button) {
      button = document.createElement("button");
      button.id = offer.key;
      button.className = "big offer";
      button.onclick = () => tap(button.offer);
      (offer.params || []).filter((p) => ["number", "choice", "choices"].includes(p.kind))
        .filter((p) => !$(inputId(offer, p)))  // a shared list: made once
        .forEach((p) => $(paramBox(offer, p, g)).appendChild(paramInput(offer, p)));
      $(boxOf(offer, g)).appendChild(button);
    }
    // in the order offered: the shared lists first, the inputs of its params, then the button
    const params = [...(offer.params || [])].sort((a, b) => (b.name in SHARED) - (a.name in SHARED));
    params.forEach((p) => {
      const input = placed(inputId(offer, p)), box = paramBox(offer, p, g);
      const nodes = (order[box] = order[box] || []);
      if (input && !nodes.includes(input)) nodes.splice(p.name in SHARED ? 0 : nodes.length, 0, input);
    });
    const box = boxOf(offer, g);
    (order[box] = order[box] || []).push(button);
    button.offer = offer;
    put(button.dataset, "kind", offer.kind);  // what it does (docs/judge-api.md, "Offer kinds")
    put(button, "textContent", I18n.words(offer.label));
    put(button, "disabled", offer.enabled === false);
    button.classList.toggle("primary", !!offer.primary);
    put(button, "hidden", false);
    (offer.params || []).forEach((p) => {
      const input = placed(inputId(offer, p));
      if (input) put(input, "hidden", false);
      if (input && p.max) put(input, "max", String(p.max));  // a bound that moves (cards left)
    });
  });
  // each box's offers moved only when their order changed (a new one is appended here too;
  // one whose box changed, New game at game over, moves)
  Object.entries(order).forEach(([id, nodes]) => {
    const box = $(id), wanted = new Set(nodes);
    const now = [...box.children].filter((node) => wanted.has(node));
    if (now.length !== nodes.length || now.some((node, i) => node !== nodes[i])) {
      nodes.forEach((node) => box.appendChild(node));
    }
  });
  const kept = new Set(offers.filter((o) => shown.has(o.key))
    .flatMap((o) => (o.params || []).map((p) => inputId(o, p))));
  document.querySelectorAll("button.offer").forEach((b) => {
    if (shown.has(b.id)) return;
    put(b, "hidden", true);
    (b.offer && b.offer.params || []).forEach((p) => {
      const input = placed(inputId(b.offer, p));
      if (input && !kept.has(inputId(b.offer, p))) put(input, "hidden", true);
    });
  });
}

// a list several offers share, one list under its words: the optional cards of either deal
// (two unlabelled lists were read as two different things)
const SHARED = { add: "deal-add" };
const inputId = (offer, param) => SHARED[param.name] || `${offer.key}-${param.name}`;
const placed = (id) => { const input = $(id); return input && (input.closest(".param-box") || input); };

// the bar's seat row: the selected seats ("Игрок 3:"), whose actions it shows; with none
// selected, how to get them
function drawPicked() {
  const seats = [...selected].sort((a, b) => a - b);
  $("bar").classList.toggle("picking", seats.length > 0);
  // at setup a seat's action is a swap of two (no foul, no nomination before the game)
  const setup = view && view.game.stage === "setup";
  put($("bar-picked"), "textContent", seats.length ? t("panel.bar.picked",
    { count: seats.length, seats }) : t(setup ? "panel.bar.pick.setup" : "panel.bar.pick"));
  // the bar's height kept clear when the page scrolls a field or a tile into view
  document.documentElement.style.scrollPaddingBottom = `${$("bar").offsetHeight + 8}px`;
}

function paramInput(offer, param) {  // a number, a choice or choices beside the offer's button
  const id = inputId(offer, param);
  let input;
  if (param.kind === "number") {
    input = document.createElement("input");
    input.type = "number"; input.inputMode = "numeric";
    if (param.max) { input.min = "1"; input.max = String(param.max); }
    input.placeholder = PARAMS[param.name] ? t(PARAMS[param.name]) : param.name;
  } else {
    input = document.createElement("select");
    input.multiple = param.kind === "choices";
    input.replaceChildren(...param.choices.map((c) => new Option(roleTitle(view.game, c), c)));
    if (input.multiple) input.selectedIndex = -1;
    input.title = PARAMS[param.name] ? t(PARAMS[param.name]) : param.name;
  }
  input.id = id;
  input.className = "param";
  if (!(param.name in SHARED)) return input;
  const box = document.createElement("label");  // its words above it, for every offer it serves
  box.className = "param-box";
  const words = document.createElement("span");
  words.textContent = t(PARAMS[param.name]);
  box.append(words, input);
  return box;
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
      return say({ key: "panel.pick.actor", params: { seats: actor.seats } });
    }
    picking = seats[0];
    clearSelection();
    return say({ key: "panel.pick.targets", params: { seat: picking } });
  }
  const args = { actor: picking, targets: seats.slice(0, targets.max || 3) };
  picking = null;
  clearSelection();
  act("night_pick", args);
}

function paramValue(offer, param) {
  const input = $(inputId(offer, param));
  const seats = [...selected].sort((a, b) => a - b);
  switch (param.kind) {
    case "seat":  // one seat at a time: a second action would name a stale version
      if (seats.length !== 1) return say({ key: "panel.select_seat" });
      return seats[0];
    case "seats": return seats;
    case "number": {
      if (!param.max) return input && input.value ? Number(input.value) : Date.now() % 1e9;
      const n = input && input.value ? Number(input.value) : NaN;  // one the rules bound: 1..max
      if (!(Number.isInteger(n) && n >= 1 && n <= param.max)) {
        return say({ key: "panel.param.range", params: { max: param.max } });
      }
      input.value = "";
      return n; }
    case "text": { const text = prompt(t("panel.prompt", { offer: I18n.words(offer.label),
      param: PARAMS[param.name] ? t(PARAMS[param.name]) : param.name }));
      return text === null ? undefined : text; }
    case "roles": return [...document.querySelectorAll(".seat .deal")].map((s) => s.value);
    // a choice goes as the offer gave it (a number stays a number: the roulette's)
    case "choice": return input ? param.choices.find((c) => String(c) === input.value) : undefined;
    case "choices": return input ? [...input.selectedOptions].map((o) => o.value) : [];
    default: return undefined;
  }
}

function tick() {  // the floor's time left, counted down between the table's timer events
  if (!clock) return;
  const running = clock.running;
  const left = Math.max(0, clock.remaining_ms - (running ? performance.now() - clock.at : 0));
  // the seconds alone in the big figures ("59 с", never "1: 59 с", which reads as a time of
  // day); whose time it is, and a pause, in small words above them
  const what = clock.seat ? t("panel.clock.seat", { seat: clock.seat }) :
    t(clock.kind === "discussion" ? "panel.clock.discussion" : "panel.clock.night");
  put($("clock-what"), "textContent", running ? what : t("panel.clock.paused", { what }));
  put($("remaining"), "textContent", t("panel.clock", { seconds: Math.ceil(left / 1000) }));
}
setInterval(tick, 250);

function clearSelection() {
  selected.clear();
  document.querySelectorAll(".seat.selected").forEach((t) => t.classList.remove("selected"));
  drawPicked();
}
$("hide-roles").onclick = () => {  // this screen only: one tap hides the roles, one shows them
  rolesHidden = !rolesHidden;
  if (view) render(view);
};
$("abandon").onclick = () => {  // kept in the games as abandoned, with the reason (docs/record.md)
  const reason = prompt(t("panel.abandon.why"));
  if (!reason) return;
  fetch("/api/games/current/abandon", { method: "POST", body: JSON.stringify({ reason }),
    headers: { "Content-Type": "application/json" } })
    .then((r) => (r.ok ? null : r.json().then((e) => say(e.words || { key: "panel.error",
      params: { error: e.error } }))), () => say({ key: "panel.not_connected" }));
};
document.addEventListener("click", (e) => {  // new game needs a confirmation, but at game over
  if (e.target.id === "new-game" && view && view.game.stage !== "over" &&
      !confirm(t("panel.new_game.confirm"))) {
    e.stopImmediatePropagation();
  }
}, true);
function redraw() {  // the language changed: every word again, the log too
  document.querySelectorAll(".param-box, .param").forEach((input) => input.remove());
  document.querySelectorAll("button.offer").forEach((b) => b.remove());
  logged = []; shownHealth = "";
  if (message && !$("message").hidden) $("message").textContent = I18n.words(message);
  drawRoster();
  if (view) render(view);
}
I18n.load().then(() => {
  I18n.translate();
  I18n.switcher($("languages"), redraw);
  connect();
});
