// Thrones' board (games/thrones, docs/thrones-rules.md), drawn from its public view for one seat
// (GET /api/play/ID): a square grid, the viewer's home at the bottom; tiles as colours with a small
// drawing, pieces as drawings on their owner's colour; what the viewer may not see yet (the
// opponent's half before the reveal) drawn as unknown. The decisions name their cell in words
// ("tile plains a4", "select e2", "move e3"); a cell named by any is clickable: one decision is
// taken at once, several open a menu. Survival checks' coins come from the chance events.

import { element } from "./dom.js";

const CELL = 48;
const EDGE = 18;  // room for the coordinates
// Each drawing in a box from -10 to 10, stroked (FILLED ones filled); the comment says what it shows.
const PIECES = {
  ranger: "M-4 -8 Q6 0 -4 8 M-4 -8 L-4 8 M-8 0 L7 0",                      // a bow and arrow
  spearman: "M0 9 L0 -6 M-3 -4 L0 -9 L3 -4 Z",                            // a spear
  crossbowman: "M-8 -3 Q0 -9 8 -3 M-8 -3 L8 -3 M0 -6 L0 8",               // a crossbow
  catapult: "M-7 6 L7 6 M-4 6 L3 -7 M1 -8 a2 2 0 1 0 4 0 a2 2 0 1 0 -4 0", // an arm and its stone
  trebuchet: "M-7 8 L0 -4 L7 8 M-8 -8 L8 0 M6 0 L6 4",                     // a frame, a long arm
  lancer: "M-8 8 L8 -8 M4 -8 L8 -8 L8 -4 M-2 -1 L-6 -5",                   // a lance with its guard
  warhorse: "M-5 8 L-4 1 L-2 -5 L1 -8 L2 -5 L7 -1 L6 2 L2 0 L2 8 Z",       // a horse's head
  elephant: "M-7 4 Q-7 -6 2 -6 Q8 -6 7 2 L7 8 M7 2 Q3 4 4 8 M-2 -2 a1 1 0 1 0 0.1 0", // a head and trunk
  dragon: "M-9 -2 L-4 -7 L-2 -2 L0 -8 L2 -2 L4 -7 L9 -2 L0 8 Z",           // spread wings
  throne: "M-7 7 L-7 -4 L-3 0 L0 -8 L3 0 L7 -4 L7 7 Z",                    // a crown
};
const FILLED = new Set(["warhorse", "dragon", "throne"]);
const TILES = {
  plains: "",                                                             // open ground
  forest: "M-6 5 L-3 -3 L0 5 Z M1 5 L4 -5 L7 5 Z",                        // two trees
  mountain: "M-8 6 L-2 -5 L2 1 L4 -2 L8 6 Z",                              // a peak
  water: "M-8 -2 Q-4 -6 0 -2 Q4 2 8 -2 M-8 4 Q-4 0 0 4 Q4 8 8 4",          // waves
  fortress: "M-7 7 V-5 H-4 V-2 H-1 V-5 H1 V-2 H4 V-5 H7 V7 Z",             // battlements
  unknown: "",
};
const SEATS = ["light", "dark"];

/** The cell a decision's words name ("tile plains a4" -> "a4"), or null (end turn, flip, ...). */
export function cellOf(text) {
  const last = String(text).split(" ").pop();
  return /^[a-z]+[0-9]+$/.test(last) && text.includes(" ") ? last : null;
}

function cellName(x, y, height) {
  return `${String.fromCharCode(97 + x)}${height - y}`;
}

function drawing(path, cls, x, y, size) {
  return element("path", { d: path, class: cls, transform: `translate(${x} ${y}) scale(${size / 20})` });
}

/** Draws `view` (the server's answer) into `root`; `menu(cell, decisions, event)` is called for a
 * clicked cell that names decisions. */
