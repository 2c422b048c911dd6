// Moves drawn over the boards (as lichess draws arrows and KaTrain colours the top moves):
// the hint's best moves, ranked, each on the piece it is about (an action space, a tool
// track, a building, a vehicle, a moor, a tile; arle_ai.web.board.move_target, the legal
// move's `on`) with its VP margin, and in the mistakes mode the better move and the move
// played. A move about no one piece (a good, an animal, a delivery, pass) is marked on its
// button in the list of moves. The marks lie inside their piece and let clicks through.

import { $, signed } from "./dom.js";
import { state, isSolo, positionKey } from "./state.js";
import { svgEl, svgTitle } from "./svg.js";

const HINT_MARKS = 3;  // the hint's best moves drawn
// the colour of a mark: the hint's ranks (lichess's arrows: the best green), the answer
export const TONES = { 1: "#1e8a3c", 2: "#2d6cb5", 3: "#8e5bb5", better: "#1e8a3c", played: "#c0392b" };

// The hint's best moves as marks, when the hint answers the position on the board.
function hintMarks(g) {
  const f = state.hintFor;
  const moves = state.hintMoves;
  if (!f || !moves || f.key !== positionKey(state.id, g)) return [];
  const solo = isSolo(g);
  return moves.filter((m) => m.visits > 0).slice(0, HINT_MARKS).map((m, i) => ({
    action: m.action, rank: i + 1, tone: TONES[i + 1], badge: String(i + 1),
    // the mover's mean final VP lead; the solo game's expected final score
    text: solo ? `${m.margin.toFixed(0)} VP` : signed(m.margin),
    title: `hint ${i + 1}: ${f.labels[m.action] || m.move}: ${solo ? `expected final score ${m.margin.toFixed(1)} VP` : `mean final VP margin ${signed(m.margin)}`} (${m.visits} visits)`,
  }));
}

// The marks of the position shown: the mistakes mode's answer when it shows one here, else
// the hint's.
function currentMarks(g) {
  const learn = state.learn;
  return learn && learn.marks && learn.marksAt === g.node ? learn.marks : hintMarks(g);
}

// The action spaces the marks are about: the narrow game board shows the other season's
// spaces only when a worker stands there or a mark is about them.
export function markedSpaces(g) {
  const onOf = Object.fromEntries(g.legal.map((m) => [m.action, m.on]));
  return currentMarks(g).map((m) => onOf[m.action]).filter((on) => on && on.startsWith("space:")).map((on) => on.slice(6));
}

// How the page draws the game board again (play.js): when a marked space is not on it.
let redrawBoard = null;
export function onBoardRedraw(fn) { redrawBoard = fn; }

// Redraw the marks (after the boards, and with each hint update).
export function renderBoardMarks(again = true) {
  for (const n of document.querySelectorAll("#board .board-marks, #legal .move-mark")) n.remove();
  const g = state.game;
  if (!g) return;
  const marks = currentMarks(g);
  if (!marks.length) return;
  const onOf = Object.fromEntries(g.legal.map((m) => [m.action, m.on]));
  const find = (on) => (on ? $("board").querySelector(`[data-on~="${on}"]`) : null);
  if (again && redrawBoard && marks.some((m) => (onOf[m.action] || "").startsWith("space:") && !find(onOf[m.action]))) {
    redrawBoard(g);  // with the marked spaces shown
    renderBoardMarks(false);
    return;
  }
  const taken = new Map();  // a piece's node -> the first (best) mark on it
  for (const mark of marks) {
    const button = $("legal").querySelector(`.move-btn[data-action="${mark.action}"]`);
    if (button) button.querySelector(".label").prepend(moveMark(mark));
    // a target may match several pieces (any empty land space): the first one is marked
    const node = find(onOf[mark.action]);
    if (!node) continue;
    if (taken.has(node)) { taken.get(node).others.push(mark); continue; }
    taken.set(node, { ...mark, others: [] });
  }
  for (const [node, mark] of taken) drawMark(node, mark);
}

function moveMark(mark) {
  const span = document.createElement("span");
  span.className = "move-mark";
  span.dataset.markRank = mark.badge;
  span.style.background = mark.tone;
  span.textContent = mark.text ? `${mark.badge} ${mark.text}` : mark.badge;
  span.title = mark.title;
  return span;
}

// A mark on `node` (an SVG group of a board): its outline, and a badge with the rank and
// the margin at its right, inside the piece, right of the piece's words and worker where
// they leave room (its font made smaller down to 6.5, then the margin left out).
function drawMark(node, mark) {
  const svg = node.ownerSVGElement;
  let layer = svg.querySelector(":scope > .board-marks");
  if (!layer) { layer = svgEl("g", { class: "board-marks", "pointer-events": "none" }); svg.append(layer); }
  const b = node.getBBox();
  const grp = svgEl("g", { class: "board-mark", "data-mark-rank": mark.badge, "data-mark-on": node.getAttribute("data-on") });
  grp.append(svgEl("rect", { x: b.x + 1, y: b.y + 1, width: Math.max(0, b.width - 2), height: Math.max(0, b.height - 2), rx: 4, fill: mark.tone, "fill-opacity": 0.12, stroke: mark.tone, "stroke-width": 3 }));
  const h = Math.min(16, b.height - 6);
  const y = b.height > 40 ? b.y + 3 : b.y + (b.height - h) / 2;
  const right = b.x + b.width - 3;
  // the room right of the words and the worker in the badge's band
  let left = b.x + 3;
  for (const n of node.querySelectorAll("text, [data-piece='worker']")) {
    const t = n.getBBox();
    if (t.y < y + h && t.y + t.height > y && t.x < right) left = Math.max(left, t.x + t.width + 2);
  }
  const fit = (label) => {
    const size = Math.min(h * 0.72, (right - left - 8) / (label.length * 0.62));
    return size >= 6.5 ? [label, size] : null;
  };
  const full = mark.text ? `${mark.badge} ${mark.text}` : mark.badge;
  const [label, size] = fit(full) || fit(mark.badge) || [full, Math.max(6.5, Math.min(h * 0.72, (b.width - 14) / (full.length * 0.62)))];
  const w = Math.min(b.width - 6, label.length * size * 0.62 + 8);
  const x = right - w;
  grp.append(svgEl("rect", { x, y, width: w, height: h, rx: h / 2, fill: mark.tone, class: "mark-badge" }));
  grp.append(svgEl("text", { x: x + w / 2, y: y + h / 2 + size * 0.36, "font-size": size.toFixed(1), "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, label));
  const also = mark.others.length ? `; also on this piece: ${mark.others.map((o) => o.title).join("; ")}` : "";
  svgTitle(grp, mark.title + also);
  layer.append(grp);
}
