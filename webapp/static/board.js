// The hex board (the SVG #board): the map drawn once per board, then each position over it (walls,
// marks, the front of each hex attacked this turn, the hexes with a legal decision, pieces with
// their pictures and tooltips, and what the decision shown did: its battles and their outcomes,
// labels that never take a click); the hover line, and hex clicks with their menu, kept inside
// the page.
// It draws what the server sends (hex corners, piece places, colours) and owns one state object,
// boardShown: what is on the board now, for the hover line and the clicks.

import { byId, decisionButton, element } from "./dom.js";
import { glyph } from "./glyphs.js";

const LAYERS = ["hexes", "coords", "walls", "marks", "fronts", "legal", "pieces", "outcomes", "hints"];
const MENU_GAP = 8;  // pixels between the pointer and the hex menu
const PRISONER_SIZE = 9;  // a prisoner's square, rimmed in its owner's colour
const HOVER_HINT = "hover a hex or a piece for what it is";
const COORDINATES_KEY = "vigtavl-coords";

const boardShown = {
  board: null,     // the map's geometry from the server: cells, sizes, colours
  view: null,      // the position drawn: pieces, walls, marks, the legal decisions
  onDecide: null,  // called with an action number when a hex is clicked; null when no one may decide here
};

/** Shows the game section for `kind` ("live" or "replay") with `board` drawn (redrawn if another). */
export function showBoard(board, kind) {
  byId("game").hidden = false;
  document.body.dataset.view = kind;
  if (boardShown.board === board) return;
  boardShown.board = board;
  boardShown.view = null;
  const svg = byId("board");
  svg.replaceChildren(...LAYERS.map((name) => element("g", { id: `layer-${name}` })));
  svg.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
  svg.style.aspectRatio = `${board.width} / ${board.height}`;  // its height known before any redraw: a click lands where aimed
  for (const cell of board.cells) drawHex(board, cell);
  showCoordinates();
}

function drawHex(board, cell) {
  const hexes = byId("layer-hexes");
  const hex = element("polygon", { points: cell.points, class: `hex ${cell.terrain}`, fill: board.terrain_colours[cell.terrain],
                                   "data-cell": cell.cell, "data-q": cell.q, "data-r": cell.r });
  hex.append(element("title", {}, `${cell.q},${cell.r} ${cell.terrain}`));
  hex.addEventListener("click", (event) => clickHex(cell.cell, event));
  hex.addEventListener("mouseenter", () => hoverHex(cell));
  hexes.append(hex);
  if (cell.terrain === "mountain") {
    const h = board.hex_size * 0.45;
    const { x, y } = cell;
    hexes.append(element("polygon", { class: "peak", points: `${x - h},${y + h * 0.6} ${x},${y - h * 0.8} ${x + h},${y + h * 0.6}` }));
  }
  byId("layer-coords").append(element("text", { x: cell.x, y: cell.y + board.hex_size * 0.66, class: "coord" }, `${cell.q},${cell.r}`));
}

function showCoordinates() {
  const shown = byId("coords").checked;
  const layer = byId("layer-coords");
  if (layer) layer.style.display = shown ? "" : "none";
  localStorage.setItem(COORDINATES_KEY, shown ? "1" : "");
}

/** Draws a position over the board; `onDecide` (or null) answers clicks on its legal hexes. */
export function drawPosition(view, onDecide) {
  boardShown.view = view;
  boardShown.onDecide = onDecide;
  const colours = boardShown.board.player_colours;
  drawWalls(view.walls, colours);
  drawMarks(view);
  drawFronts(view.fronts || []);
  drawLegal(view.decisions);
  byId("layer-pieces").replaceChildren(...view.pieces.map((piece) => drawPiece(piece, colours[piece.owner], view.seats)));
  byId("hover-info").textContent = HOVER_HINT;  // the hex it described may have changed
  byId("layer-hints").replaceChildren();  // a hint is for the position it was asked in
}

/** Draws a hint's choices on their hexes: an outline and the agent's probability. */
export function drawHint(hint) {
  const layer = byId("layer-hints");
  layer.replaceChildren();
  hint.choices.forEach((choice, rank) => {
    const cell = boardShown.board.cells[choice.cell];
    if (!cell) return;
    const group = element("g", { class: `hint-mark rank-${rank}`, "data-cell": choice.cell });
    group.append(element("polygon", { points: cell.points }));
    group.append(element("text", { x: cell.x, y: cell.y + boardShown.board.hex_size * 0.55 }, `${choice.percent}%`));
    layer.append(group);
  });
}

