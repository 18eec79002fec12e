// The Vigtavl page: play, watch and replay over the server's JSON API (agents/web/server.py).
// It only draws what the server sends (hex corners, piece places, colours, the legal decisions
// in words) and sends back the action number of the decision clicked; the rules live on the server.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const S = {
  mode: null, meta: null, board: null, view: null, gameId: null, eventsSeen: 0, newsFrom: 0,
  paused: false, busy: false, timer: null, replay: null,
};

// ------------------------------------------------------------------ server calls and messages
async function api(method, url, body, raw) {
  let response;
  try {
    const opts = { method, headers: {} };
    if (raw !== undefined) { opts.body = raw; }
    else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
    response = await fetch(url, opts);
  } catch (e) {
    throw new Error("the server does not answer: is vigtavl serve still running?");
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) throw new Error((data && data.error) || `the server answered ${response.status}`);
  return data;
}

function say(text, error = true) {
  const m = $("message");
  m.textContent = text;
  m.className = error ? "error" : "info";
  m.hidden = !text;
}

async function guarded(fn) {
  try { await fn(); } catch (e) { say(e.message); }
}

function el(tag, attrs = {}, text) {
  const ns = ["svg", "g", "polygon", "circle", "rect", "line", "text", "title", "path"].includes(tag);
  const node = ns ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// ------------------------------------------------------------------ routing: #play/ID, #watch/ID, #replay/ID/G/F
async function route() {
  clearTimeout(S.timer);
  closeMenu();
  say("");
  S.gameId = null;
  const [mode, a, b, c] = location.hash.replace(/^#/, "").split("/");
  S.mode = ["play", "watch", "replay"].includes(mode) ? mode : "play";
  for (const m of ["play", "watch", "replay"]) $("tab-" + m).classList.toggle("current", m === S.mode);
  $("setup").hidden = $("replay-open").hidden = $("game").hidden = true;
  document.body.dataset.mode = S.mode;
  if (S.mode === "replay") {
    if (a && b !== undefined) return guarded(() => openReplayGame(a, +b, +(c || 0)));
    return guarded(() => showReplayOpen(a));
  }
  if (a) {
    try { await loadGame(a); } catch (e) { showSetup(); say(e.message); }
    return;
  }
  showSetup();
}

// ------------------------------------------------------------------ a new game
function showSetup() {
  $("setup").hidden = false;
  $("setup-title").textContent = S.mode === "play" ? "Play against the agents" : "Watch agents play";
  $("seat-label").hidden = S.mode !== "play";
  fillSeats();
}

function fillSeats() {
  const n = +$("players").value;
  const maps = $("map");
  const keep = maps.value;
  maps.replaceChildren(el("option", { value: "" }, "the preset for the player count"));
  for (const m of S.meta.maps.filter((m) => m.players === n)) maps.append(el("option", { value: m.name }, m.name));
  maps.append(el("option", { value: "random" }, "random (a fresh fair map)"));
  if ([...maps.options].some((o) => o.value === keep)) maps.value = keep;
  const seat = $("seat");
  const mySeat = Math.min(+seat.value || 0, n - 1);
  seat.replaceChildren(...[...Array(n).keys()].map((i) => el("option", { value: i }, `P${i}` + (i === 0 ? " (first)" : ""))));
  seat.value = mySeat;
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let i = 0; i < n; i++) {
    const human = S.mode === "play" && i === mySeat;
    const fallback = S.mode === "play" ? "greedy" : ["greedy", "aggressor", "builder", "random"][i];
    const value = human ? "human" : (old[i] && old[i] !== "human" ? old[i] : fallback);
    const input = el("input", { id: `seat-${i}`, list: "agent-specs", value });
    if (human) input.readOnly = true;
    const label = el("label", {}, `P${i} `);
    label.append(input);
    box.append(label);
  }
}

async function startGame(event) {
  event.preventDefault();
  const n = +$("players").value;
  const seats = [...Array(n).keys()].map((i) => $(`seat-${i}`).value.trim());
  const seed = $("seed").value === "" ? null : +$("seed").value;
  $("start").disabled = true;
  say("starting the game (a network agent takes a few seconds to load) ...", false);
  try {
    const data = await api("POST", "/api/games", { seats, seed, map: $("map").value || null });
    say("");
    S.board = data.board;
    location.hash = `${S.mode}/${data.id}`;
  } catch (e) { say(e.message); }
  $("start").disabled = false;
}

// ------------------------------------------------------------------ a live game (play, watch)
async function loadGame(id) {
  const data = await api("GET", `/api/games/${id}?board=1&since=0`);
  S.gameId = id;
  S.paused = S.mode === "watch" && S.paused;
  $("pause").textContent = S.paused ? "Resume" : "Pause";
  $("events").replaceChildren();
  S.eventsSeen = 0;
  S.newsFrom = 0;
  showGame(data.board);
  $("after-game").hidden = true;
  update(data);
}

function update(view) {
  S.view = view;
  // for people and tests alike: who decides now, and how many decisions were made
  document.body.dataset.turn = view.status.over || view.status.truncated ? "over" : view.human ? "you" : "agent";
  document.body.dataset.decisions = view.decisions_made;
  if (view.events) appendEvents(view.events);
  if (view.events_total !== undefined) S.eventsSeen = view.events_total;
  drawState(view);
  drawPanel(view);
  schedule();
}

function schedule() {
  clearTimeout(S.timer);
  const v = S.view;
  if (!v || v.kind !== "live" || S.busy) return;
  if (v.status.over || v.status.truncated) return gameOver(v);
  if (v.human || S.paused) return;
  S.timer = setTimeout(advance, +$("speed").value);
}

async function advance() {
  if (S.busy || !S.gameId) return;
  S.busy = true;
  try {
    const id = S.gameId;
    const data = await api("POST", `/api/games/${id}/advance?since=${S.eventsSeen}`);
    if (id === S.gameId) { S.busy = false; update(data); }
  } catch (e) { say(e.message); }
  S.busy = false;
}

async function decide(action) {
  closeMenu();
  if (S.busy || !S.view || !S.view.human) return;
  S.busy = true;
  try {
    S.newsFrom = S.eventsSeen;
    const data = await api("POST", `/api/games/${S.gameId}/decide?since=${S.eventsSeen}`, { action });
    say("");
    S.busy = false;
    update(data);
  } catch (e) { say(e.message); }
  S.busy = false;
}

function gameOver(v) {
  $("after-game").hidden = false;
  $("download").href = `/api/games/${S.gameId}/record`;
  $("download").setAttribute("download", `vigtavl-${S.gameId}.json`);
}

// ------------------------------------------------------------------ the board
function showGame(board) {
  $("game").hidden = false;
  document.body.dataset.view = S.mode === "replay" ? "replay" : "live";
  if (S.board === board && $("board").dataset.drawn === "1") return;
  S.board = board;
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
  svg.dataset.drawn = "1";
  const layers = {};
  for (const name of ["hexes", "coords", "walls", "marks", "legal", "pieces"]) {
    layers[name] = el("g", { id: `layer-${name}` });
    svg.append(layers[name]);
  }
  for (const c of board.cells) {
    const hex = el("polygon", { points: c.points, class: `hex ${c.terrain}`, fill: board.terrain_colours[c.terrain],
                                "data-cell": c.cell, "data-q": c.q, "data-r": c.r });
    hex.append(el("title", {}, `${c.q},${c.r} ${c.terrain}`));
    hex.addEventListener("click", (e) => clickHex(c.cell, e));
    hex.addEventListener("mouseenter", () => hoverHex(c));
    layers.hexes.append(hex);
    if (c.terrain === "mountain") {
      const h = board.hex_size * 0.45;
      layers.hexes.append(el("polygon", { class: "peak", points: `${c.x - h},${c.y + h * 0.6} ${c.x},${c.y - h * 0.8} ${c.x + h},${c.y + h * 0.6}` }));
    }
    layers.coords.append(el("text", { x: c.x, y: c.y + board.hex_size * 0.66, class: "coord" }, `${c.q},${c.r}`));
  }
  showCoords();
}

function showCoords() {
  $("layer-coords") && ($("layer-coords").style.display = $("coords").checked ? "" : "none");
  localStorage.setItem("vigtavl-coords", $("coords").checked ? "1" : "");
}

function cellPoints(cell) { return S.board.cells[cell].points; }

function drawState(v) {
  const colours = S.board.player_colours;
  const walls = $("layer-walls");
  walls.replaceChildren();
  for (const w of v.walls) {
    walls.append(el("line", { x1: w.x1, y1: w.y1, x2: w.x2, y2: w.y2, class: "wall-under" }));
    walls.append(el("line", { x1: w.x1, y1: w.y1, x2: w.x2, y2: w.y2, class: "wall", stroke: colours[w.owner] }));
  }
  const marks = $("layer-marks");
  marks.replaceChildren();
  const m = v.marks;
  if (m.pending >= 0 && m.origin >= 0) {
    const a = S.board.cells[m.origin], b = S.board.cells[m.pending];
    marks.append(el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "mark-line" }));
  }
  for (const cell of (v.last && v.last.cells) || []) marks.append(el("polygon", { points: cellPoints(cell), class: "mark last" }));
  for (const [name, cell] of Object.entries(m)) {
    if (cell >= 0 && name !== "origin") marks.append(el("polygon", { points: cellPoints(cell), class: `mark ${name}` }));
  }
  const legal = $("layer-legal");
  legal.replaceChildren();
  const cells = new Set(v.decisions.filter((d) => d.cell >= 0).map((d) => d.cell));
  for (const cell of cells) legal.append(el("polygon", { points: cellPoints(cell), class: "legal", "data-cell": cell }));
  document.querySelectorAll("#layer-hexes .hex").forEach((h) => h.classList.toggle("clickable", cells.has(+h.dataset.cell)));
  const pieces = $("layer-pieces");
  pieces.replaceChildren();
  for (const p of v.pieces) pieces.append(drawPiece(p, colours[p.owner]));
}

