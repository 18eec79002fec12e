// The set-up of a new live game (#setup): the game, player count, map, the person's seat (play)
// and each seat's agent; Start asks the server for the game and goes to its address (#play/ID,
// #watch/ID; another game than Vigtavl: #play/thrones/ID, through /api/play).
// Its state object, setupForm, holds the tab it serves and what the server offers.

import { callServer, clearMessage, showError, showProgress } from "./api.js";
import { byId, element } from "./dom.js";

const WATCHED_AGENTS = ["greedy", "aggressor", "builder", "random"];  // the default seats when watching

const setupForm = {
  mode: "play",  // "play" (one seat is the person's) or "watch"
  maps: [],      // the server's maps: {name, players}
  games: {},     // the server's games by name: {title, min_players, max_players, agents}
  agents: [],    // Vigtavl's agents (the menu of GET /api/meta)
  seatsOf: "vigtavl",  // the game the seats' specs were written for
};

function chosenGame() {
  return byId("game-name").value || "vigtavl";
}

/** The server's choices (GET /api/meta): its maps, and its agents as suggestions for the seats. */
export function offerChoices(meta) {
  setupForm.maps = meta.maps;
  setupForm.agents = meta.agents;
  setupForm.games = Object.fromEntries(meta.games.map((game) => [game.name, game]));
  byId("game-name").replaceChildren(...["vigtavl", ...Object.keys(setupForm.games).filter((name) => name !== "vigtavl")]
    .map((name) => element("option", { value: name }, setupForm.games[name] ? setupForm.games[name].title : name)));
  offerAgents();
}

// The suggestions for the seats and the player counts, for the game chosen.
function offerAgents() {
  const name = chosenGame();
  const agents = name === "vigtavl" ? setupForm.agents : setupForm.games[name].agents;
  byId("agent-specs").replaceChildren(...agents.map((agent) => element("option", { value: agent.spec }, agent.about)));
  const game = setupForm.games[name] || { min_players: 2, max_players: 4 };
  const players = byId("players");
  const kept = +players.value;
  players.replaceChildren(...[...Array(game.max_players - game.min_players + 1).keys()]
    .map((i) => element("option", {}, String(game.min_players + i))));
  players.value = String(Math.min(Math.max(kept, game.min_players), game.max_players));
  const vigtavl = name === "vigtavl";
  byId("map-label").hidden = !vigtavl;
  byId("tools-choice").hidden = !vigtavl || setupForm.mode !== "play";
}

export function showSetup(mode) {
  if (mode !== setupForm.mode) byId("seed").value = "";  // a seed typed for playing is not one for watching
  setupForm.mode = mode;
  byId("setup").hidden = false;
  byId("setup-title").textContent = mode === "play" ? "Play against the agents" : "Watch agents play";
  byId("seat-label").hidden = mode !== "play";
  byId("tools-choice").hidden = mode !== "play" || chosenGame() !== "vigtavl";
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
    const vigtavl = chosenGame() === "vigtavl";
    const fallback = !vigtavl ? "random" : play ? "greedy" : WATCHED_AGENTS[i];
    const value = human ? "human" : (before[i] && before[i] !== "human" && setupForm.seatsOf === chosenGame() ? before[i] : fallback);
    const input = element("input", { id: `seat-${i}`, list: "agent-specs", value });
    input.readOnly = human;
    const label = element("label", {}, `P${i} `);
    label.append(input);
    box.append(label);
  }
  setupForm.seatsOf = chosenGame();  // a spec typed for one game is not one for another
}

async function startGame(event) {
  event.preventDefault();
  const players = +byId("players").value;
  const seats = [...Array(players).keys()].map((i) => byId(`seat-${i}`).value.trim());
  const seed = byId("seed").value === "" ? null : +byId("seed").value;
  byId("start").disabled = true;
  showProgress("starting the game (a network agent takes a few seconds to load) ...");
  try {
    const name = chosenGame();
    if (name !== "vigtavl") {
      const game = await callServer("POST", "/api/play", { game: name, seats, seed });
      clearMessage();
      location.hash = `${setupForm.mode}/${name}/${game.id}`;
      return;
    }
    const play = setupForm.mode === "play";
    const game = await callServer("POST", "/api/games", { seats, seed, map: byId("map").value || null,
                                                          hints: play && byId("with-hints").checked, undo: play && byId("with-undo").checked });
    clearMessage();
    location.hash = `${setupForm.mode}/${game.id}`;
  } catch (error) {
    showError(error.message);
  } finally {
    byId("start").disabled = false;
  }
}

export function wireSetup() {
  byId("game-name").addEventListener("change", () => { offerAgents(); showSetup(setupForm.mode); });
  byId("players").addEventListener("change", fillSeats);
  byId("seat").addEventListener("change", fillSeats);
  byId("setup-form").addEventListener("submit", startGame);
}