/** Marks what `move` did on the board (null: nothing): each battle's hex, and each outcome as a
 * word on its hex; one decision's labels at a time, and the clicks go through them to the hex. */
export function drawOutcomes(shown) {
  const colours = boardShown.board.player_colours;
  const layer = byId("layer-outcomes");
  layer.replaceChildren();
  const stacked = {};  // words already on a hex: the next goes below
  for (const move of shown ? [shown] : []) {
    for (const battle of move.battles) {
      const cell = boardShown.board.cells[battle.cell];
      if (cell) layer.append(element("circle", { cx: cell.x, cy: cell.y, r: boardShown.board.hex_size * 0.8, class: "battle-ring" }));
    }
    for (const outcome of move.outcomes) {
      const k = stacked[outcome.cell] = (stacked[outcome.cell] || 0) + 1;
      const y = outcome.y - boardShown.board.hex_size * 0.55 + (k - 1) * 11;
      const width = 6.2 * outcome.what.length + 8;
      const label = element("g", { class: `outcome ${outcome.what.replace(" ", "-")}`, "data-cell": outcome.cell });
      label.append(element("rect", { x: outcome.x - width / 2, y: y - 6, width, height: 12, rx: 3,
                                     stroke: outcome.by >= 0 ? colours[outcome.by] : "#fff" }));
      label.append(element("text", { x: outcome.x, y }, outcome.what));
      const whose = (outcome.by >= 0 ? `P${outcome.by} gains` : "") + (outcome.of >= 0 ? `${outcome.by >= 0 ? ", " : ""}P${outcome.of} loses` : "");
      label.append(element("title", {}, `${move.n}. ${outcome.what}` + (whose ? ` (${whose})` : "")));
      layer.append(label);
    }
  }
}

function cellPoints(cell) {
  return boardShown.board.cells[cell].points;
}

function drawWalls(walls, colours) {
  const layer = byId("layer-walls");
  layer.replaceChildren();
  for (const wall of walls) {
    const ends = { x1: wall.x1, y1: wall.y1, x2: wall.x2, y2: wall.y2 };
    layer.append(element("line", { ...ends, class: "wall-under" }));
    layer.append(element("line", { ...ends, class: "wall", stroke: colours[wall.owner] }));
  }
}

