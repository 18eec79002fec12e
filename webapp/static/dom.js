// The page's building blocks: finding an element by its id, making one (HTML or SVG), and the one
// way a decision is shown as a button (the hex menu and the side panel both offer decisions).

const SVG_NAMESPACE = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "g", "polygon", "circle", "rect", "line", "text", "title", "path"]);

export function byId(id) {
  return document.getElementById(id);
}

/** A new element: `attributes` set as they are, `text` (when given) as its text. */
export function element(tag, attributes = {}, text) {
  const node = SVG_TAGS.has(tag) ? document.createElementNS(SVG_NAMESPACE, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The button of a decision, in the server's words for it (said once): a click calls `onDecide`
 * with its action number; `extra` is added to its class (a hint's rank). */
export function decisionButton(decision, onDecide, extra = "") {
  const button = element("button", { "data-action": decision.action, "data-command": decision.command, class: extra },
                         decision.label || decision.text);
  button.addEventListener("click", () => onDecide(decision.action));
  return button;
}