export function drawBoard(root, view, menu) {
  const rows = view.view.board;
  const height = rows.length, width = rows[0].length;
  const flip = view.viewer === 1;  // the viewer's home at the bottom
  const byCell = new Map();
  for (const decision of view.decisions) {
    const cell = cellOf(decision.text);
    if (cell) byCell.set(cell, [...(byCell.get(cell) || []), decision]);
  }
  const svg = element("svg", { id: "thrones-board", viewBox: `0 0 ${width * CELL + EDGE} ${height * CELL + EDGE}`,
                               xmlns: "http://www.w3.org/2000/svg" });
  const actor = view.view.actor;
  rows.forEach((row, y) => row.forEach((cell, x) => {
    const sx = (flip ? width - 1 - x : x) * CELL + EDGE, sy = (flip ? height - 1 - y : y) * CELL;
    const name = cellName(x, y, height);
    const tile = cell.tile || "empty";
    const g = element("g", { class: `cell tile-${tile}`, "data-cell": name, "data-tile": tile,
                             "data-piece": cell.piece === "unknown" ? "unknown" : cell.piece ? `${cell.piece.type} ${cell.piece.seat}` : "" });
    g.append(element("rect", { x: sx, y: sy, width: CELL, height: CELL, class: "ground" }));
    if (TILES[tile]) g.append(drawing(TILES[tile], "tile-mark", sx + 10, sy + 10, 14));
    if (cell.breached) g.append(drawing("M-8 -8 L-2 0 L-5 2 L8 8", "breach", sx + CELL / 2, sy + CELL / 2, 36));
    if (cell.piece === "unknown" || tile === "unknown") {
      g.append(element("text", { x: sx + CELL / 2, y: sy + CELL / 2, class: "unknown-mark" }, "?"));
    } else if (cell.piece) {
      const { type, seat } = cell.piece;
      g.append(element("circle", { cx: sx + CELL / 2, cy: sy + CELL / 2 + 3, r: 15, class: `token ${SEATS[seat]}` }));
      g.append(drawing(PIECES[type], `piece-mark ${SEATS[seat]}${FILLED.has(type) ? " filled" : ""}`,
                       sx + CELL / 2, sy + CELL / 2 + 3, 22));
    }
    if (actor === y * width + x) g.append(element("rect", { x: sx + 2, y: sy + 2, width: CELL - 4, height: CELL - 4, class: "actor" }));
    const here = byCell.get(name);
    if (here) {
      g.classList.add("clickable");
      g.append(element("rect", { x: sx + 3, y: sy + 3, width: CELL - 6, height: CELL - 6, class: "legal-cell" }));
      g.addEventListener("click", (event) => menu(name, here, event));
    }
    g.append(element("title", {}, `${name}: ${cell.tile || "not laid"}${cell.piece === "unknown" ? ", unknown"
                                  : cell.piece ? `, ${cell.piece.type} of P${cell.piece.seat}` : ""}`));
    svg.append(g);
  }));
  for (let i = 0; i < width; i++) {
    const x = flip ? width - 1 - i : i;
    svg.append(element("text", { x: i * CELL + EDGE + CELL / 2, y: height * CELL + EDGE / 2 + 2, class: "coord" }, String.fromCharCode(97 + x)));
  }
  for (let j = 0; j < height; j++) {
    const y = flip ? height - 1 - j : j;
    svg.append(element("text", { x: EDGE / 2, y: j * CELL + CELL / 2, class: "coord" }, String(height - y)));
  }
  root.replaceChildren(svg);
}

/** The legend: every tile and piece with its drawing and name. */
export function drawLegend(root) {
  const item = (cls, path, label, extra = "") => {
    const svg = element("svg", { viewBox: "-12 -12 24 24", class: `legend-icon ${cls}` });
    svg.append(element("rect", { x: -12, y: -12, width: 24, height: 24, class: "ground" }));
    if (extra) svg.append(element("circle", { cx: 0, cy: 0, r: 10, class: `token ${extra}` }));
    if (path) svg.append(element("path", { d: path, class: extra ? `piece-mark ${extra}` : "tile-mark" }));
    if (label === "unknown") svg.append(element("text", { x: 0, y: 1, class: "unknown-mark" }, "?"));
    const span = element("span", { class: "legend-item" });
    span.append(svg, element("span", {}, label));
    return span;
  };
  root.replaceChildren(
    element("b", {}, "Tiles "), ...Object.entries(TILES).map(([name, path]) => item(`tile-${name}`, path, name)),
    element("br"), element("b", {}, "Pieces "),
    ...Object.entries(PIECES).map(([name, path]) => item("tile-empty", path, name, `light${FILLED.has(name) ? " filled" : ""}`)));
}

/** A chance event in words, with its coin: a survival check passed or failed, the first player. */
export function describeChance(event, seats) {
  if (event.kind === "check") {
    return { text: `P${event.seat}'s ${event.piece} (${event.action}): the coin says ${event.passed ? "survived" : "failed"}`,
             coin: event.passed ? "pass" : "fail" };
  }
  if (event.kind === "first_player") return { text: `the coin gives the first turn to P${event.seat} (${seats[event.seat]})`, coin: "toss" };
  return { text: JSON.stringify(event), coin: "toss" };
}

/** The status line: the phase, who moves, the favors and reserves as the viewer sees them. */
export function statusOf(view) {
  const v = view.view;
  const setup = v.phase === "setup" ? `setup (${v.setup_steps.join(" / ")} decisions laid)` : `turn ${v.turn_no}`;
  const hidden = v.revealed ? "setups revealed" : "the setups are secret until both are laid";
  return `${setup}; ${hidden}; favors ${v.favors.join(" / ")}; dragons in reserve ${v.reserve.map((r) => r ?? "?").join(" / ")}`;
}
