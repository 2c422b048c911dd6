// Moves drawn over the boards (as lichess draws arrows and KaTrain colours the top moves):
// the hint's best moves, ranked, each on the piece it is about (an action space, a tool
// track, a building, a vehicle, a moor, a tile; arle_ai.web.board.move_target, the legal
// move's `on`) with its VP margin, and in the mistakes mode the better move and the move
// played. A move about no one piece (a good, an animal, a delivery, pass) is marked on its
// button in the list of moves; at a how-many question (a repeated conversion, asked as a
// count) a mark is on the count button of the answer its move gives (the server's reading,
// the mark's `count`: a `more` the count its line converts in all, a `stop` 0). The marks lie
// on their piece (a badge with no room inside it stands beside it) and let clicks through.

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
    action: m.action, count: m.count, rank: i + 1, tone: TONES[i + 1], badge: String(i + 1),
    // the mover's mean final VP lead; the solo game's expected final score
    text: solo ? `${m.margin.toFixed(0)} VP` : signed(m.margin),
    title: `hint ${i + 1}: ${m.label || f.labels[m.action] || m.move}: ${solo ? `expected final score ${m.margin.toFixed(1)} VP` : `mean final VP margin ${signed(m.margin)}`} (${m.visits} visits)`,
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
  const onButton = new Map();  // a button -> the first (best) mark's badge on it
  for (const mark of marks) {
    const button = buttonOf(g, mark);
    if (button && onButton.has(button)) onButton.get(button).title += `; also this answer: ${mark.title}`;
    else if (button) {
      onButton.set(button, moveMark(mark));
      button.querySelector(".label").prepend(onButton.get(button));
    }
    // a target may match several pieces (any empty land space): the first one is marked
    const node = find(onOf[mark.action]);
    if (!node) continue;
    if (taken.has(node)) { taken.get(node).others.push(mark); continue; }
    taken.set(node, { ...mark, others: [] });
  }
  // what a badge must not cover: the boards' words and workers, the marked pieces, the
  // badges drawn (by board)
  const boards = new Map();
  for (const node of taken.keys()) {
    const svg = node.ownerSVGElement;
    if (!boards.has(svg)) boards.set(svg, { words: [...svg.querySelectorAll("text, [data-piece='worker']")].map(box), marked: [], badges: [] });
    boards.get(svg).marked.push([node, box(node)]);
  }
  for (const [node, mark] of taken) drawMark(node, mark, boards.get(node.ownerSVGElement));
}

// The button of a mark's move in the list of moves: at a how-many question the count button
// of the answer the move gives (two moves may give one answer: the first, best, mark is
// drawn), else the move's own.
function buttonOf(g, mark) {
  const counted = g.counts && mark.count !== undefined && mark.count !== null;
  return $("legal").querySelector(counted ? `.move-btn[data-count="${mark.count}"]` : `.move-btn[data-action="${mark.action}"]`);
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

const MIN_FONT = 6.5;  // a badge's smallest font (SVG units)
const OUT_H = 13;  // the height of a badge beside its piece
// An element's box on its board (getBBox leaves out the transforms of the element and its
// groups: a worker's or an animal's translate and scale).
function box(n) {
  const b = n.getBBox();
  let m = new DOMMatrix();
  for (let e = n; e && e !== n.ownerSVGElement; e = e.parentNode) {
    const t = e.transform && e.transform.baseVal.consolidate();
    if (t) m = DOMMatrix.fromMatrix(t.matrix).multiply(m);
  }
  const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]].map(([x, y]) => m.transformPoint({ x, y }));
  const xs = corners.map((c) => c.x), ys = corners.map((c) => c.y);
  return { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
}
const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const widthOf = (label, size) => label.length * size * 0.62 + 8;

