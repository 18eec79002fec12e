// Any game besides Vigtavl (webapp/any_routes.py), played (#play/GAME/ID), watched
// (#watch/GAME/ID) or replayed (#replay/GAME/REPLAY/FRAME): the game's board module draws the
// seat's view (board-thrones.js; board-generic.js for a game without one), the panel lists the
// decisions, the chance events (coins) and the moves. The server words only what the seat may
// read: another seat's hidden decisions come without words. Its state object, anyGame, is its own.

import { callServer, clearMessage, postToGame, showError, showingErrors } from "./api.js";
import * as generic from "./board-generic.js";
import * as thrones from "./board-thrones.js";
import { byId, decisionButton, element } from "./dom.js";

const BOARDS = { thrones };
const SPEED_KEY = "vigtavl-speed";
const COINS_SHOWN = 6;

const anyGame = {
  mode: "play",   // "play", "watch" or "replay"
  game: "",       // the game's name
  id: null,       // the live game's or the replay's id; null once the page left it
  view: null,     // the server's latest answer
  moves: [],      // every move so far (live), each with its chance events
  busy: false,    // a request is on its way: one at a time
  paused: false,
  timer: null,
  frame: 0,       // replay: the frame shown, of `frames`
  frames: 1,
};

/** The latest view, for the browser tests and the console (read it only). */
export function anyView() {
  return anyGame.view;
}

function boardOf(game) {
  return BOARDS[game] || generic;
}

function enter(mode, game, id) {
  anyGame.mode = mode;
  anyGame.game = game;
  anyGame.id = id;
  anyGame.moves = [];
  byId("any-game").hidden = false;
  byId("any-after").hidden = true;
  document.body.dataset.view = mode === "replay" ? "replay" : "live";
  boardOf(game).drawLegend(byId("any-legend"));
}

/** Opens live game `id` of `game`; throws the server's refusal for the caller to show. */
export async function openAnyGame(mode, game, id) {
  const view = await callServer("GET", `/api/play/${id}?since=0`);
  enter(mode, game, id);
  anyGame.paused = false;
  byId("any-pause").textContent = "Pause";
  update(view);
}

/** Opens frame `frame` of replay `id`, seen by the seat chosen (the person's, if one played). */
export async function openAnyReplay(game, id, frame) {
  const first = anyGame.id !== id;
  const seat = first ? "" : byId("any-seat").value;
  const view = await callServer("GET", `/api/play-replays/${id}/frames/${frame}${seat === "" ? "" : `?seat=${seat}`}`);
  if (first) {
    enter("replay", game, id);
    anyGame.frame = frame;
    byId("any-seat").replaceChildren(element("option", { value: "" }, "a spectator"),
                                     ...view.seats.map((spec, i) => element("option", { value: i }, `P${i} (${spec})`)));
    if (view.human !== null) {  // the person's own view of the game, at first
      byId("any-seat").value = view.human;
      return openAnyReplay(game, id, frame);
    }
  }
  if (!first && anyGame.frame !== frame) return;  // a later step was asked meanwhile: its answer draws
  anyGame.frame = frame;
  anyGame.frames = view.frames;
  byId("any-frame").max = view.frames - 1;
  byId("any-frame").value = frame;
  byId("any-frame-label").textContent = `decision ${frame} of ${view.frames - 1}`;
  history.replaceState(null, "", `#replay/${game}/${id}/${frame}`);
  anyGame.view = view;
  draw(view, view.moves, null);
}

/** The page goes elsewhere: no more agent decisions, and answers on their way are dropped. */
export function leaveAnyGame() {
  clearTimeout(anyGame.timer);
  anyGame.id = null;
  byId("any-menu").hidden = true;
}

function update(view) {
  const other = (move) => move.seat >= 0 && move.seat !== view.viewer;
  if (anyGame.moves.some((move) => other(move) && move.text === null) && view.moves.some((move) => other(move) && move.text !== null)) {
    reload();  // the secrets were revealed: the hidden decisions listed before now read in words
    return;
  }
  anyGame.view = view;
  anyGame.moves.push(...view.moves.filter((move) => move.n >= anyGame.moves.length));
  document.body.dataset.turn = view.over ? "over" : view.decisions.length ? "you" : "agent";
  document.body.dataset.decisions = view.decisions_made;
  draw(view, anyGame.moves, view.decisions.length ? decide : null);
  byId("any-after").hidden = !view.over;
  schedule();
}

async function reload() {
  const id = anyGame.id;
  try {
    const view = await callServer("GET", `/api/play/${id}?since=0`);
    if (id !== anyGame.id) return;
    anyGame.moves = [];
    update(view);
  } catch (error) { showError(error.message); }
}

function seatWords(view, seat) {
  return seat < 0 ? "" : `P${seat} (${view.seats[seat]})`;
}

