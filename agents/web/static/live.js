// A live game, played (#play/ID) or watched (#watch/ID): it loads the game's view, asks the server
// for the agents' decisions one at a time at the chosen speed (pause, step), sends the person's
// decisions, and offers the record and a replay at the end. Its state object, liveGame, is its own.

import { callServer, clearMessage, showError, showingErrors } from "./api.js";
import { closeHexMenu, drawPosition, showBoard } from "./board.js";
import { byId } from "./dom.js";
import { appendEvents, clearEvents, drawPanel } from "./panel.js";

const SPEED_KEY = "vigtavl-speed";

const liveGame = {
  mode: "play",    // "play" or "watch": the tab it was opened from
  id: null,        // the server's game id; null once the page left the game
  view: null,      // the server's latest view of it
  eventsSeen: 0,   // how many of its events the list holds (the next request asks for those after)
  newsFrom: 0,     // events numbered past this came after the person's last decision
  paused: false,   // watching: no agent decision is asked for until Resume or Step
  busy: false,     // a request is on its way: one at a time
  timer: null,     // the next agent decision, asked for after the speed's delay
};

/** The latest view of the live game, for the browser tests and the console (read it only). */
export function liveView() {
  return liveGame.view;
}

/** Opens game `id` in `mode`; throws the server's refusal (no such game) for the caller to show. */
export async function openLiveGame(mode, id) {
  const view = await callServer("GET", `/api/games/${id}?board=1&since=0`);
  liveGame.mode = mode;
  liveGame.id = id;
  liveGame.paused = mode === "watch" && liveGame.paused;
  showPauseLabel();
  clearEvents();
  liveGame.eventsSeen = 0;
  liveGame.newsFrom = 0;
  showBoard(view.board, "live");
  byId("after-game").hidden = true;
  update(view);
}

/** The page goes elsewhere: no more agent decisions, and answers still on their way are dropped. */
export function leaveLiveGame() {
  clearTimeout(liveGame.timer);
  liveGame.id = null;
}

function update(view) {
  liveGame.view = view;
  const status = view.status;
  // for people and tests alike: who decides now, and how many decisions were made
  document.body.dataset.turn = status.over || status.truncated ? "over" : view.human ? "you" : "agent";
  document.body.dataset.decisions = view.decisions_made;
  if (view.events) appendEvents(view.events, liveGame.mode === "play" ? liveGame.newsFrom : Infinity);
  if (view.events_total !== undefined) liveGame.eventsSeen = view.events_total;
  const onDecide = view.human ? decide : null;
  drawPosition(view, onDecide);
  drawPanel(view, onDecide);
  schedule();
}

function schedule() {
  clearTimeout(liveGame.timer);
  const view = liveGame.view;
  if (!liveGame.id || !view || liveGame.busy) return;
  if (view.status.over || view.status.truncated) { showAfterGame(); return; }
  if (view.human || liveGame.paused) return;
  liveGame.timer = setTimeout(advance, +byId("speed").value);
}

// One request at a time; the answer is dropped if the page left the game meanwhile.
async function post(action, body) {
  if (liveGame.busy || !liveGame.id) return null;
  liveGame.busy = true;
  const id = liveGame.id;
  try {
    const view = await callServer("POST", `/api/games/${id}/${action}?since=${liveGame.eventsSeen}`, body);
    return id === liveGame.id ? view : null;
  } catch (error) {
    showError(error.message);
    return null;
  } finally {
    liveGame.busy = false;
  }
}

async function advance() {
  const view = await post("advance");
  if (view) update(view);
}

async function decide(action) {
  closeHexMenu();
  if (liveGame.busy || !liveGame.view || !liveGame.view.human) return;
  liveGame.newsFrom = liveGame.eventsSeen;
  const view = await post("decide", { action });
  if (view) { clearMessage(); update(view); }
}

function showAfterGame() {
  byId("after-game").hidden = false;
  byId("download").href = `/api/games/${liveGame.id}/record`;
  byId("download").setAttribute("download", `vigtavl-${liveGame.id}.json`);
}

function showPauseLabel() {
  byId("pause").textContent = liveGame.paused ? "Resume" : "Pause";
}

export function wireLive() {
  byId("speed").value = localStorage.getItem(SPEED_KEY) || "500";
  byId("speed").addEventListener("change", () => { localStorage.setItem(SPEED_KEY, byId("speed").value); schedule(); });
  byId("pause").addEventListener("click", () => { liveGame.paused = !liveGame.paused; showPauseLabel(); schedule(); });
  byId("step").addEventListener("click", () => {
    clearTimeout(liveGame.timer);
    if (liveGame.view && !liveGame.view.human) advance();
  });
  byId("replay-this").addEventListener("click", () => showingErrors(async () => {
    const replay = await callServer("POST", `/api/games/${liveGame.id}/replay`);
    location.hash = `replay/${replay.id}/${replay.games[0].game}/0`;
  }));
  byId("new-game").addEventListener("click", () => { location.hash = liveGame.mode; });
}
