// Replays (#replay, #replay/FILE, #replay/FILE/GAME/FRAME): opening a results file (uploaded, or
// from the server's folders), its table of games (sorted by a click on a column's head), and a game
// stepped through frame by frame (the board after each decision, its battles and their outcomes),
// with the move list beside it: a click on a decision jumps there; Analyse shows, for the frame
// shown, what the strongest agent would decide and its estimate of the game for the player to
// move, as a live game's hint. Its state object, replayState,
// is its own: the file's games and the game shown.

import { callServer, clearMessage, sendFile, showError, showingErrors, showProgress } from "./api.js";
import { drawHint, drawOutcomes, drawPosition, showBoard } from "./board.js";
import { byId, element } from "./dom.js";
import { appendMoves, clearMoves, drawAdvice, drawBattles, drawPanel, markMove } from "./panel.js";

const replayState = {
  // the game shown: {id (the file's), game, frames, turns, seats, seed, board, moves, frame}; a new
  // object per game, so that an answer for a game no longer shown is recognised and dropped
  shown: null,
  opened: null,                           // the results file whose games the table lists
  sort: { key: "game", descending: false },  // the table's order
};

// what a column sorts by: a number or a string per game (the winner: the first winner's seat, cut off last)
const SORT_KEYS = {
  game: (game) => game.game,
  tokens: (game) => Math.max(...game.tokens),
  winners: (game) => (game.truncated || !game.winners.length ? 99 : game.winners[0]),
  decisions: (game) => game.decisions,
  seed: (game) => game.seed,
};

/** The open-a-file section, with the games of file `fileId` when given. */
export async function showReplayOpen(fileId) {
  byId("replay-open").hidden = false;
  const listing = await callServer("GET", "/api/files");
  const files = byId("files");
  byId("folder-files").hidden = listing.files.length === 0;
  files.replaceChildren(...listing.files.map((file, i) => element("option", { value: i }, `${listing.folders[file.folder]}/${file.file}`)));
  files.dataset.list = JSON.stringify(listing.files);
  if (fileId) showGames(await callServer("GET", `/api/replays/${fileId}`));
  else byId("games").hidden = true;
}

function showGames(opened) {
  replayState.opened = opened;
  const count = opened.games.length;
  byId("games").hidden = false;
  byId("games-title").textContent = `${opened.name}: ${count} game${count === 1 ? "" : "s"} (click one; click a column's head to sort)`;
  const { key, descending } = replayState.sort;
  const value = SORT_KEYS[key];
  const games = [...opened.games].sort((a, b) => (value(a) - value(b) || a.game - b.game) * (descending ? -1 : 1));
  for (const head of byId("games-table").tHead.querySelectorAll("th[data-sort]")) {
    head.dataset.order = head.dataset.sort === key ? (descending ? "descending" : "ascending") : "";
  }
  byId("games-table").tBodies[0].replaceChildren(...games.map((game) => {
    const row = element("tr", { "data-game": game.game });
    const winners = game.truncated ? "cut off" : game.winners.map((seat) => `P${seat}`).join(", ");
    const seats = game.seats.map((spec, seat) => `P${seat} ${spec}`).join(", ");
    for (const cell of [game.game, seats, game.tokens.join(" : "), winners, game.decisions, game.seed]) {
      row.append(element("td", {}, String(cell)));
    }
    row.addEventListener("click", () => { location.hash = `replay/${opened.id}/${game.game}/0`; });
    return row;
  }));
}

function sortGames(key) {
  const sort = replayState.sort;
  replayState.sort = { key, descending: sort.key === key && !sort.descending };
  if (replayState.opened) showGames(replayState.opened);
}

function showOpened(opened) {
  clearMessage();
  location.hash = `replay/${opened.id}`;
}

async function upload() {
  const file = byId("upload").files[0];
  if (!file) return;
  showProgress(`reading ${file.name} ...`);
  await showingErrors(async () => showOpened(await sendFile(`/api/replays/upload?name=${encodeURIComponent(file.name)}`, file)));
  byId("upload").value = "";
}

