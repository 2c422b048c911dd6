// SVG helpers of the boards: elements, text that fits its box, the pieces drawn in several
// places (animals, workers, peat), and the colours of players, buildings and spaces.

import { nameOf } from "./state.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export function svgEl(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function svgTitle(node, text) { node.append(svgEl("title", {}, text)); return node; }

export const PLAYER_FILL = ["#c0392b", "#2d6cb5"];
export const BUILDING_FILL = { light_green: "#cfe8b5", dark_green: "#8fbf74", yellow: "#f6e58a", orange: "#f5be7c", blue: "#a9c8ec", red: "#eea39a" };
export const SPACE_FILL = { green: "#8fbf74", yellow: "#f6e58a", orange: "#f5be7c", blue: "#a9c8ec", red: "#eea39a" };

const CHAR_EM = 0.58; // the mean width of a letter in em (DejaVu Sans, Liberation Sans)

// Text cut to fit `width` pixels at `size`, cut in the middle so that names which differ at
// their ends stay apart.
export function fitText(text, width, size) {
  const max = Math.max(3, Math.floor(width / (size * CHAR_EM)));
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2), tail = Math.floor((max - 1) / 2);
  return text.slice(0, head) + "…" + text.slice(text.length - tail);
}

// The font size, at most `size` and at least `least`, at which `text` fits `width`.
export const fitSize = (text, width, size, least = 7) => Math.max(least, Math.min(size, width / (CHAR_EM * Math.max(1, text.length))));

// Up to two lines of text in a box: words wrapped, the font made smaller (down to 7) for a
// long word, which is cut in the middle only if it still does not fit.
export function wrapText(parent, text, x, y, width, size, attrs = {}) {
  const longest = Math.max(...text.split(" ").map((w) => w.length));
  size = fitSize("x".repeat(longest), width, size);
  const max = Math.max(3, Math.floor(width / (size * CHAR_EM)));
  const lines = [""];
  for (const w of text.split(" ")) {
    const cur = lines[lines.length - 1];
    if (!cur) lines[lines.length - 1] = w;
    else if ((cur + " " + w).length <= max) lines[lines.length - 1] = cur + " " + w;
    else lines.push(w);
  }
  const shown = lines.length > 2 ? [lines[0], lines.slice(1).join(" ")] : lines;
  shown.forEach((line, i) => parent.append(svgEl("text", { x, y: y + i * (size + 1), "font-size": size.toFixed(1), ...attrs }, fitText(line, width, size))));
}

export function animalIcon(x, y, kind, scale = 1) {
  const fills = { sheep: ["#f7f4ea", "#555"], cattle: ["#7a4a25", "#3a220f", "#fff"], horse: ["#2f241c", "#000"] };
  const [fill, stroke, spots] = fills[kind] || ["#999", "#333"];
  const g = svgEl("g", { transform: `translate(${x},${y}) scale(${scale})`, "data-piece": "animal", "data-kind": kind, class: "animal" });
  g.append(svgEl("ellipse", { cx: 0, cy: 0, rx: 5.2, ry: 3.6, fill, stroke, "stroke-width": 0.8 }));
  g.append(svgEl("circle", { cx: 5.4, cy: -2.4, r: 2.4, fill, stroke, "stroke-width": 0.8 }));
  for (const lx of [-3, 3]) g.append(svgEl("line", { x1: lx, y1: 3, x2: lx, y2: 5.5, stroke, "stroke-width": 1 }));
  if (spots) g.append(svgEl("circle", { cx: -1.5, cy: -0.5, r: 1.4, fill: spots }));
  return svgTitle(g, nameOf(kind));
}

export function meeple(x, y, player, extra = {}) {
  const g = svgEl("g", { transform: `translate(${x},${y})`, "data-piece": "worker", "data-player": String(player), class: `meeple p${player}`, ...extra });
  g.append(svgEl("path", { d: "M0,-9 a3.2,3.2 0 1 1 0.01,0 M-3,-3.5 L3,-3.5 L6.5,0 L4,1.5 L4,7 L-4,7 L-4,1.5 L-6.5,0 Z", fill: PLAYER_FILL[player], stroke: "#0008", "stroke-width": 0.8 }));
  return g;
}

export function peatBlock(x, y, extra = {}) {
  return svgEl("rect", { x, y, width: 6, height: 6, rx: 1, fill: "#2b2118", stroke: "#000", "stroke-width": 0.5, "data-piece": "peat", ...extra });
}