// A mark on `node` (an SVG group of a board): its outline, and a badge with the rank and the
// margin. The badge lies inside the piece, at its right, right of the words and workers in
// its band (the top band of a tall piece, the middle of a flat one, else another band with
// room; its font made smaller down to 6.5). Where the piece has no such room the badge
// stands just beside the piece, covering no words, worker, other marked piece or badge:
// the margin is never left out.
function drawMark(node, mark, board) {
  const svg = node.ownerSVGElement;
  let layer = svg.querySelector(":scope > .board-marks");
  if (!layer) { layer = svgEl("g", { class: "board-marks", "pointer-events": "none" }); svg.append(layer); }
  const b = box(node);
  const grp = svgEl("g", { class: "board-mark", "data-mark-rank": mark.badge, "data-mark-on": node.getAttribute("data-on") });
  grp.append(svgEl("rect", { x: b.x + 1, y: b.y + 1, width: Math.max(0, b.width - 2), height: Math.max(0, b.height - 2), rx: 4, fill: mark.tone, "fill-opacity": 0.12, stroke: mark.tone, "stroke-width": 3, class: "mark-outline" }));
  const label = mark.text ? `${mark.badge} ${mark.text}` : mark.badge;
  const { x, y, w, h, size } = inside(b, label, board.words) || beside(svg, node, b, label, board);
  board.badges.push({ x, y, width: w, height: h });
  grp.append(svgEl("rect", { x, y, width: w, height: h, rx: h / 2, fill: mark.tone, class: "mark-badge" }));
  grp.append(svgEl("text", { x: x + w / 2, y: y + h / 2 + size * 0.36, "font-size": size.toFixed(1), "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, label));
  const also = mark.others.length ? `; also on this piece: ${mark.others.map((o) => o.title).join("; ")}` : "";
  svgTitle(grp, mark.title + also);
  layer.append(grp);
}

// The badge inside the piece `b`, right of the words: the first band, nearest the usual one
// and as tall as the piece allows, where the whole label fits at MIN_FONT or more.
function inside(b, label, words) {
  const right = b.x + b.width - 3;
  const usual = (h) => (b.height > 40 ? b.y + 3 : b.y + (b.height - h) / 2);
  for (let h = Math.min(16, b.height - 6); h * 0.72 >= MIN_FONT; h -= 2) {
    const tops = [];
    for (let y = b.y + 3; y <= b.y + b.height - 3 - h; y += 1) tops.push(y);
    tops.sort((p, q) => Math.abs(p - usual(h)) - Math.abs(q - usual(h)));
    for (const y of [usual(h), ...tops]) {
      let left = b.x + 3;
      for (const t of words) if (t.y < y + h && t.y + t.height > y && t.x < right && t.x + t.width > b.x) left = Math.max(left, t.x + t.width + 2);
      const size = Math.min(h * 0.72, (right - left - 8) / (label.length * 0.62));
      if (size >= MIN_FONT) { const w = widthOf(label, size); return { x: right - w, y, w, h, size }; }
    }
  }
  return null;
}

// The badge just beside the piece `b` (right, left, above or below it, on the board): where
// it covers no words, worker, other marked piece or badge, and the fewest other pieces.
function beside(svg, node, b, label, board) {
  const h = OUT_H, size = h * 0.72, w = widthOf(label, size);
  const view = svg.viewBox.baseVal;
  const ys = [b.y, b.y + (b.height - h) / 2, b.y + b.height - h];
  const xs = [b.x + b.width - w, b.x];
  const spots = [...ys.map((y) => ({ x: b.x + b.width + 1, y })), ...ys.map((y) => ({ x: b.x - w - 1, y })),
    ...xs.map((x) => ({ x, y: b.y - h - 1 })), ...xs.map((x) => ({ x, y: b.y + b.height + 1 }))];
  const pieces = [...svg.querySelectorAll("[data-on], [data-piece]")].filter((n) => !n.contains(node) && !node.contains(n) && !n.closest(".board-marks")).map(box);
  let best = null;
  for (const s of spots) {
    const r = { ...s, width: w, height: h };
    if (r.x < view.x || r.y < view.y || r.x + w > view.x + view.width || r.y + h > view.y + view.height) continue;
    if (board.words.some((t) => meets(r, t)) || board.badges.some((t) => meets(r, t))) continue;
    if (board.marked.some(([n, t]) => n !== node && meets(r, t))) continue;
    const covered = pieces.filter((t) => meets(r, t)).length;
    if (!best || covered < best.covered) best = { ...r, covered };
  }
  // (no free spot on the board at all: over the piece, as large as it allows)
  return best ? { x: best.x, y: best.y, w, h, size } : { x: b.x + b.width - w, y: b.y, w, h, size };
}