/** Shows frame `frame` of game `game` in file `fileId`, rebuilding the game first if another. */
export async function openReplayGame(fileId, game, frame) {
  const shown = replayState.shown;
  if (!shown || shown.id !== fileId || shown.game !== game) {
    showProgress("rebuilding the game ...");
    const summary = await callServer("GET", `/api/replays/${fileId}/games/${game}`);
    clearMessage();
    replayState.shown = { id: fileId, game, ...summary };
    clearMoves();
    appendMoves(summary.moves, Infinity, (n) => goToFrame(() => n));
    byId("frame").max = summary.frames;
    // the game's one count of turns, in the move list's words ("turn 5/8: P0, battle phase, round 1/2")
    byId("turn").replaceChildren(...summary.turns.map((turn) => element("option", { value: turn.frame }, turn.label)));
  }
  showBoard(replayState.shown.board, "replay");
  byId("picked").hidden = true;
  byId("after-game").hidden = true;
  await showFrame(frame);
}

// Clicks may come faster than the answers: the newest frame asked for wins, older answers are dropped.
async function showFrame(frame) {
  const shown = replayState.shown;
  frame = Math.max(0, Math.min(shown.frames, frame));
  shown.frame = frame;
  const view = await callServer("GET", `/api/replays/${shown.id}/games/${shown.game}/frames/${frame}`);
  if (replayState.shown !== shown || shown.frame !== frame) return;
  view.seats = shown.seats;
  view.seed = shown.seed;
  history.replaceState(null, "", `#replay/${shown.id}/${shown.game}/${frame}`);
  drawPosition(view, null);  // a frame's analysis is for that frame: the board's is cleared, the box hidden
  drawPanel(view, null);
  byId("hint").hidden = true;
  byId("analyse-button").hidden = view.status.over;  // no decision to analyse
  const move = frame ? shown.moves[frame] : null;
  drawOutcomes(move);
  drawBattles(move ? [move] : [], shown.seats, shown.board.player_colours);
  markMove(frame);
  byId("frame").value = frame;
  byId("frame-label").textContent = `decision ${frame} / ${shown.frames}`;
  const turn = [...shown.turns].reverse().find((t) => t.frame <= frame);
  if (turn) byId("turn").value = turn.frame;
}

// The strongest agent's choices at the frame shown and its estimate for the player to move; an
// answer for a frame no longer shown is dropped.
async function analyse() {
  const shown = replayState.shown;
  if (!shown) return;
  const frame = shown.frame;
  byId("analyse-button").disabled = true;
  try {
    const hint = await callServer("GET", `/api/replays/${shown.id}/games/${shown.game}/frames/${frame}/analysis`);
    if (replayState.shown !== shown || shown.frame !== frame) return;
    drawHint(hint);
    drawAdvice(hint, shown.board.player_colours[hint.seat], null, `P${hint.seat} (${shown.seats[hint.seat]})`);
  } catch (error) {
    showError(error.message);
  } finally {
    byId("analyse-button").disabled = false;
  }
}

function goToFrame(frameOf) {
  const shown = replayState.shown;
  if (shown) showingErrors(() => showFrame(frameOf(shown)));
}

/** Steps `delta` decisions forward (or back) in the game shown. */
export function stepFrames(delta) {
  goToFrame((shown) => shown.frame + delta);
}

export function wireReplay() {
  byId("upload").addEventListener("change", upload);
  for (const head of byId("games-table").tHead.querySelectorAll("th[data-sort]")) {
    head.addEventListener("click", () => sortGames(head.dataset.sort));
  }
  byId("open-file").addEventListener("click", () => showingErrors(async () => {
    const file = JSON.parse(byId("files").dataset.list)[+byId("files").value];
    showOpened(await callServer("POST", "/api/replays", file));
  }));
  byId("first").addEventListener("click", () => goToFrame(() => 0));
  byId("back").addEventListener("click", () => stepFrames(-1));
  byId("forward").addEventListener("click", () => stepFrames(1));
  byId("last").addEventListener("click", () => goToFrame((shown) => shown.frames));
  byId("frame").addEventListener("change", () => goToFrame(() => +byId("frame").value));
  byId("turn").addEventListener("change", () => goToFrame(() => +byId("turn").value));
  byId("to-games").addEventListener("click", () => { location.hash = `replay/${replayState.shown.id}`; });
  byId("analyse-button").addEventListener("click", analyse);
}