function drawPiece(p, fill) {
  const g = el("g", { class: `piece ${p.kind}` });
  const who = `P${p.owner}'s ${p.name}`;
  if (p.kind === "dev") {
    g.append(el("rect", { x: p.x - p.size, y: p.y - p.size, width: 2 * p.size, height: 2 * p.size, fill }));
    g.append(el("text", { x: p.x, y: p.y }, p.letter));
  } else if (p.kind === "artillery") {
    const h = 9;
    g.append(el("polygon", { points: `${p.x},${p.y - h} ${p.x + h},${p.y} ${p.x},${p.y + h} ${p.x - h},${p.y}`, fill }));
    g.append(el("text", { x: p.x, y: p.y }, "A"));
  } else if (p.kind === "unit") {
    g.append(el("circle", { cx: p.x, cy: p.y, r: 9, fill, class: p.spent ? "spent" : "" }));
    g.append(el("text", { x: p.x, y: p.y }, p.letter));
    for (let i = 0; i < p.cargo; i++) g.append(el("circle", { cx: p.x - 7 + i * 6, cy: p.y + 11, r: 2, class: "cargo" }));
  } else {
    g.append(el("rect", { x: p.x - 4, y: p.y - 4, width: 8, height: 8, class: "prisoner", stroke: fill }));
  }
  g.append(el("title", {}, who + (p.spent ? " (activated this turn)" : "") + (p.cargo ? `, ${p.cargo} aboard` : "")));
  return g;
}

