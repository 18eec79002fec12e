// The side panel (#panel) beside the board: the banner (game over, an interrupt), the status lines
// (map, phase, round, wind, who decides), each player's purse, tokens, pieces, losses and gains and
// last decision, the person's decisions as buttons, the battles of the decisions shown (their dice
// and why), and the move list: every decision, numbered once, with its events under it. It draws
// what it is given and keeps no state but the move list's items.

import { byId, decisionButton, element } from "./dom.js";

const MOVES_KEPT = 3000;

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

/** A player's one name, everywhere: "P1" with the agent at the seat when known ("P1 greedy"). */
export function seatName(seats, seat) {
  return `P${seat}` + (seats && seats[seat] ? ` ${seats[seat]}` : "");
}

/** Draws the panel for `view`; `onDecide` (or null when no one decides here) answers its buttons. */
export function drawPanel(view, onDecide) {
  const name = (seat) => seatName(view.seats, seat);
  drawBanner(view.status);
  byId("status").replaceChildren(...statusLines(view, name).map((line) => element("div", {}, line)));
  byId("players-panel").replaceChildren(...view.players.map((player) =>
    playerRow(player, view.status.to_act, (view.last_decisions || [])[player.seat])));
  byId("yours").hidden = !onDecide;
  if (onDecide) drawYourDecisions(view, onDecide);
  drawSheet(view, name);
}

// The score sheet: a row per source of tokens, a column per player, the totals last; open at the
// game's end, and on demand before it.
function drawSheet(view, name) {
  const box = byId("sheet-box");
  box.hidden = !view.sheet;
  if (!view.sheet) return;
  if (view.status.over && !box.dataset.opened) { box.open = true; box.dataset.opened = "1"; }
  if (!view.status.over) delete box.dataset.opened;
  const sources = Object.keys(view.sheet[0]);
  const head = element("tr", {}, "");
  head.append(element("th", {}, "source"), ...view.players.map((player) => element("th", {}, name(player.seat))));
  const rows = sources.map((source) => {
    const row = element("tr", { "data-source": source });
    row.append(element("td", {}, source), ...view.sheet.map((sheet) => element("td", {}, String(sheet[source]))));
    return row;
  });
  const total = element("tr", { class: "total" });
  total.append(element("td", {}, "tokens"), ...view.players.map((player) => element("td", {}, String(player.tokens))));
  byId("sheet").replaceChildren(head, ...rows, total);
}

// The banner: the game's end, or the question asked now, in the server's words for it
// (vigtavl_env/web_view.py's banner: a choice asked inside a retaliation is named as that choice).
function drawBanner(status) {
  const banner = byId("banner");
  banner.className = status.banner.kind;
  banner.textContent = status.banner.text;
}

function statusLines(view, name) {
  const status = view.status;
  const lines = [
    `Map ${status.map} · ${status.turn_words}`,
    `Wind ${status.wind === "clockwise" ? "↻" : "↺"} ${status.wind}` + (view.seed !== undefined ? ` · seed ${view.seed}` : ""),
  ];
  if (!status.over && !status.truncated) {
    lines.push(`To decide: ${view.human ? "you, " : ""}${name(status.to_act)}` +
      (status.turn_player !== status.to_act ? ` (in ${name(status.turn_player)}'s turn)` : ""));
  }
  if (status.builds_left !== null && status.builds_left !== undefined) {
    lines.push(`${name(status.turn_player)} may still build ${plural(status.builds_left, "unit")} this turn`);
  }
  if (status.active) lines.push(`Active: ${status.active}`);
  if (status.asked && !view.human) lines.push(status.asked);
  return lines;
}

function playerRow(player, toAct, last) {
  const row = element("div", { class: "player" + (player.seat === toAct ? " to-act" : ""), "data-seat": player.seat });
  const swatch = element("span", { class: "swatch" });
  swatch.style.background = player.colour;  // a style property, not a style attribute: allowed by a strict CSP
  row.append(swatch, element("b", {}, `P${player.seat} ${player.agent}`));
  row.append(element("span", { class: "purse", "data-seat": player.seat },
                     ` gold ${player.gold} · silver ${player.silver} · tokens ${player.tokens}`));
  const aboard = player.aboard ? ` (${player.aboard} aboard)` : "";
  row.append(element("div", { class: "pieces" }, `${plural(player.units, "unit")} on the board${aboard} · ` +
                     `${plural(player.developments, "development")} · ${plural(player.walls, "wall")}`));
  const gains = [player.prisoners ? `${plural(player.prisoners, "prisoner")} held` : "",
                 player.sunk ? `${plural(player.sunk, "ship")} sunk` : ""].filter(Boolean);
  row.append(element("div", { class: "pieces tally" },
                     `lost: ${player.lost_captured ? plural(player.lost_captured, "unit") + " captured" : "none"} · ` +
                     `won: ${gains.join(", ") || "none"}`));
  if (last) row.append(element("div", { class: "last-decision" }, `Last: ${last}`));
  return row;
}

function drawYourDecisions(view, onDecide) {
  const onBoard = view.decisions.some((decision) => decision.cell >= 0);
  byId("asked").textContent = view.status.asked || (onBoard ? "Click a highlighted hex." : "");
  const offBoard = view.decisions.filter((decision) => decision.cell < 0);
  byId("global-decisions").replaceChildren(...offBoard.map((decision) => decisionButton(decision, onDecide)));
  byId("decision-list").replaceChildren(...view.decisions.map((decision) => decisionButton(decision, onDecide)));
}

// ------------------------------------------------------------------ the strongest agent's advice
/** A hint (live) or a replay frame's analysis in #hint: the agent's choices with their
 * probabilities (buttons that decide when `onDecide` is given, else lines) and its estimate of the
 * game for `who` (the player to move) as words and a bar in `colour`. */
