// The hex board (the SVG #board): the map drawn once per board, then each position over it (walls,
// marks, the hexes with a legal decision, pieces); the hover line, and hex clicks with their menu.
// It draws what the server sends (hex corners, piece places, colours) and owns one state object,
// boardShown: what is on the board now, for the hover line and the clicks.

import { byId, decisionButton, element } from "./dom.js";

const LAYERS = ["hexes", "coords", "walls", "marks", "legal", "pieces"];
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
  drawLegal(view.decisions);
  byId("layer-pieces").replaceChildren(...view.pieces.map((piece) => drawPiece(piece, colours[piece.owner])));
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

function drawLegal(decisions) {
  const cells = new Set(decisions.filter((decision) => decision.cell >= 0).map((decision) => decision.cell));
  byId("layer-legal").replaceChildren(...[...cells].map((cell) =>
    element("polygon", { points: cellPoints(cell), class: "legal", "data-cell": cell })));
  document.querySelectorAll("#layer-hexes .hex").forEach((hex) => hex.classList.toggle("clickable", cells.has(+hex.dataset.cell)));
}

function drawPiece(piece, fill) {
  const { x, y, size } = piece;
  const group = element("g", { class: `piece ${piece.kind}` });
  if (piece.kind === "dev") {
    group.append(element("rect", { x: x - size, y: y - size, width: 2 * size, height: 2 * size, fill }));
    group.append(element("text", { x, y }, piece.letter));
  } else if (piece.kind === "artillery") {
    const h = 9;
    group.append(element("polygon", { points: `${x},${y - h} ${x + h},${y} ${x},${y + h} ${x - h},${y}`, fill }));
    group.append(element("text", { x, y }, "A"));
  } else if (piece.kind === "unit") {
    group.append(element("circle", { cx: x, cy: y, r: 9, fill, class: piece.spent ? "spent" : "" }));
    group.append(element("text", { x, y }, piece.letter));
    for (let i = 0; i < piece.cargo; i++) group.append(element("circle", { cx: x - 7 + i * 6, cy: y + 11, r: 2, class: "cargo" }));
  } else {
    group.append(element("rect", { x: x - 4, y: y - 4, width: 8, height: 8, class: "prisoner", stroke: fill }));
  }
  const about = `P${piece.owner}'s ${piece.name}` + (piece.spent ? " (activated this turn)" : "") +
    (piece.cargo ? `, ${piece.cargo} aboard` : "");
  group.append(element("title", {}, about));
  return group;
}

function hoverHex(cell) {
  const view = boardShown.view;
  const here = view ? view.pieces.filter((piece) => piece.cell === cell.cell).map((piece) => `P${piece.owner} ${piece.name}`) : [];
  const kinds = view ? [...new Set(view.decisions.filter((decision) => decision.cell === cell.cell).map((decision) => decision.kind))] : [];
  byId("hover-info").textContent = `${cell.q},${cell.r} ${cell.terrain}` + (here.length ? ": " + here.join(", ") : "") +
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
  const wrap = byId("board-wrap").getBoundingClientRect();
  menu.style.left = `${event.clientX - wrap.left + 8}px`;
  menu.style.top = `${event.clientY - wrap.top + 8}px`;
  menu.hidden = false;
}

export function closeHexMenu() {
  byId("hex-menu").hidden = true;
}

/** The board's own controls: the coordinates box, and a click elsewhere closing the hex menu. */
export function wireBoard() {
  byId("coords").checked = localStorage.getItem(COORDINATES_KEY) === "1";
  byId("coords").addEventListener("change", showCoordinates);
  document.addEventListener("click", (event) => {
    const onHex = event.target.classList && event.target.classList.contains("hex");
    if (!byId("hex-menu").contains(event.target) && !onHex) closeHexMenu();
  });
}
