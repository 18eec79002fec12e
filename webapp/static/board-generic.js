// The board of a game that has no board module of its own: its public view for the seat, as a
// list of what it holds (pig's scores, pot, cards), and every decision as a button in the panel.

import { element } from "./dom.js";

/** No decision names a place on this board: every one is a button. */
export function cellOf() {
  return null;
}

function shown(value) {
  if (value === null || value === undefined) return "?";  // hidden from this seat, or none
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

export function drawBoard(root, view) {
  const list = element("dl", { id: "generic-board" });
  for (const [key, value] of Object.entries(view.view)) {
    list.append(element("dt", {}, key), element("dd", { "data-key": key }, shown(value)));
  }
  root.replaceChildren(list);
}

export function drawLegend(root) {
  root.replaceChildren(element("span", {}, "? is what this seat may not see"));
}

export function describeChance(event) {
  const { kind, ...rest } = event;
  const words = Object.entries(rest).map(([k, v]) => `${k} ${shown(v)}`).join(", ");
  return { text: `${kind}${words ? `: ${words}` : ""}`, coin: "toss" };
}

export function statusOf() {
  return "";
}