export function drawAdvice(hint, colour, onDecide, who) {
  const share = Math.round(100 * hint.win);
  const bar = element("div", { class: "eval-bar", title: `the network's estimate for ${who}: ${share}% of a win` });
  const filled = element("span");
  filled.style.width = `${share}%`;
  filled.style.background = colour;
  bar.append(filled);
  const choices = hint.choices.map((choice) => {
    const words = `${choice.percent}%: ${choice.label || choice.text}`;
    if (!onDecide) return element("div", { class: "hint-choice", "data-action": choice.action }, words);
    const button = decisionButton(choice, onDecide, "hint-choice");
    button.textContent = words;
    return button;
  });
  byId("hint").replaceChildren(element("b", {}, `${hint.agent} would choose${onDecide ? "" : ` for ${who}`}:`), ...choices,
                               element("div", {}, `Its estimate of the game for ${who}: ${share}% of a win`), bar);
  byId("hint").hidden = false;
}

// ------------------------------------------------------------------ battles
function die(value, cls, colour) {
  const face = element("span", { class: `die ${cls}` }, String(value));
  if (colour) face.style.borderColor = colour;
  return face;
}

// The attacker's extra dice are the last of his row: flanking's, then attrition's, each marked apart
// (an engine that does not tell them apart: all marked "+").
function extraMark(i, n, extra) {
  if (!extra) return "";
  const fromEnd = n - i;
  if (extra.flank === null || extra.flank === undefined) return fromEnd <= extra.tactics ? "tactics" : "";
  if (fromEnd <= extra.attrition) return "tactics attrition";
  return fromEnd <= extra.attrition + extra.flank ? "tactics flank" : "";
}

function diceRow(who, values, best, colour, extra, need) {
  const row = element("div", { class: "dice-row" }, who);
  values.forEach((value, i) => {
    const mark = extraMark(i, values.length, extra);
    const marks = [mark, value === best ? "best" : "", need && value <= need ? "hit" : ""].filter(Boolean).join(" ");
    const face = die(value, marks, colour);
    if (mark) face.title = mark.includes("flank") ? "flank: a die from flanking" : mark.includes("attrition") ? "attrition: a die from attrition"
      : "flank or attrition: an extra die";
    row.append(face);
  });
  return row;
}

function battleBox(battle, move, seats, colours) {
  const a = battle.attacker, d = battle.defender;
  const verb = battle.ranged ? "shoots at" : battle.seize ? "fights to seize" : "attacks";
  const result = battle.won ? "wins" : "loses";
  const box = element("div", { class: `battle ${battle.won ? "won" : "lost"}`, "data-move": move.n });
  box.append(element("div", { class: "battle-head" },
                     `${move.n}. ${seatName(seats, a.seat)}'s ${a.unit} ${verb} ${seatName(seats, d.seat)}'s ${d.unit}: ${result}`));
  for (const [k, round] of battle.rounds.entries()) {
    const tag = battle.rounds.length > 1 ? ` (roll ${k + 1})` : "";
    const bestA = round.attack.length ? Math.max(...round.attack) : null;
    const bestD = round.defend.length ? Math.max(...round.defend) : null;
    box.append(diceRow(`attacker${tag}`, round.attack, battle.ranged ? null : bestA, colours[a.seat], a, battle.need));
    if (!battle.ranged) box.append(diceRow(`defender${tag}`, round.defend, bestD, colours[d.seat], null, 0));
  }
  box.append(element("div", { class: "why" }, `Why: ${battle.why}`));
  return box;
}

/** The battles of `moves` (the last few), with their dice and why; hidden when there are none. */
export function drawBattles(moves, seats, colours) {
  const boxes = [];
  for (const move of moves) for (const battle of move.battles) boxes.push(battleBox(battle, move, seats, colours));
  const shown = boxes.slice(-4);
  byId("battles").replaceChildren(...shown);
  byId("battles-section").hidden = shown.length === 0;
}

// ------------------------------------------------------------------ the move list
function moveItem(move, onPick) {
  const item = element("li", { value: move.n, class: `p${move.seat}` + (move.plain ? " plain" : ""), "data-n": move.n });
  const head = element("button", { class: "move-text", title: "show this decision" }, move.n === 0 ? "Setup" : move.text);
  head.addEventListener("click", () => onPick(move.n));
  item.append(head);
  if (move.events.length) {
    const events = element("ul");
    for (const event of move.events) {
      events.append(element("li", { class: `p${event.player}` + (event.event === "turn" ? " turn" : "") }, event.text));
    }
    item.append(events);
  }
  return item;
}

export function clearMoves() {
  byId("moves").replaceChildren();
}

/** Adds `moves` to the list (the last MOVES_KEPT stay); those numbered past `newsFrom` are news. */
export function appendMoves(moves, newsFrom, onPick) {
  const list = byId("moves");
  list.append(...moves.map((move) => moveItem(move, onPick)));
  while (list.children.length > MOVES_KEPT) list.firstChild.remove();
  for (const item of list.children) item.classList.toggle("news", +item.dataset.n > newsFrom);
  list.scrollTop = list.scrollHeight;
}

/** Marks decision `n` as the one shown (or none: -1), and scrolls it into the list's view. */
export function markMove(n) {
  for (const item of byId("moves").querySelectorAll("li.shown")) item.classList.remove("shown");
  const item = byId("moves").querySelector(`li[data-n='${n}']`);
  if (!item) return;
  item.classList.add("shown");
  const list = byId("moves");
  if (item.offsetTop < list.scrollTop || item.offsetTop > list.scrollTop + list.clientHeight - 20) {
    list.scrollTop = item.offsetTop - list.clientHeight / 3;
  }
}
