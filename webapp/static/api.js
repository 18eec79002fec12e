// Talking to the server (the JSON API of webapp/server.py) and the header's one-line message.
// A call returns the server's answer, or throws an Error whose message is one line for a person:
// the server's own {"error": ...} when it refused. showingErrors puts such a line in #message.

import { byId } from "./dom.js";

async function request(method, url, options) {
  let response;
  try {
    response = await fetch(url, { method, ...options });
  } catch (error) {
    throw new Error("the server does not answer: is vigtavl serve still running?");
  }
  let answer = null;
  try { answer = await response.json(); } catch (error) { answer = null; }
  if (!response.ok) throw new Error((answer && answer.error) || `the server answered ${response.status}`);
  return answer;
}

/** A request to the API; `body`, when given, is sent as JSON. */
export function callServer(method, url, body) {
  if (body === undefined) return request(method, url, { headers: {} });
  return request(method, url, { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
}

/** A live game's POST (`path` after its address: "advance", "decide"), one at a time: `game.busy`
 * guards it, the moves from `game.moves.length` on are asked for, and the answer is dropped (null)
 * if the page left the game (`game.id` changed) meanwhile; a refusal is shown, and null returned. */
export async function postToGame(game, base, path, body) {
  if (game.busy || !game.id) return null;
  game.busy = true;
  const id = game.id;
  try {
    const view = await callServer("POST", `${base}/${id}/${path}?since=${game.moves.length}`, body);
    return id === game.id ? view : null;
  } catch (error) {
    showError(error.message);
    return null;
  } finally {
    game.busy = false;
  }
}

/** A file the person chose, POSTed as the request's body. */
export function sendFile(url, file) {
  return request("POST", url, { body: file, headers: {} });
}

function setMessage(text, kind) {
  const message = byId("message");
  message.textContent = text;
  message.className = kind;
  message.hidden = !text;
}

export function showError(text) { setMessage(text, "error"); }
export function showProgress(text) { setMessage(text, "info"); }
export function clearMessage() { setMessage("", "error"); }

/** Runs `work`, showing what it throws as the one-line message. */
export async function showingErrors(work) {
  try { await work(); } catch (error) { showError(error.message); }
}