function drawMarks(view) {
  const layer = byId("layer-marks");
  layer.replaceChildren();
  const marks = view.marks;
  if (marks.pending >= 0 && marks.origin >= 0) {
    const from = boardShown.board.cells[marks.origin], to = boardShown.board.cells[marks.pending];
    layer.append(element("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "mark-line" }));
  }
  for (const cell of (view.last && view.last.cells) || []) {
    layer.append(element("polygon", { points: cellPoints(cell), class: "mark last" }));
  }
  for (const [name, cell] of Object.entries(marks)) {
    if (cell >= 0 && name !== "origin") layer.append(element("polygon", { points: cellPoints(cell), class: `mark ${name}` }));
  }
}

// The front of each hex attacked this turn: the edge its first attack crossed, from which the
// flanking dice are counted ("flank +N": +1 a side away, +2 two sides, +3 the opposite side).
function drawFronts(fronts) {
  byId("layer-fronts").replaceChildren(...fronts.map((front) =>
    element("line", { x1: front.x1, y1: front.y1, x2: front.x2, y2: front.y2, class: "front", "data-cell": front.cell })));
}

function drawLegal(decisions) {
  const cells = new Set(decisions.filter((decision) => decision.cell >= 0).map((decision) => decision.cell));
  byId("layer-legal").replaceChildren(...[...cells].map((cell) =>
    element("polygon", { points: cellPoints(cell), class: "legal", "data-cell": cell })));
  document.querySelectorAll("#layer-hexes .hex").forEach((hex) => hex.classList.toggle("clickable", cells.has(+hex.dataset.cell)));
}

function drawPiece(piece, fill, seats) {
  const { x, y, size } = piece;
  const group = element("g", { class: `piece ${piece.kind}`, "data-cell": piece.cell, "data-piece": piece.name, "data-owner": piece.owner });
  if (piece.kind === "dev") {
    group.append(element("rect", { x: x - size, y: y - size, width: 2 * size, height: 2 * size, fill }));
    group.append(glyph(piece.name, x, y, 1.6 * size));
  } else if (piece.kind === "artillery") {
    const h = 10;
    group.append(element("polygon", { points: `${x},${y - h} ${x + h},${y} ${x},${y + h} ${x - h},${y}`, fill }));
    group.append(glyph("artillery", x, y, 13));
  } else if (piece.kind === "unit") {
    group.append(element("circle", { cx: x, cy: y, r: 10, fill, class: piece.spent ? "spent" : "" }));
    group.append(glyph(piece.name, x, y, 14, piece.spent));
    for (let i = 0; i < piece.cargo; i++) group.append(element("circle", { cx: x - 7 + i * 6, cy: y + 12, r: 2, class: "cargo" }));
  } else {
    const h = PRISONER_SIZE / 2;
    group.append(element("rect", { x: x - h, y: y - h, width: 2 * h, height: 2 * h, class: "prisoner", stroke: fill }));
  }
  group.append(element("title", {}, pieceWords(piece, seats)));
  // the piece answers for its hex: a click or a hover on it is one on the hex
  group.addEventListener("click", (event) => clickHex(piece.cell, event));
  group.addEventListener("mouseenter", () => hoverHex(boardShown.board.cells[piece.cell]));
  return group;
}

/** A piece in words, for its tooltip: what, whose, spent or upright, its cargo. */
export function pieceWords(piece, seats) {
  const agent = seats && seats[piece.owner] ? ` (${seats[piece.owner]})` : "";
  let words = `P${piece.owner}${agent}: ${piece.name}`;
  if (piece.kind === "unit") words += piece.spent ? ", spent (activated this turn)" : ", upright (may act)";
  if (piece.aboard && piece.aboard.length) words += `, aboard: ${piece.aboard.join(", ")}`;
  else if (piece.name === "freighter") words += ", empty";
  return words;
}

function hoverHex(cell) {
  const view = boardShown.view;
  const here = view ? view.pieces.filter((piece) => piece.cell === cell.cell).map((piece) => pieceWords(piece, view.seats)) : [];
  const kinds = view && boardShown.onDecide ? [...new Set(view.decisions.filter((decision) => decision.cell === cell.cell).map((decision) => decision.kind))] : [];
  byId("hover-info").textContent = `${cell.q},${cell.r} ${cell.terrain}` + (here.length ? ": " + here.join("; ") : "") +
    (kinds.length ? `  |  click: ${kinds.join(", ")}` : "");
}

// A hex with one decision makes it at once; with several, a menu of them opens beside the pointer.
function clickHex(cell, event) {
  const { view, onDecide } = boardShown;
  if (!view || !onDecide) return;
  const here = view.decisions.filter((decision) => decision.cell === cell);
  if (here.length === 0) { closeHexMenu(); return; }
  if (here.length === 1) { onDecide(here[0].action); return; }
  const menu = byId("hex-menu");
  const { q, r } = boardShown.board.cells[cell];
  menu.replaceChildren(element("div", { class: "menu-title" }, `${q},${r}: choose`),
                       ...here.map((decision) => decisionButton(decision, onDecide)));
  menu.hidden = false;
  placeMenu(menu, event);
}

// Beside the pointer, flipped to its left (or held at the page's edge) where it would run off the
// page on the right, so the page never scrolls sideways.
function placeMenu(menu, event) {
  const wrap = byId("board-wrap").getBoundingClientRect();
  const page = document.documentElement.clientWidth;
  const width = menu.offsetWidth;
  let left = event.clientX + MENU_GAP;
  if (left + width > page) left = event.clientX - MENU_GAP - width;
  left = Math.max(0, Math.min(left, page - width));
  menu.style.left = `${left - wrap.left}px`;
  menu.style.top = `${event.clientY - wrap.top + MENU_GAP}px`;
}

export function closeHexMenu() {
  byId("hex-menu").hidden = true;
}

/** The board's own controls: the coordinates box, and a click elsewhere closing the hex menu. */
export function wireBoard() {
  byId("coords").checked = localStorage.getItem(COORDINATES_KEY) === "1";
  byId("coords").addEventListener("change", showCoordinates);
  byId("board").addEventListener("mouseleave", () => { byId("hover-info").textContent = HOVER_HINT; });
  document.addEventListener("click", (event) => {
    const onHex = event.target.closest && event.target.closest("#layer-hexes, #layer-pieces");
    if (!byId("hex-menu").contains(event.target) && !onHex) closeHexMenu();
  });
}
