// The page's entry (a module, loaded by index.html): the tabs and the address. The address says
// what is shown (#play, #watch, #replay, with a game or file id after a slash, and a replay's game
// and frame; another game than Vigtavl is named first: #play/thrones/ID), so a reload or a link
// shows it again; a change of address is one route().
// Each part owns what it shows: setup.js the new-game form, live.js a live game, replay.js the
// replays, board.js and panel.js the board and the panel they share, api.js the server calls.

import { callServer, clearMessage, showError, showingErrors } from "./api.js";
import { closeHexMenu, wireBoard } from "./board.js";
import { leaveAnyGame, anyView, openAnyGame, openAnyReplay, wireAnyGame } from "./anygame.js";
import { byId } from "./dom.js";
import { fillLegend } from "./glyphs.js";
import { leaveLiveGame, liveView, openLiveGame, wireLive } from "./live.js";
import { openReplayGame, showReplayOpen, stepFrames, wireReplay } from "./replay.js";
import { offerChoices, showSetup, wireSetup } from "./setup.js";

const MODES = ["play", "watch", "replay"];
const SECTIONS = ["setup", "replay-open", "game", "any-game"];
const otherGames = new Set();  // the server's games besides Vigtavl: their addresses name them (#play/thrones/ID)

/** The address read: its tab, and the ids after it. */
function addressOf(hash) {
  const [mode, ...ids] = hash.replace(/^#/, "").split("/");
  return { mode: MODES.includes(mode) ? mode : "play", ids };
}

async function route() {
  leaveLiveGame();
  leaveAnyGame();
  closeHexMenu();
  clearMessage();
  const { mode, ids: [id, game, frame] } = addressOf(location.hash);
  for (const tab of MODES) byId(`tab-${tab}`).classList.toggle("current", tab === mode);
  for (const section of SECTIONS) byId(section).hidden = true;
  document.body.dataset.mode = mode;
  if (otherGames.has(id)) {  // #play/GAME/ID, #replay/GAME/REPLAY/FRAME: here `game` is the id after the name
    if (mode === "replay") return showingErrors(() => openAnyReplay(id, game, +(frame || 0)));
    try {
      return await openAnyGame(mode, id, game);
    } catch (error) {
      showSetup(mode);
      return showError(error.message);
    }
  }
  if (mode === "replay") {
    if (id && game !== undefined) return showingErrors(() => openReplayGame(id, +game, +(frame || 0)));
    return showingErrors(() => showReplayOpen(id));
  }
  if (!id) return showSetup(mode);
  try {
    await openLiveGame(mode, id);
  } catch (error) {
    showSetup(mode);
    showError(error.message);
  }
}

function onKey(event) {
  if (event.key === "Escape") closeHexMenu();
  const replaying = addressOf(location.hash).mode === "replay" && !byId("game").hidden;
  if (replaying && event.target.tagName !== "INPUT") {
    if (event.key === "ArrowRight") stepFrames(1);
    if (event.key === "ArrowLeft") stepFrames(-1);
  }
}

async function start() {
  wireBoard();
  fillLegend(byId("legend"));
  wireSetup();
  wireLive();
  wireReplay();
  wireAnyGame();
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  // for the browser tests (tests/test_web_browser.py) and the console: the live game's latest view
  window.vigtavl = Object.freeze({ liveView, anyView });
  try {
    const meta = await callServer("GET", "/api/meta");
    offerChoices(meta);
    for (const game of meta.games) if (game.name !== "vigtavl") otherGames.add(game.name);
  } catch (error) {
    showError(error.message);
    return;
  }
  route();
}

start();
