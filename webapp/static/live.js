// A live game, played (#play/ID) or watched (#watch/ID): it loads the game's view, asks the server
// for the agents' decisions one at a time at the chosen speed (pause, step), sends the person's
// decisions, keeps the move list (a click on a decision shows the board as it was after it: its
// hexes, battles and outcomes), asks for hints and undoes (in a game started with them), and
// offers the record and a replay at the end. Its state object, liveGame, is its own.

import { callServer, clearMessage, postToGame, showError, showingErrors } from "./api.js";
import { closeHexMenu, drawHint, drawOutcomes, drawPosition, showBoard } from "./board.js";
import { byId } from "./dom.js";
import { appendMoves, clearMoves, drawAdvice, drawBattles, drawPanel, markMove } from "./panel.js";

const SPEED_KEY = "vigtavl-speed";

const liveGame = {
  mode: "play",    // "play" or "watch": the tab it was opened from
  id: null,        // the server's game id; null once the page left the game
  view: null,      // the server's latest view of it
  board: null,     // its map's geometry and colours
  moves: [],       // every move so far: the setup, then each decision (the next request asks for those after)
  newsFrom: 0,     // decisions numbered past this came after the person's last decision
  picked: -1,      // the decision the person clicked in the move list, shown on the board; -1: now
  paused: false,   // watching: no agent decision is asked for until Resume or Step
  busy: false,     // a request is on its way: one at a time
  timer: null,     // the next agent decision, asked for after the speed's delay
  replay: null,    // the replay made of this game for showing past decisions: {game, decisions, id, number}
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
  clearMoves();
  liveGame.moves = [];
  liveGame.newsFrom = 0;
  liveGame.picked = -1;
  liveGame.replay = null;
  liveGame.board = view.board;
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
  const seen = liveGame.moves.length;
  const fresh = view.moves.filter((move) => move.n >= seen);  // numbered in order from `since`: none twice
  liveGame.moves.push(...fresh);
  appendMoves(fresh, liveGame.mode === "play" ? liveGame.newsFrom : Infinity, pick);
  const onDecide = view.human ? decide : null;
  drawPanel(view, onDecide);
  showMoves();
  byId("hint").hidden = true;
  byId("hint-button").hidden = !(view.hints && view.human);
  byId("undo-button").hidden = !view.undo;
  schedule();
}

// What the strongest agent would decide here: its choices on the board and as buttons, and its
// estimate of the game for the person.
async function askHint() {
  const view = liveGame.view;
  if (!view || !view.human || liveGame.busy) return;
  const id = liveGame.id;
  byId("hint-button").disabled = true;
  try {
    const hint = await callServer("GET", `/api/games/${id}/hint`);
    if (id !== liveGame.id || hint.decision !== liveGame.view.decisions_made) return;  // the game moved on
    drawHint(hint);
    drawAdvice(hint, liveGame.board.player_colours[hint.seat], decide, "you");
  } catch (error) {
    showError(error.message);
  } finally {
    byId("hint-button").disabled = false;
  }
}

// Takes back the person's last decision and the agents' answers since; the move list is rebuilt.
async function undo() {
  const view = await post("undo");
  if (!view) return;
  clearMessage();
  clearMoves();
  liveGame.moves = [];
  liveGame.picked = -1;
  liveGame.replay = null;  // it holds the decisions taken back
  liveGame.newsFrom = view.decisions_made;
  byId("after-game").hidden = true;
  update(view);
}

// The board shows the position now, the outcomes of the last decision that had any among those
// since the person's last (in watch, the last decision), and the battles of those decisions; or,
// when a past decision was clicked in the move list, the position right after it, as a replay's
// frame (the live game made a replay once: webapp/replays.py), with its outcomes and battles.
async function showMoves() {
  const view = liveGame.view;
  const picked = liveGame.moves[liveGame.picked];
  markMove(liveGame.picked);
  byId("picked").hidden = !picked;
  if (picked) {
    byId("picked-words").textContent = `showing the board after decision ${picked.n}: ${picked.text}`;
    const frame = await pastFrame(picked.n);
    if (!frame || liveGame.moves[liveGame.picked] !== picked) return;  // another pick, or back to now
    drawPosition({ ...frame, decisions: [] }, null);
    drawOutcomes(picked);
    drawBattles([picked], view.seats, liveGame.board.player_colours);
    return;
  }
  let moves = liveGame.moves.slice(liveGame.mode === "play" ? liveGame.newsFrom + 1 : -1);
  if (moves.length === 0) moves = liveGame.moves.slice(-1);
  drawPosition(view, view.human ? decide : null);
  drawOutcomes([...moves].reverse().find((move) => move.outcomes.length) || null);
  drawBattles(moves, view.seats, liveGame.board.player_colours);
}

// The board after decision `n`: a frame of the replay the live game made (a new one once the game
// has gone past the last one made); null if the server refused (its message is shown).
async function pastFrame(n) {
  const id = liveGame.id;
  try {
    if (!liveGame.replay || liveGame.replay.game !== id || liveGame.replay.decisions < n) {
      const replay = await callServer("POST", `/api/games/${id}/replay`);
      liveGame.replay = { game: id, decisions: replay.games[0].decisions, id: replay.id, number: replay.games[0].game };
    }
    const { id: file, number } = liveGame.replay;
    return await callServer("GET", `/api/replays/${file}/games/${number}/frames/${n}`);
  } catch (error) {
    showError(error.message);
    return null;
  }
}

/** Shows decision `n` of the move list on the board (the position after it, its battles and
 * outcomes); `n` again, or -1, goes back to now. */
function pick(n) {
  liveGame.picked = n === liveGame.picked ? -1 : n;
  showMoves();
}

function schedule() {
  clearTimeout(liveGame.timer);
  const view = liveGame.view;
  if (!liveGame.id || !view || liveGame.busy) return;
  if (view.status.over || view.status.truncated) { showAfterGame(); return; }
  if (view.human || liveGame.paused) return;
  liveGame.timer = setTimeout(advance, +byId("speed").value);
}

// One request at a time (api.js).
function post(action, body) {
  return postToGame(liveGame, "/api/games", action, body);
}

async function advance() {
  const view = await post("advance");
  if (view) update(view);
}

async function decide(action) {
  closeHexMenu();
  if (liveGame.busy || !liveGame.view || !liveGame.view.human) return;
  liveGame.newsFrom = liveGame.view.decisions_made;
  liveGame.picked = -1;
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
  byId("back-to-now").addEventListener("click", () => { if (liveGame.id) pick(-1); });
  byId("hint-button").addEventListener("click", askHint);
  byId("undo-button").addEventListener("click", undo);
}