function hoverHex(c) {
  const v = S.view;
  const here = v ? v.pieces.filter((p) => p.cell === c.cell).map((p) => `P${p.owner} ${p.name}`) : [];
  const acts = v ? [...new Set(v.decisions.filter((d) => d.cell === c.cell).map((d) => d.kind))] : [];
  $("hover-info").textContent = `${c.q},${c.r} ${c.terrain}` + (here.length ? ": " + here.join(", ") : "") +
    (acts.length ? `  |  click: ${acts.join(", ")}` : "");
}

// ------------------------------------------------------------------ decisions by clicking
function clickHex(cell, event) {
  const v = S.view;
  if (!v || !v.human) return;
  const here = v.decisions.filter((d) => d.cell === cell);
  if (here.length === 0) { closeMenu(); return; }
  if (here.length === 1) return decide(here[0].action);
  const menu = $("hex-menu");
  const c = S.board.cells[cell];
  menu.replaceChildren(el("div", { class: "menu-title" }, `${c.q},${c.r}: choose`));
  for (const d of here) {
    const b = el("button", { "data-action": d.action }, label(d));
    b.addEventListener("click", () => decide(d.action));
    menu.append(b);
  }
  const wrap = $("board-wrap").getBoundingClientRect();
  menu.style.left = `${event.clientX - wrap.left + 8}px`;
  menu.style.top = `${event.clientY - wrap.top + 8}px`;
  menu.hidden = false;
}

function closeMenu() { $("hex-menu").hidden = true; }

function label(d) {
  const plain = d.text.replace(" at ", " ").toLowerCase() === d.command;
  return plain ? d.command : `${d.command} (${d.text})`;
}

