// The side panel (#panel) beside the board: the banner (game over, an interrupt), the status lines
// (map, phase, round, wind, who decides), each player's purse, tokens and pieces, the person's
// decisions as buttons, and the events list. It draws the view it is given and keeps no state.

import { byId, decisionButton, element } from "./dom.js";

const EVENTS_KEPT = 400;

/** Draws the panel for `view`; `onDecide` (or null when no one decides here) answers its buttons. */
export function drawPanel(view, onDecide) {
  const seats = view.seats || [];
  const seatName = (seat) => `P${seat}` + (seats[seat] ? ` ${seats[seat]}` : "");
  drawBanner(view.status, seatName);
  byId("status").replaceChildren(...statusLines(view, seatName).map((line) => element("div", {}, line)));
  byId("players-panel").replaceChildren(...view.players.map((player) => playerRow(player, view.status.to_act)));
  byId("yours").hidden = !onDecide;
  if (onDecide) drawYourDecisions(view, onDecide);
}

function drawBanner(status, seatName) {
  const banner = byId("banner");
  banner.className = "";
  banner.textContent = "";
  if (status.over) {
    const shared = status.winners.length > 1;
    banner.textContent = `Game over: ${status.winners.map(seatName).join(" and ")} win${shared ? " (shared)" : "s"}.`;
    banner.className = "over";
  } else if (status.truncated) {
    banner.textContent = "The game was cut off (the decision limit), no winner.";
    banner.className = "over";
  } else if (status.interrupt) {
    const asked = status.interrupt === "retaliation" ? " may activate one unit with retaliation silver, or end"
      : " chooses who defends";
    banner.textContent = `${status.interrupt_words}: ${seatName(status.to_act)}` + asked;
    banner.className = "interrupt";
  }
}

function statusLines(view, seatName) {
  const status = view.status;
  const lines = [
    status.over ? `Map ${status.map} · the game ended after turn ${status.turn}`
      : `Map ${status.map} · ${status.phase} phase · round ${status.round}/${status.rounds} · turn ${status.turn}`,
    `Wind ${status.wind === "clockwise" ? "↻" : "↺"} ${status.wind}`,
  ];
  if (!status.over && !status.truncated) {
    lines.push(`To decide: ${view.human ? "you, " : ""}${seatName(status.to_act)}` +
      (status.turn_player !== status.to_act ? ` (turn of P${status.turn_player})` : ""));
  }
  if (status.builds_left !== null && status.builds_left !== undefined) {
    lines.push(`Units P${status.turn_player} may still build this turn: ${status.builds_left}`);
  }
  if (status.active) lines.push(`Active: ${status.active}`);
  if (status.asked && !view.human) lines.push(status.asked);
  if (view.last) lines.push(`Last: ${view.last.text}`);
  if (view.kind === "live") lines.push(`Seed ${view.seed} · ${view.decisions_made} decisions`);
  return lines;
}

function playerRow(player, toAct) {
  const row = element("div", { class: "player" + (player.seat === toAct ? " to-act" : "") });
  const swatch = element("span", { class: "swatch" });
  swatch.style.background = player.colour;  // a style property, not a style attribute: allowed by a strict CSP
  row.append(swatch, element("b", {}, `P${player.seat} ${player.agent}`));
  row.append(element("span", { class: "purse", "data-seat": player.seat },
                     ` gold ${player.gold} · silver ${player.silver} · tokens ${player.tokens}`));
  row.append(element("div", { class: "pieces" }, player.pieces));
  return row;
}

function drawYourDecisions(view, onDecide) {
  const onBoard = view.decisions.some((decision) => decision.cell >= 0);
  byId("asked").textContent = view.status.asked || (onBoard ? "Click a highlighted hex." : "");
  const offBoard = view.decisions.filter((decision) => decision.cell < 0);
  byId("global-decisions").replaceChildren(...offBoard.map((decision) => decisionButton(decision, onDecide)));
  byId("decision-list").replaceChildren(...view.decisions.map((decision) => decisionButton(decision, onDecide)));
}

/** An item of the events list: numbered from 1, coloured by player, a turn's start set apart. */
function eventItem(event) {
  const kind = `p${event.player}` + (event.event === "turn" ? " turn" : "");
  return element("li", { value: event.i + 1, class: kind }, event.text);
}

export function clearEvents() {
  byId("events").replaceChildren();
}

/** Adds a live game's new events (the last EVENTS_KEPT stay); those numbered past `newsFrom` are news. */
export function appendEvents(events, newsFrom) {
  const list = byId("events");
  list.append(...events.map(eventItem));
  while (list.children.length > EVENTS_KEPT) list.firstChild.remove();
  for (const item of list.children) item.classList.toggle("news", item.value > newsFrom);
  list.scrollTop = list.scrollHeight;
}

/** The events list of a replay frame: the decision that led to it, then what it caused. */
export function listFrameEvents(view, frame) {
  const items = view.events.map(eventItem);
  if (view.last) items.unshift(element("li", { value: frame, class: "decision" }, view.last.text));
  else items.push(element("li", {}, "the start: step forward to see the first decision"));
  byId("events").replaceChildren(...items);
}
