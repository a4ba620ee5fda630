// The stream overlay: renders what the judge's service pushes on /overlay/live. Read-only: it
// sends nothing but the token. Secrets (roles, shots, checks) arrive only when the organiser
// enabled them, and then late (the service holds each back for the stream delay). No build step.
// The token comes after '#' in the page's address (/overlay#token=T): a fragment never leaves
// the browser, so no URL the service or a log sees holds it; it goes as the socket's first
// message instead. Its words are the catalog's (kit/i18n: I18n) in the viewer's language: the
// `lang` cookie, or `#lang=en` after the address (a streaming program's browser source).
// Each view is drawn over the last: the seat tiles stay, and only what differs is written (`put`;
// a class through classList.toggle, which writes nothing when it is already so).
"use strict";
const $ = (id) => document.getElementById(id);
// a node's property (textContent, hidden, className, a dataset entry) written only when it differs
const put = (node, key, value) => { if (node[key] !== value) node[key] = value; };
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const POLICY_VIOLATION = 1008;  // the service's answer to a wrong or missing token
const t = (key, params) => I18n.t(key, params);
const STAGE = { setup: "stream.stage.setup", night0: "stream.stage.night0", day: "stream.stage.day",
  vote: "stream.stage.vote", defence: "stream.stage.defence",
  roulette: "stream.stage.roulette",
  last_words: "stream.stage.last_words", night: "stream.stage.night", over: "stream.stage.over" };
const LEFT = { voted: "stream.left.voted", killed: "stream.left.killed", fouls: "stream.left.fouls",
  roulette: "stream.left.roulette" };
// candidate 0 of a vote, by the vote's kind (its book's procedure): FIIM's and the Crow Club's
// "all leave?", the online book's verdict «ЗА» or its second round's «против всех»
const ASKED = {
  question: { stage: "stream.stage.question", all: "stream.all" },
  verdict: { stage: "stream.stage.question.verdict", all: "stream.all.verdict" },
  second_round: { all: "stream.all.second_round" } };
const asked = (part, vote) => ((vote && ASKED[vote.kind]) || ASKED.question)[part];
let clock = null, retry = 500, shownSecrets = "";

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/overlay/live`);
  socket.onopen = () => {
    if (token !== null) socket.send(JSON.stringify({ token }));
  };
  socket.onmessage = (event) => {
    retry = 500;
    put($("offline"), "hidden", true);
    const view = JSON.parse(event.data);
    if (view.type === "overlay") render(view);
  };
  socket.onclose = (event) => {
    $("offline").hidden = false;
    if (event.code === POLICY_VIOLATION) {  // trying again cannot help: the address is wrong
      $("offline").textContent = t("stream.token");
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

// A name in full: the largest size from 24 px down to 12 px at which it fits its two lines
// without breaking a word; a word too long even then is broken where it must.
function fit(name) {
  name.style.fontSize = "";
  name.style.overflowWrap = "normal";
  const over = () => name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1;
  for (let size = 24; over() && size > 12; size -= 1) name.style.fontSize = `${size - 1}px`;
  if (over()) name.style.overflowWrap = "anywhere";
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
    const name = tile.querySelector(".name");
    if (name.textContent !== (s.name || t("stream.player", { seat: s.seat }))) {
      name.textContent = s.name || t("stream.player", { seat: s.seat });
      fit(name);
    }
    put(tile.querySelector(".fouls"), "textContent", "●".repeat(s.fouls));
    put(tile.querySelector(".left"), "textContent", !s.left ? "" : t(LEFT[s.left.how]) +
      (s.left.day ? ` · ${t("stream.day", { day: s.left.day })}` : s.left.night !== undefined
        ? ` · ${t("stream.night", { night: s.left.night })}` : ""));
    tile.classList.toggle("out", !s.in_game);
    tile.classList.toggle("floor", s.floor);
    tile.classList.toggle("nominee", s.nominated);
    tile.classList.toggle("tied", s.tied);
    tile.classList.toggle("down", s.down);
    tile.classList.toggle("leaving", leaving.has(s.seat));
    const role = secrets && secrets.roles.length ? secrets.roles[i] : "";
    put(tile.querySelector(".card"), "textContent", role && secrets.titles &&
      secrets.titles[role] ? I18n.text(secrets.titles[role]) : role);
    // coloured by the card's side in the book (overlay.css: the mafia's sides, the city's, the
    // loners')
    put(tile.querySelector(".card"), "className", "card" +
      (role && secrets.teams[role] ? ` team-${secrets.teams[role]}` : ""));
  });
  const drawn = view.stage === "over" && view.winner === "draw" ? "stream.stage.over.draw"
    : view.stage === "question" ? asked("stage", view.vote) : STAGE[view.stage];
  put($("stage"), "textContent", drawn ? t(drawn, { day: view.day, night: view.night,
    winner: view.winner_title ? I18n.text(view.winner_title) : "" }) : view.stage);
  put($("stage").dataset, "stage", view.stage);
  put($("nominees"), "hidden", !view.nominees.length);
  put($("nominees"), "textContent", t("stream.nominated", { seats: view.nominees,
    count: view.nominees.length }));
  const vote = view.vote;
  put($("votes"), "hidden", !vote);
  if (vote) {
    const named = (c) => c || t(asked("all", vote));  // candidate 0: the kind's words
    const counts = vote.counts.map(([c, n]) => `${named(c)}: ${n}`);
    if (vote.proposed) counts.push(`${named(vote.proposed.candidate)}: ${vote.proposed.count}…`);
    put($("votes"), "textContent", t("stream.votes", { counts: counts.join(" · ") || "—" }) +
      (vote.fists.length ? ` · ${t("stream.hands", { count: vote.fists.length })}` : ""));
  }
  put($("votes").dataset, "counts", vote ? JSON.stringify(vote.counts) : "");
  renderSecrets(secrets);
  clock = view.timer ? { ...view.timer, at: performance.now() } : null;
  tick();
}

function renderSecrets(secrets) {  // only ever late: the service holds each for the delay
  const lines = !secrets ? [] : [
    ...secrets.shots.map((s) => t("stream.shot", { night: s.night, seat: s.seat })),
    ...secrets.checks.map((c) => t("stream.checked", { night: c.night, seat: c.seat,
      by: I18n.text(c.by), answer: I18n.text(c.answer) })),
    ...(secrets.best_move.length ? [t("stream.best_move", { seats: secrets.best_move })] : [])];
  put($("secret"), "hidden", !lines.length);
  if (JSON.stringify(lines) === shownSecrets) return;  // drawn again only when they changed
  shownSecrets = JSON.stringify(lines);
  $("secret").replaceChildren(...lines.map((line) => {
    const li = document.createElement("li"); li.textContent = line; return li;
  }));
}

function tick() {  // the floor's time left, counted down between the table's timer events
  put($("timer"), "hidden", !clock);
  if (!clock) return;
  const left = Math.max(0, clock.remaining_ms - (clock.running ? performance.now() - clock.at : 0));
  const s = Math.ceil(left / 1000);
  put($("timer"), "textContent", `${clock.seat ? t("stream.seat", { seat: clock.seat })
    : t("stream.meeting")} · ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`);
  $("timer").classList.toggle("low", s <= 10);
  $("timer").classList.toggle("paused", !clock.running);
}
setInterval(tick, 200);
I18n.load().then(() => { I18n.translate(); connect(); });