// ------------------------------------------------------------------ the panel
function drawPanel(v) {
  const s = v.status;
  const seats = v.seats || [];
  const name = (p) => `P${p}` + (seats[p] ? ` ${seats[p]}` : "");
  const banner = $("banner");
  banner.className = "";
  if (s.over) {
    banner.textContent = `Game over: ${s.winners.map(name).join(" and ")} win${s.winners.length > 1 ? " (shared)" : "s"}.`;
    banner.className = "over";
  } else if (s.truncated) {
    banner.textContent = "The game was cut off (the decision limit), no winner.";
    banner.className = "over";
  } else if (s.interrupt) {
    banner.textContent = `${s.interrupt_words}: ${name(s.to_act)}` + (s.interrupt === "retaliation" ?
      " may activate one unit with retaliation silver, or end" : " chooses who defends");
    banner.className = "interrupt";
  } else banner.textContent = "";
  const lines = [
    s.over ? `Map ${s.map} · the game ended after turn ${s.turn}` : `Map ${s.map} · ${s.phase} phase · round ${s.round}/${s.rounds} · turn ${s.turn}`,
    `Wind ${s.wind === "clockwise" ? "↻" : "↺"} ${s.wind}`,
  ];
  if (!s.over && !s.truncated) lines.push(`To decide: ${v.human ? "you, " : ""}${name(s.to_act)}` + (s.turn_player !== s.to_act ? ` (turn of P${s.turn_player})` : ""));
  if (s.builds_left !== null && s.builds_left !== undefined) lines.push(`Units P${s.turn_player} may still build this turn: ${s.builds_left}`);
  if (s.active) lines.push(`Active: ${s.active}`);
  if (s.asked && !v.human) lines.push(s.asked);
  if (v.last) lines.push(`Last: ${v.last.text}`);
  if (v.kind === "live") lines.push(`Seed ${v.seed} · ${v.decisions_made} decisions`);
  $("status").replaceChildren(...lines.map((t) => el("div", {}, t)));
  $("players-panel").replaceChildren(...v.players.map((p) => {
    const row = el("div", { class: "player" + (p.seat === s.to_act ? " to-act" : "") });
    row.append(el("span", { class: "swatch", style: `background:${p.colour}` }));
    row.append(el("b", {}, `P${p.seat} ${p.agent}`));
    row.append(el("span", { class: "purse", "data-seat": p.seat }, ` gold ${p.gold} · silver ${p.silver} · tokens ${p.tokens}`));
    row.append(el("div", { class: "pieces" }, p.pieces));
    return row;
  }));
  const yours = $("yours");
  yours.hidden = !v.human;
  if (v.human) {
    $("asked").textContent = s.asked || (v.decisions.some((d) => d.cell >= 0) ? "Click a highlighted hex." : "");
    const globals = v.decisions.filter((d) => d.cell < 0);
    $("global-decisions").replaceChildren(...globals.map((d) => {
      const b = el("button", { "data-action": d.action, "data-command": d.command }, label(d));
      b.addEventListener("click", () => decide(d.action));
      return b;
    }));
    $("decision-list").replaceChildren(...v.decisions.map((d) => {
      const b = el("button", { "data-action": d.action }, label(d));
      b.addEventListener("click", () => decide(d.action));
      return b;
    }));
  }
}