function draw(view, moves, onDecide) {
  const board = boardOf(view.game);
  byId("any-title").textContent = `${view.title}: ${view.seats.map((spec, i) => `P${i} ${spec}`).join(" vs ")}`;
  byId("any-menu").hidden = true;
  board.drawBoard(byId("any-board"), { ...view, decisions: onDecide ? view.decisions : [] }, openMenu);
  const who = view.over ? `over: ${view.winners.length ? `won by ${view.winners.map((s) => seatWords(view, s)).join(", ")}` : "no winner"}`
    : `${seatWords(view, view.to_act)} decides${view.interrupt ? ` (${view.interrupt})` : ""}${onDecide ? ": you" : ""}`;
  const seen = view.viewer === null ? "seen by a spectator" : `seen by P${view.viewer}`;
  byId("any-status").replaceChildren(element("div", {}, who), element("div", { class: "small" }, [seen, board.statusOf(view)].filter(Boolean).join("; ")));
  const chance = moves.flatMap((move) => move.chance.map((event) => ({ move, event }))).slice(-COINS_SHOWN).reverse();
  byId("any-coins").replaceChildren(...chance.map(({ move, event }) => {
    const { text, coin } = board.describeChance(event, view.seats);
    const row = element("div", { class: `coin-row ${coin}`, "data-coin": coin });
    row.append(element("span", { class: `coin ${coin}` }, coin === "pass" ? "\u2713" : coin === "fail" ? "\u2717" : "\u25CF"),
               element("span", {}, ` ${text} (decision ${move.n})`));
    return row;
  }));
  byId("any-yours").hidden = !onDecide;
  // shown openly: the decisions that name no cell, and all of them when they name one cell (a tile's type)
  const cells = new Set(view.decisions.map((d) => board.cellOf(d.text)));
  const plain = cells.size === 1 && !cells.has(null) ? view.decisions : view.decisions.filter((d) => !board.cellOf(d.text));
  const all = element("details", { id: "any-all" });
  all.append(element("summary", {}, `every legal decision (${view.decisions.length})`),
             ...view.decisions.map((d) => decisionButton(d, decide)));
  byId("any-decisions").replaceChildren(...plain.map((d) => decisionButton(d, decide)), ...(onDecide ? [all] : []));
  byId("any-moves").replaceChildren(...moves.map((move) => {
    const li = element("li", { "data-n": move.n },
                       move.seat < 0 ? move.text : `${seatWords(view, move.seat)}: ${move.text ?? "decided (hidden from this seat)"}`);
    if (move.chance.length) {
      const ul = element("ul");
      ul.append(...move.chance.map((event) => element("li", {}, board.describeChance(event, view.seats).text)));
      li.append(ul);
    }
    return li;
  }));
  byId("any-moves").lastElementChild?.scrollIntoView({ block: "nearest" });
}

// A clicked cell: its one decision at once, or a menu of its decisions beside the click.
function openMenu(cell, decisions, event) {
  if (!anyGame.view || !anyGame.view.decisions.length) return;
  if (decisions.length === 1) { decide(decisions[0].action); return; }
  const menu = byId("any-menu");
  menu.replaceChildren(element("div", { class: "menu-title" }, cell),
                       ...decisions.map((d) => decisionButton(d, decide)));
  const wrap = byId("any-board-wrap").getBoundingClientRect();
  menu.style.left = `${Math.min(event.clientX - wrap.left, wrap.width - 200)}px`;
  menu.style.top = `${event.clientY - wrap.top + 8}px`;
  menu.hidden = false;
}

function schedule() {
  clearTimeout(anyGame.timer);
  const view = anyGame.view;
  if (!anyGame.id || !view || anyGame.busy || view.over || view.decisions.length || anyGame.paused) return;
  anyGame.timer = setTimeout(advance, +(localStorage.getItem(SPEED_KEY) || 500));
}

function post(action, body) {
  return postToGame(anyGame, "/api/play", action, body);
}

async function advance() {
  const view = await post("advance");
  if (view) update(view);
}

async function decide(action) {
  byId("any-menu").hidden = true;
  if (!anyGame.view || !anyGame.view.decisions.length) return;
  const view = await post("decide", { action });
  if (view) { clearMessage(); update(view); }
}

function stepFrame(delta) {
  const frame = Math.max(0, Math.min(anyGame.frames - 1, anyGame.frame + delta));
  anyGame.frame = frame;  // the frame asked for: quick steps count from it
  showingErrors(() => openAnyReplay(anyGame.game, anyGame.id, frame));
}

export function wireAnyGame() {
  byId("any-pause").addEventListener("click", () => {
    anyGame.paused = !anyGame.paused;
    byId("any-pause").textContent = anyGame.paused ? "Resume" : "Pause";
    schedule();
  });
  byId("any-step").addEventListener("click", () => { clearTimeout(anyGame.timer); if (anyGame.view && !anyGame.view.decisions.length) advance(); });
  byId("any-replay").addEventListener("click", () => showingErrors(async () => {
    const replay = await callServer("POST", `/api/play/${anyGame.id}/replay`);
    location.hash = `replay/${anyGame.game}/${replay.id}/0`;
  }));
  byId("any-new").addEventListener("click", () => { location.hash = anyGame.mode === "watch" ? "watch" : "play"; });
  byId("any-first").addEventListener("click", () => stepFrame(-Infinity));
  byId("any-back").addEventListener("click", () => stepFrame(-1));
  byId("any-forward").addEventListener("click", () => stepFrame(1));
  byId("any-last").addEventListener("click", () => stepFrame(Infinity));
  byId("any-frame").addEventListener("change", () => stepFrame(+byId("any-frame").value - anyGame.frame));
  byId("any-seat").addEventListener("change", () => stepFrame(0));
  document.addEventListener("click", (event) => {
    if (!byId("any-menu").contains(event.target) && !event.target.closest?.(".cell")) byId("any-menu").hidden = true;
  });
}
