// Talking to the server (the JSON API of agents/web/server.py) and the header's one-line message.
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