function appendEvents(events) {
  const list = $("events");
  for (const e of events) {
    const li = el("li", { value: e.i + 1, class: `p${e.player}` + (e.event === "turn" ? " turn" : "") }, e.text);
    list.append(li);
  }
  while (list.children.length > 400) list.firstChild.remove();
  for (const li of list.children) li.classList.toggle("news", S.mode === "play" && li.value > S.newsFrom);
  list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------------ replay
async function showReplayOpen(id) {
  $("replay-open").hidden = false;
  const files = await api("GET", "/api/files");
  $("folder-files").hidden = files.files.length === 0;
  $("files").replaceChildren(...files.files.map((f, i) => el("option", { value: i }, `${files.folders[f.folder]}/${f.file}`)));
  $("files").dataset.list = JSON.stringify(files.files);
  if (id) showGames(await api("GET", `/api/replays/${id}`));
  else $("games").hidden = true;
}

function showGames(data) {
  $("games").hidden = false;
  $("games-title").textContent = `${data.name}: ${data.games.length} game${data.games.length === 1 ? "" : "s"} (click one)`;
  $("games-table").tBodies[0].replaceChildren(...data.games.map((g) => {
    const row = el("tr", { "data-game": g.game });
    for (const t of [g.game, g.seats.join(", "), g.tokens.join(" : "), g.truncated ? "cut off" : g.winners.map((w) => `P${w}`).join(", "), g.decisions]) row.append(el("td", {}, String(t)));
    row.addEventListener("click", () => { location.hash = `replay/${data.id}/${g.game}/0`; });
    return row;
  }));
}

async function opened(data) {
  say("");
  location.hash = `replay/${data.id}`;
}

async function upload() {
  const file = $("upload").files[0];
  if (!file) return;
  say(`reading ${file.name} ...`, false);
  await guarded(async () => opened(await api("POST", `/api/replays/upload?name=${encodeURIComponent(file.name)}`, undefined, file)));
  $("upload").value = "";
}

async function openReplayGame(id, game, frame) {
  const r = S.replay;
  if (!r || r.id !== id || r.game !== game) {
    say("rebuilding the game ...", false);
    const summary = await api("GET", `/api/replays/${id}/games/${game}`);
    say("");
    S.replay = { id, game, ...summary };
    $("events").replaceChildren();
    showGame(summary.board);
    $("frame").max = summary.frames;
    $("turn").replaceChildren(...summary.turns.map((t) => el("option", { value: t.frame }, `${t.turn}: ${t.label}`)));
  } else showGame(S.board);
  $("after-game").hidden = true;
  await showFrame(frame);
}

async function showFrame(frame) {
  // clicks may come faster than the answers: the newest wanted frame wins, older answers are dropped
  const r = S.replay;
  frame = Math.max(0, Math.min(r.frames, frame));
  r.frame = frame;
  const v = await api("GET", `/api/replays/${r.id}/games/${r.game}/frames/${frame}`);
  if (S.replay !== r || r.frame !== frame) return;
  v.seats = r.seats;
  S.view = v;
  history.replaceState(null, "", `#replay/${r.id}/${r.game}/${frame}`);
  drawState(v);
  drawPanel(v);
  $("frame").value = frame;
  $("frame-label").textContent = `decision ${frame} / ${r.frames}`;
  const turn = [...r.turns].reverse().find((t) => t.frame <= frame);
  if (turn) $("turn").value = turn.frame;
  const list = $("events");
  list.replaceChildren();
  if (v.last) list.append(el("li", { value: frame, class: "decision" }, v.last.text));
  for (const e of v.events) list.append(el("li", { value: e.i + 1, class: `p${e.player}` }, e.text));
  if (!v.last) list.append(el("li", {}, "the start: step forward to see the first decision"));
}

// ------------------------------------------------------------------ wiring
async function init() {
  $("coords").checked = localStorage.getItem("vigtavl-coords") === "1";
  $("speed").value = localStorage.getItem("vigtavl-speed") || "500";
  $("coords").addEventListener("change", showCoords);
  $("speed").addEventListener("change", () => { localStorage.setItem("vigtavl-speed", $("speed").value); schedule(); });
  $("players").addEventListener("change", fillSeats);
  $("seat").addEventListener("change", () => { fillSeats(); });
  $("setup-form").addEventListener("submit", startGame);
  $("pause").addEventListener("click", () => { S.paused = !S.paused; $("pause").textContent = S.paused ? "Resume" : "Pause"; schedule(); });
  $("step").addEventListener("click", () => { clearTimeout(S.timer); if (S.view && !S.view.human) advance(); });
  $("upload").addEventListener("change", upload);
  $("open-file").addEventListener("click", () => guarded(async () => {
    const f = JSON.parse($("files").dataset.list)[+$("files").value];
    opened(await api("POST", "/api/replays", f));
  }));
  const step = (d) => S.replay && guarded(() => showFrame(S.replay.frame + d));
  $("first").addEventListener("click", () => S.replay && guarded(() => showFrame(0)));
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => S.replay && guarded(() => showFrame(S.replay.frames)));
  $("frame").addEventListener("change", () => guarded(() => showFrame(+$("frame").value)));
  $("turn").addEventListener("change", () => guarded(() => showFrame(+$("turn").value)));
  $("to-games").addEventListener("click", () => { location.hash = `replay/${S.replay.id}`; });
  $("replay-this").addEventListener("click", () => guarded(async () => {
    const data = await api("POST", `/api/games/${S.gameId}/replay`);
    location.hash = `replay/${data.id}/${data.games[0].game}/0`;
  }));
  $("new-game").addEventListener("click", () => { location.hash = S.mode; });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeMenu();
    if (S.mode === "replay" && !$("game").hidden && e.target.tagName !== "INPUT") {
      if (e.key === "ArrowRight") step(1);
      if (e.key === "ArrowLeft") step(-1);
    }
  });
  document.addEventListener("click", (e) => {
    if (!$("hex-menu").contains(e.target) && !(e.target.classList && e.target.classList.contains("hex"))) closeMenu();
  });
  window.addEventListener("hashchange", route);
  try { S.meta = await api("GET", "/api/meta"); } catch (e) { return say(e.message); }
  $("agent-specs").replaceChildren(...S.meta.agents.map((a) => el("option", { value: a.spec }, a.about)));
  route();
}

init();
