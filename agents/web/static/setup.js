// The set-up of a new live game (#setup): player count, map, the person's seat (play) and each
// seat's agent; Start asks the server for the game and goes to its address (#play/ID, #watch/ID).
// Its state object, setupForm, holds the tab it serves and the maps the server offers.

import { callServer, clearMessage, showError, showProgress } from "./api.js";
import { byId, element } from "./dom.js";

const WATCHED_AGENTS = ["greedy", "aggressor", "builder", "random"];  // the default seats when watching

const setupForm = {
  mode: "play",  // "play" (one seat is the person's) or "watch"
  maps: [],      // the server's maps: {name, players}
};

/** The server's choices (GET /api/meta): its maps, and its agents as suggestions for the seats. */
export function offerChoices(meta) {
  setupForm.maps = meta.maps;
  byId("agent-specs").replaceChildren(...meta.agents.map((agent) => element("option", { value: agent.spec }, agent.about)));
}

export function showSetup(mode) {
  if (mode !== setupForm.mode) byId("seed").value = "";  // a seed typed for playing is not one for watching
  setupForm.mode = mode;
  byId("setup").hidden = false;
  byId("setup-title").textContent = mode === "play" ? "Play against the agents" : "Watch agents play";
  byId("seat-label").hidden = mode !== "play";
  byId("tools-choice").hidden = mode !== "play";
  fillSeats();
}

function fillMaps(players) {
  const maps = byId("map");
  const kept = maps.value;
  maps.replaceChildren(element("option", { value: "" }, "the preset for the player count"));
  for (const map of setupForm.maps.filter((map) => map.players === players)) maps.append(element("option", { value: map.name }, map.name));
  maps.append(element("option", { value: "random" }, "random (a fresh fair map)"));
  if ([...maps.options].some((option) => option.value === kept)) maps.value = kept;
}

function fillSeats() {
  const players = +byId("players").value;
  const play = setupForm.mode === "play";
  fillMaps(players);
  const seat = byId("seat");
  const yourSeat = Math.min(+seat.value || 0, players - 1);
  seat.replaceChildren(...[...Array(players).keys()].map((i) => element("option", { value: i }, `P${i}` + (i === 0 ? " (first)" : ""))));
  seat.value = yourSeat;
  const box = byId("seats");
  const before = [...box.querySelectorAll("input")].map((input) => input.value);
  box.querySelectorAll("label").forEach((label) => label.remove());
  for (let i = 0; i < players; i++) {
    const human = play && i === yourSeat;
    const fallback = play ? "greedy" : WATCHED_AGENTS[i];
    const value = human ? "human" : (before[i] && before[i] !== "human" ? before[i] : fallback);
    const input = element("input", { id: `seat-${i}`, list: "agent-specs", value });
    input.readOnly = human;
    const label = element("label", {}, `P${i} `);
    label.append(input);
    box.append(label);
  }
}

async function startGame(event) {
  event.preventDefault();
  const players = +byId("players").value;
  const seats = [...Array(players).keys()].map((i) => byId(`seat-${i}`).value.trim());
  const seed = byId("seed").value === "" ? null : +byId("seed").value;
  byId("start").disabled = true;
  showProgress("starting the game (a network agent takes a few seconds to load) ...");
  try {
    const play = setupForm.mode === "play";
    const game = await callServer("POST", "/api/games", { seats, seed, map: byId("map").value || null,
                                                          hints: play && byId("with-hints").checked, undo: play && byId("with-undo").checked });
    clearMessage();
    location.hash = `${setupForm.mode}/${game.id}`;
  } catch (error) { showError(error.message); }
  byId("start").disabled = false;
}

export function wireSetup() {
  byId("players").addEventListener("change", fillSeats);
  byId("seat").addEventListener("change", fillSeats);
  byId("setup-form").addEventListener("submit", startGame);
}
