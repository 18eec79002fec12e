// The pieces' pictures: one small drawing per unit, development and artillery (SVG path data in a
// box from -10 to 10), drawn white on the owner's colour; and the legend beside the board, made from
// the same drawings, so the two never disagree. The names are the engine's (UNIT_NAMES, DEV_NAMES).
// Each drawing's comment says what it shows: docs/how-to-play.md's picture key uses those words
// (tests/test_howto_doc.py checks it).

import { element } from "./dom.js";

const GLYPHS = {
  soldier: "M0 -8 L0 4 M-4.5 1.5 L4.5 1.5 M0 4 L0 8",                                      // a sword
  archer: "M-3 -8 Q7 0 -3 8 M-3 -8 L-3 8 M-8 0 L7 0 M4 -3 L7 0 L4 3",                      // a bow and arrow
  cavalry: "M-5 8 L-4 1 L-2 -5 L1 -8 L2 -5 L7 -1 L6 2 L2 0 L2 8 Z",                         // a horse's head
  caravel: "M-8 2 L8 2 L5 7 L-5 7 Z M0 2 L0 -8 M0 -8 L6 0 L0 0",                           // one sail
  freighter: "M-9 1 L9 1 L6 7 L-6 7 Z M-6 1 L-6 -5 L6 -5 L6 1 M-2 -5 L-2 1 M2 -5 L2 1",    // a hull with cargo
  galleon: "M-8 2 L8 2 L5 7 L-5 7 Z M-3 2 L-3 -8 M4 2 L4 -7 M-7 -7 L0 -7 L0 -1 L-7 -1 Z M1 -6 L7 -6 L7 -1 L1 -1 Z",  // two masts with sails
  camp: "M-8 7 L0 -7 L8 7 Z M0 7 L0 1",                                                     // a tent
  fort: "M-6 8 V-7 H-3 V-4 H-1 V-7 H1 V-4 H3 V-7 H6 V8 Z M-2 8 V3 H2 V8",                   // a tower
  castle: "M-9 8 V-8 H-6 V-6 H-4 V-8 H-2 V-3 H2 V-8 H4 V-6 H6 V-8 H9 V8 Z M-2 8 V2 H2 V8",   // two towers, a wall
  artillery: "M-8 3 L6 -5 L7 -3 L-7 5 Z M-4 5 m-3 0 a3 3 0 1 0 6 0 a3 3 0 1 0 -6 0",       // a cannon
  prisoner: "M-4 -6 V6 M0 -6 V6 M4 -6 V6 M-6 -6 H6 M-6 6 H6",                               // bars
};
const FILLED = new Set(["cavalry", "camp", "fort", "castle", "artillery"]);

export const UNIT_KINDS = ["soldier", "archer", "cavalry", "caravel", "freighter", "galleon"];
export const DEVELOPMENT_KINDS = ["camp", "fort", "castle"];

/** The drawing of `name` at (x, y), `size` pixels across; laid on its side when `spent`. */
export function glyph(name, x, y, size, spent = false) {
  const scale = size / 20;
  const turn = spent ? " rotate(90)" : "";
  return element("path", { d: GLYPHS[name] || GLYPHS.soldier, class: "glyph" + (FILLED.has(name) ? " filled" : ""),
                           transform: `translate(${x} ${y}) scale(${scale})${turn}` });
}

function legendItem(name, shape, words) {
  const svg = element("svg", { viewBox: "-12 -12 24 24", width: 22, height: 22, class: `legend-icon ${shape}` });
  if (shape === "unit") svg.append(element("circle", { r: 11 }));
  else if (shape === "dev") svg.append(element("rect", { x: -11, y: -11, width: 22, height: 22 }));
  else if (shape === "artillery") svg.append(element("polygon", { points: "0,-12 12,0 0,12 -12,0" }));
  else if (shape === "prisoner") svg.append(element("rect", { x: -9, y: -9, width: 18, height: 18 }));
  svg.append(glyph(name, 0, 0, 16));
  const item = element("span", { class: "legend-item", "data-piece": name });
  item.append(svg, element("span", {}, words));
  return item;
}

/** The legend's items: every piece, then the board's marks. */
export function fillLegend(box) {
  box.replaceChildren(
    ...UNIT_KINDS.map((name) => legendItem(name, "unit", name)),
    ...DEVELOPMENT_KINDS.map((name) => legendItem(name, "dev", name)),
    legendItem("artillery", "artillery", "artillery"),
    legendItem("prisoner", "prisoner", "prisoner (rim: its owner)"),
    element("span", { class: "legend-item" }, "a unit on its side, ringed dark: spent this turn · dots under a freighter: its cargo"),
    element("span", { class: "legend-item mark-key legal-key" }, "yellow outline: your decisions"),
    element("span", { class: "legend-item mark-key last-key" }, "dashed: the last decision"),
    element("span", { class: "legend-item mark-key outcome-key" }, "label: what a battle did"),
    element("span", { class: "legend-item mark-key front-key" }, "orange dots on an edge: the front of an attacked hex"),
  );
}
